/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel-label.c — the relabel engine's core, the one thing every relabel pass shares:
 * labeling one entry the walker (walk.c) visits with the full context the file contexts give
 * it (setfiles -F semantics), telling a verify of each label that differed, and the adapter
 * that turns what the walker reports (struct si_walk_ops) into the relabel result. The passes
 * that drive it are relabel.c (the live tree), relabel-hidden.c (what the mounts hide) and
 * relabel-paths.c (a list of paths); it calls none of them.
 */
#include <sys/stat.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "fcontext.h"
#include "relabel.h"
#include "walk.h"

#define LABEL_BUF 4096

void si_relabel_done(struct relabel *rl)
{
        if (rl->walk_ready)
                si_walk_done(&rl->walk);
}

/* ---- labeling one entry ------------------------------------------------------------------ */

/* Tell the caller's mismatch function (verify) about a label that differed. */
static void report_mismatch(struct relabel *rl, const char *path, const char *actual,
                            const char *expected, bool fixed)
{
        struct si_walk *j = &rl->walk;
        int r;

        if (!rl->mismatch)
                return;
        pthread_mutex_lock(&j->lock);
        r = rl->mismatch(rl->mismatch_data, path, actual, expected, fixed);
        pthread_mutex_unlock(&j->lock);
        if (r < 0)
                si_walk_fatal(j, r);
}

/* Label one entry: @fd when we have it open (a directory; with @name "" an O_PATH fd of any
 * file), else @name in @dfd. @path is its path inside the target ("" for the root). */
void si_relabel_label_entry(struct si_walker *w, int fd, int dfd, const char *name,
                            const char *path, mode_t mode)
{
        bool opath = fd >= 0 && name && !*name;
        struct si_walk *j = w->walk;
        struct relabel *rl = RELABEL(j);
        const char *want = NULL, *xname = NULL, *shown = *path ? path : "/";
        char cur[LABEL_BUF];
        ssize_t n;
        int r;

        if (rl->prefix) {
                /* the file contexts know the path in the tree, not below the bind mount */
                struct sbuf *b = &rl->prefixed[w - j->workers];
                b->len = 0;
                if (sbuf_puts(b, rl->prefix) < 0 || sbuf_puts(b, path) < 0) {
                        si_walk_fatal(j, -ENOMEM);
                        return;
                }
                shown = b->s;
        }
        si_walk_count(w, SEINSTALL_RELABEL_COUNT_SEEN);
        r = si_fcontext_lookup(j->fc, w->scratch, shown, mode, &want);
        if (r == -ENOENT) {
                si_walk_count(w, SEINSTALL_RELABEL_COUNT_NO_CONTEXT);
                return;
        }
        if (r == -EPROTO) {
                si_walk_error(j, w,
                              "%s: context %s from the file contexts is not valid in the target's "
                              "policy; not written",
                              shown, want);
                return;
        }
        if (r == -ETIME) {
                /* A pattern that backtracks catastrophically would cost this much on every
                 * path: stop the walk and name it rather than take hours. */
                int spec = si_fc_scratch_limit_spec(w->scratch);
                unsigned line = 0;
                const char *file = si_fcontext_spec_origin(j->fc, spec, &line);
                si_walk_error(j, w,
                              "%s:%u: the pattern %s backtracks without end matching %s (more "
                              "than a million steps): relabel stopped; fix or remove that line",
                              file ? file : "file contexts", line,
                              si_fcontext_spec_regex(j->fc, spec), shown);
                si_walk_fatal(j, -EBADMSG);
                return;
        }
        if (r < 0) {
                si_walk_fatal(j, r);
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
                xname = si_walk_xattr_name(w, dfd, name);
                n = lgetxattr(xname, XATTR_SELINUX, cur, sizeof(cur) - 1);
        }
        if (n < 0 && errno != ENODATA && errno != ERANGE) {
                if (errno == ENOENT)
                        return; /* removed while we walk */
                si_walk_error(j, w, "Could not read the label of %s: %m", shown);
                return;
        }
        if (n >= 0) {
                while (n > 0 && cur[n - 1] == '\0')
                        n--;
                cur[n] = '\0';
                if (streq(cur, want)) {
                        si_walk_count(w, SEINSTALL_RELABEL_COUNT_UNCHANGED);
                        return;
                }
        }
        if (rl->dry_run) {
                si_walk_count(w, SEINSTALL_RELABEL_COUNT_CHANGED); /* would change */
                report_mismatch(rl, shown, n > 0 ? cur : NULL, want, false);
                return;
        }
        if (opath)
                r = setxattr(xname, XATTR_SELINUX, want, strlen(want) + 1, 0);
        else if (fd >= 0)
                r = fsetxattr(fd, XATTR_SELINUX, want, strlen(want) + 1, 0);
        else
                r = lsetxattr(xname, XATTR_SELINUX, want, strlen(want) + 1, 0);
        if (r < 0) {
                int e = errno;
                if (e != ENOENT)
                        report_mismatch(rl, shown, n > 0 ? cur : NULL, want, false);
                errno = e;
                if (errno == EINVAL) {
                        si_walk_count(w, SEINSTALL_RELABEL_COUNT_ERRORS);
                        si_walk_fail(j, -SEINSTALL_ERROR_LABEL_REFUSED,
                                     "The running system refused the label %s for %s "
                                     "(EINVAL): its own SELinux policy does not know this "
                                     "context of the target's policy. Run the installer "
                                     "with SELinux permissive (enforcing=0) or disabled, "
                                     "then relabel again.",
                                     want, shown);
                        return;
                }
                if (errno == ENOENT)
                        return;
                if (e == ENOSPC || e == EDQUOT || e == EROFS) {
                        /* every write after this one fails alike: stop, saying it once */
                        si_walk_count(w, SEINSTALL_RELABEL_COUNT_ERRORS);
                        si_walk_fail(j, -e,
                                     e == EROFS ? N_("Could not set the label %s on %s: %s; "
                                                     "remount its filesystem read-write, then "
                                                     "relabel again")
                                                : N_("Could not set the label %s on %s: %s; "
                                                     "free space on its filesystem, then "
                                                     "relabel again"),
                                     want, shown, strerror(e));
                        return;
                }
                si_walk_error(j, w, "Could not set the label %s on %s: %m", want, shown);
                return;
        }
        si_walk_count(w, SEINSTALL_RELABEL_COUNT_CHANGED); /* counted once written */
        report_mismatch(rl, shown, n > 0 ? cur : NULL, want, true);
}

/* ---- what the walker reports, into the result ---------------------------------------------- */

static void walk_error(void *data, char *msg)
{
        si_relabel_result_add_error(data, msg);
}

static int walk_skipped(void *data, const char *path, const char *fstype, const char *reason)
{
        return si_relabel_result_add_skipped(data, path, fstype, reason);
}

const struct si_walk_ops si_relabel_walk_ops = {
    .visit = si_relabel_label_entry,
    .error = walk_error,
    .skipped = walk_skipped,
};
