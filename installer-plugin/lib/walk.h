/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* walk.h — private interface of the parallel tree walker (walk*.c). The walker knows nothing
 * of who drives it (the relabel engine, relabel-label.c): its user fills in a struct si_walk
 * and a struct si_walk_ops, and the walker calls ops->visit once for every entry of the
 * target's labeled mounts and reports what it could not walk through ops->error and
 * ops->skipped. It includes no header of the layers above it. */
#ifndef SEINSTALL_WALK_H
#define SEINSTALL_WALK_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "seinstall-private.h"

#define XATTR_SELINUX "security.selinux"

struct si_fcontext;
struct si_fc_scratch;
struct si_walk;

/* One walking thread (the caller's thread uses workers[0] for the root and the hard links). */
struct si_walker {
        struct si_walk *walk;
        pthread_t thread;
        struct si_fc_scratch *scratch; /* this thread's file-contexts lookup space */
        bool own_cwd;                  /* unshare(CLONE_FS) worked: names are relative to our cwd */
        int cwd;                       /* the directory our cwd is in (not owned) */
        struct sbuf path;
        char procpath[64 + 256];
        atomic_ullong counts[SEINSTALL_RELABEL_COUNT_ERRORS + 1];
};

/* What to do with one entry: @fd when it is open (a directory; with @name "" an O_PATH fd of
 * any file), else @name in directory @dfd. @path is its path inside the target ("" for the
 * root), @mode its file type. Called from the walking threads. */
typedef void (*si_walk_visit_fn)(struct si_walker *w, int fd, int dfd, const char *name,
                                 const char *path, mode_t mode);

/* Everything the walker tells its user, each called with the walk's lock held (so the user's
 * own record needs no lock of its own) except @visit, which runs unlocked in every walking
 * thread. @data is struct si_walk's. */
struct si_walk_ops {
        si_walk_visit_fn visit;
        /* A message about an entry that could not be handled (taken over; NULL on ENOMEM). */
        void (*error)(void *data, char *msg);
        /* A mount at @path (inside the target) not walked: its @fstype and the @reason. 0 or
         * -ENOMEM. */
        int (*skipped)(void *data, const char *path, const char *fstype, const char *reason);
};

struct si_walk_link;
struct si_walk_work;
struct si_walk_msg;

struct si_walk {
        /* set by the caller before si_walk_init() */
        struct seinstall_ctx *ctx;
        struct si_fcontext *fc;
        const struct seinstall_check_result *check; /* how `check` classified the mounts, or NULL */
        const struct si_walk_ops *ops;
        void *data; /* handed to ops' error() and skipped() */
        unsigned nthreads;

        /* the walker's own */
        struct si_walker *workers;
        pthread_mutex_t lock; /* everything below, and ops' error() and skipped() */
        pthread_cond_t cond;
        struct si_walk_work *queue;
        size_t qlen;
        unsigned idle;
        unsigned running; /* worker threads that have not exited */
        bool done;
        atomic_bool abort;
        atomic_uint qlen_hint, idle_hint;
        int fatal; /* negative errno that stopped the walk */
        unsigned long long total_estimate;
        /* files with several names (walk-links.c): at most links_max of them (0: the default,
         * SI_WALK_LINKS_MAX), in a table of at most twice as many slots, their names in one
         * arena of at most names_max bytes (0: SI_WALK_NAMES_MAX) */
        size_t links_max, names_max;
        struct si_walk_link *links; /* open addressing on (dev, ino) */
        size_t nlinks, links_cap;
        char *names;
        size_t names_len, names_cap, names_dead; /* bytes used, allocated, no longer referenced */
        /* this pass handles the files whose hash has links_part in its low links_bits bits;
         * links_later: some file was left for a later pass; links_passes: passes after the
         * first */
        unsigned links_bits, links_passes;
        uint64_t links_part;
        bool links_later;
        /* a later pass: the walk only looks for files with several names, says nothing */
        bool rewalk;
        struct si_walk_msg *msgs, **msgs_tail; /* log messages for the caller's thread */
        size_t nmsgs, msgs_dropped;
};

/* Prepare @j (the caller's fields set) and release everything it holds. */
int si_walk_init(struct si_walk *j);
void si_walk_done(struct si_walk *j);

/* Visit the root (open as @root_fd, which this takes over), then walk everything below it with
 * j->nthreads threads, calling @progress (may be NULL) about four times a second from this
 * thread; then visit each file with several names once. @start: si_walk_now() at the start.
 * Returns 0 or the negative errno that stopped the walk. */
int si_walk_run(struct si_walk *j, int root_fd, seinstall_relabel_progress_fn progress,
                void *userdata, double start);
/* Add up one count over all threads. */
unsigned long long si_walk_count_total(struct si_walk *j, enum seinstall_relabel_count which);

/* For visit functions: count an entry; record an error message about it (counted as an error
 * when @w is not NULL); stop the whole walk with @err. */
void si_walk_count(struct si_walker *w, enum seinstall_relabel_count which);
void si_walk_error(struct si_walk *j, struct si_walker *w, const char *fmt, ...) _printf_(3, 4);
void si_walk_fatal(struct si_walk *j, int err);
/* Stop the whole walk with @err and, when nothing stopped it before, record the message as the
 * context's last error (si_error). */
void si_walk_fail(struct si_walk *j, int err, const char *fmt, ...) _printf_(3, 4);
/* Log a message at @priority. Walking threads never call the context's log callback: the
 * message is queued and handed to it by the thread that runs si_walk_run() (the caller's
 * thread, as seinstall.h promises), while it waits for the walk and when it ends. */
void si_walk_log(struct si_walk *j, int priority, const char *fmt, ...) _printf_(3, 4);
/* The name to hand to the l*xattr calls for @name in directory @dfd (valid until the next
 * call in this thread). */
const char *si_walk_xattr_name(struct si_walker *w, int dfd, const char *name);

/* Whether the mount at @path (inside the target, "" for its root), whose root directory is
 * open as @fd, is to be labeled: as @check classified it when it knows the mount, else by
 * filesystem type. On "no", *ret_fstype and *ret_reason say why (static or owned by @check). */
bool si_walk_mount_labelable(const struct seinstall_check_result *check, const char *path, int fd,
                             const char **ret_fstype, const char **ret_reason);

/* CLOCK_MONOTONIC in seconds. */
double si_walk_now(void);

#endif
