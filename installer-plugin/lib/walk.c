/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk.c — the parallel tree walker under the relabel engine: it visits every entry of the
 * target's labeled mounts once, from several threads, and leaves what to do with an entry to
 * the engine's visit function (relabel.c). It owns the threads and their work queue, the mount
 * boundary (which mounts below the root are walked), and the table of files with several names.
 *
 * The walk never follows a symlink and works only with directory fds and single names: each
 * worker thread has its own working directory (unshare(CLONE_FS)) and fchdir()s into the
 * directory it reads, so lgetxattr/lsetxattr get a bare name, which works for every file type
 * and for paths of any length. (Without unshare, "/proc/self/fd/N/NAME" does the same.)
 * Memory: a worker keeps one open directory per level of its descent, and the shared queue
 * holds at most one directory per thread, so memory grows with depth and threads, never with
 * the number of files. A directory on another filesystem is a mount: it is walked only when
 * that filesystem keeps per-file labels, and listed as skipped otherwise.
 */
#include <dirent.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <time.h>

#include "fcontext.h"
#include "relabel.h"
#include "walk.h"

struct si_walk_work {
        int fd; /* open directory, O_RDONLY */
        char *path;
        size_t len;
        dev_t dev;
        uint64_t mnt; /* mount ID of the directory (statx STATX_MNT_ID) */
};

/* A message queued for the caller's thread; @err != 0 makes it the context's last error. */
struct si_walk_msg {
        struct si_walk_msg *next;
        int priority;
        int err;
        char text[];
};

/* Messages beyond this many wait in no queue: they are counted and reported as dropped. */
#define MAX_QUEUED_MSGS 1000

struct si_walk_link {
        dev_t dev;
        ino_t ino;
        mode_t mode;
        char *path; /* the name that sorts first so far; NULL: free slot */
};

/* ---- the mount boundary ------------------------------------------------------------------- */

/* Whether the filesystem of @fd is to be labeled; else its name and why not. */
static bool fs_labelable(int fd, const char **ret_name, const char **ret_reason)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0) {
                *ret_name = "unknown";
                *ret_reason = "cannot read its filesystem type";
                return false;
        }
        return si_fs_magic_labelable((unsigned long) sf.f_type, ret_name, ret_reason);
}

/* Whether @a is @b or below it, as paths. */
static bool path_under(const char *a, const char *b)
{
        size_t n = strlen(b);

        if (streq(b, "/"))
                return true;
        return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

static void unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}

/* Whether the mount at @path (in the target) shows a filesystem that is also mounted outside
 * the target with its content there: a bind mount of a directory of the installer's own
 * system. Labeling it would label files outside the target. Returns an allocated reason, or
 * NULL (also when the mount table cannot be read: the walk then labels as before). */
static char *mounted_outside(struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_(unref_tablep) struct libmnt_table *tb = NULL;
        _cleanup_free_ char *root = NULL, *full = NULL;
        struct libmnt_iter *it;
        struct libmnt_fs *fs, *o;
        const char *froot;
        char *reason = NULL;
        char link[64];

        snprintf(link, sizeof(link), "/proc/self/fd/%d", ctx->root_fd);
        root = realpath(link, NULL);
        tb = mnt_new_table_from_file("/proc/self/mountinfo");
        if (!root || !tb || asprintf(&full, "%s%s", streq(root, "/") ? "" : root, path) < 0)
                return NULL;
        fs = mnt_table_find_target(tb, full, MNT_ITER_BACKWARD);
        froot = fs ? mnt_fs_get_root(fs) : NULL;
        it = mnt_new_iter(MNT_ITER_FORWARD);
        if (!froot || !it) {
                mnt_free_iter(it);
                return NULL;
        }
        while (!reason && mnt_table_next_fs(tb, it, &o) == 0) {
                const char *ot = mnt_fs_get_target(o), *oroot = mnt_fs_get_root(o);
                if (o == fs || mnt_fs_get_devno(o) != mnt_fs_get_devno(fs) || !ot || !oroot ||
                    path_under(ot, root) || !path_under(froot, oroot))
                        continue;
                if (asprintf(&reason,
                             "its files are also mounted outside the target, at %s (a bind "
                             "mount of the installer's own files?): not labeled",
                             ot) < 0)
                        reason = NULL;
        }
        mnt_free_iter(it);
        return reason;
}

bool si_walk_mount_labelable(const struct seinstall_check *check, const char *path, int fd,
                             const char **ret_fstype, const char **ret_reason)
{
        const char *mp = *path ? path : "/";

        for (size_t i = 0; check && i < seinstall_check_get_n_mounts(check); i++) {
                enum seinstall_labeling l;
                if (!streq_ptr(seinstall_check_get_mount_mountpoint(check, i), mp))
                        continue;
                l = seinstall_check_get_mount_labeling(check, i);
                *ret_fstype = seinstall_check_get_mount_fstype(check, i);
                *ret_reason = seinstall_check_get_mount_reason(check, i);
                if (!*ret_fstype)
                        *ret_fstype = "unknown";
                if (!*ret_reason || !**ret_reason)
                        *ret_reason = seinstall_labeling_to_string(l);
                return l == SEINSTALL_LABELING_XATTR;
        }
        return fs_labelable(fd, ret_fstype, ret_reason);
}

static unsigned long long used_inodes(int fd)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0 || sf.f_files < sf.f_ffree)
                return 0;
        return (unsigned long long) (sf.f_files - sf.f_ffree);
}

/* ---- what visit functions use --------------------------------------------------------------- */

void si_walk_error(struct si_walk *j, struct si_walker *w, const char *fmt, ...)
{
        va_list ap;
        char *msg = NULL;

        if (w)
                atomic_fetch_add_explicit(&w->counts[SEINSTALL_RELABEL_ERRORS], 1,
                                          memory_order_relaxed);
        va_start(ap, fmt);
        if (vasprintf(&msg, fmt, ap) < 0)
                msg = NULL;
        va_end(ap);
        pthread_mutex_lock(&j->lock);
        si_relabel_result_add_error(j->res, msg);
        pthread_mutex_unlock(&j->lock);
}

void si_walk_fatal(struct si_walk *j, int err)
{
        pthread_mutex_lock(&j->lock);
        if (!j->fatal)
                j->fatal = err;
        atomic_store(&j->abort, true);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

/* Queue a message (the lock held). */
static void msg_queue_locked(struct si_walk *j, int priority, int err, const char *fmt, va_list ap)
{
        struct si_walk_msg *m;
        char *text = NULL;

        if (j->nmsgs >= MAX_QUEUED_MSGS || vasprintf(&text, fmt, ap) < 0) {
                j->msgs_dropped++;
                return;
        }
        m = malloc(sizeof(*m) + strlen(text) + 1);
        if (!m) {
                free(text);
                j->msgs_dropped++;
                return;
        }
        *m = (struct si_walk_msg){.priority = priority, .err = err};
        strcpy(m->text, text);
        free(text);
        if (!j->msgs_tail)
                j->msgs_tail = &j->msgs;
        *j->msgs_tail = m;
        j->msgs_tail = &m->next;
        j->nmsgs++;
}

void si_walk_log(struct si_walk *j, int priority, const char *fmt, ...)
{
        va_list ap;

        pthread_mutex_lock(&j->lock);
        va_start(ap, fmt);
        msg_queue_locked(j, priority, 0, fmt, ap);
        va_end(ap);
        /* wake the caller's thread, which waits on the same condition as idle workers */
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

void si_walk_fail(struct si_walk *j, int err, const char *fmt, ...)
{
        va_list ap;

        pthread_mutex_lock(&j->lock);
        if (!j->fatal) {
                va_start(ap, fmt);
                msg_queue_locked(j, SEINSTALL_LOG_ERR, err, fmt, ap);
                va_end(ap);
                j->fatal = err;
        }
        atomic_store(&j->abort, true);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

/* Hand the queued messages to the context's log callback. Only the thread that runs the walk
 * calls this, without the lock held (the callback may take its time). */
static void msgs_flush(struct si_walk *j)
{
        struct si_walk_msg *m;
        size_t dropped;

        pthread_mutex_lock(&j->lock);
        m = TAKE_PTR(j->msgs);
        j->msgs_tail = &j->msgs;
        j->nmsgs = 0;
        dropped = j->msgs_dropped;
        j->msgs_dropped = 0;
        pthread_mutex_unlock(&j->lock);
        while (m) {
                struct si_walk_msg *next = m->next;
                if (m->err)
                        (void) si_error(j->ctx, m->err, "%s", m->text);
                else
                        si_log(j->ctx, m->priority, "%s", m->text);
                free(m);
                m = next;
        }
        if (dropped > 0)
                si_warn(j->ctx, "%zu more messages of the relabel walk were dropped", dropped);
}

static int add_skipped(struct si_walk *j, const char *path, const char *fstype, const char *reason)
{
        int r;

        pthread_mutex_lock(&j->lock);
        r = si_relabel_result_add_skipped(j->res, path, fstype, reason);
        pthread_mutex_unlock(&j->lock);
        return r;
}

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

/* ---- files with several names --------------------------------------------------------------- */

static size_t link_hash(dev_t dev, ino_t ino, size_t cap)
{
        return (size_t) (ino * 31 + dev) & (cap - 1);
}

/* Double the table (the lock held). */
static int links_grow(struct si_walk *j)
{
        size_t cap = j->links_cap ? j->links_cap * 2 : 1024;
        struct si_walk_link *n = calloc(cap, sizeof(*n));

        if (!n)
                return -ENOMEM;
        for (size_t i = 0; i < j->links_cap; i++) {
                size_t h;
                if (!j->links[i].path)
                        continue;
                h = link_hash(j->links[i].dev, j->links[i].ino, cap);
                while (n[h].path)
                        h = (h + 1) & (cap - 1);
                n[h] = j->links[i];
        }
        free(j->links);
        j->links = n;
        j->links_cap = cap;
        return 0;
}

/* Remember @path for the file (@dev, @ino), or keep the name already there when it sorts
 * first (the lock held). Returns 1 for a file not met before, 0 for another name of one. */
static int links_add_locked(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        size_t h;
        int r;

        if (j->nlinks * 2 >= j->links_cap) {
                r = links_grow(j);
                if (r < 0)
                        return r;
        }
        for (h = link_hash(dev, ino, j->links_cap);; h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->path) {
                        l->path = strdup(path);
                        if (!l->path)
                                return -ENOMEM;
                        l->dev = dev;
                        l->ino = ino;
                        l->mode = mode;
                        j->nlinks++;
                        return 1;
                }
                if (l->dev == dev && l->ino == ino) {
                        if (strcmp(path, l->path) < 0) {
                                char *p = strdup(path);
                                if (!p)
                                        return -ENOMEM;
                                free(l->path);
                                l->path = p;
                        }
                        return 0;
                }
        }
}

/* Files with several names (hard links): whichever name the walk meets first, the file gets
 * the label of its name that sorts first, so that the result does not depend on the order of
 * the walk and a second run changes nothing. The table holds only such files. */
static int links_add(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        int r;

        pthread_mutex_lock(&j->lock);
        r = links_add_locked(j, dev, ino, path, mode);
        pthread_mutex_unlock(&j->lock);
        return r;
}

/* Label the files with several names, each through the name that sorts first. */
static void links_label(struct si_walk *j, struct si_walker *w)
{
        for (size_t i = 0; i < j->links_cap; i++) {
                struct si_walk_link *l = &j->links[i];
                struct open_how how = {
                    .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
                    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
                };
                struct stat st;
                int fd;

                if (!l->path || atomic_load(&j->abort))
                        continue;
                fd = (int) syscall(SYS_openat2, j->ctx->root_fd, l->path + 1, &how, sizeof(how));
                if (fd < 0) {
                        if (errno != ENOENT)
                                si_walk_error(j, w, "Could not open %s: %m", l->path);
                        continue;
                }
                if (fstat(fd, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
                        j->visit(w, fd, -1, "", l->path, l->mode);
                close(fd);
        }
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
 * mount, or one of the target's own (mountset.c). Else it is recorded as skipped, with why. */
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
        outside = r == 0 ? mounted_outside(j->ctx, path) : NULL;
        add_skipped(j, path, fsname,
                    outside ? outside
                    : r == 0
                        ? "not one of the target's own mounts (a bind mount of the installer's "
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
                        add_skipped(j, path, fsname, reason);
                        close(fd);
                        return -1;
                }
                if (!mount_allowed(j, path, mnt, parent_mnt, fsname)) {
                        close(fd);
                        return -1;
                }
                pthread_mutex_lock(&j->lock);
                j->total_estimate += used_inodes(fd);
                pthread_mutex_unlock(&j->lock);
        }
        j->visit(w, fd, -1, NULL, path, S_IFDIR);
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

/* Depth-first walk of one directory (already labeled) with an explicit stack. */
static void walk(struct si_walker *w, struct si_walk_work *start)
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
                        if (depth == cap) {
                                size_t ncap = cap ? cap * 2 : 32;
                                struct frame *ns = realloc(stack, ncap * sizeof(*ns));
                                if (!ns) {
                                        close(fd);
                                        si_walk_fatal(j, -ENOMEM);
                                        break;
                                }
                                stack = ns;
                                cap = ncap;
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
                        /* A file with several names gets one label, decided after the walk. */
                        if (sx.stx_nlink > 1 && !S_ISDIR(sx.stx_mode)) {
                                dev_t sdev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
                                /* the visit after the walk counts the first name */
                                int added = links_add(j, sdev, sx.stx_ino, w->path.s, mode);
                                if (added == 0)
                                        si_walk_count(w, SEINSTALL_RELABEL_SEEN);
                                if (added >= 0)
                                        continue;
                        }
                        j->visit(w, -1, dirfd(f->dir), de->d_name, w->path.s, mode);
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

static void *worker_main(void *arg)
{
        struct si_walker *w = arg;
        struct si_walk *j = w->walk;

        /* Our own working directory, so that fchdir() here does not move the other threads. */
        w->own_cwd = unshare(CLONE_FS) == 0;
        w->cwd = -1;
        for (;;) {
                struct si_walk_work item;

                pthread_mutex_lock(&j->lock);
                j->idle++;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                while (j->qlen == 0 && !j->done && !atomic_load(&j->abort)) {
                        if (j->idle == j->nthreads) {
                                j->done = true;
                                pthread_cond_broadcast(&j->cond);
                                break;
                        }
                        pthread_cond_wait(&j->cond, &j->lock);
                }
                if (j->qlen == 0 || atomic_load(&j->abort)) {
                        pthread_cond_broadcast(&j->cond);
                        pthread_mutex_unlock(&j->lock);
                        break;
                }
                item = j->queue[--j->qlen];
                atomic_store_explicit(&j->qlen_hint, (unsigned) j->qlen, memory_order_relaxed);
                j->idle--;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                pthread_mutex_unlock(&j->lock);

                walk(w, &item);
                free(item.path);
        }
        pthread_mutex_lock(&j->lock);
        j->running--;
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
        return NULL;
}

unsigned long long si_walk_count_total(struct si_walk *j, enum seinstall_relabel_count which)
{
        unsigned long long n = 0;

        for (unsigned i = 0; j->workers && i < j->nthreads; i++)
                n += atomic_load_explicit(&j->workers[i].counts[which], memory_order_relaxed);
        return n;
}

double si_walk_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int si_walk_init(struct si_walk *j)
{
        j->msgs_tail = &j->msgs;
        if (pthread_mutex_init(&j->lock, NULL) != 0)
                return -ENOMEM;
        if (pthread_cond_init(&j->cond, NULL) != 0) {
                pthread_mutex_destroy(&j->lock);
                return -ENOMEM;
        }
        return 0;
}

void si_walk_done(struct si_walk *j)
{
        for (unsigned i = 0; j->workers && i < j->nthreads; i++) {
                si_fc_scratch_free(j->workers[i].scratch);
                sbuf_free(&j->workers[i].path);
        }
        free(j->workers);
        j->workers = NULL;
        for (size_t i = 0; i < j->qlen; i++) {
                close(j->queue[i].fd);
                free(j->queue[i].path);
        }
        free(j->queue);
        j->queue = NULL;
        for (size_t i = 0; i < j->links_cap; i++)
                free(j->links[i].path);
        free(j->links);
        j->links = NULL;
        msgs_flush(j);
        pthread_mutex_destroy(&j->lock);
        pthread_cond_destroy(&j->cond);
}

/* The threads' state, each with its own lookup space, and a queue with room for one
 * directory per thread. */
static int workers_new(struct si_walk *j)
{
        int r;

        j->workers = calloc(j->nthreads, sizeof(*j->workers));
        j->queue = calloc(j->nthreads + 1, sizeof(*j->queue));
        if (!j->workers || !j->queue)
                return -ENOMEM;
        for (unsigned i = 0; i < j->nthreads; i++) {
                struct si_walker *w = &j->workers[i];
                w->walk = j;
                w->cwd = -1;
                r = si_fc_scratch_new(j->fc, &w->scratch);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Start the threads on the queue and wait for them, reporting progress. */
static int threads_run(struct si_walk *j, seinstall_relabel_progress_fn progress, void *userdata,
                       double start)
{
        unsigned started = 0;

        pthread_mutex_lock(&j->lock);
        for (; started < j->nthreads; started++) {
                if (pthread_create(&j->workers[started].thread, NULL, worker_main,
                                   &j->workers[started]) != 0)
                        break;
                j->running++;
        }
        if (started < j->nthreads) {
                /* The threads that did start must not wait for the others: stop them. */
                if (!j->fatal)
                        j->fatal = -EAGAIN;
                atomic_store(&j->abort, true);
                pthread_cond_broadcast(&j->cond);
        }
        while (j->running > 0) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 250 * 1000 * 1000;
                if (ts.tv_nsec >= 1000000000) {
                        ts.tv_sec++;
                        ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&j->cond, &j->lock, &ts);
                if (j->msgs || (progress && j->running > 0)) {
                        unsigned long long total = j->total_estimate;
                        bool report = progress && j->running > 0; /* read under the lock */
                        pthread_mutex_unlock(&j->lock);
                        msgs_flush(j);
                        if (report)
                                progress(userdata, si_walk_count_total(j, SEINSTALL_RELABEL_SEEN),
                                         total, si_walk_now() - start);
                        pthread_mutex_lock(&j->lock);
                }
        }
        pthread_mutex_unlock(&j->lock);
        for (unsigned i = 0; i < started; i++)
                pthread_join(j->workers[i].thread, NULL);
        msgs_flush(j);
        if (progress)
                progress(userdata, si_walk_count_total(j, SEINSTALL_RELABEL_SEEN),
                         j->total_estimate, si_walk_now() - start);
        return j->fatal;
}

static int walk_run(struct si_walk *j, int root_fd, seinstall_relabel_progress_fn progress,
                    void *userdata, double start)
{
        _cleanup_close_ int fd = root_fd;
        struct stat st;
        int r;

        uint64_t mnt;

        if (fstat(fd, &st) < 0)
                return -errno;
        r = si_fd_mount_id(fd, "", AT_EMPTY_PATH, &mnt);
        if (r < 0)
                return r;
        j->total_estimate = used_inodes(fd);
        r = workers_new(j);
        if (r < 0)
                return r;
        /* The root itself, from this thread, then everything below it. */
        j->visit(&j->workers[0], fd, -1, NULL, "", S_IFDIR);
        if (j->fatal)
                return j->fatal;
        j->queue[0] = (struct si_walk_work){
            .fd = fd, .path = strdup(""), .len = 0, .dev = st.st_dev, .mnt = mnt};
        if (!j->queue[0].path)
                return -ENOMEM;
        TAKE_FD(fd);
        j->qlen = 1;
        r = threads_run(j, progress, userdata, start);
        if (r < 0)
                return r;
        links_label(j, &j->workers[0]);
        return j->fatal;
}

int si_walk_run(struct si_walk *j, int root_fd, seinstall_relabel_progress_fn progress,
                void *userdata, double start)
{
        int r = walk_run(j, root_fd, progress, userdata, start);

        /* what the root, the hard links or a failed start left to say */
        msgs_flush(j);
        return r;
}
