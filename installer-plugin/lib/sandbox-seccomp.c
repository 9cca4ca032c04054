/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-seccomp.c — the two seccomp filters bwrap installs last, before it runs the target's
 * program: the system calls a root without capabilities could still turn against the
 * installer or the kernel's less tried corners (libseccomp), and an allowlist of ioctls (the
 * read-only queries of terminals, block devices and filesystems that grub-probe and a shell
 * make), as classic BPF for --add-seccomp-fd.
 */
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <linux/btrfs.h>
#include <linux/fiemap.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/loop.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <termios.h>

#include "seinstall-private.h"
#include "sandbox-internal.h"

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

/* The filter bwrap installs last, before it runs the program: what a root without
 * capabilities could still do to the installer, or to the kernel's less tried corners. */
int si_sandbox_seccomp_memfd(void)
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
int si_sandbox_ioctl_memfd(void)
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
