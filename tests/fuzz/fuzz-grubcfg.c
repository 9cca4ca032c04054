/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the boot menu's readers (grubcfg.c, bootmenu.c): any text, with and without a
 * saved_entry, finds a grub.cfg default entry or says why not, and what it finds reads as a
 * command line; any bytes as a unified kernel image's headers find its .cmdline inside them or
 * are refused. */
#include <stdint.h>

#include "bootmenu.h"
#include "cmdline.h"
#include "fuzz-text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        _cleanup_free_ char *text = fuzz_text(data, size, 65536);
        const char *saved[] = {NULL, "0", "1>0", "gnulinux-simple-1234"};

        uint64_t off;
        uint32_t len;

        if (si_pe_section(data, size, ".cmdline", &off, &len) == 0 && size < 64)
                abort(); /* a PE image has a 64-byte DOS header at least */
        if (!text)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(saved); i++) {
                struct si_grubcfg_entry e = {};
                int r = si_grubcfg_default(text, size, saved[i], &e);

                if (r == 0) {
                        if (!e.chosen_fmt || !e.chosen_arg)
                                abort(); /* what was chosen is always said */
                        if (e.cmdline)
                                free(si_cmdline_get(e.cmdline, "security"));
                } else if (e.title || e.cmdline || e.chosen_fmt || e.chosen_arg) {
                        abort(); /* nothing handed out on failure */
                }
                si_grubcfg_entry_done(&e);
        }
        return 0;
}
