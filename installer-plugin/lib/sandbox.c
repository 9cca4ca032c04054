/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.c — the one way seinstall runs a program of the target (update-grub, grub-mkconfig
 * for apply --regenerate): under bubblewrap, as root of a user namespace whose ids are host
 * ids nobody uses (sandbox-userns.c), so that no kernel interface trusting the host's uid 0 or
 * its capabilities (sysctls, block and loop ioctls, keyrings, /proc) trusts the program.
 *
 * A forked child makes itself a new session (no controlling terminal) with a new session
 * keyring, stdin /dev/null and stdout/stderr a pipe, rlimits on memory, file size, open files
 * and core dumps, and moves itself into a cgroup of its own bounding the processes and memory
 * of everything it starts (sandbox-cgroup.c; no cgroup, nothing runs). In a private mount
 * namespace it builds the tree the program sees: the target's own mounts only, each an
 * idmapped copy (so the host's root owns what the program owns, and update-grub can write
 * /boot), and a tmpfs holding the only device nodes it gets: null, zero, full, random, urandom
 * and the block devices that hold nothing but the target (a mount's filesystem when it is the
 * whole filesystem, never a directory of a larger one or a btrfs subvolume; never a
 * partition's whole disk; below an md array or an encrypted volume only what that alone
 * holds; never the physical volumes of an LVM group), readable by the namespace's root only,
 * on a read-only mount. Then it enters the user namespace and runs bwrap: new PID, IPC,
 * network, UTS (and cgroup) namespaces; that tree as "/" and that /dev; a new /proc with the
 * paths container runtimes mask hidden and /proc/sys read-only; the installer's /sys
 * read-only; an empty tmpfs on /run; every capability dropped, no_new_privs, and two seccomp
 * filters (keyrings, TIOCSTI, namespaces and mounts, bpf, perf, userfaultfd, io_uring; and an
 * allowlist of ioctls: the read-only queries of terminals, block devices and filesystems
 * that grub-probe and a shell make). No descriptor of seinstall but 0-2 reaches the program.
 * The parent relays the output through the log (escaped, bounded) and kills the sandbox's
 * PID 1, and so every process in it, at the wall-clock limit or as soon as the cgroup's
 * process or memory limit was hit; then it empties and removes the cgroup.
 *
 * This file prepares the sandbox in the parent and watches the run; the rest of it lives
 * beside it: the child's half in sandbox-child.c, the block devices and their names in
 * sandbox-devices.c, the two filters in sandbox-seccomp.c, the output's relay in
 * sandbox-relay.c, the ids in sandbox-userns.c and the cgroup in sandbox-cgroup.c.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "seinstall-private.h"
#include "sandbox-cgroup.h"
#include "runner.h"
#include "sandbox.h"
#include "sandbox-internal.h"
#include "seinstall-internal.h"

int seinstall_sandbox_timeout_parse(const char *text, unsigned *ret)
{
        char *end;
        unsigned long v;

        if (!text || !*text) {
                *ret = SEINSTALL_SANDBOX_TIMEOUT_DEFAULT;
                return 0;
        }
        errno = 0;
        v = strtoul(text, &end, 10);
        if (errno || *end || end == text || text[0] < '0' || text[0] > '9' || v < 1 ||
            v > SEINSTALL_SANDBOX_TIMEOUT_MAX)
                return -EINVAL;
        *ret = (unsigned) v;
        return 0;
}

/* ---- what goes into the sandbox ---------------------------------------------------------- */

static void sandbox_done(struct sandbox *s)
{
        si_strv_free(s->args, s->n_args);
        si_strv_free(s->uuids, s->n_devs);
        si_strv_free(s->partuuids, s->n_devs);
        free(s->devs);
        free(s->names);
        free(s->rootpath);
        for (size_t i = 0; i < s->n_trees; i++) {
                close(s->trees[i]);
                free(s->tree_dst[i]);
        }
        s->n_trees = 0;
        if (s->userns_fd >= 0)
                close(s->userns_fd);
        s->userns_fd = -1;
        si_uidrange_release(&s->ids);
        (void) si_cgroup_remove(&s->cg);
}

static int arg(struct sandbox *s, const char *a)
{
        if (!SI_GROW(s->args, s->cap_args, s->n_args + 2)) /* and the NULL after the last */
                return -ENOMEM;
        s->args[s->n_args] = strdup(a);
        if (!s->args[s->n_args])
                return -ENOMEM;
        s->args[++s->n_args] = NULL;
        return 0;
}

static int args(struct sandbox *s, const char *const *v)
{
        int r = 0;

        for (size_t i = 0; r >= 0 && v[i]; i++)
                r = arg(s, v[i]);
        return r;
}

/* A path bwrap mounts on inside the target must not pass through a symlink: bwrap would follow
 * it outside the new root. Missing is fine (bwrap creates the directory). */
static int check_dest(struct seinstall_ctx *ctx, const char *rel, mode_t *ret_type)
{
        struct open_how how = {.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
                               .resolve =
                                   RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
        struct stat st;
        int fd = (int) syscall(SYS_openat2, ctx->root_fd, rel + 1, &how, sizeof(how));

        *ret_type = 0;
        if (fd < 0 && errno == ENOENT)
                return 0;
        if (fd < 0 && errno == ELOOP)
                return si_error(ctx, -ELOOP,
                                "%s%s leads through a symbolic link: the sandbox for the "
                                "target's programs mounts there; make it a directory",
                                ctx->root, rel);
        if (fd < 0)
                return si_error(ctx, -errno, "Could not open %s%s: %m", ctx->root, rel);
        if (fstat(fd, &st) < 0) {
                close(fd);
                return -errno;
        }
        close(fd);
        *ret_type = st.st_mode & S_IFMT;
        return 0;
}

/* Below one of the places the sandbox replaces whole. */
static bool covered(const char *rel)
{
        static const char *const whole[] = {"/dev", "/proc", "/sys", "/run"};

        for (size_t i = 0; i < ELEMENTSOF(whole); i++) {
                const char *p = startswith(rel, whole[i]);
                if (p && (!*p || *p == '/'))
                        return true;
        }
        return false;
}

/* A directory of the installer on which the child may mount its tmpfs: neither the root nor
 * above or below it. */
static const char *pick_stage(const char *rootpath)
{
        static const char *const stages[] = {"/run", "/tmp", "/mnt", "/var/tmp", "/media"};

        for (size_t i = 0; i < ELEMENTSOF(stages); i++) {
                size_t a = strlen(stages[i]), b = strlen(rootpath);
                struct stat st;

                if ((strncmp(rootpath, stages[i], a) == 0 &&
                     (rootpath[a] == '/' || !rootpath[a])) ||
                    (strncmp(stages[i], rootpath, b) == 0 && stages[i][b] == '/'))
                        continue;
                if (lstat(stages[i], &st) == 0 && S_ISDIR(st.st_mode))
                        return stages[i];
        }
        return NULL;
}

/* What container runtimes keep from a container in its /proc (runc's and podman's masked and
 * read-only paths): bwrap mounts a new /proc, these go over it. Kept though the namespace's
 * root is no root of the host: a kernel that trusts a file's mode there is refused twice. */
static int add_proc_masks(struct sandbox *s)
{
        static const char *const readonly[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq",
                                               "/proc/bus", "/proc/fs"};
        static const char *const masked_files[] = {
            "/proc/kcore",       "/proc/keys",          "/proc/key-users", "/proc/timer_list",
            "/proc/sched_debug", "/proc/latency_stats", "/proc/kmsg",      "/proc/kallsyms",
            "/proc/config.gz",   "/proc/vmallocinfo",   "/proc/kpageflags"};
        static const char *const masked_dirs[] = {"/proc/acpi", "/proc/scsi", "/proc/asound"};
        int r = 0;

        struct stat st;

        /* What this kernel's /proc has (the new one is made alike): bwrap cannot mount on a
         * path that is not there. */
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(readonly); i++)
                if (lstat(readonly[i], &st) == 0)
                        r = args(
                            s, (const char *const[]){"--ro-bind", readonly[i], readonly[i], NULL});
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(masked_files); i++)
                if (lstat(masked_files[i], &st) == 0 && S_ISREG(st.st_mode))
                        r = args(s, (const char *const[]){"--ro-bind", "/dev/null", masked_files[i],
                                                          NULL});
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(masked_dirs); i++) {
                if (lstat(masked_dirs[i], &st) < 0 || !S_ISDIR(st.st_mode))
                        continue;
                r = args(s, (const char *const[]){"--tmpfs", masked_dirs[i], "--remount-ro",
                                                  masked_dirs[i], NULL});
        }
        return r;
}

static int build_args(struct seinstall_ctx *ctx, struct sandbox *s, const char *const *argv)
{
        static const char *const head[] = {SEINSTALL_BWRAP,
                                           "--unshare-pid",
                                           "--unshare-ipc",
                                           "--unshare-net",
                                           "--unshare-uts",
                                           "--unshare-cgroup-try",
                                           "--new-session",
                                           "--die-with-parent",
                                           "--cap-drop",
                                           "ALL",
                                           "--hostname",
                                           "seinstall-sandbox",
                                           NULL};
        static const char *const whole[] = {"/dev", "/proc", "/sys", "/run"};
        char fdnum[16], fdnum2[16], devdir[PATH_MAX], rootdir[PATH_MAX];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(whole); i++) {
                mode_t type;
                r = check_dest(ctx, whole[i], &type);
                if (r < 0)
                        return r;
                if (type && type != S_IFDIR)
                        return si_error(ctx, -ENOTDIR,
                                        "%s%s is not a directory: the sandbox for the target's "
                                        "programs mounts there; make it one",
                                        ctx->root, whole[i]);
                /* made here, labeled, rather than by bwrap, unlabeled */
                if (!type && (r = si_root_mkdir_p(ctx, whole[i], 0755, 0)) < 0)
                        return si_error(ctx, r, "Could not create %s%s: %s", ctx->root, whole[i],
                                        si_file_strerror(r));
        }
        snprintf(devdir, sizeof(devdir), "%s/dev", s->stage);
        snprintf(rootdir, sizeof(rootdir), "%s/root", s->stage);
        r = args(s, head);
        if (r >= 0)
                r = args(s, (const char *const[]){"--bind", rootdir, "/", "--dev-bind", devdir,
                                                  "/dev", "--proc", "/proc", NULL});
        if (r >= 0)
                r = add_proc_masks(s);
        if (r >= 0)
                r = args(
                    s, (const char *const[]){"--ro-bind", "/sys", "/sys", "--tmpfs", "/run", NULL});
        snprintf(fdnum, sizeof(fdnum), "%d", FD_SECCOMP);
        snprintf(fdnum2, sizeof(fdnum2), "%d", FD_IOCTLS);
        if (r >= 0)
                r = args(s, (const char *const[]){"--add-seccomp-fd", fdnum, "--add-seccomp-fd",
                                                  fdnum2, "--chdir", "/", NULL});
        snprintf(fdnum, sizeof(fdnum), "%d", FD_INFO);
        if (r >= 0)
                r = args(s, (const char *const[]){"--info-fd", fdnum, "--", NULL});
        if (r >= 0)
                r = args(s, argv);
        return r;
}

/* ---- the parent ------------------------------------------------------------------------------ */

/* The relay, as the watch's feed. */
static void feed_relay(struct seinstall_ctx *ctx, void *data, const char *buf, size_t n)
{
        si_relay_feed(ctx, data, buf, n);
}

static void end_relay(struct seinstall_ctx *ctx, void *data)
{
        si_relay_end(ctx, data);
}

static int report(struct seinstall_ctx *ctx, const struct si_watch *w, const char *const *argv,
                  const struct si_relay *relay, unsigned timeout_s, int status)
{
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

        if (w->tripped == SI_CGROUP_PIDS_HIT)
                return si_error(ctx, -EAGAIN,
                                "%s in %s reached the sandbox's limit of %d processes at once: "
                                "killed it and every process it started; run it there by hand "
                                "to see why",
                                argv[0], ctx->root, SI_CGROUP_PIDS_MAX);
        if (w->tripped == SI_CGROUP_OOM_KILL)
                return si_error(ctx, -ENOMEM,
                                "%s in %s reached the sandbox's memory limit of %llu MiB (the "
                                "kernel killed a process of it): killed it and every process it "
                                "started; run it there by hand to see why",
                                argv[0], ctx->root, SI_CGROUP_MEMORY_MAX >> 20);
        if (w->killed)
                return si_error(ctx, -ETIME,
                                "%s in %s ran longer than %u s: killed it and every process it "
                                "started (SEINSTALL_SANDBOX_TIMEOUT sets the limit); run it "
                                "there by hand to see why",
                                argv[0], ctx->root, timeout_s);
        if (w->sandboxed && !w->started)
                return si_error(ctx, -SEINSTALL_ERROR_NOT_CONFINED,
                                "Could not set up the sandbox for %s in %s (%s): seinstall runs "
                                "a program of the target only in a sandbox; nothing ran",
                                argv[0], ctx->root,
                                relay->last ? relay->last : "bwrap gave no reason");
        if (code == 0)
                return 0;
        if (code > 128 && code < 128 + 65)
                return si_error(ctx, -SEINSTALL_ERROR_PROGRAM_FAILED,
                                "%s failed in %s (killed by signal %d, SIG%s%s): run it there "
                                "by hand",
                                argv[0], ctx->root, code - 128,
                                sigabbrev_np(code - 128) ? sigabbrev_np(code - 128) : "?",
                                code - 128 == SIGKILL || code - 128 == SIGSEGV
                                    ? ", at the sandbox's memory limit?"
                                    : "");
        return si_error(ctx, -SEINSTALL_ERROR_PROGRAM_FAILED,
                        "%s failed in %s (exit status %d): run it there by hand", argv[0],
                        ctx->root, code);
}

/* The cgroup bounding the sandbox: where there is none, nothing runs. */
static int sandbox_cgroup(struct seinstall_ctx *ctx, struct sandbox *s, const char *const *argv)
{
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;
        int r = si_cgroup_find("", &p, &why);

        if (r == -ENOENT)
                r = si_cgroup_find_detached(&p, &why);
        if (r < 0) {
                r = si_error(ctx, r == -ENOMEM ? r : -EOPNOTSUPP,
                             "Cannot run %s of %s in a sandbox: %s (%s); its processes are "
                             "bounded by a cgroup with the pids controller, of cgroup v2 (enabled "
                             "for the children of the root cgroup or of a cgroup above "
                             "seinstall's own, as systemd's slices have it) or of cgroup v1 (its "
                             "pids hierarchy mounted); seinstall never runs a program of the "
                             "target without that bound",
                             argv[0], ctx->root, why, strerror(-r));
                si_cgroup_place_done(&p);
                return r;
        }
        r = si_cgroup_new(&p, SI_CGROUP_MEMORY_MAX, &s->cg);
        if (r < 0)
                r = si_error(ctx, r == -ENOMEM ? r : -EOPNOTSUPP,
                             "Cannot run %s of %s in a sandbox: could not make its cgroup below "
                             "%s: %s; seinstall never runs a program of the target without it",
                             argv[0], ctx->root, p.where, strerror(-r));
        else
                si_debug(ctx, "The sandbox for %s runs in cgroup v%d %s/%s: at most %d processes%s",
                         argv[0], s->cg.version, p.where, s->cg.name, SI_CGROUP_PIDS_MAX,
                         s->cg.memory ? ", a memory limit" : ", no memory limit (no controller)");
        si_cgroup_place_done(&p);
        return r;
}

/* A detached copy of the mount @fd lies on, idmapped to the sandbox's user namespace: what
 * the host's root owns, its root owns. A filesystem the kernel cannot idmap is copied
 * read-only instead (its files then belong to nobody there), except the root, which must be
 * writable for update-grub: -EOPNOTSUPP. */
static int clone_mount(struct seinstall_ctx *ctx, struct sandbox *s, int fd, const char *rel,
                       const char *fstype)
{
        struct mount_attr idmap = {.attr_set =
                                       MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
                                   .userns_fd = (uint64_t) s->userns_fd};
        struct mount_attr ro = {.attr_set =
                                    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
        int tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH), r;

        if (tree < 0)
                return -errno;
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &idmap, sizeof(idmap)) == 0)
                return tree;
        r = -errno;
        if (streq(rel, "/") || (r != -EINVAL && r != -EOPNOTSUPP && r != -EPERM)) {
                close(tree);
                return r == -EINVAL || r == -EPERM ? -EOPNOTSUPP : r;
        }
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0) {
                r = -errno;
                close(tree);
                return r;
        }
        si_log(ctx, SEINSTALL_LOG_NOTICE,
               "%s%s (%s) is in the sandbox read-only and owned by nobody: this kernel cannot "
               "idmap it",
               ctx->root, rel, fstype);
        return tree;
}

/* The tree of the sandbox and its block devices, from the target's own mounts. */
static int add_own_mounts(struct seinstall_ctx *ctx, struct sandbox *s, const char *prog)
{
        struct si_own_mount *m = NULL;
        size_t n = 0;
        int r = si_mounts_own_list(ctx, &m, &n);

        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_close_ int fd = -EBADF;
                uint64_t id = 0;
                int tree;

                if (!streq(m[i].rel, "/") && covered(m[i].rel))
                        continue;
                fd = streq(m[i].rel, "/") ? fcntl(ctx->root_fd, F_DUPFD_CLOEXEC, 3)
                                          : si_root_open(ctx, m[i].rel, O_PATH | O_DIRECTORY, 0);
                /* a mount hidden under another one on the same point, or gone: not seen */
                if (fd < 0 || si_fd_mount_id(fd, "", AT_EMPTY_PATH, &id) < 0 || id != m[i].id)
                        continue;
                if (s->n_trees >= SANDBOX_TREES_MAX) {
                        r = -E2BIG;
                        break;
                }
                tree = clone_mount(ctx, s, fd, m[i].rel, m[i].fstype);
                if (tree < 0) {
                        r = tree == -EOPNOTSUPP
                                ? si_error(ctx, tree,
                                           "Cannot run %s of %s in a sandbox: this kernel cannot "
                                           "make an idmapped mount of the target's root (%s; "
                                           "Linux 5.12 or later for ext4 and xfs, 5.15 for "
                                           "btrfs); seinstall runs a program of the target "
                                           "only as a user that is not root outside the sandbox",
                                           prog, ctx->root, m[i].fstype)
                                : si_error(ctx, tree,
                                           "Cannot run %s of %s in a sandbox: copying the mount "
                                           "%s%s: %s",
                                           prog, ctx->root, ctx->root, m[i].rel, strerror(-tree));
                        break;
                }
                s->trees[s->n_trees] = tree;
                if (asprintf(&s->tree_dst[s->n_trees], "%s/root%s", s->stage,
                             streq(m[i].rel, "/") ? "" : m[i].rel) < 0) {
                        close(tree);
                        r = -ENOMEM;
                        break;
                }
                s->n_trees++;
                if (major(m[i].dev) == 0)
                        continue; /* tmpfs and the like: no device */
                if (!m[i].whole) {
                        si_log(ctx, SEINSTALL_LOG_NOTICE,
                               "%s%s is a directory of a filesystem that also holds files "
                               "outside the target: the sandbox gets no device of it, so %s "
                               "cannot probe it (grub-probe names no device, UUID or "
                               "filesystem for it)",
                               ctx->root, streq(m[i].rel, "/") ? "" : m[i].rel, prog);
                        continue;
                }
                r = si_sandbox_devs_add(s, m[i].dev);
        }
        si_own_mounts_free(m, n);
        if (r == -E2BIG)
                return si_error(ctx, r,
                                "Cannot run %s of %s in a sandbox: more than %d mounts or devices",
                                prog, ctx->root, SANDBOX_TREES_MAX);
        if (r >= 0 && s->n_trees == 0)
                return si_error(ctx, -ENOENT, "Cannot run %s of %s in a sandbox: no mount found",
                                prog, ctx->root);
        return r;
}

/* The ids the program runs as, and their user namespace. */
static int sandbox_userns(struct seinstall_ctx *ctx, struct sandbox *s, const char *prog)
{
        int r = si_uidrange_reserve(&s->ids);

        if (r < 0)
                return si_error(ctx, r,
                                "Cannot run %s of %s in a sandbox: no free range of %u host ids "
                                "for its user namespace (%s)",
                                prog, ctx->root, SI_USERNS_IDS, strerror(-r));
        r = si_userns_make(s->ids.base, &s->userns_fd);
        if (r < 0)
                return si_error(ctx, -EOPNOTSUPP,
                                "Cannot run %s of %s in a sandbox: this system allows no user "
                                "namespace (%s; see /proc/sys/user/max_user_namespaces); seinstall "
                                "runs a program of the target only as a user that is not root "
                                "outside the sandbox",
                                prog, ctx->root, strerror(-r));
        si_debug(ctx, "The sandbox for %s runs as host ids %u to %u", prog, (unsigned) s->ids.base,
                 (unsigned) (s->ids.base + SI_USERNS_IDS - 1));
        return 0;
}

static int sandbox_prepare(struct seinstall_ctx *ctx, struct sandbox *s, const char *const *argv)
{
        char proc[64], path[PATH_MAX];
        ssize_t l;
        int r;

        if (access(SEINSTALL_BWRAP, X_OK) < 0)
                return si_error(ctx, -ENOPKG,
                                "Cannot run %s of %s in a sandbox: %s: %m (install bubblewrap); "
                                "seinstall never runs a program of the target unconfined",
                                argv[0], ctx->root, SEINSTALL_BWRAP);
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", ctx->root_fd);
        l = readlink(proc, path, sizeof(path) - 1);
        if (l < 0)
                return -errno;
        path[l] = '\0';
        s->rootpath = strdup(path);
        if (!s->rootpath)
                return -ENOMEM;
        s->stage = pick_stage(s->rootpath);
        if (!s->stage)
                return si_error(ctx, -ENOENT,
                                "Cannot run %s of %s in a sandbox: no directory of the "
                                "installer (/run, /tmp, /mnt) to set it up on",
                                argv[0], ctx->root);
        r = sandbox_userns(ctx, s, argv[0]);
        if (r >= 0)
                r = add_own_mounts(ctx, s, argv[0]);
        if (r >= 0 && (r = si_sandbox_add_lower_devices(s)) < 0)
                r = si_error(ctx, r,
                             "Cannot run %s of %s in a sandbox: listing the devices its mounts "
                             "are made of (LVM, RAID): %s",
                             argv[0], ctx->root, r == -E2BIG ? "more than 64" : strerror(-r));
        if (r >= 0)
                r = si_sandbox_disk_links(ctx, s);
        if (r >= 0) {
                s->names = calloc(s->n_devs + 1, sizeof(*s->names));
                r = s->names ? 0 : -ENOMEM;
                for (size_t i = 0; r >= 0 && i < s->n_devs; i++)
                        if (!si_sandbox_dev_names(s->devs[i], &s->names[i]))
                                s->names[i].kname[0] = '\0';
        }
        if (r >= 0)
                r = build_args(ctx, s, argv);
        if (r >= 0)
                r = sandbox_cgroup(ctx, s, argv);
        return r;
}

int si_sandbox_probe(struct seinstall_ctx *ctx, const char *const *argv)
{
        struct sandbox s = {.cg = SI_CGROUP_NULL, .ids = SI_UIDRANGE_NULL, .userns_fd = -1};
        int r = streq(ctx->root, "/") ? 0 : sandbox_prepare(ctx, &s, argv);

        sandbox_done(&s);
        return r;
}

int si_run_in_target(struct seinstall_ctx *ctx, const char *const *argv)
{
        struct sandbox s = {.cg = SI_CGROUP_NULL, .ids = SI_UIDRANGE_NULL, .userns_fd = -1};
        struct si_watch w = SI_WATCH_INIT;
        struct si_relay relay = {.name = argv[0]};
        _cleanup_close_ int null = -EBADF, sec = -EBADF, ioctls = -EBADF;
        int outp[2] = {-1, -1}, infop[2] = {-1, -1}, r, status;
        const unsigned timeout_s =
            ctx->sandbox_timeout_s ? ctx->sandbox_timeout_s : SEINSTALL_SANDBOX_TIMEOUT_DEFAULT;

        w.sandboxed = !streq(ctx->root, "/");
        r = w.sandboxed ? sandbox_prepare(ctx, &s, argv) : 0;
        if (r >= 0 && w.sandboxed) {
                sec = si_sandbox_seccomp_memfd();
                if (sec < 0)
                        r = si_error(ctx, sec, "Could not build the seccomp filter for %s: %s",
                                     argv[0], strerror(-sec));
                ioctls = r >= 0 ? si_sandbox_ioctl_memfd() : -EBADF;
                if (r >= 0 && ioctls < 0)
                        r = si_error(ctx, ioctls, "Could not build the ioctl filter for %s: %s",
                                     argv[0], strerror(-ioctls));
        }
        if (r >= 0) {
                null = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (null < 0 || pipe2(outp, O_CLOEXEC) < 0 ||
                    (w.sandboxed && pipe2(infop, O_CLOEXEC) < 0))
                        r = -errno;
        }
        if (r >= 0) {
                w.pid = fork();
                if (w.pid < 0)
                        r = -errno;
                else if (w.pid == 0) {
                        if (w.sandboxed)
                                si_sandbox_child(&s, null, outp[1], sec, ioctls, infop[1]);
                        si_sandbox_plain_child(argv, null, outp[1]);
                }
        }
        if (infop[1] >= 0)
                close(infop[1]);
        if (outp[1] >= 0)
                close(outp[1]);
        if (r < 0) {
                if (outp[0] >= 0)
                        close(outp[0]);
                if (infop[0] >= 0)
                        close(infop[0]);
                sandbox_done(&s);
                return r;
        }
        w.out = outp[0];
        w.info = infop[0];
        w.cg = w.sandboxed ? &s.cg : NULL;
        w.timeout_s = timeout_s;
        w.feed = feed_relay;
        w.end = end_relay;
        w.feed_data = &relay;
        status = si_watch_run(ctx, &w);
        if (si_cgroup_remove(&s.cg) < 0)
                si_warn(ctx,
                        "A process of the sandbox for %s outlived 10 s of SIGKILL: its cgroup %s "
                        "is left behind",
                        argv[0], s.cg.name);
        if (w.out >= 0)
                close(w.out);
        if (w.pidfd >= 0)
                close(w.pidfd);
        r = status < 0 ? -errno : report(ctx, &w, argv, &relay, timeout_s, status);
        sbuf_free(&w.infotext);
        free(relay.last);
        sandbox_done(&s);
        return r;
}
