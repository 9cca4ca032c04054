/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs-undo.c — the journal that makes a stage writing several files of the target all or
 * nothing: while it is open on the context, each writer of rootfs-write.c notes what a path
 * held before its first change (a file's bytes, a link's target, nothing) and the directories
 * it made. The rollback (rootfs-rollback.c) puts each back. apply uses it so that a boot
 * loader command failing after GRUB's defaults changed leaves the target as it was.
 */
#include <fcntl.h>
#include <limits.h>

#include "seinstall-private.h"
#include "rootfs-undo.h"

int si_undo_begin(struct seinstall_ctx *ctx)
{
        if (ctx->undo)
                return -EBUSY;
        ctx->undo = calloc(1, sizeof(*ctx->undo));
        return ctx->undo ? 0 : -ENOMEM;
}

void si_undo_end(struct seinstall_ctx *ctx)
{
        struct si_undo *u = ctx->undo;

        if (!u)
                return;
        for (size_t i = 0; i < u->n; i++) {
                free(u->v[i].path);
                free(u->v[i].data);
        }
        free(u);
        ctx->undo = NULL;
}

static bool noted(const struct si_undo *u, const char *path)
{
        for (size_t i = 0; i < u->n; i++)
                if (u->v[i].kind != UNDO_MADE_DIR && streq(u->v[i].path, path))
                        return true;
        return false;
}

int si_undo_open_dir_of(struct seinstall_ctx *ctx, const char *path, const char **ret_base)
{
        const char *slash = strrchr(path, '/');
        _cleanup_free_ char *dir = NULL;

        if (!slash || !slash[1])
                return -EINVAL;
        dir = strndup(path, (size_t) (slash - path));
        if (!dir)
                return -ENOMEM;
        *ret_base = slash + 1;
        return si_root_open(ctx, *dir ? dir : "/", O_PATH | O_DIRECTORY, 0);
}

/* The target of the symbolic link @path. */
static int read_link(struct seinstall_ctx *ctx, const char *path, char **ret, size_t *ret_len)
{
        _cleanup_free_ char *buf = malloc(PATH_MAX);
        _cleanup_close_ int dfd = -EBADF;
        const char *base;
        ssize_t n;

        if (!buf)
                return -ENOMEM;
        dfd = si_undo_open_dir_of(ctx, path, &base);
        if (dfd < 0)
                return dfd;
        n = readlinkat(dfd, base, buf, PATH_MAX - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        *ret = TAKE_PTR(buf);
        *ret_len = (size_t) n;
        return 0;
}

static int add(struct si_undo *u, const char *path, enum undo_kind kind, char *data, size_t len)
{
        if (u->n >= UNDO_MAX) {
                free(data);
                return -E2BIG;
        }
        u->v[u->n] =
            (struct undo_entry){.path = strdup(path), .kind = kind, .data = data, .len = len};
        if (!u->v[u->n].path) {
                free(data);
                return -ENOMEM;
        }
        u->n++;
        return 0;
}

int si_undo_note(struct seinstall_ctx *ctx, const char *path)
{
        struct si_undo *u = ctx->undo;
        char *data = NULL;
        size_t len = 0;
        int r;

        if (!u || noted(u, path))
                return 0;
        r = si_root_read_replaced(ctx, path, UNDO_FILE_MAX, &data, &len);
        if (r >= 0)
                r = add(u, path, UNDO_FILE, data, len);
        else if (r == -ENOENT)
                r = add(u, path, UNDO_ABSENT, NULL, 0);
        else if (r == -ELOOP && (r = read_link(ctx, path, &data, &len)) >= 0)
                r = add(u, path, UNDO_LINK, data, len);
        if (r < 0)
                u->failed = true;
        return r;
}

void si_undo_made_dir(struct seinstall_ctx *ctx, const char *path)
{
        if (ctx->undo && add(ctx->undo, path, UNDO_MADE_DIR, NULL, 0) < 0)
                ctx->undo->failed = true;
}
