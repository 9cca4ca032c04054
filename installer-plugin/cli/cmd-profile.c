/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-profile.c — `seinstall profile FILE`: the effective settings of a profile with the
 * installer's boot options (and, with --root, the target's config), and where each came from;
 * with --plan, the layout the kickstart plans as an fstab for `seinstall check --plan`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: seinstall profile FILE [--cmdline FILE | --no-cmdline] [--root DIR] "
                   "[--json]\n"
                   "       seinstall profile FILE --plan [--default-fstype TYPE] "
                   "[--firmware efi|bios]\n\n"
                   "Show the settings an install would use: boot options (/proc/cmdline or "
                   "--cmdline FILE)\n> the kickstart profile FILE > the target's config (with "
                   "--root) > defaults,\nand where each came from.\n\n"
                   "With --plan, print the layout the kickstart's part, logvol, raid, btrfs,\n"
                   "autopart and reqpart commands plan, as an fstab for `seinstall check --plan`;\n"
                   "a device with no file system type gets TYPE (default xfs); reqpart and\n"
                   "autopart add the EFI System Partition on EFI firmware (default: this\n"
                   "machine's).\n");
}

/* The layout as an fstab; warnings (an existing device not found here) on stderr. */
static int print_plan(struct cli_common *common, const char *path, const char *default_fstype,
                      const char *firmware)
{
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_free_ char *text = NULL;
        unsigned flags = 0;
        int r;

        if (common->json)
                return cli_usage_error("profile", "--plan prints an fstab, not JSON");
        if (firmware ? strcmp(firmware, "efi") == 0 : access("/sys/firmware/efi", F_OK) == 0)
                flags |= SEINSTALL_PLAN_EFI;
        r = cli_open(common, &ctx);
        if (r != 0)
                return r;
        r = seinstall_profile_plan(ctx, path, default_fstype, flags, &text);
        if (r < 0)
                return cli_fail(ctx, r, "profile");
        fputs(text, stdout);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_SYSTEM;
}

int cmd_profile(int argc, char **argv)
{
        static const struct option options[] = {
            CLI_COMMON_OPTIONS,
            {"cmdline", required_argument, NULL, 'c'},
            {"no-cmdline", no_argument, NULL, 'n'},
            {"plan", no_argument, NULL, 'p'},
            {"default-fstype", required_argument, NULL, 'd'},
            {"firmware", required_argument, NULL, 'f'},
            {},
        };
        struct cli_common common = {};
        struct cli_settings_args a = {};
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_free_ char *profile = NULL;
        const char *default_fstype = NULL, *firmware = NULL;
        bool plan = false;
        int opt, r;

        opt_reset();
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
                case 'p':
                        plan = true;
                        break;
                case 'd':
                        default_fstype = optarg;
                        break;
                case 'f':
                        if (strcmp(optarg, "efi") != 0 && strcmp(optarg, "bios") != 0)
                                return cli_usage_error(
                                    "profile", "invalid --firmware '%s': use efi or bios", optarg);
                        firmware = optarg;
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
        if ((default_fstype || firmware) && !plan)
                return cli_usage_error("profile", "--default-fstype and --firmware need --plan");
        if (plan)
                return print_plan(&common, a.profile, default_fstype, firmware);
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
