/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check.c — the check stage: list the planned or mounted filesystems, probe and classify each
 * under the policy (fscheck.c), apply seinstall.unsupported=warn, and hand the result out
 * through accessors and as JSON. si_check_run() is the stage as the install pipeline runs it,
 * on the mode, policy type and policy it already has; seinstall_check_run() is `seinstall
 * check`: it reads the config, decides (settings.c) and loads the policy itself first.
 */
#include "configure.h"

struct seinstall_check {
        int refcount;
        enum seinstall_mode mode;
        enum seinstall_mode requested_mode;
        enum seinstall_source mode_source;
        bool mode_lowered;
        char *policy;
        enum seinstall_source policy_source;      /* target, host, builtin */
        enum seinstall_source policy_type_source; /* boot, profile, target, default */
        char *policy_file;
        char *root;
        char *plan;
        enum seinstall_verdict verdict;
        struct si_mount_list mounts;
};

static void checkp_unref(struct seinstall_check **c)
{
        seinstall_check_unref(*c);
}

/* The probe only changes an answer where the policy wants per-file labels (the kernel may not
 * store them) and, for the reason text, where it gives one label to a system mount. */
static bool worth_probing(const struct si_policy *policy, const struct si_mount *m)
{
        enum si_fs_use use;
        _cleanup_free_ char *label = NULL;

        if (!m->path)
                return false;
        if (si_policy_fs_use(policy, m->fstype, &use, NULL) > 0)
                return use == SI_FS_USE_XATTR;
        return si_mount_role(m->mountpoint) != SI_ROLE_OTHER &&
               si_policy_genfs(policy, m->fstype, "/", &label) > 0;
}

static int judge_all(const struct si_policy *policy, struct seinstall_check *c,
                     enum seinstall_mode mode)
{
        c->verdict = SEINSTALL_VERDICT_OK;
        for (size_t i = 0; i < c->mounts.n; i++) {
                int r = si_fscheck_mount(policy, mode, &c->mounts.v[i]);
                if (r < 0)
                        return r;
                if (c->mounts.v[i].verdict > c->verdict)
                        c->verdict = c->mounts.v[i].verdict;
        }
        return 0;
}

/* seinstall.unsupported=warn: what enforcing would refuse is accepted, with the mode lowered
 * to permissive, and every such mount says so. Never enforcing on files it cannot label. */
static int lower_mode(const struct si_policy *policy, const struct seinstall_settings *settings,
                      struct seinstall_check *c)
{
        enum seinstall_source source = SEINSTALL_SOURCE_DEFAULT;
        bool *refused;
        int r;

        if (c->verdict != SEINSTALL_VERDICT_REFUSE || !settings ||
            !seinstall_settings_get_unsupported_warn(settings, &source))
                return 0;
        refused = calloc(c->mounts.n, sizeof(*refused));
        if (!refused)
                return -ENOMEM;
        for (size_t i = 0; i < c->mounts.n; i++)
                refused[i] = c->mounts.v[i].verdict == SEINSTALL_VERDICT_REFUSE;
        c->mode = SEINSTALL_MODE_PERMISSIVE;
        c->mode_source = source;
        c->mode_lowered = true;
        r = judge_all(policy, c, c->mode);
        for (size_t i = 0; r >= 0 && i < c->mounts.n; i++) {
                struct si_mount *m = &c->mounts.v[i];
                char *s;

                if (!refused[i])
                        continue;
                if (asprintf(&s,
                             "%s; seinstall.unsupported=warn accepts it and lowers the mode "
                             "from %s to permissive",
                             m->reason, seinstall_mode_to_string(c->requested_mode)) < 0) {
                        r = -ENOMEM;
                        break;
                }
                free(m->reason);
                m->reason = s;
        }
        free(refused);
        return r;
}

int si_check_run(struct seinstall_ctx *ctx, const struct si_decision *d,
                 const struct seinstall_settings *settings, const struct si_policy *policy,
                 const char *plan_file, struct seinstall_check **ret)
{
        _cleanup_(checkp_unref) struct seinstall_check *c = NULL;
        int r;

        c = calloc(1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        c->refcount = 1;
        ctx->counters.checks++;
        c->mode = c->requested_mode = d->mode;
        c->mode_source = d->mode_source;
        c->policy_type_source = d->policy_source;
        c->policy = strdup(d->policy);
        c->root = strdup(ctx->root);
        if (!c->policy || !c->root || (plan_file && !(c->plan = strdup(plan_file))))
                return -ENOMEM;
        c->policy_source = si_policy_source(policy);
        if (si_policy_path(policy) && !(c->policy_file = strdup(si_policy_path(policy))))
                return -ENOMEM;
        si_debug(ctx, "Using the %s policy from %s", c->policy,
                 c->policy_file ? c->policy_file : "seinstall's built-in table");

        r = plan_file ? si_plan_read(ctx, plan_file, &c->mounts) : si_mounts_read(ctx, &c->mounts);
        if (r < 0)
                return r;
        for (size_t i = 0; i < c->mounts.n; i++) {
                struct si_mount *m = &c->mounts.v[i];
                if (worth_probing(policy, m))
                        m->probe = si_probe_xattr(m->path, &m->probe_errno);
        }
        r = judge_all(policy, c, c->mode);
        if (r >= 0)
                r = lower_mode(policy, settings, c);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(c);
        return 0;
}

SEINSTALL_EXPORT int seinstall_check_run(struct seinstall_ctx *ctx,
                                         const struct seinstall_settings *settings,
                                         const char *plan_file, struct seinstall_check **ret)
{
        _cleanup_(si_config_done) struct si_config config = {.mode = SEINSTALL_MODE_INVALID};
        _cleanup_(si_decision_done) struct si_decision d = {};
        _cleanup_(si_policy_freep) struct si_policy *policy = NULL;
        int r;

        if (!ctx || !ret)
                return -EINVAL;
        r = si_config_read(ctx, &config);
        if (r >= 0)
                r = si_settings_decide(settings, &config, &d);
        if (r >= 0)
                r = si_policy_load(ctx, d.policy, &policy);
        if (r >= 0)
                r = si_check_run(ctx, &d, settings, policy, plan_file, ret);
        return r;
}

SEINSTALL_EXPORT struct seinstall_check *seinstall_check_ref(struct seinstall_check *c)
{
        if (c)
                c->refcount++;
        return c;
}

SEINSTALL_EXPORT struct seinstall_check *seinstall_check_unref(struct seinstall_check *c)
{
        if (!c || --c->refcount > 0)
                return NULL;
        si_mount_list_free(&c->mounts);
        free(c->policy);
        free(c->policy_file);
        free(c->root);
        free(c->plan);
        free(c);
        return NULL;
}

SEINSTALL_EXPORT enum seinstall_verdict seinstall_check_get_verdict(const struct seinstall_check *c)
{
        return c ? c->verdict : SEINSTALL_VERDICT_REFUSE;
}

SEINSTALL_EXPORT enum seinstall_mode seinstall_check_get_mode(const struct seinstall_check *c,
                                                              enum seinstall_source *ret_source)
{
        if (!c)
                return SEINSTALL_MODE_INVALID;
        if (ret_source)
                *ret_source = c->mode_source;
        return c->mode;
}

SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_get_requested_mode(const struct seinstall_check *c)
{
        return c ? c->requested_mode : SEINSTALL_MODE_INVALID;
}

SEINSTALL_EXPORT bool seinstall_check_get_mode_lowered(const struct seinstall_check *c)
{
        return c && c->mode_lowered;
}

SEINSTALL_EXPORT const char *seinstall_check_get_policy(const struct seinstall_check *c,
                                                        enum seinstall_source *ret_source)
{
        if (!c)
                return NULL;
        if (ret_source)
                *ret_source = c->policy_source;
        return c->policy;
}

SEINSTALL_EXPORT enum seinstall_source
seinstall_check_get_policy_type_source(const struct seinstall_check *c)
{
        return c ? c->policy_type_source : SEINSTALL_SOURCE_DEFAULT;
}

SEINSTALL_EXPORT const char *seinstall_check_get_policy_file(const struct seinstall_check *c)
{
        return c ? c->policy_file : NULL;
}

SEINSTALL_EXPORT size_t seinstall_check_get_n_mounts(const struct seinstall_check *c)
{
        return c ? c->mounts.n : 0;
}

static const struct si_mount *mount_at(const struct seinstall_check *c, size_t i)
{
        return c && i < c->mounts.n ? &c->mounts.v[i] : NULL;
}

#define MOUNT_STRING_GETTER(field)                                                                 \
        SEINSTALL_EXPORT const char *seinstall_check_get_mount_##field(                            \
            const struct seinstall_check *c, size_t i)                                             \
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
seinstall_check_get_mount_labeling(const struct seinstall_check *c, size_t i)
{
        const struct si_mount *m = mount_at(c, i);
        return m ? m->labeling : SEINSTALL_LABELING_NONE;
}

SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_get_mount_verdict(const struct seinstall_check *c, size_t i)
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

/* ,"key":"value" (or null) */
static int json_kv(struct sbuf *b, const char *sep, const char *key, const char *value)
{
        int r = sbuf_printf(b, "%s\"%s\": ", sep, key);
        return r < 0 ? r : sbuf_json_str(b, value);
}

static int json_mount(struct sbuf *b, const struct si_mount *m)
{
        int r;

        r = json_kv(b, "\n  {", "mountpoint", m->mountpoint);
        if (r >= 0)
                r = json_kv(b, ", ", "source", m->source);
        if (r >= 0)
                r = json_kv(b, ", ", "fstype", m->fstype);
        if (r >= 0)
                r = json_kv(b, ",\n   ", "labeling", seinstall_labeling_to_string(m->labeling));
        if (r >= 0)
                r = json_kv(b, ", ", "label", m->label);
        if (r >= 0)
                r = json_kv(b, ", ", "verdict", seinstall_verdict_to_string(m->verdict));
        if (r >= 0)
                r = json_kv(b, ",\n   ", "reason", m->reason);
        if (r >= 0)
                r = json_kv(b, ",\n   ", "fix", m->fix);
        if (r >= 0)
                r = json_kv(b, ",\n   ", "options", m->options);
        if (r >= 0)
                r = json_kv(b, ", ", "probe", probe_name(m->probe));
        if (r >= 0)
                r = m->line ? sbuf_printf(b, ", \"plan_line\": %u", m->line)
                            : sbuf_puts(b, ", \"plan_line\": null");
        if (r >= 0)
                r = sbuf_puts(b, "}");
        return r;
}

SEINSTALL_EXPORT int seinstall_check_to_json(const struct seinstall_check *c, char **ret)
{
        struct sbuf b = {0};
        int r;

        if (!c || !ret)
                return -EINVAL;
        r = json_kv(&b, "{", "mode", seinstall_mode_to_string(c->mode));
        if (r >= 0)
                r = json_kv(&b, ", ", "mode_source", seinstall_source_to_string(c->mode_source));
        if (r >= 0)
                r = json_kv(&b, ", ", "policy", c->policy);
        if (r >= 0)
                r = json_kv(&b, ", ", "policy_source",
                            seinstall_source_to_string(c->policy_source));
        if (r >= 0)
                r = json_kv(&b, ",\n ", "verdict", seinstall_verdict_to_string(c->verdict));
        if (r >= 0)
                r = json_kv(&b, ", ", "requested_mode",
                            seinstall_mode_to_string(c->requested_mode));
        if (r >= 0)
                r = sbuf_printf(&b, ", \"mode_lowered\": %s", c->mode_lowered ? "true" : "false");
        if (r >= 0)
                r = json_kv(&b, ",\n ", "policy_type_source",
                            seinstall_source_to_string(c->policy_type_source));
        if (r >= 0)
                r = json_kv(&b, ", ", "policy_file", c->policy_file);
        if (r >= 0)
                r = json_kv(&b, ", ", "root", c->root);
        if (r >= 0)
                r = json_kv(&b, ", ", "plan", c->plan);
        if (r >= 0)
                r = sbuf_puts(&b, ",\n \"mounts\": [");
        for (size_t i = 0; r >= 0 && i < c->mounts.n; i++) {
                if (i > 0)
                        r = sbuf_puts(&b, ",");
                if (r >= 0)
                        r = json_mount(&b, &c->mounts.v[i]);
        }
        if (r >= 0)
                r = sbuf_puts(&b, "]}\n");
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}
