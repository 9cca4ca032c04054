/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the parsers of unattended input: kickstart profiles (profile.c) and installer kernel
 * command lines (bootopts.c). The first byte picks the parser. Whatever the input, parsing
 * returns 0 or a negative errno, and on success the settings hold a valid mode and policy. */
#include <stdint.h>

#include "configure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_ctx *ctx = NULL;
        _cleanup_free_ char *text = NULL, *profile = NULL;
        int r;

        if (size < 1 || size > 65536)
                return 0;
        if (seinstall_new("/", &ctx) < 0 || seinstall_settings_new(&s) < 0)
                abort();
        text = malloc(size);
        if (!text)
                abort();
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        if (data[0] & 1)
                r = si_bootopts_parse(ctx, "fuzz", text, s, &profile);
        else
                r = si_profile_parse(ctx, "fuzz", text, size - 1, s);
        if (r > 0)
                abort();
        if (r == 0 && (!seinstall_mode_to_string(seinstall_settings_get_mode(s, NULL)) ||
                       (seinstall_settings_get_policy(s, NULL) &&
                        !si_policy_type_valid(seinstall_settings_get_policy(s, NULL))) ||
                       (profile && profile[0] != '/')))
                abort();
        if (r < 0 && r != -EBADMSG && r != -ENOMEM && r != -E2BIG)
                abort();
        seinstall_settings_unref(s);
        seinstall_unref(ctx);
        return 0;
}
