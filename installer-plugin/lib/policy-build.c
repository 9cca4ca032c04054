/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-build.c — making sure the target has a built policy of the chosen type: when the
 * modules are installed in /var/lib/selinux/TYPE but nothing is built (policy-package.c tells),
 * building it with libsemanage for the alternate root, as `semodule -p ROOT -B` does, in a
 * confined child over the store policy-store.c checked.
 */
#include <dlfcn.h>
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
#include "runner.h"
#include "sandbox.h"

/* ---- the confined build (a child process) ----------------------------------------------- */

/* How long a build may take before it is stopped, on the wall clock: Debian's default policy
 * builds in well under a minute; a store that makes libsemanage spin must not hang an install. */
#define BUILD_TIMEOUT_S 900
/* What the build may hold in memory, bounded by its cgroup (runner.c watches it): Debian's
 * default policy (100 MiB of inflated modules) peaks at 200 MB. A CIL module whose macros call
 * each other twice over is killed here, by the limit, never by the host's OOM killer choosing
 * among the installer's processes. */
#define BUILD_MEM_MAX (1ULL << 30)
/* Where no cgroup can be made, an address-space limit instead (twice the memory limit: a
 * process maps more than it uses). AddressSanitizer reserves terabytes of shadow address space
 * up front: under it (make SANITIZE=1) that limit would fail every build, so there it is left
 * out. */
#define BUILD_AS_MAX (2 * BUILD_MEM_MAX)
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
/* The child's descriptors: its messages, the helper it runs, the store's two trees. */
enum { MSG_FD = 3, HELPER_FD, ETC_FD, VAR_FD, FIRST_FREE_FD };
#define HELPER_NAME "seinstall-policy-build"
#ifndef SEINSTALL_LIBEXECDIR
#define SEINSTALL_LIBEXECDIR "/usr/libexec/seinstall"
#endif

/* The program the child runs: beside the one running this code (../libexec/seinstall/, as in
 * the build tree and for a command installed in PREFIX/sbin), else where make install put it.
 * An O_PATH descriptor, or -errno. */
static int open_helper(char **ret_path)
{
        Dl_info info = {};
        _cleanup_free_ char *near = NULL;
        const char *where = NULL;
        int fd;

        char self[PATH_MAX];
        const char *bin = NULL;
        ssize_t n;

        /* Only an absolute path: the main program's name as it was run may be relative to a
         * directory that is now another (the target's, say). Then /proc/self/exe names it. */
        if (dladdr((void *) open_helper, &info) && info.dli_fname && info.dli_fname[0] == '/')
                bin = info.dli_fname;
        else if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0) {
                self[n] = '\0';
                bin = self;
        }
        if (bin) {
                const char *slash = strrchr(bin, '/');
                if (asprintf(&near, "%.*s/../libexec/seinstall/" HELPER_NAME, (int) (slash - bin),
                             bin) < 0)
                        near = NULL;
        }
        if (near && access(near, X_OK) == 0)
                where = near;
        else
                where = SEINSTALL_LIBEXECDIR "/" HELPER_NAME;
        fd = open(where, O_PATH | O_CLOEXEC);
        if (fd < 0 || access(where, X_OK) < 0) {
                int r = -errno;
                if (fd >= 0)
                        close(fd);
                *ret_path = strdup(where);
                return r;
        }
        *ret_path = strdup(where);
        return fd;
}

/* Everything the child needs, made before it forks: it only makes system calls. */
struct build_plan {
        const char *stage;
        char *dirs[8]; /* the stage's directories, in order */
        size_t n_dirs;
        char *conf_path, *conf;
        char *etc_dst, *var_dst;
        struct {
                char src[16];
                char *dst;
                char *link; /* a symlink's target, or NULL for a directory */
        } host[8];
        size_t n_host;
        char *ldcache_dst; /* NULL when the host has no ld.so.cache */
        char *type;
        struct si_cgroup cg; /* SI_CGROUP_NULL: none could be made */
};

static void plan_done(struct build_plan *b)
{
        for (size_t i = 0; i < b->n_dirs; i++)
                free(b->dirs[i]);
        for (size_t i = 0; i < b->n_host; i++) {
                free(b->host[i].dst);
                free(b->host[i].link);
        }
        free(b->conf_path);
        free(b->conf);
        free(b->etc_dst);
        free(b->var_dst);
        free(b->ldcache_dst);
        free(b->type);
        (void) si_cgroup_remove(&b->cg);
}

/* The first of the host's /sbin and /usr/sbin that holds @name, as libsemanage itself picks. */
static const char *host_program(const char *sbin, const char *usr_sbin)
{
        return access(sbin, X_OK) == 0 ? sbin : usr_sbin;
}

static int plan_make(struct build_plan *b, const char *type)
{
        static const char *const stages[] = {"/tmp", "/mnt", "/run", "/var/tmp"};
        static const char *const host[] = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"};
        const char *dirs[] = {"etc", "etc/selinux", NULL, "var", "var/lib", "var/lib/selinux"};
        _cleanup_free_ char *typed = NULL;

        for (size_t i = 0; !b->stage && i < ELEMENTSOF(stages); i++) {
                struct stat st;
                if (lstat(stages[i], &st) == 0 && S_ISDIR(st.st_mode))
                        b->stage = stages[i];
        }
        if (!b->stage)
                return -ENOENT;
        if (asprintf(&typed, "etc/selinux/%s", type) < 0)
                return -ENOMEM;
        dirs[2] = typed;
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++)
                if (asprintf(&b->dirs[b->n_dirs++], "%s/%s", b->stage, dirs[i]) < 0)
                        return -ENOMEM;
        for (size_t i = 0; i < ELEMENTSOF(host); i++) {
                char src[16], link[PATH_MAX];
                struct stat st;
                ssize_t n;

                snprintf(src, sizeof(src), "/%s", host[i]);
                if (lstat(src, &st) < 0 || (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode)))
                        continue;
                memcpy(b->host[b->n_host].src, src, sizeof(src));
                if (asprintf(&b->host[b->n_host].dst, "%s/%s", b->stage, host[i]) < 0)
                        return -ENOMEM;
                if (S_ISLNK(st.st_mode)) {
                        n = readlink(src, link, sizeof(link) - 1);
                        if (n < 0)
                                return -errno;
                        link[n] = '\0';
                        b->host[b->n_host].link = strdup(link);
                        if (!b->host[b->n_host].link)
                                return -ENOMEM;
                }
                b->n_host++;
        }
        /* seinstall's own semanage.conf: the target's is never read (its [setfiles] and
         * similar sections name programs that would run on the installer). */
        if (asprintf(&b->conf_path, "%s/etc/selinux/semanage.conf", b->stage) < 0 ||
            asprintf(&b->conf,
                     "# seinstall's configuration for building a target's policy\n"
                     "module-store = direct\n"
                     "expand-check = 0\n"
                     "usepasswd = false\n"
                     "[setfiles]\npath = %s\nargs = -q -c $@ $<\n[end]\n"
                     "[sefcontext_compile]\npath = %s\nargs = $@\n[end]\n",
                     host_program("/sbin/setfiles", "/usr/sbin/setfiles"),
                     host_program("/sbin/sefcontext_compile", "/usr/sbin/sefcontext_compile")) <
                0 ||
            asprintf(&b->etc_dst, "%s/etc/selinux/%s", b->stage, type) < 0 ||
            asprintf(&b->var_dst, "%s/var/lib/selinux", b->stage) < 0 ||
            (access("/etc/ld.so.cache", R_OK) == 0 &&
             asprintf(&b->ldcache_dst, "%s/etc/ld.so.cache", b->stage) < 0) ||
            !(b->type = strdup(type)))
                return -ENOMEM;
        return 0;
}

/* In the child: "X" what ": ENAME" on MSG_FD, then exit. Only system calls: no stdio. */
static _Noreturn void child_fail(const char *what)
{
        const char *name = strerrorname_np(errno);

        if (!name)
                name = "error";
        (void) !write(MSG_FD, "X", 1);
        (void) !write(MSG_FD, what, strlen(what));
        (void) !write(MSG_FD, ": ", 2);
        (void) !write(MSG_FD, name, strlen(name));
        (void) !write(MSG_FD, "\n", 1);
        _exit(2);
}

static void bind_ro(const char *src, const char *dst)
{
        if (mount(src, dst, NULL, MS_BIND, NULL) < 0 ||
            mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) <
                0)
                child_fail("binding the host's program directories");
}

/* Put the host's program directories (/usr, and /bin, /sbin, /lib* as they are: symlinks or
 * directories) into the stage read-only, so the only programs libsemanage can run are the
 * host's setfiles and sefcontext_compile, and the helper finds its libraries. */
static void stage_host_dirs(const struct build_plan *b)
{
        for (size_t i = 0; i < b->n_host; i++) {
                if (b->host[i].link) {
                        if (symlink(b->host[i].link, b->host[i].dst) < 0)
                                child_fail("symlink in the stage");
                        continue;
                }
                if (mkdir(b->host[i].dst, 0755) < 0)
                        child_fail("a directory of the stage");
                bind_ro(b->host[i].src, b->host[i].dst);
        }
        if (b->ldcache_dst) {
                int fd = open(b->ldcache_dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                if (fd < 0)
                        child_fail("creating the stage's ld.so.cache");
                close(fd);
                bind_ro("/etc/ld.so.cache", b->ldcache_dst);
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
                return -errno;
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
                int r = -errno;
                close(tree);
                return r;
        }
        return tree;
}

/* In the child: into the build's cgroup; a private mount namespace whose root (chroot) is a
 * read-only tmpfs holding seinstall's semanage.conf, the host's program directories read-only,
 * and the target's /etc/selinux/TYPE and /var/lib/selinux as the only writable things; no
 * capabilities; then the helper, a fresh program. Never returns. */
static _Noreturn void build_child(const struct build_plan *b, int msg_fd, int helper_fd,
                                  int etc_tree, int var_tree)
{
        static char *const env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
        char *const argv[] = {(char *) HELPER_NAME, b->type, NULL};
        const int from[] = {msg_fd, helper_fd, etc_tree, var_tree};
        int high[ELEMENTSOF(from)], null;

        /* first, so that nothing of the build ever runs outside the cgroup's limits */
        if (b->cg.fd >= 0 && si_cgroup_join(&b->cg) < 0)
                _exit(2);
        for (size_t i = 0; i < ELEMENTSOF(from); i++)
                if ((high[i] = fcntl(from[i], F_DUPFD_CLOEXEC, 16)) < 0)
                        _exit(2);
        for (size_t i = 0; i < ELEMENTSOF(from); i++)
                if (dup2(high[i], MSG_FD + (int) i) < 0)
                        _exit(2);
        null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
                child_fail("/dev/null");
        if (close_range(FIRST_FREE_FD, ~0U, 0) < 0)
                child_fail("closing descriptors");
        if (setsid() < 0)
                child_fail("a new session");
        if (unshare(CLONE_NEWNS) < 0)
                child_fail("a private mount namespace (seinstall must run as root)");
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                child_fail("making the mounts private");
        if (mount("seinstall-policy-build", b->stage, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "mode=0755,size=4m") < 0)
                child_fail("mounting the stage");
        for (size_t i = 0; i < b->n_dirs; i++)
                if (mkdir(b->dirs[i], 0755) < 0 && errno != EEXIST)
                        child_fail("making the stage's directories");
        int conf = open(b->conf_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (conf < 0 || write(conf, b->conf, strlen(b->conf)) != (ssize_t) strlen(b->conf) ||
            close(conf) < 0)
                child_fail("writing seinstall's semanage.conf");
        stage_host_dirs(b);
        if (move_mount(ETC_FD, "", AT_FDCWD, b->etc_dst, MOVE_MOUNT_F_EMPTY_PATH) < 0 ||
            move_mount(VAR_FD, "", AT_FDCWD, b->var_dst, MOVE_MOUNT_F_EMPTY_PATH) < 0)
                child_fail("attaching the target's policy store");
        if (close_range(ETC_FD, ~0U, 0) < 0)
                child_fail("closing descriptors");
        if (mount(NULL, b->stage, NULL,
                  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                child_fail("making the stage read-only");
        if (chdir(b->stage) < 0 || chroot(".") < 0 || chdir("/") < 0)
                child_fail("entering the stage");
        if ((b->cg.fd < 0 && BUILD_LIMIT_AS &&
             setrlimit(RLIMIT_AS, &(struct rlimit){BUILD_AS_MAX, BUILD_AS_MAX}) < 0) ||
            setrlimit(RLIMIT_CPU, &(struct rlimit){BUILD_TIMEOUT_S, BUILD_TIMEOUT_S + 5}) < 0 ||
            setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0}) < 0)
                child_fail("limiting the build's memory and time");
        if (si_drop_privileges() < 0)
                child_fail("dropping capabilities");
        syscall(SYS_execveat, HELPER_FD, "", argv, env, AT_EMPTY_PATH);
        child_fail("running " HELPER_NAME);
}

/* The child's message lines, on their way to the log (the watch's feed). */
struct build_relay {
        struct sbuf buf;
        size_t logged;
        char *fatal; /* the child's "X" line: its confinement failed */
};

static void build_feed(struct seinstall_ctx *ctx, void *data, const char *chunk, size_t n)
{
        struct build_relay *rl = data;

        if (rl->logged >= BUILD_LOG_MAX)
                return;
        rl->logged += n;
        if (sbuf_append(&rl->buf, chunk, n) < 0)
                return;
        for (char *nl; rl->buf.s && (nl = memchr(rl->buf.s, '\n', rl->buf.len));) {
                size_t len = (size_t) (nl - rl->buf.s);
                *nl = '\0';
                if (rl->buf.s[0] == 'X' && !rl->fatal)
                        rl->fatal = strdup(rl->buf.s + 1);
                else if (rl->buf.s[0] == 'E' || rl->buf.s[0] == 'D')
                        si_log(ctx,
                               rl->buf.s[0] == 'E' ? SEINSTALL_LOG_WARNING : SEINSTALL_LOG_DEBUG,
                               "libsemanage: %s", rl->buf.s + 1);
                memmove(rl->buf.s, nl + 1, rl->buf.len - len - 1);
                rl->buf.len -= len + 1;
                rl->buf.s[rl->buf.len] = '\0';
        }
}

/* The build's cgroup: its memory bound. Where none can be made (no cgroup filesystem and none
 * can be mounted), the build runs under an address-space limit instead, said at debug level. */
static void build_cgroup(struct seinstall_ctx *ctx, struct build_plan *b)
{
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;
        int r = si_cgroup_find("", &p, &why);

        if (r == -ENOENT)
                r = si_cgroup_find_detached(&p, &why);
        if (r >= 0)
                r = si_cgroup_new(&p, BUILD_MEM_MAX, &b->cg);
        if (r < 0 || !b->cg.memory) {
                si_debug(ctx,
                         "The policy build has no memory limit of its cgroup (%s): an "
                         "address-space limit of %llu MiB bounds it instead",
                         r < 0 ? (why ? why : strerror(-r)) : "no memory controller",
                         BUILD_AS_MAX >> 20);
                if (r >= 0 && !b->cg.memory)
                        (void) si_cgroup_remove(&b->cg);
                b->cg = SI_CGROUP_NULL;
        }
        si_cgroup_place_done(&p);
}

/* Build in a confined child; 0 when libsemanage succeeded. */
static int build_confined(struct seinstall_ctx *ctx, const char *type, int etc_fd, int var_fd)
{
        struct build_plan b = {.cg = SI_CGROUP_NULL};
        struct build_relay rl = {};
        struct si_watch w = SI_WATCH_INIT;
        _cleanup_free_ char *helper = NULL;
        _cleanup_close_ int helper_fd = -EBADF, etc_tree = -EBADF, var_tree = -EBADF;
        char why[160];
        const char *cause;
        int pipefd[2] = {-1, -1}, r, status = -1;

        helper_fd = open_helper(&helper);
        /* a part of seinstall missing: the system's failure, not the input's (exit 3) */
        if (helper_fd < 0)
                return si_error(ctx, -ENOPKG,
                                "Cannot build the '%s' policy of %s: %s: %s (seinstall's "
                                "make install, and its package, put it there)",
                                type, ctx->root, helper ? helper : HELPER_NAME,
                                strerror(-helper_fd));
        r = plan_make(&b, type);
        if (r >= 0 && (etc_tree = clone_store(etc_fd)) < 0)
                r = etc_tree;
        if (r >= 0 && (var_tree = clone_store(var_fd)) < 0)
                r = var_tree;
        if (r < 0) {
                plan_done(&b);
                return si_error(ctx, r, "Could not confine the policy build: %s", strerror(-r));
        }
        build_cgroup(ctx, &b);
        if (pipe2(pipefd, O_CLOEXEC) < 0) {
                r = -errno;
                plan_done(&b);
                return r;
        }
        w.pid = fork();
        if (w.pid == 0)
                build_child(&b, pipefd[1], helper_fd, etc_tree, var_tree);
        close(pipefd[1]);
        if (w.pid < 0) {
                r = -errno;
                close(pipefd[0]);
                plan_done(&b);
                return r;
        }
        w.out = pipefd[0];
        w.cg = b.cg.fd >= 0 ? &b.cg : NULL;
        w.timeout_s = BUILD_TIMEOUT_S;
        w.feed = build_feed;
        w.feed_data = &rl;
        status = si_watch_run(ctx, &w);
        close(pipefd[0]);
        cause = si_watch_cause(ctx, &w, status, BUILD_MEM_MAX, why, sizeof(why));
        if (!cause && status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && !w.cg &&
            BUILD_LIMIT_AS)
                cause = "was killed (at its address-space limit?)";
        r = si_watch_cause_err(&w, status);
        plan_done(&b);
        sbuf_free(&rl.buf);
        if (cause) {
                free(rl.fatal);
                return si_error_run(ctx, r ? r : -SEINSTALL_ERROR_PROGRAM_FAILED,
                                    si_semodule_command(ctx->root),
                                    "Building the '%s' policy in %s %s: stopped it and every "
                                    "process it started; to see why, run: ",
                                    type, ctx->root, cause);
        }
        if (rl.fatal) {
                r = si_error(ctx, -SEINSTALL_ERROR_NOT_CONFINED,
                             "Could not confine the policy build (%s): seinstall builds a "
                             "target's policy only in a private mount namespace, as root",
                             rl.fatal);
                free(rl.fatal);
                return r;
        }
        if (status < 0)
                return status;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -SEINSTALL_ERROR_PROGRAM_FAILED;
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
                                si_policy_package_hint(ctx, type));
        r = si_policy_store_open(ctx, type, &etc_fd, &var_fd);
        if (r < 0)
                return r;
        r = build_confined(ctx, type, etc_fd, var_fd);
        if (r == -SEINSTALL_ERROR_PROGRAM_FAILED || (r >= 0 && !si_policy_built(ctx, type)))
                return si_error_run(ctx, -SEINSTALL_ERROR_PROGRAM_FAILED,
                                    si_semodule_command(ctx->root),
                                    "Building the '%s' policy from the modules in %s%s failed "
                                    "(see the libsemanage messages above; the build may use %llu "
                                    "MiB of memory); to see why, run: ",
                                    type, ctx->root, modules, BUILD_MEM_MAX >> 20);
        return r < 0 ? r : 1;
}

SEINSTALL_EXPORT int seinstall_policy_ensure(struct seinstall_ctx *ctx, const char *type)
{
        if (!ctx)
                return -EINVAL;
        return si_policy_build(ctx, type ? type : "default");
}
