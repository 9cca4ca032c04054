/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs-undo.c — all or nothing for a stage that writes several files of the target: while a
 * journal is open on the context, each writer of rootfs-write.c notes what a path held before
 * its first change (a file's bytes, a link's target, nothing); a rollback puts each back, the
 * last change first, through the same writers (atomic, labeled, inside the target's own
 * mounts), and removes the directories the stage made. apply uses it so that a boot loader
 * command failing after GRUB's defaults changed leaves the target as it was.
 */
#include <fcntl.h>
#include <limits.h>

#include "seinstall-private.h"

/* The most one noted file may hold: what a stage writes is configuration. */
#define UNDO_FILE_MAX (1024 * 1024)
#define UNDO_MAX      256

enum undo_kind { UNDO_ABSENT, UNDO_FILE, UNDO_LINK, UNDO_MADE_DIR };

struct undo_entry {
        char *path;
        enum undo_kind kind;
        char *data; /* the file's bytes or the link's target */
        size_t len;
};

struct si_undo {
        struct undo_entry v[UNDO_MAX];
        size_t n;
        bool failed; /* a change could not be noted: a rollback cannot be complete */
};

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

/* The parent directory of @path, opened inside the root, and @path's last component. */
static int open_dir_of(struct seinstall_ctx *ctx, const char *path, const char **ret_base)
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
        dfd = open_dir_of(ctx, path, &base);
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
                fd = open_dir_of(ctx, e->path, &base);
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
