/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* runner.h — watching a child seinstall started (runner.c). Not installed. */
#ifndef SEINSTALL_RUNNER_H
#define SEINSTALL_RUNNER_H

#include "seinstall-private.h"
#include "sandbox-cgroup.h"

struct si_watch {
        /* set by the caller */
        pid_t pid;      /* our child: bwrap, or a program that leads its own session */
        bool sandboxed; /* @pid is bwrap: its info (@info) names the sandbox's PID 1 */
        int out, info;  /* its output (read, then closed by the caller) and bwrap's info, or -1 */
        const struct si_cgroup *cg; /* its cgroup, or NULL */
        unsigned timeout_s;         /* wall-clock limit */
        void (*feed)(struct seinstall_ctx *ctx, void *data, const char *buf, size_t n);
        void (*end)(struct seinstall_ctx *ctx, void *data); /* output closed, or NULL */
        void *feed_data;
        /* what happened */
        struct sbuf infotext;
        int pidfd; /* the sandbox's PID 1, from bwrap's info: killing it kills them all */
        bool started, killed;
        int tripped; /* SI_CGROUP_PIDS_HIT or _OOM_KILL: killed for that */
};
#define SI_WATCH_INIT                                                                              \
        {                                                                                          \
                .out = -1, .info = -1, .pidfd = -1                                                 \
        }

/* Relay @w's output through @w->feed until it closes (every process is gone) or the limit
 * passes or its cgroup's limit was hit; then kill everything it started, drain and reap, and
 * look at the cgroup once more (a program that failed after a fork or an allocation refused at
 * the limit). Returns the wait status, or -errno. */
int si_watch_run(struct seinstall_ctx *ctx, struct si_watch *w);
/* Why @w ended as @status did, for a message: "reached the limit of N processes at once",
 * "reached the memory limit of N MiB", "ran longer than N s", "used more than N s of CPU"
 * (SIGXCPU), in the language of @ctx, or NULL when it was not killed by a limit. */
const char *si_watch_cause(struct seinstall_ctx *ctx, const struct si_watch *w, int status,
                           unsigned long long mem_max, char *buf, size_t size);
/* The cause's kind, for the error code: -EAGAIN processes, -ENOMEM memory, -ETIME time. */
int si_watch_cause_err(const struct si_watch *w, int status);

#endif
