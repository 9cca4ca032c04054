/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runner.c — the one loop that watches a child seinstall started (a program of the target in
 * its sandbox, sandbox.c; the policy build, policy-build.c): its output relayed as it comes,
 * a wall-clock deadline that output does not postpone, the limits of its cgroup looked at
 * every CHECK_MS, everything it started killed at either, and the cause of a kill kept for
 * the message. The parent never forks here: it only reads, polls, kills and waits.
 */
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "seinstall-private.h"
#include "runner.h"

/* After the kill, how long the output may still take to close (the namespace is going). */
#define DRAIN_S 10
/* How often the cgroup's limits are looked at. */
#define CHECK_MS 200

static long long now_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void kill_all(struct si_watch *w)
{
        w->killed = true;
        if (!w->sandboxed)
                (void) kill(-w->pid, SIGKILL); /* it leads its own session */
        else if (w->pidfd >= 0)
                (void) syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0);
        else
                (void) kill(w->pid, SIGKILL); /* --die-with-parent takes PID 1 along */
        if (w->cg)
                si_cgroup_kill(w->cg);
}

/* bwrap's info document, {"child-pid": N, ...}: written once the sandbox stands. */
static void read_info(struct si_watch *w)
{
        char buf[512];
        ssize_t n = read(w->info, buf, sizeof(buf));
        const char *p;

        if (n < 0 && errno == EINTR)
                return;
        if (n > 0 && w->infotext.len < 4096) {
                (void) sbuf_append(&w->infotext, buf, (size_t) n);
                return;
        }
        close(w->info);
        w->info = -1;
        p = w->infotext.s ? strstr(w->infotext.s, "\"child-pid\":") : NULL;
        if (p) {
                long pid = strtol(p + strlen("\"child-pid\":"), NULL, 10);
                w->started = pid > 1;
                if (w->started)
                        w->pidfd = (int) syscall(SYS_pidfd_open, (pid_t) pid, 0);
        }
        if (w->started && w->killed)
                kill_all(w);
}

/* Relay the output until it closes (every process of the sandbox is gone) or the limit
 * passes; then kill, drain and reap. Returns the wait status. */
int si_watch_run(struct seinstall_ctx *ctx, struct si_watch *w)
{
        const unsigned timeout_s = w->timeout_s;
        long long deadline = now_ms() + timeout_s * 1000LL, next_check = 0;
        int status;

        while (w->out >= 0) {
                struct pollfd p[2] = {{.fd = w->out, .events = POLLIN},
                                      {.fd = w->info, .events = POLLIN}};
                long long left = deadline - now_ms();
                char buf[4096];
                ssize_t n;
                int k;

                if (left <= 0 && w->killed)
                        break;
                if (left > 0 && w->cg && !w->killed && now_ms() >= next_check) {
                        /* a fork bomb or a hog does not end by itself: end it now */
                        w->tripped = si_cgroup_tripped(w->cg);
                        next_check = now_ms() + CHECK_MS;
                        left = w->tripped ? 0 : left;
                }
                if (left <= 0) {
                        kill_all(w);
                        deadline = now_ms() + DRAIN_S * 1000LL;
                        continue;
                }
                k = poll(p, w->info >= 0 ? 2 : 1, (int) (left > CHECK_MS ? CHECK_MS : left));
                if (k < 0 && errno != EINTR)
                        break;
                if (k <= 0)
                        continue;
                if (w->info >= 0 && p[1].revents)
                        read_info(w);
                if (!p[0].revents)
                        continue;
                n = read(w->out, buf, sizeof(buf));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                w->feed(ctx, w->feed_data, buf, (size_t) n);
        }
        if (w->info >= 0)
                read_info(w);
        if (w->out >= 0 && w->killed)
                (void) kill(w->pid, SIGKILL);
        if (w->end)
                w->end(ctx, w->feed_data);
        while (waitpid(w->pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -1;
        /* a program that ended after a fork or an allocation failed at the limit, even with
         * status 0 (a shell whose forks failed may exit 0): the limit was hit all the same */
        if (w->cg && !w->tripped)
                w->tripped = si_cgroup_tripped(w->cg);
        return status;
}

const char *si_watch_cause(struct seinstall_ctx *ctx, const struct si_watch *w, int status,
                           unsigned long long mem_max, char *buf, size_t size)
{
        if (w->tripped == SI_CGROUP_PIDS_HIT)
                snprintf(buf, size, si_tr(ctx, "reached the limit of %d processes at once"),
                         SI_CGROUP_PIDS_MAX);
        else if (w->tripped == SI_CGROUP_OOM_KILL)
                snprintf(buf, size,
                         si_tr(ctx, "reached the memory limit of %llu MiB (the kernel killed a "
                                    "process of it)"),
                         mem_max >> 20);
        else if (w->killed)
                snprintf(buf, size, si_tr(ctx, "ran longer than %u s"), w->timeout_s);
        else if (status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
                snprintf(buf, size, "%s", si_tr(ctx, "used more than its limit of CPU time"));
        else
                return NULL;
        return buf;
}

int si_watch_cause_err(const struct si_watch *w, int status)
{
        if (w->tripped == SI_CGROUP_PIDS_HIT)
                return -EAGAIN;
        if (w->tripped == SI_CGROUP_OOM_KILL)
                return -ENOMEM;
        if (w->killed || (status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
                return -ETIME;
        return 0;
}
