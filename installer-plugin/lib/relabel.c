/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel.c — the relabel engine and its entry point, seinstall_relabel(): it loads the
 * target's file contexts and checks them against the target's policy, decides which mounts to
 * label (as `seinstall check` classified them), gives every entry the walker (walk.c) visits
 * the full context its file contexts assign (relabel-label.c), then checks the files a boot
 * depends on; seinstall_relabel() then runs the pass over what the mounts hide
 * (relabel-hidden.c). The result object and its JSON live in relabel-result.c, the relabel
 * of a list of paths in relabel-paths.c.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "seinstall-internal.h"
#include "config.h"
#include "policy.h"
#include "settings.h"
#include "fcontext.h"
#include "check-stage.h"
#include "relabel.h"
#include "walk-internal.h"

#define LABEL_BUF 4096

/* ---- verification of the boot-critical files
 * --------------------------------------------------------------------- */

const char *const si_boot_files[] = {
    "/sbin/init",
    "/usr/sbin/init",
    "/lib/systemd/systemd",
    "/usr/lib/systemd/systemd",
    "/bin/sh",
    "/usr/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/bin/dash",
    "/usr/bin/dash",
    "/lib64/ld-linux-x86-64.so.2",
    "/usr/lib64/ld-linux-x86-64.so.2",
    "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
    "/lib/ld-linux-aarch64.so.1",
    "/usr/lib/ld-linux-aarch64.so.1",
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/selinux/config",
};
const size_t si_boot_files_n = ELEMENTSOF(si_boot_files);

/* Open the directory holding @path without following any symlink on the way, so that the path
 * we look up is the path the walk labeled. -ENOENT/-ELOOP/-ENOTDIR: not verifiable. */
static int open_parent_nofollow(struct seinstall_ctx *ctx, const char *path, const char **ret_base)
{
        _cleanup_free_ char *copy = strdup(path);
        char *p, *slash;
        int fd;

        if (!copy)
                return -ENOMEM;
        fd = openat(ctx->root_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        p = copy + 1;
        while ((slash = strchr(p, '/'))) {
                int nfd;
                *slash = '\0';
                nfd = openat(fd, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                close(fd);
                if (nfd < 0)
                        return -errno;
                fd = nfd;
                p = slash + 1;
        }
        *ret_base = path + (p - copy);
        return fd;
}

static int verify_one(struct relabel *rl, const char *path)
{
        struct si_walk *j = &rl->walk;
        const char *base = NULL, *want = NULL;
        char cur[LABEL_BUF], proc[64 + 256];
        struct stat st;
        ssize_t n;
        _cleanup_close_ int dfd = open_parent_nofollow(j->ctx, path, &base);

        if (dfd == -ENOMEM)
                return dfd;
        if (dfd < 0 || strlen(base) > 255)
                return 0;
        if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return 0;
        if (si_fcontext_lookup(j->fc, j->workers[0].scratch, path, st.st_mode, &want) < 0)
                return 0;
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dfd, base);
        n = lgetxattr(proc, XATTR_SELINUX, cur, sizeof(cur) - 1);
        if (n < 0)
                n = 0;
        while (n > 0 && cur[n - 1] == '\0')
                n--;
        cur[n] = '\0';
        if (si_relabel_result_add_verified(rl->res, path, n > 0 ? cur : NULL, want) < 0)
                return -ENOMEM;
        if (!streq(cur, want))
                si_walk_error(j, NULL, "Boot-critical file %s has label %s, expected %s", path,
                              n > 0 ? cur : "(none)", want);
        return streq(cur, want) ? 0 : 1;
}

static int verify(struct relabel *rl, const char *type)
{
        _cleanup_free_ char *fc_path = NULL;
        int bad = 0, r;

        if (asprintf(&fc_path, "/etc/selinux/%s/contexts/files/file_contexts", type) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < si_boot_files_n; i++) {
                r = verify_one(rl, si_boot_files[i]);
                if (r < 0)
                        return r;
                bad += r;
        }
        r = verify_one(rl, fc_path);
        if (r < 0)
                return r;
        bad += r;
        /* the policy file: policy.N, whichever N */
        for (int v = 40; v >= 15; v--) {
                _cleanup_free_ char *p = NULL;
                if (asprintf(&p, "/etc/selinux/%s/policy/policy.%d", type, v) < 0)
                        return -ENOMEM;
                r = verify_one(rl, p);
                if (r < 0)
                        return r;
                bad += r;
        }
        return bad;
}

/* ---- entry point ------------------------------------------------------------------------ */

/* Classify the target's mounts as `seinstall check` does. When the check itself cannot run,
 * say so and decide by filesystem type instead. */
static int check_mounts(struct seinstall_ctx *ctx, const char *type, const struct si_policy *policy,
                        struct seinstall_check_result **ret)
{
        struct seinstall_settings *settings = NULL;
        int r = seinstall_settings_new(&settings);

        if (r < 0)
                return r;
        if (type)
                (void) seinstall_settings_set_policy(settings, type, SEINSTALL_SOURCE_PROFILE);
        r = si_check_run_mounts(ctx, settings, policy, ret);
        seinstall_settings_unref(settings);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                si_warn(ctx,
                        "Could not classify the mounts of %s (%s); labeling the mounts "
                        "whose filesystem type keeps per-file labels",
                        ctx->root, strerror(-r));
                *ret = NULL;
        }
        return 0;
}

/* Walk and label the tree below @root_fd (taken over), then verify the boot-critical files. */
static int relabel_run(struct relabel *rl, int root_fd, const char *type, unsigned flags,
                       seinstall_relabel_progress_fn progress, void *userdata, double start)
{
        struct si_walk *j = &rl->walk;
        struct seinstall_relabel_result *res = rl->res;
        struct seinstall_ctx *ctx = j->ctx;
        unsigned long long errors;
        int r;

        r = si_walk_run(j, root_fd, progress, userdata, start);
        for (int c = 0; c <= SEINSTALL_RELABEL_COUNT_ERRORS; c++)
                si_relabel_result_add_count(res, c, si_walk_count_total(j, c));
        if (r == 0 && !rl->dry_run && !(flags & SEINSTALL_RELABEL_NO_VERIFY)) {
                r = verify(rl, type);
                if (r > 0) {
                        si_relabel_result_add_count(res, SEINSTALL_RELABEL_COUNT_ERRORS,
                                                    (unsigned) r);
                        r = si_error(ctx, -SEINSTALL_ERROR_INCOMPLETE,
                                     si_ntr(ctx,
                                            "%d boot-critical file of %s does not carry the "
                                            "label the policy expects",
                                            "%d boot-critical files of %s do not carry the "
                                            "label the policy expects",
                                            (unsigned long) r),
                                     r, ctx->root);
                }
        }
        errors = seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS);
        if (r == 0 && errors > 0) {
                const char *first = seinstall_relabel_result_get_error(res, 0);
                r = si_error(ctx, -SEINSTALL_ERROR_INCOMPLETE,
                             "%llu entries of %s could not be labeled (first: %s)", errors,
                             ctx->root, first ? first : "?");
        } else if (r == -ENOMEM) {
                si_error(ctx, r, "Out of memory while relabeling %s", ctx->root);
        }
        return r;
}

static unsigned default_threads(unsigned threads)
{
        if (threads == 0) {
                long n = sysconf(_SC_NPROCESSORS_ONLN);
                threads = n > 0 ? (unsigned) n : 1;
        }
        return threads > 1024 ? 1024 : threads;
}

int si_relabel_validate(struct seinstall_ctx *ctx, const struct si_policy *policy, const char *type,
                        struct si_fcontext *fc)
{
        int r = si_policy_require_target(ctx, policy, type);

        if (r < 0)
                return r;
        return si_fcontext_validate(ctx, fc, policy, type);
}

_Static_assert(SEINSTALL_LINKS_MAX_LIMIT == SI_WALK_LINKS_MAX, "the commands' limit is the walk's");

int si_relabel_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                   unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                   struct seinstall_relabel_result **ret_result)
{
        _cleanup_(si_relabel_done) struct relabel rl = si_relabel_of(ctx, in, flags);
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *res = NULL;
        _cleanup_close_ int root_fd = -EBADF;
        const char *fsname, *reason;
        double start = si_walk_now();
        int r;

        rl.walk.nthreads = default_threads(threads);
        /* a smaller table of files with several names (walk-links.c), so that the passes a
         * full table takes can be seen on a small tree */
        if (ctx->links_max)
                rl.walk.links_max = ctx->links_max;
        root_fd = openat(ctx->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root_fd < 0)
                return si_error(ctx, -errno, "Could not open the target root %s: %m", ctx->root);
        if (!si_walk_mount_labelable(in->check, "", root_fd, &fsname, &reason))
                return si_error_run(ctx, -EOPNOTSUPP,
                                    shell_command(ctx->root, si_tr(ctx, "seinstall check%r")),
                                    "The target root %s is on %s, which cannot keep per-file "
                                    "SELinux labels (%s); for what to do, run: ",
                                    ctx->root, fsname, reason);

        /* a read-only or full mount fails every write: say so once, before the first */
        r = rl.dry_run ? 0 : si_check_writable_error(ctx, in->check);
        if (r < 0)
                return r;
        r = si_relabel_result_new(ctx->root, in->type, in->file_contexts, rl.walk.nthreads,
                                  rl.dry_run, &res);
        if (r < 0)
                return r;
        si_relabel_set_result(&rl, res);
        r = si_walk_init(&rl.walk);
        if (r < 0)
                return r;
        rl.walk_ready = true;
        r = relabel_run(&rl, TAKE_FD(root_fd), in->type, flags, progress, userdata, start);
        si_relabel_result_finish(res, si_walk_now() - start, r);
        if (ret_result)
                *ret_result = TAKE_PTR(res);
        return r;
}

void si_relabel_prepared_done(struct si_relabel_prepared *p)
{
        free(p->type);
        si_fcontext_free(p->fc);
        seinstall_check_result_unref(p->check);
        *p = (struct si_relabel_prepared){0};
}

/* Hand the heap's free pages back to the kernel: what a parsed policy leaves behind would
 * otherwise stay resident under the patterns and the walk. One thread at a time: where
 * another allocator took malloc() (AddressSanitizer's, jemalloc), glibc's own heap is still
 * unset, and malloc_trim() sets it up on the calling thread's account without counting that
 * thread. Two threads doing so at once leave the count one short, and the second of them to
 * exit aborts inside glibc ("a->attached_threads > 0"). */
void si_relabel_release_heap(void)
{
#ifdef __GLIBC__
        static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

        pthread_mutex_lock(&lock);
        malloc_trim(0);
        pthread_mutex_unlock(&lock);
#endif
}

int si_relabel_prepare(struct seinstall_ctx *ctx, const char *policy_type,
                       const char *file_contexts, unsigned fc_flags,
                       struct si_relabel_prepared *ret)
{
        _cleanup_(si_relabel_prepared_done) struct si_relabel_prepared p = {0};
        _cleanup_(si_policy_freep) struct si_policy *policy = NULL;
        int r;

        if (policy_type) {
                if (!si_policy_type_valid(policy_type))
                        return si_error(ctx, -EINVAL, "Invalid policy type '%s'", policy_type);
                p.type = strdup(policy_type);
                if (!p.type)
                        return -ENOMEM;
        } else {
                r = si_config_policy_type(ctx, &p.type);
                if (r < 0)
                        return si_error(ctx, r, "Could not read the target's SELinux config: %s",
                                        strerror(-r));
        }
        /* One parsed policy serves the validation and the mount check, and the patterns are
         * compiled (and their machine code made) only once it is freed and its pages handed
         * back: the peak is then one policy, not two plus the patterns (25 MiB to 18 with
         * Debian's default policy), and the policy is parsed once. */
        fc_flags |= SI_FC_PARSE_ONLY;
        r = file_contexts ? si_fcontext_load_path_flags(ctx, file_contexts, fc_flags, &p.fc)
                          : si_fcontext_load_target(ctx, p.type, fc_flags, &p.fc);
        if (r < 0)
                return r;
        r = si_policy_load_target(ctx, p.type, &policy);
        if (r < 0)
                return r;
        r = si_fcontext_validate(ctx, p.fc, policy, p.type);
        if (r < 0)
                return r;
        r = check_mounts(ctx, policy_type ? p.type : NULL, policy, &p.check);
        if (r < 0)
                return r;
        policy = si_policy_free(policy);
        si_relabel_release_heap();
        r = si_fcontext_compile(ctx, p.fc);
        if (r < 0)
                return r;
        *ret = p;
        p = (struct si_relabel_prepared){0};
        return 0;
}

int seinstall_relabel(struct seinstall_ctx *ctx, const struct seinstall_relabel_options *options,
                      unsigned flags, struct seinstall_relabel_result **ret_result)
{
        _cleanup_(si_relabel_prepared_done) struct si_relabel_prepared p = {0};
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *res = NULL;
        const struct seinstall_relabel_options *o = si_relabel_options_or_defaults(options);
        const char *policy_type = o->policy, *file_contexts = o->file_contexts;
        unsigned threads = o->threads;
        double start;
        int r;

        if (!ctx || (flags & ~(SEINSTALL_RELABEL_DRY_RUN | SEINSTALL_RELABEL_NO_VERIFY |
                               SEINSTALL_RELABEL_UNDER_MOUNTS)))
                return -EINVAL;
        r = si_relabel_prepare(ctx, policy_type, file_contexts, 0, &p);
        if (r < 0)
                return r;
        const struct si_relabel_input in = {
            .type = p.type, .file_contexts = file_contexts, .fc = p.fc, .check = p.check};
        start = si_walk_now();
        r = si_relabel_run(ctx, &in, threads, flags & ~SEINSTALL_RELABEL_UNDER_MOUNTS, o->progress,
                           o->userdata, &res);
        /* the same compiled file contexts for what the mounts hide */
        if (r == 0 && res && (flags & SEINSTALL_RELABEL_UNDER_MOUNTS)) {
                r = si_relabel_under_mounts(ctx, &in, default_threads(threads), flags, res);
                si_relabel_result_finish(res, si_walk_now() - start, r);
        }
        if (ret_result)
                *ret_result = TAKE_PTR(res);
        return r;
}
