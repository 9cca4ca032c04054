/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * label.c — the labels of what seinstall itself writes into a target. Every file, directory and
 * symbolic link the writes of rootfs-write.c create or replace (the config, the kernel command line
 * files, /.autorelabel, the first-boot mark and its directory, the trial state, the trial
 * unit's link, a regenerated grub.cfg) gets the label the target's file contexts give its
 * path, set on the new file before it takes its name (the temporary before the rename), so a
 * target that was labeled stays labeled whichever command wrote last.
 *
 * The file contexts are the install's own compiled ones (si_labels_use()) or, for any other
 * caller, the target's file_contexts of the policy type si_labels_for_type() named (else its
 * config's SELINUXTYPE, else "default"), loaded on the first write that needs them and kept in
 * the context. A target without file contexts (no policy installed yet) is written unlabeled:
 * nothing could say which label is right, and the relabel that turns SELinux on labels it.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "fcontext.h"
#include "walk.h"
#include "config.h"

#define FC_PATH_FMT "/etc/selinux/%s/contexts/files/file_contexts"

struct si_labels {
        struct si_fcontext *fc; /* NULL: write unlabeled */
        struct si_fc_scratch *scratch;
        bool owned;    /* loaded here, freed with the context */
        bool borrowed; /* set by si_labels_use() */
        bool loaded;   /* fc is decided (loaded, borrowed, or none) */
        char *type;    /* the policy type to load; NULL: the target's config's */
};

static void labels_drop(struct si_labels *l)
{
        si_fc_scratch_free(l->scratch);
        l->scratch = NULL;
        if (l->owned)
                si_fcontext_free(l->fc);
        l->fc = NULL;
        l->owned = l->borrowed = l->loaded = false;
}

static void labels_free(struct seinstall_ctx *ctx)
{
        if (!ctx->labels)
                return;
        labels_drop(ctx->labels);
        free(ctx->labels->type);
        free(ctx->labels);
        ctx->labels = NULL;
}

static int labels_get(struct seinstall_ctx *ctx, struct si_labels **ret)
{
        if (!ctx->labels) {
                ctx->labels = calloc(1, sizeof(*ctx->labels));
                if (!ctx->labels)
                        return -ENOMEM;
                ctx->labels_free = labels_free;
        }
        *ret = ctx->labels;
        return 0;
}

int si_labels_for_type(struct seinstall_ctx *ctx, const char *type)
{
        struct si_labels *l;
        char *t;
        int r = labels_get(ctx, &l);

        if (r < 0)
                return r;
        if (streq_ptr(l->type, type))
                return 0;
        t = type ? strdup(type) : NULL;
        if (type && !t)
                return -ENOMEM;
        if (!l->borrowed)
                labels_drop(l); /* loaded for another type: load again when needed */
        free(l->type);
        l->type = t;
        return 0;
}

int si_labels_use(struct seinstall_ctx *ctx, struct si_fcontext *fc)
{
        struct si_labels *l;
        int r = labels_get(ctx, &l);

        if (r < 0)
                return r;
        labels_drop(l);
        l->fc = fc;
        l->borrowed = l->loaded = true;
        return 0;
}

void si_labels_reset(struct seinstall_ctx *ctx)
{
        if (ctx->labels)
                labels_drop(ctx->labels);
}

/* The target's file contexts, loaded once: 0 with *ret NULL when it has none. */
static int labels_load(struct seinstall_ctx *ctx, struct si_labels **ret)
{
        _cleanup_free_ char *type = NULL, *path = NULL;
        struct si_labels *l;
        int r = labels_get(ctx, &l);

        if (r < 0)
                return r;
        if (!l->loaded) {
                r = l->type ? ((type = strdup(l->type)) ? 0 : -ENOMEM)
                            : si_config_policy_type(ctx, &type);
                if (r < 0)
                        return r;
                if (asprintf(&path, FC_PATH_FMT, type) < 0)
                        return -ENOMEM;
                _cleanup_close_ int fd = si_root_open(ctx, path, O_PATH, 0);
                if (fd >= 0) {
                        /* a few lookups: the interpreter, no JIT (fcontext.h) */
                        r = si_fcontext_load_target(ctx, type, SI_FC_NO_JIT, &l->fc);
                        if (r < 0)
                                return r;
                        l->owned = true;
                } else if (fd != -ENOENT)
                        return si_error_cause(ctx, fd, "Could not open %s%s: %s", ctx->root, path,
                                              si_file_strerror(fd));
                l->loaded = true;
        }
        if (l->fc && !l->scratch) {
                r = si_fc_scratch_new(l->fc, &l->scratch);
                if (r < 0)
                        return r;
        }
        *ret = l->fc ? l : NULL;
        return 0;
}

/* The label the file contexts give @path of type @mode: 1 and *ret, 0 none (no file
 * contexts, no spec, <<none>>). */
static int label_want(struct seinstall_ctx *ctx, const char *path, mode_t mode, const char **ret)
{
        _cleanup_free_ char *abs = NULL;
        struct si_labels *l = NULL;
        int r = labels_load(ctx, &l);

        if (r < 0 || !l)
                return r;
        if (*path != '/') {
                abs = path_join("/", path);
                if (!abs)
                        return -ENOMEM;
                path = abs;
        }
        r = si_fcontext_lookup(l->fc, l->scratch, path, mode, ret);
        /* -EPROTO: the spec's context is not valid in the target's policy; the relabel that
         * has to run anyway says so */
        if (r == -ENOENT || r == -EPROTO)
                return 0;
        if (r < 0)
                return si_error_cause(ctx, r, "Could not look up the label of %s%s: %s", ctx->root,
                                      path, strerror(-r));
        return 1;
}

/* The outcome of setting @want on @path: a mount that keeps no per-file labels (a BLS entry
 * on a vfat ESP) is labeled by the policy as a whole, as the check said. */
static int label_result(struct seinstall_ctx *ctx, int r, const char *path, const char *want)
{
        if (r >= 0 || errno == EOPNOTSUPP)
                return 0;
        r = -errno;
        /* The target's label is right and the running system cannot take it: a system failure
         * (exit 3), not bad input (EINVAL would exit 2), and no permission was missing (EPERM
         * would say so); the relabel reports it the same. */
        if (r == -EINVAL)
                return si_error_cause(
                    ctx, -SEINSTALL_ERROR_LABEL_REFUSED,
                    "The running system refused the label %s for %s%s (EINVAL): its "
                    "own SELinux policy does not know this context of the target's "
                    "policy. Run the installer with SELinux permissive (enforcing=0) "
                    "or disabled, or relabel the target afterwards.",
                    want, ctx->root, path);
        return si_error_cause(ctx, r, "Could not set the label %s on %s%s: %s", want, ctx->root,
                              path, strerror(-r));
}

int si_label_fd(struct seinstall_ctx *ctx, int fd, const char *path, mode_t mode)
{
        const char *want;
        int r = label_want(ctx, path, mode, &want);

        if (r <= 0)
                return r;
        return label_result(ctx, fsetxattr(fd, XATTR_SELINUX, want, strlen(want) + 1, 0), path,
                            want);
}

int si_label_at(struct seinstall_ctx *ctx, int dfd, const char *name, const char *path, mode_t mode)
{
        _cleanup_free_ char *at = NULL;
        const char *want;
        int r = label_want(ctx, path, mode, &want);

        if (r <= 0)
                return r;
        /* The directory's fd through /proc, then the bare name with lsetxattr: the name is
         * never followed, and nothing outside @dfd can be reached. */
        if (asprintf(&at, "/proc/self/fd/%d/%s", dfd, name) < 0)
                return -ENOMEM;
        return label_result(ctx, lsetxattr(at, XATTR_SELINUX, want, strlen(want) + 1, 0), path,
                            want);
}

int si_label_path(struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        fd = si_root_open(ctx, path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0);
        /* gone, or a symlink now: never labeled through it */
        if (fd == -ENOENT || fd == -ELOOP)
                return 0;
        if (fd < 0)
                return si_error_cause(ctx, fd, "Could not open %s%s to label it: %s", ctx->root,
                                      path, si_file_strerror(fd));
        if (fstat(fd, &st) < 0)
                return -errno;
        return si_label_fd(ctx, fd, path, st.st_mode);
}
