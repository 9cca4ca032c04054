/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel.c — the relabel stage: a parallel walk of the target that gives every entry the full
 * context its file contexts assign (setfiles -F semantics), then checks the files a boot
 * depends on.
 *
 * The walk never follows a symlink and works only with directory fds and single names: each
 * worker thread has its own working directory (unshare(CLONE_FS)) and fchdir()s into the
 * directory it reads, so lgetxattr/lsetxattr get a bare name, which works for every file type
 * and for paths of any length. (Without unshare, "/proc/self/fd/N/NAME" does the same.)
 * Memory: a worker keeps one open directory per level of its descent, and the shared queue
 * holds at most one directory per thread, so memory grows with depth and threads, never with
 * the number of files. A directory on another filesystem is a mount: it is labeled only when
 * that filesystem keeps per-file labels, and listed as skipped otherwise.
 */
#include <dirent.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <time.h>

#include "configure.h"
#include "fcontext.h"

#define XATTR_SELINUX "security.selinux"
#define MAX_ERRORS    100
#define LABEL_BUF     4096

/* ---- result ---------------------------------------------------------------------------- */

struct skipped_mount {
        char *path, *fstype, *reason;
};

struct verified {
        char *path, *actual, *expected;
};

struct seinstall_relabel_result {
        int refcount;
        unsigned long long counts[SEINSTALL_RELABEL_ERRORS + 1];
        struct skipped_mount *skipped;
        size_t nskipped;
        char **errors;
        size_t nerrors;
        struct verified *verified;
        size_t nverified;
        char *root, *policy, *file_contexts;
        unsigned threads;
        bool dry_run;
        double seconds;
        int status;
};

struct seinstall_relabel_result *seinstall_relabel_result_ref(struct seinstall_relabel_result *r)
{
        if (r)
                r->refcount++;
        return r;
}

struct seinstall_relabel_result *seinstall_relabel_result_unref(struct seinstall_relabel_result *r)
{
        if (!r || --r->refcount > 0)
                return NULL;
        for (size_t i = 0; i < r->nskipped; i++) {
                free(r->skipped[i].path);
                free(r->skipped[i].fstype);
                free(r->skipped[i].reason);
        }
        free(r->skipped);
        for (size_t i = 0; i < r->nerrors; i++)
                free(r->errors[i]);
        free(r->errors);
        for (size_t i = 0; i < r->nverified; i++) {
                free(r->verified[i].path);
                free(r->verified[i].actual);
                free(r->verified[i].expected);
        }
        free(r->verified);
        free(r->root);
        free(r->policy);
        free(r->file_contexts);
        free(r);
        return NULL;
}

unsigned long long seinstall_relabel_result_count(const struct seinstall_relabel_result *r,
                                                  enum seinstall_relabel_count which)
{
        if (!r || (unsigned) which > SEINSTALL_RELABEL_ERRORS)
                return 0;
        return r->counts[which];
}

size_t seinstall_relabel_result_n_skipped(const struct seinstall_relabel_result *r)
{
        return r ? r->nskipped : 0;
}

const char *seinstall_relabel_result_skipped(const struct seinstall_relabel_result *r, size_t i,
                                             const char **ret_fstype, const char **ret_reason)
{
        if (!r || i >= r->nskipped)
                return NULL;
        if (ret_fstype)
                *ret_fstype = r->skipped[i].fstype;
        if (ret_reason)
                *ret_reason = r->skipped[i].reason;
        return r->skipped[i].path;
}

size_t seinstall_relabel_result_n_errors(const struct seinstall_relabel_result *r)
{
        return r ? r->nerrors : 0;
}

const char *seinstall_relabel_result_error(const struct seinstall_relabel_result *r, size_t i)
{
        return r && i < r->nerrors ? r->errors[i] : NULL;
}

size_t seinstall_relabel_result_n_verified(const struct seinstall_relabel_result *r)
{
        return r ? r->nverified : 0;
}

const char *seinstall_relabel_result_verified(const struct seinstall_relabel_result *r, size_t i,
                                              const char **ret_actual, const char **ret_expected)
{
        if (!r || i >= r->nverified)
                return NULL;
        if (ret_actual)
                *ret_actual = r->verified[i].actual;
        if (ret_expected)
                *ret_expected = r->verified[i].expected;
        return r->verified[i].path;
}

int seinstall_relabel_result_to_json(const struct seinstall_relabel_result *r, char **ret_json)
{
        struct sbuf b = {0};
        int ok = 0;

        if (!r)
                return -EINVAL;
        ok |= sbuf_puts(&b, "{\"root\": ");
        ok |= sbuf_json_str(&b, r->root);
        ok |= sbuf_puts(&b, ", \"policy\": ");
        ok |= sbuf_json_str(&b, r->policy);
        ok |= sbuf_puts(&b, ", \"file_contexts\": ");
        ok |= sbuf_json_str(&b, r->file_contexts);
        ok |= sbuf_printf(&b,
                          ", \"dry_run\": %s, \"threads\": %u, \"seconds\": %.3f, "
                          "\"entries\": %llu, \"changed\": %llu, \"unchanged\": %llu, "
                          "\"no_context\": %llu, \"errors\": %llu, \"skipped_mounts\": [",
                          r->dry_run ? "true" : "false", r->threads, r->seconds,
                          r->counts[SEINSTALL_RELABEL_SEEN], r->counts[SEINSTALL_RELABEL_CHANGED],
                          r->counts[SEINSTALL_RELABEL_UNCHANGED],
                          r->counts[SEINSTALL_RELABEL_NO_CONTEXT],
                          r->counts[SEINSTALL_RELABEL_ERRORS]);
        for (size_t i = 0; i < r->nskipped; i++) {
                ok |= sbuf_puts(&b, i ? ", {\"mountpoint\": " : "{\"mountpoint\": ");
                ok |= sbuf_json_str(&b, r->skipped[i].path);
                ok |= sbuf_puts(&b, ", \"fstype\": ");
                ok |= sbuf_json_str(&b, r->skipped[i].fstype);
                ok |= sbuf_puts(&b, ", \"reason\": ");
                ok |= sbuf_json_str(&b, r->skipped[i].reason);
                ok |= sbuf_puts(&b, "}");
        }
        ok |= sbuf_puts(&b, "], \"error_messages\": [");
        for (size_t i = 0; i < r->nerrors; i++) {
                ok |= sbuf_puts(&b, i ? ", " : "");
                ok |= sbuf_json_str(&b, r->errors[i]);
        }
        ok |= sbuf_puts(&b, "], \"verified\": [");
        for (size_t i = 0; i < r->nverified; i++) {
                const struct verified *v = &r->verified[i];
                ok |= sbuf_puts(&b, i ? ", {\"path\": " : "{\"path\": ");
                ok |= sbuf_json_str(&b, v->path);
                ok |= sbuf_puts(&b, ", \"label\": ");
                ok |= sbuf_json_str(&b, v->actual);
                ok |= sbuf_puts(&b, ", \"expected\": ");
                ok |= sbuf_json_str(&b, v->expected);
                ok |= sbuf_printf(&b, ", \"ok\": %s}",
                                  streq_ptr(v->actual, v->expected) ? "true" : "false");
        }
        ok |= sbuf_printf(&b, "], \"ok\": %s}", r->status == 0 ? "true" : "false");
        if (ok < 0) {
                sbuf_free(&b);
                return -ENOMEM;
        }
        *ret_json = sbuf_steal(&b);
        return 0;
}

/* ---- the policy: which contexts are valid ---------------------------------------------- */

/* A missing piece of the system, not bad input: exit 3 as DESIGN.md says. */
static int no_target_policy(struct seinstall_ctx *ctx, int err, const char *type)
{
        return si_error(ctx, err,
                        "No binary policy of type %s in the target %s (no "
                        "/etc/selinux/%s/policy/policy.N), so its labels cannot be "
                        "checked: install the policy package %s in the target, or "
                        "build its policy there (semodule -B)",
                        type, ctx->root, type, si_policy_package(type));
}

/* Mark the contexts of @fc that the target's binary policy @p (loaded for @type) does not
 * accept. A target without its own binary policy is an error: labels checked against another
 * policy prove nothing. */
int si_relabel_validate(struct seinstall_ctx *ctx, const struct si_policy *p, const char *type,
                        struct si_fcontext *fc)
{
        if (si_policy_source(p) != SEINSTALL_SOURCE_TARGET)
                return no_target_policy(ctx, -ENOPKG, type);
        for (size_t i = 0; i < si_fcontext_n_contexts(fc); i++)
                if (si_policy_context_valid(p, si_fcontext_context(fc, i)) != 1)
                        si_fcontext_invalidate(fc, i);
        return 0;
}

static int validate_contexts(struct seinstall_ctx *ctx, const char *type, struct si_fcontext *fc)
{
        _cleanup_(si_policy_freep) struct si_policy *p = NULL;
        int r = si_policy_load(ctx, type, &p);

        if (r == -EBADMSG)
                return si_error(ctx, r,
                                "The binary policy of type %s in the target is not one libsepol "
                                "can read; reinstall the policy package or rebuild it "
                                "(semodule -B)",
                                type);
        /* an unreadable policy.N (a FIFO, a device): si_policy_load() named it */
        if (r < 0 && r != -ENOENT && r != -ENOPKG)
                return r;
        if (r < 0)
                return no_target_policy(ctx, -ENOPKG, type);
        return si_relabel_validate(ctx, p, type, fc);
}

/* The target's SELINUXTYPE from /etc/selinux/config, else "default". */
static int target_policy_type(struct seinstall_ctx *ctx, char **ret)
{
        struct si_config c = {0};
        char *type;
        int r = si_config_read(ctx, &c);

        if (r < 0)
                return r;
        type = strdup(c.type ? c.type : "default");
        si_config_done(&c);
        if (!type)
                return -ENOMEM;
        *ret = type;
        return 0;
}

/* ---- which filesystems keep per-file labels -------------------------------------------- */

static const struct {
        unsigned long magic;
        const char *name;
        bool xattr;
        const char *reason;
} fs_table[] = {
    {0xEF53, "ext4", true, NULL},
    {0x58465342, "xfs", true, NULL},
    {0x9123683E, "btrfs", true, NULL},
    {0xF2F52010, "f2fs", true, NULL},
    {0x3153464a, "jfs", true, NULL},
    {0x01021994, "tmpfs", false, "labels of tmpfs are set when files are created (trans)"},
    {0x858458f6, "ramfs", false, "ramfs cannot keep labels"},
    {0x9fa0, "proc", false, "pseudo filesystem"},
    {0x62656572, "sysfs", false, "pseudo filesystem"},
    {0x1cd1, "devpts", false, "pseudo filesystem"},
    {0x73636673, "securityfs", false, "pseudo filesystem"},
    {0xf97cff8c, "selinuxfs", false, "pseudo filesystem"},
    {0x63677270, "cgroup2", false, "pseudo filesystem"},
    {0x27e0eb, "cgroup", false, "pseudo filesystem"},
    {0x64626720, "debugfs", false, "pseudo filesystem"},
    {0x74726163, "tracefs", false, "pseudo filesystem"},
    {0x6e736673, "nsfs", false, "pseudo filesystem"},
    {0xcafe4a11, "bpf", false, "pseudo filesystem"},
    {0x4d44, "vfat", false, "one label for every file, from the policy (genfs)"},
    {0x2011BAB0, "exfat", false, "one label for every file, from the policy (genfs)"},
    {0x52654973, "reiserfs", false, "one label for every file, from the policy (genfs)"},
    {0x3434, "nilfs2", false, "the policy does not name nilfs2"},
    {0x6969, "nfs", false, "network filesystem"},
    {0xFF534D42, "cifs", false, "network filesystem"},
    {0x794c7630, "overlay", false, "overlay filesystem"},
    {0x9660, "iso9660", false, "read-only filesystem labeled by the policy (genfs)"},
    {0x73717368, "squashfs", false, "read-only filesystem labeled by the policy (genfs)"},
};

/* Whether the filesystem of @fd is to be labeled; else its name and why not. */
static bool fs_labelable(int fd, const char **ret_name, const char **ret_reason)
{
        struct statfs sf;

        *ret_name = "unknown";
        *ret_reason = "filesystem type not known to keep per-file labels";
        if (fstatfs(fd, &sf) < 0) {
                *ret_reason = "cannot read its filesystem type";
                return false;
        }
        for (size_t i = 0; i < ELEMENTSOF(fs_table); i++)
                if ((unsigned long) sf.f_type == fs_table[i].magic) {
                        *ret_name = fs_table[i].name;
                        *ret_reason = fs_table[i].reason;
                        return fs_table[i].xattr;
                }
        return false;
}

/* Whether @a is @b or below it, as paths. */
static bool path_under(const char *a, const char *b)
{
        size_t n = strlen(b);

        if (streq(b, "/"))
                return true;
        return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

static void unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}

/* Whether the mount at @path (in the target) shows a filesystem that is also mounted outside
 * the target with its content there: a bind mount of a directory of the installer's own
 * system. Labeling it would label files outside the target. Returns an allocated reason, or
 * NULL (also when the mount table cannot be read: the walk then labels as before). */
static char *mounted_outside(struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_(unref_tablep) struct libmnt_table *tb = NULL;
        _cleanup_free_ char *root = NULL, *full = NULL;
        struct libmnt_iter *it;
        struct libmnt_fs *fs, *o;
        const char *froot;
        char *reason = NULL;
        char link[64];

        snprintf(link, sizeof(link), "/proc/self/fd/%d", ctx->root_fd);
        root = realpath(link, NULL);
        tb = mnt_new_table_from_file("/proc/self/mountinfo");
        if (!root || !tb || asprintf(&full, "%s%s", streq(root, "/") ? "" : root, path) < 0)
                return NULL;
        fs = mnt_table_find_target(tb, full, MNT_ITER_BACKWARD);
        froot = fs ? mnt_fs_get_root(fs) : NULL;
        it = mnt_new_iter(MNT_ITER_FORWARD);
        if (!froot || !it) {
                mnt_free_iter(it);
                return NULL;
        }
        while (!reason && mnt_table_next_fs(tb, it, &o) == 0) {
                const char *ot = mnt_fs_get_target(o), *oroot = mnt_fs_get_root(o);
                if (o == fs || mnt_fs_get_devno(o) != mnt_fs_get_devno(fs) || !ot || !oroot ||
                    path_under(ot, root) || !path_under(froot, oroot))
                        continue;
                if (asprintf(&reason,
                             "its files are also mounted outside the target, at %s (a bind "
                             "mount of the installer's own files?): not labeled",
                             ot) < 0)
                        reason = NULL;
        }
        mnt_free_iter(it);
        return reason;
}

/* Whether the mount at @path (inside the target, "" for its root) is to be labeled, deciding
 * as `seinstall check` did when it knows the mount, else by filesystem type. @fd is the
 * mount's root directory. On "no", *ret_fstype and *ret_reason say why (static or owned by
 * the check). */
static bool mount_labelable(const struct seinstall_check *check, const char *path, int fd,
                            const char **ret_fstype, const char **ret_reason)
{
        const char *mp = *path ? path : "/";

        for (size_t i = 0; check && i < seinstall_check_get_n_mounts(check); i++) {
                enum seinstall_labeling l;
                if (!streq_ptr(seinstall_check_mount_mountpoint(check, i), mp))
                        continue;
                l = seinstall_check_mount_labeling(check, i);
                *ret_fstype = seinstall_check_mount_fstype(check, i);
                *ret_reason = seinstall_check_mount_reason(check, i);
                if (!*ret_fstype)
                        *ret_fstype = "unknown";
                if (!*ret_reason || !**ret_reason)
                        *ret_reason = seinstall_labeling_to_string(l);
                return l == SEINSTALL_LABELING_XATTR;
        }
        return fs_labelable(fd, ret_fstype, ret_reason);
}

static unsigned long long used_inodes(int fd)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0 || sf.f_files < sf.f_ffree)
                return 0;
        return (unsigned long long) (sf.f_files - sf.f_ffree);
}

/* ---- the walk ----------------------------------------------------------------------------- */

struct work {
        int fd; /* open directory, O_RDONLY */
        char *path;
        size_t len;
        dev_t dev;
};

struct job;

struct link {
        dev_t dev;
        ino_t ino;
        mode_t mode;
        char *path; /* the name that sorts first so far; NULL: free slot */
};

struct worker {
        struct job *job;
        pthread_t thread;
        struct si_fc_scratch *scratch;
        bool own_cwd; /* unshare(CLONE_FS) worked: names are relative to our cwd */
        int cwd;      /* the directory our cwd is in (not owned) */
        struct sbuf path;
        char procpath[64 + 256];
        atomic_ullong counts[SEINSTALL_RELABEL_ERRORS + 1];
};

struct job {
        struct seinstall_ctx *ctx;
        struct si_fcontext *fc;
        struct seinstall_relabel_result *res;
        bool dry_run;
        unsigned nthreads;
        struct worker *workers;

        pthread_mutex_t lock; /* everything below */
        pthread_cond_t cond;
        struct work *queue;
        size_t qlen;
        unsigned idle;
        unsigned running; /* worker threads that have not exited */
        bool done;
        atomic_bool abort;
        atomic_uint qlen_hint, idle_hint;
        int fatal; /* negative errno that stopped the walk */
        unsigned long long total_estimate;
        const struct seinstall_check *check; /* how `check` classified the target's mounts */
        struct link *links;                  /* open addressing on (dev, ino) */
        size_t nlinks, links_cap;
};

static void job_error(struct job *j, struct worker *w, const char *fmt, ...) _printf_(3, 4);
static void job_error(struct job *j, struct worker *w, const char *fmt, ...)
{
        va_list ap;
        char *msg = NULL;

        if (w)
                atomic_fetch_add_explicit(&w->counts[SEINSTALL_RELABEL_ERRORS], 1,
                                          memory_order_relaxed);
        va_start(ap, fmt);
        if (vasprintf(&msg, fmt, ap) < 0)
                msg = NULL;
        va_end(ap);
        pthread_mutex_lock(&j->lock);
        if (msg && j->res->nerrors < MAX_ERRORS) {
                char **n = realloc(j->res->errors, (j->res->nerrors + 1) * sizeof(*n));
                if (n) {
                        j->res->errors = n;
                        n[j->res->nerrors++] = TAKE_PTR(msg);
                }
        }
        pthread_mutex_unlock(&j->lock);
        free(msg);
}

static void job_fatal(struct job *j, int err)
{
        pthread_mutex_lock(&j->lock);
        if (!j->fatal)
                j->fatal = err;
        atomic_store(&j->abort, true);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

static int add_skipped(struct job *j, const char *path, const char *fstype, const char *reason)
{
        struct skipped_mount *n;
        int r = 0;

        pthread_mutex_lock(&j->lock);
        n = realloc(j->res->skipped, (j->res->nskipped + 1) * sizeof(*n));
        if (n) {
                j->res->skipped = n;
                n[j->res->nskipped] = (struct skipped_mount){
                    .path = strdup(*path ? path : "/"),
                    .fstype = strdup(fstype),
                    .reason = strdup(reason),
                };
                j->res->nskipped++;
        } else {
                r = -ENOMEM;
        }
        pthread_mutex_unlock(&j->lock);
        return r;
}

/* The name to hand to the *xattr calls for @name in directory @dfd. */
static const char *xattr_name(struct worker *w, int dfd, const char *name)
{
        if (w->own_cwd) {
                if (w->cwd != dfd) {
                        if (fchdir(dfd) < 0)
                                goto proc;
                        w->cwd = dfd;
                }
                return name;
        }
proc:
        w->cwd = -1;
        snprintf(w->procpath, sizeof(w->procpath), "/proc/self/fd/%d/%s", dfd, name);
        return w->procpath;
}

static void count(struct worker *w, enum seinstall_relabel_count which)
{
        atomic_fetch_add_explicit(&w->counts[which], 1, memory_order_relaxed);
}

/* Label one entry: @fd when we have it open (a directory; with @name "" an O_PATH fd of any
 * file), else @name in @dfd. @path is its path inside the target ("" for the root). */
static void label_entry(struct worker *w, int fd, int dfd, const char *name, const char *path,
                        mode_t mode)
{
        bool opath = fd >= 0 && name && !*name;
        struct job *j = w->job;
        const char *want = NULL, *xname = NULL, *shown = *path ? path : "/";
        char cur[LABEL_BUF];
        ssize_t n;
        int r;

        count(w, SEINSTALL_RELABEL_SEEN);
        r = si_fcontext_lookup(j->fc, w->scratch, shown, mode, &want);
        if (r == -ENOENT) {
                count(w, SEINSTALL_RELABEL_NO_CONTEXT);
                return;
        }
        if (r == -EPROTO) {
                job_error(j, w,
                          "%s: context %s from the file contexts is not valid in the target's "
                          "policy; not written",
                          shown, want);
                return;
        }
        if (r < 0) {
                job_fatal(j, r);
                return;
        }

        if (opath) {
                /* the magic link leads to the file itself, even a symlink */
                snprintf(w->procpath, sizeof(w->procpath), "/proc/self/fd/%d", fd);
                xname = w->procpath;
                n = getxattr(xname, XATTR_SELINUX, cur, sizeof(cur) - 1);
        } else if (fd >= 0) {
                n = fgetxattr(fd, XATTR_SELINUX, cur, sizeof(cur) - 1);
        } else {
                xname = xattr_name(w, dfd, name);
                n = lgetxattr(xname, XATTR_SELINUX, cur, sizeof(cur) - 1);
        }
        if (n < 0 && errno != ENODATA && errno != ERANGE) {
                if (errno == ENOENT)
                        return; /* removed while we walk */
                job_error(j, w, "Could not read the label of %s: %m", shown);
                return;
        }
        if (n >= 0) {
                while (n > 0 && cur[n - 1] == '\0')
                        n--;
                cur[n] = '\0';
                if (streq(cur, want)) {
                        count(w, SEINSTALL_RELABEL_UNCHANGED);
                        return;
                }
        }
        count(w, SEINSTALL_RELABEL_CHANGED);
        if (j->dry_run)
                return;
        if (opath)
                r = setxattr(xname, XATTR_SELINUX, want, strlen(want) + 1, 0);
        else if (fd >= 0)
                r = fsetxattr(fd, XATTR_SELINUX, want, strlen(want) + 1, 0);
        else
                r = lsetxattr(xname, XATTR_SELINUX, want, strlen(want) + 1, 0);
        if (r < 0) {
                if (errno == EINVAL) {
                        pthread_mutex_lock(&j->lock);
                        if (!j->fatal)
                                si_error(j->ctx, -EPERM,
                                         "The running system refused the label %s for %s "
                                         "(EINVAL): its own SELinux policy does not know this "
                                         "context of the target's policy. Run the installer "
                                         "with SELinux permissive (enforcing=0) or disabled, "
                                         "then relabel again.",
                                         want, shown);
                        pthread_mutex_unlock(&j->lock);
                        atomic_fetch_add_explicit(&w->counts[SEINSTALL_RELABEL_ERRORS], 1,
                                                  memory_order_relaxed);
                        job_fatal(j, -EPERM);
                        return;
                }
                if (errno == ENOENT)
                        return;
                job_error(j, w, "Could not set the label %s on %s: %m", want, shown);
        }
}

/* Files with several names (hard links): whichever name the walk meets first, the file gets
 * the label of its name that sorts first, so that the result does not depend on the order of
 * the walk and a second run changes nothing. The table holds only such files. */
static int links_add(struct job *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        struct link *l;
        size_t h;
        int r = 0;

        pthread_mutex_lock(&j->lock);
        if (j->nlinks * 2 >= j->links_cap) {
                size_t cap = j->links_cap ? j->links_cap * 2 : 1024;
                struct link *n = calloc(cap, sizeof(*n));
                if (!n) {
                        r = -ENOMEM;
                        goto out;
                }
                for (size_t i = 0; i < j->links_cap; i++) {
                        if (!j->links[i].path)
                                continue;
                        h = (size_t) (j->links[i].ino * 31 + j->links[i].dev) & (cap - 1);
                        while (n[h].path)
                                h = (h + 1) & (cap - 1);
                        n[h] = j->links[i];
                }
                free(j->links);
                j->links = n;
                j->links_cap = cap;
        }
        h = (size_t) (ino * 31 + dev) & (j->links_cap - 1);
        for (;; h = (h + 1) & (j->links_cap - 1)) {
                l = &j->links[h];
                if (!l->path) {
                        l->path = strdup(path);
                        if (!l->path) {
                                r = -ENOMEM;
                                goto out;
                        }
                        l->dev = dev;
                        l->ino = ino;
                        l->mode = mode;
                        j->nlinks++;
                        break;
                }
                if (l->dev == dev && l->ino == ino) {
                        if (strcmp(path, l->path) < 0) {
                                char *p = strdup(path);
                                if (!p) {
                                        r = -ENOMEM;
                                        goto out;
                                }
                                free(l->path);
                                l->path = p;
                        }
                        break;
                }
        }
out:
        pthread_mutex_unlock(&j->lock);
        return r;
}

/* Label the files with several names, each through the name that sorts first. */
static void links_label(struct job *j, struct worker *w)
{
        for (size_t i = 0; i < j->links_cap; i++) {
                struct link *l = &j->links[i];
                struct open_how how = {
                    .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
                    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
                };
                struct stat st;
                int fd;

                if (!l->path || atomic_load(&j->abort))
                        continue;
                fd = (int) syscall(SYS_openat2, j->ctx->root_fd, l->path + 1, &how, sizeof(how));
                if (fd < 0) {
                        if (errno != ENOENT)
                                job_error(j, w, "Could not open %s: %m", l->path);
                        continue;
                }
                if (fstat(fd, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
                        label_entry(w, fd, -1, "", l->path, l->mode);
                close(fd);
        }
}

/* Hand a directory to an idle worker when there is one; returns true when it took it. */
static bool offer(struct job *j, int fd, const char *path, size_t len, dev_t dev)
{
        bool taken = false;

        if (atomic_load_explicit(&j->idle_hint, memory_order_relaxed) == 0 ||
            atomic_load_explicit(&j->qlen_hint, memory_order_relaxed) >= j->nthreads)
                return false;
        pthread_mutex_lock(&j->lock);
        if (j->idle > 0 && j->qlen < j->nthreads) {
                char *p = strndup(path, len);
                if (p) {
                        j->queue[j->qlen++] =
                            (struct work){.fd = fd, .path = p, .len = len, .dev = dev};
                        atomic_store_explicit(&j->qlen_hint, (unsigned) j->qlen,
                                              memory_order_relaxed);
                        pthread_cond_signal(&j->cond);
                        taken = true;
                }
        }
        pthread_mutex_unlock(&j->lock);
        return taken;
}

struct frame {
        DIR *dir;
        size_t len; /* path length of this directory */
        dev_t dev;
};

/* A directory entry that is a directory: open it, check for a mount, label it, and return its
 * fd to descend into (or -1 to not descend). */
static int enter_dir(struct worker *w, int dfd, const char *name, dev_t parent_dev, dev_t *ret_dev)
{
        struct job *j = w->job;
        const char *path = w->path.s;
        struct stat st;
        int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

        if (fd < 0) {
                if (errno != ENOENT)
                        job_error(j, w, "Could not open directory %s: %m", path);
                return -1;
        }
        if (fstat(fd, &st) < 0) {
                job_error(j, w, "Could not stat %s: %m", path);
                close(fd);
                return -1;
        }
        if (st.st_dev != parent_dev) {
                const char *fsname, *reason;
                _cleanup_free_ char *outside = NULL;
                if (!mount_labelable(j->check, path, fd, &fsname, &reason)) {
                        add_skipped(j, path, fsname, reason);
                        close(fd);
                        return -1;
                }
                outside = mounted_outside(j->ctx, path);
                if (outside) {
                        add_skipped(j, path, fsname, outside);
                        close(fd);
                        return -1;
                }
                pthread_mutex_lock(&j->lock);
                j->total_estimate += used_inodes(fd);
                pthread_mutex_unlock(&j->lock);
        }
        label_entry(w, fd, -1, NULL, path, S_IFDIR);
        *ret_dev = st.st_dev;
        return fd;
}

static int path_push(struct worker *w, size_t len, const char *name)
{
        w->path.len = len;
        if (w->path.s)
                w->path.s[len] = '\0';
        if (sbuf_puts(&w->path, "/") < 0 || sbuf_puts(&w->path, name) < 0)
                return -ENOMEM;
        return 0;
}

static mode_t dtype_mode(unsigned char t)
{
        switch (t) {
        case DT_REG:
                return S_IFREG;
        case DT_DIR:
                return S_IFDIR;
        case DT_LNK:
                return S_IFLNK;
        case DT_CHR:
                return S_IFCHR;
        case DT_BLK:
                return S_IFBLK;
        case DT_FIFO:
                return S_IFIFO;
        case DT_SOCK:
                return S_IFSOCK;
        default:
                return 0;
        }
}

/* Depth-first walk of one directory (already labeled) with an explicit stack. */
static void walk(struct worker *w, struct work *start)
{
        struct job *j = w->job;
        struct frame *stack = NULL;
        size_t depth = 0, cap = 0;
        int fd = start->fd;
        dev_t dev = start->dev;

        w->path.len = 0;
        if (w->path.s)
                w->path.s[0] = '\0';
        if (sbuf_append(&w->path, start->path, start->len) < 0) {
                close(fd);
                job_fatal(j, -ENOMEM);
                return;
        }
        for (;;) {
                struct dirent *de;

                if (fd >= 0) {
                        /* push a frame for fd */
                        if (depth == cap) {
                                size_t ncap = cap ? cap * 2 : 32;
                                struct frame *ns = realloc(stack, ncap * sizeof(*ns));
                                if (!ns) {
                                        close(fd);
                                        job_fatal(j, -ENOMEM);
                                        break;
                                }
                                stack = ns;
                                cap = ncap;
                        }
                        stack[depth].dir = fdopendir(fd);
                        if (!stack[depth].dir) {
                                job_error(j, w, "Could not read directory %s: %m",
                                          *w->path.s ? w->path.s : "/");
                                close(fd);
                        } else {
                                stack[depth].len = w->path.len;
                                stack[depth].dev = dev;
                                depth++;
                        }
                        fd = -1;
                }
                if (depth == 0 || atomic_load_explicit(&j->abort, memory_order_relaxed))
                        break;

                struct frame *f = &stack[depth - 1];
                errno = 0;
                de = readdir(f->dir);
                if (!de) {
                        if (errno)
                                job_error(j, w, "Could not read directory %s: %m",
                                          *w->path.s ? w->path.s : "/");
                        if (w->cwd == dirfd(f->dir))
                                w->cwd = -1;
                        closedir(f->dir);
                        depth--;
                        if (depth > 0) {
                                w->path.len = stack[depth - 1].len;
                                w->path.s[w->path.len] = '\0';
                        }
                        continue;
                }
                if (de->d_name[0] == '.' &&
                    (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
                        continue;
                if (path_push(w, f->len, de->d_name) < 0) {
                        job_fatal(j, -ENOMEM);
                        break;
                }
                mode_t mode = dtype_mode(de->d_type);
                if (!mode) {
                        struct stat st;
                        if (fstatat(dirfd(f->dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                                if (errno != ENOENT)
                                        job_error(j, w, "Could not stat %s: %m", w->path.s);
                                continue;
                        }
                        mode = st.st_mode & S_IFMT;
                }
                if (mode != S_IFDIR) {
                        struct stat st;
                        /* A file with several names gets one label, decided after the walk. */
                        if (fstatat(dirfd(f->dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                            st.st_nlink > 1 && !S_ISDIR(st.st_mode)) {
                                count(w, SEINSTALL_RELABEL_SEEN);
                                if (links_add(j, st.st_dev, st.st_ino, w->path.s, mode) == 0)
                                        continue;
                                atomic_fetch_sub(&w->counts[SEINSTALL_RELABEL_SEEN], 1);
                        }
                        label_entry(w, -1, dirfd(f->dir), de->d_name, w->path.s, mode);
                        continue;
                }
                dev_t ndev;
                int nfd = enter_dir(w, dirfd(f->dir), de->d_name, f->dev, &ndev);
                if (nfd < 0)
                        continue;
                if (offer(j, nfd, w->path.s, w->path.len, ndev))
                        continue;
                fd = nfd;
                dev = ndev;
        }
        while (depth > 0) {
                closedir(stack[--depth].dir);
        }
        w->cwd = -1;
        free(stack);
}

static void *worker_main(void *arg)
{
        struct worker *w = arg;
        struct job *j = w->job;

        /* Our own working directory, so that fchdir() here does not move the other threads. */
        w->own_cwd = unshare(CLONE_FS) == 0;
        w->cwd = -1;
        for (;;) {
                struct work item;

                pthread_mutex_lock(&j->lock);
                j->idle++;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                while (j->qlen == 0 && !j->done && !atomic_load(&j->abort)) {
                        if (j->idle == j->nthreads) {
                                j->done = true;
                                pthread_cond_broadcast(&j->cond);
                                break;
                        }
                        pthread_cond_wait(&j->cond, &j->lock);
                }
                if (j->qlen == 0 || atomic_load(&j->abort)) {
                        pthread_cond_broadcast(&j->cond);
                        pthread_mutex_unlock(&j->lock);
                        break;
                }
                item = j->queue[--j->qlen];
                atomic_store_explicit(&j->qlen_hint, (unsigned) j->qlen, memory_order_relaxed);
                j->idle--;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                pthread_mutex_unlock(&j->lock);

                walk(w, &item);
                free(item.path);
        }
        pthread_mutex_lock(&j->lock);
        j->running--;
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
        return NULL;
}

static unsigned long long sum_counts(struct job *j, enum seinstall_relabel_count which)
{
        unsigned long long n = 0;

        for (unsigned i = 0; i < j->nthreads; i++)
                n += atomic_load_explicit(&j->workers[i].counts[which], memory_order_relaxed);
        return n;
}

static double now_seconds(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Run the workers over the root (already labeled, open as @root_fd) and report progress. */
static int run_walk(struct job *j, int root_fd, dev_t dev, seinstall_relabel_progress_fn progress,
                    void *userdata, double start)
{
        unsigned started = 0;
        int r = 0;

        j->workers = calloc(j->nthreads, sizeof(*j->workers));
        j->queue = calloc(j->nthreads + 1, sizeof(*j->queue));
        if (!j->workers || !j->queue) {
                close(root_fd);
                return -ENOMEM;
        }
        j->queue[0] = (struct work){.fd = root_fd, .path = strdup(""), .len = 0, .dev = dev};
        if (!j->queue[0].path) {
                close(root_fd);
                return -ENOMEM;
        }
        j->qlen = 1;
        for (unsigned i = 0; i < j->nthreads; i++) {
                struct worker *w = &j->workers[i];
                w->job = j;
                r = si_fc_scratch_new(j->fc, &w->scratch);
                if (r < 0)
                        break;
        }
        pthread_mutex_lock(&j->lock);
        if (r == 0)
                for (; started < j->nthreads; started++) {
                        if (pthread_create(&j->workers[started].thread, NULL, worker_main,
                                           &j->workers[started]) != 0)
                                break;
                        j->running++;
                }
        if (started < j->nthreads) {
                /* The threads that did start must not wait for the others: stop them. */
                if (!j->fatal)
                        j->fatal = r < 0 ? r : -EAGAIN;
                atomic_store(&j->abort, true);
                pthread_cond_broadcast(&j->cond);
        }
        while (j->running > 0) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 250 * 1000 * 1000;
                if (ts.tv_nsec >= 1000000000) {
                        ts.tv_sec++;
                        ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&j->cond, &j->lock, &ts);
                if (progress && j->running > 0) {
                        unsigned long long total = j->total_estimate;
                        pthread_mutex_unlock(&j->lock);
                        progress(userdata, sum_counts(j, SEINSTALL_RELABEL_SEEN), total,
                                 now_seconds() - start);
                        pthread_mutex_lock(&j->lock);
                }
        }
        pthread_mutex_unlock(&j->lock);
        for (unsigned i = 0; i < started; i++)
                pthread_join(j->workers[i].thread, NULL);
        if (progress)
                progress(userdata, sum_counts(j, SEINSTALL_RELABEL_SEEN), j->total_estimate,
                         now_seconds() - start);
        /* What the workers left in the queue when they stopped early. */
        for (size_t i = 0; i < j->qlen; i++) {
                close(j->queue[i].fd);
                free(j->queue[i].path);
        }
        j->qlen = 0;
        return r < 0 ? r : j->fatal;
}

/* ---- verification --------------------------------------------------------------------- */

static const char *const boot_files[] = {
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
    "/etc/selinux/config",
};

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

static int verify_one(struct job *j, const char *path)
{
        struct seinstall_relabel_result *res = j->res;
        const char *base = NULL, *want = NULL;
        char cur[LABEL_BUF], proc[64 + 256];
        struct stat st;
        ssize_t n;
        struct verified *nv;
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
        nv = realloc(res->verified, (res->nverified + 1) * sizeof(*nv));
        if (!nv)
                return -ENOMEM;
        res->verified = nv;
        nv[res->nverified] = (struct verified){
            .path = strdup(path),
            .actual = n > 0 ? strdup(cur) : NULL,
            .expected = strdup(want),
        };
        res->nverified++;
        if (!streq(cur, want))
                job_error(j, NULL, "Boot-critical file %s has label %s, expected %s", path,
                          n > 0 ? cur : "(none)", want);
        return streq(cur, want) ? 0 : 1;
}

static int verify(struct job *j, const char *type)
{
        _cleanup_free_ char *fc_path = NULL;
        int bad = 0, r;

        if (asprintf(&fc_path, "/etc/selinux/%s/contexts/files/file_contexts", type) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < ELEMENTSOF(boot_files); i++) {
                r = verify_one(j, boot_files[i]);
                if (r < 0)
                        return r;
                bad += r;
        }
        r = verify_one(j, fc_path);
        if (r < 0)
                return r;
        bad += r;
        /* the policy file: policy.N, whichever N */
        for (int v = 40; v >= 15; v--) {
                _cleanup_free_ char *p = NULL;
                if (asprintf(&p, "/etc/selinux/%s/policy/policy.%d", type, v) < 0)
                        return -ENOMEM;
                r = verify_one(j, p);
                if (r < 0)
                        return r;
                bad += r;
        }
        return bad;
}

/* ---- entry point ------------------------------------------------------------------------ */

/* Classify the target's mounts as `seinstall check` does. When the check itself cannot run,
 * say so and decide by filesystem type instead. */
static int check_mounts(struct seinstall_ctx *ctx, const char *type, struct seinstall_check **ret)
{
        struct seinstall_settings *settings = NULL;
        int r = seinstall_settings_new(&settings);

        if (r < 0)
                return r;
        if (type)
                (void) seinstall_settings_set_policy(settings, type, SEINSTALL_SOURCE_PROFILE);
        r = seinstall_check_run(ctx, settings, NULL, ret);
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

int si_relabel_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                   unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                   struct seinstall_relabel_result **ret_result)
{
        struct job j = {.ctx = ctx,
                        .dry_run = flags & SEINSTALL_RELABEL_DRY_RUN,
                        .fc = in->fc,
                        .check = in->check};
        const char *type = in->type;
        struct seinstall_relabel_result *res = NULL;
        const char *fsname, *reason;
        double start = now_seconds();
        struct stat st;
        int root_fd, r;

        if (threads == 0) {
                long n = sysconf(_SC_NPROCESSORS_ONLN);
                threads = n > 0 ? (unsigned) n : 1;
        }
        if (threads > 1024)
                threads = 1024;
        j.nthreads = threads;

        root_fd = openat(ctx->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root_fd < 0)
                return si_error(ctx, -errno, "Could not open the target root %s: %m", ctx->root);
        if (fstat(root_fd, &st) < 0 || !mount_labelable(j.check, "", root_fd, &fsname, &reason)) {
                close(root_fd);
                return si_error(ctx, -EOPNOTSUPP,
                                "The target root %s is on %s, which cannot keep per-file SELinux "
                                "labels (%s); run 'seinstall check' for what to do",
                                ctx->root, fsname, reason);
        }

        res = calloc(1, sizeof(*res));
        if (!res) {
                close(root_fd);
                return -ENOMEM;
        }
        res->refcount = 1;
        res->root = strdup(ctx->root);
        res->policy = strdup(type);
        res->file_contexts = in->file_contexts ? strdup(in->file_contexts) : NULL;
        res->threads = threads;
        res->dry_run = j.dry_run;
        j.res = res;
        pthread_mutex_init(&j.lock, NULL);
        pthread_cond_init(&j.cond, NULL);
        j.total_estimate = used_inodes(root_fd);

        /* The root itself, then everything below it. */
        {
                struct worker w0 = {.job = &j, .cwd = -1};
                r = si_fc_scratch_new(j.fc, &w0.scratch);
                if (r < 0) {
                        close(root_fd);
                        goto out_res;
                }
                label_entry(&w0, root_fd, -1, NULL, "", S_IFDIR);
                for (int i = 0; i <= SEINSTALL_RELABEL_ERRORS; i++)
                        res->counts[i] += atomic_load(&w0.counts[i]);
                si_fc_scratch_free(w0.scratch);
        }
        r = j.fatal;
        if (r == 0)
                r = run_walk(&j, root_fd, st.st_dev, progress, userdata, start);
        else
                close(root_fd);
        if (r == 0 && j.workers && j.workers[0].scratch) {
                links_label(&j, &j.workers[0]);
                r = j.fatal;
        }
        for (size_t i = 0; i < j.links_cap; i++)
                free(j.links[i].path);
        free(j.links);
        for (unsigned i = 0; j.workers && i < j.nthreads; i++)
                for (int c = 0; c <= SEINSTALL_RELABEL_ERRORS; c++)
                        res->counts[c] += atomic_load(&j.workers[i].counts[c]);
        if (r == 0 && !j.dry_run && !(flags & SEINSTALL_RELABEL_NO_VERIFY) && j.workers &&
            j.workers[0].scratch) {
                r = verify(&j, type);
                if (r > 0) {
                        res->counts[SEINSTALL_RELABEL_ERRORS] += (unsigned) r;
                        r = si_error(ctx, -EIO,
                                     "%d boot-critical file(s) of %s do not carry the label the "
                                     "policy expects",
                                     r, ctx->root);
                }
        }
        if (r == 0 && res->counts[SEINSTALL_RELABEL_ERRORS] > 0)
                r = si_error(ctx, -EIO, "%llu entries of %s could not be labeled (first: %s)",
                             res->counts[SEINSTALL_RELABEL_ERRORS], ctx->root,
                             res->nerrors ? res->errors[0] : "?");
        else if (r == -ENOMEM)
                si_error(ctx, r, "Out of memory while relabeling %s", ctx->root);
out_res:
        res->seconds = now_seconds() - start;
        res->status = r;
        if (j.workers)
                for (unsigned i = 0; i < j.nthreads; i++) {
                        si_fc_scratch_free(j.workers[i].scratch);
                        sbuf_free(&j.workers[i].path);
                }
        free(j.workers);
        free(j.queue);
        pthread_mutex_destroy(&j.lock);
        pthread_cond_destroy(&j.cond);
        if (ret_result)
                *ret_result = res;
        else
                seinstall_relabel_result_unref(res);
        return r;
}

int seinstall_relabel(struct seinstall_ctx *ctx, const char *policy_type, const char *file_contexts,
                      unsigned threads, unsigned flags, seinstall_relabel_progress_fn progress,
                      void *userdata, struct seinstall_relabel_result **ret_result)
{
        struct si_relabel_input in = {.file_contexts = file_contexts};
        struct seinstall_check *check = NULL;
        _cleanup_free_ char *type = NULL;
        int r;

        if (!ctx || (flags & ~(SEINSTALL_RELABEL_DRY_RUN | SEINSTALL_RELABEL_NO_VERIFY)))
                return -EINVAL;
        if (policy_type) {
                if (!si_policy_type_valid(policy_type))
                        return si_error(ctx, -EINVAL, "Invalid policy type '%s'", policy_type);
                type = strdup(policy_type);
                if (!type)
                        return -ENOMEM;
        } else {
                r = target_policy_type(ctx, &type);
                if (r < 0)
                        return si_error(ctx, r, "Could not read the target's SELinux config: %s",
                                        strerror(-r));
        }
        in.type = type;
        r = file_contexts ? si_fcontext_load_path(ctx, file_contexts, &in.fc)
                          : si_fcontext_load_target(ctx, type, &in.fc);
        if (r >= 0)
                r = validate_contexts(ctx, type, in.fc);
        if (r >= 0)
                r = check_mounts(ctx, policy_type ? type : NULL, &check);
        in.check = check;
        if (r >= 0)
                r = si_relabel_run(ctx, &in, threads, flags, progress, userdata, ret_result);
        si_fcontext_free(in.fc);
        seinstall_check_unref(check);
        return r;
}
