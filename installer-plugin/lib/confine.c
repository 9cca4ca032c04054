/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * confine.c — running something of the target on the installer without handing it the
 * installer: the policy build (policybuild.c) and update-grub for apply --regenerate. Both run
 * in a forked child that calls these before it runs the target's code.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "seinstall-private.h"

int si_drop_privileges(void)
{
        struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct data[2] = {};

        /* Root without capabilities: files it owns stay writable, nothing else is (no mount,
         * no chroot escape, no module, no raw I/O port, no ptrace of the installer). The
         * bounding set and no_new_privs keep an exec from getting them back. */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -errno;
        for (int cap = 0; cap < 64; cap++)
                if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
                        return -errno;
        if (syscall(SYS_capset, &hdr, data) < 0)
                return -errno;
        return 0;
}

int si_confine_in_target(struct seinstall_ctx *ctx)
{
        char **points = NULL, proc[64], path[PATH_MAX];
        struct stat want, st;
        size_t n = 0;
        ssize_t l;
        int r;

        /* The running system's own update-grub is no stranger. */
        if (streq(ctx->root, "/"))
                return 0;
        if (unshare(CLONE_NEWNS) < 0)
                return -errno;
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return -errno;
        /* In this namespace only: every mount below the root that is not the target's own
         * (the installer's /run, /proc, /sys, a package cache) becomes read-only. */
        r = si_mounts_not_own(ctx, &points, &n);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
                if (mount_setattr(AT_FDCWD, points[i], AT_SYMLINK_NOFOLLOW, &attr, sizeof(attr)) <
                        0 &&
                    errno != ENOENT)
                        r = -errno;
        }
        si_strv_free(points, n);
        if (r < 0)
                return r;
        /* By path, in this namespace: the root fd still leads into the mounts of the old one,
         * where the installer's binds are writable. It must be the same directory. */
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", ctx->root_fd);
        l = readlink(proc, path, sizeof(path) - 1);
        if (l < 0)
                return -errno;
        path[l] = '\0';
        if (fstat(ctx->root_fd, &want) < 0 || chdir(path) < 0 || stat(".", &st) < 0)
                return -errno;
        if (st.st_dev != want.st_dev || st.st_ino != want.st_ino)
                return -ESTALE;
        if (chroot(".") < 0 || chdir("/") < 0)
                return -errno;
        if (close_range(3, ~0U, 0) < 0)
                return -errno;
        return si_drop_privileges();
}
