/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the GRUB defaults editor (cmdline-files.c): any text is either refused (-EBADMSG with a line
 * inside the file) or edited for every mode and kernel case; the edited text is accepted again
 * and editing it once more changes nothing, as a second `seinstall apply` must not. */
#include <stdint.h>

#include "cmdline.h"
#include "fuzz-text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        _cleanup_free_ char *text = NULL;
        struct sbuf all = {};
        unsigned line = 0, lines = 1;
        int r;

        text = fuzz_text(data, size, 65536);
        if (!text)
                return 0;
        for (size_t i = 0; i < size; i++)
                lines += text[i] == '\n';

        (void) si_grub_has_cmdline_linux(text, size);
        r = si_grub_cmdline(text, size, &all, &line);
        if (r == -EBADMSG && (line < 1 || line > lines))
                abort();
        if (r < 0) {
                sbuf_free(&all);
                return 0;
        }
        r = sbuf_puts(&all, "");
        for (int m = SEINSTALL_MODE_ENFORCING; r >= 0 && m <= SEINSTALL_MODE_DISABLED; m++)
                for (int k = SEINSTALL_KERNEL_CASE_UNKNOWN; k <= SEINSTALL_KERNEL_CASE_NO_SELINUX;
                     k++) {
                        struct si_cmdline_goal goal = {.mode = m, .kcase = k};
                        _cleanup_free_ char *add = NULL, *once = NULL, *twice = NULL;
                        struct sbuf what = {}, all2 = {};
                        const char *cur;

                        if (si_cmdline_missing(all.s, &goal, &add) < 0)
                                continue;
                        if (si_grub_edit(text, size, &goal, all.s, add, &once, &line, &what) < 0)
                                abort(); /* si_grub_cmdline() accepted it */
                        sbuf_free(&what);
                        cur = once ? once : text;
                        if (si_grub_cmdline(cur, strlen(cur), &all2, &line) < 0 ||
                            sbuf_puts(&all2, "") < 0)
                                abort();
                        free(add);
                        add = NULL;
                        if (si_cmdline_missing(all2.s, &goal, &add) < 0)
                                abort();
                        if (*add)
                                abort(); /* the edit left something the goal needs */
                        if (si_grub_edit(cur, strlen(cur), &goal, all2.s, NULL, &twice, &line,
                                         &what) < 0)
                                abort();
                        sbuf_free(&what);
                        sbuf_free(&all2);
                        if (twice)
                                abort(); /* not idempotent */
                }
        sbuf_free(&all);
        return 0;
}
