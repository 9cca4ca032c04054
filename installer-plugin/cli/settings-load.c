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
        _cleanup_(seinstall_settings_unrefp) struct seinstall_settings *s = NULL;
        _cleanup_free_ char *ks = NULL, *profile = NULL;
        int r;

        r = seinstall_settings_new(&s);
        if (r < 0)
                return cli_fail(ctx, r, "settings");
        /* The order does not matter (the settings rank sources); reading the boot options
         * first tells where the profile is when inst.ks= names it. */
        if (!a->no_cmdline) {
                r = seinstall_settings_load_boot_options(s, ctx, a->cmdline_file, &ks);
                if (r < 0)
                        return cli_fail(ctx, r, "settings");
        }
        if (a->profile || ks) {
                profile = strdup(a->profile ? a->profile : ks);
                if (!profile)
                        return cli_fail(ctx, -ENOMEM, "settings");
                r = seinstall_settings_load_profile(s, ctx, profile);
                if (r < 0)
                        return cli_fail(ctx, r, "settings");
        }
        if (a->load_target) {
                r = seinstall_settings_load_target(s, ctx);
                if (r < 0)
                        return cli_fail(ctx, r, "settings");
        }
        *ret = TAKE_PTR(s);
        if (ret_profile)
                *ret_profile = TAKE_PTR(profile);
        return 0;
}

struct settings_view {
        enum seinstall_source ms, ps, us, rs;
        enum seinstall_mode mode;
        const char *policy;
        bool warn;
        enum seinstall_relabel_when relabel;
};

static void settings_view(const struct seinstall_settings *s, struct settings_view *v)
{
        v->mode = seinstall_settings_get_mode(s, &v->ms);
        v->policy = seinstall_settings_get_policy(s, &v->ps);
        v->warn = seinstall_settings_get_unsupported_warn(s, &v->us);
        v->relabel = seinstall_settings_get_relabel_when(s, &v->rs);
        if (!v->policy) {
                v->policy = "default";
                v->ps = SEINSTALL_SOURCE_DEFAULT;
        }
}

const char *cli_source_name(enum seinstall_source src, const char *option)
{
        return src == SEINSTALL_SOURCE_OPTION ? option : seinstall_source_to_string(src);
}

/* " (from SOURCE, FILE:LINE)" for people; @option names the command's own option. */
static void print_source(FILE *f, const struct seinstall_settings *s,
                         enum seinstall_setting setting, enum seinstall_source src,
                         const char *option)
{
        const char *file;
        unsigned line;

        if (seinstall_settings_get_origin(s, setting, &file, &line, NULL) == 0)
                fprintf(f, _("(from %s, %s:%u)\n"), cli_source_name(src, option), cli_esc(file),
                        line);
        else
                fprintf(f, _("(from %s)\n"), cli_source_name(src, option));
}

void cli_print_settings(const struct seinstall_settings *s, const char *profile, FILE *f)
{
        struct settings_view v;

        settings_view(s, &v);
        /* TRANSLATORS: the settings' labels are padded to one column (13 characters in
         * English), their values to 12; pad the translations alike */
        fprintf(f, _("profile:     %s\n"), profile ? cli_esc(profile) : _("(none)"));
        fprintf(f, _("mode:        %-12s "), seinstall_mode_to_string(v.mode));
        print_source(f, s, SEINSTALL_SETTING_MODE, v.ms, "--mode");
        fprintf(f, _("policy:      %-12s "), cli_esc(v.policy));
        print_source(f, s, SEINSTALL_SETTING_POLICY, v.ps, "--policy");
        fprintf(f, _("unsupported: %-12s "), v.warn ? "warn" : "refuse");
        print_source(f, s, SEINSTALL_SETTING_UNSUPPORTED, v.us, "--unsupported");
        fprintf(f, _("relabel:     %-12s "), seinstall_relabel_when_to_string(v.relabel));
        print_source(f, s, SEINSTALL_SETTING_RELABEL_WHEN, v.rs, "--relabel");
}

/* "SETTING_origin": {"file": F, "line": N, "text": T}, or null when the target's config or the
 * default decided: which file and line (an included file's own) made the decision. */
static void json_origin(struct json *j, const struct seinstall_settings *s, const char *key,
                        enum seinstall_setting setting)
{
        const char *file, *text;
        unsigned line;

        json_key(j, key);
        if (seinstall_settings_get_origin(s, setting, &file, &line, &text) < 0) {
                json_null(j);
                return;
        }
        json_object_begin(j);
        json_kv_string(j, "file", file);
        json_kv_uint(j, "line", line);
        json_kv_string(j, "text", text);
        json_object_end(j);
}

void cli_json_settings(struct json *j, const struct seinstall_settings *s, const char *profile)
{
        struct settings_view v;

        settings_view(s, &v);
        json_object_begin(j);
        json_kv_string(j, "profile", profile);
        /* A trial says the mode it aims at, and that it is a trial. */
        json_kv_string(j, "mode",
                       seinstall_mode_to_string(
                           v.mode == SEINSTALL_MODE_TRIAL ? SEINSTALL_MODE_ENFORCING : v.mode));
        json_kv_bool(j, "trial", v.mode == SEINSTALL_MODE_TRIAL);
        json_kv_string(j, "mode_source", seinstall_source_to_string(v.ms));
        json_origin(j, s, "mode_origin", SEINSTALL_SETTING_MODE);
        json_kv_string(j, "policy", v.policy);
        json_kv_string(j, "policy_source", seinstall_source_to_string(v.ps));
        json_origin(j, s, "policy_origin", SEINSTALL_SETTING_POLICY);
        json_kv_string(j, "unsupported", v.warn ? "warn" : "refuse");
        json_kv_string(j, "unsupported_source", seinstall_source_to_string(v.us));
        json_origin(j, s, "unsupported_origin", SEINSTALL_SETTING_UNSUPPORTED);
        json_kv_string(j, "relabel", seinstall_relabel_when_to_string(v.relabel));
        json_kv_string(j, "relabel_source", seinstall_source_to_string(v.rs));
        json_origin(j, s, "relabel_origin", SEINSTALL_SETTING_RELABEL_WHEN);
        json_object_end(j);
}

int cli_settings_set_opts(struct seinstall_settings *s, const struct opts *o)
{
        int r = 0;

        if (o->mode != SEINSTALL_MODE_INVALID)
                r = seinstall_settings_set_mode(s, o->mode, SEINSTALL_SOURCE_OPTION);
        if (r >= 0 && o->policy)
                r = seinstall_settings_set_policy(s, o->policy, SEINSTALL_SOURCE_OPTION);
        if (r >= 0 && o->unsupported_warn >= 0)
                r = seinstall_settings_set_unsupported_warn(s, o->unsupported_warn,
                                                            SEINSTALL_SOURCE_OPTION);
        return r;
}
