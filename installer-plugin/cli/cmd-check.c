/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-check.c — `seinstall check`: can the target's filesystems carry SELinux labels? */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall check [--root DIR] [--plan FSTAB | --profile KS] [--mode M]\n"
                "                       [--policy TYPE] [--unsupported refuse|warn]\n"
                "                       [--verbose] [--json]\n\n"
                "Decide for every mount of the target whether its filesystem can carry SELinux\n"
                "labels under the target's policy, and refuse or warn with a reason.\n\n"
                "  --root DIR           the target tree (default /); its mounts are checked\n"
                "  --plan FSTAB         check a planned layout (fstab format) instead; a type of\n"
                "                       auto, or none, is probed on the device or image;\n"
                "                       - reads it from standard input\n"
                "  --profile KS         the kickstart's mode, --unsupported and planned layout\n"
                "                       (the layout --plan gives, if also given)\n"
                "  --default-fstype T   with --profile: type of a device given none (xfs)\n"
                "  --firmware efi|bios  with --profile: plan the EFI System Partition or not\n"
                "                       (default: this machine's firmware)\n"
                "  --cmdline FILE       with --profile: boot options from FILE (/proc/cmdline)\n"
                "  --no-cmdline         with --profile: no boot options\n"
                "  --mode M             enforcing, permissive or disabled (default: the\n"
                "                       profile's, the target's config, else enforcing);\n"
                "                       reported with source boot\n"
                "  --policy TYPE        policy type (default: the target's config, else default)\n"
                "  --unsupported WHAT   refuse (default) or warn: accept what enforcing would\n"
                "                       refuse, lowering the mode to permissive\n"
                "  --verbose            explain every mount, not only those that are not ok\n"
                "  --json               print one JSON document on stdout\n\n"
                "Exit status: 0 ok (warnings allowed), 1 refused, 2 bad usage or input,\n"
                "3 the system failed.\n"),
              f);
}

/* Columns @s takes on a terminal: its characters (cli_esc() leaves only valid UTF-8), not its
 * bytes, so "/home/café" lines up with "/home/cafe". */
static size_t columns(const char *s)
{
        size_t n = 0;

        for (; *s; s++)
                n += ((unsigned char) *s & 0xc0) != 0x80;
        return n;
}

static size_t column_width(const struct seinstall_check_result *c, const char *head,
                           const char *(*get)(const struct seinstall_check_result *, size_t))
{
        size_t w = columns(head);

        for (size_t i = 0; i < seinstall_check_result_get_n_mounts(c); i++) {
                const char *s = get(c, i);
                if (s && columns(cli_esc(s)) > w)
                        w = columns(cli_esc(s));
        }
        return w;
}

/* @s (already escaped) and the spaces that fill its column of @width, and the gap. */
static void print_cell(const char *s, size_t width)
{
        fputs(s, stdout);
        for (size_t n = columns(s); n < width + 2; n++)
                putchar(' ');
}

/* The verdict as a word of the reader's language (JSON keeps the library's names). */
static const char *verdict_word(enum seinstall_verdict v)
{
        switch (v) {
        case SEINSTALL_VERDICT_OK:
                /* TRANSLATORS: a mount's verdict in check's table: it can carry the labels */
                return _("ok");
        case SEINSTALL_VERDICT_WARN:
                /* TRANSLATORS: a mount's verdict: accepted with a warning */
                return _("warn");
        case SEINSTALL_VERDICT_REFUSE:
                /* TRANSLATORS: a mount's verdict: refused */
                return _("refuse");
        default:
                return seinstall_verdict_to_string(v);
        }
}

static const char *labeling_of(const struct seinstall_check_result *c, size_t i)
{
        return seinstall_labeling_to_string(seinstall_check_result_get_mount_labeling(c, i));
}

static const char *or_dash(const char *s)
{
        return s && *s ? cli_esc(s) : "-";
}

/* The table has one line per mount; below it, why for each mount that is not ok (every mount
 * with @verbose). */
static void print_human(const struct seinstall_check_result *c, bool verbose)
{
        enum seinstall_source mode_src, pol_src;
        enum seinstall_mode mode = seinstall_check_result_get_mode(c, &mode_src);
        const char *policy = seinstall_check_result_get_policy(c, &pol_src);
        const char *file = seinstall_check_result_get_policy_file(c);
        size_t n = seinstall_check_result_get_n_mounts(c);
        /* TRANSLATORS: the column heads of check's table, in capitals */
        const char *hm = _("MOUNT"), *hs = _("SOURCE"), *ht = _("TYPE"), *hl = _("LABELING"),
                   *hb = _("LABEL"), *hv = _("VERDICT");
        size_t wm = column_width(c, hm, seinstall_check_result_get_mount_mountpoint);
        size_t ws = column_width(c, hs, seinstall_check_result_get_mount_source);
        size_t wt = column_width(c, ht, seinstall_check_result_get_mount_fstype);
        size_t wl = column_width(c, hl, labeling_of);
        size_t wb = column_width(c, hb, seinstall_check_result_get_mount_label);

        printf(_("Policy: %s, read from %s (%s)\n"), cli_esc(policy),
               file ? cli_esc(file) : _("seinstall's built-in table"),
               cli_source_name(pol_src, "--policy"));
        printf(_("Mode:   %s (%s)"), seinstall_mode_to_string(mode),
               cli_source_name(mode_src, "--mode"));
        if (seinstall_check_result_get_mode_lowered(c))
                printf(_(", lowered from %s by seinstall.unsupported=warn"),
                       seinstall_mode_to_string(seinstall_check_result_get_requested_mode(c)));
        printf("\n\n");
        print_cell(hm, wm);
        print_cell(hs, ws);
        print_cell(ht, wt);
        print_cell(hl, wl);
        print_cell(hb, wb);
        printf("%s\n", hv);
        for (size_t i = 0; i < n; i++) {
                print_cell(cli_esc(seinstall_check_result_get_mount_mountpoint(c, i)), wm);
                print_cell(or_dash(seinstall_check_result_get_mount_source(c, i)), ws);
                print_cell(or_dash(seinstall_check_result_get_mount_fstype(c, i)), wt);
                print_cell(or_dash(labeling_of(c, i)), wl);
                print_cell(or_dash(seinstall_check_result_get_mount_label(c, i)), wb);
                printf("%s\n", verdict_word(seinstall_check_result_get_mount_verdict(c, i)));
        }

        for (size_t i = 0; i < n; i++) {
                enum seinstall_verdict v = seinstall_check_result_get_mount_verdict(c, i);
                const char *fix = seinstall_check_result_get_mount_fix(c, i);

                if (v == SEINSTALL_VERDICT_OK && !verbose)
                        continue;
                printf("\n%s %s: %s\n", verdict_word(v),
                       cli_esc(seinstall_check_result_get_mount_mountpoint(c, i)),
                       cli_esc(seinstall_check_result_get_mount_reason(c, i)));
                if (fix && *fix)
                        printf(_("  fix: %s\n"), cli_esc(fix));
        }

        switch (seinstall_check_result_get_verdict(c)) {
        case SEINSTALL_VERDICT_REFUSE:
                printf(_("\nRefused: at least one filesystem cannot carry the labels %s mode "
                         "needs (see fix above).\n"),
                       seinstall_mode_to_string(mode));
                break;
        case SEINSTALL_VERDICT_WARN:
                printf("%s", _("\nAccepted with warnings.\n"));
                break;
        default:
                printf("%s", _("\nAccepted: every filesystem can carry the labels it needs.\n"));
                break;
        }
}

struct check_args {
        const char *plan;
        const char *profile, *default_fstype, *firmware;
        bool verbose;
};

static int check_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct check_args *a = userdata;

        switch (opt) {
        case 'p':
                a->plan = arg;
                return 0;
        case 'v':
                a->verbose = true;
                return 0;
        case 'k':
                a->profile = arg;
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

/* The settings: --profile's with the boot options (as install reads them, the target's config
 * below them), or none; then --mode, --policy and --unsupported, ranked with the boot options
 * (a trial is judged as enforcing, the mode it ends in). 0, or the exit status. */
static int load_settings(struct seinstall_ctx *ctx, const struct opts *o,
                         const struct check_args *a, struct seinstall_settings **ret)
{
        const struct cli_settings_args sa = {
            .profile = a->profile,
            .cmdline_file = o->cmdline,
            .no_cmdline = o->no_cmdline,
            .load_target = true,
        };
        int r;

        if (a->profile)
                r = cli_load_settings(ctx, &sa, ret, NULL);
        else
                r = seinstall_settings_new(ret) < 0 ? cli_fail(ctx, -ENOMEM, "check") : 0;
        if (r != 0)
                return r;
        r = cli_settings_set_opts(*ret, o);
        return r < 0 ? cli_fail(ctx, r, "check") : 0;
}

static unsigned plan_flags(const struct check_args *a)
{
        bool efi = a->firmware ? streq(a->firmware, "efi") : access("/sys/firmware/efi", F_OK) == 0;

        return efi ? SEINSTALL_PLAN_EFI : 0;
}

/* seinstall_check_run() on the mounts, or on the planned layout in @plan when not NULL. */
static int check_run(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                     const char *plan, struct seinstall_check_result **ret)
{
        _cleanup_(seinstall_check_options_unrefp) struct seinstall_check_options *co = NULL;
        int r;

        r = seinstall_check_options_new(&co);
        if (r >= 0)
                r = seinstall_check_options_set_plan_file(co, plan);
        return r < 0 ? r : seinstall_check_run(ctx, settings, co, ret);
}

int cmd_check(int argc, char **argv)
{
        static const struct option own[] = {
            {"plan", required_argument, NULL, 'p'},
            {"verbose", no_argument, NULL, 'v'},
            {"profile", required_argument, NULL, 'k'},
            {"default-fstype", required_argument, NULL, 'd'},
            {"firmware", required_argument, NULL, 'f'},
            {},
        };
        static const int exclusive[][2] = {{OPT_CMDLINE, OPT_NO_CMDLINE}, {}};
        struct check_args a = {};
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPTS_CMDLINE | OPT_BIT(OPT_MODE) | OPT_BIT(OPT_POLICY) |
                      OPT_BIT(OPT_UNSUPPORTED),
            .own = own,
            .own_option = check_option,
            .userdata = &a,
            .exclusive = exclusive,
        };
        _cleanup_(opts_done) struct opts o = OPTS_INIT;
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *settings = NULL;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_check_result_unrefp) struct seinstall_check_result *check = NULL;
        int r;

        r = cli_parse("check", usage, &o, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        if (!a.profile && (a.default_fstype || a.firmware || o.cmdline || o.no_cmdline))
                return cli_usage_error("check", "--default-fstype, --firmware, --cmdline and "
                                                "--no-cmdline need --profile");
        r = cli_open(&o, &ctx);
        if (r != 0)
                return r;
        r = load_settings(ctx, &o, &a, &settings);
        if (r != 0)
                return r;
        r = a.profile && !a.plan
                ? seinstall_check_run_profile(ctx, settings, a.profile, a.default_fstype,
                                              plan_flags(&a), &check)
                : check_run(ctx, settings, a.plan, &check);
        if (r < 0)
                return cli_fail(ctx, r, "check");
        if (o.json) {
                _cleanup_free_ char *json = NULL;
                struct json j = {0};

                r = seinstall_check_result_to_json(check, &json);
                if (r < 0)
                        return cli_fail(ctx, r, "check");
                json_raw(&j, json);
                r = cli_print_json(&j, "check");
                if (r != 0)
                        return r;
        } else if (a.profile && !a.plan && seinstall_check_result_get_n_mounts(check) == 0)
                printf(_("%s plans no file system (no part, logvol, raid, btrfs, autopart or "
                         "reqpart that mounts one): nothing to check before partitioning\n"),
                       cli_esc(a.profile));
        else
                print_human(check, a.verbose);
        return seinstall_check_result_get_verdict(check) == SEINSTALL_VERDICT_REFUSE ? EXIT_REFUSED
                                                                                     : EXIT_OK;
}
