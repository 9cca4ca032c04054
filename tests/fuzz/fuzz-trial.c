/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the trial state file (trial.c), which lies in the target and so is untrusted: any text
 * parses or is refused with -EBADMSG; what parses renders to a text that parses back to the
 * same state, counts and files, and rendering that again changes nothing. */
#include <stdint.h>

#include "seinstall-private.h"
#include "trial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct seinstall_ctx *ctx;
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL,
                                                                               *back = NULL;
        _cleanup_free_ char *text = NULL, *once = NULL, *twice = NULL;
        int r;

        if (size > 65536)
                return 0;
        if (!ctx && seinstall_new("/", &ctx) < 0)
                abort();
        /* Exactly @size bytes, no terminating NUL: a read past the end is caught. */
        text = malloc(size ? size : 1);
        if (!text)
                return 0;
        memcpy(text, data, size);

        r = si_trial_parse(ctx, "fuzz", text, size, &t);
        if (r == -EBADMSG || r == -ENOMEM)
                return 0;
        if (r < 0 || !t)
                abort();
        if (si_trial_render(t, &once) < 0)
                abort();
        if (si_trial_parse(ctx, "once", once, strlen(once), &back) < 0)
                abort();
        if (seinstall_trial_result_get_state(back) != seinstall_trial_result_get_state(t) ||
            seinstall_trial_result_get_n_paths(back) != seinstall_trial_result_get_n_paths(t))
                abort();
        /* counts are written only for decided states */
        if (seinstall_trial_result_get_state(t) == SEINSTALL_TRIAL_ENFORCED ||
            seinstall_trial_result_get_state(t) == SEINSTALL_TRIAL_KEPT_PERMISSIVE)
                if (seinstall_trial_result_get_n_denials(back) !=
                        seinstall_trial_result_get_n_denials(t) ||
                    seinstall_trial_result_get_n_label_denials(back) !=
                        seinstall_trial_result_get_n_label_denials(t))
                        abort();
        for (size_t i = 0; i < seinstall_trial_result_get_n_paths(t); i++)
                if (!streq(seinstall_trial_result_get_path(back, i),
                           seinstall_trial_result_get_path(t, i)) ||
                    !streq_ptr(seinstall_trial_result_get_fix(back, i),
                               seinstall_trial_result_get_fix(t, i)))
                        abort();
        if (si_trial_render(back, &twice) < 0 || !streq(once, twice))
                abort();
        return 0;
}
