/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs-rollback.c — the rollback of a stage's writes: each path the journal (rootfs-undo.c)
 * noted is put back, the last change first, through the same writers (rootfs-write.c: atomic,
 * labeled, inside the target's own mounts), and the directories the stage made are removed
 * when empty.
 */
#include <fcntl.h>

#include "seinstall-private.h"
#include "rootfs-undo.h"

static int restore(struct seinstall_ctx *ctx, const struct undo_entry *e)
{
        _cleanup_close_ int fd = -EBADF;
        const char *base;

        switch (e->kind) {
        case UNDO_FILE:
                return si_root_write_atomic(ctx, e->path, e->data, e->len, 0644, 0);
        case UNDO_LINK:
                /* what took the link's place is a file: remove it, then the link again */
                (void) si_root_unlink(ctx, e->path, 0);
                return si_root_symlink(ctx, e->path, e->data, 0) < 0 ? -EIO : 0;
        case UNDO_ABSENT:
                return si_root_unlink(ctx, e->path, 0);
        case UNDO_MADE_DIR:
                fd = si_undo_open_dir_of(ctx, e->path, &base);
                /* only when empty: what else came there is not the stage's to remove */
                if (fd >= 0 && unlinkat(fd, base, AT_REMOVEDIR) < 0 && errno != ENOTEMPTY &&
                    errno != EEXIST && errno != ENOENT)
                        return -errno;
                return 0;
        }
        return -EINVAL;
}

int si_undo_rollback(struct seinstall_ctx *ctx, char **ret_failed)
{
        struct si_undo *u = ctx->undo;
        int first = 0;

        if (!u)
                return 0;
        ctx->undo = NULL; /* the restoring writes are not noted */
        for (size_t i = u->n; i-- > 0;) {
                int r = restore(ctx, &u->v[i]);
                if (r < 0 && first == 0) {
                        first = r;
                        if (ret_failed)
                                *ret_failed = strdup(u->v[i].path);
                }
        }
        if (first == 0 && u->failed)
                first = -ENOTRECOVERABLE;
        ctx->undo = u;
        si_undo_end(ctx);
        return first;
}
