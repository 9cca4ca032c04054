/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-build.c — making sure the target has a built policy of the chosen type: whether
 * /etc/selinux/TYPE/policy/policy.N exists, which package provides it, and (when the modules
 * are installed in /var/lib/selinux/TYPE but nothing is built) building it with libsemanage
 * for the alternate root, as `semodule -p ROOT -B` does.
 */
#include <bzlib.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <semanage/debug.h>
#include <semanage/handle.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "seinstall-private.h"
#include "policy.h"
#include "sandbox.h"
#include "settings.h"

bool si_policy_built(struct seinstall_ctx *ctx, const char *type)
{
        _cleanup_free_ char *dir = NULL;
        char **names = NULL;
        size_t n = 0;
        bool found = false;

        if (!si_policy_type_valid(type) || asprintf(&dir, "/etc/selinux/%s/policy", type) < 0)
                return false;
        if (si_root_list(ctx, dir, "policy.", NULL, &names, &n) < 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                const char *v = strrchr(names[i], '.') + 1;
                found = found || (*v && strspn(v, "0123456789") == strlen(v));
        }
        si_strv_free(names, n);
        return found;
}

const char *si_policy_package(const char *type)
{
        if (streq_ptr(type, "default"))
                return "selinux-policy-default";
        if (streq_ptr(type, "mls"))
                return "selinux-policy-mls";
        return NULL;
}

char *si_semodule_command(const char *root)
{
        if (!root || streq(root, "/"))
                return shell_command(NULL, "semodule -B");
        return shell_command(NULL, "semodule -p %q -n -B", root);
}

const char *si_policy_package_hint(const char *type)
{
        if (streq_ptr(type, "default"))
                return "the policy package selinux-policy-default";
        if (streq_ptr(type, "mls"))
                return "the policy package selinux-policy-mls";
        return "the policy package that provides this policy type (Debian's are "
               "selinux-policy-default and selinux-policy-mls)";
}

/* ---- the store: every directory libsemanage touches, checked before it runs ------------ */

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
 * directory below them that libsemanage uses checked as open_real_dir() does. */
static int open_store(struct seinstall_ctx *ctx, const char *type, int *ret_etc, int *ret_var)
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

/* ---- the confined build (a child process) ----------------------------------------------- */

/* How long a build may take before it is stopped: Debian's default policy builds in well
 * under a minute; a store that makes libsemanage spin must not hang an install. */
#define BUILD_TIMEOUT_S 900
/* The build's address space: Debian's default policy (100 MiB of inflated modules) peaks at
 * 200 MB; the store may hold at most STORE_TOTAL_MAX. Whatever slips past the store check
 * ends in a failed allocation in the child, never in the host's OOM killer. */
#define BUILD_AS_MAX (4ull << 30)
/* AddressSanitizer reserves terabytes of shadow address space up front: under it (make
 * SANITIZE=1) an address-space limit would fail every build, so only there it is left out; the
 * store check before the build still bounds what libsemanage inflates. */
#if defined(__SANITIZE_ADDRESS__)
#define BUILD_LIMIT_AS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUILD_LIMIT_AS 0
#endif
#endif
#ifndef BUILD_LIMIT_AS
#define BUILD_LIMIT_AS 1
#endif
#define BUILD_LOG_MAX (256 * 1024)
#define MSG_FD        3

/* The child writes one line per libsemanage message to MSG_FD: a level letter and the text. */
static void child_log(void *varg, semanage_handle_t *sh, const char *fmt, ...)
{
        _cleanup_free_ char *msg = NULL;
        va_list ap;

        va_start(ap, fmt);
        msg = str_vprintf(fmt, ap);
        va_end(ap);
        if (!msg)
                return;
        for (char *p = msg; *p; p++)
                if ((unsigned char) *p < 0x20 || *p == 0x7f)
                        *p = ' ';
        dprintf(MSG_FD, "%c%s\n", semanage_msg_get_level(sh) == SEMANAGE_MSG_ERR ? 'E' : 'D', msg);
}

static _Noreturn void child_fail(const char *what)
{
        dprintf(MSG_FD, "X%s: %s\n", what, strerror(errno));
        _exit(2);
}

/* The first of the host's /sbin and /usr/sbin that holds @name, as libsemanage itself picks. */
static const char *host_program(const char *sbin, const char *usr_sbin)
{
        return access(sbin, X_OK) == 0 ? sbin : usr_sbin;
}

/* Put the host's program directories (/usr, and /bin, /sbin, /lib* as they are: symlinks or
 * directories) into the stage read-only, so the only programs libsemanage can run are the
 * host's setfiles and sefcontext_compile. */
static void stage_host_dirs(const char *stage)
{
        static const char *const dirs[] = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"};
        char src[64], dst[PATH_MAX], link[PATH_MAX];

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                struct stat st;
                ssize_t n;

                snprintf(src, sizeof(src), "/%s", dirs[i]);
                snprintf(dst, sizeof(dst), "%s/%s", stage, dirs[i]);
                if (lstat(src, &st) < 0)
                        continue;
                if (S_ISLNK(st.st_mode)) {
                        n = readlink(src, link, sizeof(link) - 1);
                        if (n < 0)
                                child_fail("readlink");
                        link[n] = '\0';
                        if (symlink(link, dst) < 0)
                                child_fail("symlink in the stage");
                } else if (S_ISDIR(st.st_mode)) {
                        if (mkdir(dst, 0755) < 0 || mount(src, dst, NULL, MS_BIND, NULL) < 0 ||
                            mount(NULL, dst, NULL,
                                  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                                  NULL) < 0)
                                child_fail("binding the host's program directories");
                }
        }
        snprintf(dst, sizeof(dst), "%s/etc/ld.so.cache", stage);
        if (access("/etc/ld.so.cache", R_OK) == 0) {
                int fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                if (fd < 0)
                        child_fail("creating the stage's ld.so.cache");
                close(fd);
                if (mount("/etc/ld.so.cache", dst, NULL, MS_BIND, NULL) < 0 ||
                    mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                          NULL) < 0)
                        child_fail("binding ld.so.cache");
        }
}

/* A detached copy of the verified store directory @fd (taken before the mount namespace is
 * left: a bind from another namespace's mount is refused), writable but never executable. */
static int clone_store(int fd)
{
        struct mount_attr attr = {.attr_set =
                                      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC};
        int tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);

        if (tree < 0)
                child_fail("cloning the target's policy store");
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
                child_fail("making the store copy noexec");
        return tree;
}

static void stage_store(int tree, const char *dst)
{
        if (move_mount(tree, "", AT_FDCWD, dst, MOVE_MOUNT_F_EMPTY_PATH) < 0)
                child_fail("attaching the target's policy store");
}

/* The stage's directories: the mount points of the store and where the configuration goes. */
static int mkdir_parents_stage(const char *stage, const char *type)
{
        const char *dirs[] = {"etc", "etc/selinux", NULL, "var", "var/lib", "var/lib/selinux"};
        char typed[NAME_MAX + 16], path[PATH_MAX];

        snprintf(typed, sizeof(typed), "etc/selinux/%s", type);
        dirs[2] = typed;
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                snprintf(path, sizeof(path), "%s/%s", stage, dirs[i]);
                if (mkdir(path, 0755) < 0 && errno != EEXIST)
                        return -errno;
        }
        return 0;
}

/* seinstall's own semanage.conf: the target's is never read (its [setfiles] and similar
 * sections name programs that would run on the installer). */
static void stage_conf(const char *stage)
{
        char path[PATH_MAX];
        FILE *f;

        snprintf(path, sizeof(path), "%s/etc/selinux/semanage.conf", stage);
        f = fopen(path, "we");
        if (!f)
                child_fail("writing seinstall's semanage.conf");
        fprintf(f,
                "# seinstall's configuration for building a target's policy\n"
                "module-store = direct\n"
                "expand-check = 0\n"
                "usepasswd = false\n"
                "[setfiles]\npath = %s\nargs = -q -c $@ $<\n[end]\n"
                "[sefcontext_compile]\npath = %s\nargs = $@\n[end]\n",
                host_program("/sbin/setfiles", "/usr/sbin/setfiles"),
                host_program("/sbin/sefcontext_compile", "/usr/sbin/sefcontext_compile"));
        if (fclose(f) != 0)
                child_fail("writing seinstall's semanage.conf");
}

/* In the child: a private mount namespace whose root (chroot) is a read-only tmpfs holding
 * seinstall's semanage.conf, the host's program directories read-only, and the target's
 * /etc/selinux/TYPE and /var/lib/selinux as the only writable things; no capabilities; then
 * the libsemanage rebuild. Never returns. */
static _Noreturn void build_child(int msg_fd, int etc_fd, int var_fd, const char *type)
{
        static const char *const stages[] = {"/tmp", "/mnt", "/run", "/var/tmp"};
        const char *stage = NULL;
        char path[PATH_MAX];
        semanage_handle_t *sh;
        int null, r;

        if (dup2(msg_fd, MSG_FD) < 0)
                _exit(2);
        null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
                child_fail("/dev/null");
        etc_fd = clone_store(etc_fd);
        var_fd = clone_store(var_fd);
        if (unshare(CLONE_NEWNS) < 0)
                child_fail("a private mount namespace (seinstall must run as root)");
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                child_fail("making the mounts private");
        for (size_t i = 0; !stage && i < ELEMENTSOF(stages); i++) {
                struct stat st;
                if (lstat(stages[i], &st) == 0 && S_ISDIR(st.st_mode))
                        stage = stages[i];
        }
        if (!stage)
                child_fail("no directory to mount the stage on");
        if (mount("seinstall-policy-build", stage, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "mode=0755,size=4m") < 0)
                child_fail("mounting the stage");
        snprintf(path, sizeof(path), "%s/etc/selinux/%s", stage, type);
        if (mkdir_parents_stage(stage, type) < 0)
                child_fail("making the stage's directories");
        stage_conf(stage);
        stage_host_dirs(stage);
        stage_store(etc_fd, path);
        snprintf(path, sizeof(path), "%s/var/lib/selinux", stage);
        stage_store(var_fd, path);
        if (mount(NULL, stage, NULL,
                  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                child_fail("making the stage read-only");
        /* Nothing of the parent's stays open: its fds lead outside the stage. */
        if (close_range(MSG_FD + 1, ~0U, 0) < 0)
                child_fail("closing descriptors");
        if (chdir(stage) < 0 || chroot(".") < 0 || chdir("/") < 0)
                child_fail("entering the stage");
        if ((BUILD_LIMIT_AS &&
             setrlimit(RLIMIT_AS, &(struct rlimit){BUILD_AS_MAX, BUILD_AS_MAX}) < 0) ||
            setrlimit(RLIMIT_CPU, &(struct rlimit){BUILD_TIMEOUT_S, BUILD_TIMEOUT_S + 5}) < 0)
                child_fail("limiting the build's memory and time");
        if (si_drop_privileges() < 0)
                child_fail("dropping capabilities");

        /* As `semodule -n -B`: rebuild from the installed modules, never load the result. */
        sh = semanage_handle_create();
        if (!sh) {
                dprintf(MSG_FD, "Xlibsemanage: cannot create a handle\n");
                _exit(2);
        }
        semanage_msg_set_callback(sh, child_log, NULL);
        semanage_select_store(sh, (char *) type, SEMANAGE_CON_DIRECT);
        semanage_set_create_store(sh, 0);
        semanage_set_reload(sh, 0);
        semanage_set_rebuild(sh, 1);
        r = semanage_connect(sh);
        if (r >= 0)
                r = semanage_begin_transaction(sh);
        if (r >= 0)
                r = semanage_commit(sh);
        if (semanage_is_connected(sh))
                (void) semanage_disconnect(sh);
        semanage_handle_destroy(sh);
        _exit(r < 0 ? 1 : 0);
}

/* Relay the child's messages to the context's log until it closes the pipe or the time is up;
 * then reap it. Returns its exit status, or -ETIME after killing it. */
static int relay_and_wait(struct seinstall_ctx *ctx, pid_t pid, int fd, char **ret_fatal)
{
        struct sbuf buf = {};
        size_t logged = 0;
        long long deadline_ms = BUILD_TIMEOUT_S * 1000LL;
        int status, r = 0;

        while (deadline_ms > 0) {
                struct pollfd p = {.fd = fd, .events = POLLIN};
                char chunk[4096];
                ssize_t n;
                int k = poll(&p, 1, 1000);

                if (k < 0 && errno != EINTR)
                        break;
                if (k <= 0) {
                        deadline_ms -= 1000;
                        continue;
                }
                n = read(fd, chunk, sizeof(chunk));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                if (logged < BUILD_LOG_MAX && sbuf_append(&buf, chunk, (size_t) n) < 0)
                        break;
                logged += (size_t) n;
                for (char *nl; buf.s && (nl = memchr(buf.s, '\n', buf.len));) {
                        size_t len = (size_t) (nl - buf.s);
                        *nl = '\0';
                        if (buf.s[0] == 'X' && !*ret_fatal)
                                *ret_fatal = strdup(buf.s + 1);
                        else if (buf.s[0] == 'E' || buf.s[0] == 'D')
                                si_log(ctx,
                                       buf.s[0] == 'E' ? SEINSTALL_LOG_WARNING
                                                       : SEINSTALL_LOG_DEBUG,
                                       "libsemanage: %s", buf.s + 1);
                        memmove(buf.s, nl + 1, buf.len - len - 1);
                        buf.len -= len + 1;
                        buf.s[buf.len] = '\0';
                }
        }
        sbuf_free(&buf);
        if (deadline_ms <= 0) {
                (void) kill(pid, SIGKILL);
                r = -ETIME;
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        if (r < 0)
                return r;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Build in a confined child; 0 when libsemanage succeeded. */
static int build_confined(struct seinstall_ctx *ctx, const char *type, int etc_fd, int var_fd)
{
        _cleanup_free_ char *fatal = NULL;
        int pipefd[2], r;
        pid_t pid;

        if (pipe2(pipefd, O_CLOEXEC) < 0)
                return -errno;
        pid = fork();
        if (pid < 0) {
                r = -errno;
                close(pipefd[0]);
                close(pipefd[1]);
                return r;
        }
        if (pid == 0) {
                close(pipefd[0]);
                build_child(pipefd[1], etc_fd, var_fd, type);
        }
        close(pipefd[1]);
        r = relay_and_wait(ctx, pid, pipefd[0], &fatal);
        close(pipefd[0]);
        if (r == -ETIME)
                return si_error_run(ctx, -ETIME, si_semodule_command(ctx->root),
                                    "Building the '%s' policy in %s took longer than %d s: "
                                    "stopped; to see why, run: ",
                                    type, ctx->root, BUILD_TIMEOUT_S);
        if (r < 0)
                return r;
        if (r == 128 + SIGXCPU || r == 128 + SIGKILL)
                return si_error_run(ctx, -ETIME, si_semodule_command(ctx->root),
                                    "Building the '%s' policy in %s used more than %d s of CPU: "
                                    "stopped; to see why, run: ",
                                    type, ctx->root, BUILD_TIMEOUT_S);
        if (fatal)
                return si_error(ctx, -EPERM,
                                "Could not confine the policy build (%s): seinstall builds a "
                                "target's policy only in a private mount namespace, as root",
                                fatal);
        return r == 0 ? 0 : -EIO;
}

int si_policy_build(struct seinstall_ctx *ctx, const char *type)
{
        _cleanup_free_ char *modules = NULL;
        _cleanup_close_ int fd = -EBADF, etc_fd = -EBADF, var_fd = -EBADF;
        int r;

        if (!si_policy_type_valid(type))
                return -EINVAL;
        if (si_policy_built(ctx, type))
                return 0;
        if (asprintf(&modules, "/var/lib/selinux/%s/active/modules", type) < 0)
                return -ENOMEM;
        fd = si_root_open(ctx, modules, O_PATH | O_DIRECTORY, 0);
        if (fd < 0)
                return si_error(ctx, -ENOPKG,
                                "The target has no SELinux policy '%s' (neither %s/etc/selinux/%s/"
                                "policy nor modules in %s%s): install %s in the target",
                                type, ctx->root, type, ctx->root, modules,
                                si_policy_package_hint(type));
        r = open_store(ctx, type, &etc_fd, &var_fd);
        if (r < 0)
                return r;
        r = build_confined(ctx, type, etc_fd, var_fd);
        if (r == -EIO || (r >= 0 && !si_policy_built(ctx, type)))
                return si_error_run(ctx, -EIO, si_semodule_command(ctx->root),
                                    "Building the '%s' policy from the modules in %s%s failed "
                                    "(see the libsemanage messages above; the build may use %llu "
                                    "GiB of memory); to see why, run: ",
                                    type, ctx->root, modules, BUILD_AS_MAX >> 30);
        return r < 0 ? r : 1;
}

SEINSTALL_EXPORT int seinstall_policy_ensure(struct seinstall_ctx *ctx, const char *type)
{
        if (!ctx)
                return -EINVAL;
        return si_policy_build(ctx, type ? type : "default");
}
