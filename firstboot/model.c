/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.c — what choosing enforcing, permissive or disabled on the first boot will do.
 *
 * Owns the rules of DESIGN.md that decide the consequences of a choice: which kernel arguments
 * turn SELinux on or off for each kind of kernel, that enabling after SELinux was off needs a
 * full relabel (and a reboot to run it), that a running system can only switch between
 * enforcing and permissive at once, and that leaving SELinux needs a reboot. The mode the next
 * boot gets is the library's answer (an input here), so there is one copy of that rule. The
 * kernel-argument rules mirror bootcmd.c's edits; tests/integration/firstboot-predict.sh
 * applies every prediction for real and compares. No I/O here.
 */
#include <errno.h>

#include "model.h"

static bool mode_enabled(enum seinstall_mode m)
{
        return m == SEINSTALL_MODE_ENFORCING || m == SEINSTALL_MODE_PERMISSIVE;
}

bool fb_state_off(const struct fb_state *st)
{
        /* The library's boot mode is INVALID when an unknown kernel leaves it open; like
         * seinstall_apply(), count that as off: a relabel is the safe side. */
        return !mode_enabled(st->boot_mode);
}

enum seinstall_mode fb_state_running_mode(const struct fb_state *st)
{
        if (!st->running || !st->active)
                return SEINSTALL_MODE_DISABLED;
        return st->enforce_now ? SEINSTALL_MODE_ENFORCING : SEINSTALL_MODE_PERMISSIVE;
}

/* The same rules as the library's boot loader editing (bootcmd.c), told as a prediction. */
static void plan_kargs_enable(const struct fb_state *st, enum seinstall_mode mode,
                              struct fb_plan *p)
{
        const struct fb_cmdline *c = &st->cmdline;

        /* security= is ignored when an lsm= list is present: then selinux must lead it. */
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

        if (c->security_selinux)
                p->kargs_remove |= FB_KARG_SECURITY_SELINUX;
        if (c->selinux > 0)
                p->kargs_remove |= FB_KARG_SELINUX_1;
        if (st->kernel == FB_KERNEL_NO_SELINUX)
                return;
        if (c->lsm_has_selinux)
                p->kargs_remove |= FB_KARG_LSM_SELINUX;
        /* selinux=0 only exists with CONFIG_SECURITY_SELINUX_BOOTPARAM: not on opt-in kernels
         * (Debian 12), where leaving security=selinux out is what disables it. */
        if (st->kernel != FB_KERNEL_OPT_IN && c->selinux != 0)
                p->kargs_add |= FB_KARG_SELINUX_0;
}

int fb_plan_for(const struct fb_state *st, enum seinstall_mode mode, struct fb_plan *ret_plan)
{
        struct fb_plan p = {.mode = mode, .possible = true, .config_mode = mode};
        bool enable = mode_enabled(mode);
        bool active = st->running && st->active;

        if (!enable && mode != SEINSTALL_MODE_DISABLED)
                return -EINVAL;
        if (enable && st->kernel == FB_KERNEL_NO_SELINUX) {
                p.possible = false;
                *ret_plan = p;
                return 0;
        }

        if (enable) {
                /* Files made while SELinux was off carry no label: it is off for the next
                 * boot, a relabel is already pending, or this very boot runs without it. */
                p.relabel = st->relabel_pending || fb_state_off(st) || (st->running && !st->active);
                /* Enforcing on unlabeled files fails: the config (and so the kernel command
                 * line) says permissive until the relabel at the next boot is done; the library
                 * keeps the choice in the first-boot mark. Nothing is enforced at once. */
                if (mode == SEINSTALL_MODE_ENFORCING && p.relabel)
                        p.config_mode = SEINSTALL_MODE_PERMISSIVE;
                plan_kargs_enable(st, p.config_mode, &p);
                p.switch_now = active && st->enforce_now != (mode == SEINSTALL_MODE_ENFORCING) &&
                               p.config_mode == mode;
                p.reboot = st->running && (!active || p.relabel);
        } else {
                plan_kargs_disable(st, &p);
                /* A running policy cannot be unloaded (Linux >= 6.4 has no runtime disable). */
                p.reboot = active;
                p.warn_enable_later = true;
        }
        p.config_change = st->config_mode != p.config_mode;
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
                return "selinux in lsm=";
        case FB_KARG_SELINUX_0:
                return "selinux=0";
        case FB_KARG_SELINUX_1:
                return "selinux=1";
        case FB_KARG_ENFORCING_0:
                return "enforcing=0";
        case FB_KARG_ENFORCING_1:
                return "enforcing=1";
        default:
                return NULL;
        }
}
