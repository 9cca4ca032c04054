/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interrupt.c — SIGINT and SIGTERM during a long command (relabel, verify, install): caught,
 * the library asked to stop at its next safe point (seinstall_set_interrupt()), and one line
 * saying what was interrupted, what stays as it was and the command that finishes the job. A
 * second signal of the same kind is not caught: it ends the process as it would have. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
        caught = sig;
}

void cli_catch_interrupts(struct seinstall_ctx *ctx)
{
        const struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESETHAND};

        caught = 0;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        seinstall_set_interrupt(ctx, &caught);
}

int cli_interrupted(void)
{
        return caught;
}

/* "seinstall ARGV..." with every argument quoted, as typed. */
static char *command_again(int argc, char **argv)
{
        struct sbuf b = {};
        int r = sbuf_puts(&b, "seinstall");

        for (int i = 0; r >= 0 && i < argc; i++) {
                /* an option's name as it is ("--root", not "'--root'"), its value quoted */
                const char *opt = startswith(argv[i], "--");
                size_t n = opt ? strspn(opt, "abcdefghijklmnopqrstuvwxyz-") : 0;
                r = sbuf_puts(&b, " ");
                if (r >= 0 && n > 0 && (opt[n] == '\0' || opt[n] == '='))
                        r = sbuf_append(&b, argv[i], n + 2 + (opt[n] == '='));
                if (r >= 0 && !(n > 0 && opt[n] == '\0'))
                        r = shell_quote(&b, n > 0 && opt[n] == '=' ? opt + n + 1 : argv[i]);
        }
        if (r < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

int cli_interrupted_exit(const char *left, int argc, char **argv)
{
        /* TRANSLATORS: "relabel interrupted by SIGINT: WHAT STAYS AS IT WAS; to finish, run:
         * COMMAND". The command must stay last (it is printed to be pasted). */
        static const char *const fmt = N_("%s interrupted by %s: %s; to finish, run: %s");
        _cleanup_free_ char *again = command_again(argc, argv), *msg = NULL, *msg_json = NULL;
        const char *signame = caught == SIGTERM ? "SIGTERM" : "SIGINT";
        int sig = caught;

        if (!again || asprintf(&msg, _(fmt), argv[0], signame, _(left), again) < 0 ||
            asprintf(&msg_json, fmt, argv[0], signame, left, again) < 0)
                return cli_error(-ENOMEM, "%s: interrupted", argv[0]);
        return cli_error_status(-EINTR, EXIT_INTERRUPTED(sig), msg, msg_json, again);
}
