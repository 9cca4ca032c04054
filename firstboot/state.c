/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state.c — fill the model's inputs: the library's status of the target
 * (seinstall_status_read()), so the screen sees exactly what `seinstall status` reports, and
 * the library's dry run of applying each mode (model-predict.c), so it shows what applying
 * will write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "firstboot.h"

int fb_info_read(struct seinstall_ctx *ctx, struct fb_info *info,
                 struct seinstall_status_result **ret_status)
{
        struct seinstall_status_result *status = NULL;
        struct fb_state *st = &info->state;
        enum seinstall_mode active;
        int r;

        r = seinstall_status_read(ctx, &status);
        if (r < 0)
                return r;

        memset(info, 0, sizeof(*info));
        info->root = seinstall_get_root(ctx);
        info->cmdline = seinstall_status_result_get_cmdline(status);
        info->mark_mode = seinstall_status_result_get_firstboot_pending(status)
                              ? seinstall_status_result_get_firstboot_mode(status)
                              : SEINSTALL_MODE_INVALID;
        info->mark_after_install =
            seinstall_status_result_get_firstboot_chosen_after_install(status);

        st->config_mode = seinstall_status_result_get_config_mode(status);
        st->policy_type = seinstall_status_result_get_config_policy(status);
        st->boot_mode = seinstall_status_result_get_boot_mode(status);

        /* INVALID: the root is not "/", the running system is another one. */
        active = seinstall_status_result_get_active(status);
        st->running = active != SEINSTALL_MODE_INVALID;
        st->active = active == SEINSTALL_MODE_ENFORCING || active == SEINSTALL_MODE_PERMISSIVE;
        st->enforce_now = active == SEINSTALL_MODE_ENFORCING;
        st->relabel_pending = seinstall_status_result_get_relabel_pending(status);
        st->firstboot_mark = seinstall_status_result_get_firstboot_pending(status);
        st->trial_pending =
            seinstall_trial_result_get_state(seinstall_status_result_get_trial(status)) ==
            SEINSTALL_TRIAL_PENDING;

        for (int m = SEINSTALL_MODE_ENFORCING; r >= 0 && m < FB_N_MODES; m++)
                r = fb_predict(ctx, st, m, &info->predictions[m]);
        if (r < 0) {
                fb_info_done(info);
                seinstall_status_result_unref(status);
                return r;
        }
        *ret_status = status;
        return 0;
}

void fb_info_done(struct fb_info *info)
{
        for (size_t i = 0; i < sizeof(info->predictions) / sizeof(info->predictions[0]); i++)
                fb_prediction_done(&info->predictions[i]);
        fb_denials_done(&info->denials);
}

int fb_info_plan(const struct fb_info *info, enum seinstall_mode mode, struct fb_plan *ret)
{
        if (mode < SEINSTALL_MODE_ENFORCING || mode >= FB_N_MODES)
                return -EINVAL;
        return fb_plan_for(&info->state, mode, &info->predictions[mode], ret);
}

enum seinstall_mode fb_info_initial_mode(const struct fb_info *info)
{
        /* a trial install's mark says mode=trial, read as no mode (the trial's state says it) */
        if (info->state.trial_pending)
                return SEINSTALL_MODE_TRIAL;
        if (info->mark_mode != SEINSTALL_MODE_INVALID)
                return info->mark_mode;
        if (info->state.boot_mode != SEINSTALL_MODE_INVALID)
                return info->state.boot_mode;
        if (info->state.config_mode != SEINSTALL_MODE_INVALID)
                return info->state.config_mode;
        return SEINSTALL_MODE_DISABLED;
}
