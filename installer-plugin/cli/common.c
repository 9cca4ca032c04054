/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* common.c — what the subcommands of `seinstall` print alike and seinstall-firstboot does not:
 * a relabel's errors and skipped mounts. What both front ends share is in report.c. */
#include <stdio.h>

#include "cli.h"

void cli_print_relabel_errors(const struct seinstall_relabel_result *res)
{
        cli_progress_break();
        for (size_t i = 0; i < seinstall_relabel_result_get_n_errors(res); i++)
                fprintf(stderr, "seinstall: %s\n",
                        cli_esc(seinstall_relabel_result_get_error(res, i)));
}

void cli_print_relabel_skipped(const struct seinstall_relabel_result *res)
{
        for (size_t i = 0; i < seinstall_relabel_result_get_n_skipped(res); i++)
                printf("skipped mount %s (%s): %s\n",
                       cli_esc(seinstall_relabel_result_get_skipped_mountpoint(res, i)),
                       cli_esc(seinstall_relabel_result_get_skipped_fstype(res, i)),
                       cli_esc(seinstall_relabel_result_get_skipped_reason(res, i)));
}
