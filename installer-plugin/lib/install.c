/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * install.c — seinstall_install(): one install as a pipeline of stages, run in the order that
 * keeps a target safe. Each stage is a function here that calls the file that owns the work,
 * and hands what it read on to the next one in struct pipeline, so every input is read once:
 *
 *   plan       settings.c      the target's /etc/selinux/config (read here, once) under the
 *                              settings: mode and policy type, and who chose them
 *   check      check.c         the policy (policy.c, loaded once) judges every mount
 *                              (check-classify.c, check-mounts.c); a refusal ends the install here,
 *                              before anything in the target changed
 *   policy     policy-build.c   the target's policy is built from its modules when missing
 *   relabel    relabel.c       the target's file_contexts (fcontext.c, compiled once) label
 *                              every mount the check found labelable; when that cannot run,
 *                              the target relabels at first boot and boots permissive until then
 *   configure  apply.c         config.c, cmdline-*.c/bootloader.c, autorelabel.c and
 *                              firstbootmark.c, in apply.c's safe order: the enabling config last;
 *                              each file labeled as it is written (label.c, on relabel's
 *                              compiled file contexts)
 *   verify     verify.c        every label checked against the file contexts (relabel's engine
 *                              on the compiled file contexts), and what differs fixed
 *
 * A stage returns a negative errno (the install fails; nothing after it runs), 0 (go on) or
 * STOP (the install is over, successfully: a refusal, or nothing left to do).
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "apply.h"
#include "check-stage.h"
#include "config.h"
#include "policy.h"
#include "relabel.h"
#include "settings.h"
#include "fcontext.h"

struct seinstall_install_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        bool refused;
        enum seinstall_mode mode;
        enum seinstall_source mode_source;
        bool trial; /* the trial mode: config permissive, the trial pending */
        char *policy;
        bool policy_built;
        struct seinstall_check_result *check;
        struct seinstall_relabel_result *relabel;
        char *relabel_error;
        struct seinstall_apply_result *apply;
        struct seinstall_verify_result *verify;
};

/* What one install carries from stage to stage. */
struct pipeline {
        struct seinstall_ctx *ctx;
        const struct seinstall_settings *settings;
        unsigned flags;                                  /* SEINSTALL_INSTALL_* */
        const struct seinstall_relabel_options *options; /* never NULL */

        struct si_config config;     /* plan: the target's /etc/selinux/config as found */
        struct si_decision decision; /* plan: mode and policy type asked for */
        bool policy_pending;         /* dry run: the real run would build the policy first */
        struct si_policy *policy;    /* check: the policy the mounts were judged by */
        struct si_fcontext *fc;      /* relabel: the target's file contexts, compiled */
        unsigned apply_flags;        /* relabel's outcome for configure: LABELED or RELABEL */
        struct seinstall_install_result *res; /* what the caller gets */
};

#define STOP 1

static void install_result_free(struct seinstall_install_result *r)
{
        free(r->policy);
        seinstall_check_result_unref(r->check);
        seinstall_relabel_result_unref(r->relabel);
        free(r->relabel_error);
        seinstall_apply_result_unref(r->apply);
        seinstall_verify_result_unref(r->verify);
        free(r);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_install_result, seinstall_install_result, install_result_free);

static int stage_plan(struct pipeline *p)
{
        int r = si_config_read(p->ctx, &p->config);

        if (r < 0)
                return r;
        return si_settings_decide(p->settings, &p->config, &p->decision);
}

static int stage_check(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        const char *policy;
        int r;

        r = si_policy_load(p->ctx, p->decision.policy, &p->policy);
        if (r < 0)
                return r;
        r = si_check_run(p->ctx, &p->decision, p->settings, p->policy, NULL, &res->check);
        if (r < 0)
                return r;
        res->mode = seinstall_check_result_get_mode(res->check, &res->mode_source);
        policy = seinstall_check_result_get_policy(res->check, NULL);
        res->policy = strdup(policy ? policy : "default");
        if (!res->policy)
                return -ENOMEM;
        if (seinstall_check_result_get_verdict(res->check) == SEINSTALL_VERDICT_REFUSE) {
                res->refused = true;
                return STOP;
        }
        return 0;
}

/* A dry run of the policy stage: the real run builds the policy from the installed modules,
 * and fails as it would without them. The stages after it then preview what they do once it
 * is built. */
static int policy_preview(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        _cleanup_free_ char *modules = NULL;
        _cleanup_close_ int fd = -EBADF;

        if (si_policy_built(p->ctx, res->policy))
                return 0;
        if (asprintf(&modules, "/var/lib/selinux/%s/active/modules", res->policy) < 0)
                return -ENOMEM;
        fd = si_root_open(p->ctx, modules, O_PATH | O_DIRECTORY, 0);
        if (fd < 0)
                return si_error(p->ctx, -ENOPKG,
                                "The target has no SELinux policy '%s' (neither %s/etc/selinux/%s/"
                                "policy nor modules in %s%s): install %s in the target",
                                res->policy, p->ctx->root, res->policy, p->ctx->root, modules,
                                si_policy_package_hint(p->ctx, res->policy));
        res->policy_built = true; /* would be */
        p->policy_pending = true;
        return 0;
}

static int stage_policy(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        int r;

        if (res->mode == SEINSTALL_MODE_DISABLED)
                return 0;
        if (p->flags & SEINSTALL_INSTALL_DRY_RUN)
                return policy_preview(p);
        r = seinstall_policy_ensure(p->ctx, res->policy);
        if (r <= 0)
                return r;
        /* Built just now: the check judged by the host's policy or the built-in table; the
         * relabel validates contexts against the target's own, so read the new one. */
        res->policy_built = true;
        p->policy = si_policy_free(p->policy);
        return si_policy_load(p->ctx, res->policy, &p->policy);
}

/* The relabel could not run or failed: not a failure of the install, the target relabels at
 * first boot (and boots permissive until then). */
static int relabel_later(struct pipeline *p, int r)
{
        struct seinstall_install_result *res = p->res;
        const char *why = seinstall_last_error(p->ctx);

        if (asprintf(&res->relabel_error, "%s", why ? why : strerror(-r)) < 0)
                return -ENOMEM;
        si_warn(p->ctx,
                "Relabeling during the install failed (%s): a relabel at first boot is "
                "scheduled instead, and the target boots permissive until it is done",
                res->relabel_error);
        p->apply_flags |= SEINSTALL_APPLY_RELABEL;
        return 0;
}

static int stage_relabel(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        struct si_relabel_input in = {.type = res->policy, .check = res->check};
        int r;

        if (res->mode == SEINSTALL_MODE_DISABLED)
                return 0;
        if (p->settings && seinstall_settings_get_relabel_when(p->settings, NULL) ==
                               SEINSTALL_RELABEL_WHEN_FIRSTBOOT) {
                res->relabel_error = strdup("the profile asks for the relabel at first boot");
                p->apply_flags |= SEINSTALL_APPLY_RELABEL;
                return res->relabel_error ? 0 : -ENOMEM;
        }
        if (p->policy_pending) {
                /* its file contexts come with the build: the real run relabels after it */
                p->apply_flags |= SEINSTALL_APPLY_LABELED;
                return 0;
        }
        r = si_fcontext_load_target(p->ctx, res->policy, 0, &p->fc);
        if (r >= 0)
                r = si_relabel_validate(p->ctx, p->policy, res->policy, p->fc);
        in.fc = p->fc;
        /* a file contexts line the policy rejects is bad input: stop, as relabel does */
        if (r == -EBADMSG)
                return r;
        if (r >= 0)
                r = si_relabel_run(p->ctx, &in, p->options->threads,
                                   p->flags & SEINSTALL_INSTALL_DRY_RUN ? SEINSTALL_RELABEL_DRY_RUN
                                                                        : 0,
                                   p->options->progress, p->options->userdata, &res->relabel);
        if (r == -ENOMEM || r == -EINTR) /* asked to stop: stop, schedule nothing */
                return r;
        if (r < 0)
                return relabel_later(p, r);
        p->apply_flags |= SEINSTALL_APPLY_LABELED;
        return 0;
}

static int stage_configure(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        unsigned flags = p->apply_flags | SEINSTALL_APPLY_FIRSTBOOT;
        int r;

        if (p->flags & SEINSTALL_INSTALL_REGENERATE)
                flags |= SEINSTALL_APPLY_REGENERATE;
        /* The trial aims at enforcing: a mode lowered by unsupported=warn can never get there. */
        res->trial = p->decision.trial && res->mode == SEINSTALL_MODE_ENFORCING &&
                     !seinstall_check_result_get_mode_lowered(res->check);
        if (res->trial)
                flags |= SI_APPLY_TRIAL;
        /* What it writes is labeled with the file contexts the relabel used (label.c); a
         * target that relabels at first boot is labeled then. */
        r = si_labels_use(p->ctx, p->apply_flags & SEINSTALL_APPLY_LABELED ? p->fc : NULL);
        if (r < 0)
                return r;
        /* a dry run: the same run with the writes skipped where they happen (rootfs-write.c) */
        if (p->flags & SEINSTALL_INSTALL_DRY_RUN)
                flags |=
                    SEINSTALL_APPLY_DRY_RUN | (p->policy_pending ? SI_APPLY_POLICY_PENDING : 0);
        return si_apply_run(p->ctx, &p->config, res->mode, res->policy, SEINSTALL_BOOTLOADER_AUTO,
                            flags, &res->apply);
}

/* Say what verify fixed: each directory, with its examples. */
static void log_fixed(struct seinstall_ctx *ctx, const struct seinstall_verify_result *v)
{
        unsigned long long fixed =
            seinstall_verify_result_get_count(v, SEINSTALL_VERIFY_COUNT_FIXED);

        if (fixed == 0)
                return;
        si_info(ctx,
                si_ntr(ctx,
                       "verify: %llu label written after the relabel differed from the file "
                       "contexts; fixed:",
                       "verify: %llu labels written after the relabel differed from the file "
                       "contexts; fixed:",
                       fixed),
                fixed);
        for (size_t i = 0; i < seinstall_verify_result_get_n_dirs(v); i++) {
                size_t nex = seinstall_verify_result_get_dir_n_examples(v, i);
                unsigned long long n = seinstall_verify_result_get_dir_fixed(v, i);

                for (size_t k = 0; k < nex; k++) {
                        const char *was = seinstall_verify_result_get_example_actual(v, i, k);
                        si_info(ctx, "verify: fixed %s: %s, now %s",
                                seinstall_verify_result_get_example_path(v, i, k),
                                was ? was : si_tr(ctx, "no label"),
                                seinstall_verify_result_get_example_expected(v, i, k));
                }
                if (n > nex)
                        si_info(ctx, "verify: fixed %llu more in %s", n - nex,
                                seinstall_verify_result_get_dir_path(v, i));
        }
}

/* The last stage, after every write of the install: what package scripts, the boot loader
 * install and the configure stage wrote after labeling, verified with relabel's engine (on
 * p->fc, not compiled again) and fixed. Only when the relabel ran: a target that relabels at
 * first boot is labeled then. */
static int stage_verify(struct pipeline *p)
{
        struct seinstall_install_result *res = p->res;
        const struct si_relabel_input in = {.type = res->policy, .fc = p->fc, .check = res->check};
        int r;

        if (!(p->apply_flags & SEINSTALL_APPLY_LABELED) || !p->fc ||
            (p->flags & SEINSTALL_INSTALL_DRY_RUN))
                return 0;
        r = si_verify_run(p->ctx, &in, p->options->threads, SEINSTALL_VERIFY_FIX,
                          p->options->progress, p->options->userdata, &res->verify);
        if (r < 0)
                return si_error_run(
                    p->ctx, r, shell_command(p->ctx->root, "seinstall verify%r --fix"),
                    "Could not fix the labels written after the relabel of %s (%s); before "
                    "booting it, run: ",
                    p->ctx->root, seinstall_last_error(p->ctx));
        log_fixed(p->ctx, res->verify);
        if (r > 0)
                return si_error_run(
                    p->ctx, -SEINSTALL_ERROR_INCOMPLETE,
                    shell_command(p->ctx->root, "seinstall verify%r"),
                    "%llu labels of %s still differ from the file contexts after fixing them "
                    "(a verify run after the fix found them); to see them, run: ",
                    seinstall_verify_result_get_count(res->verify,
                                                      SEINSTALL_VERIFY_COUNT_REMAINING),
                    p->ctx->root);
        return 0;
}

static const struct stage {
        const char *name;
        int (*run)(struct pipeline *p);
} stages[] = {
    {"plan", stage_plan},           /* settings.c, config.c */
    {"check", stage_check},         /* policy.c, check.c */
    {"policy", stage_policy},       /* policy-build.c */
    {"relabel", stage_relabel},     /* fcontext.c, relabel.c */
    {"configure", stage_configure}, /* apply.c */
    {"verify", stage_verify},       /* verify.c */
};

SEINSTALL_EXPORT int seinstall_install(struct seinstall_ctx *ctx,
                                       const struct seinstall_settings *settings,
                                       const struct seinstall_relabel_options *options,
                                       unsigned flags, struct seinstall_install_result **ret)
{
        struct pipeline p = {
            .ctx = ctx,
            .settings = settings,
            .flags = flags,
            .options = si_relabel_options_or_defaults(options),
            .config = {.mode = SEINSTALL_MODE_INVALID},
        };
        int r = 0;

        if (!ctx || !ret ||
            (flags & ~(unsigned) (SEINSTALL_INSTALL_REGENERATE | SEINSTALL_INSTALL_DRY_RUN)))
                return -EINVAL;
        /* the settings choose the policy, and the target's own file contexts label it */
        if (p.options->policy || p.options->file_contexts)
                return si_error(ctx, -EINVAL,
                                "install: the policy type comes from the settings, the file "
                                "contexts from the target: leave them unset in the options");
        p.res = calloc(1, sizeof(*p.res));
        if (!p.res)
                return -ENOMEM;
        for (size_t i = 0; r == 0 && i < ELEMENTSOF(stages); i++) {
                si_debug(ctx, "install: %s", stages[i].name);
                r = si_interrupted(ctx) ? -EINTR : stages[i].run(&p);
        }
        si_labels_reset(ctx);
        si_config_done(&p.config);
        si_decision_done(&p.decision);
        si_policy_free(p.policy);
        si_fcontext_free(p.fc);
        if (r < 0) {
                seinstall_install_result_unref(p.res);
                return r;
        }
        *ret = p.res;
        return 0;
}

SEINSTALL_EXPORT bool seinstall_install_result_get_refused(const struct seinstall_install_result *r)
{
        return r && r->refused;
}

SEINSTALL_EXPORT enum seinstall_mode
seinstall_install_result_get_mode(const struct seinstall_install_result *r,
                                  enum seinstall_source *ret_source)
{
        if (!r)
                return SEINSTALL_MODE_INVALID;
        if (ret_source)
                *ret_source = r->mode_source;
        return r->trial ? SEINSTALL_MODE_TRIAL : r->mode;
}

SEINSTALL_EXPORT const char *
seinstall_install_result_get_policy(const struct seinstall_install_result *r)
{
        return r ? r->policy : NULL;
}

SEINSTALL_EXPORT bool
seinstall_install_result_get_policy_built(const struct seinstall_install_result *r)
{
        return r && r->policy_built;
}

SEINSTALL_EXPORT const struct seinstall_check_result *
seinstall_install_result_get_check(const struct seinstall_install_result *r)
{
        return r ? r->check : NULL;
}

SEINSTALL_EXPORT const struct seinstall_relabel_result *
seinstall_install_result_get_relabel(const struct seinstall_install_result *r)
{
        return r ? r->relabel : NULL;
}

SEINSTALL_EXPORT const struct seinstall_apply_result *
seinstall_install_result_get_apply(const struct seinstall_install_result *r)
{
        return r ? r->apply : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_install_result_get_relabel_error(const struct seinstall_install_result *r)
{
        return r ? r->relabel_error : NULL;
}

SEINSTALL_EXPORT const struct seinstall_verify_result *
seinstall_install_result_get_verify(const struct seinstall_install_result *r)
{
        return r ? r->verify : NULL;
}
