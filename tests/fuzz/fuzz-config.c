/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz /etc/selinux/config and /boot/config-* handling (config.c, kconfig.c): any text parses;
 * rendering it for every mode gives a text that parses back to that mode and type, and
 * rendering that again changes nothing (a second apply writes nothing). */
#include <stdint.h>

#include "seinstall-private.h"
#include "config.h"

static const enum seinstall_mode modes[] = {SEINSTALL_MODE_ENFORCING, SEINSTALL_MODE_PERMISSIVE,
                                            SEINSTALL_MODE_DISABLED};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        _cleanup_free_ char *text = NULL;
        struct si_config c = {};
        bool bootparam;

        if (size > 65536)
                return 0;
        /* Exactly @size bytes, no terminating NUL: a read past the end is caught. */
        text = malloc(size ? size : 1);
        if (!text)
                return 0;
        memcpy(text, data, size);

        if (si_config_parse(text, size, &c) == 0)
                si_config_done(&c);
        (void) si_kconfig_case_of(text, size, &bootparam);

        /* Config texts seinstall rewrites have no NUL (config.c refuses them). */
        if (memchr(text, '\0', size))
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(modes); i++) {
                _cleanup_free_ char *once = NULL, *twice = NULL;
                struct si_config back = {};

                if (si_config_render(text, size, modes[i], "default", &once) < 0)
                        continue;
                if (si_config_parse(once, strlen(once), &back) < 0)
                        abort();
                if (back.mode != modes[i] || !back.type || !streq(back.type, "default"))
                        abort();
                si_config_done(&back);
                if (si_config_render(once, strlen(once), modes[i], "default", &twice) < 0)
                        abort();
                if (!streq(once, twice))
                        abort();
        }
        return 0;
}
