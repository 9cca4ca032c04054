/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-profile.c — `seinstall profile FILE`: the effective settings of a profile with the
 * installer's boot options (and, with --root, the target's config), and where each came from;
 * with --plan, the layout the kickstart plans as an fstab for `seinstall check --plan`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall profile FILE [--cmdline FILE | --no-cmdline] [--root DIR]\n"
                "                         [--json]\n"
                "       seinstall profile FILE --plan [--default-fstype TYPE]\n"
                "                         [--firmware efi|bios]\n"
                "\n"
                "Show the settings an install would use: boot options > the kickstart profile\n"
                "FILE > the target's config (with --root) > defaults, and where each came from.\n"
                "\n"
                "  --cmdline FILE         the installer's boot options from FILE (/proc/cmdline)\n"
                "  --no-cmdline           read no boot options\n"
                "  --root DIR             the target whose config counts (default: none)\n"
                "  --json                 print one JSON document on stdout\n"
                "  --plan                 print the layout the kickstart's part, logvol, raid,\n"
                "                         btrfs, autopart and reqpart plan, as an fstab for\n"
                "                         'seinstall check --plan'\n"
                "  --default-fstype TYPE  type of a device with no file system type (xfs)\n"
                "  --firmware efi|bios    reqpart and autopart add the EFI System Partition on\n"
                "                         EFI firmware (default: this machine's)\n"),
              f);
}

/* The layout as an fstab; warnings (an existing device not found here) on stderr. */
static int print_plan(const struct opts *common, const char *path, const char *default_fstype,
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

struct profile_args {
        const char *default_fstype, *firmware;
        bool plan;
};

static int profile_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct profile_args *a = userdata;

        switch (opt) {
        case 'p':
                a->plan = true;
                return 0;
        case 'd':
                a->default_fstype = arg;
                return 0;
        case 'f':
                if (!streq(arg, "efi") && !streq(arg, "bios"))
                        return opts_invalid(o, "firmware", arg, N_("efi or bios"));
                a->firmware = arg;
                return 0;
        default:
                return -EINVAL;
        }
}

int cmd_profile(int argc, char **argv)
{
        static const struct option own[] = {
            {"plan", no_argument, NULL, 'p'},
            {"default-fstype", required_argument, NULL, 'd'},
            {"firmware", required_argument, NULL, 'f'},
            {},
        };
        static const int exclusive[][2] = {{OPT_CMDLINE, OPT_NO_CMDLINE}, {}};
        struct profile_args pa = {};
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPTS_CMDLINE,
            .own = own,
            .own_option = profile_option,
            .userdata = &pa,
            .exclusive = exclusive,
            .max_args = SIZE_MAX, /* counted below, to say what is missing */
        };
        _cleanup_(opts_done) struct opts common = OPTS_INIT;
        struct cli_settings_args a = {};
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_free_ char *profile = NULL;
        int r;

        r = cli_parse("profile", usage, &common, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        if (common.n_args != 1)
                return cli_usage_error("profile", "one profile FILE is needed");
        a.profile = common.args[0];
        a.cmdline_file = common.cmdline;
        a.no_cmdline = common.no_cmdline;
        if ((pa.default_fstype || pa.firmware) && !pa.plan)
                return cli_usage_error("profile", "--default-fstype and --firmware need --plan");
        if (pa.plan)
                return print_plan(&common, a.profile, pa.default_fstype, pa.firmware);
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
