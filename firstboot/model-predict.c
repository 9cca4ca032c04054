/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model-predict.c — the model's second input: what applying a mode would write, asked of the
 * library with the same call that applies it (fb_apply()), as a dry run. Kept apart from
 * model.c (which does no I/O) and from state.c (which the screen's build needs) so the unit
 * tests run the real prediction on target trees in temporary directories.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

int fb_apply(struct seinstall_ctx *ctx, const struct fb_state *st, enum seinstall_mode mode,
             unsigned extra, struct seinstall_apply_result **ret)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_apply_options *o = NULL;
        int r;

        r = seinstall_settings_new(&s);
        if (r >= 0)
                r = seinstall_settings_set_mode(s, mode, SEINSTALL_SOURCE_OPTION);
        if (r >= 0)
                r = seinstall_apply_options_new(&o);
        if (r >= 0)
                r = seinstall_apply_options_set_flags(o, fb_apply_flags(st, mode) | extra);
        if (r >= 0)
                r = seinstall_apply(ctx, s, o, ret);
        seinstall_apply_options_unref(o);
        seinstall_settings_unref(s);
        return r;
}

int fb_predict(struct seinstall_ctx *ctx, const struct fb_state *st, enum seinstall_mode mode,
               struct fb_prediction *ret)
{
        struct fb_prediction p = {};
        const char *msg;

        p.error = fb_apply(ctx, st, mode, SEINSTALL_APPLY_DRY_RUN, &p.result);
        if (p.error == -ENOMEM)
                return p.error;
        if (p.error < 0) {
                p.result = NULL;
                msg = seinstall_last_error(ctx);
                if (msg && !(p.message = strdup(msg)))
                        return -ENOMEM;
        }
        *ret = p;
        return 0;
}

void fb_prediction_done(struct fb_prediction *p)
{
        seinstall_apply_result_unref(p->result);
        free(p->message);
        *p = (struct fb_prediction){};
}
