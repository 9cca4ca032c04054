/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-trial.c — `seinstall trial`: decide a pending trial ("permissive until a clean boot") from
 * this boot's denials, once; seinstall-trial.service runs it when the boot has settled, with
 * its output on the console and in the journal. Parsing and printing only. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

DEFINE_CLEANUP_FUNC(struct seinstall_trial_result *, seinstall_trial_result_unref)

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall trial [--root DIR] [--log FILE] [--no-setenforce] [--json]\n"
                "\n"
                "Decide the trial mode (permissive until a clean boot) once: when none of this\n"
                "boot's denials was caused by a label, write SELINUX=enforcing and switch to\n"
                "enforcing now; else stay permissive and name each file and its fix. A trial\n"
                "that decided already is reported and nothing changes.\n"
                "\n"
                "  --root DIR       the target tree (default /)\n"
                "  --log FILE       judge the denials of a saved audit or kernel log (needed\n"
                "                   with --root)\n"
                "  --no-setenforce  write the config only; the running system stays as it is\n"
                "  --json           print one JSON document on stdout\n"
                "\n"
                "Exit status: 0 enforced (or no trial), 1 kept permissive, 2 bad usage or a\n"
                "state file seinstall did not write, 3 system failure.\n"),
              f);
}

/* "/etc/shadow (fix: restorecon -F /etc/shadow), ..." */
static void print_files(const struct seinstall_trial_result *t, const char *root)
{
        size_t n = seinstall_trial_result_get_n_paths(t);

        for (size_t i = 0; i < n; i++) {
                const char *fix = seinstall_trial_result_get_fix(t, i);
                printf(_("%s%s (fix: %s)"), i ? ", " : "",
                       cli_esc(seinstall_trial_result_get_path(t, i)),
                       fix ? cli_cmd(fix) : cli_command(root, "seinstall relabel%r"));
        }
        if (n >= 100)
                printf(_(", and more (%s lists them)"), cli_command(root, "seinstall avc%r"));
}

/* The one line the console and the journal get. */
static void print_line(const struct seinstall_trial_result *t, bool now, const char *root)
{
        const char *decided = seinstall_trial_result_get_decided(t);
        unsigned long long label = seinstall_trial_result_get_n_label_denials(t);
        unsigned long long mislabeled = seinstall_trial_result_get_n_mislabeled(t);
        unsigned long long all = seinstall_trial_result_get_n_denials(t);

        printf("seinstall trial: ");
        switch (seinstall_trial_result_get_state(t)) {
        case SEINSTALL_TRIAL_NONE:
                printf(_("no trial on this system (start one with: %s); nothing changed\n"),
                       cli_command(root, "seinstall apply%r --mode=trial"));
                return;
        case SEINSTALL_TRIAL_PENDING:
                printf("%s", _("pending; nothing decided\n"));
                return;
        case SEINSTALL_TRIAL_CANCELLED:
                printf(_("cancelled at %s: a mode was chosen by hand before the trial decided; "
                         "nothing changed\n"),
                       cli_esc(decided));
                return;
        case SEINSTALL_TRIAL_ENFORCED:
                if (!now) {
                        printf(_("enforced at %s (decided before; nothing changed)\n"),
                               cli_esc(decided));
                        return;
                }
                printf(ngettext("enforced: no denial caused by a label this boot (%llu denial, "
                                "all the policy's), the boot-critical files labeled right; "
                                "SELINUX=enforcing written",
                                "enforced: no denial caused by a label this boot (%llu denials, "
                                "all the policy's), the boot-critical files labeled right; "
                                "SELINUX=enforcing written",
                                all),
                       all);
                if (seinstall_trial_result_get_enforcing_now(t))
                        printf("%s", _(", enforcing now\n"));
                else if (seinstall_trial_result_get_setenforce_error(t))
                        printf(_(", enforcing from the next boot (%s)\n"),
                               cli_esc(seinstall_trial_result_get_setenforce_error(t)));
                else
                        printf("%s", _(", enforcing from the next boot\n"));
                return;
        case SEINSTALL_TRIAL_KEPT_PERMISSIVE:
                printf("%s", _("kept permissive"));
                if (!now)
                        printf(_(" at %s (decided before; nothing changed)"), cli_esc(decided));
                printf(ngettext(": %llu denial caused by labels", ": %llu denials caused by labels",
                                label),
                       label);
                if (mislabeled > 0)
                        printf(ngettext(", %llu boot-critical file mislabeled",
                                        ", %llu boot-critical files mislabeled", mislabeled),
                               mislabeled);
                printf(": ");
                print_files(t, root);
                printf(_("; after fixing: %s (or --mode enforcing)\n"),
                       cli_command(root, "seinstall apply%r --mode=trial"));
                return;
        }
}

static int trial_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        unsigned *flags = userdata;

        (void) o;
        (void) arg;
        if (opt != 'n')
                return -EINVAL;
        *flags |= SEINSTALL_TRIAL_NO_SETENFORCE;
        return 0;
}

int cmd_trial(int argc, char **argv)
{
        static const struct option own[] = {
            {"no-setenforce", no_argument, NULL, 'n'},
            {},
        };
        unsigned flags = 0;
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPT_BIT(OPT_LOG),
            .own = own,
            .own_option = trial_option,
            .userdata = &flags,
        };
        _cleanup_(opts_done) struct opts o = OPTS_INIT;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        int r;

        r = cli_parse("trial", usage, &o, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        r = cli_open(&o, &ctx);
        if (r != 0)
                return r;
        r = seinstall_trial_decide(ctx, o.log, flags, &t);
        if (r < 0)
                return cli_fail(ctx, r, "trial");
        if (o.json) {
                _cleanup_free_ char *doc = NULL;
                struct json j = {0};
                int k = seinstall_trial_result_to_json(t, &doc);

                if (k < 0)
                        return cli_error(k, "writing the JSON document: %s", strerror(-k));
                json_object_begin(&j);
                json_kv_string(&j, "root", seinstall_get_root(ctx));
                json_kv_bool(&j, "decided_now", r > 0);
                json_key(&j, "trial");
                json_raw(&j, doc);
                json_object_end(&j);
                k = cli_print_json(&j, "trial");
                if (k != 0)
                        return k;
        } else {
                print_line(t, r > 0, seinstall_get_root(ctx));
        }
        return seinstall_trial_result_get_state(t) == SEINSTALL_TRIAL_KEPT_PERMISSIVE ? EXIT_REFUSED
                                                                                      : EXIT_OK;
}
