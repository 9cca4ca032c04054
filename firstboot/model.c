/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.c — what choosing enforcing, permissive or disabled on the first boot will do.
 *
 * Owns what only the running system knows: that enabling after SELinux was off (or while it
 * is not active) needs a full relabel and a reboot to run it, that a running system can only
 * switch between enforcing and permissive at once, and that leaving SELinux needs a reboot.
 * What a choice writes (the config's mode, the kernel command line of every boot loader form,
 * the relabel and first-boot marks) is the library's answer, its dry run of the very call that
 * applies the choice (model-predict.c): the rules of the kernel command line live in the
 * library only. No I/O here.
 */
#include <errno.h>
#include <string.h>

#include "model.h"

static bool mode_enabled(enum seinstall_mode m)
{
        return m == SEINSTALL_MODE_ENFORCING || m == SEINSTALL_MODE_PERMISSIVE ||
               m == SEINSTALL_MODE_TRIAL;
}

enum seinstall_mode fb_apply_mode(enum seinstall_mode mode)
{
        return mode == SEINSTALL_MODE_TRIAL ? SEINSTALL_MODE_ENFORCING : mode;
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

unsigned fb_apply_flags(const struct fb_state *st, enum seinstall_mode mode)
{
        unsigned flags = SEINSTALL_APPLY_REGENERATE;

        /* Files made while SELinux was off carry no label: it is off for the next boot, a
         * relabel is already pending, or this very boot runs without it. */
        if (mode_enabled(mode) &&
            (st->relabel_pending || fb_state_off(st) || (st->running && !st->active)))
                flags |= SEINSTALL_APPLY_RELABEL;
        return flags;
}

int fb_plan_for(const struct fb_state *st, enum seinstall_mode mode,
                const struct fb_prediction *pred, struct fb_plan *ret_plan)
{
        struct fb_plan p = {.mode = mode,
                            .possible = true,
                            .config_mode = fb_apply_mode(mode),
                            .trial = mode == SEINSTALL_MODE_TRIAL};
        bool enable = mode_enabled(mode);
        bool active = st->running && st->active;

        if (!enable && mode != SEINSTALL_MODE_DISABLED)
                return -EINVAL;
        /* The library refuses to enable SELinux on a kernel built without it. */
        if (pred->error == -EOPNOTSUPP && enable) {
                p.possible = false;
                *ret_plan = p;
                return 0;
        }
        if (pred->error < 0 || !pred->result) {
                p.error = pred->error < 0 ? pred->error : -EINVAL;
                *ret_plan = p;
                return 0;
        }
        p.changes = pred->result;
        /* Enforcing on unlabeled files fails: while a relabel is pending the library writes
         * permissive and keeps the choice in the first-boot mark. */
        p.config_mode = seinstall_apply_result_get_config_mode(pred->result);
        p.relabel = seinstall_apply_result_get_relabel(pred->result);
        p.config_change = st->config_mode != p.config_mode;
        /* A mode chosen by hand ends a pending trial: the library says so by changing its
         * state (the trial itself writes that file too, starting one). */
        for (size_t i = 0; !p.trial && i < seinstall_apply_result_get_n_changes(p.changes); i++)
                p.cancels_trial =
                    p.cancels_trial || strcmp(seinstall_apply_result_get_change_file(p.changes, i),
                                              SEINSTALL_TRIAL_STATE) == 0;
        if (p.trial) {
                /* the trial begins with the next boot, permissive; nothing switches now */
                p.reboot = st->running;
        } else if (enable) {
                p.switch_now = active && st->enforce_now != (mode == SEINSTALL_MODE_ENFORCING) &&
                               p.config_mode == mode;
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
        return plan->possible && !plan->error &&
               (plan->config_change || seinstall_apply_result_get_n_changes(plan->changes) > 0 ||
                plan->relabel || plan->switch_now);
}

bool fb_plan_change_told(const struct fb_plan *plan, size_t i)
{
        /* The files seinstall.h names for the config, the relabel marks and the first-boot mark;
         * the plan's sentences say what happens to those. */
        static const char *const told[] = {"/etc/selinux/config", "/.autorelabel",
                                           "/etc/selinux/.autorelabel", SEINSTALL_FIRSTBOOT_MARK,
                                           SEINSTALL_TRIAL_STATE};
        const char *file = seinstall_apply_result_get_change_file(plan->changes, i);

        size_t n = file ? strlen(file) : 0, u = strlen("/" SEINSTALL_TRIAL_UNIT);

        for (size_t k = 0; file && k < sizeof(told) / sizeof(told[0]); k++)
                if (strcmp(file, told[k]) == 0)
                        return true;
        /* the trial's sentence names its unit, whose enabling link this is */
        return plan->trial && n > u && strcmp(file + n - u, "/" SEINSTALL_TRIAL_UNIT) == 0;
}
