/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-status.c — `seinstall status`: the target's SELinux state. Parsing and printing only. */
#include <stdio.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall status [--root DIR] [--json]\n"
                "\n"
                "Show the target's SELinux state: config, kernel command line, the boot menu\n"
                "made from it (and whether it lags), kernel, the mode the next boot gets, a\n"
                "pending relabel, the first-boot mark, the trial mode and (root /) SELinux now.\n"
                "\n"
                "  --root DIR  the target tree (default /)\n"
                "  --json      print one JSON document on stdout\n"),
              f);
}

static const char *mode_or(enum seinstall_mode m, const char *dflt)
{
        const char *s = seinstall_mode_to_string(m);
        return s ? s : dflt;
}

static int print_json(const struct seinstall_status_result *st)
{
        _cleanup_free_ char *doc = NULL;
        struct json j = {0};
        int r = seinstall_status_result_to_json(st, &doc);

        if (r < 0)
                return cli_error(r, "writing the JSON document: %s", strerror(-r));
        json_raw(&j, doc);
        return cli_print_json(&j, "status");
}

/* "none", "pending since TIME", "enforced at TIME", "kept permissive at TIME: N label denials[,
 * M mislabeled boot-critical files]: PATH, PATH", "cancelled at TIME", "unknown: WHY". */
static void print_trial(const struct seinstall_trial_result *t)
{
        const char *decided = seinstall_trial_result_get_decided(t);
        const char *error = seinstall_trial_result_get_error(t);
        unsigned long long n = seinstall_trial_result_get_n_label_denials(t);
        unsigned long long bad = seinstall_trial_result_get_n_mislabeled(t);

        /* TRANSLATORS: status's labels are padded to one column (17 characters in English);
         * pad the translations alike */
        printf("%s", _("trial:           "));
        switch (seinstall_trial_result_get_state(t)) {
        case SEINSTALL_TRIAL_NONE:
                if (error)
                        printf(_("unknown: %s\n"), cli_esc(error));
                else
                        printf("%s", _("none\n"));
                return;
        case SEINSTALL_TRIAL_PENDING:
                printf(_("pending since %s (enforcing after a boot without label denials)\n"),
                       cli_esc(seinstall_trial_result_get_started(t)));
                return;
        case SEINSTALL_TRIAL_ENFORCED:
                printf(_("enforced at %s\n"), cli_esc(decided));
                return;
        case SEINSTALL_TRIAL_CANCELLED:
                printf(_("cancelled at %s (a mode was chosen by hand)\n"), cli_esc(decided));
                return;
        case SEINSTALL_TRIAL_KEPT_PERMISSIVE:
                printf(ngettext("kept permissive at %s: %llu label denial",
                                "kept permissive at %s: %llu label denials", n),
                       cli_esc(decided), n);
                if (bad > 0)
                        printf(ngettext(", %llu mislabeled boot-critical file",
                                        ", %llu mislabeled boot-critical files", bad),
                               bad);
                printf(":");
                for (size_t i = 0; i < seinstall_trial_result_get_n_paths(t); i++)
                        printf("%s %s", i ? "," : "",
                               cli_esc(seinstall_trial_result_get_path(t, i)));
                printf("\n");
                for (size_t i = 0; i < seinstall_trial_result_get_n_paths(t); i++)
                        if (seinstall_trial_result_get_fix(t, i))
                                printf(_("                   fix: %s\n"),
                                       cli_cmd(seinstall_trial_result_get_fix(t, i)));
                return;
        }
}

/* "boot menu:       FILE, entry 'TITLE' (CHOSEN): CMDLINE", then the lag, if any. */
static void print_menu(const struct seinstall_status_result *st)
{
        const char *file = seinstall_status_result_get_menu(st, "file");
        const char *entry = seinstall_status_result_get_menu(st, "entry");
        const char *chosen = seinstall_status_result_get_menu(st, "chosen");
        const char *cmdline = seinstall_status_result_get_menu(st, "cmdline");
        const char *unknown = seinstall_status_result_get_menu(st, "unknown");
        const char *lag = seinstall_status_result_get_menu(st, "lag");

        if (!file && !unknown)
                return;
        printf("%s", _("boot menu:       "));
        if (file) {
                printf("%s", cli_esc(file));
                if (entry && !streq(entry, file))
                        printf(_(", entry '%s'"), cli_esc(entry));
                if (chosen)
                        printf(" (%s)", cli_esc(chosen));
                if (cmdline)
                        printf(": %s", cli_esc(cmdline));
                printf("\n");
        }
        if (unknown)
                printf("%s%s\n", file ? "                 " : "", cli_esc(unknown));
        if (lag)
                /* TRANSLATORS: the boot menu lags its configuration; in capitals */
                printf(_("                 LAGS: %s\n"), cli_esc(lag));
}

static void print_text(const struct seinstall_status_result *st, const char *root)
{
        const char *cmdline = seinstall_status_result_get_cmdline(st);
        const char *kconfig = seinstall_status_result_get_kernel_config(st);

        printf(_("target:          %s\n"), cli_esc(root));
        printf(seinstall_status_result_get_policy_built(st)
                   ? _("config:          SELINUX=%s SELINUXTYPE=%s (policy built)\n")
                   : _("config:          SELINUX=%s SELINUXTYPE=%s (policy NOT built)\n"),
               mode_or(seinstall_status_result_get_config_mode(st), _("(unset)")),
               seinstall_status_result_get_config_policy(st)
                   ? cli_esc(seinstall_status_result_get_config_policy(st))
                   : _("(unset)"));
        printf(_("kernel:          SELinux %s%s%s%s\n"),
               seinstall_kernel_case_to_string(seinstall_status_result_get_kernel_case(st)),
               kconfig ? " (" : "", kconfig ? cli_esc(kconfig) : "", kconfig ? ")" : "");
        printf(_("command line:    %s%s%s\n"),
               seinstall_bootloader_to_string(seinstall_status_result_get_bootloader(st)),
               cmdline ? ": " : "", cmdline ? cli_esc(cmdline) : "");
        print_menu(st);
        printf(_("boots in:        %s\n"),
               mode_or(seinstall_status_result_get_boot_mode(st), _("unknown")));
        printf(_("relabel pending: %s\n"),
               seinstall_status_result_get_relabel_pending(st) ? _("yes") : _("no"));
        if (seinstall_status_result_get_firstboot_pending(st))
                printf(_("first boot:      pending, chosen mode %s\n"),
                       mode_or(seinstall_status_result_get_firstboot_mode(st),
                               seinstall_trial_result_get_state(
                                   seinstall_status_result_get_trial(st)) == SEINSTALL_TRIAL_PENDING
                                   ? "trial"
                                   : _("unknown")));
        else
                printf("%s", _("first boot:      done\n"));
        print_trial(seinstall_status_result_get_trial(st));
        printf(_("SELinux now:     %s\n"),
               mode_or(seinstall_status_result_get_active(st), _("(not the running system)")));
}

int cmd_status(int argc, char **argv)
{
        const struct opts_spec spec = {.shared = OPTS_COMMON};
        _cleanup_(opts_done) struct opts o = OPTS_INIT;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_status_result_unrefp) struct seinstall_status_result *st = NULL;
        int r;

        r = cli_parse("status", usage, &o, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        r = cli_open(&o, &ctx);
        if (r != 0)
                return r;
        r = seinstall_status_read(ctx, &st);
        if (r < 0)
                return cli_fail(ctx, r, "status");
        if (o.json)
                return print_json(st);
        print_text(st, seinstall_get_root(ctx));
        return EXIT_OK;
}
