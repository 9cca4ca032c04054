/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* settings.c — the choices an install is made of, each with the source that decided it.
 * Precedence is enforced here, in one place: boot > profile > target > default. The loaders
 * (profile.c, bootopts.c, and seinstall_settings_load_target() here over config.c's reader)
 * only call the setters. The install's first stage, "plan" (si_settings_decide), ends here too:
 * the settings over the target's config. */
#include "seinstall-private.h"
#include "config.h"
#include "settings.h"

/* Which line of which file decided a setting (profile and boot options say; the target's
 * config and the defaults leave it empty). */
struct origin {
        char *file;
        unsigned line;
        char *text;
};

struct seinstall_settings {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        struct origin origins[_SI_SETTING_MAX];
        enum seinstall_mode mode;
        enum seinstall_source mode_source;
        char *policy;
        enum seinstall_source policy_source;
        bool unsupported_warn;
        enum seinstall_source unsupported_source;
        enum seinstall_relabel_when relabel;
        enum seinstall_source relabel_source;
};

/* Rank of a source that may decide a setting; -1 for one that may not (host, builtin: those
 * only describe where policy knowledge came from). */
static int source_rank(enum seinstall_source source)
{
        switch (source) {
        case SEINSTALL_SOURCE_DEFAULT:
                return 0;
        case SEINSTALL_SOURCE_TARGET:
                return 1;
        case SEINSTALL_SOURCE_PROFILE:
                return 2;
        case SEINSTALL_SOURCE_BOOT:
                return 3;
        case SEINSTALL_SOURCE_OPTION:
                return 4;
        default:
                return -1;
        }
}

/* 1 when @source may replace a value decided by @current, 0 when it ranks lower, -EINVAL. */
static int may_override(enum seinstall_source current, enum seinstall_source source)
{
        if (source_rank(source) < 0)
                return -EINVAL;
        return source_rank(source) >= source_rank(current);
}

static void origin_clear(struct origin *o)
{
        free(o->file);
        free(o->text);
        *o = (struct origin){};
}

int si_settings_set_origin(struct seinstall_settings *s, enum si_setting which, const char *file,
                           unsigned line, const char *text)
{
        struct origin o = {};

        if (!s || which < 0 || which >= _SI_SETTING_MAX || !file)
                return -EINVAL;
        o.file = strdup(file);
        o.line = line;
        o.text = text ? strndup(text, 256) : NULL;
        if (!o.file || (text && !o.text)) {
                origin_clear(&o);
                return -ENOMEM;
        }
        origin_clear(&s->origins[which]);
        s->origins[which] = o;
        return 0;
}

int seinstall_settings_get_origin(const struct seinstall_settings *s,
                                  enum seinstall_setting setting, const char **ret_file,
                                  unsigned *ret_line, const char **ret_text)
{
        const struct origin *o;

        if (!s || setting < 0 || setting >= _SI_SETTING_MAX)
                return -EINVAL;
        o = &s->origins[setting];
        if (!o->file)
                return -ENOENT;
        if (ret_file)
                *ret_file = o->file;
        if (ret_line)
                *ret_line = o->line;
        if (ret_text)
                *ret_text = o->text;
        return 0;
}

SEINSTALL_EXPORT int seinstall_settings_new(struct seinstall_settings **ret)
{
        struct seinstall_settings *s;

        if (!ret)
                return -EINVAL;
        s = calloc(1, sizeof(*s));
        if (!s)
                return -ENOMEM;
        s->mode = SEINSTALL_MODE_ENFORCING;
        *ret = s;
        return 0;
}

static void settings_free(struct seinstall_settings *s)
{
        for (size_t i = 0; i < ELEMENTSOF(s->origins); i++)
                origin_clear(&s->origins[i]);
        free(s->policy);
        free(s);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_settings, seinstall_settings, settings_free);

SEINSTALL_EXPORT int seinstall_settings_set_mode(struct seinstall_settings *s,
                                                 enum seinstall_mode mode,
                                                 enum seinstall_source source)
{
        int r;

        if (!s || !seinstall_mode_to_string(mode))
                return -EINVAL;
        r = may_override(s->mode_source, source);
        if (r <= 0)
                return r;
        origin_clear(&s->origins[SI_SETTING_MODE]);
        s->mode = mode;
        s->mode_source = source;
        return 1;
}

SEINSTALL_EXPORT enum seinstall_mode seinstall_settings_get_mode(const struct seinstall_settings *s,
                                                                 enum seinstall_source *ret_source)
{
        if (!s)
                return SEINSTALL_MODE_INVALID;
        if (ret_source)
                *ret_source = s->mode_source;
        return s->mode;
}

SEINSTALL_EXPORT int seinstall_settings_set_policy(struct seinstall_settings *s, const char *type,
                                                   enum seinstall_source source)
{
        char *copy;
        int r;

        if (!s || !si_policy_type_valid(type))
                return -EINVAL;
        r = may_override(s->policy ? s->policy_source : SEINSTALL_SOURCE_DEFAULT, source);
        if (r <= 0)
                return r;
        copy = strdup(type);
        if (!copy)
                return -ENOMEM;
        origin_clear(&s->origins[SI_SETTING_POLICY]);
        free(s->policy);
        s->policy = copy;
        s->policy_source = source;
        return 1;
}

SEINSTALL_EXPORT const char *seinstall_settings_get_policy(const struct seinstall_settings *s,
                                                           enum seinstall_source *ret_source)
{
        if (!s)
                return NULL;
        if (ret_source)
                *ret_source = s->policy_source;
        return s->policy;
}

SEINSTALL_EXPORT int seinstall_settings_set_unsupported_warn(struct seinstall_settings *s,
                                                             bool warn,
                                                             enum seinstall_source source)
{
        int r;

        if (!s)
                return -EINVAL;
        r = may_override(s->unsupported_source, source);
        if (r <= 0)
                return r;
        origin_clear(&s->origins[SI_SETTING_UNSUPPORTED]);
        s->unsupported_warn = warn;
        s->unsupported_source = source;
        return 1;
}

SEINSTALL_EXPORT bool seinstall_settings_get_unsupported_warn(const struct seinstall_settings *s,
                                                              enum seinstall_source *ret_source)
{
        if (!s)
                return false;
        if (ret_source)
                *ret_source = s->unsupported_source;
        return s->unsupported_warn;
}

SEINSTALL_EXPORT int seinstall_settings_set_relabel_when(struct seinstall_settings *s,
                                                         enum seinstall_relabel_when relabel,
                                                         enum seinstall_source source)
{
        int r;

        if (!s || !seinstall_relabel_when_to_string(relabel))
                return -EINVAL;
        r = may_override(s->relabel_source, source);
        if (r <= 0)
                return r;
        origin_clear(&s->origins[SI_SETTING_RELABEL]);
        s->relabel = relabel;
        s->relabel_source = source;
        return 1;
}

SEINSTALL_EXPORT enum seinstall_relabel_when
seinstall_settings_get_relabel_when(const struct seinstall_settings *s,
                                    enum seinstall_source *ret_source)
{
        if (!s)
                return SEINSTALL_RELABEL_WHEN_INVALID;
        if (ret_source)
                *ret_source = s->relabel_source;
        return s->relabel;
}

int si_settings_decide(const struct seinstall_settings *settings, const struct si_config *config,
                       struct si_decision *ret)
{
        struct si_decision d = {
            .mode = SEINSTALL_MODE_ENFORCING,
            .mode_source = SEINSTALL_SOURCE_DEFAULT,
            .policy_source = SEINSTALL_SOURCE_DEFAULT,
        };
        const char *type = NULL;

        if (settings) {
                d.mode = seinstall_settings_get_mode(settings, &d.mode_source);
                /* The trial is judged and planned as enforcing, the mode it aims at. */
                d.trial = d.mode == SEINSTALL_MODE_TRIAL;
                if (d.trial)
                        d.mode = SEINSTALL_MODE_ENFORCING;
                type = seinstall_settings_get_policy(settings, &d.policy_source);
        }
        if (d.mode_source == SEINSTALL_SOURCE_DEFAULT && config->mode != SEINSTALL_MODE_INVALID) {
                d.mode = config->mode;
                d.mode_source = SEINSTALL_SOURCE_TARGET;
        }
        if (!type && config->type && si_policy_type_valid(config->type)) {
                type = config->type;
                d.policy_source = SEINSTALL_SOURCE_TARGET;
        }
        if (!type) {
                type = "default";
                d.policy_source = SEINSTALL_SOURCE_DEFAULT;
        }
        d.policy = strdup(type);
        if (!d.policy)
                return -ENOMEM;
        *ret = d;
        return 0;
}

void si_decision_done(struct si_decision *d)
{
        free(d->policy);
        d->policy = NULL;
}

int seinstall_settings_load_target(struct seinstall_settings *s, struct seinstall_ctx *ctx)
{
        struct si_config c = {};
        int r;

        if (!s || !ctx)
                return -EINVAL;
        r = si_config_read(ctx, &c);
        if (r < 0)
                return r;
        if (c.mode != SEINSTALL_MODE_INVALID)
                r = seinstall_settings_set_mode(s, c.mode, SEINSTALL_SOURCE_TARGET);
        if (r >= 0 && c.type && si_policy_type_valid(c.type))
                r = seinstall_settings_set_policy(s, c.type, SEINSTALL_SOURCE_TARGET);
        si_config_done(&c);
        return r < 0 ? r : 0;
}
