/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy.h — the target's SELinux policy as the rest of the library sees it: loading it
 * (policy.c), what it says about filesystems and contexts (policy-fs.c, policy-context.c), and
 * building it from its modules (policy-build.c). The parts of the reader share policy-internal.h.
 * Not installed. */
#ifndef SEINSTALL_POLICY_H
#define SEINSTALL_POLICY_H

#include "seinstall-private.h"

/* ---- policy knowledge (policy.c) --------------------------------------------------------
 * The target's binary policy, read with libsepol, answers how a filesystem is labeled. Loaded
 * once per run and shared: check classifies mounts with it, relabel and apply validate
 * contexts with it. */

struct si_policy;

/* How the policy labels a filesystem type through fs_use_* statements. */
enum si_fs_use {
        SI_FS_USE_NONE = 0, /* no fs_use statement for it (genfscon or nothing) */
        SI_FS_USE_XATTR,    /* fs_use_xattr: per-file labels kept in security.selinux */
        SI_FS_USE_TRANS,    /* fs_use_trans: computed at creation, kept in memory */
        SI_FS_USE_TASK,     /* fs_use_task: the creating task's label (pipefs, sockfs) */
};

/* Load the policy of @type ("default", "mls", ...): the newest policy.N under the target's
 * /etc/selinux/TYPE/policy/ (source TARGET), else the host's (source HOST; only when the
 * target root is not "/"), else seinstall's built-in table modelled on Debian's default policy
 * (source BUILTIN, only for "default"). Returns 0 and the policy in *ret, -EINVAL for a bad
 * type, -ENOPKG when no source has it, -EBADMSG for a policy file libsepol cannot read. */
int si_policy_load(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret);
/* ---- what a target has of a policy and what provides it (policy-package.c) ------------- */

/* The Debian package that provides policy @type (static string). */
const char *si_policy_package(const char *type);
/* What to install for the policy @type, for a message: "the package selinux-policy-default",
 * or, for a type no known package provides, a phrase naming Debian's packages, in the
 * language of @ctx. Never NULL. */
const char *si_policy_package_hint(struct seinstall_ctx *ctx, const char *type);
/* The command that builds the policy of the tree @root from its modules: "semodule -B", or
 * "semodule -p ROOT -n -B" (quoted) elsewhere. NULL on ENOMEM. */
char *si_semodule_command(const char *root);
/* Whether etc/selinux/@type/policy/policy.N exists in the target. */
bool si_policy_built(struct seinstall_ctx *ctx, const char *type);

/* ---- the policy's binary reader (policy.c, policy-fs.c, policy-context.c) -------------- */
/* The target's own policy of @type, nothing else: labels checked against another policy prove
 * nothing. -ENOPKG (with a message saying what to install) when the target has none, -EBADMSG
 * when libsepol cannot read it. */
int si_policy_load_target(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret);
/* 0 when @p (may be NULL) is the target's own policy, else -ENOPKG with that message. */
int si_policy_require_target(struct seinstall_ctx *ctx, const struct si_policy *p,
                             const char *type);
/* The same with the host's policies looked up under @host_dir instead of /etc/selinux (tests). */
int si_policy_load_at(struct seinstall_ctx *ctx, const char *type, const char *host_dir,
                      struct si_policy **ret);
/* The target's own newest policy.N of @type only (no fallback): -ENOENT when it has none. */
int si_policy_load_own(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret);
/* Load a binary policy file of the host (tests, --policy-file style callers). */
int si_policy_load_file(struct seinstall_ctx *ctx, const char *path, const char *type,
                        enum seinstall_source source, struct si_policy **ret);
/* The built-in table alone. */
int si_policy_load_builtin(const char *type, struct si_policy **ret);
struct si_policy *si_policy_free(struct si_policy *p);
static inline void si_policy_freep(struct si_policy **p)
{
        si_policy_free(*p);
}

const char *si_policy_type(const struct si_policy *p);
/* TARGET, HOST or BUILTIN. */
enum seinstall_source si_policy_source(const struct si_policy *p);
/* The file the policy was read from (a host path), NULL for the built-in table. */
const char *si_policy_path(const struct si_policy *p);
/* The libsepol policydb (a sepol_policydb_t *), NULL for the built-in table. Owned by @p. */
void *si_policy_sepol(const struct si_policy *p);

/* The fs_use statement for @fstype: returns 1 and the behaviour (and, if @ret_context is not
 * NULL, the statement's context as a newly allocated string), 0 when there is none, -ENOMEM. */
int si_policy_fs_use(const struct si_policy *p, const char *fstype, enum si_fs_use *ret_use,
                     char **ret_context);
/* The genfscon label of @path (relative to the filesystem's root, "/" for the root) on
 * @fstype, chosen as the kernel does (longest matching prefix). Returns 1 and a new string, 0
 * when the policy has no genfscon for @fstype, -ENOMEM. */
int si_policy_genfs(const struct si_policy *p, const char *fstype, const char *path,
                    char **ret_context);
/* Names the fs_use_xattr statements of @p, in order, up to @max of them (for advice such as
 * "choose ext4, xfs or btrfs"): preferred common ones first. Returns the count. */
size_t si_policy_xattr_fstypes(const struct si_policy *p, const char **ret, size_t max);
/* Whether @context ("user:role:type[:range]") is defined by the policy: 1 yes, 0 no. With the
 * built-in table only the syntax and the type can be checked: it returns 1 for any well-formed
 * context. */
int si_policy_context_valid(const struct si_policy *p, const char *context);
/* The label of files the policy cannot label (initial SID "unlabeled"), new string or NULL. */
char *si_policy_unlabeled_context(const struct si_policy *p);

/* ---- building the policy from its modules (policy-store.c, policy-build.c) ------------- */

/* The target's /etc/selinux/@type and /var/lib/selinux opened for the build, once every
 * directory libsemanage uses and what it would read are checked: 0 and both directories, else
 * -ENOENT (no /var/lib/selinux), -ENOTDIR (a symlink or a non-directory), -EXDEV (not on the
 * target's own mounts), -EBADFD (a FIFO, device or socket), -E2BIG (too many entries), -ELOOP
 * (too deep), -EFBIG (too much to read), -EBADMSG (a broken bzip2 file), other -errno; each
 * with a message. */
int si_policy_store_open(struct seinstall_ctx *ctx, const char *type, int *ret_etc, int *ret_var);
/* Build the policy @type from the modules installed in the target (/var/lib/selinux/TYPE) with
 * libsemanage, as `semodule -p ROOT -n -B`. 0 already built, 1 built, -ENOPKG no modules
 * either (message names the package), -ENOTDIR a symlinked policy directory,
 * -SEINSTALL_ERROR_PROGRAM_FAILED, -SEINSTALL_ERROR_NOT_CONFINED. */
int si_policy_build(struct seinstall_ctx *ctx, const char *type);

#endif
