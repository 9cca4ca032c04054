/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check-result.c — the result of the check stage (check.c fills it): its references, its
 * getters and its JSON, the `check --json` document.
 */
#include "seinstall-private.h"
#include "check-stage.h"

static void check_result_free(struct seinstall_check_result *c)
{
        si_mount_list_free(&c->mounts);
        free(c->policy);
        free(c->policy_file);
        free(c->root);
        free(c->plan);
        free(c);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_check_result, seinstall_check_result, check_result_free);

SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_result_get_verdict(const struct seinstall_check_result *c)
{
        return c ? c->verdict : SEINSTALL_VERDICT_REFUSE;
}

SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_result_get_mode(const struct seinstall_check_result *c,
                                enum seinstall_source *ret_source)
{
        if (!c)
                return SEINSTALL_MODE_INVALID;
        if (ret_source)
                *ret_source = c->mode_source;
        return c->mode;
}

SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_result_get_requested_mode(const struct seinstall_check_result *c)
{
        return c ? c->requested_mode : SEINSTALL_MODE_INVALID;
}

SEINSTALL_EXPORT bool
seinstall_check_result_get_mode_lowered(const struct seinstall_check_result *c)
{
        return c && c->mode_lowered;
}

SEINSTALL_EXPORT const char *
seinstall_check_result_get_policy(const struct seinstall_check_result *c,
                                  enum seinstall_source *ret_source)
{
        if (!c)
                return NULL;
        if (ret_source)
                *ret_source = c->policy_source;
        return c->policy;
}

SEINSTALL_EXPORT enum seinstall_source
seinstall_check_result_get_policy_type_source(const struct seinstall_check_result *c)
{
        return c ? c->policy_type_source : SEINSTALL_SOURCE_DEFAULT;
}

SEINSTALL_EXPORT const char *
seinstall_check_result_get_policy_file(const struct seinstall_check_result *c)
{
        return c ? c->policy_file : NULL;
}

SEINSTALL_EXPORT size_t seinstall_check_result_get_n_mounts(const struct seinstall_check_result *c)
{
        return c ? c->mounts.n : 0;
}

static const struct si_mount *mount_at(const struct seinstall_check_result *c, size_t i)
{
        return c && i < c->mounts.n ? &c->mounts.v[i] : NULL;
}

#define MOUNT_STRING_GETTER(field)                                                                 \
        SEINSTALL_EXPORT const char *seinstall_check_result_get_mount_##field(                     \
            const struct seinstall_check_result *c, size_t i)                                      \
        {                                                                                          \
                const struct si_mount *m = mount_at(c, i);                                         \
                return m ? m->field : NULL;                                                        \
        }

MOUNT_STRING_GETTER(mountpoint)
MOUNT_STRING_GETTER(source)
MOUNT_STRING_GETTER(fstype)
MOUNT_STRING_GETTER(label)
MOUNT_STRING_GETTER(reason)
MOUNT_STRING_GETTER(fix)

SEINSTALL_EXPORT enum seinstall_labeling
seinstall_check_result_get_mount_labeling(const struct seinstall_check_result *c, size_t i)
{
        const struct si_mount *m = mount_at(c, i);
        return m ? m->labeling : SEINSTALL_LABELING_NONE;
}

SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_result_get_mount_verdict(const struct seinstall_check_result *c, size_t i)
{
        const struct si_mount *m = mount_at(c, i);
        return m ? m->verdict : SEINSTALL_VERDICT_REFUSE;
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static const char *probe_name(enum si_probe p)
{
        switch (p) {
        case SI_PROBE_YES:
                return "yes";
        case SI_PROBE_NO:
                return "no";
        case SI_PROBE_UNKNOWN:
                return "unknown";
        default:
                return "not-run";
        }
}

/* The layout (line breaks where they were) is the one `check --json` always printed. */
static void json_mount(struct json *j, const struct si_mount *m)
{
        json_break(j, "  ");
        json_object_begin(j);
        json_kv_string(j, "mountpoint", m->mountpoint);
        json_kv_string(j, "source", m->source);
        json_kv_string(j, "fstype", m->fstype);
        json_break(j, "   ");
        json_kv_string(j, "labeling", seinstall_labeling_to_string(m->labeling));
        json_kv_string(j, "label", m->label);
        json_kv_string(j, "verdict", seinstall_verdict_to_string(m->verdict));
        json_break(j, "   ");
        json_kv_string(j, "reason", m->reason);
        json_break(j, "   ");
        json_kv_string(j, "fix", m->fix);
        json_break(j, "   ");
        json_kv_string(j, "options", m->options);
        json_kv_string(j, "probe", probe_name(m->probe));
        json_key(j, "plan_line");
        if (m->line)
                json_uint(j, m->line);
        else
                json_null(j);
        json_object_end(j);
}

SEINSTALL_EXPORT int seinstall_check_result_to_json(const struct seinstall_check_result *c,
                                                    char **ret)
{
        struct json j = {0};

        if (!c || !ret)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "mode", seinstall_mode_to_string(c->mode));
        json_kv_string(&j, "mode_source", seinstall_source_to_string(c->mode_source));
        json_kv_string(&j, "policy", c->policy);
        json_kv_string(&j, "policy_source", seinstall_source_to_string(c->policy_source));
        json_break(&j, " ");
        json_kv_string(&j, "verdict", seinstall_verdict_to_string(c->verdict));
        json_kv_string(&j, "requested_mode", seinstall_mode_to_string(c->requested_mode));
        json_kv_bool(&j, "mode_lowered", c->mode_lowered);
        json_break(&j, " ");
        json_kv_string(&j, "policy_type_source", seinstall_source_to_string(c->policy_type_source));
        json_kv_string(&j, "policy_file", c->policy_file);
        json_kv_string(&j, "root", c->root);
        json_kv_string(&j, "plan", c->plan);
        json_break(&j, " ");
        json_key(&j, "mounts");
        json_array_begin(&j);
        for (size_t i = 0; i < c->mounts.n; i++)
                json_mount(&j, &c->mounts.v[i]);
        json_array_end(&j);
        json_object_end(&j);
        json_break(&j, "");
        return json_steal(&j, ret);
}
