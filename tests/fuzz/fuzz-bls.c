/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz Boot Loader Specification entries and /etc/kernel/cmdline (cmdline-files.c) and the command
 * line readers: any text is edited for every mode and kernel case, the result meets the goal
 * (nothing missing) and editing it again changes nothing. */
#include <stdint.h>

#include "cmdline.h"
#include "fuzz-text.h"

typedef int (*edit_fn)(const char *old, size_t len, const struct si_cmdline_goal *goal, char **ret,
                       unsigned *ret_line, struct sbuf *what);

static void check_editor(const char *text, size_t size, edit_fn edit, bool bls)
{
        for (int m = SEINSTALL_MODE_ENFORCING; m <= SEINSTALL_MODE_DISABLED; m++)
                for (int k = SEINSTALL_KERNEL_CASE_UNKNOWN; k <= SEINSTALL_KERNEL_CASE_NO_SELINUX;
                     k++) {
                        struct si_cmdline_goal goal = {.mode = m, .kcase = k};
                        _cleanup_free_ char *once = NULL, *twice = NULL, *add = NULL;
                        struct sbuf what = {}, all = {};
                        const char *cur;

                        if (edit(text, size, &goal, &once, NULL, &what) < 0) {
                                sbuf_free(&what);
                                continue;
                        }
                        sbuf_free(&what);
                        cur = once ? once : text;
                        if (bls) {
                                if (si_bls_cmdline(cur, strlen(cur), &all) < 0 ||
                                    sbuf_puts(&all, "") < 0)
                                        abort();
                        } else if (sbuf_puts(&all, cur) < 0) {
                                abort();
                        }
                        if (si_cmdline_missing(all.s, &goal, &add) < 0)
                                abort();
                        (void) si_cmdline_boot_mode(all.s, goal.kcase, false, goal.mode);
                        sbuf_free(&all);
                        if (*add)
                                abort(); /* the edit left something the goal needs */
                        if (edit(cur, strlen(cur), &goal, &twice, NULL, &what) < 0)
                                abort();
                        sbuf_free(&what);
                        if (twice)
                                abort(); /* not idempotent */
                }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        _cleanup_free_ char *text = NULL, *v = NULL;
        struct sbuf all = {};

        text = fuzz_text(data, size, 65536);
        if (!text)
                return 0;

        if (si_bls_cmdline(text, size, &all) == 0 && sbuf_puts(&all, "") == 0) {
                v = si_cmdline_get(all.s, "security");
                for (int k = SEINSTALL_KERNEL_CASE_UNKNOWN; k <= SEINSTALL_KERNEL_CASE_NO_SELINUX;
                     k++)
                        (void) si_cmdline_boot_mode(all.s, k, k & 1, SEINSTALL_MODE_ENFORCING);
        }
        sbuf_free(&all);
        check_editor(text, size, si_bls_edit, true);
        check_editor(text, size, si_kernel_cmdline_edit, false);
        return 0;
}
