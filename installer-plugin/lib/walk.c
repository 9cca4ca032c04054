/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk.c — the parallel tree walker under the relabel engine: it visits every entry of the
 * target's labeled mounts once, from several threads, and leaves what to do with an entry to
 * the engine's visit function (relabel.c). This file is the descent through one directory
 * tree by one worker thread, the hot path of every relabel; the threads and their queue are in
 * walk-pool.c, errors and messages in walk-msg.c, files with several names in walk-links.c and
 * the mount boundary in walk-mount.c.
 *
 * The walk never follows a symlink and works only with directory fds and single names: each
 * worker thread has its own working directory (unshare(CLONE_FS)) and fchdir()s into the
 * directory it reads, so lgetxattr/lsetxattr get a bare name, which works for every file type
 * and for paths of any length. (Without unshare, "/proc/self/fd/N/NAME" does the same.)
 * Memory: a worker keeps at most WALK_OPEN_MAX open directories, and one small frame per level
 * of its descent, and the shared queue holds at most one directory per thread, so memory grows
 * with depth and threads, never with the number of files (the table of files with several
 * names is the exception, with a bound of its own: walk-links.c). A directory on another filesystem
 * is a mount: it is walked only when that filesystem keeps per-file labels, and listed as
 * skipped otherwise.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "walk-internal.h"

/* ---- what visit functions use ---------------------------------------------------------------- */

static const char *proc_name(struct si_walker *w, int dfd, const char *name)
{
        w->cwd = -1;
        snprintf(w->procpath, sizeof(w->procpath), "/proc/self/fd/%d/%s", dfd, name);
        return w->procpath;
}

const char *si_walk_xattr_name(struct si_walker *w, int dfd, const char *name)
{
        if (!w->own_cwd)
                return proc_name(w, dfd, name);
        if (w->cwd != dfd) {
                if (fchdir(dfd) < 0)
                        return proc_name(w, dfd, name);
                w->cwd = dfd;
        }
        return name;
}

void si_walk_count(struct si_walker *w, enum seinstall_relabel_count which)
{
        atomic_fetch_add_explicit(&w->counts[which], 1, memory_order_relaxed);
}

/* ---- the walk ------------------------------------------------------------------------------ */

/* Hand a directory to an idle worker when there is one; returns true when it took it. */
static bool offer(struct si_walk *j, int fd, const char *path, size_t len, dev_t dev, uint64_t mnt)
{
        bool taken = false;

        if (atomic_load_explicit(&j->idle_hint, memory_order_relaxed) == 0 ||
            atomic_load_explicit(&j->qlen_hint, memory_order_relaxed) >= j->nthreads)
                return false;
        pthread_mutex_lock(&j->lock);
        if (j->idle > 0 && j->qlen < j->nthreads) {
                char *p = strndup(path, len);
                if (p) {
                        j->queue[j->qlen++] = (struct si_walk_work){
                            .fd = fd, .path = p, .len = len, .dev = dev, .mnt = mnt};
                        atomic_store_explicit(&j->qlen_hint, (unsigned) j->qlen,
                                              memory_order_relaxed);
                        pthread_cond_signal(&j->cond);
                        taken = true;
                }
        }
        pthread_mutex_unlock(&j->lock);
        return taken;
}

struct frame {
        DIR *dir;   /* NULL while closed to keep the open directories bounded */
        size_t len; /* path length of this directory */
        dev_t dev;
        ino_t ino;
        uint64_t mnt;
        long pos; /* telldir() when it was closed */
};

/* At most this many directories open per walker, however deep the tree: deeper frames keep
 * only their name (in the path), identity and position, and are reopened on the way back. */
#define WALK_OPEN_MAX 64

/* Close the lowest open frame of @stack (frames [*lowest, depth) are open). */
static void frame_park(struct si_walker *w, struct frame *stack, size_t *lowest)
{
        struct frame *f = &stack[*lowest];

        f->pos = telldir(f->dir);
        if (w->cwd == dirfd(f->dir))
                w->cwd = -1;
        closedir(f->dir);
        f->dir = NULL;
        (*lowest)++;
}

/* Reopen frames so that [new lowest, depth) are open again: from the walk's start (@base, an
 * O_PATH fd of frame 0) down by the names in the path, each checked to be the directory it
 * was (device and inode), and put back at its position. Returns the number of frames still
 * valid (depth, or less when a directory changed meanwhile). */
static size_t frames_reopen(struct si_walker *w, struct frame *stack, size_t depth, size_t *lowest,
                            int base)
{
        size_t keep_from = depth > WALK_OPEN_MAX ? depth - WALK_OPEN_MAX : 0;
        int cur = openat(base, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        for (size_t k = 0; k < depth; k++) {
                struct stat st;

                if (k > 0 && cur >= 0) {
                        size_t from = stack[k - 1].len + 1;
                        char name[NAME_MAX + 1];
                        size_t n = stack[k].len - from;
                        int next = -1;

                        if (n <= NAME_MAX) {
                                memcpy(name, w->path.s + from, n);
                                name[n] = '\0';
                                next = openat(cur, name,
                                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        }
                        if (k - 1 < keep_from)
                                close(cur);
                        cur = next;
                }
                if (cur < 0 || fstat(cur, &st) < 0 || st.st_dev != stack[k].dev ||
                    st.st_ino != stack[k].ino) {
                        w->path.len = stack[k].len;
                        w->path.s[w->path.len] = '\0';
                        si_walk_error(w->walk, w,
                                      "%s changed while it was walked (deeper than %d levels): "
                                      "not walked further",
                                      *w->path.s ? w->path.s : "/", WALK_OPEN_MAX);
                        if (cur >= 0)
                                close(cur);
                        *lowest = k < keep_from ? k : keep_from;
                        return k;
                }
                if (k >= keep_from) {
                        stack[k].dir = fdopendir(cur);
                        if (!stack[k].dir) {
                                close(cur);
                                *lowest = k < keep_from ? k : keep_from;
                                return k;
                        }
                        seekdir(stack[k].dir, stack[k].pos);
                }
        }
        if (depth > 0 && keep_from >= depth)
                close(cur);
        *lowest = keep_from;
        return depth;
}

/* Whether an entry on mount @mnt, below a directory on mount @parent_mnt, is walked: the same
 * mount, or one of the target's own (mount-boundary.c). Else it is recorded as skipped, with why.
 */
static bool mount_allowed(struct si_walk *j, const char *path, uint64_t mnt, uint64_t parent_mnt,
                          const char *fsname)
{
        _cleanup_free_ char *outside = NULL;
        int r;

        if (mnt == parent_mnt)
                return true;
        r = si_mount_is_own(j->ctx, mnt);
        if (r > 0)
                return true;
        /* Bind mounts of the same filesystem keep st_dev: only the mount ID tells them. */
        outside = r == 0 ? si_walk_mounted_outside(j->ctx, path) : NULL;
        si_walk_add_skipped(
            j, path, fsname,
            outside  ? outside
            : r == 0 ? "not one of the target's own mounts (a bind mount of the installer's "
                       "files, or a kernel filesystem): not labeled"
                     : "its mount could not be identified: not labeled");
        return false;
}

/* A directory entry that is a directory: open it, check for a mount, label it, and return its
 * fd to descend into (or -1 to not descend). */
static int enter_dir(struct si_walker *w, int dfd, const char *name, dev_t parent_dev,
                     uint64_t parent_mnt, dev_t *ret_dev, uint64_t *ret_mnt)
{
        uint64_t mnt = 0;
        struct si_walk *j = w->walk;
        const char *path = w->path.s;
        struct stat st;
        int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

        if (fd < 0) {
                if (errno != ENOENT)
                        si_walk_error(j, w, "Could not open directory %s: %m", path);
                return -1;
        }
        if (fstat(fd, &st) < 0 || si_fd_mount_id(fd, "", AT_EMPTY_PATH, &mnt) < 0) {
                si_walk_error(j, w, "Could not stat %s: %m", path);
                close(fd);
                return -1;
        }
        if (st.st_dev != parent_dev || mnt != parent_mnt) {
                const char *fsname, *reason;
                if (!si_walk_mount_labelable(j->check, path, fd, &fsname, &reason)) {
                        si_walk_add_skipped(j, path, fsname, reason);
                        close(fd);
                        return -1;
                }
                if (!mount_allowed(j, path, mnt, parent_mnt, fsname)) {
                        close(fd);
                        return -1;
                }
                if (!j->rewalk) {
                        pthread_mutex_lock(&j->lock);
                        j->total_estimate += si_walk_used_inodes(fd);
                        pthread_mutex_unlock(&j->lock);
                }
        }
        if (!j->rewalk)
                j->ops->visit(w, fd, -1, NULL, path, S_IFDIR);
        *ret_dev = st.st_dev;
        *ret_mnt = mnt;
        return fd;
}

static int path_push(struct si_walker *w, size_t len, const char *name)
{
        w->path.len = len;
        if (w->path.s)
                w->path.s[len] = '\0';
        if (sbuf_puts(&w->path, "/") < 0 || sbuf_puts(&w->path, name) < 0)
                return -ENOMEM;
        return 0;
}

static mode_t dtype_mode(unsigned char t)
{
        switch (t) {
        case DT_REG:
                return S_IFREG;
        case DT_DIR:
                return S_IFDIR;
        case DT_LNK:
                return S_IFLNK;
        case DT_CHR:
                return S_IFCHR;
        case DT_BLK:
                return S_IFBLK;
        case DT_FIFO:
                return S_IFIFO;
        case DT_SOCK:
                return S_IFSOCK;
        default:
                return 0;
        }
}

/* One worker's descent (walk-internal.h). */
void si_walk_dir(struct si_walker *w, struct si_walk_work *start)
{
        struct si_walk *j = w->walk;
        struct frame *stack = NULL;
        size_t depth = 0, cap = 0, lowest = 0;
        int fd = start->fd;
        dev_t dev = start->dev;
        uint64_t mnt = start->mnt;
        _cleanup_close_ int base = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

        w->path.len = 0;
        if (w->path.s)
                w->path.s[0] = '\0';
        if (sbuf_append(&w->path, start->path, start->len) < 0) {
                close(fd);
                si_walk_fatal(j, -ENOMEM);
                return;
        }
        for (;;) {
                struct dirent *de;

                if (fd >= 0) {
                        /* push a frame for fd */
                        if (!SI_GROW(stack, cap, depth + 1)) {
                                close(fd);
                                si_walk_fatal(j, -ENOMEM);
                                break;
                        }
                        struct stat st;
                        if (depth - lowest >= WALK_OPEN_MAX)
                                frame_park(w, stack, &lowest);
                        stack[depth].ino = fstat(fd, &st) == 0 ? st.st_ino : 0;
                        stack[depth].dir = fdopendir(fd);
                        if (!stack[depth].dir) {
                                si_walk_error(j, w, "Could not read directory %s: %m",
                                              *w->path.s ? w->path.s : "/");
                                close(fd);
                        } else {
                                stack[depth].len = w->path.len;
                                stack[depth].dev = dev;
                                stack[depth].mnt = mnt;
                                depth++;
                        }
                        fd = -1;
                }
                if (depth == 0 || atomic_load_explicit(&j->abort, memory_order_relaxed))
                        break;

                struct frame *f = &stack[depth - 1];
                errno = 0;
                de = readdir(f->dir);
                if (!de) {
                        if (errno)
                                si_walk_error(j, w, "Could not read directory %s: %m",
                                              *w->path.s ? w->path.s : "/");
                        if (w->cwd == dirfd(f->dir))
                                w->cwd = -1;
                        closedir(f->dir);
                        depth--;
                        if (depth > 0 && depth <= lowest) {
                                /* back below the open window: reopen by name */
                                w->path.len = stack[depth - 1].len;
                                w->path.s[w->path.len] = '\0';
                                depth = frames_reopen(w, stack, depth, &lowest, base);
                        }
                        if (depth > 0) {
                                w->path.len = stack[depth - 1].len;
                                w->path.s[w->path.len] = '\0';
                        }
                        continue;
                }
                if (de->d_name[0] == '.' &&
                    (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
                        continue;
                if (path_push(w, f->len, de->d_name) < 0) {
                        si_walk_fatal(j, -ENOMEM);
                        break;
                }
                mode_t mode = dtype_mode(de->d_type);
                if (!mode) {
                        struct stat st;
                        if (fstatat(dirfd(f->dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                                if (errno != ENOENT)
                                        si_walk_error(j, w, "Could not stat %s: %m", w->path.s);
                                continue;
                        }
                        mode = st.st_mode & S_IFMT;
                }
                if (mode != S_IFDIR) {
                        struct statx sx;
                        /* One statx for the mount ID (a bind-mounted single file is a mount
                         * of its own) and the link count. */
                        if (statx(dirfd(f->dir), de->d_name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
                                  STATX_TYPE | STATX_NLINK | STATX_INO | STATX_MNT_ID, &sx) < 0) {
                                if (errno != ENOENT)
                                        si_walk_error(j, w, "Could not stat %s: %m", w->path.s);
                                continue;
                        }
                        if ((sx.stx_mask & STATX_MNT_ID) &&
                            !mount_allowed(j, w->path.s, sx.stx_mnt_id, f->mnt, "file"))
                                continue;
                        /* A file with several names gets one label, decided after the walk
                         * (of this pass, or of a later one when the table is full). */
                        if (sx.stx_nlink > 1 && !S_ISDIR(sx.stx_mode)) {
                                dev_t sdev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
                                /* the visit after the walk counts the first name */
                                int added = si_walk_links_add(j, sdev, sx.stx_ino, w->path.s, mode);
                                if (added == 0)
                                        si_walk_count(w, SEINSTALL_RELABEL_COUNT_SEEN);
                                if (added < 0)
                                        si_walk_links_error(
                                            j, w,
                                            "Could not label %s, a file with several names: "
                                            "no room to find the name that sorts first (%s)",
                                            w->path.s, strerror(-added));
                                continue;
                        }
                        if (!j->rewalk)
                                j->ops->visit(w, -1, dirfd(f->dir), de->d_name, w->path.s, mode);
                        continue;
                }
                dev_t ndev;
                uint64_t nmnt = 0;
                int nfd = enter_dir(w, dirfd(f->dir), de->d_name, f->dev, f->mnt, &ndev, &nmnt);
                if (nfd < 0)
                        continue;
                if (offer(j, nfd, w->path.s, w->path.len, ndev, nmnt))
                        continue;
                fd = nfd;
                dev = ndev;
                mnt = nmnt;
        }
        while (depth > 0) {
                if (stack[--depth].dir)
                        closedir(stack[depth].dir);
        }
        w->cwd = -1;
        free(stack);
}
