/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox-cgroup.h — the cgroup that bounds how many processes and how much memory the sandbox
 * for the target's programs may have (sandbox-cgroup.c); sandbox.c runs bwrap in it. Not
 * installed. */
#ifndef SEINSTALL_SANDBOX_CGROUP_H
#define SEINSTALL_SANDBOX_CGROUP_H

#include <stdbool.h>

/* grub-mkconfig runs many short processes but few at once. */
#define SI_CGROUP_PIDS_MAX   256
#define SI_CGROUP_MEMORY_MAX (512ULL << 20)

/* Where the sandbox's cgroup is made: the cgroup directory it goes below in the hierarchy with
 * the pids controller (on v2 also memory's) and, on v1, the one in the memory hierarchy. */
struct si_cgroup_place {
        int version; /* 1 or 2 */
        int pids_fd; /* the parent directory */
        int mem_fd;  /* v1: the parent in the memory hierarchy, or -1 */
        bool memory; /* the child gets a memory limit (v2: the parent passes memory on) */
        char *where; /* the parent's path, for messages and tests */
};
void si_cgroup_place_done(struct si_cgroup_place *p);

/* Find the place from @root/proc/self/mountinfo and @root/proc/self/cgroup, every path below
 * @root ("" for the running system; a fake tree in the tests): on cgroup v2 the nearest cgroup
 * at or above this process's own that passes the pids controller to its children without
 * holding processes itself (the root cgroup, where it is enabled if need be; systemd's slices),
 * else cgroup v1's pids hierarchy below this process's own cgroup (v1 has no rule against a
 * cgroup with both processes and children). 0 with *ret set; -ENOENT when no cgroup filesystem
 * is mounted at all; -EOPNOTSUPP (or another -errno) with *ret_why saying what is missing. */
int si_cgroup_find(const char *root, struct si_cgroup_place *ret, const char **ret_why);
/* The same on a cgroup2 filesystem this call mounts detached (reachable only through the
 * place's descriptors, so nothing changes in any mount namespace): for an installer that runs
 * from its initramfs with no cgroup filesystem mounted. */
int si_cgroup_find_detached(struct si_cgroup_place *ret, const char **ret_why);

struct si_cgroup {
        int version;
        int parent_fd, mem_parent_fd; /* for the final rmdir; -1 when none */
        int fd, mem_fd;               /* the sandbox's cgroup; v1's memory one or -1 */
        int procs_fd, mem_procs_fd;   /* their cgroup.procs, opened for the child to join */
        bool memory;
        char name[64];
};
#define SI_CGROUP_NULL                                                                             \
        (struct si_cgroup)                                                                         \
        {                                                                                          \
                .parent_fd = -1, .mem_parent_fd = -1, .fd = -1, .mem_fd = -1, .procs_fd = -1,      \
                .mem_procs_fd = -1                                                                 \
        }

/* Make a new cgroup at @p (whose descriptors it takes over) with pids.max SI_CGROUP_PIDS_MAX
 * and, where @p allows, a memory limit of @mem_max bytes without swap (the sandbox's is
 * SI_CGROUP_MEMORY_MAX). 0 or -errno. */
int si_cgroup_new(struct si_cgroup_place *p, unsigned long long mem_max, struct si_cgroup *ret);
/* In the forked child, before it runs anything: move this process into @cg. 0 or -errno. */
int si_cgroup_join(const struct si_cgroup *cg);

enum { SI_CGROUP_WITHIN = 0, SI_CGROUP_PIDS_HIT, SI_CGROUP_OOM_KILL };
/* Whether a process of @cg could not be made at the process limit (pids.events "max") or was
 * killed at the memory limit (memory.events or v1's memory.oom_control "oom_kill"). */
int si_cgroup_tripped(const struct si_cgroup *cg);
/* SIGKILL every process in @cg (cgroup.kill where the kernel has it). */
void si_cgroup_kill(const struct si_cgroup *cg);
/* Kill what is left in @cg until it is empty, remove its directories and close it; -EBUSY
 * when a process outlived 10 s of that. Accepts SI_CGROUP_NULL. */
int si_cgroup_remove(struct si_cgroup *cg);

#endif
