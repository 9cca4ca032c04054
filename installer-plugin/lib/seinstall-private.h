/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private declarations shared by the files of libseinstall. Not installed. */
#ifndef SEINSTALL_PRIVATE_H
#define SEINSTALL_PRIVATE_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "seinstall.h"

#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _unused_       __attribute__((unused))
#define ELEMENTSOF(x)  (sizeof(x) / sizeof((x)[0]))

/* ---- cleanup helpers (systemd style) ---------------------------------------------------- */

static inline void freep(void *p)
{
        free(*(void **) p);
}
static inline void closep(int *fd)
{
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}
static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}
#define _cleanup_(f)    __attribute__((cleanup(f)))
#define _cleanup_free_  _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

#define TAKE_PTR(p)                                                                                \
        ({                                                                                         \
                __typeof__(p) _p = (p);                                                            \
                (p) = NULL;                                                                        \
                _p;                                                                                \
        })
#define TAKE_FD(fd)                                                                                \
        ({                                                                                         \
                int _fd = (fd);                                                                    \
                (fd) = -EBADF;                                                                     \
                _fd;                                                                               \
        })

static inline bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}
static inline bool streq_ptr(const char *a, const char *b)
{
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}
/* Returns the part of @s after @prefix, or NULL when @s does not start with it. */
static inline const char *startswith(const char *s, const char *prefix)
{
        size_t n = strlen(prefix);
        return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* ---- context ---------------------------------------------------------------------------- */

struct seinstall_ctx {
        int refcount;
        char *root;  /* normalised path as given */
        int root_fd; /* O_PATH|O_DIRECTORY fd of the root */
        seinstall_log_fn log_fn;
        void *log_data;
        int log_priority;
        char *last_error;
};

/* Log a message at @priority through the context's callback. */
void si_log(struct seinstall_ctx *ctx, int priority, const char *fmt, ...) _printf_(3, 4);
/* Record the failure message as the context's last error, log it, and return @err (which must
 * be a negative errno) so that callers can write `return si_error(ctx, -EBADMSG, ...)`. */
int si_error(struct seinstall_ctx *ctx, int err, const char *fmt, ...) _printf_(3, 4);
#define si_warn(ctx, ...)  si_log(ctx, SEINSTALL_LOG_WARNING, __VA_ARGS__)
#define si_info(ctx, ...)  si_log(ctx, SEINSTALL_LOG_INFO, __VA_ARGS__)
#define si_debug(ctx, ...) si_log(ctx, SEINSTALL_LOG_DEBUG, __VA_ARGS__)

/* ---- settings (settings.c) ------------------------------------------------------------- */

/* A policy type is a plain directory name under /etc/selinux: not empty, no "/", not "." or "..". */
bool si_policy_type_valid(const char *type);

/* ---- growable string buffer (util.c) ----------------------------------------------------- */

struct sbuf {
        char *s;    /* NUL-terminated, NULL until the first append */
        size_t len; /* without the NUL */
        size_t cap;
};

int sbuf_append(struct sbuf *b, const char *s, size_t n);
int sbuf_puts(struct sbuf *b, const char *s);
int sbuf_printf(struct sbuf *b, const char *fmt, ...) _printf_(2, 3);
/* Append @s as a JSON string literal, quotes included; bytes that are not valid UTF-8 are
 * written as \u00XX of the byte so the output is always valid JSON. NULL gives null. */
int sbuf_json_str(struct sbuf *b, const char *s);
/* Hand the string over (never NULL on success: an empty buffer gives ""). */
char *sbuf_steal(struct sbuf *b);
void sbuf_free(struct sbuf *b);

/* ---- lines ------------------------------------------------------------------------------ */

/* Iterate over the lines of a buffer: returns false at the end; otherwise *ret_line and *ret_len
 * describe the next line without its "\n" (and without a "\r" before it). */
bool next_line(const char **pos, const char *end, const char **ret_line, size_t *ret_len);
/* Strip leading and trailing blanks (space, tab) of the range in place; returns the new len. */
size_t strip_range(const char **s, size_t len);

/* ---- files ------------------------------------------------------------------------------ */

/* Read a whole regular file opened with @fd, at most @max bytes (-EFBIG beyond). The result is
 * NUL-terminated; *ret_len excludes the NUL. */
int read_fd_bounded(int fd, size_t max, char **ret, size_t *ret_len);
/* Read a file of the host (not the target), bounded as above. */
int read_file_bounded(const char *path, size_t max, char **ret, size_t *ret_len);
/* Write all of @buf to @fd, retrying short writes and EINTR. */
int write_all(int fd, const void *buf, size_t len);
/* Join @a and @b with exactly one "/" between them. NULL on ENOMEM. */
char *path_join(const char *a, const char *b);

/* ---- writes inside the target (rootfs.c) ------------------------------------------------- */

/* Open @path (absolute or relative: both resolve inside the target root) with openat2 and
 * RESOLVE_IN_ROOT, so symlinks and ".." can never leave the target. Returns an fd or -errno. */
int root_open(struct seinstall_ctx *ctx, const char *path, int flags, mode_t mode);
/* Read a file of the target, at most @max bytes. -ENOENT when it does not exist. */
int root_read_file(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                   size_t *ret_len);
/* Create the directory @path and missing parents inside the target, mode @mode. */
int root_mkdir_p(struct seinstall_ctx *ctx, const char *path, mode_t mode);
/* Replace @path inside the target atomically with @data: a temporary file in the same
 * directory, fsync, rename over the old one, fsync the directory. Keeps the old file's mode,
 * owner and SELinux label when it existed (else @mode and no label). A symlink at @path is
 * replaced by the file, never followed. On failure the old file is untouched. */
int root_write_atomic(struct seinstall_ctx *ctx, const char *path, const void *data, size_t len,
                      mode_t mode);
/* Remove @path inside the target; 0 when it did not exist. */
int root_unlink(struct seinstall_ctx *ctx, const char *path);

#endif
