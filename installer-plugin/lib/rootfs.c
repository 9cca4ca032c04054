/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs.c — every file of the target is opened here: paths are resolved with
 * openat2(RESOLVE_IN_ROOT) against the context's root fd, so a symlink or ".." in the target
 * can never lead a read or a write (rootfs-write.c) outside it, and a file on a mount that is
 * not the target's own (mount-boundary.c) is refused. Also the bounded reads and the listing
 * of a directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "seinstall-private.h"

int si_root_open(struct seinstall_ctx *ctx, const char *path, int flags, mode_t mode)
{
        struct open_how how = {
            .flags = (unsigned long long) (flags | O_CLOEXEC),
            .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
            .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
        };
        int fd, r;

        while (*path == '/')
                path++;
        if (!*path)
                path = ".";
        fd = (int) syscall(SYS_openat2, ctx->root_fd, path, &how, sizeof(how));
        if (fd < 0)
                return -errno;
        /* A symlink may still have led onto a mount the installer bound into the target. */
        r = si_fd_on_own_mount(ctx, fd);
        if (r <= 0) {
                close(fd);
                return r < 0 ? r : -EXDEV;
        }
        return fd;
}

int si_root_open_regular(struct seinstall_ctx *ctx, const char *path, bool follow)
{
        /* O_NONBLOCK: a FIFO or a device planted where a file should be must not block the
         * open, and is refused before any read (reading /dev/kmsg blocks at its end).
         * O_NOFOLLOW: a file seinstall replaces is never read through a symlink, or its
         * target's content would be written back under the link's name. */
        int fd = si_root_open(ctx, path,
                              O_RDONLY | O_NOCTTY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW), 0);
        int r;

        if (fd < 0)
                return fd;
        r = fd_check_regular(fd);
        if (r < 0) {
                close(fd);
                return r;
        }
        return fd;
}

static int read_file(struct seinstall_ctx *ctx, const char *path, bool follow, size_t max,
                     char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = si_root_open_regular(ctx, path, follow);

        if (fd < 0)
                return fd;
        return read_fd_bounded(fd, max, ret, ret_len);
}

int si_root_read_file(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                      size_t *ret_len)
{
        return read_file(ctx, path, true, max, ret, ret_len);
}

int si_root_read_replaced(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                          size_t *ret_len)
{
        return read_file(ctx, path, false, max, ret, ret_len);
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

#define LIST_MAX 65536

int si_root_list(struct seinstall_ctx *ctx, const char *dir, const char *prefix, const char *suffix,
                 char ***ret, size_t *ret_n)
{
        int dfd = si_root_open(ctx, dir, O_RDONLY | O_DIRECTORY, 0);
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *d;
        int r = 0;

        if (dfd == -ENOENT || dfd == -ENOTDIR) {
                *ret = NULL;
                *ret_n = 0;
                return 0;
        }
        if (dfd < 0)
                return dfd;
        d = fdopendir(dfd);
        if (!d) {
                r = -errno;
                close(dfd);
                return r;
        }
        while ((de = readdir(d))) {
                size_t l = strlen(de->d_name), sl = suffix ? strlen(suffix) : 0;

                if (de->d_name[0] == '.' || (prefix && !startswith(de->d_name, prefix)) ||
                    (suffix && (l <= sl || !streq(de->d_name + l - sl, suffix))))
                        continue;
                if (n >= LIST_MAX) {
                        r = -E2BIG;
                        break;
                }
                if (!SI_GROW(names, cap, n + 1)) {
                        r = -ENOMEM;
                        break;
                }
                names[n] = path_join(dir, de->d_name);
                if (!names[n]) {
                        r = -ENOMEM;
                        break;
                }
                n++;
        }
        closedir(d);
        if (r < 0) {
                si_strv_free(names, n);
                return r;
        }
        if (n > 0)
                qsort(names, n, sizeof(*names), cmp_str);
        *ret = names;
        *ret_n = n;
        return 0;
}
