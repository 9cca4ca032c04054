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

/* ===== check: can the chosen filesystems carry SELinux labels? ============================ */
/* (owned by fscheck.c, policy.c, plan.c, mounts.c) */

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
