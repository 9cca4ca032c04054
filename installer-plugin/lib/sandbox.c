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
 */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/blkzoned.h>
#include <linux/btrfs.h>
#include <linux/fiemap.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/keyctl.h>
#include <linux/loop.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>
#include <linux/seccomp.h>
#include <linux/openat2.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <grp.h>
#include <stddef.h>
#include <termios.h>
#include <time.h>

#include "seinstall-private.h"
#include "sandbox-cgroup.h"
#include "runner.h"
#include "sandbox.h"

#ifndef SEINSTALL_BWRAP
#define SEINSTALL_BWRAP "/usr/bin/bwrap"
#endif

#define TIMEOUT_DEFAULT_S 300
#define TIMEOUT_MAX_S     86400
/* Per process of the sandbox: update-grub, its shell and grub-probe need a few MB. */
#define SANDBOX_AS_MAX    (2ULL << 30)
#define SANDBOX_FSIZE_MAX (1ULL << 30)
#define SANDBOX_NOFILE    1024
/* Block devices in the sandbox's /dev: the target's mounts and what they are made of. */
#define SANDBOX_DEVS_MAX 64
/* The target's own mounts the sandbox's tree is made of. */
#define SANDBOX_TREES_MAX 64

/* The descriptors the child hands to bwrap. */
enum { FD_SECCOMP = 3, FD_IOCTLS, FD_INFO, FD_USERNS, FD_TREES };

int si_sandbox_timeout(const char *text, unsigned *ret)
{
        char *end;
        unsigned long v;

        if (!text || !*text) {
                *ret = TIMEOUT_DEFAULT_S;
                return 0;
        }
        errno = 0;
        v = strtoul(text, &end, 10);
        if (errno || *end || end == text || text[0] == '-' || text[0] == '+' || v < 1 ||
            v > TIMEOUT_MAX_S)
                return -EINVAL;
        *ret = (unsigned) v;
        return 0;
}

/* ---- output ------------------------------------------------------------------------------ */

/* One line of the program's output, through the log as it came (NULs aside): the front end
 * escapes it for its terminal (seinstall's cli_esc(): \e, \x07, a backslash as \\) or its
 * JSON exactly once, as it does every other message naming something of the target. */
static void relay_line(struct seinstall_ctx *ctx, struct si_relay *r)
{
        if (r->shown >= SI_RELAY_MAX || r->lines >= SI_RELAY_LINES) {
                r->hidden += r->line.len + r->line_cut + 1;
        } else {
                const char *text = r->line.s ? r->line.s : "";
                char *last = strdup(text);

                r->lines++;
                si_log(ctx, SEINSTALL_LOG_NOTICE, "%s: %s%s", r->name, text,
                       r->line_cut ? " [line cut]" : "");
                if (last) {
                        free(r->last);
                        r->last = last;
                }
                r->shown += r->line.len + 1;
                r->hidden += r->line_cut;
        }
        sbuf_free(&r->line);
        r->line_cut = 0;
}

void si_relay_feed(struct seinstall_ctx *ctx, struct si_relay *r, const char *buf, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                if (buf[i] == '\n') {
                        relay_line(ctx, r);
                        continue;
                }
                if (r->line.len >= SI_RELAY_LINE_MAX || r->shown >= SI_RELAY_MAX ||
                    r->lines >= SI_RELAY_LINES) {
                        r->line_cut++;
                        continue;
                }
                /* A NUL would end the line early: U+FFFD, as for a byte that is not text. */
                if (buf[i] == '\0' ? sbuf_puts(&r->line, "\xef\xbf\xbd") < 0
                                   : sbuf_append(&r->line, buf + i, 1) < 0)
                        r->line_cut++;
        }
}

void si_relay_end(struct seinstall_ctx *ctx, struct si_relay *r)
{
        if (r->line.len || r->line_cut)
                relay_line(ctx, r);
        if (r->hidden)
                si_log(ctx, SEINSTALL_LOG_NOTICE,
                       "%s: %zu more bytes of output not shown (seinstall shows the first %u lines "
                       "or %u bytes)",
                       r->name, r->hidden, SI_RELAY_LINES, SI_RELAY_MAX);
        sbuf_free(&r->line);
}

/* ---- what goes into the sandbox ---------------------------------------------------------- */

/* A block device of the sandbox's /dev and its names (dev_names()). */
struct sandbox_dev {
        dev_t dev;
        char kname[NAME_MAX + 1];                /* "sda1"; empty: not made */
        char mapper[NAME_MAX + 1];               /* /dev/mapper/NAME, or empty */
        char vg[NAME_MAX + 1], lv[NAME_MAX + 1]; /* /dev/VG/LV, or empty */
};

struct sandbox {
        char **args;
        size_t n_args;
        dev_t *devs; /* the block devices of the target's own mounts */
        size_t n_devs;
        struct sandbox_dev *names; /* per device of @devs */
        char **uuids;              /* per device of @devs: its /dev/disk/by-uuid name, or NULL */
        char **partuuids;  /* per device of @devs: its /dev/disk/by-partuuid name, or NULL */
        const char *stage; /* where the child mounts its tmpfs: /dev and the tree */
        char *rootpath;    /* the root as this process sees it */
        struct si_cgroup cg;
        struct si_uidrange ids;
        int userns_fd;
        int trees[SANDBOX_TREES_MAX];      /* detached idmapped copies of the target's own mounts */
        char *tree_dst[SANDBOX_TREES_MAX]; /* where each goes: "<stage>/root/boot" */
        size_t n_trees;
};

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
        char **v = realloc(s->args, (s->n_args + 2) * sizeof(*v));

        if (!v)
                return -ENOMEM;
        s->args = v;
        v[s->n_args] = strdup(a);
        if (!v[s->n_args])
                return -ENOMEM;
        v[++s->n_args] = NULL;
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

/* The filter bwrap installs last, before it runs the program: what a root without
 * capabilities could still do to the installer, or to the kernel's less tried corners. */
static int seccomp_memfd(void)
{
        static const int eperm[] = {SCMP_SYS(keyctl),
                                    SCMP_SYS(add_key),
                                    SCMP_SYS(request_key),
                                    SCMP_SYS(unshare),
                                    SCMP_SYS(setns),
                                    SCMP_SYS(mount),
                                    SCMP_SYS(umount2),
                                    SCMP_SYS(pivot_root),
                                    SCMP_SYS(move_mount),
                                    SCMP_SYS(open_tree),
                                    SCMP_SYS(fsopen),
                                    SCMP_SYS(fsmount),
                                    SCMP_SYS(fsconfig),
                                    SCMP_SYS(fspick),
                                    SCMP_SYS(mount_setattr),
                                    SCMP_SYS(bpf),
                                    SCMP_SYS(perf_event_open),
                                    SCMP_SYS(userfaultfd),
                                    SCMP_SYS(ptrace),
                                    SCMP_SYS(process_vm_writev),
                                    SCMP_SYS(kexec_load),
                                    SCMP_SYS(kexec_file_load),
                                    SCMP_SYS(init_module),
                                    SCMP_SYS(finit_module),
                                    SCMP_SYS(delete_module),
                                    SCMP_SYS(syslog),
                                    SCMP_SYS(acct),
                                    SCMP_SYS(swapon),
                                    SCMP_SYS(swapoff),
                                    SCMP_SYS(reboot),
                                    SCMP_SYS(open_by_handle_at),
                                    SCMP_SYS(name_to_handle_at)};
        static const int enosys[] = {SCMP_SYS(clone3), SCMP_SYS(io_uring_setup),
                                     SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register)};
        const unsigned long ns = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
                                 CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
        scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
        int fd = -1, r = 0;

        if (!f)
                return -ENOMEM;
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(eperm); i++)
                r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), eperm[i], 0);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(enosys); i++)
                r = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), enosys[i], 0);
        /* Typing into a terminal, and the console's own ioctl; the request is an int. */
        if (r >= 0)
                r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, TIOCSTI));
        if (r >= 0)
                r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, TIOCLINUX));
        /* clone with a namespace flag; clone3 (flags behind a pointer) is ENOSYS above, so
         * that the C library falls back to clone. */
        for (unsigned long bit = 1; r >= 0 && bit; bit <<= 1)
                if (ns & bit)
                        r = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                             SCMP_A0(SCMP_CMP_MASKED_EQ, bit, bit));
        if (r >= 0) {
                fd = memfd_create("seinstall-seccomp", MFD_CLOEXEC);
                r = fd < 0 ? -errno : 0;
        }
        if (r >= 0)
                r = seccomp_export_bpf(f, fd);
        if (r >= 0 && lseek(fd, 0, SEEK_SET) < 0)
                r = -errno;
        seccomp_release(f);
        if (r < 0) {
                if (fd >= 0)
                        close(fd);
                return r;
        }
        return fd;
}

/* The ioctls a program of the target may make: what a shell, coreutils and grub-probe ask of
 * a terminal, a block device or a filesystem, none of which changes anything. Every other
 * one (LOOP_CLR_FD, LOOP_SET_FD and LOOP_CONFIGURE, which the loop driver allows on a
 * read-only descriptor without a capability; BLKDISCARD; a filesystem's writing ioctls) is
 * ENOTTY, as from a file that does not know it. */
/* clang-format off */
static const uint32_t ioctl_allowed[] = {
    /* a terminal's and any descriptor's */
    TCGETS, TIOCGWINSZ, TIOCGPGRP, FIONREAD, FIOCLEX, FIONCLEX, FIONBIO,
    /* a block device's geometry and flags */
    BLKGETSIZE, BLKGETSIZE64, BLKSSZGET, BLKPBSZGET, BLKBSZGET, BLKIOMIN, BLKIOOPT, BLKALIGNOFF,
    BLKROGET, BLKRAGET, BLKSECTGET, BLKDISCARDZEROES, BLKROTATIONAL, BLKGETZONESZ, BLKGETNRZONES,
    HDIO_GETGEO, LOOP_GET_STATUS, LOOP_GET_STATUS64,
    /* a filesystem's */
    FS_IOC_GETFLAGS, FS_IOC_GETVERSION, FS_IOC_FIEMAP, FIGETBSZ, FS_IOC_GETFSLABEL,
    FS_IOC_FSGETXATTR, BTRFS_IOC_FS_INFO, BTRFS_IOC_DEV_INFO, BTRFS_IOC_INO_LOOKUP,
    BTRFS_IOC_GET_SUBVOL_INFO,
    /* an md array's own queries: grub-probe reads its level and members with them */
    RAID_VERSION, GET_ARRAY_INFO, GET_DISK_INFO,
};
/* clang-format on */

bool si_sandbox_ioctl_allowed(unsigned long request)
{
        for (size_t i = 0; i < ELEMENTSOF(ioctl_allowed); i++)
                if ((uint32_t) request == ioctl_allowed[i])
                        return true;
        return false;
}

/* The allowlist as a classic BPF program for bwrap's --add-seccomp-fd: ioctl with another
 * request is ENOTTY. Another architecture's calls pass here: the other filter (libseccomp's,
 * native only) kills them. The request is an int: its low 32 bits are compared. */
static int ioctl_filter_memfd(void)
{
        struct sock_filter prog[ELEMENTSOF(ioctl_allowed) + 8];
        const uint8_t n = (uint8_t) ELEMENTSOF(ioctl_allowed);
        size_t k = 0;
        ssize_t len;
        int fd;

        prog[k++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                  offsetof(struct seccomp_data, arch));
        /* jump to the ALLOW at the end: n compares + ld args + ret errno + (ld nr, jeq) */
        prog[k++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, seccomp_arch_native(),
                                                  0, (uint8_t) (n + 4));
        prog[k++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                  offsetof(struct seccomp_data, nr));
        prog[k++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0,
                                                  (uint8_t) (n + 2));
        prog[k++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                  offsetof(struct seccomp_data, args[1])
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                                                      + 4
#endif
        );
        for (uint8_t i = 0; i < n; i++)
                prog[k++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                          ioctl_allowed[i], (uint8_t) (n - i), 0);
        prog[k++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K,
                                                  SECCOMP_RET_ERRNO | (ENOTTY & SECCOMP_RET_DATA));
        prog[k++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        fd = memfd_create("seinstall-seccomp-ioctl", MFD_CLOEXEC);
        if (fd < 0)
                return -errno;
        len = (ssize_t) (k * sizeof(prog[0]));
        if (write(fd, prog, (size_t) len) != len || lseek(fd, 0, SEEK_SET) < 0) {
                int r = errno ? -errno : -EIO;
                close(fd);
                return r;
        }
        return fd;
}

/* ---- the child ----------------------------------------------------------------------------- */

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

/* The kernel's name of block device @d ("sda1", "cciss/c0d0"), or false. */
static bool block_name(dev_t d, char *name, size_t size)
{
        char sys[96], link[PATH_MAX], *base;
        ssize_t l;

        snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(d), minor(d));
        l = readlink(sys, link, sizeof(link) - 1);
        if (l < 0)
                return false;
        link[l] = '\0';
        base = strrchr(link, '/');
        if ((size_t) snprintf(name, size, "%s", base ? base + 1 : link) >= size)
                return false;
        for (char *p = name; (p = strchr(p, '!'));)
                *p = '/';
        return !strstr(name, "..") && *name;
}

/* The first line of /sys/dev/block/MAJ:MIN/@what, or false. */
static bool read_sys(dev_t d, const char *what, char *buf, size_t size)
{
        char path[128];
        ssize_t n;
        int fd;

        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(d), minor(d), what);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return false;
        n = read(fd, buf, size - 1);
        close(fd);
        if (n <= 0)
                return false;
        buf[n] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        return *buf != '\0';
}

static bool plain_name(const char *name)
{
        return *name && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* A name the sandbox's /dev has of its own: a volume group named so gets no /dev/VG. */
static bool dev_name_taken(const char *name)
{
        static const char *const own[] = {"null",  "zero",   "full",   "random",  "urandom", "fd",
                                          "stdin", "stdout", "stderr", "disk",    "mapper",  "pts",
                                          "shm",   "mqueue", "ptmx",   "console", "tty"};

        for (size_t i = 0; i < ELEMENTSOF(own); i++)
                if (streq(name, own[i]))
                        return true;
        return false;
}

/* LVM's name of a volume's mapping, "VG-LV" with each '-' of VG and LV doubled, split. */
static bool lvm_split(const char *name, char *vg, char *lv, size_t size)
{
        char *out = vg;
        size_t n = 0;

        for (const char *p = name; *p; p++) {
                if (n + 1 >= size)
                        return false;
                if (p[0] == '-' && p[1] == '-')
                        p++;
                else if (*p == '-' && out == vg) {
                        vg[n] = '\0';
                        out = lv, n = 0;
                        continue;
                }
                out[n++] = *p;
        }
        out[n] = '\0';
        return out == lv && plain_name(vg) && plain_name(lv);
}

/* The names of the sandbox's block device @d, read in the parent (the child only makes the
 * nodes): its kernel name and, for a device-mapper device, udev's /dev/mapper/NAME (which
 * grub-probe looks for; it skips the kernel's dm-N) and for an LVM volume /dev/VG/LV. A name
 * the target's metadata chose (dm/name comes from LVM's) never takes one of the sandbox's own. */
static bool dev_names(dev_t d, struct sandbox_dev *n)
{
        char uuid[8];

        *n = (struct sandbox_dev){.dev = d};
        if (!block_name(d, n->kname, sizeof(n->kname)))
                return false;
        if (strchr(n->kname, '/') || !read_sys(d, "dm/name", n->mapper, sizeof(n->mapper)) ||
            !plain_name(n->mapper) || strlen(n->mapper) > NAME_MAX - 8) {
                n->mapper[0] = '\0';
                return true;
        }
        if (!read_sys(d, "dm/uuid", uuid, sizeof(uuid)) || strncmp(uuid, "LVM-", 4) != 0 ||
            !lvm_split(n->mapper, n->vg, n->lv, sizeof(n->vg)) || dev_name_taken(n->vg))
                n->vg[0] = n->lv[0] = '\0';
        return true;
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

/* The sandbox's /dev, on a tmpfs in this (private) mount namespace: the harmless character
 * devices, and the target's own block devices readable by their owner only. */
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

static _Noreturn void sandbox_child(const struct sandbox *s, int null, int out, int seccomp_fd,
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

/* The running system's own program: only the session, descriptors and limits. */
static _Noreturn void plain_child(const char *const *argv, int null, int out)
{
        const int fds[] = {null, out, out};
        const int at[] = {0, 1, 2};

        child_fds(fds, at, ELEMENTSOF(fds), 3);
        if (setsid() < 0)
                child_fail("a new session");
        execv(argv[0], (char *const *) argv);
        child_fail(argv[0]);
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
                return si_error(ctx, -EPERM,
                                "Could not set up the sandbox for %s in %s (%s): seinstall runs "
                                "a program of the target only in a sandbox; nothing ran",
                                argv[0], ctx->root,
                                relay->last ? relay->last : "bwrap gave no reason");
        if (code == 0)
                return 0;
        if (code > 128 && code < 128 + 65)
                return si_error(ctx, -EIO,
                                "%s failed in %s (killed by signal %d, SIG%s%s): run it there "
                                "by hand",
                                argv[0], ctx->root, code - 128,
                                sigabbrev_np(code - 128) ? sigabbrev_np(code - 128) : "?",
                                code - 128 == SIGKILL || code - 128 == SIGSEGV
                                    ? ", at the sandbox's memory limit?"
                                    : "");
        return si_error(ctx, -EIO, "%s failed in %s (exit status %d): run it there by hand",
                        argv[0], ctx->root, code);
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

DEFINE_CLEANUP_FUNC(DIR *, closedir)

/* Whether @d is listed already; if not, add it (up to SANDBOX_DEVS_MAX). */
static int devs_add(struct sandbox *s, dev_t d)
{
        dev_t *v;

        for (size_t i = 0; i < s->n_devs; i++)
                if (s->devs[i] == d)
                        return 0;
        if (s->n_devs >= SANDBOX_DEVS_MAX)
                return -E2BIG;
        v = realloc(s->devs, (s->n_devs + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        s->devs = v;
        s->devs[s->n_devs++] = d;
        return 0;
}

/* How many devices are built on block device @d (its "holders" in sysfs): -1 unknown. */
static int count_holders(dev_t d)
{
        char path[96];
        _cleanup_(closedirp) DIR *dir = NULL;
        struct dirent *de;
        int n = 0;

        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(d), minor(d));
        dir = opendir(path);
        if (!dir)
                return -1;
        while ((de = readdir(dir)))
                n += de->d_name[0] != '.';
        return n;
}

/* The devices an md array or a device-mapper device of the target is made of (its "slaves" in
 * sysfs), and theirs: grub-probe reads a RAID's superblocks and an encrypted volume's header
 * itself. Only what holds nothing else: a device below that also holds another array or volume
 * is left out, and so is everything below an LVM volume (its physical volumes hold the group's
 * other volumes). Each entry is added to the end of the list, which this walks on. */
static int add_lower_devices(struct sandbox *s)
{
        for (size_t i = 0; i < s->n_devs; i++) {
                char path[96], dmuuid[8];
                _cleanup_(closedirp) DIR *dir = NULL;
                struct dirent *de;

                if (read_sys(s->devs[i], "dm/uuid", dmuuid, sizeof(dmuuid)) &&
                    startswith(dmuuid, "LVM-"))
                        continue;
                snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/slaves", major(s->devs[i]),
                         minor(s->devs[i]));
                dir = opendir(path);
                while (dir && (de = readdir(dir))) {
                        char dev[96], num[32];
                        unsigned ma, mi;
                        _cleanup_fclose_ FILE *f = NULL;
                        int r;

                        if (de->d_name[0] == '.' ||
                            (size_t) snprintf(dev, sizeof(dev), "%s/%s/dev", path, de->d_name) >=
                                sizeof(dev))
                                continue;
                        f = fopen(dev, "re");
                        if (!f || !fgets(num, sizeof(num), f) ||
                            sscanf(num, "%u:%u", &ma, &mi) != 2 ||
                            count_holders(makedev(ma, mi)) != 1)
                                continue;
                        r = devs_add(s, makedev(ma, mi));
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

bool si_sandbox_link_name_ok(const char *name)
{
        size_t n = strnlen(name, SI_SANDBOX_LINK_NAME_MAX + 1);

        if (n == 0 || n > SI_SANDBOX_LINK_NAME_MAX || streq(name, ".") || strstr(name, ".."))
                return false;
        for (const char *p = name; *p; p++)
                if (!isascii((unsigned char) *p) ||
                    (!isalnum((unsigned char) *p) && !strchr("#+-.:=@_", *p)))
                        return false;
        return true;
}

/* @key of @pr as the name of a link in the sandbox's /dev/disk/@dir, or NULL (none, or one
 * refused, which is said at debug level). */
static char *link_name(struct seinstall_ctx *ctx, blkid_probe pr, const char *key, dev_t d,
                       const char *dir)
{
        const char *v = NULL;

        if (blkid_probe_lookup_value(pr, key, &v, NULL) < 0 || !v || !*v)
                return NULL;
        if (!si_sandbox_link_name_ok(v)) {
                si_debug(ctx,
                         "Block device %u:%u gets no /dev/disk/%s link in the sandbox: its %s "
                         "\"%.64s\" is not a name udev makes a link of (letters, digits, "
                         "#+-.:=@_, at most %d)",
                         major(d), minor(d), dir, key, v, SI_SANDBOX_LINK_NAME_MAX);
                return NULL;
        }
        return strdup(v);
}

static void free_probep(blkid_probe *p)
{
        if (*p)
                blkid_free_probe(*p);
}

/* The filesystem UUID and the partition UUID of block device @d as udev's 60-persistent-
 * storage.rules link them: probed read-only with libblkid (blkid_do_safeprobe, as udev's
 * builtin), the UUID only of a filesystem, swap or encrypted container, never of a RAID or LVM
 * member. An LVM volume gets no by-uuid name: outside the sandbox grub-probe sees it as LVM and
 * GRUB writes root=/dev/mapper/VG-LV; in it (no device-mapper ioctl without CAP_SYS_ADMIN) it
 * does not, and the link would turn that into root=UUID=. */
static int probe_ids(struct seinstall_ctx *ctx, dev_t d, char **ret_uuid, char **ret_partuuid)
{
        _cleanup_free_ char *path = blkid_devno_to_devname(d);
        _cleanup_(free_probep) blkid_probe pr = NULL;
        _cleanup_close_ int fd = -EBADF;
        const char *usage = NULL;
        char dmuuid[8];
        struct stat st;
        int r;

        if (!path)
                return 0;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != d)
                return 0;
        pr = blkid_new_probe();
        if (!pr)
                return -ENOMEM;
        if (blkid_probe_set_device(pr, fd, 0, 0) < 0)
                return 0;
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE |
                                                  BLKID_SUBLKS_USAGE);
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
        r = blkid_do_safeprobe(pr);
        if (r != 0)
                return 0;
        (void) blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
        if (usage &&
            (streq(usage, "filesystem") || streq(usage, "other") || streq(usage, "crypto")) &&
            !(read_sys(d, "dm/uuid", dmuuid, sizeof(dmuuid)) && startswith(dmuuid, "LVM-")))
                *ret_uuid = link_name(ctx, pr, "UUID", d, "by-uuid");
        *ret_partuuid = link_name(ctx, pr, "PART_ENTRY_UUID", d, "by-partuuid");
        return 0;
}

/* Drop @v[@i] when a device before it took that name: udev's link points to one of them (the
 * one of the highest link priority, else the one its events came last for); the sandbox's to
 * the first, the target's own mounts coming before what they are made of. */
static void drop_taken(struct seinstall_ctx *ctx, const struct sandbox *s, char **v, size_t i,
                       const char *dir)
{
        for (size_t j = 0; v[i] && j < i; j++) {
                if (!v[j] || !streq(v[j], v[i]))
                        continue;
                si_debug(ctx,
                         "Block devices %u:%u and %u:%u carry the same name %s: the sandbox's "
                         "/dev/disk/%s/%s points to the first",
                         major(s->devs[j]), minor(s->devs[j]), major(s->devs[i]), minor(s->devs[i]),
                         v[i], dir, v[i]);
                free(v[i]);
                v[i] = NULL;
        }
}

/* The names of the sandbox's /dev/disk/by-uuid and by-partuuid links: GRUB's 10_linux writes
 * root=UUID= only when /dev/disk/by-uuid/UUID exists, else the installer's kernel name of the
 * device, which may be another at the target's boot. */
static int disk_links(struct seinstall_ctx *ctx, struct sandbox *s)
{
        s->uuids = calloc(s->n_devs + 1, sizeof(char *));
        s->partuuids = calloc(s->n_devs + 1, sizeof(char *));
        if (!s->uuids || !s->partuuids)
                return -ENOMEM;
        for (size_t i = 0; i < s->n_devs; i++) {
                int r = probe_ids(ctx, s->devs[i], &s->uuids[i], &s->partuuids[i]);
                if (r < 0)
                        return r;
                drop_taken(ctx, s, s->uuids, i, "by-uuid");
                drop_taken(ctx, s, s->partuuids, i, "by-partuuid");
        }
        return 0;
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
                r = devs_add(s, m[i].dev);
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
        if (r >= 0 && (r = add_lower_devices(s)) < 0)
                r = si_error(ctx, r,
                             "Cannot run %s of %s in a sandbox: listing the devices its mounts "
                             "are made of (LVM, RAID): %s",
                             argv[0], ctx->root, r == -E2BIG ? "more than 64" : strerror(-r));
        if (r >= 0)
                r = disk_links(ctx, s);
        if (r >= 0) {
                s->names = calloc(s->n_devs + 1, sizeof(*s->names));
                r = s->names ? 0 : -ENOMEM;
                for (size_t i = 0; r >= 0 && i < s->n_devs; i++)
                        if (!dev_names(s->devs[i], &s->names[i]))
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
        const char *limit = secure_getenv("SEINSTALL_SANDBOX_TIMEOUT");
        _cleanup_close_ int null = -EBADF, sec = -EBADF, ioctls = -EBADF;
        int outp[2] = {-1, -1}, infop[2] = {-1, -1}, r, status;
        unsigned timeout_s;

        if (si_sandbox_timeout(limit, &timeout_s) < 0)
                return si_error(ctx, -EINVAL,
                                "SEINSTALL_SANDBOX_TIMEOUT=%s is not a number of seconds from 1 "
                                "to %u",
                                limit, TIMEOUT_MAX_S);
        w.sandboxed = !streq(ctx->root, "/");
        r = w.sandboxed ? sandbox_prepare(ctx, &s, argv) : 0;
        if (r >= 0 && w.sandboxed) {
                sec = seccomp_memfd();
                if (sec < 0)
                        r = si_error(ctx, sec, "Could not build the seccomp filter for %s: %s",
                                     argv[0], strerror(-sec));
                ioctls = r >= 0 ? ioctl_filter_memfd() : -EBADF;
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
                                sandbox_child(&s, null, outp[1], sec, ioctls, infop[1]);
                        plain_child(argv, null, outp[1]);
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
