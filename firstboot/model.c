/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.c — what choosing enforcing, permissive or disabled on the first boot will do.
 *
 * Owns the rules of DESIGN.md that decide the consequences of a choice: which kernel arguments
 * turn SELinux on or off for each kind of kernel, that enabling after SELinux was off needs a
 * full relabel (and a reboot to run it), that a running system can only switch between
 * enforcing and permissive at once, and that leaving SELinux needs a reboot. No I/O here.
 */
#include <errno.h>

#include "model.h"

static bool mode_enabled(enum seinstall_mode m)
{
        return m == SEINSTALL_MODE_ENFORCING || m == SEINSTALL_MODE_PERMISSIVE;
}

/* Does the next boot's kernel start SELinux at all? */
static bool cmdline_selects_selinux(const struct fb_state *st)
{
        const struct fb_cmdline *c = &st->cmdline;
        bool chosen;

        if (st->kernel == FB_KERNEL_NO_SELINUX)
                return false;
        /* security= is ignored when an lsm= list is present. */
        if (c->lsm)
                chosen = c->lsm_selinux;
        else if (c->security_selinux)
                chosen = true;
        else if (c->security_other)
                chosen = false;
        else
                /* Unknown kernels are taken at the config's word. */
                chosen = st->kernel != FB_KERNEL_OPT_IN;
        /* selinux=0 only exists with CONFIG_SECURITY_SELINUX_BOOTPARAM. */
        if (c->selinux == 0 && st->kernel != FB_KERNEL_OPT_IN)
                chosen = false;
        return chosen;
}

enum seinstall_mode fb_state_boot_mode(const struct fb_state *st)
{
        if (!mode_enabled(st->config_mode) || !cmdline_selects_selinux(st))
                return SEINSTALL_MODE_DISABLED;
        /* enforcing= on the command line overrides the config's mode. */
        if (st->cmdline.enforcing == 0)
                return SEINSTALL_MODE_PERMISSIVE;
        if (st->cmdline.enforcing > 0)
                return SEINSTALL_MODE_ENFORCING;
        return st->config_mode;
}

enum seinstall_mode fb_state_running_mode(const struct fb_state *st)
{
        if (!st->running || !st->active)
                return SEINSTALL_MODE_DISABLED;
        return st->enforce_now ? SEINSTALL_MODE_ENFORCING : SEINSTALL_MODE_PERMISSIVE;
}

static void plan_kargs_enable(const struct fb_state *st, enum seinstall_mode mode,
                              struct fb_plan *p)
{
        const struct fb_cmdline *c = &st->cmdline;

        if (c->lsm) {
                if (!c->lsm_selinux)
                        p->kargs_add |= FB_KARG_LSM_SELINUX;
        } else if (!c->security_selinux && (st->kernel != FB_KERNEL_DEFAULT || c->security_other)) {
                p->kargs_add |= FB_KARG_SECURITY_SELINUX;
        }
        if (c->selinux == 0)
                p->kargs_remove |= FB_KARG_SELINUX_0;
        /* A contrary enforcing= would override the mode chosen in the config. */
        if (mode == SEINSTALL_MODE_ENFORCING && c->enforcing == 0)
                p->kargs_remove |= FB_KARG_ENFORCING_0;
        if (mode == SEINSTALL_MODE_PERMISSIVE && c->enforcing > 0)
                p->kargs_remove |= FB_KARG_ENFORCING_1;
}

static void plan_kargs_disable(const struct fb_state *st, struct fb_plan *p)
{
        const struct fb_cmdline *c = &st->cmdline;

        if (st->kernel == FB_KERNEL_NO_SELINUX)
                return;
        if (st->kernel != FB_KERNEL_DEFAULT) {
                if (c->security_selinux)
                        p->kargs_remove |= FB_KARG_SECURITY_SELINUX;
                if (c->lsm_selinux)
                        p->kargs_remove |= FB_KARG_LSM_SELINUX;
        }
        if (st->kernel != FB_KERNEL_OPT_IN && c->selinux != 0)
                p->kargs_add |= FB_KARG_SELINUX_0;
}

int fb_plan_for(const struct fb_state *st, enum seinstall_mode mode, struct fb_plan *ret_plan)
{
        struct fb_plan p = {.mode = mode, .possible = true};
        bool enable = mode_enabled(mode);
        bool active = st->running && st->active;

        if (!enable && mode != SEINSTALL_MODE_DISABLED)
                return -EINVAL;
        if (enable && st->kernel == FB_KERNEL_NO_SELINUX) {
                p.possible = false;
                *ret_plan = p;
                return 0;
        }

        p.config_change = st->config_mode != mode;
        if (enable)
                plan_kargs_enable(st, mode, &p);
        else
                plan_kargs_disable(st, &p);

        if (enable) {
                /* Files made while SELinux was off carry no label: the configured state was
                 * disabled, a relabel is already pending, or this very boot runs without it. */
                p.relabel = st->relabel_pending ||
                            fb_state_boot_mode(st) == SEINSTALL_MODE_DISABLED ||
                            (st->running && !st->active);
                /* Enforcing on unlabeled files is never switched on at once: the relabel runs
                 * permissive at the next boot first. */
                p.switch_now = active && st->enforce_now != (mode == SEINSTALL_MODE_ENFORCING) &&
                               !(mode == SEINSTALL_MODE_ENFORCING && p.relabel);
                p.reboot = st->running && (!active || p.relabel);
        } else {
                /* A running policy cannot be unloaded (Linux >= 6.4 has no runtime disable). */
                p.reboot = active;
                p.warn_enable_later = true;
        }
        *ret_plan = p;
        return 0;
}

bool fb_plan_changes(const struct fb_plan *plan)
{
        return plan->possible && (plan->config_change || plan->kargs_add || plan->kargs_remove ||
                                  plan->relabel || plan->switch_now);
}

const char *fb_karg_to_string(unsigned bit)
{
        switch (bit) {
        case FB_KARG_SECURITY_SELINUX:
                return "security=selinux";
        case FB_KARG_LSM_SELINUX:
                return "lsm=...,selinux";
        case FB_KARG_SELINUX_0:
                return "selinux=0";
        case FB_KARG_ENFORCING_0:
                return "enforcing=0";
        case FB_KARG_ENFORCING_1:
                return "enforcing=1";
        default:
                return NULL;
        }
}
