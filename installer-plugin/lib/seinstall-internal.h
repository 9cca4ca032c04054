/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seinstall-internal.h — calls of the library that are not part of its ABI: what only the
 * commands need (status, avc and trial on the installed system, the first-boot mark, verifying
 * single files) and what only turns the command line's files into settings (a kickstart profile,
 * boot options, the target's config, the layout a kickstart plans, where a setting came from).
 * They follow seinstall.h's conventions but are hidden in libseinstall.so.0: the seinstall
 * command, seinstall-firstboot and the tests link the library's internal archive
 * (build/libseinstall-internal.a) to reach them. Not installed. */
#ifndef SEINSTALL_INTERNAL_H
#define SEINSTALL_INTERNAL_H

#include <signal.h>

#include "seinstall.h"

struct seinstall_status_result;
struct seinstall_avc_result;
struct seinstall_trial_result;

/* ===== Stopping a long operation =========================================================== */

/* Let @flag (a variable a signal handler sets, or NULL) stop the operations of @ctx: once it is
 * non-zero, relabel, verify and install stop at their next safe point (the walk checks it every
 * quarter of a second; install before each stage) and fail with -EINTR. Each file is then
 * either as it was or done; nothing is left half-written. */
void seinstall_set_interrupt(struct seinstall_ctx *ctx, const volatile sig_atomic_t *flag);

/* ===== Limits the commands take from their environment ===================================== */

/* The library reads no environment: the commands read SEINSTALL_SANDBOX_TIMEOUT and
 * SEINSTALL_LINKS_MAX (seinstall(8), ENVIRONMENT) and set these. */
#define SEINSTALL_SANDBOX_TIMEOUT_DEFAULT 300
#define SEINSTALL_SANDBOX_TIMEOUT_MAX     86400
#define SEINSTALL_LINKS_MAX_LIMIT         ((size_t) 1 << 19)
/* Seconds from 1 to SEINSTALL_SANDBOX_TIMEOUT_MAX from @text; NULL or empty gives the default.
 * -EINVAL for anything else. */
int seinstall_sandbox_timeout_parse(const char *text, unsigned *ret);
/* How long a program of the target (update-grub) may run before it is killed with every
 * process it started: 1 to SEINSTALL_SANDBOX_TIMEOUT_MAX seconds, 0 for the default. -EINVAL. */
int seinstall_set_sandbox_timeout(struct seinstall_ctx *ctx, unsigned seconds);
/* The most files with several names a relabel or verify remembers at once (1 to
 * SEINSTALL_LINKS_MAX_LIMIT, 0 for that default); past it the walk goes over the tree again
 * for the rest. For tests. -EINVAL. */
int seinstall_set_links_max(struct seinstall_ctx *ctx, size_t n);

/* ===== Settings from files: the target's config, a kickstart profile, boot options ======== */

/* Feed the target's /etc/selinux/config into @s as source "target" (SELINUX= as mode,
 * SELINUXTYPE= as policy). A missing file or key sets nothing. Returns 0, or -errno when the
 * file exists but cannot be read. */
SEINSTALL_WUR int seinstall_settings_load_target(struct seinstall_settings *s,
                                                 struct seinstall_ctx *ctx);

/* Which file and line decided @setting ("mode", "policy", "unsupported" or "relabel"): for a
 * profile the file that holds the line (an included file's own name), for boot options the
 * command line file; *ret_text is the line or option (may be NULL). Pointers live as long as
 * @s is unchanged. Returns 0; -ENOENT when the target's config or the default decided;
 * -EINVAL for an unknown @setting. */
enum seinstall_setting {
        SEINSTALL_SETTING_MODE = 0,
        SEINSTALL_SETTING_POLICY,
        SEINSTALL_SETTING_UNSUPPORTED,
        SEINSTALL_SETTING_RELABEL_WHEN,
};
int seinstall_settings_get_origin(const struct seinstall_settings *s,
                                  enum seinstall_setting setting, const char **ret_file,
                                  unsigned *ret_line, const char **ret_text);

/* Feed the kickstart profile @path (a file of this system, not of the target) into @s as
 * source "profile", reading it as pykickstart does (seinstall.ks(5): line ends, shlex, sections,
 * %include and %ksappend followed): the `selinux` command (--enforcing, --permissive, --disabled
 * and their unambiguous prefixes, case-sensitive, the last one wins; a bare `selinux` keeps an
 * earlier mode) and `%addon org_seinstall --policy=TYPE --unsupported=refuse|warn
 * --relabel=install|firstboot`. Other commands are not checked. Records the file and line of
 * each decision (seinstall_settings_get_origin()). Returns 0; -ENOENT for a missing file;
 * -EBADMSG for anything pykickstart refuses, a bad org_seinstall addon, or NUL bytes (the
 * message in @ctx names file and line; nothing is applied). */
SEINSTALL_WUR int seinstall_settings_load_profile(struct seinstall_settings *s,
                                                  struct seinstall_ctx *ctx, const char *path);

/* The layout the kickstart @path plans, for seinstall_check_options_set_plan_file(): read as
 * pykickstart reads it (%include and %ksappend followed) with the options of pykickstart's
 * newest part/partition, logvol, raid, btrfs, autopart and reqpart, each device given the file
 * system Anaconda gives it (seinstall.ks(5)): --fstype, else @default_fstype (NULL: "xfs"),
 * /boot the boot loader's type, a partition at /boot/efi vfat; SEINSTALL_PLAN_EFI plans the EFI
 * System Partition that reqpart and autopart add on EFI firmware. A device kept with --noformat
 * or --useexisting is probed ("auto") when it exists here, else left out with a warning. On
 * success *ret gets fstab-format text (a comment naming the file and line of each entry; free()
 * it) and the number of entries is returned. -EBADMSG for a file pykickstart refuses or a
 * storage command with options pykickstart does not take (the message names file and line),
 * -ENOENT for a missing file, -EINVAL for a bad argument. */
enum seinstall_plan_flags {
        SEINSTALL_PLAN_EFI = 1 << 0,
};
SEINSTALL_WUR int seinstall_profile_plan(struct seinstall_ctx *ctx, const char *path,
                                         const char *default_fstype, unsigned flags, char **ret);
/* seinstall_check_run() on the layout the kickstart @profile plans (seinstall_profile_plan()
 * with @default_fstype and @plan_flags), its entries named after @profile; a kickstart that
 * plans no file system gives a check of no mount (verdict ok). Errors as those two calls. */
SEINSTALL_WUR int seinstall_check_run_profile(struct seinstall_ctx *ctx,
                                              const struct seinstall_settings *settings,
                                              const char *profile, const char *default_fstype,
                                              unsigned plan_flags,
                                              struct seinstall_check_result **ret);

/* Feed the installer's kernel command line into @s as source "boot", read as Anaconda reads
 * it (shell quoting, keys without "inst.", the last value wins): inst.selinux=0 (disabled),
 * inst.selinux=V (enforcing), inst.noselinux (disabled); seinstall's own: selinux=V and
 * noselinux without the prefix, the kernel's enforcing=N (0: an enabled or unset mode becomes
 * permissive), seinstall.mode=M (wins over the others), seinstall.policy=TYPE,
 * seinstall.unsupported=refuse|warn. Read from @cmdline_file, NULL meaning /proc/cmdline.
 * When @ret_profile is not NULL it gets the path of inst.ks=file:PATH (allocated) or NULL.
 * Returns 0; -ENOENT for a missing file; -EBADMSG for an unclosed quote or a bad seinstall.*
 * value (message names it). */
SEINSTALL_WUR int seinstall_settings_load_boot_options(struct seinstall_settings *s,
                                                       struct seinstall_ctx *ctx,
                                                       const char *cmdline_file,
                                                       char **ret_profile);

/* ===== verify single files =============================================================== */
/* The same on just the entries @paths names (@n_paths absolute paths inside the target, such
 * as the files `seinstall avc` blames on their labels): each entry itself, nothing below a
 * directory, in this thread (the options' threads and progress are not used). An entry that is
 * gone, reached through a symbolic link or not a plain absolute path counts as an error (its
 * message in the result); one on a mount the walk skips is listed as skipped. Returns and sets
 * *ret_result as seinstall_verify(). */
SEINSTALL_WUR int seinstall_verify_paths(struct seinstall_ctx *ctx,
                                         const struct seinstall_relabel_options *options,
                                         const char *const *paths, size_t n_paths, unsigned flags,
                                         struct seinstall_verify_result **ret_result);

/* ===== the first-boot mark (SEINSTALL_FIRSTBOOT_MARK) ===================================== */
/* Remove the first-boot mark (0 also when there was none). The first-boot screen calls it. */
SEINSTALL_WUR int seinstall_firstboot_mark_remove(struct seinstall_ctx *ctx);
/* Note in the mark that its mode was chosen on the first-boot screen (kept for the boot after
 * a relabel), until an install writes the mark anew. Returns 1 written, 0 already noted,
 * -ENOENT without a mark, or a negative errno. */
SEINSTALL_WUR int seinstall_firstboot_mark_set_chosen_after_install(struct seinstall_ctx *ctx);

/* ===== status: the target's SELinux state ================================================= */

struct seinstall_status_result;

/* Read the target's state: config, kernel command line of its boot loader, kernel config,
 * pending relabel, first-boot mark, and (root "/" only) whether SELinux runs now. Returns 0
 * and a new object in *ret, -EBADMSG for a config or boot loader file it cannot parse, -errno
 * for I/O errors. A missing file is not an error (it is part of the state). */
SEINSTALL_WUR int seinstall_status_read(struct seinstall_ctx *ctx,
                                        struct seinstall_status_result **ret);
/* Another reference to a status object, or one dropped (freed with the last). Each accepts
 * NULL; unref returns NULL. */
struct seinstall_status_result *seinstall_status_result_ref(struct seinstall_status_result *st);
struct seinstall_status_result *seinstall_status_result_unref(struct seinstall_status_result *st);
/* The state as one JSON document (the `status --json` document): root, config_mode,
 * config_policy, policy_built, bootloader, cmdline, kernel_args, kernel, kernel_config,
 * boot_mode, relabel_pending, firstboot_pending, firstboot_mode, active. Returns 0 and a string
 * the caller frees, -EINVAL, -ENOMEM. */
SEINSTALL_WUR int seinstall_status_result_to_json(const struct seinstall_status_result *st,
                                                  char **ret);
/* SELINUX= of /etc/selinux/config; SEINSTALL_MODE_INVALID when the file or key is missing. */
enum seinstall_mode
seinstall_status_result_get_config_mode(const struct seinstall_status_result *st);
/* SELINUXTYPE= of the config, or NULL. Owned by @st. */
const char *seinstall_status_result_get_config_policy(const struct seinstall_status_result *st);
/* Whether the policy of that type is built (etc/selinux/TYPE/policy/policy.N exists). */
bool seinstall_status_result_get_policy_built(const struct seinstall_status_result *st);
/* The boot loader form the command line was read from (NONE when none was found) and that
 * command line (arguments of every form joined, as the kernel would see them), or NULL. */
enum seinstall_bootloader
seinstall_status_result_get_bootloader(const struct seinstall_status_result *st);
const char *seinstall_status_result_get_cmdline(const struct seinstall_status_result *st);
/* Value of the last kernel argument @name ("selinux", "security", "lsm", "enforcing") on that
 * command line; "" for an argument without "="; NULL when absent. Owned by @st. */
const char *seinstall_status_result_get_kernel_arg(const struct seinstall_status_result *st,
                                                   const char *name);
/* The boot menu made from that command line, as the boot loader reads it (grub.cfg's default
 * entry, the BLS entries): @what is "file" (the menu file, target path), "entry" (the default
 * entry's title or file), "chosen" (how it was chosen), "cmdline" (what it gives the kernel),
 * "unknown" (why the menu says nothing of the next boot) or "lag" (the first SELinux argument
 * on which menu and configuration differ, and what to run). NULL when not known, not lagging,
 * or @what is none of these. Owned by @st. */
const char *seinstall_status_result_get_menu(const struct seinstall_status_result *st,
                                             const char *what);
/* How the target's kernel turns SELinux on and off, from its /boot/config-* (see
 * seinstall_kernel_case). */
enum seinstall_kernel_case
seinstall_status_result_get_kernel_case(const struct seinstall_status_result *st);
/* The /boot/config-* file the case was read from (target path), or NULL. Owned by @st. */
const char *seinstall_status_result_get_kernel_config(const struct seinstall_status_result *st);
/* Whether /.autorelabel or /etc/selinux/.autorelabel exists. */
bool seinstall_status_result_get_relabel_pending(const struct seinstall_status_result *st);
/* Whether the first-boot mark exists, and its mode= (SEINSTALL_MODE_INVALID when absent). */
bool seinstall_status_result_get_firstboot_pending(const struct seinstall_status_result *st);
enum seinstall_mode
seinstall_status_result_get_firstboot_mode(const struct seinstall_status_result *st);
/* Whether that mode was chosen on the first-boot screen rather than at install. */
bool seinstall_status_result_get_firstboot_chosen_after_install(
    const struct seinstall_status_result *st);
/* The mode the target boots in, from the kernel case, the boot menu's command line (else the
 * configuration's, when there is no menu to read) and config;
 * SEINSTALL_MODE_INVALID when it cannot be told (kernel config unknown and no explicit arg). */
enum seinstall_mode seinstall_status_result_get_boot_mode(const struct seinstall_status_result *st);
/* SELinux now (from /sys/fs/selinux/enforce): enforcing, permissive, disabled (not active);
 * SEINSTALL_MODE_INVALID when the root is not "/" (the running system is another one). */
enum seinstall_mode seinstall_status_result_get_active(const struct seinstall_status_result *st);
/* The trial mode's state as recorded in the target (see seinstall_trial_read()); owned by @st,
 * never NULL for a status that was read (state SEINSTALL_TRIAL_NONE when there was none). */
const struct seinstall_trial_result *
seinstall_status_result_get_trial(const struct seinstall_status_result *st);

/* ===== avc: this boot's denials, each explained by its cause ============================== */

struct seinstall_avc_result;

/* Why a denial happened: the object's label differs from what the target's file contexts say
 * (LABEL: relabel that file), or the label is right and the policy denies it (POLICY). */
enum seinstall_avc_cause {
        SEINSTALL_AVC_CAUSE_POLICY = 0,
        SEINSTALL_AVC_CAUSE_LABEL = 1,
};

/* Read AVC denials and classify each against the target's file contexts (its SELINUXTYPE, else
 * "default"). @log: a saved audit or kernel log (auditd, dmesg, journalctl -k, /dev/kmsg
 * forms); NULL: this boot's, from /var/log/audit/audit.log when auditd runs, else /dev/kmsg.
 * Denials are grouped: a LABEL group per file, a POLICY group per domain, type, class and
 * permissions, with counts. Returns 0 and a new report in *ret; -ENOENT or -EBADMSG (a file
 * that is not a text log) for a log it cannot use, -EACCES and other -errno when reading
 * fails; seinstall_last_error() says which file and what to do. */
SEINSTALL_WUR int seinstall_avc_read(struct seinstall_ctx *ctx, const char *log,
                                     struct seinstall_avc_result **ret);
/* Another reference to a report, or one dropped (freed with the last). Each accepts NULL. */
struct seinstall_avc_result *seinstall_avc_result_ref(struct seinstall_avc_result *rep);
struct seinstall_avc_result *seinstall_avc_result_unref(struct seinstall_avc_result *rep);
/* The report as one JSON document (the `avc --json` document): source, denials,
 * caused_by_label, caused_by_policy, and the groups in "label" and "policy", each with count,
 * permissive and the fields of seinstall_avc_result_get_group_field(). Returns 0 and a string the
 * caller frees, -EINVAL, -ENOMEM. */
SEINSTALL_WUR int seinstall_avc_result_to_json(const struct seinstall_avc_result *rep, char **ret);
/* The log that was read (a path). Owned by @rep. */
const char *seinstall_avc_result_get_source(const struct seinstall_avc_result *rep);
/* How many denials were read, and how many of them a label caused. */
size_t seinstall_avc_result_get_n_denials(const struct seinstall_avc_result *rep);
size_t seinstall_avc_result_get_n_label(const struct seinstall_avc_result *rep);
/* How many denials name their file only by device and inode and were not searched for: the
 * searches of one log share one budget (a walk of each filesystem, once), used up. */
size_t seinstall_avc_result_get_n_unsearched(const struct seinstall_avc_result *rep);
/* Groups of identical denials, in the order they were first seen. */
size_t seinstall_avc_result_get_n_groups(const struct seinstall_avc_result *rep);
enum seinstall_avc_cause
seinstall_avc_result_get_group_cause(const struct seinstall_avc_result *rep, size_t i);
/* How many denials the group holds; whether every one was logged with permissive=1. */
unsigned seinstall_avc_result_get_group_count(const struct seinstall_avc_result *rep, size_t i);
bool seinstall_avc_result_get_group_permissive(const struct seinstall_avc_result *rep, size_t i);
/* The fields of a group, read with seinstall_avc_result_get_group_field(). */
enum seinstall_avc_field {
        SEINSTALL_AVC_FIELD_DOMAIN = 0, /* the source type */
        SEINSTALL_AVC_FIELD_TYPE,       /* the object's type */
        SEINSTALL_AVC_FIELD_TCLASS,     /* the object class */
        SEINSTALL_AVC_FIELD_PERMS,      /* the permissions denied, "read open" */
        SEINSTALL_AVC_FIELD_SCONTEXT,
        SEINSTALL_AVC_FIELD_TCONTEXT, /* the label the object has */
        SEINSTALL_AVC_FIELD_PATH,     /* path=, auditd's PATH record, or found by device+inode */
        SEINSTALL_AVC_FIELD_NAME,
        SEINSTALL_AVC_FIELD_COMM,     /* of the first denial */
        SEINSTALL_AVC_FIELD_EXPECTED, /* the label file contexts give the path (LABEL only) */
        SEINSTALL_AVC_FIELD_FIX,      /* a command that fixes it (LABEL only) */
};
/* Field @field of group @i, owned by @rep; NULL when unknown, for @i out of range or an
 * unknown @field. */
const char *seinstall_avc_result_get_group_field(const struct seinstall_avc_result *rep, size_t i,
                                                 enum seinstall_avc_field field);

/* ===== trial: permissive until a clean boot =============================================== */
/* A trial install boots permissive. Once a boot has settled, seinstall-trial.service runs
 * `seinstall trial`: when none of this boot's denials was caused by a label and the
 * boot-critical files (init, the shells, the dynamic loader, /etc/passwd, shadow, group,
 * gshadow, the SELinux config) carry the labels the file contexts give them, the config is
 * made enforcing (and SELinux switched to enforcing now where it can be); otherwise it stays
 * permissive and the files are named. The trial decides once; the outcome is kept in the
 * state file below, which `seinstall status` shows. */

/* Path of the trial state inside the target. "key=value" lines ("#" starts a comment), values
 * escaped so each is one line (a backslash as "\\", a control byte or DEL as "\xNN"):
 *   state=pending|enforced|kept-permissive|cancelled   (required, once)
 *   policy=TYPE                started=TIME             when the trial was set up
 *   decided=TIME               log=PATH                 when it decided, the log it read
 *   denials=N                  label_denials=N          what it read
 *   mislabeled=N                                        boot-critical files found mislabeled
 *   path=PATH                  fix=COMMAND              each file a label denial named, then
 *                                                       each mislabeled boot-critical file
 *                                                       (at most 100; fix= follows its path=)
 * TIME is UTC, ISO 8601 ("2026-12-05T03:14:07Z"). Unknown keys are ignored by readers. */
#define SEINSTALL_TRIAL_STATE "/var/lib/seinstall/trial"
/* The unit that runs the decision on the installed system (enabled by a trial install). */
#define SEINSTALL_TRIAL_UNIT "seinstall-trial.service"

enum seinstall_trial_state {
        SEINSTALL_TRIAL_NONE = 0,        /* no trial was ever set up */
        SEINSTALL_TRIAL_PENDING,         /* set up, not decided yet */
        SEINSTALL_TRIAL_ENFORCED,        /* no denial caused by a label: enforcing */
        SEINSTALL_TRIAL_KEPT_PERMISSIVE, /* denials caused by labels, or a boot-critical file
                                            mislabeled: still permissive */
        SEINSTALL_TRIAL_CANCELLED,       /* a mode was chosen by hand before it decided */
};
/* "none", "pending", "enforced", "kept-permissive", "cancelled"; NULL for other values. */
const char *seinstall_trial_state_to_string(enum seinstall_trial_state s);

/* Flags of seinstall_trial_decide(). */
enum seinstall_trial_flags {
        /* Do not switch the running system to enforcing now, only the config. */
        SEINSTALL_TRIAL_NO_SETENFORCE = 1 << 0,
};

/* Read the trial state of the target. Returns 0 and a new object (state NONE when there is no
 * state file); -EBADMSG for a state file seinstall did not write (the message names the file,
 * the line, and what to do), -ELOOP when it is a symbolic link, -EBADFD when not a regular
 * file, other -errno for I/O errors. */
SEINSTALL_WUR int seinstall_trial_read(struct seinstall_ctx *ctx,
                                       struct seinstall_trial_result **ret);
/* Decide a pending trial from this boot's denials (seinstall_avc_read() with @log, NULL: this
 * boot's log of the running system) and the labels of the boot-critical files now
 * (seinstall_verify_paths()): no denial caused by a label and no such file mislabeled makes
 * /etc/selinux/config say
 * enforcing (written atomically, as seinstall_apply() writes it) and, on the running system
 * (root "/") with SELinux active, switches to enforcing now unless the flag says not to or the
 * policy refuses it; else the config stays permissive. The outcome, its time and the files are
 * recorded in SEINSTALL_TRIAL_STATE. A trial that already decided (or none, or one waiting for
 * a pending relabel) is reported as it is and nothing changes. Returns 1 decided now, 0 nothing
 * decided, and the state in *ret; -EBADMSG/-ELOOP for a state file as seinstall_trial_read(),
 * -EINVAL a bad argument, -ENODATA no log given and SELinux not active on this boot (nothing to
 * judge), errors of seinstall_avc_read(), other -errno from writing. */
SEINSTALL_WUR int seinstall_trial_decide(struct seinstall_ctx *ctx, const char *log, unsigned flags,
                                         struct seinstall_trial_result **ret);
/* Another reference to a trial state, or one dropped (freed with the last). Each accepts NULL. */
struct seinstall_trial_result *seinstall_trial_result_ref(struct seinstall_trial_result *t);
struct seinstall_trial_result *seinstall_trial_result_unref(struct seinstall_trial_result *t);
enum seinstall_trial_state seinstall_trial_result_get_state(const struct seinstall_trial_result *t);
/* Fields of the state, owned by @t, NULL when not recorded: the policy type, when the trial was
 * set up and when it decided (TIME), the log it read; the error: why a state file could not be
 * read (status only). */
const char *seinstall_trial_result_get_policy(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_started(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_decided(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_log(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_error(const struct seinstall_trial_result *t);
/* Denials the decision read, and how many of them a label caused. */
unsigned long long seinstall_trial_result_get_n_denials(const struct seinstall_trial_result *t);
unsigned long long
seinstall_trial_result_get_n_label_denials(const struct seinstall_trial_result *t);
/* Boot-critical files whose label differed from the file contexts' when it decided. */
unsigned long long seinstall_trial_result_get_n_mislabeled(const struct seinstall_trial_result *t);
/* The files label denials named, then the mislabeled boot-critical files (at most 100, each
 * once), each with the command that fixes it. Owned by @t; NULL beyond the last index. */
size_t seinstall_trial_result_get_n_paths(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_path(const struct seinstall_trial_result *t, size_t i);
const char *seinstall_trial_result_get_fix(const struct seinstall_trial_result *t, size_t i);
/* After a decision to enforce on the running system: whether SELinux was switched to enforcing
 * now, and if it was not, why (a message owned by @t; NULL when switched or not tried). */
bool seinstall_trial_result_get_enforcing_now(const struct seinstall_trial_result *t);
const char *seinstall_trial_result_get_setenforce_error(const struct seinstall_trial_result *t);
/* The state as one JSON object (the `trial --json` document and the "trial" member of
 * `status --json`): state, policy, started, decided, log, denials, label_denials, mislabeled, files
 * [{path, fix}], enforcing_now, setenforce_error. Returns 0 and a string the caller frees,
 * -EINVAL, -ENOMEM. */
SEINSTALL_WUR int seinstall_trial_result_to_json(const struct seinstall_trial_result *t,
                                                 char **ret);

#endif
