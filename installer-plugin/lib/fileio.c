/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fileio.c — files (util.h): regular files only, reads bounded in size, writes complete. */
#include <fcntl.h>
#include <sys/stat.h>

#include "util.h"

int fd_check_regular(int fd)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        return 0;
}

int open_regular(const char *path)
{
        /* O_NONBLOCK: opening a FIFO with no writer blocks, and a device's open may too; the
         * descriptor is refused before anything reads from it. */
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        int r;

        if (fd < 0)
                return -errno;
        r = fd_check_regular(fd);
        if (r < 0) {
                close(fd);
                return r;
        }
        return fd;
}

const char *si_file_strerror(int r)
{
        switch (-r) {
        case EBADFD:
                return "not a regular file (a FIFO, device or socket): refusing to read it";
        case ELOOP:
                return "a symbolic link where seinstall replaces the file: refusing to read "
                       "through it (make it a regular file)";
        case EXDEV:
                return "it lies on a mount that is not one of the target's own (a bind mount "
                       "of the installer's files?): refusing to touch it";
        default:
                return strerror(-r);
        }
}

int read_fd_bounded(int fd, size_t max, char **ret, size_t *ret_len)
{
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap = 0;
        int r;

        r = fd_check_regular(fd);
        if (r < 0)
                return r;
        for (;;) {
                ssize_t n;

                /* not SI_GROW(): the buffer stops at @max and one read past it, where doubling
                 * could allocate up to twice @max */
                if (len + 4096 + 1 > cap) {
                        size_t ncap = cap ? cap * 2 : 8192;
                        if (ncap > max + 4096 + 1)
                                ncap = max + 4096 + 1;
                        char *p = realloc(buf, ncap);
                        if (!p)
                                return -ENOMEM;
                        buf = p;
                        cap = ncap;
                }
                n = read(fd, buf + len, cap - len - 1);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                len += (size_t) n;
                if (len > max)
                        return -EFBIG;
        }
        if (!buf) {
                buf = malloc(1);
                if (!buf)
                        return -ENOMEM;
        }
        buf[len] = '\0';
        *ret = TAKE_PTR(buf);
        if (ret_len)
                *ret_len = len;
        return 0;
}

int read_file_bounded(const char *path, size_t max, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = open_regular(path);
        if (fd < 0)
                return fd;
        return read_fd_bounded(fd, max, ret, ret_len);
}

int write_all(int fd, const void *buf, size_t len)
{
        const char *p = buf;

        while (len > 0) {
                ssize_t n = write(fd, p, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += n;
                len -= (size_t) n;
        }
        return 0;
}
