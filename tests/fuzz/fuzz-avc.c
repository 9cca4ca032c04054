/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the AVC denial reader (avc.c): any bytes as one line and as a whole log parse without
 * a crash or a leak; a parsed denial always has its contexts, class and permissions, and the
 * report counts every denial it groups. */
#include <stdint.h>

#include "seinstall-private.h"
#include "avc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        _cleanup_free_ char *text = NULL;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_avc_result *rep;
        struct si_avc a = {0};

        if (size > 65536)
                return 0;
        /* Exactly @size bytes, no terminating NUL: a read past the end is caught. */
        text = malloc(size ? size : 1);
        if (!text)
                return 0;
        memcpy(text, data, size);

        if (si_avc_parse_line(text, size, &a) == 1) {
                if (a.kind == SI_AVC_DENIAL &&
                    (!a.scontext || !a.tcontext || !a.tclass || !a.perms || !*a.perms))
                        abort();
                if (a.path && a.kind == SI_AVC_DENIAL && a.path[0] != '/')
                        abort();
                si_avc_done(&a);
        }

        /* the whole input as a log, without file contexts and without searching this system */
        if (seinstall_new("/", &ctx) < 0)
                return 0;
        rep = si_avc_report_new("fuzz");
        if (rep) {
                size_t groups = 0, total = 0;
                if (si_avc_classify_text(ctx, NULL, text, size, 0, false, rep) == 0) {
                        groups = seinstall_avc_result_get_n_groups(rep);
                        for (size_t i = 0; i < groups; i++)
                                total += seinstall_avc_result_get_group_count(rep, i);
                        if (total > seinstall_avc_result_get_n_denials(rep) ||
                            seinstall_avc_result_get_n_label(rep) >
                                seinstall_avc_result_get_n_denials(rep))
                                abort();
                }
                seinstall_avc_result_unref(rep);
        }
        seinstall_unref(ctx);
        return 0;
}
