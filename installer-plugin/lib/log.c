/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* log.c — the library's one voice: messages through the context's log callback, and the
 * failure message kept as the context's last error (seinstall_last_error()). Every other file
 * reports through these; they call nothing but util.h's helpers. */
#include "seinstall-private.h"

#include <libintl.h>

#ifndef LOCALEDIR
#define LOCALEDIR "/usr/share/locale"
#endif

/* Where the catalogs are, bound once as the library is loaded, before the program's main(): a
 * program that keeps them elsewhere (a test's build tree) binds the domain again after. */
__attribute__((constructor)) static void bind_text_domain(void)
{
        bindtextdomain(SI_TEXT_DOMAIN, LOCALEDIR);
        bind_textdomain_codeset(SI_TEXT_DOMAIN, "UTF-8");
}

const char *si_tr(const struct seinstall_ctx *ctx, const char *msgid)
{
        return ctx && ctx->translate && *msgid ? dgettext(SI_TEXT_DOMAIN, msgid) : msgid;
}

const char *si_ntr(const struct seinstall_ctx *ctx, const char *one, const char *many,
                   unsigned long n)
{
        if (ctx && ctx->translate)
                return dngettext(SI_TEXT_DOMAIN, one, many, n);
        return n == 1 ? one : many;
}

static void log_va(struct seinstall_ctx *ctx, int priority, const char *msg)
{
        if (ctx->log_fn && priority <= ctx->log_priority)
                ctx->log_fn(ctx->log_data, priority, msg);
}

void si_log(struct seinstall_ctx *ctx, int priority, const char *fmt, ...)
{
        _cleanup_free_ char *msg = NULL;
        va_list ap;

        if (!ctx || !ctx->log_fn || priority > ctx->log_priority)
                return;
        va_start(ap, fmt);
        msg = str_vprintf(si_tr(ctx, fmt), ap);
        va_end(ap);
        if (msg)
                log_va(ctx, priority, msg);
}

/* The message is formatted before the cause is dropped: it may quote it (si_strerror()). */
static void cause_drop(struct seinstall_ctx *ctx)
{
        free(ctx->cause);
        ctx->cause = NULL;
        ctx->cause_err = 0;
}

static int error_va(struct seinstall_ctx *ctx, int err, const char *fmt, va_list ap)
{
        char *msg = str_vprintf(si_tr(ctx, fmt), ap);

        cause_drop(ctx);
        free(ctx->last_error);
        ctx->last_error = msg;
        free(ctx->last_error_command);
        ctx->last_error_command = NULL;
        if (msg)
                log_va(ctx, SEINSTALL_LOG_ERR, msg);
        return err;
}

int si_error(struct seinstall_ctx *ctx, int err, const char *fmt, ...)
{
        va_list ap;

        if (!ctx)
                return err;
        va_start(ap, fmt);
        err = error_va(ctx, err, fmt, ap);
        va_end(ap);
        return err;
}

int si_error_cause(struct seinstall_ctx *ctx, int err, const char *fmt, ...)
{
        va_list ap;

        if (!ctx)
                return err;
        va_start(ap, fmt);
        err = error_va(ctx, err, fmt, ap);
        va_end(ap);
        ctx->cause = ctx->last_error ? strdup(ctx->last_error) : NULL;
        ctx->cause_err = ctx->cause ? err : 0;
        return err;
}

const char *si_strerror(struct seinstall_ctx *ctx, int r)
{
        if (ctx && ctx->cause && ctx->cause_err == r)
                return ctx->cause;
        /* seinstall's own codes (above every errno) have words of their own */
        return -r >= SEINSTALL_ERROR_LABEL_REFUSED ? seinstall_strerror(r) : si_file_strerror(r);
}

int si_error_run(struct seinstall_ctx *ctx, int err, char *command, const char *fmt, ...)
{
        _cleanup_free_ char *text = NULL;
        char *msg = NULL;
        va_list ap;

        if (!ctx) {
                free(command);
                return err;
        }
        va_start(ap, fmt);
        text = str_vprintf(si_tr(ctx, fmt), ap);
        va_end(ap);
        if (text && command && asprintf(&msg, "%s%s", text, command) < 0)
                msg = NULL;
        cause_drop(ctx);
        free(ctx->last_error);
        ctx->last_error = msg ? msg : TAKE_PTR(text);
        free(ctx->last_error_command);
        ctx->last_error_command = msg ? command : (free(command), NULL);
        if (ctx->last_error)
                log_va(ctx, SEINSTALL_LOG_ERR, ctx->last_error);
        return err;
}
