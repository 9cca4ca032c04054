/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* check-stage.h — the check stage (check.c) and what it is made of: the planned layout (plan.c),
 * the mounted one and its probe (check-mounts.c), the classification of one mount
 * (check-classify.c), the result (check-result.c). Not installed. (Not check.h: <check.h> is
 * the Check test framework.) */
#ifndef SEINSTALL_CHECK_STAGE_H
#define SEINSTALL_CHECK_STAGE_H

#include "seinstall-private.h"
#include "policy.h"
#include "settings.h"

/* ---- check: mounts, plans, probe, classification (check-classify.c, plan.c, check-mounts.c,
 * check.c) -- */

/* Whether the kernel can store security.selinux on a mounted filesystem (probe in check-mounts.c).
 */
enum si_probe {
        SI_PROBE_NOT_RUN = 0, /* planned layout: nothing is mounted */
        SI_PROBE_YES,
        SI_PROBE_NO,      /* EOPNOTSUPP: the kernel cannot store the xattr there */
        SI_PROBE_UNKNOWN, /* the probe could not tell (read-only, no permission, ...) */
};

/* One mount of the target, planned or mounted, and what check found. */
struct si_mount {
        char *mountpoint; /* in the target: "/" for its root */
        char *path;       /* where it is mounted on this system; NULL when planned */
        char *source;     /* device, image or "tmpfs"; may be NULL */
        char *fstype;
        char *options; /* comma-separated, may be NULL */
        unsigned line; /* line in the plan, 0 when mounted */
        enum si_probe probe;
        int probe_errno;
        /* filled by si_fscheck_mount() */
        enum seinstall_labeling labeling;
        char *label; /* the one label of genfs/mount-context/none, NULL for xattr/trans */
        enum seinstall_verdict verdict;
        char *reason;
        char *fix;
        int write_errno; /* EROFS, ENOSPC: seinstall must write here and cannot; else 0 */
};

struct si_mount_list {
        struct si_mount *v;
        size_t n, cap;
};

/* What check found (check.c fills it; check-result.c reads it out and frees it). */
struct seinstall_check_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
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

/* Free the strings of one mount and zero it. */
void si_mount_clear(struct si_mount *m);
void si_mount_list_free(struct si_mount_list *l);
/* Append a mount with copies of the given strings (any may be NULL but @mountpoint). */
int si_mount_list_add(struct si_mount_list *l, const char *mountpoint, const char *path,
                      const char *source, const char *fstype, const char *options, unsigned line);

/* Read a planned layout, an fstab-format file (plan.c). A type of "auto", or none, is probed
 * with libblkid on the device (a regular file, an image, is fine). Swap and "none" mount points
 * are skipped. -EBADMSG naming file and line for a malformed line, -ENOENT for a missing
 * device that needed probing, -EINVAL for one without a filesystem libblkid knows. */
int si_plan_read(struct seinstall_ctx *ctx, const char *file, struct si_mount_list *ret);
/* @file "-" reads standard input. The same for the plan text @data (@len bytes) named @file in
 * messages: si_plan_parse(). */
int si_plan_parse(struct seinstall_ctx *ctx, const char *file, const char *data, size_t len,
                  struct si_mount_list *ret);

/* The mounts at and below the target root, as libmount reads them from /proc/self/mountinfo
 * (check-mounts.c); the filesystem holding the root comes first as "/" even when the root is not a
 * mount point itself. Each is probed with si_probe_xattr(). */
int si_mounts_read(struct seinstall_ctx *ctx, struct si_mount_list *ret);
/* Try to store security.selinux on a scratch file in the directory @path: an O_TMPFILE, or a
 * file unlinked right after creation, so nothing is ever left behind. Sets *ret_errno to the
 * errno that decided a NO or UNKNOWN answer. */
enum si_probe si_probe_xattr(const char *path, int *ret_errno);

/* The value of the mount option @name ("context", "fscontext", ...) in @options, quotes
 * removed: 1 and a new string, 0 when absent, -ENOMEM. */
int si_mount_option(const char *options, const char *name, char **ret);

/* What a mount point holds (check-classify.c). */
enum si_role {
        SI_ROLE_SYSTEM,   /* /, /usr, /etc, /var, /home, /root, /opt, /srv, /boot and below */
        SI_ROLE_EFI,      /* /boot/efi, /efi and below: one label is what the policy means */
        SI_ROLE_VOLATILE, /* /tmp, /run, /dev/shm and below: in-memory labels are fine */
        SI_ROLE_OTHER,
};
enum si_role si_mount_role(const char *mountpoint);
/* The verdict rule (docs/design.md) for a labeling class on a mount of @role in @mode. */
enum seinstall_verdict si_verdict_rule(enum seinstall_labeling labeling, enum si_role role,
                                       enum seinstall_mode mode);
/* Whether a filesystem with statfs magic @magic keeps per-file labels; its name ("unknown" for
 * a magic not in the table) and, when not, why not (static strings). */
bool si_fs_magic_labelable(unsigned long magic, const char **ret_name, const char **ret_reason);
/* Classify @m under @policy (labeling, label) and judge it in @mode (verdict, reason, fix, in
 * the language @ctx asks for; NULL: English). */
int si_fscheck_mount(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                     enum seinstall_mode mode, struct si_mount *m);

/* The check stage (check.c): judge the mounts of the target (or the planned layout in
 * @plan) in the decided mode under @policy, which the caller loaded for d->policy. */
/* A planned layout: the file @name ("-": standard input), or the text @text named @name. */
struct si_plan_source {
        const char *name;
        const char *text; /* NULL: read the file */
};
int si_check_run(struct seinstall_ctx *ctx, const struct si_decision *d,
                 const struct seinstall_settings *settings, const struct si_policy *policy,
                 const struct si_plan_source *plan, struct seinstall_check_result **ret);
/* seinstall_check_run() on the mounts, under @policy when it is of the type the settings and
 * the target's config decide (a relabel has just loaded it), else under the one it loads. */
int si_check_run_mounts(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                        const struct si_policy *policy, struct seinstall_check_result **ret);

/* The first mount of @c seinstall must write and cannot (read-only, full), as an error naming
 * it and the fix: -EROFS or -ENOSPC; 0 when there is none (or @c is NULL). */
int si_check_writable_error(struct seinstall_ctx *ctx, const struct seinstall_check_result *c);

#endif
