/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* progress.c — the progress line of the walking commands on stderr (report.h): rewritten in
 * place on a terminal, plain lines elsewhere; every other message ends an open line first.
 * Also the program's name, which every message starts with. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "i18n.h"
#include "report.h"

/* The name every message starts with, this line's and report.c's (cli_set_program()). */
static const char *program = "seinstall";

void cli_set_program(const char *name)
{
        program = name;
}

const char *cli_program(void)
{
        return program;
}

/* Seconds between two progress lines when stderr is not a terminal (a pipe, the journal). */
#define PROGRESS_PLAIN_INTERVAL 5.0

static struct {
        int tty; /* -1: not looked at yet */
        const char *what;
        double last; /* elapsed time of the last plain line, < 0 for none */
} progress = {.tty = -1, .last = -1};
/* A progress line is on the terminal without its newline (read by the signal handler). */
static volatile sig_atomic_t progress_open;

/* Killed while the line is open: end it, so the shell's prompt or the next message starts a
 * line of its own, then die of the signal as before. */
static void progress_on_signal(int sig)
{
        if (progress_open)
                (void) !write(STDERR_FILENO, "\n", 1);
        signal(sig, SIG_DFL);
        raise(sig);
}

static void progress_catch_signals(void)
{
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

        for (size_t i = 0; i < ELEMENTSOF(sigs); i++) {
                struct sigaction old, sa = {.sa_handler = progress_on_signal};
                /* only where nobody else decided what the signal does */
                if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
                        (void) sigaction(sigs[i], &sa, NULL);
        }
}

void cli_progress_break(void)
{
        if (progress_open) {
                fputc('\n', stderr);
                progress_open = 0;
        }
}

void cli_progress_end(void)
{
        if (progress_open) {
                fputs("\r\033[K", stderr);
                fflush(stderr);
                progress_open = 0;
        }
}

void cli_show_progress(void *userdata, unsigned long long done, unsigned long long total,
                       double elapsed)
{
        const char *what = userdata;
        double rate = elapsed > 0 ? (double) done / elapsed : 0;
        unsigned long long t = total > done ? total : done;

        if (progress.tty < 0) {
                progress.tty = isatty(STDERR_FILENO);
                if (progress.tty)
                        progress_catch_signals();
        }
        if (!streq_ptr(progress.what, what)) {
                progress.what = what;
                progress.last = -1;
        }
        if (!progress.tty) {
                /* plain lines, a few a minute: a log keeps them, a pipe reads them */
                if (progress.last >= 0 && elapsed - progress.last < PROGRESS_PLAIN_INTERVAL)
                        return;
                progress.last = elapsed;
        } else {
                fputs("\r\033[K", stderr);
        }
        if (rate > 0 && t > done)
                /* TRANSLATORS: "seinstall: relabel: 1200 of ~50000 entries, 800/s, ~61s left" */
                fprintf(stderr, _("%s: %s: %llu of ~%llu entries, %.0f/s, ~%.0fs left"),
                        cli_program(), what, done, t, rate, (double) (t - done) / rate);
        else
                fprintf(stderr, _("%s: %s: %llu entries, %.0f/s"), cli_program(), what, done, rate);
        if (progress.tty)
                progress_open = 1;
        else
                fputc('\n', stderr);
        fflush(stderr);
}
