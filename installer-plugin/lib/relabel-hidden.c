/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel-hidden.c — the relabel's pass over what the mounts on the root's own filesystem hide
 * (`seinstall relabel --under-mounts`, the first-boot relabel): mount-point directories and
 * what lies below them, seen through a detached bind mount of that filesystem and labeled with
 * their paths in the tree, by the engine's core (relabel-label.c).
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

/* ---- what the mounts hide ---------------------------------------------------------------- */

DEFINE_CLEANUP_FUNC(struct seinstall_ctx *, seinstall_unref)

/* A context for walking @fd (an O_PATH directory of the bind mount) as the tree's @point: the
 * walker opens hard links by path below its context's root, and logs through it. */
static int sub_ctx_new(struct seinstall_ctx *ctx, int fd, const char *point,
                       struct seinstall_ctx **ret)
{
        struct seinstall_ctx *sub = calloc(1, sizeof(*sub));

        if (!sub)
                return -ENOMEM;
        sub->root_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        sub->log_fn = ctx->log_fn;
        sub->log_data = ctx->log_data;
        sub->log_priority = ctx->log_priority;
        if (sub->root_fd < 0 || si_mountset_new(&sub->mounts) < 0 ||
            asprintf(&sub->root, "%s%s", streq(ctx->root, "/") ? "" : ctx->root, point) < 0) {
                sub->root = NULL;
                seinstall_unref(sub);
                return -ENOMEM;
        }
        *ret = sub;
        return 0;
}

/* Label one entry the bind mount shows at @point that is no directory (a file a single-file
 * mount hides) through an O_PATH @fd, as the walker would. */
static int label_hidden_file(struct relabel *rl, int fd, const char *point, mode_t mode)
{
        struct si_walker w = {.walk = &rl->walk, .cwd = -1};
        struct seinstall_relabel_result *res = rl->res;
        int r = si_fc_scratch_new(rl->walk.fc, &w.scratch);

        if (r < 0)
                return r;
        si_relabel_label_entry(&w, fd, -1, "", point, mode);
        si_fc_scratch_free(w.scratch);
        sbuf_free(&w.path);
        for (int c = 0; c <= SEINSTALL_RELABEL_COUNT_ERRORS; c++)
                si_relabel_result_add_count(res, c, atomic_load(&w.counts[c]));
        return rl->walk.fatal;
}

/* Walk what the bind mount shows at @point (open as the O_PATH @fd): the mount point itself
 * and everything below it on the root's filesystem, with the paths of the tree. Adds to the
 * counts of @res, and what it saw and changed to *@seen and *@changed. */
static int relabel_hidden(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                          unsigned nthreads, unsigned flags, int fd, const char *point,
                          struct seinstall_relabel_result *res, unsigned long long *seen,
                          unsigned long long *changed)
{
        /* before rl: the walk's cleanup still logs through it */
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *sub = NULL;
        _cleanup_(si_relabel_done) struct relabel rl = {
            .walk = {.ops = &si_relabel_walk_ops, .fc = in->fc, .data = res, .nthreads = nthreads},
            .res = res,
            .dry_run = flags & SEINSTALL_RELABEL_DRY_RUN,
        };
        struct stat st;
        int dfd, r;

        if (fstat(fd, &st) < 0)
                return si_error(ctx, -errno, "Could not stat %s below the mounts: %m", point);
        r = si_walk_init(&rl.walk);
        if (r < 0)
                return r;
        rl.walk_ready = true;
        if (!S_ISDIR(st.st_mode)) {
                unsigned long long s0 = seinstall_relabel_result_get_count(
                                       res, SEINSTALL_RELABEL_COUNT_SEEN),
                                   c0 = seinstall_relabel_result_get_count(
                                       res, SEINSTALL_RELABEL_COUNT_CHANGED);
                rl.walk.ctx = ctx;
                r = label_hidden_file(&rl, fd, point, st.st_mode & S_IFMT);
                *seen += seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_SEEN) - s0;
                *changed +=
                    seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED) - c0;
                return r;
        }
        r = sub_ctx_new(ctx, fd, point, &sub);
        if (r < 0)
                return r;
        rl.walk.ctx = sub;
        rl.prefix = point;
        rl.prefixed = calloc(nthreads, sizeof(*rl.prefixed));
        if (!rl.prefixed)
                return -ENOMEM;
        dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                r = si_error(ctx, -errno, "Could not open %s below the mounts: %m", point);
        else
                r = si_walk_run(&rl.walk, dfd, NULL, NULL, si_walk_now());
        for (int c = 0; c <= SEINSTALL_RELABEL_COUNT_ERRORS; c++)
                si_relabel_result_add_count(res, c, si_walk_count_total(&rl.walk, c));
        *seen += si_walk_count_total(&rl.walk, SEINSTALL_RELABEL_COUNT_SEEN);
        *changed += si_walk_count_total(&rl.walk, SEINSTALL_RELABEL_COUNT_CHANGED);
        if (r < 0 && sub->last_error)
                si_error(ctx, r, "%s", sub->last_error);
        for (unsigned i = 0; i < nthreads; i++)
                sbuf_free(&rl.prefixed[i]);
        free(rl.prefixed);
        return r;
}

/* After the walk of the live tree: what the mounts on the root's own filesystem hide there,
 * seen through a bind mount of that one filesystem (a detached clone: nothing mounted on it,
 * visible to no other process, gone when closed). Only the mount points whose parent is the
 * root's mount are walked, each with what lies below it; the mounts themselves were walked
 * (or skipped) by the live walk. */
int si_relabel_under_mounts(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                            unsigned nthreads, unsigned flags, struct seinstall_relabel_result *res)
{
        unsigned long long seen = 0, changed = 0, errors0;
        _cleanup_close_ int tree = -EBADF;
        char **points = NULL;
        size_t n = 0;
        uint64_t root_mnt;
        int r;

        errors0 = seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS);
        r = si_fd_mount_id(ctx->root_fd, "", AT_EMPTY_PATH, &root_mnt);
        if (r >= 0)
                r = si_mounts_on(ctx, root_mnt, &points, &n);
        if (r < 0)
                return si_error(ctx, r,
                                "Could not read the mounts of %s from /proc/self/mountinfo (%s): "
                                "what they hide is not labeled",
                                ctx->root, strerror(-r));
        if (n > 0) {
                tree = open_tree(ctx->root_fd, "",
                                 AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
                if (tree < 0) {
                        r = si_error(ctx, -errno,
                                     si_ntr(ctx,
                                            "Could not bind-mount the filesystem of %s to label "
                                            "what its %zu mount hides (%m): run as root "
                                            "(CAP_SYS_ADMIN), or relabel without --under-mounts",
                                            "Could not bind-mount the filesystem of %s to label "
                                            "what its %zu mounts hide (%m): run as root "
                                            "(CAP_SYS_ADMIN), or relabel without --under-mounts",
                                            n),
                                     ctx->root, n);
                        si_strv_free(points, n);
                        return r;
                }
        }
        for (size_t i = 0; r >= 0 && i < n; i++) {
                struct open_how how = {
                    .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
                    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV,
                };
                _cleanup_close_ int fd =
                    (int) syscall(SYS_openat2, tree, points[i] + 1, &how, sizeof(how));

                if (fd < 0) {
                        /* a mount point reached through a symlink or gone: nothing hidden */
                        si_debug(ctx, "%s: not below the mounts (%m)", points[i]);
                        continue;
                }
                r = relabel_hidden(ctx, in, nthreads, flags, fd, points[i], res, &seen, &changed);
        }
        si_debug(ctx, "Below %zu mount point(s) of %s: %llu entries, %llu labels %s", n, ctx->root,
                 seen, changed, flags & SEINSTALL_RELABEL_DRY_RUN ? "to change" : "changed");
        si_relabel_result_set_under_mounts(res, points, n, seen, changed);
        if (r == 0 &&
            seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS) > errors0) {
                const char *first = seinstall_relabel_result_get_error(
                    res, seinstall_relabel_result_get_n_errors(res) - 1);
                r = si_error(
                    ctx, -SEINSTALL_ERROR_INCOMPLETE,
                    "%llu entries below the mounts of %s could not be labeled (last: %s)",
                    seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS) -
                        errors0,
                    ctx->root, first ? first : "?");
        }
        return r;
}
