/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-profile.c — `seinstall profile FILE`: the effective settings of a profile with the
 * installer's boot options (and, with --root, the target's config), and where each came from. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: seinstall profile FILE [--cmdline FILE | --no-cmdline] [--root DIR] "
                   "[--json]\n\n"
                   "Show the settings an install would use: boot options (/proc/cmdline or "
                   "--cmdline FILE)\n> the kickstart profile FILE > the target's config (with "
                   "--root) > defaults,\nand where each came from.\n");
}

int cmd_profile(int argc, char **argv)
{
        static const struct option options[] = {
            CLI_COMMON_OPTIONS,
            {"cmdline", required_argument, NULL, 'c'},
            {"no-cmdline", no_argument, NULL, 'n'},
            {},
        };
        struct cli_common common = {};
        struct cli_settings_args a = {};
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_free_ char *profile = NULL;
        int opt, r;

        while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
                if (cli_common_option(&common, opt, optarg))
                        continue;
                switch (opt) {
                case 'h':
                        usage(stdout);
                        return EXIT_OK;
                case 'c':
                        a.cmdline_file = optarg;
                        break;
                case 'n':
                        a.no_cmdline = true;
                        break;
                default:
                        return cli_usage_error("profile", "unknown option");
                }
        }
        if (optind != argc - 1)
                return cli_usage_error("profile", "one profile FILE is needed");
        if (a.cmdline_file && a.no_cmdline)
                return cli_usage_error("profile", "--cmdline and --no-cmdline contradict");
        a.profile = argv[optind];
        /* Only an explicit --root brings a target into it: this system's own config is not
         * the target of a profile being checked. */
        a.load_target = common.root != NULL;
        r = cli_open(&common, &ctx);
        if (r != 0)
                return r;
        r = cli_load_settings(ctx, &a, &s, &profile);
        if (r != 0)
                return r;
        if (common.json) {
                struct json j = {0};

                cli_json_settings(&j, s, profile);
                return cli_print_json(&j, "profile");
        }
        cli_print_settings(s, profile, stdout);
        return EXIT_OK;
}
