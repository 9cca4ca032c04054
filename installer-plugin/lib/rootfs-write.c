/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs-write.c — every change seinstall makes in a target: directories, atomic replacements,
 * removals and symbolic links, each opened through rootfs.c (so never outside the target or
 * on a mount not its own) and labeled (label.c) before it takes its name. A dry run passes
 * dry_run: each call then decides everything and writes nothing, so what a dry run reports is
 * what a real run writes.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "seinstall-private.h"

#define LABEL_MAX 4096

/* Split @path into a newly allocated parent directory and a pointer to its last component. */
static int split_path(const char *path, char **ret_dir, const char **ret_base)
{
        const char *slash = strrchr(path, '/');
        const char *base = slash ? slash + 1 : path;
        char *dir;

        if (!*base || streq(base, ".") || streq(base, ".."))
                return -EINVAL;
        dir = slash ? strndup(path, (size_t) (slash - path)) : strdup(".");
        if (!dir)
                return -ENOMEM;
        if (!*dir) {
                free(dir);
                dir = strdup("/");
                if (!dir)
                        return -ENOMEM;
        }
        *ret_dir = dir;
        *ret_base = base;
        return 0;
}

/* Open the parent directory of @path in the target, *ret_base pointing at @path's last
 * component. Returns 1 with *ret_dfd its fd; in a dry run (@wflags) 0, with *ret_dfd its fd
 * when it can be opened (to read what is there), else -EBADF: a dry run makes no directory, so
 * one that is missing is no error; a negative errno when @path has no last component or the
 * directory cannot be opened. */
static int open_parent(struct seinstall_ctx *ctx, const char *path, unsigned wflags, int *ret_dfd,
                       const char **ret_base)
{
        _cleanup_free_ char *dir = NULL;
        const char *base;
        int dfd, r;

        r = split_path(path, &dir, &base);
        if (r < 0)
                return r;
        dfd = si_root_open(ctx, dir, O_RDONLY | O_DIRECTORY, 0);
        if (dfd < 0 && !(wflags & SI_WRITE_DRY_RUN))
                return dfd;
        *ret_dfd = dfd < 0 ? -EBADF : dfd;
        *ret_base = base;
        return wflags & SI_WRITE_DRY_RUN ? 0 : 1;
}

int si_root_mkdir_p(struct seinstall_ctx *ctx, const char *path, mode_t mode, unsigned wflags)
{
        _cleanup_free_ char *copy = strdup(path);
        char *p;

        if (!copy)
                return -ENOMEM;
        if (wflags & SI_WRITE_DRY_RUN)
                return 0;
        /* Each prefix is created through its parent's fd resolved in the root, so a symlinked
         * component points inside the target or nowhere. */
        for (p = copy; *p == '/'; p++)
                ;
        for (;;) {
                char *slash = strchr(p, '/');
                const char *base;
                _cleanup_close_ int dfd = -EBADF;
                int r;

                if (slash)
                        *slash = '\0';
                if (*p) {
                        r = open_parent(ctx, copy, 0, &dfd, &base);
                        if (r < 0)
                                return r;
                        if (mkdirat(dfd, base, mode) == 0) {
                                si_undo_made_dir(ctx, copy);
                                r = si_label_at(ctx, dfd, base, copy, S_IFDIR);
                                if (r < 0)
                                        return r;
                        } else if (errno != EEXIST)
                                return -errno;
                }
                if (!slash)
                        break;
                *slash = '/';
                p = slash + 1;
        }
        /* EEXIST above also covers a file or a dangling symlink by that name: make sure the
         * result is a directory. */
        _cleanup_close_ int fd = si_root_open(ctx, path, O_RDONLY | O_DIRECTORY, 0);
        return fd < 0 ? fd : 0;
}

/* Whether @name is a temporary make_temp_at() makes for @base: ".#" BASE "." and 16 hex digits. */
static bool is_own_temp(const char *name, const char *base)
{
        size_t bl = strnlen(base, 200), n = strlen(name);

        if (n != 2 + bl + 1 + 16 || strncmp(name, ".#", 2) != 0 ||
            strncmp(name + 2, base, bl) != 0 || name[2 + bl] != '.')
                return false;
        return strspn(name + 3 + bl, "0123456789abcdef") == 16;
}

/* Remove the temporaries a killed run left for @base in @dfd: only names of seinstall's own
 * pattern, only regular files (never a symlink, never followed), best effort. */
static void remove_stale_temps(int dfd, const char *base)
{
        int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct dirent *de;
        DIR *d;

        if (fd < 0)
                return;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return;
        }
        while ((de = readdir(d))) {
                struct stat st;

                if (!is_own_temp(de->d_name, base) ||
                    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
                        continue;
                (void) unlinkat(dfd, de->d_name, 0);
        }
        closedir(d);
}

static int make_temp_at(int dfd, const char *base, char **ret_name)
{
        for (int attempt = 0; attempt < 100; attempt++) {
                unsigned long long rnd;
                char *name;
                int fd;

                ssize_t n = getrandom(&rnd, sizeof(rnd), 0);
                if (n != (ssize_t) sizeof(rnd))
                        return n < 0 ? -errno : -EIO;
                if (asprintf(&name, ".#%.200s.%016llx", base, rnd) < 0)
                        return -ENOMEM;
                fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd >= 0) {
                        *ret_name = name;
                        return fd;
                }
                free(name);
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

/* Give the new file the old one's owner, mode and SELinux label, so a rewritten config keeps
 * etc_t rather than whatever a new file in that directory would get. */
static int copy_attributes(int dfd, const char *base, int fd, mode_t mode)
{
        struct stat st;
        char label[LABEL_MAX];
        ssize_t n = -1;

        if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                if (errno != ENOENT)
                        return -errno;
        } else if (S_ISREG(st.st_mode)) {
                _cleanup_close_ int old =
                    openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
                uint64_t dir_mnt, old_mnt;

                /* A file bind-mounted there is the installer's: copy nothing of it (the rename
                 * over a mount point fails anyway). */
                if (old >= 0) {
                        int r = si_fd_mount_id(dfd, "", AT_EMPTY_PATH, &dir_mnt);
                        if (r >= 0)
                                r = si_fd_mount_id(old, "", AT_EMPTY_PATH, &old_mnt);
                        if (r < 0)
                                return r;
                        if (dir_mnt != old_mnt)
                                return -EXDEV;
                }
                if (old >= 0)
                        n = fgetxattr(old, "security.selinux", label, sizeof(label));
                if (fchown(fd, st.st_uid, st.st_gid) < 0)
                        return -errno;
                mode = st.st_mode & 07777;
        }
        if (fchmod(fd, mode) < 0)
                return -errno;
        /* A label the running policy does not know cannot be copied; the relabel fixes it. */
        if (n > 0)
                (void) fsetxattr(fd, "security.selinux", label, (size_t) n, 0);
        return 0;
}

int si_root_write_atomic(struct seinstall_ctx *ctx, const char *path, const void *data, size_t len,
                         mode_t mode, unsigned wflags)
{
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        const char *base;
        int r;

        r = open_parent(ctx, path, wflags, &dfd, &base);
        if (r <= 0)
                return r;
        r = si_undo_note(ctx, path);
        if (r < 0)
                return r;
        remove_stale_temps(dfd, base);
        fd = make_temp_at(dfd, base, &tmp);
        if (fd < 0)
                return fd;
        r = write_all(fd, data, len);
        if (r >= 0)
                r = copy_attributes(dfd, base, fd, mode);
        if (r >= 0)
                r = si_label_fd(ctx, fd, path, S_IFREG);
        if (r >= 0 && fsync(fd) < 0)
                r = -errno;
        if (r >= 0 && renameat(dfd, tmp, dfd, base) < 0)
                r = -errno;
        if (r < 0) {
                (void) unlinkat(dfd, tmp, 0);
                return r;
        }
        if (fsync(dfd) < 0)
                return -errno;
        return 0;
}

int si_root_write_if_changed(struct seinstall_ctx *ctx, const char *path, const char *text,
                             size_t max, unsigned wflags)
{
        _cleanup_free_ char *old = NULL, *dir = NULL;
        const char *slash = strrchr(path, '/');
        size_t len, n = strlen(text);
        int r;

        if (si_root_read_replaced(ctx, path, max, &old, &len) >= 0 && len == n &&
            memcmp(old, text, n) == 0)
                return 0;
        if (slash && slash > path) {
                dir = strndup(path, (size_t) (slash - path));
                if (!dir)
                        return -ENOMEM;
                r = si_root_mkdir_p(ctx, dir, 0755, wflags);
                if (r < 0)
                        return r;
        }
        r = si_root_write_atomic(ctx, path, text, n, 0644, wflags);
        return r < 0 ? r : 1;
}

int si_root_unlink(struct seinstall_ctx *ctx, const char *path, unsigned wflags)
{
        _cleanup_close_ int dfd = -EBADF;
        const char *base;
        int r;

        r = open_parent(ctx, path, wflags, &dfd, &base);
        if (r <= 0)
                return r == -ENOENT ? 0 : r;
        r = si_undo_note(ctx, path);
        if (r < 0)
                return r;
        if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

int si_root_symlink(struct seinstall_ctx *ctx, const char *path, const char *target,
                    unsigned wflags)
{
        _cleanup_free_ char *old = NULL, *tmp = NULL;
        _cleanup_close_ int dfd = -EBADF;
        const char *base;
        size_t max = strlen(target) + 2;
        ssize_t n;
        int r;

        r = open_parent(ctx, path, wflags, &dfd, &base);
        if (r < 0)
                return r;
        old = malloc(max);
        if (!old)
                return -ENOMEM;
        n = dfd >= 0 ? readlinkat(dfd, base, old, max) : -1;
        if (n == (ssize_t) strlen(target) && memcmp(old, target, (size_t) n) == 0)
                return 0;
        if (r == 0)
                return 1; /* a dry run: a real run makes or replaces the link */
        if (n < 0 && errno != ENOENT && errno != EINVAL)
                return -errno;
        if (n < 0 && errno == EINVAL)
                return -EEXIST; /* a file or directory of that name: not ours to replace */
        r = si_undo_note(ctx, path);
        if (r < 0)
                return r;
        /* a new name, then rename over an old link: never a moment without one */
        for (int attempt = 0;; attempt++) {
                unsigned long long rnd;
                if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd))
                        return -EIO;
                free(tmp);
                if (asprintf(&tmp, ".#%.200s.%016llx", base, rnd) < 0) {
                        tmp = NULL;
                        return -ENOMEM;
                }
                if (symlinkat(target, dfd, tmp) == 0)
                        break;
                if (errno != EEXIST || attempt >= 100)
                        return -errno;
        }
        r = si_label_at(ctx, dfd, tmp, path, S_IFLNK);
        if (r < 0 || renameat(dfd, tmp, dfd, base) < 0) {
                r = r < 0 ? r : -errno;
                (void) unlinkat(dfd, tmp, 0);
                return r;
        }
        if (fsync(dfd) < 0)
                return -errno;
        return 1;
}
