/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* install-counts — run one seinstall_install() on a target and print how often it read its
 * expensive inputs (the context's private counters), so a test can hold the install pipeline
 * to "each input read once":
 *   install-counts ROOT [MODE [firstboot]]
 * prints one line: refused=0|1 policy_loads=N fc_compiles=N config_reads=N checks=N.
 * MODE (default enforcing) is set as a profile would; "firstboot" defers the relabel. Exit
 * status as the CLI's (cli_exit_status); the error on stderr. */
#include "report.h"
#include "seinstall-private.h"

int main(int argc, char **argv)
{
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_settings *s = NULL;
        struct seinstall_install_result *res = NULL;
        enum seinstall_mode mode = SEINSTALL_MODE_ENFORCING;
        int r;

        if (argc < 2 || argc > 4 ||
            (argc > 2 && (mode = seinstall_mode_from_string(argv[2])) == SEINSTALL_MODE_INVALID) ||
            (argc > 3 && !streq(argv[3], "firstboot"))) {
                fprintf(stderr, "usage: install-counts ROOT [MODE [firstboot]]\n");
                return 2;
        }
        r = seinstall_new(argv[1], &ctx);
        if (r >= 0)
                r = seinstall_settings_new(&s);
        if (r >= 0)
                r = seinstall_settings_set_mode(s, mode, SEINSTALL_SOURCE_PROFILE);
        if (r >= 0 && argc > 3)
                r = seinstall_settings_set_relabel_when(s, SEINSTALL_RELABEL_WHEN_FIRSTBOOT,
                                                        SEINSTALL_SOURCE_PROFILE);
        if (r >= 0)
                r = seinstall_install(ctx, s, NULL, 0, &res);
        if (r < 0) {
                const char *msg = ctx ? seinstall_last_error(ctx) : NULL;
                fprintf(stderr, "install-counts: %s\n", msg ? msg : strerror(-r));
        } else {
                printf("refused=%d policy_loads=%u fc_compiles=%u config_reads=%u checks=%u\n",
                       seinstall_install_result_get_refused(res), ctx->counters.policy_loads,
                       ctx->counters.fc_compiles, ctx->counters.config_reads, ctx->counters.checks);
        }
        seinstall_install_result_unref(res);
        seinstall_settings_unref(s);
        seinstall_unref(ctx);
        return cli_exit_status(r);
}
