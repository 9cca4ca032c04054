/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox-internal.h — what the files of the sandbox share: what goes into it (struct sandbox,
 * made by the parent in sandbox.c and sandbox-devices.c), the descriptors the child hands to
 * bwrap, and the child's half (sandbox-child.c) and its filters (sandbox-seccomp.c). Only the
 * sandbox's own files include it. */
#ifndef SEINSTALL_SANDBOX_INTERNAL_H
#define SEINSTALL_SANDBOX_INTERNAL_H

#include <limits.h>
#include <sys/types.h>

#include "sandbox-cgroup.h"
#include "sandbox.h"

#ifndef SEINSTALL_BWRAP
#define SEINSTALL_BWRAP "/usr/bin/bwrap"
#endif

/* Block devices in the sandbox's /dev: the target's mounts and what they are made of. */
#define SANDBOX_DEVS_MAX 64
/* The target's own mounts the sandbox's tree is made of. */
#define SANDBOX_TREES_MAX 64

/* The descriptors the child hands to bwrap. */
enum { FD_SECCOMP = 3, FD_IOCTLS, FD_INFO, FD_USERNS, FD_TREES };

/* A block device of the sandbox's /dev and its names (si_sandbox_dev_names()). */
struct sandbox_dev {
        dev_t dev;
        char kname[NAME_MAX + 1];                /* "sda1"; empty: not made */
        char mapper[NAME_MAX + 1];               /* /dev/mapper/NAME, or empty */
        char vg[NAME_MAX + 1], lv[NAME_MAX + 1]; /* /dev/VG/LV, or empty */
};

struct sandbox {
        char **args;
        size_t n_args, cap_args;
        dev_t *devs; /* the block devices of the target's own mounts */
        size_t n_devs, cap_devs;
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

/* ---- the devices of the sandbox's /dev (sandbox-devices.c, in the parent) ----------------- */

/* Add @d to @s's devices unless listed (up to SANDBOX_DEVS_MAX: -E2BIG). */
int si_sandbox_devs_add(struct sandbox *s, dev_t d);
/* Add what the md arrays and device-mapper devices of @s->devs are made of, where that holds
 * nothing else. */
int si_sandbox_add_lower_devices(struct sandbox *s);
/* Fill @s->uuids and @s->partuuids: the names of the sandbox's /dev/disk links. */
int si_sandbox_disk_links(struct seinstall_ctx *ctx, struct sandbox *s);
/* The names of block device @d in the sandbox's /dev into @n; false: it gets no node. */
bool si_sandbox_dev_names(dev_t d, struct sandbox_dev *n);

/* ---- the filters bwrap installs (sandbox-seccomp.c) --------------------------------------- */

/* A memfd holding the seccomp filter of system calls, or of ioctls, for bwrap's --seccomp and
 * --add-seccomp-fd; -errno. */
int si_sandbox_seccomp_memfd(void);
int si_sandbox_ioctl_memfd(void);

/* ---- the forked child (sandbox-child.c): only system calls, no return ---------------------- */

/* Stage /dev and the tree, enter the user namespace and run bwrap as @s->args says, with
 * stdin @null, stdout and stderr @out, the filters and bwrap's info pipe @info. */
_Noreturn void si_sandbox_child(const struct sandbox *s, int null, int out, int seccomp_fd,
                                int ioctl_fd, int info);
/* The running system's own program: only the session, descriptors and limits. */
_Noreturn void si_sandbox_plain_child(const char *const *argv, int null, int out);

#endif
