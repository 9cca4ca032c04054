/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.h — the first-boot screen's state model, free of any UI so it is unit tested without a
 * terminal. From what the system looks like now (struct fb_state, filled from the library's
 * status) it computes, for each mode a person may choose, what applying it will do
 * (struct fb_plan): config change, kernel-argument change, relabel, reboot, immediate switch.
 */
#ifndef SEINSTALL_FIRSTBOOT_MODEL_H
#define SEINSTALL_FIRSTBOOT_MODEL_H

#include <stdbool.h>

#include "seinstall.h"

/* How the target's kernel turns SELinux on and off (DESIGN.md, from /boot/config-*). */
enum fb_kernel {
        FB_KERNEL_UNKNOWN = 0, /* no kernel config: enable with security=selinux, and disable
                                * by removing it and adding selinux=0 */
        FB_KERNEL_DEFAULT,     /* SELinux is the default LSM, BOOTPARAM=y: on unless selinux=0 */
        FB_KERNEL_OPT_IN,      /* built in, not the default (Debian 12): on only with
                                * security=selinux or selinux in lsm=; selinux=0/1 are ignored */
        FB_KERNEL_NO_SELINUX,  /* the kernel cannot run SELinux at all */
};

/* Kernel arguments the model talks about, as bits of a mask. */
enum {
        FB_KARG_SECURITY_SELINUX = 1u << 0, /* security=selinux */
        FB_KARG_LSM_SELINUX = 1u << 1,      /* "selinux" inside an lsm= list */
        FB_KARG_SELINUX_0 = 1u << 2,        /* selinux=0 */
        FB_KARG_ENFORCING_0 = 1u << 3,      /* enforcing=0 */
        FB_KARG_ENFORCING_1 = 1u << 4,      /* enforcing=1 */
        FB_KARG_SELINUX_1 = 1u << 5,        /* selinux=1 */
};

/* The SELinux-related part of the boot loader's kernel command line (the next boot's). */
struct fb_cmdline {
        int selinux;           /* selinux=N: -1 when absent */
        bool security_selinux; /* security=selinux */
        bool security_other;   /* security= naming another LSM (then SELinux is not chosen) */
        bool lsm;              /* an lsm= list is present (security= is then ignored) */
        bool lsm_selinux;      /* ... and selinux comes in it before apparmor and smack, the
                                * exclusive LSMs that would otherwise take its place */
        bool lsm_has_selinux;  /* ... it names selinux at all */
        int enforcing;         /* enforcing=N: -1 when absent */
};

/* What the system looks like. Maps one to one onto seinstall_status_read()'s object. */
struct fb_state {
        enum seinstall_mode config_mode; /* SELINUX= of /etc/selinux/config; INVALID: none */
        enum seinstall_mode boot_mode;   /* what the next boot gets from the kernel, its command
                                          * line and the config, as the library tells it;
                                          * INVALID when it cannot be told (unknown kernel) */
        const char *policy_type;         /* SELINUXTYPE=, NULL when unknown; not owned */
        struct fb_cmdline cmdline;
        enum fb_kernel kernel;
        bool running;         /* the target is the running system (--root /) */
        bool active;          /* running, and SELinux is active with a policy loaded */
        bool enforce_now;     /* active and enforcing at this moment */
        bool relabel_pending; /* /.autorelabel or /etc/selinux/.autorelabel exists */
        bool firstboot_mark;  /* the first-boot mark exists */
};

struct fb_plan {
        enum seinstall_mode mode;        /* the chosen mode */
        bool possible;                   /* false: the kernel cannot run SELinux (enabling only) */
        enum seinstall_mode config_mode; /* SELINUX= written: permissive while a relabel is
                                          * pending, even when enforcing is chosen */
        bool config_change;              /* ... and that differs from the config now */
        unsigned kargs_add;              /* FB_KARG_* bits added to the kernel command line */
        unsigned kargs_remove;           /* FB_KARG_* bits removed from it */
        bool relabel;                    /* a full relabel must run (at the next boot) first */
        bool reboot;                     /* running system: it takes effect only after a reboot */
        bool switch_now;        /* running system: security_setenforce() switches at once */
        bool warn_enable_later; /* disabling: enabling again later needs a full relabel */
};

/* Whether SELinux is (or may be) off on the next boot: disabled, or not known to be on. */
bool fb_state_off(const struct fb_state *st);
/* The mode SELinux runs in now (disabled when not running or not active). */
enum seinstall_mode fb_state_running_mode(const struct fb_state *st);
/* What choosing @mode does. Returns 0, or -EINVAL for an invalid mode. */
int fb_plan_for(const struct fb_state *st, enum seinstall_mode mode, struct fb_plan *ret_plan);
/* Whether applying @plan changes anything at all. */
bool fb_plan_changes(const struct fb_plan *plan);
/* The text of one FB_KARG_* bit ("security=selinux", ...), or NULL. */
const char *fb_karg_to_string(unsigned bit);

#endif
