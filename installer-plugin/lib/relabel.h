/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* relabel.h — private interface of the relabel engine: its passes (relabel.c the live tree,
 * relabel-hidden.c what the mounts hide, relabel-paths.c a list of paths) over its core
 * (relabel-label.c), for verify (verify.c) and the install pipeline (install.c), and of the
 * relabel result (relabel-result.c) the engine fills in. The walker (walk.h) sits below and
 * knows none of this: relabel-label.c adapts what it reports (struct si_walk_ops). The result
 * calls do not lock: the engine calls them under the walk's lock. */
#ifndef SEINSTALL_RELABEL_H
#define SEINSTALL_RELABEL_H

#include "seinstall-private.h"
#include "policy.h"

/* ---- the relabel stage (relabel.c) ------------------------------------------------------ */

/* The options of a relabel, verify or install (relabel-options.c); every member may be unset. */
struct seinstall_relabel_options {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        char *policy;        /* policy type; NULL: the target's */
        char *file_contexts; /* a host file_contexts to use instead of the target's, or NULL */
        unsigned threads;    /* 0: one per online CPU */
        seinstall_relabel_progress_fn progress;
        void *userdata;
};
/* @o, or the defaults for NULL: the callers read the members without testing for NULL. */
const struct seinstall_relabel_options *
si_relabel_options_or_defaults(const struct seinstall_relabel_options *o);

struct si_fcontext;

/* What a relabel runs on, prepared by its caller (seinstall_relabel(), or the install pipeline
 * which has them already): nothing here is read again. */
/* A label that differs from what the file contexts give: @actual (NULL: none), @expected, and
 * whether it was written. Called with the walk's lock held, from any walking thread. */
typedef int (*si_relabel_mismatch_fn)(void *data, const char *path, const char *actual,
                                      const char *expected, bool fixed);

struct si_relabel_input {
        const char *type;          /* the policy type */
        const char *file_contexts; /* a host file used instead of the target's, or NULL */
        struct si_fcontext *fc;    /* compiled, validated (si_relabel_validate) */
        const struct seinstall_check_result *check; /* which mounts to label; NULL: by fs type */
        si_relabel_mismatch_fn mismatch;            /* told of each label that differed, or NULL */
        void *mismatch_data;
};
/* Mark the contexts of @fc the target's policy @policy (loaded for @type) does not define;
 * -ENOPKG when @policy is not the target's own (labels checked against another prove nothing). */
int si_relabel_validate(struct seinstall_ctx *ctx, const struct si_policy *policy, const char *type,
                        struct si_fcontext *fc);
/* The files a boot cannot do without (init, the shells, the dynamic loader, the account
 * databases, the SELinux config), as paths inside the target, some absent on a given system:
 * a relabel checks them after its walk, a trial before it enforces. */
extern const char *const si_boot_files[];
extern const size_t si_boot_files_n;
/* seinstall_relabel() on prepared input (same flags, result and errors). */
int si_relabel_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                   unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                   struct seinstall_relabel_result **ret_result);
/* The same on just the entries @paths names (absolute, inside the target), each labeled as the
 * walk labels it, nothing below a directory; an entry that is gone, behind a symbolic link or
 * not a plain path is an error, one on a mount the walk would skip is listed as skipped. */
int si_relabel_run_paths(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                         const char *const *paths, size_t n, unsigned flags,
                         struct seinstall_relabel_result **ret_result);

/* ---- the verify stage (verify.c) -------------------------------------------------------- */

/* seinstall_verify() on prepared input (its mismatch function is verify's own). */
int si_verify_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                  unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                  struct seinstall_verify_result **ret_result);

/* ---- the engine (relabel.c) ---- */

/* What seinstall_relabel() and seinstall_verify() read before they walk: the policy type,
 * the file contexts compiled and validated against the target's policy, and the check. */
struct si_relabel_prepared {
        char *type;
        struct si_fcontext *fc;
        struct seinstall_check_result *check;
};
int si_relabel_prepare(struct seinstall_ctx *ctx, const char *policy_type,
                       const char *file_contexts, unsigned fc_flags,
                       struct si_relabel_prepared *ret);
void si_relabel_prepared_done(struct si_relabel_prepared *p);

/* malloc_trim(0), one caller at a time (relabel.c says why); any thread may call it. */
void si_relabel_release_heap(void);

/* ---- inside the engine (relabel.c, relabel-hidden.c, relabel-paths.c) ---- */

#include <stddef.h>
#include "walk.h"

/* One run: the walk, and what the visit function needs besides it. */
struct relabel {
        struct si_walk walk;
        struct seinstall_relabel_result *res; /* also walk.data, where the walker reports */
        bool dry_run;
        bool walk_ready; /* si_walk_init() done */
        si_relabel_mismatch_fn mismatch;
        void *mismatch_data;
        /* walking below a mount point through a bind mount of the root's filesystem: the
         * point's path in the tree, put before every path the walker gives, and one buffer
         * per walking thread for the result */
        const char *prefix;
        struct sbuf *prefixed;
};
#define RELABEL(j) ((struct relabel *) ((char *) (j) -offsetof(struct relabel, walk)))
/* The walker's visit function: label one entry (relabel-label.c). */
void si_relabel_label_entry(struct si_walker *w, int fd, int dfd, const char *name,
                            const char *path, mode_t mode);
/* What the walker is given to call: the visit above, errors and skipped mounts into the
 * result (relabel-label.c). */
extern const struct si_walk_ops si_relabel_walk_ops;
/* A relabel of @ctx's tree with the prepared input @in and SEINSTALL_RELABEL_* @flags, not yet
 * walking; si_relabel_done() releases what it comes to hold. */
static inline struct relabel si_relabel_of(struct seinstall_ctx *ctx,
                                           const struct si_relabel_input *in, unsigned flags)
{
        return (struct relabel){
            .walk = {.ctx = ctx, .ops = &si_relabel_walk_ops, .fc = in->fc, .check = in->check},
            .dry_run = flags & SEINSTALL_RELABEL_DRY_RUN,
            .mismatch = in->mismatch,
            .mismatch_data = in->mismatch_data,
        };
}
/* The result the run reports into (not owned). */
static inline void si_relabel_set_result(struct relabel *rl, struct seinstall_relabel_result *res)
{
        rl->res = res;
        rl->walk.data = res;
}
void si_relabel_done(struct relabel *rl);
/* After the live walk: what the mounts on the root's own filesystem hide (relabel-hidden.c,
 * called by relabel.c's seinstall_relabel(); it calls only relabel-label.c). */
int si_relabel_under_mounts(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                            unsigned nthreads, unsigned flags,
                            struct seinstall_relabel_result *res);

/* ---- the result (relabel-result.c) ---- */

/* A new result for a run over @root with @policy (and @file_contexts, may be NULL). */
int si_relabel_result_new(const char *root, const char *policy, const char *file_contexts,
                          unsigned threads, bool dry_run, struct seinstall_relabel_result **ret);
DEFINE_CLEANUP_FUNC(struct seinstall_relabel_result *, seinstall_relabel_result_unref)
void si_relabel_result_add_count(struct seinstall_relabel_result *r,
                                 enum seinstall_relabel_count which, unsigned long long n);
/* Keep @msg (taken over, may be NULL) among the first error messages, or free it. */
void si_relabel_result_add_error(struct seinstall_relabel_result *r, char *msg);
int si_relabel_result_add_skipped(struct seinstall_relabel_result *r, const char *path,
                                  const char *fstype, const char *reason);
/* A boot-critical file checked: its label (NULL: none) and the expected one. */
int si_relabel_result_add_verified(struct seinstall_relabel_result *r, const char *path,
                                   const char *actual, const char *expected);
/* The pass over what the mounts hide ran: its mount points (@points, @n taken over), the
 * entries it visited and the labels it changed (also counted in the totals). */
void si_relabel_result_set_under_mounts(struct seinstall_relabel_result *r, char **points, size_t n,
                                        unsigned long long seen, unsigned long long changed);
/* How long the run took and its return value. */
void si_relabel_result_finish(struct seinstall_relabel_result *r, double seconds, int status);

#endif
