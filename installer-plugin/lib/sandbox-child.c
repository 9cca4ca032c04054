/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-child.c — the forked child's half of the sandbox (sandbox.c says what it is): into
 * the cgroup first, the descriptors bwrap gets and no other, a new session and session
 * keyring, a private mount namespace with the sandbox's /dev and the tree of the target's
 * idmapped mounts staged, then root of the user namespace, the rlimits, and bwrap. Only
 * system calls here, and a failure is one line on stderr (the relay) and exit status 127.
 */
#include <fcntl.h>
#include <grp.h>
#include <linux/keyctl.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "seinstall-private.h"
#include "sandbox-internal.h"

/* Per process of the sandbox: update-grub, its shell and grub-probe need a few MB. */
#define SANDBOX_AS_MAX    (2ULL << 30)
#define SANDBOX_FSIZE_MAX (1ULL << 30)
#define SANDBOX_NOFILE    1024

/* In the child: why it stops, on its stderr (the relay); only system calls, no stdio. */
static _Noreturn void child_fail(const char *what)
{
        const char *name = strerrorname_np(errno);

        (void) !write(STDERR_FILENO, "seinstall sandbox: ", 19);
        (void) !write(STDERR_FILENO, what, strlen(what));
        (void) !write(STDERR_FILENO, ": ", 2);
        (void) !write(STDERR_FILENO, name ? name : "error", strlen(name ? name : "error"));
        (void) !write(STDERR_FILENO, "\n", 1);
        _exit(127);
}

/* @dir/@name, a device node of mode @mode owned by @owner (the user namespace's root for the
 * block devices, which it alone may read; root for the character devices, open to all). */
static void make_node(const char *dir, const char *name, mode_t mode, dev_t d, uid_t owner)
{
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                if (mkdir(path, 0755) < 0 && errno != EEXIST)
                        child_fail("making a directory of the sandbox's /dev");
                *p = '/';
        }
        if (mknod(path, mode, d) < 0 && errno != EEXIST)
                child_fail("making a device node of the sandbox's /dev");
        if (chmod(path, mode & 07777) < 0 || chown(path, owner, owner) < 0)
                child_fail("setting a device node's mode and owner");
}

/* @dir/disk/@sub/@name, a link to the device node @node ("../../sda1"), as udev makes it. */
static void make_disk_link(const char *dir, const char *sub, const char *name, const char *node)
{
        char path[PATH_MAX], target[PATH_MAX];

        if (!name)
                return;
        if ((size_t) snprintf(path, sizeof(path), "%s/disk", dir) >= sizeof(path) ||
            (mkdir(path, 0755) < 0 && errno != EEXIST))
                child_fail("making the sandbox's /dev/disk");
        if ((size_t) snprintf(path, sizeof(path), "%s/disk/%s", dir, sub) >= sizeof(path) ||
            (mkdir(path, 0755) < 0 && errno != EEXIST))
                child_fail("making a directory of the sandbox's /dev/disk");
        if ((size_t) snprintf(path, sizeof(path), "%s/disk/%s/%s", dir, sub, name) >=
                sizeof(path) ||
            (size_t) snprintf(target, sizeof(target), "../../%s", node) >= sizeof(target))
                return;
        if (symlink(target, path) < 0 && errno != EEXIST)
                child_fail("making a link in the sandbox's /dev/disk");
}

/* In the child: @n's /dev/mapper node and /dev/VG/LV link. */
static void dm_nodes(const char *dir, const struct sandbox_dev *n, uid_t owner)
{
        char path[PATH_MAX], target[NAME_MAX + 4];

        if (!n->mapper[0])
                return;
        snprintf(path, sizeof(path), "mapper/%s", n->mapper);
        make_node(dir, path, S_IFBLK | 0400, n->dev, owner);
        if (!n->vg[0])
                return;
        if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, n->vg) >= sizeof(path))
                return;
        if (mkdir(path, 0755) < 0 && errno != EEXIST)
                child_fail("making a directory of the sandbox's /dev");
        if ((size_t) snprintf(path, sizeof(path), "%s/%s/%s", dir, n->vg, n->lv) >= sizeof(path))
                return;
        snprintf(target, sizeof(target), "../%s", n->kname);
        if (symlink(target, path) < 0 && errno != EEXIST)
                child_fail("making a link in the sandbox's /dev");
}

/* Whether this namespace's root is the initial ramfs ("rootfs"), as in an installer running
 * from its initramfs (debian-installer, the end-to-end test's): pivot_root(2), which bwrap
 * needs, refuses a root that is not mounted on anything. Read with a plain buffer: this runs
 * in the forked child. */
static bool root_is_rootfs(void)
{
        static char buf[65536];
        ssize_t n = 0, k;
        int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

        if (fd < 0)
                return false;
        while (n < (ssize_t) sizeof(buf) - 1 &&
               (k = read(fd, buf + n, sizeof(buf) - 1 - (size_t) n)) > 0)
                n += k;
        close(fd);
        buf[n > 0 ? n : 0] = '\0';
        /* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS] - FSTYPE SOURCE SUPER" */
        for (char *line = buf, *next; line && *line; line = next) {
                char mp[8], fstype[16];
                const char *dash;

                next = strchr(line, '\n');
                if (next)
                        *next++ = '\0';
                dash = strstr(line, " - ");
                if (dash && sscanf(line, "%*s %*s %*s %*s %7s", mp) == 1 && strcmp(mp, "/") == 0 &&
                    sscanf(dash, " - %15s", fstype) == 1)
                        return strcmp(fstype, "rootfs") == 0;
        }
        return false;
}

/* In a private mount namespace whose root is the initramfs: put a recursive bind of it over
 * it and enter that (switch_root's move and chroot), so the root is a mount bwrap can pivot
 * away from. The same tree, every mount of it included. */
static void root_make_pivotable(const char *dir)
{
        if (mount("/", dir, NULL, MS_BIND | MS_REC, NULL) < 0 || chdir(dir) < 0 ||
            mount(".", "/", NULL, MS_MOVE, NULL) < 0 || chroot(".") < 0 || chdir("/") < 0)
                child_fail("binding the initramfs root over itself for the sandbox");
}

/* The sandbox's /dev, on a tmpfs in this (private) mount namespace: the harmless character
 * devices, and the target's own block devices readable by their owner only. */
static void stage_dev(const struct sandbox *s)
{
        static const struct {
                const char *name;
                unsigned minor;
        } chr[] = {{"null", 3}, {"zero", 5}, {"full", 7}, {"random", 8}, {"urandom", 9}};
        static const char *const links[][2] = {{"fd", "/proc/self/fd"},
                                               {"stdin", "/proc/self/fd/0"},
                                               {"stdout", "/proc/self/fd/1"},
                                               {"stderr", "/proc/self/fd/2"}};
        char dir[PATH_MAX], path[PATH_MAX];
        const uid_t owner = s->ids.base;

        if (unshare(CLONE_NEWNS) < 0)
                child_fail("a private mount namespace");
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                child_fail("making the mounts private");
        if (root_is_rootfs())
                root_make_pivotable(s->stage);
        if (mount("seinstall-sandbox", s->stage, "tmpfs", MS_NOSUID | MS_NOEXEC,
                  "mode=0755,size=1m") < 0)
                child_fail("mounting the sandbox's /dev");
        snprintf(dir, sizeof(dir), "%s/dev", s->stage);
        if (mkdir(dir, 0755) < 0)
                child_fail("making the sandbox's /dev");
        for (size_t i = 0; i < ELEMENTSOF(chr); i++)
                make_node(dir, chr[i].name, S_IFCHR | 0666, makedev(1, chr[i].minor), 0);
        for (size_t i = 0; i < ELEMENTSOF(links); i++) {
                if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, links[i][0]) >=
                        sizeof(path) ||
                    symlink(links[i][1], path) < 0)
                        child_fail("making a link in the sandbox's /dev");
        }
        for (size_t i = 0; i < s->n_devs; i++) {
                const struct sandbox_dev *n = &s->names[i];
                if (!n->kname[0])
                        continue;
                make_node(dir, n->kname, S_IFBLK | 0400, n->dev, owner);
                make_disk_link(dir, "by-uuid", s->uuids[i], n->kname);
                make_disk_link(dir, "by-partuuid", s->partuuids[i], n->kname);
                dm_nodes(dir, n, owner);
        }
}

/* The tree the program sees as "/", on @s->stage/root: the idmapped copies of the target's own
 * mounts, each attached where it is in the target, a mount before those below it. Each place
 * is opened without following a symbolic link. */
static void stage_root(const struct sandbox *s)
{
        char dir[PATH_MAX];

        snprintf(dir, sizeof(dir), "%s/root", s->stage);
        if (mkdir(dir, 0755) < 0)
                child_fail("making the sandbox's root");
        for (size_t i = 0; i < s->n_trees; i++) {
                struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
                                       .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
                int at = (int) syscall(SYS_openat2, AT_FDCWD, s->tree_dst[i], &how, sizeof(how));

                if (at < 0)
                        child_fail("opening a mount point of the sandbox's tree");
                if (move_mount(FD_TREES + (int) i, "", at, "",
                               MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                        child_fail("attaching a mount of the target to the sandbox's tree");
                close(at);
        }
        /* Read-only here: bwrap's --remount-ro would add nodev. */
        if (mount(NULL, s->stage, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL) < 0)
                child_fail("making the sandbox's /dev read-only");
}

/* Become root of the user namespace: host ids @s->ids.base and up from here on. */
static void enter_userns(void)
{
        if (setns(FD_USERNS, CLONE_NEWUSER) < 0)
                child_fail("entering the sandbox's user namespace");
        if (setgroups(0, NULL) < 0 || setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
                child_fail("becoming root of the sandbox's user namespace");
}

static void child_limits(void)
{
        const struct {
                int resource;
                rlim_t max;
        } lim[] = {{RLIMIT_AS, SANDBOX_AS_MAX},
                   {RLIMIT_FSIZE, SANDBOX_FSIZE_MAX},
                   {RLIMIT_NOFILE, SANDBOX_NOFILE},
                   {RLIMIT_CORE, 0},
                   {RLIMIT_MEMLOCK, 0},
                   {RLIMIT_MSGQUEUE, 0}};

        for (size_t i = 0; i < ELEMENTSOF(lim); i++) {
                struct rlimit rl;
                if (getrlimit(lim[i].resource, &rl) < 0)
                        child_fail("reading a resource limit");
                if (rl.rlim_max > lim[i].max || rl.rlim_max == RLIM_INFINITY)
                        rl.rlim_max = lim[i].max;
                rl.rlim_cur = rl.rlim_max;
                if (setrlimit(lim[i].resource, &rl) < 0)
                        child_fail("setting a resource limit");
        }
}

/* Put @fds[i] at descriptor @at[i] (not close-on-exec), close everything from @first_free. */
static void child_fds(const int *fds, const int *at, size_t n, int first_free)
{
        int high[FD_TREES + SANDBOX_TREES_MAX];

        for (size_t i = 0; i < n; i++)
                if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 16)) < 0)
                        _exit(127);
        for (size_t i = 0; i < n; i++)
                if (dup2(high[i], at[i]) < 0)
                        _exit(127);
        if (close_range((unsigned) first_free, ~0U, 0) < 0)
                child_fail("closing descriptors");
}

_Noreturn void si_sandbox_child(const struct sandbox *s, int null, int out, int seccomp_fd,
                                int ioctl_fd, int info)
{
        static char *const env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
        int fds[FD_TREES + SANDBOX_TREES_MAX] = {null,     out,  out,         seccomp_fd,
                                                 ioctl_fd, info, s->userns_fd};
        int at[FD_TREES + SANDBOX_TREES_MAX] = {0, 1, 2, FD_SECCOMP, FD_IOCTLS, FD_INFO, FD_USERNS};

        /* first, so that nothing of the sandbox ever runs outside the cgroup's limits */
        if (si_cgroup_join(&s->cg) < 0)
                child_fail("moving into the sandbox's cgroup");
        for (size_t i = 0; i < s->n_trees; i++) {
                fds[FD_TREES + i] = s->trees[i];
                at[FD_TREES + i] = FD_TREES + (int) i;
        }
        child_fds(fds, at, FD_TREES + s->n_trees, FD_TREES + (int) s->n_trees);
        if (setsid() < 0)
                child_fail("a new session");
        /* A new, empty session keyring; the seccomp filter keeps the user keyring out. */
        if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
                child_fail("a new session keyring");
        stage_dev(s);
        stage_root(s);
        enter_userns();
        /* the tree is attached and the namespace entered: nothing but bwrap's descriptors */
        if (close_range(FD_USERNS, ~0U, 0) < 0)
                child_fail("closing descriptors");
        child_limits();
        execve(s->args[0], s->args, env);
        child_fail("running " SEINSTALL_BWRAP);
}

_Noreturn void si_sandbox_plain_child(const char *const *argv, int null, int out)
{
        const int fds[] = {null, out, out};
        const int at[] = {0, 1, 2};

        child_fds(fds, at, ELEMENTSOF(fds), 3);
        if (setsid() < 0)
                child_fail("a new session");
        execv(argv[0], (char *const *) argv);
        child_fail(argv[0]);
}
