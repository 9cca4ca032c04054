/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * main.c — seinstall-firstboot: parse the options, gather the state, show the screen (or not),
 * then apply the choice with the same library call the installer uses (seinstall_apply()),
 * switching a running system between enforcing and permissive at once where that is possible.
 */
#include <errno.h>
#include <getopt.h>
#include <selinux/selinux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "firstboot.h"
#include "report.h"

/* --root, --mode (and --help, --version) are read as `seinstall` reads them (opts.c), and
 * errors, the library's log and names are printed as it prints them (report.c). */
static struct opts arg_opts = OPTS_INIT;
static bool arg_yes;
static bool arg_status;
static int arg_timeout;
static const char *arg_avc_log;

static const char *prog = "seinstall-firstboot";

static void help(FILE *f)
{
        fprintf(f,
                _("Usage: %s [--root DIR] [--mode MODE --yes] [--status] [--timeout SECONDS]\n"
                  "       [--avc-log FILE]\n\n"
                  "Choose how SELinux runs on this system: enforcing, permissive, disabled or\n"
                  "the trial (enforcing after a clean boot).\n\n"
                  "  --root DIR         work on the system installed at DIR (default /)\n"
                  "  --mode MODE        enforcing, permissive, disabled, or trial (permissive\n"
                  "                     until a boot without denials caused by labels, then\n"
                  "                     enforcing); with --yes: apply it, else the screen\n"
                  "                     starts on it\n"
                  "  --yes              apply without the screen (the install's choice when no\n"
                  "                     --mode is given)\n"
                  "  --status           print the state and what each choice would do\n"
                  "  --timeout SECONDS  leave an untouched screen after SECONDS, keeping the\n"
                  "                     mode already chosen\n"
                  "  --avc-log FILE     read this boot's SELinux denials from FILE (a saved audit\n"
                  "                     or kernel log) and show them, permissive or not\n\n"
                  "Exit status: 0 ok, 2 bad usage or input, 3 system failure.\n"),
                prog);
}

static int fb_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        unsigned long n;

        (void) userdata;
        switch (opt) {
        case 'y':
                arg_yes = true;
                return 0;
        case 's':
                arg_status = true;
                return 0;
        case 't':
                if (opt_parse_uint(arg, 0, 86400, &n) < 0)
                        return opts_invalid(o, "timeout", arg,
                                            _("a number of seconds from 0 to 86400"));
                arg_timeout = (int) n;
                return 0;
        case 'a':
                arg_avc_log = arg;
                return 0;
        default:
                return -EINVAL;
        }
}

/* CLI_GO_ON, or the exit status after --help, --version or bad usage (report.h). */
static int parse_argv(int argc, char **argv)
{
        static const struct option own[] = {
            {"yes", no_argument, NULL, 'y'},
            {"status", no_argument, NULL, 's'},
            {"timeout", required_argument, NULL, 't'},
            {"avc-log", required_argument, NULL, 'a'},
            {},
        };
        static const int exclusive[][2] = {{'y', 's'}, {}};
        static const struct opts_spec spec = {
            .shared = OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_MODE) | OPT_BIT(OPT_VERSION),
            .own = own,
            .own_option = fb_option,
            .exclusive = exclusive,
        };
        return cli_parse(NULL, help, &arg_opts, &spec, argc, argv);
}

/* @text, made from what the target says (its SELINUXTYPE, a plan's lines), printed a line at a
 * time after @prefix, each escaped as seinstall escapes it: an escape character or a bell in
 * the target's config never reaches the terminal. */
static void print_escaped(const char *prefix, const char *text)
{
        _cleanup_free_ char *copy = strdup(text);
        char *pos = copy, *line;

        if (!copy) {
                printf("%s%s\n", prefix, cli_esc(text));
                return;
        }
        while ((line = strsep(&pos, "\n")))
                if (*line || pos)
                        printf("%s%s\n", prefix, cli_esc(line));
}

static int print_status(const struct fb_info *info)
{
        static const enum seinstall_mode modes[] = {
            SEINSTALL_MODE_ENFORCING,
            SEINSTALL_MODE_PERMISSIVE,
            SEINSTALL_MODE_DISABLED,
            SEINSTALL_MODE_TRIAL,
        };
        _cleanup_free_ char *state = fb_text_state(info);

        if (!state)
                return -ENOMEM;
        print_escaped("", state);
        if (fb_denials_offer(&info->denials)) {
                _cleanup_free_ char *summary = fb_denials_text(&info->denials, FB_DENIAL_PATHS);
                if (!summary)
                        return -ENOMEM;
                print_escaped("", summary);
        } else if (info->denials.error && info->denials.message) {
                printf("  %s\n", cli_esc(info->denials.message));
        }
        printf(_("Kernel command line: %s\n"),
               info->cmdline ? cli_esc(info->cmdline) : _("(none found)"));
        printf(_("First-boot mark: %s\n"), info->state.firstboot_mark ? _("present") : _("absent"));
        printf(_("Choices:\n"));
        for (size_t i = 0; i < ELEMENTSOF(modes); i++) {
                _cleanup_free_ char *text = NULL;
                struct fb_plan plan;

                if (fb_info_plan(info, modes[i], &plan) < 0)
                        return -EINVAL;
                text = fb_text_plan(info, &plan);
                if (!text)
                        return -ENOMEM;
                printf("  %s: ", fb_text_mode_name(modes[i]));
                print_escaped("", text);
                /* the library's own list: what --mode M --yes prints as "Changed" */
                for (size_t c = 0; c < seinstall_apply_result_get_n_changes(plan.changes); c++)
                        printf(_("    would change %s: %s\n"),
                               cli_esc(seinstall_apply_result_get_change_file(plan.changes, c)),
                               cli_esc(seinstall_apply_result_get_change_what(plan.changes, c)));
        }
        return 0;
}

/* The library's to-do of an enforcing deferred until the relabel names this screen as the
 * way to finish it: right after choosing Enforcing here, the outcome line says it instead. */
static bool todo_is_this_screen(const char *todo)
{
        return strncmp(todo, "SELinux boots permissive until the first-boot relabel",
                       strlen("SELinux boots permissive until the first-boot relabel")) == 0;
}

/* Apply @mode: the same seinstall_apply() the installer uses, then the immediate switch, and
 * a last line saying what now holds, whatever the outcome. @by_hand: the mode was chosen now
 * (on the screen or with --mode), not taken from the install's mark. */
static int apply(struct seinstall_ctx *ctx, const struct fb_info *info, enum seinstall_mode mode,
                 bool by_hand)
{
        _cleanup_(seinstall_apply_result_unrefp) struct seinstall_apply_result *result = NULL;
        _cleanup_free_ char *outcome = NULL;
        bool keep_mark, deferred;
        struct fb_plan plan;
        size_t n_changes;
        int r;

        r = fb_info_plan(info, mode, &plan);
        if (r < 0)
                return cli_fail(ctx, r, "plan");
        /* Enforcing after a relabel is completed on the boot after the relabel: the library
         * keeps the choice in the first-boot mark, and this screen comes back to finish it.
         * The trial is decided by its own unit, never by this screen. */
        deferred = !plan.trial && plan.config_mode != mode;
        keep_mark = deferred;

        r = fb_apply(ctx, &info->state, mode, 0, &result); /* the prediction's call */
        if (r < 0)
                return cli_fail(ctx, r, _("applying the choice"));
        n_changes = seinstall_apply_result_get_n_changes(result);
        for (size_t i = 0; i < n_changes; i++)
                printf(_("Changed %s: %s\n"),
                       cli_esc(seinstall_apply_result_get_change_file(result, i)),
                       cli_esc(seinstall_apply_result_get_change_what(result, i)));
        for (size_t i = 0; i < seinstall_apply_result_get_n_todo(result); i++) {
                const char *todo = seinstall_apply_result_get_todo(result, i);
                if (!(deferred && todo_is_this_screen(todo)))
                        printf(_("To do: %s\n"), cli_cmd(todo));
        }

        if (plan.switch_now && security_setenforce(mode == SEINSTALL_MODE_ENFORCING) < 0) {
                r = -errno;
                fprintf(stderr,
                        _("%s: could not switch SELinux to %s now: %s; it takes effect at the "
                          "next boot.\n"),
                        prog, seinstall_mode_to_string(mode), strerror(-r));
                return FB_EXIT_SYSTEM;
        }
        if (plan.switch_now)
                printf(_("SELinux is %s now.\n"), seinstall_mode_to_string(mode));
        if (plan.relabel)
                printf("%s\n", _("Every file is relabeled at the next boot."));
        if (plan.reboot && n_changes > 0)
                printf("%s\n", _("Reboot for the choice to take effect."));

        if (keep_mark && by_hand) {
                r = seinstall_firstboot_mark_set_chosen_after_install(ctx);
                if (r < 0 && r != -ENOENT)
                        return cli_fail(ctx, r, _("noting the choice in the first-boot mark"));
        }
        if (!keep_mark) {
                r = seinstall_firstboot_mark_remove(ctx);
                if (r < 0)
                        return cli_fail(ctx, r, _("removing the first-boot mark"));
        }
        outcome = fb_text_outcome(info, &plan, n_changes > 0 || plan.switch_now);
        if (!outcome)
                return cli_fail(ctx, -ENOMEM, _("applying the choice"));
        printf("%s\n", outcome);
        return FB_EXIT_OK;
}

/* The mode the install chose, as --mode takes it: "trial" for a trial install's mark, NULL
 * when the mark names none. */
static const char *install_choice(const struct fb_info *info)
{
        if (info->state.trial_pending)
                return "trial";
        if (info->mark_mode == SEINSTALL_MODE_INVALID)
                return NULL;
        return seinstall_mode_to_string(info->mark_mode);
}

/* Cancel or timeout: nothing is chosen now, and the mode chosen at install is kept. Without a
 * first-boot mark (the screen run by hand) nothing changes. Cancel keeps the mark, so the
 * screen comes back at the next boot. A timeout completes the install's choice as --yes does
 * (a trial is left to its unit) and the mark goes; while a relabel is pending the mark stays
 * for the boot after it. */
static int leave(struct seinstall_ctx *ctx, const struct fb_info *info, bool timeout)
{
        const char *choice = install_choice(info);
        int r;

        if (!info->state.firstboot_mark) {
                printf("%s\n", timeout ? _("No answer: nothing changed.")
                                       : _("Cancelled: nothing changed."));
                return FB_EXIT_OK;
        }
        if (!timeout || !choice || info->state.relabel_pending) {
                printf("%s\n", timeout ? _("No answer: nothing changed.")
                                       : _("Cancelled: nothing changed."));
                printf("%s\n", _("The first-boot mark stays: this screen comes back at the next "
                                 "boot."));
                if (choice)
                        printf(_("To keep the install's choice: %s --mode %s --yes\n"),
                               cli_command(seinstall_get_root(ctx), "seinstall-firstboot%r"),
                               choice);
                return FB_EXIT_OK;
        }
        if (info->state.trial_pending) {
                printf("%s\n", _("No answer: the trial chosen at install goes on; "
                                 "seinstall-trial.service decides after a settled boot."));
                r = seinstall_firstboot_mark_remove(ctx);
                if (r < 0)
                        return cli_fail(ctx, r, _("removing the first-boot mark"));
        } else {
                printf(info->mark_after_install
                           ? _("No answer: keeping %s, the mode chosen after install.\n")
                           : _("No answer: keeping %s, the mode chosen at install.\n"),
                       seinstall_mode_to_string(info->mark_mode));
                r = apply(ctx, info, info->mark_mode, false);
                if (r != FB_EXIT_OK)
                        return r;
        }
        printf(_("This screen does not come back by itself; run %s to choose another mode.\n"),
               cli_command(seinstall_get_root(ctx), "seinstall-firstboot%r"));
        return FB_EXIT_OK;
}

struct relabel_data {
        struct seinstall_ctx *ctx;
        struct fb_info *info;
};

/* The screen's "Relabel these files": exactly the files this boot's denials blame on their
 * labels, through the library's verify --fix on that list. The log callback is silenced while
 * the screen is up (stderr is its terminal); the result says what happened. */
static char *relabel_denied(void *userdata)
{
        _cleanup_(seinstall_verify_result_unrefp) struct seinstall_verify_result *vr = NULL;
        _cleanup_(seinstall_relabel_options_unrefp) struct seinstall_relabel_options *o = NULL;
        struct relabel_data *rd = userdata;
        struct fb_denials *d = &rd->info->denials;
        char *text;
        int r;

        seinstall_set_log_fn(rd->ctx, NULL, NULL);
        r = seinstall_relabel_options_new(&o);
        if (r >= 0)
                r = seinstall_relabel_options_set_policy(o, rd->info->state.policy_type);
        if (r >= 0)
                r = seinstall_verify_paths(rd->ctx, o, (const char *const *) d->paths, d->n_paths,
                                           SEINSTALL_VERIFY_FIX, &vr);
        seinstall_set_log_fn(rd->ctx, cli_log, NULL);
        text = fb_denials_relabel_text(d, r, vr, r < 0 ? seinstall_last_error(rd->ctx) : NULL);
        d->relabeled =
            vr && seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED) > 0;
        free(d->relabel_text);
        d->relabel_text = text ? strdup(text) : NULL;
        return text;
}

/* --status, --yes or the screen, on the state gathered before anything is shown. */
static int act(struct seinstall_ctx *ctx, struct fb_info *info)
{
        struct relabel_data rd = {.ctx = ctx, .info = info};
        enum seinstall_mode mode = arg_opts.mode, initial;
        enum fb_screen_result result;
        int r;

        if (arg_status) {
                r = print_status(info);
                return r < 0 ? cli_fail(ctx, r, "status") : FB_EXIT_OK;
        }
        if (arg_yes) {
                bool by_hand = mode != SEINSTALL_MODE_INVALID;

                if (!by_hand)
                        mode = info->mark_mode;
                if (mode == SEINSTALL_MODE_INVALID) {
                        fprintf(stderr,
                                _("%s: --yes needs --mode MODE: no mode was chosen at install "
                                  "(no first-boot mark).\n"),
                                prog);
                        return FB_EXIT_USAGE;
                }
                return apply(ctx, info, mode, by_hand);
        }

        initial = mode != SEINSTALL_MODE_INVALID ? mode : fb_info_initial_mode(info);
        result = fb_screen_run(info, initial, arg_timeout, relabel_denied, &rd, &mode);
        /* what the relabel did stays on the terminal after the screen */
        if (info->denials.relabel_text)
                print_escaped("", info->denials.relabel_text);
        switch (result) {
        case FB_SCREEN_OK:
                return apply(ctx, info, mode, true);
        case FB_SCREEN_CANCEL:
                return leave(ctx, info, false);
        case FB_SCREEN_TIMEOUT:
                return leave(ctx, info, true);
        default:
                fprintf(stderr,
                        _("%s: the screen failed on this terminal; use --mode MODE --yes.\n"),
                        prog);
                return FB_EXIT_SYSTEM;
        }
}

/* The screen needs a terminal newt can draw on, 80x24 at least: else exit 2 at once, saying
 * why and what to use instead, before anything is drawn or read. */
static int check_terminal(void)
{
        const char *term = getenv("TERM");
        int cols, rows;

        switch (fb_screen_terminal(&cols, &rows)) {
        case FB_TERMINAL_OK:
                return 0;
        case FB_TERMINAL_NO_TTY:
                fprintf(stderr,
                        _("%s: no terminal to show the screen on (standard input and output "
                          "must be a terminal).\n"),
                        prog);
                break;
        case FB_TERMINAL_NO_TERM:
                fprintf(stderr,
                        _("%s: TERM is not set, so the screen cannot be drawn; set it (TERM=vt100 "
                          "on a serial console).\n"),
                        prog);
                break;
        case FB_TERMINAL_UNUSABLE:
                fprintf(stderr,
                        _("%s: the terminal TERM=%s cannot show the screen (unknown to terminfo, "
                          "or it cannot place the cursor); set TERM to your terminal's type "
                          "(vt100 on a serial console).\n"),
                        prog, cli_esc(term));
                break;
        case FB_TERMINAL_TOO_SMALL:
                fprintf(stderr,
                        _("%s: the terminal is %dx%d; the screen needs at least %dx%d. Enlarge it "
                          "(on a serial console: stty cols %d rows %d).\n"),
                        prog, cols, rows, FB_MIN_COLS, FB_MIN_ROWS, FB_MIN_COLS, FB_MIN_ROWS);
                break;
        }
        fprintf(stderr,
                _("Use --mode MODE --yes to apply a mode without the screen, or --status to "
                  "print the state.\n"));
        return FB_EXIT_USAGE;
}

static int run(int argc, char **argv)
{
        _cleanup_(seinstall_status_result_unrefp) struct seinstall_status_result *status = NULL;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        struct fb_info info;
        int r;

        r = parse_argv(argc, argv);
        if (r != CLI_GO_ON)
                return r;
        /* Never wait for an answer nobody can give, nor draw what nobody can read. */
        if (!arg_yes && !arg_status) {
                r = check_terminal();
                if (r != 0)
                        return r;
        }

        r = cli_open(&arg_opts, &ctx);
        if (r != 0)
                return r;

        r = fb_info_read(ctx, &info, &status);
        if (r < 0)
                return cli_fail(ctx, r, _("reading the SELinux state"));
        /* This boot's denials, before the person picks: a system that ran permissive is the
         * one whose log tells which files have the wrong label. Never fatal. */
        if (!arg_yes && (arg_avc_log || fb_state_permissive_now(&info.state))) {
                r = fb_denials_read(ctx, arg_avc_log, &info.denials);
                if (r < 0) {
                        fb_info_done(&info);
                        return cli_fail(ctx, r, _("reading this boot's denials"));
                }
        }
        r = act(ctx, &info);
        fb_info_done(&info);
        return r;
}

int main(int argc, char **argv)
{
        cli_set_program(prog);
        cli_i18n_init();
        return run(argc, argv);
}
