/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-apply.c — `seinstall apply`: write the target's SELinux config, kernel command line,
 * relabel scheduling and first-boot mark for a mode. Parsing and printing only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall apply [--root DIR] --mode M [--policy TYPE]\n"
                "                       [--bootloader auto|grub|bls|kernel-cmdline|none]\n"
                "                       [--regenerate] [--relabel | --labeled] [--firstboot]\n"
                "                       [--dry-run] [--json]\n"
                "       seinstall apply [--root DIR] --regenerate [--dry-run] [--json]\n"
                "\n"
                "Make the target boot in mode M: /etc/selinux/config, the boot loader's kernel\n"
                "command line, /.autorelabel when SELinux goes from off to on, and (--firstboot)\n"
                "the first-boot mark.\n"
                "\n"
                "  --root DIR       the target tree (default /)\n"
                "  --mode M         enforcing, permissive, disabled, or trial (permissive until\n"
                "                   a boot without denials caused by labels, then enforcing)\n"
                "  --policy TYPE    policy type (default: the target's config, else default)\n"
                "  --bootloader BL  the boot loader form to edit (default auto: every one found)\n"
                "  --regenerate     run update-grub (or grub-mkconfig) in the target when GRUB's\n"
                "                   defaults changed or grub.cfg lags them; alone, only that\n"
                "  --relabel        schedule a first-boot relabel in any case\n"
                "  --labeled        the target was just relabeled: schedule none\n"
                "  --firstboot      write the first-boot mark (the screen runs at first boot)\n"
                "  --dry-run        list each file that would change, and how; write nothing\n"
                "  --json           print one JSON document on stdout\n"),
              f);
}

void cli_print_apply_result(const struct seinstall_apply_result *res, bool dry_run,
                            const char *indent, FILE *f)
{
        size_t n = seinstall_apply_result_get_n_changes(res);
        size_t nt = seinstall_apply_result_get_n_todo(res);
        const char *mode = seinstall_mode_to_string(seinstall_apply_result_get_config_mode(res));

        /* TRANSLATORS: "config: SELINUX=enforcing SELINUXTYPE=default (kernel: SELinux
         * built-in)"; the kernel's case is a keyword (built-in, opt-in, ...) */
        fprintf(f, _("%sconfig: SELINUX=%s SELINUXTYPE=%s (kernel: SELinux %s)\n"), indent,
                mode ? mode : _("(unset)"), cli_esc(seinstall_apply_result_get_policy(res)),
                seinstall_kernel_case_to_string(seinstall_apply_result_get_kernel_case(res)));
        if (n == 0)
                fprintf(f, "%s%s\n", indent,
                        nt > 0 ? _("nothing to change: the target already says so (but see "
                                   "below)")
                               : _("nothing to change: the target already says so"));
        /* TRANSLATORS: the first %s is an indent, then "FILE: WHAT" (WHAT is the library's
         * words, from its own catalog) */
        for (size_t i = 0; i < n; i++)
                fprintf(f, dry_run ? _("%swould change %s: %s\n") : _("%schanged %s: %s\n"), indent,
                        cli_esc(seinstall_apply_result_get_change_file(res, i)),
                        cli_esc(seinstall_apply_result_get_change_what(res, i)));
        /* TRANSLATORS: the first %s is an indent, then a command to run */
        for (size_t i = 0; i < nt; i++)
                fprintf(f, _("%sto do: %s\n"), indent,
                        cli_cmd(seinstall_apply_result_get_todo(res, i)));
}

struct apply_args {
        enum seinstall_bootloader bl;
        unsigned flags;
};

static int apply_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct apply_args *a = userdata;

        switch (opt) {
        case 'b':
                a->bl = seinstall_bootloader_from_string(arg);
                if (a->bl == SEINSTALL_BOOTLOADER_INVALID)
                        return opts_invalid(o, "bootloader", arg,
                                            N_("auto, grub, bls, kernel-cmdline or none"));
                return 0;
        case 'g':
                a->flags |= SEINSTALL_APPLY_REGENERATE;
                return 0;
        case 'r':
                a->flags |= SEINSTALL_APPLY_RELABEL;
                return 0;
        case 'l':
                a->flags |= SEINSTALL_APPLY_LABELED;
                return 0;
        case 'f':
                a->flags |= SEINSTALL_APPLY_FIRSTBOOT;
                return 0;
        default:
                return -EINVAL;
        }
}

/* seinstall_apply() with the mode and policy type given as the settings (none with
 * --regenerate alone: no config is written) and the rest as its options. */
static int apply_call(struct seinstall_ctx *ctx, const struct opts *o, enum seinstall_bootloader bl,
                      unsigned flags, struct seinstall_apply_result **ret)
{
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_(seinstall_apply_options_unrefp) struct seinstall_apply_options *ao = NULL;
        int r;

        r = seinstall_apply_options_new(&ao);
        if (r >= 0)
                r = seinstall_apply_options_set_bootloader(ao, bl);
        if (r >= 0)
                r = seinstall_apply_options_set_flags(ao, flags);
        if (r >= 0 && o->mode != SEINSTALL_MODE_INVALID) {
                r = seinstall_settings_new(&s);
                if (r >= 0)
                        r = seinstall_settings_set_mode(s, o->mode, SEINSTALL_SOURCE_OPTION);
                if (r >= 0 && o->policy)
                        r = seinstall_settings_set_policy(s, o->policy, SEINSTALL_SOURCE_OPTION);
        }
        return r < 0 ? r : seinstall_apply(ctx, s, ao, ret);
}

int cmd_apply(int argc, char **argv)
{
        static const struct option own[] = {
            {"bootloader", required_argument, NULL, 'b'}, {"regenerate", no_argument, NULL, 'g'},
            {"relabel", no_argument, NULL, 'r'},          {"labeled", no_argument, NULL, 'l'},
            {"firstboot", no_argument, NULL, 'f'},        {},
        };
        static const int exclusive[][2] = {{'r', 'l'}, {}};
        struct apply_args a = {.bl = SEINSTALL_BOOTLOADER_AUTO};
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPT_BIT(OPT_MODE) | OPT_BIT(OPT_POLICY) | OPT_BIT(OPT_DRY_RUN),
            .own = own,
            .own_option = apply_option,
            .userdata = &a,
            .exclusive = exclusive,
        };
        _cleanup_(opts_done) struct opts o = OPTS_INIT;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_apply_result_unrefp) struct seinstall_apply_result *res = NULL;
        unsigned flags;
        int r;

        r = cli_parse("apply", usage, &o, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        /* trial: enforcing, reached through a permissive boot */
        if (o.mode == SEINSTALL_MODE_INVALID && !(a.flags & SEINSTALL_APPLY_REGENERATE))
                return cli_usage_error("apply", "--mode is required (or --regenerate alone)");
        flags = a.flags | (o.dry_run ? SEINSTALL_APPLY_DRY_RUN : 0);
        r = cli_open(&o, &ctx);
        if (r != 0)
                return r;
        r = apply_call(ctx, &o, a.bl, flags, &res);
        if (r < 0)
                return cli_fail(ctx, r, "apply");
        if (o.json) {
                _cleanup_free_ char *doc = NULL;
                struct json j = {0};

                r = seinstall_apply_result_to_json(res, &doc);
                if (r < 0)
                        return cli_error(r, "writing the JSON document: %s", strerror(-r));
                json_raw(&j, doc);
                return cli_print_json(&j, "apply");
        }
        if (flags & SEINSTALL_APPLY_DRY_RUN)
                printf("%s", _("apply (dry run): nothing was written\n"));
        cli_print_apply_result(res, flags & SEINSTALL_APPLY_DRY_RUN, "", stdout);
        return EXIT_OK;
}
