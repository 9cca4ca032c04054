/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.h — the first-boot screen's state model, free of any UI so it is unit tested without a
 * terminal. From what the system looks like now (struct fb_state, filled from the library's
 * status) and what the library says applying a mode would write (struct fb_prediction, its
 * dry run: model-predict.c) it tells, for each mode a person may choose, what choosing it will
 * do (struct fb_plan). The files a choice changes, and how, are the library's answer, never
 * recomputed here: the screen shows the change list of the very call that applies the choice.
 */
#ifndef SEINSTALL_FIRSTBOOT_MODEL_H
#define SEINSTALL_FIRSTBOOT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "seinstall-internal.h"

/* The four choices, in this order: enforcing, permissive, disabled and the trial
 * (SEINSTALL_MODE_TRIAL, "permissive until a clean boot", seinstall(8), TRIAL MODE): applying
 * it, the config says permissive, and seinstall-trial.service makes it enforcing once a
 * settled boot shows no denial caused by a label. */
#define FB_N_MODES 4

/* What the system looks like. Maps one to one onto seinstall_status_read()'s object. */
struct fb_state {
        enum seinstall_mode config_mode; /* SELINUX= of /etc/selinux/config; INVALID: none */
        enum seinstall_mode boot_mode;   /* what the next boot gets from the kernel, its command
                                          * line and the config, as the library tells it;
                                          * INVALID when it cannot be told (unknown kernel) */
        const char *policy_type;         /* SELINUXTYPE=, NULL when unknown; not owned */
        bool running;                    /* the target is the running system (--root /) */
        bool active;                     /* running, and SELinux is active with a policy loaded */
        bool enforce_now;                /* active and enforcing at this moment */
        bool relabel_pending;            /* /.autorelabel or /etc/selinux/.autorelabel exists */
        bool firstboot_mark;             /* the first-boot mark exists */
        bool trial_pending;              /* a trial was set up and has not decided yet */
};

/* The library's dry run of applying one mode: fb_apply() with SEINSTALL_APPLY_DRY_RUN. */
struct fb_prediction {
        int error;     /* 0, or the negative errno the run would fail with */
        char *message; /* the library's message for @error, or NULL */
        struct seinstall_apply_result *result; /* the changes it would make; NULL on error */
};

struct fb_plan {
        enum seinstall_mode mode;        /* the chosen mode */
        bool possible;                   /* false: the kernel cannot run SELinux (enabling only) */
        int error;                       /* applying would fail otherwise (message: prediction) */
        enum seinstall_mode config_mode; /* SELINUX= written: permissive while a relabel is
                                          * pending, even when enforcing is chosen */
        bool config_change;              /* ... and that differs from the config now */
        const struct seinstall_apply_result *changes; /* every file written; owned by the
                                                       * prediction; NULL when not possible */
        bool relabel;           /* a full relabel must run (at the next boot) first */
        bool reboot;            /* running system: it takes effect only after a reboot */
        bool switch_now;        /* running system: security_setenforce() switches at once */
        bool warn_enable_later; /* disabling: enabling again later needs a full relabel */
        bool trial;             /* the trial: permissive now, enforcing after a clean boot */
        bool cancels_trial;     /* a pending trial ends: the library's change of its state */
};

/* Whether SELinux is (or may be) off on the next boot: disabled, or not known to be on. */
bool fb_state_off(const struct fb_state *st);
/* The mode SELinux runs in now (disabled when not running or not active). */
enum seinstall_mode fb_state_running_mode(const struct fb_state *st);
/* The mode choice @mode aims at: enforcing for the trial. */
enum seinstall_mode fb_apply_mode(enum seinstall_mode mode);
/* The flags of seinstall_apply() that choosing @mode takes: the boot loader is regenerated,
 * and a relabel is asked for when files may lack labels (SELinux off, not active on this very
 * boot, or a relabel already pending). The dry run and the real run use the same. */
unsigned fb_apply_flags(const struct fb_state *st, enum seinstall_mode mode);
/* Apply @mode to the target as choosing it on the screen does (model-predict.c): the one
 * seinstall_apply() call of the screen, with the mode as the settings (the policy type stays
 * the target's) and fb_apply_flags() or-ed with @extra (SEINSTALL_APPLY_DRY_RUN for the
 * prediction) as its options. Returns what seinstall_apply() returns. */
int fb_apply(struct seinstall_ctx *ctx, const struct fb_state *st, enum seinstall_mode mode,
             unsigned extra, struct seinstall_apply_result **ret);
/* Ask the library what applying @mode would write (model-predict.c): the dry run, into @ret,
 * which fb_prediction_done() releases. Returns 0 (a failing run is data: ret->error), or
 * -ENOMEM. */
int fb_predict(struct seinstall_ctx *ctx, const struct fb_state *st, enum seinstall_mode mode,
               struct fb_prediction *ret);
void fb_prediction_done(struct fb_prediction *p);
/* What choosing @mode does, given the library's prediction @pred for it. Returns 0, or -EINVAL
 * for an invalid mode. The plan points into @pred. */
int fb_plan_for(const struct fb_state *st, enum seinstall_mode mode,
                const struct fb_prediction *pred, struct fb_plan *ret_plan);
/* Whether applying @plan changes anything at all. */
bool fb_plan_changes(const struct fb_plan *plan);
/* Whether change @i of the plan is one the plan's own sentences already tell (the config, the
 * relabel mark, the first-boot mark): the rest are the boot loader's files. */
bool fb_plan_change_told(const struct fb_plan *plan, size_t i);

/* ---- this boot's denials (model-denials.c) ---------------------------------------------- */

/* How many paths the summary names before "and N more". */
#define FB_DENIAL_PATHS 5

/* This boot's SELinux denials as the library's classifier (seinstall_avc_read()) judged them,
 * shown before the person picks a mode on a system that ran permissive. */
struct fb_denials {
        bool read;        /* asked for: the system is permissive now, or a log was given */
        int error;        /* 0, or the negative errno reading the log failed with */
        char *message;    /* the library's message for @error, or NULL */
        size_t n_denials; /* denials read */
        size_t n_label;   /* of those, caused by a label */
        char **paths;     /* the files they blame on their labels: distinct, absolute, in
                           * the order first seen */
        size_t n_paths;
        bool relabeled;     /* the person had them relabeled (fb_denials_relabel_text()) */
        char *relabel_text; /* what that relabel did, or NULL */
};

/* Whether the first-boot screen shows this boot's denials: SELinux is active and permissive
 * now on the running system. */
bool fb_state_permissive_now(const struct fb_state *st);
/* Read this boot's denials with the library's classifier (@log: a saved audit or kernel log,
 * NULL: the system's own) into @ret. A log that cannot be read is data (ret->error, with the
 * library's message). Returns 0 or -ENOMEM. */
int fb_denials_read(struct seinstall_ctx *ctx, const char *log, struct fb_denials *ret);
/* The same from a report of the classifier. Returns 0 or -ENOMEM. */
int fb_denials_from_report(const struct seinstall_avc_result *rep, struct fb_denials *ret);
void fb_denials_done(struct fb_denials *d);
/* Whether there are files to offer to relabel. */
bool fb_denials_offer(const struct fb_denials *d);
/* One line for the screen's state and --status: how many denials and how many caused by
 * labels, or that there were none, or that the log could not be read. Translated, newly
 * allocated; NULL on ENOMEM. */
char *fb_denials_line(const struct fb_denials *d);
/* The summary shown before the choice when there are files to relabel: the counts, then the
 * first @max_paths paths one a line (names escaped for the terminal), then "and N more".
 * Translated, newly allocated; NULL on ENOMEM. */
char *fb_denials_text(const struct fb_denials *d, size_t max_paths);
/* What relabeling the paths did: @r and @vr from seinstall_verify_paths() with
 * SEINSTALL_VERIFY_FIX (@vr may be NULL when it could not start), @message the library's last
 * error. Translated, newly allocated; NULL on ENOMEM. */
char *fb_denials_relabel_text(const struct fb_denials *d, int r,
                              const struct seinstall_verify_result *vr, const char *message);

#endif
