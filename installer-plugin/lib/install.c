/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * install.c — seinstall_install(): the whole unattended run over the stages, in the order
 * that keeps a target safe: check (read only; a refusal stops before any change), policy,
 * relabel, configure. A relabel that cannot run is not a failure of the install: the target
 * relabels at first boot and boots permissive until then; the enabling config comes last.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "configure.h"
#include "fcontext.h"

struct seinstall_install_result {
        bool refused;
        enum seinstall_mode mode;
        enum seinstall_source mode_source;
        char *policy;
        bool policy_built;
        struct seinstall_check *check;
        struct seinstall_relabel_result *relabel;
        char *relabel_error;
        struct seinstall_apply_result *apply;
};

SEINSTALL_EXPORT struct seinstall_install_result *
seinstall_install_result_unref(struct seinstall_install_result *r)
{
        if (!r)
                return NULL;
        free(r->policy);
        seinstall_check_unref(r->check);
        seinstall_relabel_result_unref(r->relabel);
        free(r->relabel_error);
        seinstall_apply_result_unref(r->apply);
        free(r);
        return NULL;
}

/* Relabel during the install. Returns the apply flag that follows: LABELED when every file got
 * its label, RELABEL (first-boot relabel) when it could not; -ENOMEM. */
static int relabel_stage(struct seinstall_ctx *ctx, struct seinstall_install_result *res,
                         enum seinstall_relabel_when when, seinstall_relabel_progress_fn progress,
                         void *userdata)
{
        const char *why;
        int r;

        if (when == SEINSTALL_RELABEL_WHEN_FIRSTBOOT) {
                res->relabel_error = strdup("the profile asks for the relabel at first boot");
                return res->relabel_error ? SEINSTALL_APPLY_RELABEL : -ENOMEM;
        }
        r = seinstall_relabel(ctx, res->policy, NULL, 0, 0, progress, userdata, &res->relabel);
        if (r >= 0)
                return SEINSTALL_APPLY_LABELED;
        if (r == -ENOMEM)
                return r;
        why = seinstall_last_error(ctx);
        if (asprintf(&res->relabel_error, "%s", why ? why : strerror(-r)) < 0)
                return -ENOMEM;
        si_warn(ctx,
                "Relabeling during the install failed (%s): a relabel at first boot is "
                "scheduled instead, and the target boots permissive until it is done",
                res->relabel_error);
        return SEINSTALL_APPLY_RELABEL;
}

/* Label one path of the target from its file contexts (never following a symlink). */
static int label_one(struct seinstall_ctx *ctx, const struct si_fcontext *fc,
                     struct si_fc_scratch *scratch, const char *path)
{
        _cleanup_close_ int fd =
            root_open(ctx, path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0);
        const char *want;
        struct stat st;
        int r;

        if (fd < 0)
                return fd == -ENOENT || fd == -ELOOP ? 0 : fd;
        if (fstat(fd, &st) < 0)
                return -errno;
        r = si_fcontext_lookup(fc, scratch, path, st.st_mode, &want);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return r;
        return fsetxattr(fd, "security.selinux", want, strlen(want) + 1, 0) < 0 ? -errno : 0;
}

/* The relabel ran before the configure stage wrote its files: label what it created (files
 * it replaced kept their labels), so the first boot finds no unlabeled file. */
static int label_configured(struct seinstall_ctx *ctx, struct seinstall_install_result *res)
{
        struct si_fcontext *fc = NULL;
        struct si_fc_scratch *scratch = NULL;
        size_t n = seinstall_apply_result_get_n_changes(res->apply);
        int r;

        r = si_fcontext_load_target(ctx, res->policy, &fc);
        if (r >= 0)
                r = si_fc_scratch_new(fc, &scratch);
        /* the mark's directories may be new too */
        for (size_t i = 0; r >= 0 && i < 2; i++)
                r = label_one(ctx, fc, scratch, i ? "/var/lib/seinstall" : "/var/lib");
        for (size_t i = 0; r >= 0 && i < n; i++)
                r = label_one(ctx, fc, scratch,
                              seinstall_apply_result_get_change_file(res->apply, i));
        si_fc_scratch_free(scratch);
        si_fcontext_free(fc);
        if (r < 0)
                return si_error(ctx, r,
                                "Could not label the files the install wrote in %s: %s "
                                "(relabel the target: seinstall relabel --root %s)",
                                ctx->root, strerror(-r), ctx->root);
        return 0;
}

SEINSTALL_EXPORT int seinstall_install(struct seinstall_ctx *ctx,
                                       const struct seinstall_settings *settings, unsigned flags,
                                       seinstall_relabel_progress_fn progress, void *userdata,
                                       struct seinstall_install_result **ret)
{
        struct seinstall_install_result *res;
        enum seinstall_relabel_when when;
        const char *policy;
        unsigned apply_flags = SEINSTALL_APPLY_FIRSTBOOT;
        int r;

        if (!ctx || !ret || (flags & ~(unsigned) SEINSTALL_INSTALL_REGENERATE))
                return -EINVAL;
        res = calloc(1, sizeof(*res));
        if (!res)
                return -ENOMEM;
        if (flags & SEINSTALL_INSTALL_REGENERATE)
                apply_flags |= SEINSTALL_APPLY_REGENERATE;
        when = settings ? seinstall_settings_get_relabel_when(settings, NULL)
                        : SEINSTALL_RELABEL_WHEN_INSTALL;

        /* 1. check: reads only */
        r = seinstall_check_run(ctx, settings, NULL, &res->check);
        if (r < 0)
                goto fail;
        res->mode = seinstall_check_get_mode(res->check, &res->mode_source);
        policy = seinstall_check_get_policy(res->check, NULL);
        res->policy = strdup(policy ? policy : "default");
        if (!res->policy) {
                r = -ENOMEM;
                goto fail;
        }
        if (seinstall_check_get_verdict(res->check) == SEINSTALL_VERDICT_REFUSE) {
                res->refused = true;
                *ret = res;
                return 0;
        }

        if (res->mode != SEINSTALL_MODE_DISABLED) {
                /* 2. policy */
                r = seinstall_policy_ensure(ctx, res->policy);
                if (r < 0)
                        goto fail;
                res->policy_built = r > 0;
                /* 3. relabel */
                r = relabel_stage(ctx, res, when, progress, userdata);
                if (r < 0)
                        goto fail;
                apply_flags |= (unsigned) r;
        }

        /* 4. configure */
        r = seinstall_apply(ctx, res->mode, res->policy, SEINSTALL_BOOTLOADER_AUTO, apply_flags,
                            &res->apply);
        if (r >= 0 && (apply_flags & SEINSTALL_APPLY_LABELED))
                r = label_configured(ctx, res);
        if (r < 0)
                goto fail;
        *ret = res;
        return 0;
fail:
        seinstall_install_result_unref(res);
        return r;
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
        return r->mode;
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

SEINSTALL_EXPORT const struct seinstall_check *
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
