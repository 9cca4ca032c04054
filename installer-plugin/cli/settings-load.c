/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* settings-load.c — gathering an install's settings from the installer's boot options, a
 * profile and the target, and printing them; shared by `profile` and `install`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_load_settings(struct seinstall_ctx *ctx, const struct cli_settings_args *a,
                      struct seinstall_settings **ret, char **ret_profile)
{
        struct seinstall_settings *s = NULL;
        char *ks = NULL, *profile = NULL;
        int r;

        r = seinstall_settings_new(&s);
        if (r < 0)
                return cli_fail(ctx, r, "settings");
        /* The order does not matter (the settings rank sources); reading the boot options
         * first tells where the profile is when inst.ks= names it. */
        if (!a->no_cmdline) {
                r = seinstall_settings_load_boot_options(s, ctx, a->cmdline_file, &ks);
                if (r < 0)
                        goto fail;
        }
        if (a->profile || ks) {
                profile = strdup(a->profile ? a->profile : ks);
                if (!profile) {
                        r = -ENOMEM;
                        goto fail;
                }
                r = seinstall_settings_load_profile(s, ctx, profile);
                if (r < 0)
                        goto fail;
        }
        if (a->load_target) {
                r = seinstall_settings_load_target(s, ctx);
                if (r < 0)
                        goto fail;
        }
        free(ks);
        *ret = s;
        if (ret_profile)
                *ret_profile = profile;
        else
                free(profile);
        return 0;
fail:
        free(ks);
        free(profile);
        seinstall_settings_unref(s);
        return cli_fail(ctx, r, "settings");
}

void cli_print_settings(const struct seinstall_settings *s, const char *profile, bool json, FILE *f)
{
        enum seinstall_source ms, ps, us, rs;
        enum seinstall_mode mode = seinstall_settings_get_mode(s, &ms);
        const char *policy = seinstall_settings_get_policy(s, &ps);
        bool warn = seinstall_settings_get_unsupported_warn(s, &us);
        enum seinstall_relabel_when relabel = seinstall_settings_get_relabel_when(s, &rs);

        if (!policy) {
                policy = "default";
                ps = SEINSTALL_SOURCE_DEFAULT;
        }
        if (!json) {
                fprintf(f, "profile:     %s\n", profile ? profile : "(none)");
                fprintf(f, "mode:        %-12s (from %s)\n", seinstall_mode_to_string(mode),
                        seinstall_source_to_string(ms));
                fprintf(f, "policy:      %-12s (from %s)\n", policy,
                        seinstall_source_to_string(ps));
                fprintf(f, "unsupported: %-12s (from %s)\n", warn ? "warn" : "refuse",
                        seinstall_source_to_string(us));
                fprintf(f, "relabel:     %-12s (from %s)\n",
                        seinstall_relabel_when_to_string(relabel), seinstall_source_to_string(rs));
                return;
        }
        fprintf(f, "{\"profile\": ");
        cli_json_str(f, profile);
        fprintf(f, ", \"mode\": \"%s\", \"mode_source\": \"%s\", \"policy\": ",
                seinstall_mode_to_string(mode), seinstall_source_to_string(ms));
        cli_json_str(f, policy);
        fprintf(f,
                ", \"policy_source\": \"%s\", \"unsupported\": \"%s\", \"unsupported_source\": "
                "\"%s\", \"relabel\": \"%s\", \"relabel_source\": \"%s\"}",
                seinstall_source_to_string(ps), warn ? "warn" : "refuse",
                seinstall_source_to_string(us), seinstall_relabel_when_to_string(relabel),
                seinstall_source_to_string(rs));
}
