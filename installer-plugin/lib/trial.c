/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trial.c — the trial mode, "permissive until a clean boot": setting one up, ending it by
 * hand, the decision (a pure function of the recorded state and this boot's classified
 * denials, apart from the I/O so tests drive it with canned results), and what acting on it
 * means: SELINUX=enforcing written
 * as apply writes it (config.c) and, on the running system, enforcing now. A trial decides
 * once: a decided state is reported, never decided again; setting one up again is a person's
 * explicit `apply --mode=trial`.
 */
#include <assert.h>
#include <fcntl.h>
#include <selinux/selinux.h>
#include <time.h>

#include "seinstall-private.h"
#include "config.h"
#include "marks.h"
#include "relabel.h"
#include "trial.h"

/* ---- setting a trial up, ending it by hand (apply.c) ---------------------------------------- */

int si_trial_start(struct seinstall_ctx *ctx, const char *policy, unsigned wflags)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = NULL,
                                                                               *t = NULL;
        char now[32];
        int r;

        /* Already pending for this policy: a second apply changes nothing (not even the time).
         * A decided, cancelled or unreadable state is replaced: the person asks for a new
         * trial. */
        if (si_trial_read_state(ctx, &cur) >= 0 && cur->state == SEINSTALL_TRIAL_PENDING &&
            streq_ptr(cur->policy, policy))
                return 0;
        r = si_trial_now_utc(now);
        if (r >= 0)
                r = si_trial_new(SEINSTALL_TRIAL_PENDING, &t);
        if (r >= 0)
                r = si_trial_set_str(&t->policy, policy);
        if (r >= 0)
                r = si_trial_set_str(&t->started, now);
        if (r < 0)
                return r;
        return si_trial_write_state(ctx, t, wflags);
}

int si_trial_cancel(struct seinstall_ctx *ctx, unsigned wflags)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        char now[32];
        int r;

        /* Only a pending trial that can be read: anything else has nothing left to decide
         * (an unreadable one is refused by the trial itself). */
        if (si_trial_read_state(ctx, &t) < 0 || t->state != SEINSTALL_TRIAL_PENDING)
                return 0;
        r = si_trial_now_utc(now);
        if (r >= 0)
                r = si_trial_set_str(&t->decided, now);
        if (r < 0)
                return r;
        t->state = SEINSTALL_TRIAL_CANCELLED;
        return si_trial_write_state(ctx, t, wflags);
}

bool si_trial_unit_installed(struct seinstall_ctx *ctx)
{
        static const char *const dirs[] = {"/etc/systemd/system/", "/usr/lib/systemd/system/",
                                           "/lib/systemd/system/"};

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                _cleanup_free_ char *p = NULL;
                if (asprintf(&p, "%s%s", dirs[i], SEINSTALL_TRIAL_UNIT) < 0)
                        return false;
                _cleanup_close_ int fd = si_root_open(ctx, p, O_PATH, 0);
                if (fd >= 0)
                        return true;
        }
        return false;
}

int si_trial_enable_unit(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path)
{
        _cleanup_free_ char *dir = strndup(TRIAL_WANTS, strrchr(TRIAL_WANTS, '/') - TRIAL_WANTS);
        int r;

        if (!dir)
                return -ENOMEM;
        r = si_root_mkdir_p(ctx, dir, 0755, wflags);
        if (r >= 0)
                r = si_root_symlink(ctx, TRIAL_WANTS, TRIAL_UNIT_LINK, wflags);
        if (r < 0)
                return si_error(ctx, r, "Could not enable %s: making the link %s%s: %s",
                                SEINSTALL_TRIAL_UNIT, ctx->root, TRIAL_WANTS,
                                r == -EEXIST ? "a file is in the way: remove it"
                                             : si_strerror(ctx, r));
        *ret_path = TRIAL_WANTS;
        return r;
}

/* ---- the decision --------------------------------------------------------------------------- */

int si_trial_decide_from(const struct seinstall_trial_result *cur,
                         const struct si_trial_evidence *ev, const char *now,
                         struct seinstall_trial_result **ret)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        int r;

        /* Once decided (or cancelled, or never set up), a trial never decides again. */
        if (cur->state != SEINSTALL_TRIAL_PENDING) {
                *ret = NULL;
                return 0;
        }
        r = si_trial_new(ev->label_denials > 0 || ev->mislabeled > 0 || ev->n_files > 0
                             ? SEINSTALL_TRIAL_KEPT_PERMISSIVE
                             : SEINSTALL_TRIAL_ENFORCED,
                         &t);
        if (r >= 0)
                r = si_trial_set_str(&t->policy, cur->policy);
        if (r >= 0)
                r = si_trial_set_str(&t->started, cur->started);
        if (r >= 0)
                r = si_trial_set_str(&t->decided, now);
        if (r >= 0)
                r = si_trial_set_str(&t->log, ev->log);
        for (size_t i = 0; r >= 0 && i < ev->n_files; i++)
                r = si_trial_add_path(t, ev->files[i].path, ev->files[i].fix);
        if (r < 0)
                return r;
        t->denials = ev->denials;
        t->label_denials = ev->label_denials;
        t->mislabeled = ev->mislabeled;
        *ret = TAKE_PTR(t);
        return 1;
}

DEFINE_CLEANUP_FUNC(struct seinstall_verify_result *, seinstall_verify_result_unref)

/* The labels that matter most, checked as they are now: a denial the log did not show (the
 * kernel rate-limits its audit lines, a reader may not have run yet) must not let a system with
 * a wrong label on /etc/shadow go enforcing. The boot-critical files that are there, each
 * compared with the file contexts by the verify engine; *ret_paths gets the mismatches (at most
 * 3 per directory, the count in *ret_n), strings owned by *ret_res. */
static int mislabeled_boot_files(struct seinstall_ctx *ctx,
                                 struct seinstall_verify_result **ret_res, const char ***ret_paths,
                                 size_t *ret_n, unsigned long long *ret_count)
{
        _cleanup_(seinstall_verify_result_unrefp) struct seinstall_verify_result *res = NULL;
        _cleanup_free_ const char **paths = NULL;
        size_t n = 0, ndirs;
        int r;

        /* INCOMPLETE: some listed files are absent here or reached through a link; the counts
         * of the others stand. */
        r = seinstall_verify_paths(ctx, NULL, si_boot_files, si_boot_files_n, 0, &res);
        if (r < 0 && r != -SEINSTALL_ERROR_INCOMPLETE)
                return r;
        assert(res); /* a walk that started sets its result, failed or not (seinstall.h) */
        ndirs = seinstall_verify_result_get_n_dirs(res);
        paths = calloc(3 * ndirs + 1, sizeof(*paths));
        if (!paths)
                return -ENOMEM;
        for (size_t i = 0; i < ndirs; i++)
                for (size_t k = 0; k < seinstall_verify_result_get_dir_n_examples(res, i); k++)
                        paths[n++] = seinstall_verify_result_get_example_path(res, i, k);
        *ret_count = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_MISMATCHED);
        *ret_paths = TAKE_PTR(paths);
        *ret_n = n;
        *ret_res = TAKE_PTR(res);
        return 0;
}

/* A NULL-terminated array of strings, and the strings. */
static void fixes_free(char ***p)
{
        if (!*p)
                return;
        for (char **f = *p; *f; f++)
                free(*f);
        free(*p);
}

/* The evidence in a classified report and the boot-critical files' labels: the counts, each
 * file a label denial named, then each mislabeled boot-critical file (fix strings in
 * *ret_fixes). */
static int evidence_of(const char *root, const struct seinstall_avc_result *rep,
                       const char *const *bad, size_t n_bad, unsigned long long mislabeled,
                       struct si_trial_evidence *ev, struct si_trial_file **ret_files,
                       char ***ret_fixes)
{
        size_t n = seinstall_avc_result_get_n_groups(rep), k = 0;
        struct si_trial_file *files = calloc(n + n_bad + 1, sizeof(*files));
        char **fixes = calloc(n_bad + 1, sizeof(*fixes));

        if (!files || !fixes) {
                free(files);
                free(fixes);
                return -ENOMEM;
        }
        *ret_files = files;
        *ret_fixes = fixes;
        for (size_t i = 0; i < n; i++) {
                const char *path =
                    seinstall_avc_result_get_group_field(rep, i, SEINSTALL_AVC_FIELD_PATH);
                if (seinstall_avc_result_get_group_cause(rep, i) != SEINSTALL_AVC_CAUSE_LABEL)
                        continue;
                if (!path)
                        path =
                            seinstall_avc_result_get_group_field(rep, i, SEINSTALL_AVC_FIELD_NAME);
                files[k].path = path ? path : "(a file the log does not name)";
                files[k].fix =
                    seinstall_avc_result_get_group_field(rep, i, SEINSTALL_AVC_FIELD_FIX);
                k++;
        }
        for (size_t i = 0; i < n_bad; i++) {
                if (!(fixes[i] = shell_relabel_command(root, bad[i])))
                        return -ENOMEM;
                files[k++] = (struct si_trial_file){.path = bad[i], .fix = fixes[i]};
        }
        *ev = (struct si_trial_evidence){
            .denials = seinstall_avc_result_get_n_denials(rep),
            .label_denials = seinstall_avc_result_get_n_label(rep),
            .mislabeled = mislabeled,
            .files = files,
            .n_files = k,
            .log = seinstall_avc_result_get_source(rep),
        };
        return 0;
}

/* Switch the running system to enforcing now, where SELinux runs and the policy lets us. */
static void enforce_now(struct seinstall_trial_result *t)
{
        int r;

        if (is_selinux_enabled() <= 0) {
                (void) si_trial_set_str(&t->setenforce_error, "SELinux is not active on this boot");
                return;
        }
        r = security_getenforce();
        if (r == 1) {
                t->enforcing_now = true;
                return;
        }
        if (r < 0 || security_setenforce(1) < 0) {
                _cleanup_free_ char *why = NULL;
                if (asprintf(&why, "setenforce 1 failed: %s", strerror(errno)) >= 0)
                        (void) si_trial_set_str(&t->setenforce_error, why);
                return;
        }
        t->enforcing_now = true;
}

DEFINE_CLEANUP_FUNC(struct seinstall_avc_result *, seinstall_avc_result_unref)

int seinstall_trial_decide(struct seinstall_ctx *ctx, const char *log, unsigned flags,
                           struct seinstall_trial_result **ret)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = NULL,
                                                                               *t = NULL;
        _cleanup_(seinstall_avc_result_unrefp) struct seinstall_avc_result *rep = NULL;
        _cleanup_(seinstall_verify_result_unrefp) struct seinstall_verify_result *checked = NULL;
        _cleanup_free_ struct si_trial_file *files = NULL;
        _cleanup_(fixes_free) char **fixes = NULL;
        _cleanup_free_ const char **bad = NULL;
        _cleanup_free_ char *type = NULL;
        unsigned long long mislabeled = 0;
        size_t n_bad = 0;
        struct si_trial_evidence ev;
        bool running;
        char now[32];
        int r;

        if (!ctx || !ret || (flags & ~(unsigned) SEINSTALL_TRIAL_NO_SETENFORCE))
                return -EINVAL;
        running = streq(ctx->root, "/");
        r = si_trial_read_state(ctx, &cur);
        if (r < 0)
                return r;
        if (cur->state != SEINSTALL_TRIAL_PENDING) {
                *ret = TAKE_PTR(cur);
                return 0;
        }
        if (si_autorelabel_pending(ctx))
                return si_error(ctx, -EBUSY,
                                "A relabel is pending in %s (/.autorelabel): the trial decides on "
                                "a boot after it, when every file has its label; nothing changed",
                                ctx->root);
        if (!log && !running)
                return si_error(ctx, -EINVAL,
                                "The denials of this system say nothing about the target %s: give "
                                "the target's saved log (--log FILE)",
                                ctx->root);
        if (!log && is_selinux_enabled() <= 0)
                return si_error(ctx, -ENODATA,
                                "SELinux is not active on this boot: there are no denials to judge "
                                "the trial by. Boot with SELinux on (security=selinux) and "
                                "permissive; the trial stays pending");

        r = seinstall_avc_read(ctx, log, &rep);
        if (r < 0)
                return r;
        r = mislabeled_boot_files(ctx, &checked, &bad, &n_bad, &mislabeled);
        if (r < 0)
                return r;
        r = evidence_of(ctx->root, rep, bad, n_bad, mislabeled, &ev, &files, &fixes);
        if (r >= 0)
                r = si_trial_now_utc(now);
        if (r >= 0)
                r = si_trial_decide_from(cur, &ev, now, &t);
        if (r < 0)
                return r;

        if (t->state == SEINSTALL_TRIAL_ENFORCED) {
                struct sbuf what = {};

                /* The config first: a state saying "enforced" over a permissive config would
                 * be a lie; a config enforcing with the state still pending only means the next
                 * boot's trial finds it enforcing already. */
                r = si_config_policy_type(ctx, &type);
                if (r >= 0)
                        r = si_config_write(ctx, SEINSTALL_MODE_ENFORCING, type, 0, &what);
                sbuf_free(&what);
                if (r < 0)
                        return r;
        }
        r = si_trial_write_state(ctx, t, 0);
        if (r < 0)
                return r;
        if (t->state == SEINSTALL_TRIAL_ENFORCED && running &&
            !(flags & SEINSTALL_TRIAL_NO_SETENFORCE))
                enforce_now(t);
        *ret = TAKE_PTR(t);
        return 1;
}
