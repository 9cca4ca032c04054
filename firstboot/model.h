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

#include "seinstall.h"

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
};

/* The library's dry run of applying one mode: seinstall_apply() with fb_apply_flags() and
 * SEINSTALL_APPLY_DRY_RUN. */
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
};

/* Whether SELinux is (or may be) off on the next boot: disabled, or not known to be on. */
bool fb_state_off(const struct fb_state *st);
/* The mode SELinux runs in now (disabled when not running or not active). */
enum seinstall_mode fb_state_running_mode(const struct fb_state *st);
/* The flags of seinstall_apply() that choosing @mode takes: the boot loader is regenerated,
 * and a relabel is asked for when files may lack labels (SELinux off, not active on this very
 * boot, or a relabel already pending). The dry run and the real run use the same. */
unsigned fb_apply_flags(const struct fb_state *st, enum seinstall_mode mode);
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

#endif
