/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seinstall.h — the public C API of libseinstall, the plugin ABI installers link or dlopen.
 *
 * Conventions (as libmount/libkmod):
 *  - every call that can fail returns 0 (or a positive count) on success and a negative errno on
 *    failure; output parameters are called ret_* and are left untouched on failure;
 *  - objects are opaque, reference counted with *_ref() and *_unref(), and unref accepts NULL;
 *  - the library never prints and never exits: the reason of the last failure is kept in the
 *    context (seinstall_last_error()) and handed to the log callback the caller sets;
 *  - every operation works on a target root given to seinstall_new() ("/" for the running
 *    system), and never writes outside it.
 *
 * Error codes the front ends map to exit status: -EINVAL (bad argument), -EBADMSG (malformed
 * input file; the message names file and line) and -ENOENT for a missing input are "bad input"
 * (exit 2); anything else is "the system failed us" (exit 3).
 */
#ifndef SEINSTALL_H
#define SEINSTALL_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEINSTALL_EXPORT __attribute__((visibility("default")))
#define SEINSTALL_WUR    __attribute__((warn_unused_result))

/* ===== Context ============================================================================ */

struct seinstall_ctx;

/* Log priorities, as syslog(3). */
#define SEINSTALL_LOG_ERR     3
#define SEINSTALL_LOG_WARNING 4
#define SEINSTALL_LOG_NOTICE  5
#define SEINSTALL_LOG_INFO    6
#define SEINSTALL_LOG_DEBUG   7

typedef void (*seinstall_log_fn)(void *userdata, int priority, const char *message);

/* Create a context for the target tree at @root (NULL means "/"). The root must be an existing
 * directory; it is opened once and every later path is resolved inside it.
 * Returns 0 and a new reference in *ret_ctx, -ENOENT/-ENOTDIR for a bad root, -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_new(const char *root, struct seinstall_ctx **ret_ctx);
SEINSTALL_EXPORT struct seinstall_ctx *seinstall_ref(struct seinstall_ctx *ctx);
/* Drop a reference; frees the context with the last one. Accepts NULL. Returns NULL. */
SEINSTALL_EXPORT struct seinstall_ctx *seinstall_unref(struct seinstall_ctx *ctx);

/* The target root as given (normalised, no trailing slash except for "/"). Owned by @ctx. */
SEINSTALL_EXPORT const char *seinstall_get_root(const struct seinstall_ctx *ctx);

/* Messages go to @fn (NULL: nowhere) when their priority is at most @max_priority. */
SEINSTALL_EXPORT void seinstall_set_log_fn(struct seinstall_ctx *ctx, seinstall_log_fn fn,
                                           void *userdata);
SEINSTALL_EXPORT void seinstall_set_log_priority(struct seinstall_ctx *ctx, int max_priority);

/* The message of the last failure reported through @ctx, or NULL. Owned by @ctx, valid until
 * the next call that fails. */
SEINSTALL_EXPORT const char *seinstall_last_error(const struct seinstall_ctx *ctx);

/* ===== Modes and where a decision came from ============================================== */

enum seinstall_mode {
        SEINSTALL_MODE_INVALID = -1,
        SEINSTALL_MODE_ENFORCING = 0,
        SEINSTALL_MODE_PERMISSIVE,
        SEINSTALL_MODE_DISABLED,
};

enum seinstall_source {
        SEINSTALL_SOURCE_DEFAULT = 0,
        SEINSTALL_SOURCE_TARGET,
        SEINSTALL_SOURCE_PROFILE,
        SEINSTALL_SOURCE_BOOT,
        SEINSTALL_SOURCE_HOST,    /* the installer's own system (policy only) */
        SEINSTALL_SOURCE_BUILTIN, /* seinstall's built-in table (policy only) */
};

/* "enforcing", "permissive", "disabled" (case-insensitive) or SEINSTALL_MODE_INVALID. */
SEINSTALL_EXPORT enum seinstall_mode seinstall_mode_from_string(const char *s);
/* Static lower-case name, or NULL for an invalid mode. */
SEINSTALL_EXPORT const char *seinstall_mode_to_string(enum seinstall_mode mode);
/* Static name: "default", "target", "profile", "boot", "host", "builtin". */
SEINSTALL_EXPORT const char *seinstall_source_to_string(enum seinstall_source source);

/* ===== Settings: what was chosen, and by whom ============================================= */
/* (owned by settings.c; loading from profiles, boot options and the target: profile.c,
 * bootopts.c, config.c)
 *
 * The choices an install is made of, each with the source that decided it. A new object holds
 * the built-in defaults: mode enforcing, policy type unset (meaning "the target's, else
 * default"), unsupported filesystems refused. A setter only overrides a value when its source
 * ranks at least as high as the current one (boot > profile > target > default), so sources
 * can be applied in any order. */

struct seinstall_settings;

/* Returns 0 and a new settings object holding the defaults in *ret, or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_settings_new(struct seinstall_settings **ret);
SEINSTALL_EXPORT struct seinstall_settings *seinstall_settings_ref(struct seinstall_settings *s);
SEINSTALL_EXPORT struct seinstall_settings *seinstall_settings_unref(struct seinstall_settings *s);

/* Set the mode. Returns 1 when it took effect, 0 when a higher-ranked source already decided,
 * -EINVAL for an invalid mode or source. */
SEINSTALL_EXPORT int seinstall_settings_set_mode(struct seinstall_settings *s,
                                                 enum seinstall_mode mode,
                                                 enum seinstall_source source);
SEINSTALL_EXPORT enum seinstall_mode
seinstall_settings_get_mode(const struct seinstall_settings *s, enum seinstall_source *ret_source);

/* Policy type ("default", "mls", ...: a directory name under /etc/selinux). A type with "/" or
 * that is empty, ".", ".." is -EINVAL. Same return convention as set_mode(). */
SEINSTALL_EXPORT int seinstall_settings_set_policy(struct seinstall_settings *s, const char *type,
                                                   enum seinstall_source source);
/* The policy type, or NULL when no source set one. Owned by @s. */
SEINSTALL_EXPORT const char *seinstall_settings_get_policy(const struct seinstall_settings *s,
                                                           enum seinstall_source *ret_source);

/* Whether a mount that cannot carry labels where it must is refused (false, the default) or
 * only warned about, with the mode lowered to permissive (true: seinstall.unsupported=warn). */
SEINSTALL_EXPORT int seinstall_settings_set_unsupported_warn(struct seinstall_settings *s,
                                                             bool warn,
                                                             enum seinstall_source source);
SEINSTALL_EXPORT bool seinstall_settings_get_unsupported_warn(const struct seinstall_settings *s,
                                                              enum seinstall_source *ret_source);

/* ===== check: can the chosen filesystems carry SELinux labels? ============================ */
/* (owned by fscheck.c, policy.c, plan.c, mounts.c) */

/* How a filesystem is labeled under the target's policy (DESIGN.md "labeling"). */
enum seinstall_labeling {
        SEINSTALL_LABELING_XATTR = 0,     /* per-file labels kept on disk */
        SEINSTALL_LABELING_TRANS,         /* computed at creation, kept in memory (tmpfs) */
        SEINSTALL_LABELING_GENFS,         /* one label for every file, from the policy */
        SEINSTALL_LABELING_MOUNT_CONTEXT, /* one label, from a context= mount option */
        SEINSTALL_LABELING_NONE,          /* cannot be labeled at all */
};

enum seinstall_verdict {
        SEINSTALL_VERDICT_OK = 0,
        SEINSTALL_VERDICT_NOTE,
        SEINSTALL_VERDICT_WARN,
        SEINSTALL_VERDICT_REFUSE,
};

/* "xattr", "trans", "genfs", "mount-context", "none"; "ok", "note", "warn", "refuse". */
SEINSTALL_EXPORT const char *seinstall_labeling_to_string(enum seinstall_labeling l);
SEINSTALL_EXPORT const char *seinstall_verdict_to_string(enum seinstall_verdict v);

/* The result of a check: one entry per mount, each with its labeling class, the one label
 * where there is one, a verdict, and a reason and fix a person can act on. */
struct seinstall_check;

/* Check the target of @ctx: the mounts at and below its root (each probed live: can the kernel
 * store security.selinux there?), or, when @plan_file is not NULL, the planned layout in that
 * fstab-format file (type "auto" or none: probed with libblkid). The mode, policy type and
 * seinstall.unsupported come from @settings (NULL: defaults), else the target's
 * /etc/selinux/config; the policy is the target's newest policy.N of that type, else this
 * system's, else a built-in table. Returns 0 and a new check in *ret (whatever its verdict);
 * -EBADMSG for a malformed plan line, -ENOENT for a missing plan/device/policy type, -EINVAL
 * for a device without a known filesystem, other -errno when the system failed. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_check_run(struct seinstall_ctx *ctx,
                                                       const struct seinstall_settings *settings,
                                                       const char *plan_file,
                                                       struct seinstall_check **ret);
SEINSTALL_EXPORT struct seinstall_check *seinstall_check_ref(struct seinstall_check *c);
/* Drop a reference; frees the check with the last one. Accepts NULL. Returns NULL. */
SEINSTALL_EXPORT struct seinstall_check *seinstall_check_unref(struct seinstall_check *c);

/* The worst verdict over all mounts (ok < note < warn < refuse). */
SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_get_verdict(const struct seinstall_check *c);
/* The mode the install should use and the source that decided it. When seinstall.unsupported
 * =warn turned refusals into warnings, this is permissive (lowered; see get_mode_lowered()),
 * with the source of the unsupported setting. */
SEINSTALL_EXPORT enum seinstall_mode seinstall_check_get_mode(const struct seinstall_check *c,
                                                              enum seinstall_source *ret_source);
/* The mode asked for before any lowering. */
SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_get_requested_mode(const struct seinstall_check *c);
/* True when the mode was lowered to permissive because of seinstall.unsupported=warn. */
SEINSTALL_EXPORT bool seinstall_check_get_mode_lowered(const struct seinstall_check *c);
/* The policy type used, and where the policy was read: SEINSTALL_SOURCE_TARGET, _HOST or
 * _BUILTIN. Owned by @c. */
SEINSTALL_EXPORT const char *seinstall_check_get_policy(const struct seinstall_check *c,
                                                        enum seinstall_source *ret_source);
/* Who chose the policy type: boot, profile, target (its config) or default. */
SEINSTALL_EXPORT enum seinstall_source
seinstall_check_get_policy_type_source(const struct seinstall_check *c);
/* The binary policy file read (a path on this system), NULL for the built-in table. */
SEINSTALL_EXPORT const char *seinstall_check_get_policy_file(const struct seinstall_check *c);

/* Number of mounts; index @i of the calls below runs from 0 to this minus 1, the target's "/"
 * first for a mounted target, plan order for a plan. */
SEINSTALL_EXPORT size_t seinstall_check_get_n_mounts(const struct seinstall_check *c);
/* Per mount, strings owned by @c; NULL for @i out of range. Mount point as seen in the target
 * ("/boot/efi"); source device or image (may be NULL for pseudo filesystems); filesystem type;
 * the one label of a genfs / mount-context / none mount (NULL for xattr and trans); reason;
 * fix ("" when there is nothing to do). */
SEINSTALL_EXPORT const char *seinstall_check_mount_mountpoint(const struct seinstall_check *c,
                                                              size_t i);
SEINSTALL_EXPORT const char *seinstall_check_mount_source(const struct seinstall_check *c,
                                                          size_t i);
SEINSTALL_EXPORT const char *seinstall_check_mount_fstype(const struct seinstall_check *c,
                                                          size_t i);
SEINSTALL_EXPORT const char *seinstall_check_mount_label(const struct seinstall_check *c, size_t i);
SEINSTALL_EXPORT const char *seinstall_check_mount_reason(const struct seinstall_check *c,
                                                          size_t i);
SEINSTALL_EXPORT const char *seinstall_check_mount_fix(const struct seinstall_check *c, size_t i);
/* Labeling class and verdict of a mount; SEINSTALL_LABELING_NONE / SEINSTALL_VERDICT_REFUSE
 * for @i out of range. */
SEINSTALL_EXPORT enum seinstall_labeling
seinstall_check_mount_labeling(const struct seinstall_check *c, size_t i);
SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_mount_verdict(const struct seinstall_check *c, size_t i);

/* The check as one JSON document (DESIGN.md's shape, with extra keys), newly allocated in
 * *ret; free() it. Returns 0 or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_check_to_json(const struct seinstall_check *c,
                                                           char **ret);

/* ===== relabel ============================================================================ */
/* (owned by fcontext.c, relabel.c) */

/* ===== policy, config, boot loader, profiles, install ===================================== */
/* (owned by policy.c, config.c, bootcmd.c, profile.c, bootopts.c, install.c) */

/* ===== first boot ========================================================================= */
/* (owned by firstboot model in the library where shared with the installer) */

#ifdef __cplusplus
}
#endif

#endif
