/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-install.c — `seinstall install`: check, policy, relabel and configure in one unattended
 * run from the installer's boot options and a kickstart profile. Parsing and printing only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall install [--root DIR] [--profile FILE] [--mode M]\n"
                "                         [--policy TYPE] [--unsupported refuse|warn]\n"
                "                         [--cmdline FILE | --no-cmdline] [--regenerate]\n"
                "                         [--threads N] [--progress | --no-progress]\n"
                "                         [--dry-run] [--yes] [--json]\n"
                "\n"
                "Check the mounted target, build its policy if needed, relabel it and write its\n"
                "SELinux config, kernel command line and first-boot mark, unattended. Settings:\n"
                "boot options > the profile > the target's config > defaults. A refusal of the\n"
                "check stops before anything in the target changes (exit 1).\n"
                "\n"
                "  --root DIR          the target tree (default /)\n"
                "  --profile FILE      the kickstart profile (default: inst.ks=file:PATH)\n"
                "  --mode M            enforcing, permissive, disabled or trial; ranks with the\n"
                "                      boot options and wins over them\n"
                "  --policy TYPE       policy type (default: profile, target's config, default)\n"
                "  --unsupported WHAT  refuse (default) or warn: accept what enforcing would\n"
                "                      refuse, and boot permissive\n"
                "  --cmdline FILE      the installer's boot options from FILE (/proc/cmdline)\n"
                "  --no-cmdline        read no boot options\n"
                "  --regenerate        run update-grub in the target when its menu needs it\n"
                "  --threads N         relabel worker threads (default: one per CPU)\n"
                "  --progress          show the relabel's progress on stderr (default: on a\n"
                "                      terminal)\n"
                "  --no-progress       never show progress\n"
                "  --dry-run           preview every stage; write nothing\n"
                "  --yes               without --root: install on the running system, no question\n"
                "  --json              print one JSON document on stdout\n"),
              f);
}

static void print_check_problems(const struct seinstall_check_result *c)
{
        for (size_t i = 0; i < seinstall_check_result_get_n_mounts(c); i++) {
                enum seinstall_verdict v = seinstall_check_result_get_mount_verdict(c, i);
                const char *fix = seinstall_check_result_get_mount_fix(c, i);

                if (v == SEINSTALL_VERDICT_OK)
                        continue;
                printf("  %s %s: %s\n", seinstall_verdict_to_string(v),
                       cli_esc(seinstall_check_result_get_mount_mountpoint(c, i)),
                       cli_esc(seinstall_check_result_get_mount_reason(c, i)));
                if (fix && *fix)
                        printf(_("    fix: %s\n"), cli_esc(fix));
        }
}

static void print_text(const struct seinstall_install_result *res,
                       const struct seinstall_status_result *st, bool dry_run)
{
        const char *lag = seinstall_status_result_get_menu(st, "lag");
        const char *unknown = seinstall_status_result_get_menu(st, "unknown");
        const struct seinstall_check_result *c = seinstall_install_result_get_check(res);
        const struct seinstall_relabel_result *rl = seinstall_install_result_get_relabel(res);
        const struct seinstall_apply_result *ap = seinstall_install_result_get_apply(res);
        const char *why = seinstall_install_result_get_relabel_error(res);
        enum seinstall_source src;
        enum seinstall_mode mode = seinstall_install_result_get_mode(res, &src);

        /* TRANSLATORS: install's labels are padded to one column (11 characters in English);
         * pad the translations alike. The verdict is a keyword: ok, warn or refuse. */
        printf(ngettext("check:     %s (%zu mount)%s\n", "check:     %s (%zu mounts)%s\n",
                        seinstall_check_result_get_n_mounts(c)),
               seinstall_verdict_to_string(seinstall_check_result_get_verdict(c)),
               seinstall_check_result_get_n_mounts(c),
               seinstall_check_result_get_mode_lowered(c)
                   ? _(", mode lowered to permissive by unsupported=warn")
                   : "");
        print_check_problems(c);
        if (seinstall_install_result_get_refused(res)) {
                printf("%s", _("\nRefused: nothing in the target was changed. Fix the layout "
                               "above, or accept it with --unsupported warn (boot option "
                               "seinstall.unsupported=warn; SELinux then boots permissive).\n"));
                return;
        }
        if (mode == SEINSTALL_MODE_DISABLED) {
                printf("%s", _("policy:    not needed (disabled)\n"
                               "relabel:   not needed (disabled)\n"));
        } else {
                printf(!seinstall_install_result_get_policy_built(res)
                           ? _("policy:    %s already built\n")
                       : dry_run ? _("policy:    %s would be built from the modules installed "
                                     "in /var/lib/selinux (confined, as semodule -n -B)\n")
                                 : _("policy:    %s built from the installed modules\n"),
                       cli_esc(seinstall_install_result_get_policy(res)));
                if (!rl && !why && dry_run && seinstall_install_result_get_policy_built(res))
                        printf("%s", _("relabel:   after the policy build, from the file "
                                       "contexts it writes (not counted before it)\n"));
                else if (rl && !why)
                        printf(
                            dry_run ? _("relabel:   %llu entries, %llu would change, %llu "
                                        "already right\n")
                                    : _("relabel:   %llu entries, %llu changed, %llu already "
                                        "right\n"),
                            seinstall_relabel_result_get_count(rl, SEINSTALL_RELABEL_COUNT_SEEN),
                            seinstall_relabel_result_get_count(rl, SEINSTALL_RELABEL_COUNT_CHANGED),
                            seinstall_relabel_result_get_count(rl,
                                                               SEINSTALL_RELABEL_COUNT_UNCHANGED));
                else
                        printf(_("relabel:   at first boot (%s)\n"),
                               why ? cli_esc(why) : _("scheduled"));
        }
        printf("%s", _("configure:\n"));
        cli_print_apply_result(ap, dry_run, "  ", stdout);
        if (dry_run) {
                printf("%s", _("\nDry run: nothing in the target was changed.\n"));
                return;
        }
        if (mode == SEINSTALL_MODE_TRIAL) {
                /* TRANSLATORS: "(from --mode)", "(from the boot options)" ...; the last %s
                 * is a systemd unit's name */
                printf(_("\nInstalled: SELinux trial (from %s), policy %s: permissive until a "
                         "boot without denials caused by labels, then enforcing (%s).\n"),
                       cli_source_name(src, "--mode"),
                       cli_esc(seinstall_install_result_get_policy(res)), SEINSTALL_TRIAL_UNIT);
                return;
        }
        /* what the boot menu shows decides the claim, not only what was configured */
        /* TRANSLATORS: "Installed: SELinux enforcing (from --mode), policy default" then one
         * of the next three messages and ".", or ", but the boot menu does not say so yet:" */
        printf(lag ? _("\nConfigured: SELinux %s (from %s), policy %s%s%s\n")
                   : _("\nInstalled: SELinux %s (from %s), policy %s%s%s\n"),
               seinstall_mode_to_string(mode), cli_source_name(src, "--mode"),
               cli_esc(seinstall_install_result_get_policy(res)),
               seinstall_apply_result_get_config_mode(ap) != mode
                   ? _("; permissive until the first-boot relabel is done")
                   : "",
               lag ? _(", but the boot menu does not say so yet:") : ".");
        if (lag)
                printf("  %s\n", cli_esc(lag));
        else if (unknown)
                printf(_("Boot menu: %s\n"), cli_esc(unknown));
}

static int print_json(const struct seinstall_install_result *res,
                      const struct seinstall_settings *s, const char *profile, const char *root,
                      bool dry_run)
{
        const struct seinstall_relabel_result *rl = seinstall_install_result_get_relabel(res);
        const struct seinstall_apply_result *ap = seinstall_install_result_get_apply(res);
        const struct seinstall_verify_result *vr = seinstall_install_result_get_verify(res);
        _cleanup_free_ char *check = NULL, *relabel = NULL, *configure = NULL, *verify = NULL;
        enum seinstall_source src;
        enum seinstall_mode mode = seinstall_install_result_get_mode(res, &src);
        struct json j = {0};
        int r;

        r = seinstall_check_result_to_json(seinstall_install_result_get_check(res), &check);
        if (r >= 0 && rl)
                r = seinstall_relabel_result_to_json(rl, &relabel);
        if (r >= 0 && ap)
                r = seinstall_apply_result_to_json(ap, &configure);
        if (r >= 0 && vr)
                r = seinstall_verify_result_to_json(vr, &verify);
        if (r < 0)
                return cli_error(r, "install: writing the JSON document: %s", strerror(-r));

        json_object_begin(&j);
        json_kv_string(&j, "root", root);
        json_kv_bool(&j, "refused", seinstall_install_result_get_refused(res));
        json_kv_bool(&j, "dry_run", dry_run);
        /* The document says the mode the trial aims at, and that it is a trial. */
        json_kv_string(&j, "mode",
                       seinstall_mode_to_string(
                           mode == SEINSTALL_MODE_TRIAL ? SEINSTALL_MODE_ENFORCING : mode));
        json_kv_string(&j, "mode_source", seinstall_source_to_string(src));
        json_kv_bool(&j, "trial", mode == SEINSTALL_MODE_TRIAL);
        json_kv_string(&j, "policy", seinstall_install_result_get_policy(res));
        json_kv_bool(&j, "policy_built", seinstall_install_result_get_policy_built(res));
        json_key(&j, "settings");
        cli_json_settings(&j, s, profile);
        json_key(&j, "check");
        json_raw(&j, check);
        json_key(&j, "relabel");
        json_raw(&j, relabel);
        json_kv_string(&j, "relabel_error", seinstall_install_result_get_relabel_error(res));
        json_key(&j, "configure");
        json_raw(&j, configure);
        json_key(&j, "verify");
        json_raw(&j, verify);
        json_object_end(&j);
        return cli_print_json(&j, "install");
}

struct install_args {
        struct cli_settings_args settings;
        unsigned flags;
        bool yes;
};

static int install_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct install_args *a = userdata;

        (void) o;
        switch (opt) {
        case 'p':
                a->settings.profile = arg;
                return 0;
        case 'g':
                a->flags |= SEINSTALL_INSTALL_REGENERATE;
                return 0;
        case 'y':
                a->yes = true;
                return 0;
        default:
                return -EINVAL;
        }
}

/* Without --root, install acts on the running system: only with --yes, or when the person at
 * the terminal says so. 0 to go on, else the exit status. */
static int confirm_running_system(const struct opts *c, bool yes)
{
        char answer[16];

        if (c->root || c->dry_run || yes)
                return 0;
        if (c->json || !isatty(STDIN_FILENO))
                return cli_usage_error("install", "no --root: this would install SELinux on the "
                                                  "running system; give --root DIR for a target, "
                                                  "or --yes for this system");
        /* TRANSLATORS: the answer is read as yes when it starts with y or Y, in any language */
        fputs(_("seinstall install: no --root: install SELinux on the running system (/)? "
                "[y/N] "),
              stderr);
        if (fgets(answer, sizeof(answer), stdin) && (answer[0] == 'y' || answer[0] == 'Y'))
                return 0;
        fputs(_("seinstall install: nothing was done\n"), stderr);
        return EXIT_REFUSED;
}

int cmd_install(int argc, char **argv)
{
        static const struct option own[] = {
            {"profile", required_argument, NULL, 'p'},
            {"regenerate", no_argument, NULL, 'g'},
            {"yes", no_argument, NULL, 'y'},
            {},
        };
        static const int exclusive[][2] = {{OPT_CMDLINE, OPT_NO_CMDLINE}, {}};
        struct install_args a = {.settings.load_target = true};
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPTS_CMDLINE | OPTS_PROGRESS | OPT_BIT(OPT_MODE) |
                      OPT_BIT(OPT_POLICY) | OPT_BIT(OPT_UNSUPPORTED) | OPT_BIT(OPT_THREADS) |
                      OPT_BIT(OPT_DRY_RUN),
            .own = own,
            .own_option = install_option,
            .userdata = &a,
            .exclusive = exclusive,
        };
        _cleanup_(opts_done) struct opts c = OPTS_INIT;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_(seinstall_relabel_options_unrefp) struct seinstall_relabel_options *o = NULL;
        _cleanup_(seinstall_install_result_unrefp) struct seinstall_install_result *res = NULL;
        _cleanup_free_ char *profile = NULL;
        unsigned flags;
        int progress, r;

        r = cli_parse("install", usage, &c, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        r = confirm_running_system(&c, a.yes);
        if (r != 0)
                return r;
        a.settings.cmdline_file = c.cmdline;
        a.settings.no_cmdline = c.no_cmdline;
        flags = a.flags | (c.dry_run ? SEINSTALL_INSTALL_DRY_RUN : 0);
        progress = c.progress >= 0 ? c.progress : !c.json && isatty(STDERR_FILENO);
        r = cli_open(&c, &ctx);
        if (r != 0)
                return r;
        r = cli_load_settings(ctx, &a.settings, &s, &profile);
        if (r != 0)
                return r;
        /* --mode, --policy, --unsupported rank with the boot options, after them */
        r = cli_settings_set_opts(s, &c);
        if (r < 0)
                return cli_fail(ctx, r, "install");
        r = seinstall_relabel_options_new(&o);
        if (r >= 0)
                r = seinstall_relabel_options_set_threads(o, c.threads);
        if (r >= 0 && progress)
                r = seinstall_relabel_options_set_progress(o, cli_show_progress,
                                                           (void *) "install: relabel");
        if (r < 0)
                return cli_fail(ctx, r, "install");
        cli_catch_interrupts(ctx);
        r = seinstall_install(ctx, s, o, flags, &res);
        if (progress && !cli_interrupted()) /* else the line stays, ended by the message */
                cli_progress_end();
        if (r == -EINTR && cli_interrupted())
                return cli_interrupted_exit(flags & SEINSTALL_INSTALL_DRY_RUN
                                                ? N_("nothing was written")
                                                : N_("what it wrote stays (labels, a built "
                                                     "policy) and the SELinux configuration, "
                                                     "written last, is as it was or complete"),
                                            argc, argv);
        if (r < 0)
                return cli_fail(ctx, r, "install");
        if (c.json) {
                r = print_json(res, s, profile, seinstall_get_root(ctx),
                               flags & SEINSTALL_INSTALL_DRY_RUN);
                if (r != 0)
                        return r;
        } else {
                printf("seinstall install%s: %s\n",
                       flags & SEINSTALL_INSTALL_DRY_RUN ? _(" (dry run)") : "",
                       cli_esc(seinstall_get_root(ctx)));
                cli_print_settings(s, profile, stdout);
                _cleanup_(seinstall_status_result_unrefp) struct seinstall_status_result *st = NULL;
                /* the boot menu as it now is, for the last line (none: the line says less) */
                if (seinstall_status_read(ctx, &st) < 0)
                        st = NULL;
                print_text(res, st, flags & SEINSTALL_INSTALL_DRY_RUN);
        }
        return seinstall_install_result_get_refused(res) ? EXIT_REFUSED : EXIT_OK;
}
