/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check.c — the check stage: list the planned or mounted filesystems, probe and classify each
 * under the policy (check-classify.c), apply seinstall.unsupported=warn, into the result that
 * check-result.c hands out through getters and as JSON. si_check_run() is the stage as the install
 * pipeline runs it, on the mode, policy type and policy it already has; seinstall_check_run() is
 * `seinstall check`: it reads the config, decides (settings.c) and loads the policy itself first.
 */
#include <sys/statvfs.h>

#include "seinstall-private.h"
#include "check-stage.h"
#include "stage-options.h"
#include "config.h"
#include "policy.h"
#include "settings.h"

static void checkp_unref(struct seinstall_check_result **c)
{
        seinstall_check_result_unref(*c);
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

/* Free space below which a mount seinstall writes is called full: the config files and marks
 * take a few KiB, but a label that does not fit in a file's inode takes a block of its own. */
#define SPACE_MIN (1024ull * 1024)

/* Whether seinstall writes on @m in @mode: labels on a mount that keeps them per file, the
 * config and the marks on "/". */
static bool written(const struct si_mount *m, enum seinstall_mode mode)
{
        if (streq(m->mountpoint, "/"))
                return true;
        return mode != SEINSTALL_MODE_DISABLED && m->labeling == SEINSTALL_LABELING_XATTR;
}

static int refuse_unwritable(struct si_mount *m, int err, unsigned long long free_bytes)
{
        char *reason, *fix;

        if (err == EROFS) {
                reason = str_printf("%s (%s) is mounted read-only: seinstall cannot write its "
                                    "labels or configuration there",
                                    m->mountpoint, m->source ? m->source : m->path);
                fix = shell_command(NULL, "remount it read-write: mount -o remount,rw %q", m->path);
        } else {
                reason =
                    str_printf("%s (%s) is full (%llu KiB free; ENOSPC): writing its labels "
                               "or configuration would fail part way",
                               m->mountpoint, m->source ? m->source : m->path, free_bytes / 1024);
                fix = str_printf("free at least %llu KiB on %s (labels that do not fit in a "
                                 "file's inode take a block each)",
                                 SPACE_MIN / 1024, m->path);
        }
        if (!reason || !fix) {
                free(reason);
                free(fix);
                return -ENOMEM;
        }
        free(m->reason);
        free(m->fix);
        m->reason = reason;
        m->fix = fix;
        m->verdict = SEINSTALL_VERDICT_REFUSE;
        m->write_errno = err;
        return 0;
}

/* A mounted filesystem seinstall must write that is read-only or full is refused in every mode,
 * whatever --unsupported says: relabel and configure would fail part way. */
static int judge_writable(struct seinstall_check_result *c)
{
        for (size_t i = 0; i < c->mounts.n; i++) {
                struct si_mount *m = &c->mounts.v[i];
                unsigned long long free_bytes;
                struct statvfs sv;
                int r;

                if (!m->path || !written(m, c->mode) || statvfs(m->path, &sv) < 0)
                        continue;
                /* what is free beyond the blocks reserved for root (and the filesystem's own):
                 * a target filled into its reserve is full for an install */
                free_bytes = (unsigned long long) sv.f_bavail * sv.f_frsize;
                if (sv.f_flag & ST_RDONLY)
                        r = refuse_unwritable(m, EROFS, 0);
                else if (free_bytes < SPACE_MIN && sv.f_blocks > 0)
                        r = refuse_unwritable(m, ENOSPC, free_bytes);
                else
                        continue;
                if (r < 0)
                        return r;
                c->verdict = SEINSTALL_VERDICT_REFUSE;
        }
        return 0;
}

int si_check_writable_error(struct seinstall_ctx *ctx, const struct seinstall_check_result *c)
{
        size_t n = 0, first = 0;

        for (size_t i = 0; c && i < c->mounts.n; i++)
                if (c->mounts.v[i].write_errno && n++ == 0)
                        first = i;
        if (n == 0)
                return 0;

        _cleanup_free_ char *more =
            n > 1 ? shell_command(ctx->root, si_tr(ctx, " (and other mounts likewise: "
                                                        "'seinstall check%r' lists them)"))
                  : strdup("");

        if (!more)
                return -ENOMEM;
        return si_error(ctx, -c->mounts.v[first].write_errno, "%s; %s%s", c->mounts.v[first].reason,
                        c->mounts.v[first].fix, more);
}

static int judge_all(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                     struct seinstall_check_result *c, enum seinstall_mode mode)
{
        c->verdict = SEINSTALL_VERDICT_OK;
        for (size_t i = 0; i < c->mounts.n; i++) {
                int r = si_fscheck_mount(ctx, policy, mode, &c->mounts.v[i]);
                if (r < 0)
                        return r;
                if (c->mounts.v[i].verdict > c->verdict)
                        c->verdict = c->mounts.v[i].verdict;
        }
        return 0;
}

/* seinstall.unsupported=warn: what enforcing would refuse is accepted, with the mode lowered
 * to permissive, and every such mount says so. Never enforcing on files it cannot label. */
static int lower_mode(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                      const struct seinstall_settings *settings, struct seinstall_check_result *c)
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
        r = judge_all(ctx, policy, c, c->mode);
        for (size_t i = 0; r >= 0 && i < c->mounts.n; i++) {
                struct si_mount *m = &c->mounts.v[i];
                char *s;

                if (!refused[i])
                        continue;
                if (asprintf(&s,
                             si_tr(ctx, "%s; seinstall.unsupported=warn accepts it and lowers "
                                        "the mode from %s to permissive"),
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
                 const struct si_plan_source *plan, struct seinstall_check_result **ret)
{
        _cleanup_(checkp_unref) struct seinstall_check_result *c = NULL;
        int r;

        c = calloc(1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        ctx->counters.checks++;
        c->mode = c->requested_mode = d->mode;
        c->mode_source = d->mode_source;
        c->policy_type_source = d->policy_source;
        c->policy = strdup(d->policy);
        c->root = strdup(ctx->root);
        if (!c->policy || !c->root || (plan && !(c->plan = strdup(plan->name))))
                return -ENOMEM;
        c->policy_source = si_policy_source(policy);
        if (si_policy_path(policy) && !(c->policy_file = strdup(si_policy_path(policy))))
                return -ENOMEM;
        si_debug(ctx, "Using the %s policy from %s", c->policy,
                 c->policy_file ? c->policy_file : "seinstall's built-in table");

        /* an empty text: a kickstart that plans nothing, nothing to check */
        r = !plan ? si_mounts_read(ctx, &c->mounts)
            : plan->text
                ? (*plan->text
                       ? si_plan_parse(ctx, plan->name, plan->text, strlen(plan->text), &c->mounts)
                       : 0)
                : si_plan_read(ctx, plan->name, &c->mounts);
        if (r < 0)
                return r;
        for (size_t i = 0; i < c->mounts.n; i++) {
                struct si_mount *m = &c->mounts.v[i];
                if (worth_probing(policy, m))
                        m->probe = si_probe_xattr(m->path, &m->probe_errno);
        }
        r = judge_all(ctx, policy, c, c->mode);
        if (r >= 0)
                r = lower_mode(ctx, policy, settings, c);
        /* a warning too, so that --json's "warnings" and stderr say it beside the document */
        if (r >= 0 && c->mode_lowered)
                si_warn(ctx,
                        "The mode is lowered from %s to permissive (--unsupported warn, or the "
                        "boot option seinstall.unsupported=warn): the target boots permissive "
                        "and cannot enforce while it keeps the filesystems enforcing refuses",
                        seinstall_mode_to_string(c->requested_mode));
        if (r >= 0)
                r = judge_writable(c);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(c);
        return 0;
}

/* seinstall_check_run() on @plan (NULL: the mounts), under @have when that is a policy of
 * the decided type (NULL: load it). */
static int check_run(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                     const struct si_plan_source *plan, const struct si_policy *have,
                     struct seinstall_check_result **ret)
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
        if (r >= 0 && have && streq(si_policy_type(have), d.policy)) {
                r = si_check_run(ctx, &d, settings, have, plan, ret);
                return r;
        }
        if (r >= 0)
                r = si_policy_load(ctx, d.policy, &policy);
        if (r >= 0)
                r = si_check_run(ctx, &d, settings, policy, plan, ret);
        return r;
}

int si_check_run_mounts(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                        const struct si_policy *policy, struct seinstall_check_result **ret)
{
        if (!ctx || !ret)
                return -EINVAL;
        return check_run(ctx, settings, NULL, policy, ret);
}

SEINSTALL_EXPORT int seinstall_check_run(struct seinstall_ctx *ctx,
                                         const struct seinstall_settings *settings,
                                         const struct seinstall_check_options *options,
                                         struct seinstall_check_result **ret)
{
        const char *plan_file = options ? options->plan_file : NULL;
        const struct si_plan_source plan = {.name = plan_file};

        if (!ctx || !ret)
                return -EINVAL;
        return check_run(ctx, settings, plan_file ? &plan : NULL, NULL, ret);
}

int seinstall_check_run_profile(struct seinstall_ctx *ctx,
                                const struct seinstall_settings *settings, const char *profile,
                                const char *default_fstype, unsigned plan_flags,
                                struct seinstall_check_result **ret)
{
        _cleanup_free_ char *text = NULL;
        struct si_plan_source plan = {.name = profile};
        int r;

        if (!ctx || !profile || !ret)
                return -EINVAL;
        r = seinstall_profile_plan(ctx, profile, default_fstype, plan_flags, &text);
        if (r < 0)
                return r;
        plan.text = r > 0 ? text : "";
        return check_run(ctx, settings, &plan, NULL, ret);
}
