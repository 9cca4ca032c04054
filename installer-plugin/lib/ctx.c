/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ctx.c — the library context: the target root and its mounts (created and freed here), the
 * labels of what is written (label.c's, freed through the function it left), the log callback
 * and the last error (set here, written by log.c). */
#include <fcntl.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "seinstall-internal.h"

static char *normalise_root(const char *root)
{
        size_t n = strlen(root);
        while (n > 1 && root[n - 1] == '/')
                n--;
        return strndup(root, n);
}

SEINSTALL_EXPORT int seinstall_new(const char *root, struct seinstall_ctx **ret_ctx)
{
        struct seinstall_ctx *ctx;
        struct stat st;

        /* "" is not "/": an empty --root (an unset shell variable) must not select the
         * running system. */
        if (!ret_ctx || (root && !*root))
                return -EINVAL;
        if (!root)
                root = "/";

        ctx = calloc(1, sizeof(*ctx));
        if (!ctx)
                return -ENOMEM;
        ctx->root_fd = -EBADF;
        ctx->log_priority = SEINSTALL_LOG_INFO;
        ctx->root = normalise_root(root);
        if (!ctx->root) {
                seinstall_unref(ctx);
                return -ENOMEM;
        }
        if (si_mountset_new(&ctx->mounts) < 0) {
                seinstall_unref(ctx);
                return -ENOMEM;
        }
        ctx->root_fd = open(ctx->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (ctx->root_fd < 0 || fstat(ctx->root_fd, &st) < 0) {
                int r = -errno;
                seinstall_unref(ctx);
                return r;
        }
        *ret_ctx = ctx;
        return 0;
}

static void ctx_free(struct seinstall_ctx *ctx)
{
        if (ctx->root_fd >= 0)
                close(ctx->root_fd);
        si_undo_end(ctx);
        si_mountset_free(ctx->mounts);
        if (ctx->labels_free)
                ctx->labels_free(ctx);
        free(ctx->root);
        free(ctx->last_error);
        free(ctx->last_error_command);
        free(ctx->cause);
        free(ctx);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_ctx, seinstall, ctx_free);

SEINSTALL_EXPORT void seinstall_set_translate(struct seinstall_ctx *ctx, bool translate)
{
        if (ctx)
                ctx->translate = translate;
}

void seinstall_set_interrupt(struct seinstall_ctx *ctx, const volatile sig_atomic_t *flag)
{
        if (ctx)
                ctx->interrupt = flag;
}

int seinstall_set_sandbox_timeout(struct seinstall_ctx *ctx, unsigned seconds)
{
        if (!ctx || seconds > SEINSTALL_SANDBOX_TIMEOUT_MAX)
                return -EINVAL;
        ctx->sandbox_timeout_s = seconds;
        return 0;
}

int seinstall_set_links_max(struct seinstall_ctx *ctx, size_t n)
{
        if (!ctx || n > SEINSTALL_LINKS_MAX_LIMIT)
                return -EINVAL;
        ctx->links_max = n;
        return 0;
}

SEINSTALL_EXPORT const char *seinstall_get_root(const struct seinstall_ctx *ctx)
{
        return ctx ? ctx->root : NULL;
}

SEINSTALL_EXPORT void seinstall_set_log_fn(struct seinstall_ctx *ctx, seinstall_log_fn fn,
                                           void *userdata)
{
        if (!ctx)
                return;
        ctx->log_fn = fn;
        ctx->log_data = userdata;
}

SEINSTALL_EXPORT void seinstall_set_log_priority(struct seinstall_ctx *ctx, int max_priority)
{
        if (ctx)
                ctx->log_priority = max_priority;
}

SEINSTALL_EXPORT const char *seinstall_last_error(const struct seinstall_ctx *ctx)
{
        return ctx ? ctx->last_error : NULL;
}

SEINSTALL_EXPORT const char *seinstall_last_error_command(const struct seinstall_ctx *ctx)
{
        return ctx ? ctx->last_error_command : NULL;
}
