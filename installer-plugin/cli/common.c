/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* common.c — option handling, logging and exit status shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool cli_common_option(struct cli_common *c, int opt, const char *arg)
{
        switch (opt) {
        case 'R':
                c->root = arg;
                return true;
        case 'J':
                c->json = true;
                return true;
        default:
                return false;
        }
}

static void log_stderr(void *userdata, int priority, const char *message)
{
        (void) userdata;
        /* Errors are printed once by cli_fail(); everything else is shown as it comes. */
        if (priority <= SEINSTALL_LOG_ERR)
                return;
        fprintf(stderr, "seinstall: %s%s\n", priority == SEINSTALL_LOG_WARNING ? "warning: " : "",
                message);
}

int cli_open(const struct cli_common *c, struct seinstall_ctx **ret_ctx)
{
        const char *root = c->root ? c->root : "/";
        int r = seinstall_new(root, ret_ctx);

        if (r < 0) {
                fprintf(stderr, "seinstall: target root %s: %s\n", root, strerror(-r));
                return cli_exit_status(r);
        }
        seinstall_set_log_fn(*ret_ctx, log_stderr, NULL);
        return 0;
}

int cli_exit_status(int r)
{
        switch (-r) {
        case 0:
                return EXIT_OK;
        case EINVAL:
        case EBADMSG:
        case ENOENT:
        case ENOTDIR:
        case EISDIR:
        case EBADFD: /* a FIFO, device or socket where a file belongs */
        case EXDEV:  /* a path of the target leading onto a mount not its own */
        case EFBIG:
        case ELOOP:
        case ENAMETOOLONG:
                return EXIT_USAGE;
        default:
                return EXIT_SYSTEM;
        }
}

int cli_fail(struct seinstall_ctx *ctx, int r, const char *what)
{
        const char *msg = seinstall_last_error(ctx);

        if (msg)
                fprintf(stderr, "seinstall: %s\n", msg);
        else
                fprintf(stderr, "seinstall: %s: %s\n", what, strerror(-r));
        return cli_exit_status(r);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
        va_list ap;

        fprintf(stderr, "seinstall %s: ", cmd);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nTry 'seinstall %s --help'.\n", cmd);
        return EXIT_USAGE;
}

void cli_json_str(FILE *f, const char *s)
{
        const unsigned char *p = (const unsigned char *) s;

        if (!s) {
                fputs("null", f);
                return;
        }
        fputc('"', f);
        for (; *p; p++) {
                if (*p == '"' || *p == '\\')
                        fprintf(f, "\\%c", *p);
                else if (*p == '\n')
                        fputs("\\n", f);
                else if (*p < 0x20 || *p == 0x7f || *p >= 0x80)
                        /* bytes above 0x7f as \u00XX keep the document valid whatever the
                         * encoding of a path; the library's own strings are ASCII */
                        fprintf(f, "\\u%04x", *p);
                else
                        fputc(*p, f);
        }
        fputc('"', f);
}
