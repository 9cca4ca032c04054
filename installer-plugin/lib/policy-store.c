/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-store.c — a target's policy store, checked before libsemanage reads it: every
 * directory it uses a real directory (never a symlink) on one of the target's own mounts; no
 * FIFO, device or socket in it; its entries and depth bounded; and what libsemanage would hold
 * in memory to read it (each bzip2-compressed file counted as it inflates it) within limits.
 * policy-build.c builds the policy on the two directories si_policy_store_open() returns.
 */
#include <bzlib.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "policy.h"

#define STORE_DEPTH_MAX   32
#define STORE_ENTRIES_MAX 500000
/* What libsemanage may hold in memory: each file of the store as it reads it (a module's cil
 * and hll are bzip2-compressed; libsemanage inflates them whole). Debian's largest module,
 * base, inflates to 5 MiB and the whole default store to 100 MiB. */
#define STORE_FILE_MAX  (64ull << 20)
#define STORE_TOTAL_MAX (512ull << 20)

/* The size of the store's files as libsemanage reads them, summed by scan_store(). */
struct store_weight {
        unsigned long long total;
};

/* The size of @fd's content once libsemanage has read it: a file starting with "BZh" is
 * inflated as libsemanage's bunzip() does (its first bzip2 stream), with the output counted
 * and thrown away, never more than STORE_FILE_MAX + 1 bytes of it; any other file by its
 * size. -EBADMSG for a broken bzip2 stream (libsemanage would refuse it too). */
static int inflated_size(int fd, const struct stat *st, unsigned long long *ret)
{
        enum { IN_SIZE = 64 * 1024, OUT_SIZE = 256 * 1024 };
        _cleanup_free_ char *in = malloc(IN_SIZE), *out = malloc(OUT_SIZE);
        bz_stream bz = {};
        unsigned long long n = 0;
        off_t off = 0;
        int bzr = BZ_OK, r = 0;
        ssize_t got;

        if (!in || !out)
                return -ENOMEM;
        got = pread(fd, in, 3, 0);
        if (got < 0)
                return -errno;
        if (got < 3 || memcmp(in, "BZh", 3) != 0) {
                *ret = (unsigned long long) st->st_size;
                return 0;
        }
        if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
                return -ENOMEM;
        while (bzr == BZ_OK && n <= STORE_FILE_MAX) {
                if (bz.avail_in == 0) {
                        got = pread(fd, in, IN_SIZE, off);
                        if (got <= 0) {
                                r = got < 0 ? -errno : -EBADMSG; /* 0: a truncated stream */
                                break;
                        }
                        off += got;
                        bz.next_in = in;
                        bz.avail_in = (unsigned) got;
                }
                bz.next_out = out;
                bz.avail_out = OUT_SIZE;
                bzr = BZ2_bzDecompress(&bz);
                n += OUT_SIZE - bz.avail_out;
        }
        BZ2_bzDecompressEnd(&bz);
        if (r == 0 && bzr != BZ_OK && bzr != BZ_STREAM_END)
                r = -EBADMSG;
        if (r < 0)
                return r;
        *ret = n;
        return 0;
}

/* Add the regular file @name in @dfd (shown as @path) to @w; -EFBIG naming it when it or the
 * store's total would take libsemanage beyond STORE_FILE_MAX / STORE_TOTAL_MAX. */
static int weigh_file(struct seinstall_ctx *ctx, int dfd, const char *name, const char *path,
                      struct store_weight *w)
{
        _cleanup_close_ int fd = -EBADF;
        unsigned long long n = 0;
        struct stat st;
        int r;

        fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0)
                return si_error(ctx, -errno, "Could not read %s: %m", path);
        if (!S_ISREG(st.st_mode))
                return si_error(ctx, -EBADFD,
                                "%s is not a regular file in the policy store: refusing to build "
                                "from it; remove it",
                                path);
        r = inflated_size(fd, &st, &n);
        if (r == -EBADMSG)
                return si_error(ctx, r,
                                "%s is not a valid bzip2 file: refusing to build the policy from "
                                "it; reinstall the policy package or remove the module",
                                path);
        if (r < 0)
                return si_error(ctx, r, "Could not read %s: %s", path, strerror(-r));
        if (n > STORE_FILE_MAX)
                return si_error(ctx, -EFBIG,
                                "%s inflates to more than %llu MiB (a bzip2 bomb?): refusing to "
                                "build the policy from it; reinstall the policy package or "
                                "remove the module",
                                path, STORE_FILE_MAX >> 20);
        w->total += n;
        if (w->total > STORE_TOTAL_MAX)
                return si_error(ctx, -EFBIG,
                                "The policy store's files inflate to more than %llu MiB (at %s): "
                                "refusing to build the policy from it; reinstall the policy "
                                "package",
                                STORE_TOTAL_MAX >> 20, path);
        return 0;
}

/* Open @rel below @dfd one component at a time, each a real directory (never a symlink) on one
 * of the target's own mounts. A missing component is created when @create, else *ret_fd is
 * -EBADF and 0 returned. @shown names @dfd in messages. */
static int open_real_dir(struct seinstall_ctx *ctx, int dfd, const char *shown, const char *rel,
                         bool create, int *ret_fd)
{
        _cleanup_free_ char *copy = strdup(rel);
        _cleanup_close_ int cur = -EBADF;
        char *save = NULL;
        int r;

        *ret_fd = -EBADF;
        if (!copy)
                return -ENOMEM;
        cur = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
        if (cur < 0)
                return -errno;
        for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
                struct stat st;
                int next;

                if (fstatat(cur, c, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno != ENOENT)
                                return si_error(ctx, -errno, "Could not inspect %s/%s: %m", shown,
                                                rel);
                        if (!create)
                                return 0;
                        if (mkdirat(cur, c, 0755) < 0 && errno != EEXIST)
                                return si_error(ctx, -errno, "Could not create %s/%s: %m", shown,
                                                rel);
                        if (fstatat(cur, c, &st, AT_SYMLINK_NOFOLLOW) < 0)
                                return -errno;
                }
                if (!S_ISDIR(st.st_mode))
                        return si_error(ctx, -ENOTDIR,
                                        "%s/%s is not a directory (a symlink?): refusing to build "
                                        "the policy through it; make it a real directory",
                                        shown, rel);
                next = openat(cur, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (next < 0)
                        return si_error(ctx, -errno, "Could not open %s/%s: %m", shown, rel);
                close(cur);
                cur = next;
                r = si_fd_on_own_mount(ctx, cur);
                if (r <= 0)
                        return si_error(ctx, r < 0 ? r : -EXDEV,
                                        "%s/%s is on a mount that is not one of the target's own "
                                        "(a bind mount of the installer's files?): refusing to "
                                        "build the policy there",
                                        shown, rel);
        }
        *ret_fd = TAKE_FD(cur);
        return 0;
}

/* Refuse a store holding a FIFO, a device or a socket (libsemanage would block on or read
 * one), too many entries or too deep a tree, or (with @w) files that inflate beyond what
 * weigh_file() allows. Iterative, at most STORE_DEPTH_MAX fds open. */
static int scan_store(struct seinstall_ctx *ctx, int dfd, const char *shown, struct store_weight *w)
{
        DIR *stack[STORE_DEPTH_MAX];
        size_t marks[STORE_DEPTH_MAX], entries = 0;
        struct sbuf path = {};
        int depth = 0, fd, r = 0;

        fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || !(stack[0] = fdopendir(fd))) {
                r = -errno;
                if (fd >= 0)
                        close(fd);
                return si_error(ctx, r, "Could not read %s: %s", shown, strerror(-r));
        }
        r = sbuf_puts(&path, shown);
        marks[0] = path.len;
        while (r >= 0 && depth >= 0) {
                struct dirent *de;
                struct stat st;

                errno = 0;
                de = readdir(stack[depth]);
                if (!de) {
                        r = errno ? -errno : 0;
                        closedir(stack[depth--]);
                        if (depth >= 0)
                                path.len = marks[depth], path.s[path.len] = '\0';
                        continue;
                }
                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                path.len = marks[depth], path.s[path.len] = '\0';
                r = sbuf_printf(&path, "/%s", de->d_name);
                if (r >= 0 && ++entries > STORE_ENTRIES_MAX)
                        r = si_error(ctx, -E2BIG,
                                     "%s holds more than %u entries: not a policy store, refusing "
                                     "to build from it",
                                     shown, STORE_ENTRIES_MAX);
                if (r < 0)
                        break;
                if (fstatat(dirfd(stack[depth]), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        r = si_error(ctx, -errno, "Could not inspect %s: %m", path.s);
                        break;
                }
                if (S_ISREG(st.st_mode) && w) {
                        r = weigh_file(ctx, dirfd(stack[depth]), de->d_name, path.s, w);
                        if (r < 0)
                                break;
                }
                if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
                        continue;
                if (!S_ISDIR(st.st_mode)) {
                        r = si_error(ctx, -EBADFD,
                                     "%s is not a regular file (a FIFO, device or socket) in the "
                                     "policy store: refusing to build from it; remove it",
                                     path.s);
                        break;
                }
                if (depth + 1 >= STORE_DEPTH_MAX) {
                        r = si_error(ctx, -ELOOP,
                                     "%s is nested deeper than %d levels: not a policy store, "
                                     "refusing to build from it",
                                     path.s, STORE_DEPTH_MAX);
                        break;
                }
                fd = openat(dirfd(stack[depth]), de->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 || !(stack[depth + 1] = fdopendir(fd))) {
                        r = si_error(ctx, -errno, "Could not read %s: %m", path.s);
                        if (fd >= 0)
                                close(fd);
                        break;
                }
                marks[++depth] = path.len;
        }
        while (depth >= 0)
                closedir(stack[depth--]);
        sbuf_free(&path);
        return r;
}

/* The target's /etc/selinux/TYPE (created when missing) and /var/lib/selinux, with every
 * directory below them that libsemanage uses checked as open_real_dir() does and both trees
 * scanned by scan_store(): 0 and the two directories in *ret_etc and *ret_var, else -errno
 * with a message. */
int si_policy_store_open(struct seinstall_ctx *ctx, const char *type, int *ret_etc, int *ret_var)
{
        _cleanup_close_ int etc = -EBADF, var = -EBADF;
        _cleanup_free_ char *etc_rel = NULL, *shown_etc = NULL, *shown_var = NULL;
        const char *etc_sub[] = {"policy", "contexts", "contexts/files"};
        const char *var_sub[] = {"active", "active/modules", "tmp", "previous"};
        const char *final_sub[] = {"policy", "contexts", "contexts/files"};
        int r;

        if (asprintf(&etc_rel, "etc/selinux/%s", type) < 0 ||
            asprintf(&shown_etc, "%s/etc/selinux/%s", streq(ctx->root, "/") ? "" : ctx->root,
                     type) < 0 ||
            asprintf(&shown_var, "%s/var/lib/selinux", streq(ctx->root, "/") ? "" : ctx->root) < 0)
                return -ENOMEM;
        r = open_real_dir(ctx, ctx->root_fd, ctx->root, etc_rel, true, &etc);
        if (r >= 0)
                r = open_real_dir(ctx, ctx->root_fd, ctx->root, "var/lib/selinux", false, &var);
        if (r >= 0 && var < 0)
                r = si_error(ctx, -ENOENT, "%s does not exist", shown_var);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(etc_sub); i++) {
                _cleanup_close_ int fd = -EBADF;
                r = open_real_dir(ctx, etc, shown_etc, etc_sub[i], false, &fd);
        }
        for (size_t i = 0; r >= 0 && i < 2 * ELEMENTSOF(var_sub) + ELEMENTSOF(final_sub); i++) {
                _cleanup_free_ char *rel = NULL;
                _cleanup_close_ int fd = -EBADF;
                int n;

                if (i < ELEMENTSOF(var_sub))
                        n = asprintf(&rel, "%s/%s", type, var_sub[i]);
                else if (i == ELEMENTSOF(var_sub))
                        n = asprintf(&rel, "final/%s", type);
                else if (i <= ELEMENTSOF(var_sub) + ELEMENTSOF(final_sub))
                        n = asprintf(&rel, "final/%s/%s", type,
                                     final_sub[i - ELEMENTSOF(var_sub) - 1]);
                else
                        break;
                if (n < 0)
                        return -ENOMEM;
                r = open_real_dir(ctx, var, shown_var, rel, false, &fd);
        }
        if (r >= 0)
                r = scan_store(ctx, var, shown_var, &(struct store_weight){});
        if (r >= 0)
                r = scan_store(ctx, etc, shown_etc, NULL);
        if (r < 0)
                return r;
        *ret_etc = TAKE_FD(etc);
        *ret_var = TAKE_FD(var);
        return 0;
}
