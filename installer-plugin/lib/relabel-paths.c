/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel-paths.c — the relabel of a list of paths (seinstall_verify_paths(), the first-boot
 * screen's "relabel these files"): each entry opened beneath the root without following a
 * link, labeled by the engine's core (relabel-label.c) as the walk would have, never descending.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "fcontext.h"
#include "relabel.h"
#include "walk.h"

/* ---- labeling a list of paths ------------------------------------------------------------- */

/* @path made plain: absolute, no empty, "." or ".." component, no trailing slash ("/" stays).
 * NULL when it is not such a path inside the target; *ret_err -ENOMEM or -EINVAL. */
static char *path_plain(const char *path, int *ret_err)
{
        _cleanup_(sbuf_free) struct sbuf b = {0};
        const char *p = path, *end;

        *ret_err = -EINVAL;
        if (!path || path[0] != '/')
                return NULL;
        while (*p) {
                size_t n;
                while (*p == '/')
                        p++;
                end = strchrnul(p, '/');
                n = (size_t) (end - p);
                if (n == 0)
                        break;
                if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
                        return NULL;
                if (sbuf_puts(&b, "/") < 0 || sbuf_append(&b, p, n) < 0) {
                        *ret_err = -ENOMEM;
                        return NULL;
                }
                p = end;
        }
        if (!b.s && sbuf_puts(&b, "/") < 0) {
                *ret_err = -ENOMEM;
                return NULL;
        }
        return sbuf_steal(&b);
}

/* Open @path (plain) in the target as O_PATH, never through a symbolic link and never outside
 * the root. Returns the fd or a negative errno. */
static int open_beneath(struct seinstall_ctx *ctx, const char *path)
{
        struct open_how how = {
            .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
            .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };
        int fd =
            (int) syscall(SYS_openat2, ctx->root_fd, path[1] ? path + 1 : ".", &how, sizeof(how));

        return fd < 0 ? -errno : fd;
}

/* The mount point (inside the target, "" for the root's mount) of mount @mnt, which @path
 * (plain) lies on: the shortest leading part of @path on that mount whose parent is not. */
static int mountpoint_of(struct seinstall_ctx *ctx, const char *path, uint64_t mnt, char **ret)
{
        _cleanup_free_ char *part = strdup(path);
        size_t len = 0, best = 0;
        uint64_t prev = 0, id;
        bool first = true;

        if (!part)
                return -ENOMEM;
        /* "" (the root), then each leading part of @path */
        for (const char *p = path;; p = strchrnul(p + 1, '/')) {
                _cleanup_close_ int fd = -EBADF;
                len = (size_t) (p - path);
                part[len] = '\0';
                fd = open_beneath(ctx, len ? part : "/");
                part[len] = path[len];
                if (fd < 0 || si_fd_mount_id(fd, "", AT_EMPTY_PATH, &id) < 0)
                        break;
                if (first || id != prev)
                        best = len;
                first = false;
                prev = id;
                if (!*p)
                        break;
        }
        if (first || prev != mnt)
                best = strlen(path) == 1 ? 0 : strlen(path); /* a mount of its own, changed since */
        part[best] = '\0';
        *ret = TAKE_PTR(part);
        return 0;
}

/* Label the one entry @path names (plain), as the walk would have, when it lies on one of the
 * target's own mounts that keep per-file labels; else say why it was not labeled. */
static void label_path(struct relabel *rl, struct si_walker *w, const char *path)
{
        struct si_walk *j = &rl->walk;
        _cleanup_free_ char *mp = NULL;
        _cleanup_close_ int fd = open_beneath(j->ctx, path);
        const char *fsname, *reason;
        struct stat st;
        uint64_t mnt;
        int r;

        if (fd == -ENOENT) {
                si_walk_error(j, w, "%s: no such file (removed since?): not labeled", path);
                return;
        }
        if (fd == -ELOOP || fd == -EXDEV) {
                si_walk_error(j, w, "%s: a symbolic link on the way: not labeled", path);
                return;
        }
        if (fd < 0 || fstat(fd, &st) < 0 || si_fd_mount_id(fd, "", AT_EMPTY_PATH, &mnt) < 0) {
                errno = fd < 0 ? -fd : errno;
                si_walk_error(j, w, "Could not open %s: %m", path);
                return;
        }
        r = si_mount_is_own(j->ctx, mnt);
        if (r <= 0) {
                (void) si_relabel_result_add_skipped(
                    rl->res, path, "",
                    r == 0 ? "not one of the target's own mounts (a bind mount of the "
                             "installer's files, or a kernel filesystem): not labeled"
                           : "its mount could not be identified: not labeled");
                return;
        }
        r = mountpoint_of(j->ctx, path, mnt, &mp);
        if (r < 0) {
                si_walk_fatal(j, r);
                return;
        }
        if (!si_walk_mount_labelable(j->check, mp, fd, &fsname, &reason)) {
                (void) si_relabel_result_add_skipped(rl->res, path, fsname, reason);
                return;
        }
        si_relabel_label_entry(w, fd, -1, "", streq(path, "/") ? "" : path, st.st_mode & S_IFMT);
}

int si_relabel_run_paths(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                         const char *const *paths, size_t n, unsigned flags,
                         struct seinstall_relabel_result **ret_result)
{
        _cleanup_(si_relabel_done) struct relabel rl = si_relabel_of(ctx, in, flags);
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *res = NULL;
        struct si_walk *j = &rl.walk;
        double start = si_walk_now();
        unsigned long long errors;
        int r;

        if (n > 0 && !paths)
                return -EINVAL;
        r = si_relabel_result_new(ctx->root, in->type, in->file_contexts, 1, rl.dry_run, &res);
        if (r < 0)
                return r;
        si_relabel_set_result(&rl, res);
        j->nthreads = 1;
        r = si_walk_init(j);
        if (r < 0)
                return r;
        rl.walk_ready = true;
        /* one walker, in this thread: si_walk_done() releases it */
        j->workers = calloc(1, sizeof(*j->workers));
        if (!j->workers)
                return -ENOMEM;
        j->workers[0] = (struct si_walker){.walk = j, .cwd = -1};
        r = si_fc_scratch_new(in->fc, &j->workers[0].scratch);
        if (r < 0)
                return r;

        for (size_t i = 0; i < n && !j->fatal; i++) {
                _cleanup_free_ char *plain = path_plain(paths[i], &r);
                if (!plain && r == -ENOMEM)
                        return r;
                if (!plain)
                        si_walk_error(j, &j->workers[0],
                                      "%s: not an absolute path inside the target (no . or "
                                      "..): not labeled",
                                      paths[i] ? paths[i] : "(null)");
                else
                        label_path(&rl, &j->workers[0], plain);
        }
        for (int c = 0; c <= SEINSTALL_RELABEL_COUNT_ERRORS; c++)
                si_relabel_result_add_count(res, c, si_walk_count_total(j, c));
        r = j->fatal;
        errors = seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS);
        if (r == 0 && errors > 0) {
                const char *first = seinstall_relabel_result_get_error(res, 0);
                r = si_error(ctx, -SEINSTALL_ERROR_INCOMPLETE,
                             "%llu of the %zu paths of %s could not be labeled (first: "
                             "%s)",
                             errors, n, ctx->root, first ? first : "?");
        }
        si_relabel_result_finish(res, si_walk_now() - start, r);
        if (ret_result)
                *ret_result = TAKE_PTR(res);
        return r;
}
