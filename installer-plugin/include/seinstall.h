/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seinstall.h — the public C API of libseinstall, the plugin ABI installers link or dlopen.
 *
 * What it holds is what an installer needs to put SELinux on the system it installs, and no
 * more: a context on the target with its log and last error; the settings the installer decides
 * (set and read back); the check of the planned or mounted layout; the install, and each stage
 * it runs (policy, relabel with its options, verify, apply) for an installer that runs them
 * itself; every getter and the JSON of those results; the names of the values these calls take
 * and return; and the version. What only the seinstall commands do, on the installed system
 * (status, avc, trial, the first-boot screen) or to read their input files (a kickstart
 * profile, boot options, the target's config), is not part of the ABI: an installer reaches it
 * by running the command and reading its JSON (seinstall(8), JSON OUTPUT).
 *
 * Conventions (as libmount/libkmod):
 *  - every call that can fail returns 0 (or a positive count) on success and a negative errno on
 *    failure; output parameters are called ret_* and are left untouched on failure, but for
 *    one kind: the result of a walk (seinstall_relabel(), seinstall_verify()) is set whenever
 *    the walk started, also on failure, so that what it did can be told;
 *  - objects are opaque and reference counted: *_ref() and *_unref() (each accepts NULL;
 *    unref returns NULL and frees with the last reference); what a stage returns is a struct
 *    seinstall_STAGE_result;
 *  - a stage takes the context, the settings where it uses them, an options object with
 *    setters (seinstall_check_options, seinstall_relabel_options, seinstall_apply_options;
 *    NULL: the defaults) and returns its result: a new option is a new setter, not a new
 *    signature;
 *    a field of a list item is read by its own getter or an enum, never a string key;
 *  - a list inside an object is read as seinstall_OBJ_get_n_ITEMS() and, for index 0 up to
 *    that minus 1, seinstall_OBJ_get_ITEM[_FIELD](obj, i), which returns NULL (or the type's
 *    "none" value) beyond the end;
 *  - flags are named enums (enum seinstall_*_flags) or-ed into an unsigned (an argument, or
 *    for apply its options' set_flags());
 *  - an object a command prints as JSON has seinstall_OBJ_to_json(): the library produces the
 *    document, front ends only print it (the seinstall command adds its "schema" and
 *    "warnings" keys); a string member that is not valid UTF-8 shows each bad byte as U+FFFD
 *    and is followed by KEY_hex, its exact bytes in hexadecimal;
 *  - the library never prints and never exits: the reason of the last failure is kept in the
 *    context (seinstall_last_error()) and handed to the log callback the caller sets;
 *  - every operation works on a target root given to seinstall_new() ("/" for the running
 *    system), and never writes outside it;
 *  - threads: a context, and every object made with it or returned for it, is used by one
 *    thread at a time (the library locks none of them); distinct contexts may work at the same
 *    time in distinct threads, as the library keeps no state of its own outside its objects.
 *    The log and progress callbacks run in the thread that made the call. seinstall_relabel()
 *    and seinstall_verify() walk with threads of their own, all joined before they return;
 *  - processes: a call that runs a program (the sandbox's, the policy build, the boot loader's
 *    regeneration) waits for that child alone, never for another child of the caller, and
 *    returns after it has ended; no call changes the calling process's signal handlers or
 *    mask. A child the caller makes with fork() uses no object it inherited, but to unref it;
 *    it makes a context of its own.
 *
 * Error codes: a negative errno where the errno says what happened, else the negative of one
 * of seinstall's own codes (enum seinstall_error, from 5000 as libmount's MNT_ERR_*: above
 * every errno); seinstall_strerror() and seinstall_error_name() read both kinds. The front ends
 * map them to exit status: -EINVAL (bad argument), -EBADMSG (malformed input file; the message
 * names file and line) and -ENOENT for a missing input are "bad input" (exit 2); anything else
 * is "the system failed us" (exit 3).
 */
#ifndef SEINSTALL_H
#define SEINSTALL_H

#include <stdbool.h>
#include <stddef.h>

#include <seinstall-version.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEINSTALL_EXPORT __attribute__((visibility("default")))
#define SEINSTALL_WUR    __attribute__((warn_unused_result))

/* The objects, each described in its section below. */
struct seinstall_ctx;
struct seinstall_settings;
struct seinstall_check_result;
struct seinstall_relabel_options;
struct seinstall_relabel_result;
struct seinstall_verify_result;
struct seinstall_apply_result;
struct seinstall_install_result;

/* ===== Errors ============================================================================= */

/* seinstall's own error codes, returned negated (-SEINSTALL_ERROR_INCOMPLETE) where an errno
 * would say that something else happened. The message of the context's last error says more. */
enum seinstall_error {
        /* The running system's SELinux policy refused a label of the target's (the kernel's
         * EINVAL for a context it does not know): the target is right, the installer's system
         * is not; run it with SELinux permissive or disabled. */
        SEINSTALL_ERROR_LABEL_REFUSED = 5000,
        /* The walk ran to its end, but some entries could not be labeled, read or fixed: the
         * result's counts and first errors say which. */
        SEINSTALL_ERROR_INCOMPLETE,
        /* A program seinstall ran for the target (its boot loader's regeneration, the policy
         * build) failed: exit status or signal in the message. */
        SEINSTALL_ERROR_PROGRAM_FAILED,
        /* A program of the target could not be confined as seinstall requires (the sandbox or
         * the policy build's namespace could not be set up): nothing ran. */
        SEINSTALL_ERROR_NOT_CONFINED,
};
/* What the error @err (negative or positive, an errno or one of seinstall's) says, in English:
 * strerror()'s words for an errno, seinstall's for its own. Never NULL; not to be freed. */
SEINSTALL_EXPORT const char *seinstall_strerror(int err);
/* The name of @err (negative or positive): "ENOENT" for an errno, "SEINSTALL_ERROR_INCOMPLETE"
 * for one of seinstall's; NULL for a code that is neither, or 0. Not to be freed. */
SEINSTALL_EXPORT const char *seinstall_error_name(int err);

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
 * directory; it is opened once and every later path is resolved inside it. An empty @root is
 * refused (-EINVAL): taken as "/" it would change the running system.
 * Returns 0 and a new reference in *ret_ctx, -ENOENT/-ENOTDIR for a bad root, -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_new(const char *root, struct seinstall_ctx **ret_ctx);
/* Take another reference to @ctx (NULL is passed through). Returns @ctx. */
SEINSTALL_EXPORT struct seinstall_ctx *seinstall_ref(struct seinstall_ctx *ctx);
/* Drop a reference; frees the context with the last one. Accepts NULL. Returns NULL. */
SEINSTALL_EXPORT struct seinstall_ctx *seinstall_unref(struct seinstall_ctx *ctx);

/* The target root as given (normalised, no trailing slash except for "/"). Owned by @ctx. */
SEINSTALL_EXPORT const char *seinstall_get_root(const struct seinstall_ctx *ctx);

/* Messages go to @fn (NULL, the default: nowhere), called with @userdata in the thread that
 * made the call, when their priority is at most the context's maximum. The message is owned by
 * the library and valid only during the call. */
SEINSTALL_EXPORT void seinstall_set_log_fn(struct seinstall_ctx *ctx, seinstall_log_fn fn,
                                           void *userdata);
/* The highest priority passed to the log function: SEINSTALL_LOG_ERR .. SEINSTALL_LOG_DEBUG
 * (default SEINSTALL_LOG_INFO); other values are ignored. */
SEINSTALL_EXPORT void seinstall_set_log_priority(struct seinstall_ctx *ctx, int max_priority);

/* Whether the messages the library composes from now on (the log, the last error, a check's
 * reasons and fixes, an apply's changes and to-dos) are in the language of the process's
 * LC_MESSAGES locale, as the program's setlocale() chose it, from the "libseinstall" catalogs
 * (false, the default: in English, as a program that parses them and the JSON documents want). */
SEINSTALL_EXPORT void seinstall_set_translate(struct seinstall_ctx *ctx, bool translate);

/* The message of the last failure reported through @ctx, or NULL. Owned by @ctx, valid until
 * the next call that fails. */
SEINSTALL_EXPORT const char *seinstall_last_error(const struct seinstall_ctx *ctx);
/* When the last failure's message ends with a command for a person to run, that command (quoted
 * for the shell, naming the same root; seinstall(8), QUOTING), else NULL: a front end can print
 * the message's text escaped and the command exactly. Owned by @ctx, valid as
 * seinstall_last_error(). */
SEINSTALL_EXPORT const char *seinstall_last_error_command(const struct seinstall_ctx *ctx);

/* ===== Modes and where a decision came from ============================================== */

enum seinstall_mode {
        SEINSTALL_MODE_INVALID = -1,
        SEINSTALL_MODE_ENFORCING = 0,
        SEINSTALL_MODE_PERMISSIVE,
        SEINSTALL_MODE_DISABLED,
        /* Permissive until a clean boot, then enforcing (seinstall(8), TRIAL MODE): a value of
         * the mode setting, ranked and replaced as the others; a check judges it as enforcing,
         * the mode it aims at. Never a value of SELINUX= (`seinstall status` reads it as no mode).
         */
        SEINSTALL_MODE_TRIAL,
};

enum seinstall_source {
        SEINSTALL_SOURCE_DEFAULT = 0,
        SEINSTALL_SOURCE_TARGET,
        SEINSTALL_SOURCE_PROFILE,
        SEINSTALL_SOURCE_BOOT,
        SEINSTALL_SOURCE_HOST,    /* the installer's own system (policy only) */
        SEINSTALL_SOURCE_BUILTIN, /* seinstall's built-in table (policy only) */
        SEINSTALL_SOURCE_OPTION,  /* an option given to the program itself (--mode) */
};

/* "enforcing", "permissive", "disabled" (case-insensitive), "trial" (exact) or
 * SEINSTALL_MODE_INVALID. */
SEINSTALL_EXPORT enum seinstall_mode seinstall_mode_from_string(const char *s);
/* Static lower-case name, or NULL for an invalid mode. */
SEINSTALL_EXPORT const char *seinstall_mode_to_string(enum seinstall_mode mode);
/* Static name: "default", "target", "profile", "boot", "host", "builtin", "option". */
SEINSTALL_EXPORT const char *seinstall_source_to_string(enum seinstall_source source);

/* ===== Settings: what was chosen, and by whom ============================================= */
/* The choices an install is made of, each with the source that decided it. A new object holds
 * the built-in defaults: mode enforcing, policy type unset (meaning "the target's, else
 * default"), unsupported filesystems refused. A setter only overrides a value when its source
 * ranks at least as high as the current one (option > boot > profile > target > default), so
 * sources can be applied in any order. */

struct seinstall_settings;

/* Returns 0 and a new settings object holding the defaults in *ret, or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_settings_new(struct seinstall_settings **ret);
/* Take another reference (returns @s), or drop one: unref frees the object with the last one,
 * accepts NULL and returns NULL. */
SEINSTALL_EXPORT struct seinstall_settings *seinstall_settings_ref(struct seinstall_settings *s);
SEINSTALL_EXPORT struct seinstall_settings *seinstall_settings_unref(struct seinstall_settings *s);

/* Set the mode. Returns 1 when it took effect, 0 when a higher-ranked source already decided,
 * -EINVAL for an invalid mode or source. */
SEINSTALL_EXPORT int seinstall_settings_set_mode(struct seinstall_settings *s,
                                                 enum seinstall_mode mode,
                                                 enum seinstall_source source);
/* The mode (SEINSTALL_MODE_INVALID for a NULL @s); its source goes to *ret_source when that is
 * not NULL. */
SEINSTALL_EXPORT enum seinstall_mode seinstall_settings_get_mode(const struct seinstall_settings *s,
                                                                 enum seinstall_source *ret_source);

/* Policy type ("default", "mls", ...: a directory name under /etc/selinux). A type with "/" or
 * that is empty, ".", ".." is -EINVAL. Same return convention as set_mode(). */
SEINSTALL_EXPORT int seinstall_settings_set_policy(struct seinstall_settings *s, const char *type,
                                                   enum seinstall_source source);
/* The policy type, or NULL when no source set one. Owned by @s. */
SEINSTALL_EXPORT const char *seinstall_settings_get_policy(const struct seinstall_settings *s,
                                                           enum seinstall_source *ret_source);

/* Whether a mount that cannot carry labels where it must is refused (false, the default) or
 * only warned about, with the mode lowered to permissive (true: seinstall.unsupported=warn).
 * Set: same return convention as set_mode(). Get: the value, its source in *ret_source (may
 * be NULL); false for a NULL @s. */
SEINSTALL_EXPORT int seinstall_settings_set_unsupported_warn(struct seinstall_settings *s,
                                                             bool warn,
                                                             enum seinstall_source source);
SEINSTALL_EXPORT bool seinstall_settings_get_unsupported_warn(const struct seinstall_settings *s,
                                                              enum seinstall_source *ret_source);

/* When an install labels the target: during the install (default), or at first boot through
 * /.autorelabel. Chosen by a profile's `%addon org_seinstall --relabel=install|firstboot`. */
enum seinstall_relabel_when {
        SEINSTALL_RELABEL_WHEN_INVALID = -1,
        SEINSTALL_RELABEL_WHEN_INSTALL = 0,
        SEINSTALL_RELABEL_WHEN_FIRSTBOOT,
};
/* "install", "firstboot"; from_string is exact. */
SEINSTALL_EXPORT const char *seinstall_relabel_when_to_string(enum seinstall_relabel_when r);
SEINSTALL_EXPORT enum seinstall_relabel_when seinstall_relabel_when_from_string(const char *s);
/* Same convention as seinstall_settings_set_mode(); the default is "install". */
SEINSTALL_EXPORT int seinstall_settings_set_relabel_when(struct seinstall_settings *s,
                                                         enum seinstall_relabel_when when,
                                                         enum seinstall_source source);
/* The choice, its source in *ret_source (may be NULL). */
SEINSTALL_EXPORT enum seinstall_relabel_when
seinstall_settings_get_relabel_when(const struct seinstall_settings *s,
                                    enum seinstall_source *ret_source);

/* ===== check: can the chosen filesystems carry SELinux labels? ============================ */

/* How a filesystem is labeled under the target's policy (seinstall(8), check). */
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
struct seinstall_check_result;

/* How a check runs: an options object, reference counted (seinstall_check_options_ref(),
 * _unref(): each accepts NULL; unref returns NULL). A new object holds the defaults (check the
 * mounts); NULL options mean the defaults too. Returns 0, -ENOMEM, or -EINVAL for NULL @ret. */
struct seinstall_check_options;
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_check_options_new(struct seinstall_check_options **ret);
SEINSTALL_EXPORT struct seinstall_check_options *
seinstall_check_options_ref(struct seinstall_check_options *o);
SEINSTALL_EXPORT struct seinstall_check_options *
seinstall_check_options_unref(struct seinstall_check_options *o);
/* Check the planned layout in the fstab-format file @path (its devices' filesystems of type
 * "auto" or none probed with libblkid) instead of the mounts; NULL, the default: the mounts.
 * Returns 0, -ENOMEM, or -EINVAL for "". */
SEINSTALL_EXPORT int seinstall_check_options_set_plan_file(struct seinstall_check_options *o,
                                                           const char *path);

/* Check the target of @ctx with @options (NULL: defaults): the mounts at and below its root
 * (each probed live: can the kernel store security.selinux there?), or the planned layout the
 * options name. The mode, policy type and seinstall.unsupported come from @settings (NULL:
 * defaults), else the target's /etc/selinux/config; the policy is the target's newest policy.N
 * of that type, else this system's, else a built-in table. Returns 0 and a new check in *ret
 * (whatever its verdict); -EBADMSG for a malformed plan line, -ENOENT for a missing plan or
 * device, -EINVAL for a device without a known filesystem, -ENOPKG when no policy of the type
 * exists anywhere, other -errno when the system failed. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_check_run(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                    const struct seinstall_check_options *options,
                    struct seinstall_check_result **ret);
/* Take another reference (returns @c), or drop one: unref frees the check with the last one,
 * accepts NULL and returns NULL. */
SEINSTALL_EXPORT struct seinstall_check_result *
seinstall_check_result_ref(struct seinstall_check_result *c);
SEINSTALL_EXPORT struct seinstall_check_result *
seinstall_check_result_unref(struct seinstall_check_result *c);

/* The worst verdict over all mounts (ok < note < warn < refuse). */
SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_result_get_verdict(const struct seinstall_check_result *c);
/* The mode the install should use and the source that decided it. When seinstall.unsupported
 * =warn turned refusals into warnings, this is permissive (lowered; see get_mode_lowered()),
 * with the source of the unsupported setting. */
SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_result_get_mode(const struct seinstall_check_result *c,
                                enum seinstall_source *ret_source);
/* The mode asked for before any lowering. */
SEINSTALL_EXPORT enum seinstall_mode
seinstall_check_result_get_requested_mode(const struct seinstall_check_result *c);
/* True when the mode was lowered to permissive because of seinstall.unsupported=warn. */
SEINSTALL_EXPORT bool
seinstall_check_result_get_mode_lowered(const struct seinstall_check_result *c);
/* The policy type used, and where the policy was read: SEINSTALL_SOURCE_TARGET, _HOST or
 * _BUILTIN. Owned by @c. */
SEINSTALL_EXPORT const char *
seinstall_check_result_get_policy(const struct seinstall_check_result *c,
                                  enum seinstall_source *ret_source);
/* Who chose the policy type: boot, profile, target (its config) or default. */
SEINSTALL_EXPORT enum seinstall_source
seinstall_check_result_get_policy_type_source(const struct seinstall_check_result *c);
/* The binary policy file read (a path on this system), NULL for the built-in table. */
SEINSTALL_EXPORT const char *
seinstall_check_result_get_policy_file(const struct seinstall_check_result *c);

/* Number of mounts; index @i of the calls below runs from 0 to this minus 1, the target's "/"
 * first for a mounted target, plan order for a plan. */
SEINSTALL_EXPORT size_t seinstall_check_result_get_n_mounts(const struct seinstall_check_result *c);
/* Per mount, strings owned by @c; NULL for @i out of range. Mount point as seen in the target
 * ("/boot/efi"); source device or image (may be NULL for pseudo filesystems); filesystem type;
 * the one label of a genfs / mount-context / none mount (NULL for xattr and trans); reason;
 * fix ("" when there is nothing to do). */
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_mountpoint(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_source(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_fstype(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_label(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_reason(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT const char *
seinstall_check_result_get_mount_fix(const struct seinstall_check_result *c, size_t i);
/* Labeling class and verdict of a mount; SEINSTALL_LABELING_NONE / SEINSTALL_VERDICT_REFUSE
 * for @i out of range. */
SEINSTALL_EXPORT enum seinstall_labeling
seinstall_check_result_get_mount_labeling(const struct seinstall_check_result *c, size_t i);
SEINSTALL_EXPORT enum seinstall_verdict
seinstall_check_result_get_mount_verdict(const struct seinstall_check_result *c, size_t i);

/* The check as one JSON document (seinstall(8), JSON OUTPUT; extra keys), newly allocated in
 * *ret; free() it. Returns 0 or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_check_result_to_json(const struct seinstall_check_result *c, char **ret);

/* ===== relabel ============================================================================ */
/* Give every file of the target the label its policy's file contexts assign, as
 * `setfiles -F -r ROOT FILE_CONTEXTS ROOT` would (full contexts, user and role included), on
 * every mount below the root that keeps per-file labels; other mounts are skipped and listed. */

struct seinstall_relabel_result;

/* Flags of seinstall_relabel(), or-ed into its unsigned @flags. */
enum seinstall_relabel_flags {
        SEINSTALL_RELABEL_DRY_RUN = 1 << 0,   /* count what would change, write nothing */
        SEINSTALL_RELABEL_NO_VERIFY = 1 << 1, /* skip the check of boot-critical files */
        /* After the walk, label what the mounts on the root's filesystem hide: the mount-point
         * directories (/dev, /proc, /boot/efi) and what lies below them on that filesystem
         * (device nodes an image put under /dev), through a private bind mount of that one
         * filesystem, under their paths in the tree. Needs CAP_SYS_ADMIN. */
        SEINSTALL_RELABEL_UNDER_MOUNTS = 1 << 2,
};

/* Called about four times a second from the thread that called seinstall_relabel(): entries
 * done so far, the estimated total (used inodes of the labeled filesystems; may be exceeded)
 * and seconds since the start. */
typedef void (*seinstall_relabel_progress_fn)(void *userdata, unsigned long long done,
                                              unsigned long long estimated_total,
                                              double elapsed_seconds);

/* How a relabel, a verify or an install walks: an options object, reference counted
 * (seinstall_relabel_options_ref(), _unref(): each accepts NULL; unref returns NULL). A new object
 * holds the defaults; NULL options mean the defaults too. Returns 0 or -ENOMEM (-EINVAL for NULL
 * @ret). */
struct seinstall_relabel_options;
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_relabel_options_new(struct seinstall_relabel_options **ret);
SEINSTALL_EXPORT struct seinstall_relabel_options *
seinstall_relabel_options_ref(struct seinstall_relabel_options *o);
SEINSTALL_EXPORT struct seinstall_relabel_options *
seinstall_relabel_options_unref(struct seinstall_relabel_options *o);
/* The policy type under the target's /etc/selinux (NULL, the default: the target's
 * SELINUXTYPE, else "default"); -EINVAL for a type that is no plain directory name. */
SEINSTALL_EXPORT int seinstall_relabel_options_set_policy(struct seinstall_relabel_options *o,
                                                          const char *type);
/* A file_contexts path on the host to use instead of the target's (its .homedirs, .local,
 * .subs and .subs_dist next to it); NULL, the default: the target's. -EINVAL for "". */
SEINSTALL_EXPORT int
seinstall_relabel_options_set_file_contexts(struct seinstall_relabel_options *o, const char *path);
/* Walking threads; 0, the default: one per online CPU. */
SEINSTALL_EXPORT int seinstall_relabel_options_set_threads(struct seinstall_relabel_options *o,
                                                           unsigned threads);
/* Call @fn with @userdata about four times a second (NULL, the default: never). */
SEINSTALL_EXPORT int seinstall_relabel_options_set_progress(struct seinstall_relabel_options *o,
                                                            seinstall_relabel_progress_fn fn,
                                                            void *userdata);

/* Relabel the target of @ctx with @options (NULL: defaults) and @flags (SEINSTALL_RELABEL_*).
 * Returns 0 when every entry got its label and the boot-critical files verified; -EBADMSG/
 * -ENOENT/-EINVAL for bad file contexts, policy or arguments; -SEINSTALL_ERROR_LABEL_REFUSED
 * when the running system refuses the target's contexts (its own policy does not know them:
 * the message says what to do); -SEINSTALL_ERROR_INCOMPLETE when some entries could not be
 * labeled or verified; -ENOMEM. Unlike other calls,
 * *ret_result (if not NULL) is set whenever the walk started, also on failure, so the caller
 * can show what happened; the caller unrefs it. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_relabel(struct seinstall_ctx *ctx, const struct seinstall_relabel_options *options,
                  unsigned flags, struct seinstall_relabel_result **ret_result);

/* Take and drop a reference to a result; unref frees it with the last one, accepts NULL and
 * returns NULL. */
SEINSTALL_EXPORT struct seinstall_relabel_result *
seinstall_relabel_result_ref(struct seinstall_relabel_result *r);
SEINSTALL_EXPORT struct seinstall_relabel_result *
seinstall_relabel_result_unref(struct seinstall_relabel_result *r);

enum seinstall_relabel_count {
        SEINSTALL_RELABEL_COUNT_SEEN = 0,   /* entries walked on labeled mounts */
        SEINSTALL_RELABEL_COUNT_CHANGED,    /* labels written (or that would be, with DRY_RUN) */
        SEINSTALL_RELABEL_COUNT_UNCHANGED,  /* already right */
        SEINSTALL_RELABEL_COUNT_NO_CONTEXT, /* no spec, or <<none>>: left as they are */
        SEINSTALL_RELABEL_COUNT_ERRORS,     /* entries that could not be read or labeled */
};
/* One of the counts above (0 for a NULL result or an unknown count). */
SEINSTALL_EXPORT unsigned long long
seinstall_relabel_result_get_count(const struct seinstall_relabel_result *r,
                                   enum seinstall_relabel_count which);
/* Mounts below the root that were not labeled: mount point (inside the target), filesystem
 * type and reason. Strings owned by @r; NULL beyond the last index. */
SEINSTALL_EXPORT size_t
seinstall_relabel_result_get_n_skipped(const struct seinstall_relabel_result *r);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_skipped_mountpoint(const struct seinstall_relabel_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_skipped_fstype(const struct seinstall_relabel_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_skipped_reason(const struct seinstall_relabel_result *r, size_t i);
/* The first error messages (at most 100; the count above has them all). Owned by @r. */
SEINSTALL_EXPORT size_t
seinstall_relabel_result_get_n_errors(const struct seinstall_relabel_result *r);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_error(const struct seinstall_relabel_result *r, size_t i);
/* Boot-critical files checked after labeling: path, label found (NULL: none), label expected.
 * Owned by @r; NULL beyond the last index. */
SEINSTALL_EXPORT size_t
seinstall_relabel_result_get_n_verified(const struct seinstall_relabel_result *r);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_verified_path(const struct seinstall_relabel_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_verified_actual(const struct seinstall_relabel_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_relabel_result_get_verified_expected(const struct seinstall_relabel_result *r, size_t i);
/* Whether the pass of SEINSTALL_RELABEL_UNDER_MOUNTS ran (1) or not (0; -EINVAL for NULL),
 * and, each may be NULL, the mount points it walked below, the entries it visited and the
 * labels it changed (these are counted in the totals too). */
SEINSTALL_EXPORT int
seinstall_relabel_result_get_under_mounts(const struct seinstall_relabel_result *r,
                                          size_t *ret_mountpoints, unsigned long long *ret_entries,
                                          unsigned long long *ret_changed);
/* The whole result as one JSON object (the `relabel --json` document). Returns 0 and a string
 * the caller frees, or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_relabel_result_to_json(const struct seinstall_relabel_result *r, char **ret_json);

/* ===== verify ============================================================================= */
/* Compare every file's label with what the target policy's file contexts give it, walking as
 * a relabel does (the same mounts, the same -F semantics) but writing nothing; with
 * SEINSTALL_VERIFY_FIX the labels that differ, and only those, are written. Files written after
 * the relabel (package scripts, a boot loader install) are what it finds. */

struct seinstall_verify_result;

enum seinstall_verify_flags {
        SEINSTALL_VERIFY_FIX = 1 << 0, /* write the expected label on each mismatch */
        /* every mismatch is an example (and every directory is listed), not the three of each
         * directory whose paths sort first */
        SEINSTALL_VERIFY_ALL = 1 << 1,
};

/* Verify the target of @ctx with @options (NULL: defaults; as for seinstall_relabel()) and
 * @flags (SEINSTALL_VERIFY_*). With FIX, the labels that differed are written, then the same
 * entries verified again, writing nothing. Returns 0 when every label matched (with FIX: when
 * the verify after the fix found none different), 1 when labels differ (with FIX: some still
 * did after it; SEINSTALL_VERIFY_COUNT_REMAINING counts them, their examples are not "fixed"),
 * or a negative error code as seinstall_relabel() (-SEINSTALL_ERROR_INCOMPLETE when some
 * entries could not be read or fixed). *ret_result (if
 * not NULL) is set whenever the walk started, also on failure; the caller unrefs it. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_verify(struct seinstall_ctx *ctx,
                                                    const struct seinstall_relabel_options *options,
                                                    unsigned flags,
                                                    struct seinstall_verify_result **ret_result);
/* Take and drop a reference to a result; unref frees it with the last one, accepts NULL and
 * returns NULL. */
SEINSTALL_EXPORT struct seinstall_verify_result *
seinstall_verify_result_ref(struct seinstall_verify_result *r);
SEINSTALL_EXPORT struct seinstall_verify_result *
seinstall_verify_result_unref(struct seinstall_verify_result *r);

enum seinstall_verify_count {
        SEINSTALL_VERIFY_COUNT_CHECKED = 0, /* entries walked on labeled mounts */
        SEINSTALL_VERIFY_COUNT_MISMATCHED,  /* labels that differed from the file contexts' */
        SEINSTALL_VERIFY_COUNT_FIXED,       /* of those, written (FIX) */
        SEINSTALL_VERIFY_COUNT_NO_CONTEXT,  /* no spec, or <<none>>: not compared */
        SEINSTALL_VERIFY_COUNT_ERRORS,      /* entries that could not be read or fixed */
        SEINSTALL_VERIFY_COUNT_UNLISTED,    /* mismatches in directories beyond the 10000 listed */
        /* labels still different: with FIX, what a verify run after the fix (writing nothing)
         * found, whether written or not; else the mismatches */
        SEINSTALL_VERIFY_COUNT_REMAINING,
};
/* One of the counts above (0 for a NULL result or an unknown count). */
SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_count(const struct seinstall_verify_result *r,
                                  enum seinstall_verify_count which);
/* The mismatches grouped by directory, sorted by path: directory @i, how many of its entries
 * differed and how many were fixed. Strings owned by @r; NULL (0) beyond the last index. */
SEINSTALL_EXPORT size_t seinstall_verify_result_get_n_dirs(const struct seinstall_verify_result *r);
SEINSTALL_EXPORT const char *
seinstall_verify_result_get_dir_path(const struct seinstall_verify_result *r, size_t i);
SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_dir_mismatched(const struct seinstall_verify_result *r, size_t i);
SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_dir_fixed(const struct seinstall_verify_result *r, size_t i);
/* The first examples of directory @i (at most 3, the paths that sort first): example @k's
 * path, label found (NULL: none), label expected, and whether it was fixed. Owned by @r;
 * NULL (false) beyond the last index. */
SEINSTALL_EXPORT size_t
seinstall_verify_result_get_dir_n_examples(const struct seinstall_verify_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_path(const struct seinstall_verify_result *r, size_t i,
                                         size_t k);
SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_actual(const struct seinstall_verify_result *r, size_t i,
                                           size_t k);
SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_expected(const struct seinstall_verify_result *r, size_t i,
                                             size_t k);
SEINSTALL_EXPORT bool
seinstall_verify_result_get_example_fixed(const struct seinstall_verify_result *r, size_t i,
                                          size_t k);
/* The walk underneath: skipped mounts, error messages, time taken. Owned by @r. */
SEINSTALL_EXPORT const struct seinstall_relabel_result *
seinstall_verify_result_get_relabel(const struct seinstall_verify_result *r);
/* The whole result as one JSON object (the `verify --json` document): "fix", "entries",
 * "mismatches", "fixed", "no_context", "errors", "unlisted", "clean", "directories" (path,
 * mismatches, fixed, examples: path, label, expected, fixed) and "relabel", the walk's own
 * document (root, policy, skipped mounts, error messages). Returns 0 and a string the caller
 * frees, or -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_verify_result_to_json(const struct seinstall_verify_result *r, char **ret_json);

/* ===== configure: SELinux config, kernel command line, relabel, first-boot mark ========== */
/* Files seinstall writes in the target (all inside the root, replaced atomically):
 *  - /etc/selinux/config: SELINUX= and SELINUXTYPE= (exactly one each; comments, order and
 *    other keys kept);
 *  - the boot loader's kernel command line: /etc/default/grub (GRUB_CMDLINE_LINUX, and
 *    /etc/default/grub.d/ *.cfg), Boot Loader Specification entries
 *    (/boot/loader/entries/ *.conf, /efi/..., /boot/efi/..., their `options` lines) and
 *    /etc/kernel/cmdline;
 *  - /.autorelabel containing "-F" (/etc/selinux/.autorelabel when the target's root is
 *    mounted read-only): distributions relabel at the next boot and pass the content to fixfiles;
 *  - the first-boot mark SEINSTALL_FIRSTBOOT_MARK, which seinstall-firstboot looks for. */

/* Path of the first-boot mark inside the target. Its content is "key=value" lines:
 *   mode=enforcing|permissive|disabled   the mode chosen at install time
 *   policy=TYPE                          the policy type
 *   relabel=pending|done                 whether a first-boot relabel was scheduled
 * Unknown keys are to be ignored by readers. The first-boot screen removes it when done. */
#define SEINSTALL_FIRSTBOOT_MARK "/var/lib/seinstall/firstboot"

enum seinstall_bootloader {
        SEINSTALL_BOOTLOADER_INVALID = -1,
        SEINSTALL_BOOTLOADER_AUTO = 0,       /* every form present in the target */
        SEINSTALL_BOOTLOADER_GRUB,           /* /etc/default/grub */
        SEINSTALL_BOOTLOADER_BLS,            /* loader/entries/ *.conf */
        SEINSTALL_BOOTLOADER_KERNEL_CMDLINE, /* /etc/kernel/cmdline */
        SEINSTALL_BOOTLOADER_NONE,           /* leave the kernel command line alone */
};
/* "auto", "grub", "bls", "kernel-cmdline", "none"; from_string is exact (lower case). */
SEINSTALL_EXPORT const char *seinstall_bootloader_to_string(enum seinstall_bootloader b);
SEINSTALL_EXPORT enum seinstall_bootloader seinstall_bootloader_from_string(const char *s);

/* How the target's kernel (its /boot/config-*) turns SELinux on and off (seinstall(8), apply). */
enum seinstall_kernel_case {
        SEINSTALL_KERNEL_CASE_UNKNOWN = 0,     /* no /boot/config-*, or they disagree: do both */
        SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT, /* SELinux is the default LSM: off needs selinux=0 */
        SEINSTALL_KERNEL_CASE_SELINUX_OPTIN,   /* built in, not default: on needs security=selinux
                                                * (or selinux in lsm=), off means removing that */
        SEINSTALL_KERNEL_CASE_NO_SELINUX,      /* CONFIG_SECURITY_SELINUX is not set */
};
/* "unknown", "default", "opt-in", "none". */
SEINSTALL_EXPORT const char *seinstall_kernel_case_to_string(enum seinstall_kernel_case k);

/* Flags of seinstall_apply(), or-ed together for seinstall_apply_options_set_flags(). */
enum seinstall_apply_flags {
        /* Run the distribution's boot loader regeneration (update-grub, grub2-mkconfig, inside
         * the target via chroot when the root is not "/") when the GRUB defaults changed, or
         * grub.cfg's default entry lacks what they say on a SELinux argument, and the command
         * is present. Without it the result's todo list says what to run. */
        SEINSTALL_APPLY_REGENERATE = 1 << 0,
        /* Schedule a first-boot relabel whatever the previous state (the install could not
         * relabel). Without it one is scheduled when SELinux goes from off to on. */
        SEINSTALL_APPLY_RELABEL = 1 << 1,
        /* The tree was just relabeled from the target's file contexts: schedule no relabel. */
        SEINSTALL_APPLY_LABELED = 1 << 2,
        /* Write the first-boot mark (installers set it; the first-boot screen does not). */
        SEINSTALL_APPLY_FIRSTBOOT = 1 << 3,
        /* Change nothing: the result lists the changes the same call without this flag would
         * make (and the boot loader regeneration it would run), from the same code with only
         * the writes skipped. The first-boot screen shows it as its prediction. */
        SEINSTALL_APPLY_DRY_RUN = 1 << 4,
};

struct seinstall_apply_result;

/* How an apply runs: an options object, reference counted (seinstall_apply_options_ref(),
 * _unref(): each accepts NULL; unref returns NULL). A new object holds the defaults: boot
 * loader SEINSTALL_BOOTLOADER_AUTO, no flags; NULL options mean the defaults too. Returns 0,
 * -ENOMEM, or -EINVAL for NULL @ret. */
struct seinstall_apply_options;
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_apply_options_new(struct seinstall_apply_options **ret);
SEINSTALL_EXPORT struct seinstall_apply_options *
seinstall_apply_options_ref(struct seinstall_apply_options *o);
SEINSTALL_EXPORT struct seinstall_apply_options *
seinstall_apply_options_unref(struct seinstall_apply_options *o);
/* Which form of the kernel command line to edit (SEINSTALL_BOOTLOADER_AUTO: every form the
 * target has). Returns 0, or -EINVAL for a value out of the enum. */
SEINSTALL_EXPORT int seinstall_apply_options_set_bootloader(struct seinstall_apply_options *o,
                                                            enum seinstall_bootloader bootloader);
/* The flags (SEINSTALL_APPLY_* or-ed), replacing those set before. Returns 0, or -EINVAL for an
 * unknown flag or SEINSTALL_APPLY_RELABEL with SEINSTALL_APPLY_LABELED. */
SEINSTALL_EXPORT int seinstall_apply_options_set_flags(struct seinstall_apply_options *o,
                                                       unsigned flags);

/* Make the target boot in the mode of @settings with its policy type (unset: the target's
 * SELINUXTYPE, else "default"), as @options say (NULL: defaults): boot loader command line
 * first, relabel scheduling, the first-boot mark, and the config that enables SELinux last
 * (first when it lowers the mode). The other settings are not used. While a relabel is pending
 * the config says permissive, never enforcing: the mark's mode= keeps the choice and applying
 * enforcing again after the relabel completes it. Files already right are not rewritten, so a
 * second call changes nothing. Every file, directory and link it creates or replaces gets the
 * label the target's file contexts of that policy type give it (none when the target has no
 * file contexts), so a labeled target stays labeled. On success *ret_result (may be NULL) gets
 * a new result listing every change. Errors: -EINVAL bad argument, -EBADMSG a file seinstall
 * cannot edit safely (named with its line), -ENOENT an explicitly chosen boot loader's file is
 * missing, -ENOPKG the policy is not built in the target (message names the package),
 * -EOPNOTSUPP enabling on a kernel without SELinux, -SEINSTALL_ERROR_LABEL_REFUSED a label
 * of a written file the running system refuses; with SEINSTALL_APPLY_REGENERATE, -ENOPKG (no
 * bubblewrap) or another error of the sandbox when the regeneration cannot be sandboxed (then
 * nothing was written) and -SEINSTALL_ERROR_PROGRAM_FAILED when it failed (then every file the
 * call wrote is put back); other -errno from I/O. @settings NULL (only with
 * SEINSTALL_APPLY_REGENERATE, else -EINVAL): write no config, only regenerate grub.cfg when
 * its default entry lacks what GRUB's defaults say. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_apply(struct seinstall_ctx *ctx,
                                                   const struct seinstall_settings *settings,
                                                   const struct seinstall_apply_options *options,
                                                   struct seinstall_apply_result **ret_result);
/* Take another reference to a result of seinstall_apply(), or drop one (freeing it with the
 * last). Each accepts NULL; unref returns NULL. */
SEINSTALL_EXPORT struct seinstall_apply_result *
seinstall_apply_result_ref(struct seinstall_apply_result *r);
SEINSTALL_EXPORT struct seinstall_apply_result *
seinstall_apply_result_unref(struct seinstall_apply_result *r);
/* Changes made, in order: the file (target path) and what changed in it. Owned by @r. */
SEINSTALL_EXPORT size_t
seinstall_apply_result_get_n_changes(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT const char *
seinstall_apply_result_get_change_file(const struct seinstall_apply_result *r, size_t i);
SEINSTALL_EXPORT const char *
seinstall_apply_result_get_change_what(const struct seinstall_apply_result *r, size_t i);
/* Things the person must still do (a command to run), as sentences. Owned by @r. */
SEINSTALL_EXPORT size_t seinstall_apply_result_get_n_todo(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT const char *seinstall_apply_result_get_todo(const struct seinstall_apply_result *r,
                                                             size_t i);
/* The result as one JSON document (the `apply --json` document and the "configure" member of
 * `install --json`): config_mode, policy, kernel, relabel_scheduled, bootloaders, changes
 * [{file, change}], todo. Returns 0 and a string the caller frees, -EINVAL, -ENOMEM. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_apply_result_to_json(const struct seinstall_apply_result *r, char **ret);
/* The mode written to the config (permissive while a relabel is pending), the policy type, the
 * kernel case, whether a relabel is scheduled, and whether a boot loader form was edited. */
SEINSTALL_EXPORT enum seinstall_mode
seinstall_apply_result_get_config_mode(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT const char *
seinstall_apply_result_get_policy(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT enum seinstall_kernel_case
seinstall_apply_result_get_kernel_case(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT bool seinstall_apply_result_get_relabel(const struct seinstall_apply_result *r);
SEINSTALL_EXPORT bool seinstall_apply_result_has_bootloader(const struct seinstall_apply_result *r,
                                                            enum seinstall_bootloader b);

/* Make sure the target has a built policy of @type (NULL: "default"): when
 * /etc/selinux/TYPE/policy/policy.N is missing but the modules are installed in
 * /var/lib/selinux/TYPE, build it with libsemanage for the target's root, as
 * `semodule -p ROOT -n -B` (never loaded into the running kernel; libsemanage runs in a
 * confined child process of its own, so builds of distinct contexts may run at once). Returns 0
 * already built, 1 built, -ENOPKG when the target has neither (the message names the package to
 * install), -ENOTDIR when a policy directory is a symlink, -SEINSTALL_ERROR_PROGRAM_FAILED when
 * libsemanage failed, -SEINSTALL_ERROR_NOT_CONFINED when the build could not be confined. */
SEINSTALL_EXPORT SEINSTALL_WUR int seinstall_policy_ensure(struct seinstall_ctx *ctx,
                                                           const char *type);

/* ===== install: check, policy, relabel and configure in one unattended run ================ */

struct seinstall_install_result;

/* Flags of seinstall_install(), or-ed into its unsigned @flags. */
enum seinstall_install_flags {
        /* Passed on as SEINSTALL_APPLY_REGENERATE (run update-grub in the target). */
        SEINSTALL_INSTALL_REGENERATE = 1 << 0,
        /* Run every stage as a preview and write nothing: the relabel counts what it would
         * change, the configure stage lists the files it would write (as
         * SEINSTALL_APPLY_DRY_RUN), a missing policy is reported as to be built
         * (get_policy_built()), and the verify stage is left out. */
        SEINSTALL_INSTALL_DRY_RUN = 1 << 1,
};

/* Install SELinux into the mounted target of @ctx with @settings (mode, policy type,
 * unsupported filesystems, when to relabel; NULL: defaults and the target's config):
 *  1. check every mount (seinstall_check_run); a refusal stops here, before anything in the
 *     target changes: returns 0 with get_refused() true;
 *  2. make sure the policy is built (seinstall_policy_ensure), unless the mode is disabled;
 *  3. relabel (seinstall_relabel, @progress as there) when the settings say "install" and the
 *     mode is not disabled; when it cannot run or fails, a first-boot relabel is scheduled
 *     instead and the target boots permissive until then (get_relabel_error() says why);
 *  4. configure (seinstall_apply with the first-boot mark): the enabling config comes last;
 *  5. when the relabel ran: verify with SEINSTALL_VERIFY_FIX, after every write of the install
 *     (get_verify() and the log say what was fixed).
 * Returns 0 and a new result in *ret (also for a refusal); -ENOPKG when there is no policy to
 * build (the message names the package), other -errno as the stages return them; on failure
 * nothing after the failed stage was done. */
SEINSTALL_EXPORT SEINSTALL_WUR int
seinstall_install(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                  const struct seinstall_relabel_options *options, unsigned flags,
                  struct seinstall_install_result **ret);
/* Another reference to the result, or one dropped (freed with the last; each accepts NULL). */
SEINSTALL_EXPORT struct seinstall_install_result *
seinstall_install_result_ref(struct seinstall_install_result *r);
SEINSTALL_EXPORT struct seinstall_install_result *
seinstall_install_result_unref(struct seinstall_install_result *r);
/* Whether the check refused the target (nothing was changed then). */
SEINSTALL_EXPORT bool
seinstall_install_result_get_refused(const struct seinstall_install_result *r);
/* The mode installed (after any lowering by the check) with the source that decided it, and
 * the policy type. Owned by @r. */
SEINSTALL_EXPORT enum seinstall_mode
seinstall_install_result_get_mode(const struct seinstall_install_result *r,
                                  enum seinstall_source *ret_source);
SEINSTALL_EXPORT const char *
seinstall_install_result_get_policy(const struct seinstall_install_result *r);
/* Whether the policy was built from modules during this install. */
SEINSTALL_EXPORT bool
seinstall_install_result_get_policy_built(const struct seinstall_install_result *r);
/* The results of the stages, owned by @r (NULL for a stage that did not run). */
SEINSTALL_EXPORT const struct seinstall_check_result *
seinstall_install_result_get_check(const struct seinstall_install_result *r);
SEINSTALL_EXPORT const struct seinstall_relabel_result *
seinstall_install_result_get_relabel(const struct seinstall_install_result *r);
SEINSTALL_EXPORT const struct seinstall_apply_result *
seinstall_install_result_get_apply(const struct seinstall_install_result *r);
/* Why the relabel during the install did not happen or failed (a first-boot relabel was
 * scheduled instead), or NULL when it ran fine. Owned by @r. */
SEINSTALL_EXPORT const char *
seinstall_install_result_get_relabel_error(const struct seinstall_install_result *r);
/* The last stage's verify --fix (labels written after the relabel, fixed), or NULL when the
 * relabel did not run during the install. Owned by @r. */
SEINSTALL_EXPORT const struct seinstall_verify_result *
seinstall_install_result_get_verify(const struct seinstall_install_result *r);
/* ===== version ============================================================================ */
/* SEINSTALL_VERSION ("MAJOR.MINOR"), SEINSTALL_VERSION_MAJOR and _MINOR: seinstall-version.h. */

/* The version of the library loaded at run time, "MAJOR.MINOR" (static). SEINSTALL_VERSION
 * (seinstall-version.h) is the one this program was built against. */
SEINSTALL_EXPORT const char *seinstall_version(void);

#ifdef __cplusplus
}
#endif

#endif
