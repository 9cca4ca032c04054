/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* common.c — what the subcommands of `seinstall` print alike and seinstall-firstboot does not:
 * a relabel's errors and skipped mounts. What both front ends share is in report.c. */
#include <stdio.h>

#include "cli.h"

void cli_print_relabel_errors(const struct seinstall_relabel_result *res)
{
        size_t n = seinstall_relabel_result_get_n_errors(res);
        unsigned long long all =
            seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS);

        cli_progress_break();
        for (size_t i = 0; i < n; i++)
                fprintf(stderr, "seinstall: %s\n",
                        cli_esc(seinstall_relabel_result_get_error(res, i)));
        /* the result keeps the first errors, and counts them all */
        if (all > n && n > 0)
                fprintf(stderr, _("seinstall: and %llu more\n"), all - n);
}

void cli_print_relabel_skipped(const struct seinstall_relabel_result *res)
{
        for (size_t i = 0; i < seinstall_relabel_result_get_n_skipped(res); i++)
                /* TRANSLATORS: "skipped mount /proc (proc): WHY" */
                printf(_("skipped mount %s (%s): %s\n"),
                       cli_esc(seinstall_relabel_result_get_skipped_mountpoint(res, i)),
                       cli_esc(seinstall_relabel_result_get_skipped_fstype(res, i)),
                       cli_esc(seinstall_relabel_result_get_skipped_reason(res, i)));
}
