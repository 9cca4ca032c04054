/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private declarations shared by the files of libseinstall. Not installed. */
#ifndef SEINSTALL_PRIVATE_H
#define SEINSTALL_PRIVATE_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "seinstall.h"
#include "util.h"

/* ---- context ---------------------------------------------------------------------------- */

/* How often the expensive inputs were read through a context: the install pipeline promises
 * one policy load, one file_contexts compile, one config read and one check per install, and
 * the tests hold it to that (tests/helpers/install-counts.c). */
struct si_counters {
        unsigned policy_loads; /* si_policy_load*(): a binary policy read, or the built-in one */
        unsigned fc_compiles;  /* file_contexts read and compiled (fcontext.c) */
        unsigned config_reads; /* /etc/selinux/config read (config.c) */
        unsigned checks;       /* mount checks run (check.c) */
};

struct seinstall_ctx {
        int refcount;
        char *root;  /* normalised path as given */
        int root_fd; /* O_PATH|O_DIRECTORY fd of the root */
        seinstall_log_fn log_fn;
        void *log_data;
        int log_priority;
        char *last_error;
        char *last_error_command; /* the command last_error ends with, or NULL */
        struct si_counters counters;
        struct si_mountset *mounts; /* the target's own mounts (mount-boundary.c) */
        struct si_labels *labels;   /* the labels of what seinstall writes (label.c) */
};

/* ---- logging and the last error (log.c) ---- */
/* Log a message at @priority through the context's callback. */
void si_log(struct seinstall_ctx *ctx, int priority, const char *fmt, ...) _printf_(3, 4);
/* Record the failure message as the context's last error, log it, and return @err (which must
 * be a negative errno) so that callers can write `return si_error(ctx, -EBADMSG, ...)`. */
int si_error(struct seinstall_ctx *ctx, int err, const char *fmt, ...) _printf_(3, 4);
/* si_error() for a failure a person fixes by running @command (built with shell_command(), so
 * quoted and naming the same root; taken over, NULL on ENOMEM is fine): the message is the
 * formatted text followed by the command, and seinstall_last_error_command() returns it. */
int si_error_run(struct seinstall_ctx *ctx, int err, char *command, const char *fmt, ...)
    _printf_(4, 5);
#define si_warn(ctx, ...)  si_log(ctx, SEINSTALL_LOG_WARNING, __VA_ARGS__)
#define si_info(ctx, ...)  si_log(ctx, SEINSTALL_LOG_INFO, __VA_ARGS__)
#define si_debug(ctx, ...) si_log(ctx, SEINSTALL_LOG_DEBUG, __VA_ARGS__)

/* ---- settings (settings.c) ------------------------------------------------------------- */

/* A policy type is a plain directory name under /etc/selinux: letters, digits, ".", "_" and "-",
 * not starting with "." or "-", shorter than 256 bytes (no "/", blank, quote or control). */
bool si_policy_type_valid(const char *type);

/* The settings whose deciding line is tracked. */
enum si_setting {
        SI_SETTING_MODE,
        SI_SETTING_POLICY,
        SI_SETTING_UNSUPPORTED,
        SI_SETTING_RELABEL,
        _SI_SETTING_MAX,
};
/* Record that @file:@line (@text: the line or option, may be NULL) decided @which; call it
 * right after the setter applied the value (a setter that applies clears the origin). */
int si_settings_set_origin(struct seinstall_settings *s, enum si_setting which, const char *file,
                           unsigned line, const char *text);

struct si_config;

/* The plan of an install (and of a check): the mode and the policy type, each with the source
 * that decided it, by precedence: @settings (boot, profile; may be NULL) over the target's
 * config @config (read once by the caller) over the defaults (enforcing, "default"). */
struct si_decision {
        enum seinstall_mode mode;
        enum seinstall_source mode_source;
        char *policy;                        /* policy type, owned */
        enum seinstall_source policy_source; /* boot, profile, target or default */
        bool trial; /* the trial mode: @mode is enforcing, the mode it aims at */
};
int si_settings_decide(const struct seinstall_settings *settings, const struct si_config *config,
                       struct si_decision *ret);
void si_decision_done(struct si_decision *d);

/* ---- the target's own mounts (mount-boundary.c) ------------------------------------------------
 */

struct si_mountset;
int si_mountset_new(struct si_mountset **ret);
void si_mountset_free(struct si_mountset *ms);
/* The mount ID (as in /proc/self/mountinfo) of @name at @dfd, statx(@flags). */
int si_fd_mount_id(int dfd, const char *name, int flags, uint64_t *ret);
/* Whether mount @mnt_id is one of the target's own: the mount holding the root, or one below
 * it that is no kernel pseudo filesystem and whose filesystem is not also mounted outside the
 * target (an installer's bind). 1 yes, 0 no, -errno. Thread-safe. */
int si_mount_is_own(struct seinstall_ctx *ctx, uint64_t mnt_id);
/* The same for the mount @fd lies on. */
int si_fd_on_own_mount(struct seinstall_ctx *ctx, int fd);
/* The mount points (as this process sees them) below the root that are not the target's own. */
int si_mounts_not_own(struct seinstall_ctx *ctx, char ***ret, size_t *ret_n);
/* The device numbers (st_dev) of the target's own mounts, each once: what its boot loader's
 * tools may need to read. */
int si_mounts_own_devices(struct seinstall_ctx *ctx, dev_t **ret, size_t *ret_n);
/* The mount points of the mounts whose parent is mount @parent_id and that lie below the root,
 * as paths inside the target ("/dev"), sorted; one below another listed, or stacked on the
 * same point, is left out (walking the other covers it). */
int si_mounts_on(struct seinstall_ctx *ctx, uint64_t parent_id, char ***ret, size_t *ret_n);

/* ---- running the target's code confined (confine.c) --------------------------------------- */

/* Drop every capability and the bounding set, set no_new_privs (in a forked child). */
int si_drop_privileges(void);

/* ---- the sandbox for the target's programs (sandbox.c) ----------------------------------- */

/* Run @argv (a program of the target, by its path inside the target) the one way seinstall
 * runs one: under bubblewrap (sandbox.c says how), its output relayed line by line through the
 * log, escaped and bounded, within the wall-clock limit. 0 when it exited 0; -ETIME when it
 * was killed at the limit, -EIO when it failed, -ENOPKG or -EPERM when no sandbox could be set
 * up (then nothing ran), each with the message set. The root "/" runs it unconfined (the
 * running system's own program) but with the same output handling and limit. */
int si_run_in_target(struct seinstall_ctx *ctx, const char *const *argv);
/* The wall-clock limit in seconds from @text (SEINSTALL_SANDBOX_TIMEOUT; NULL or empty: the
 * default of 300): 1..86400, else -EINVAL. */
int si_sandbox_timeout(const char *text, unsigned *ret);

/* Output of a program of the target on its way to the log: each line escaped
 * (str_escape_display()), cut at SI_RELAY_LINE_MAX bytes, prefixed with @name, at most
 * SI_RELAY_LINES lines and SI_RELAY_MAX bytes shown in all; what is left out is counted and
 * said at the end. */
#define SI_RELAY_LINE_MAX 512
#define SI_RELAY_LINES    400
#define SI_RELAY_MAX      (32 * 1024)
struct si_relay {
        const char *name;
        struct sbuf line;
        size_t lines;    /* lines shown */
        size_t line_cut; /* bytes of the current line past SI_RELAY_LINE_MAX */
        size_t shown;    /* bytes of output shown */
        size_t hidden;   /* bytes of output not shown */
        char *last;      /* the last line shown, escaped (for an error message) */
};
void si_relay_feed(struct seinstall_ctx *ctx, struct si_relay *r, const char *buf, size_t n);
/* Show the unfinished last line and what was left out; free what @r holds but .last. */
void si_relay_end(struct seinstall_ctx *ctx, struct si_relay *r);

/* ---- files inside the target: opened and read (rootfs.c), written (rootfs-write.c) ------ */

/* Open @path (absolute or relative: both resolve inside the target root) with openat2 and
 * RESOLVE_IN_ROOT, so symlinks and ".." can never leave the target, and refuse the result
 * (-EXDEV) unless it lies on one of the target's own mounts (si_fd_on_own_mount()). Returns
 * an fd or -errno. */
int si_root_open(struct seinstall_ctx *ctx, const char *path, int flags, mode_t mode);
/* The one way to open a file of the target for reading: resolved as si_root_open() does,
 * non-blocking, and refused unless it is a regular file (-EISDIR, -EBADFD). With @follow false
 * a symlink as the last component is refused (-ELOOP): use that for every file seinstall
 * will replace. Returns an fd or -errno. */
int si_root_open_regular(struct seinstall_ctx *ctx, const char *path, bool follow);
/* The most a configuration text of the target (config, GRUB defaults, a BLS entry) may hold. */
#define SI_TEXT_FILE_MAX (1024 * 1024)
/* Read a regular file of the target, at most @max bytes. -ENOENT when it does not exist. */
int si_root_read_file(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                      size_t *ret_len);
/* The same for a file seinstall is about to replace: -ELOOP when it is a symlink. */
int si_root_read_replaced(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                          size_t *ret_len);
/* Every change seinstall makes in a target goes through the writes below (rootfs-write.c).
 * With SI_WRITE_DRY_RUN in @wflags each decides everything and returns what a real run would,
 * writing nothing, so a dry run reports exactly the changes a real run would make. The dry run
 * is a parameter, never state of the shared context: callers pass their own @wflags down. */
#define SI_WRITE_DRY_RUN (1u << 0)
/* The stages above that write (si_config_write(), si_bootcmd_apply(), si_autorelabel_schedule(),
 * si_firstboot_mark_write(), si_trial_start(), ...) take the same @wflags and hand them down. */
/* Create the directory @path and missing parents inside the target, mode @mode; each one
 * created is labeled (label.c). */
int si_root_mkdir_p(struct seinstall_ctx *ctx, const char *path, mode_t mode, unsigned wflags);
/* Replace @path inside the target atomically with @data: a temporary file in the same
 * directory, fsync, rename over the old one, fsync the directory. Keeps the old file's mode
 * and owner when it existed (else @mode); the temporary gets the label the target's file
 * contexts give @path (label.c), else the old file's label, else none. A symlink at @path is
 * replaced by the file, never followed. On failure the old file is untouched. Temporaries of
 * @path a killed run left (".#NAME.<16 hex digits>", regular files only) are removed first. */
int si_root_write_atomic(struct seinstall_ctx *ctx, const char *path, const void *data, size_t len,
                         mode_t mode, unsigned wflags);
/* Write the string @text as @path (0644) unless the file holds exactly that already (read as
 * si_root_read_replaced() reads it, at most @max bytes), making the directories on the way: 0
 * unchanged, 1 written, or a negative errno of the calls above. */
int si_root_write_if_changed(struct seinstall_ctx *ctx, const char *path, const char *text,
                             size_t max, unsigned wflags);
/* Remove @path inside the target; 0 when it did not exist. */
int si_root_unlink(struct seinstall_ctx *ctx, const char *path, unsigned wflags);
/* Make @path inside the target a symbolic link to @target (as given: resolved by whoever
 * follows it later, on the target's own system), labeled (label.c) before it takes its name.
 * The parent must exist. Returns 1 made (an old
 * link to elsewhere is replaced atomically), 0 already so, -EEXIST when a file or directory
 * has that name, -errno. A dry run writes nothing and returns what a real run would. */
int si_root_symlink(struct seinstall_ctx *ctx, const char *path, const char *target,
                    unsigned wflags);
/* Sorted target paths "@dir/NAME" of the entries of @dir whose name starts with @prefix and
 * ends with @suffix (either NULL: any), hidden ones skipped. A missing @dir gives none. On
 * failure *ret and *ret_n are left untouched. */
int si_root_list(struct seinstall_ctx *ctx, const char *dir, const char *prefix, const char *suffix,
                 char ***ret, size_t *ret_n);

/* ---- labels of what seinstall writes (label.c) ------------------------------------------ */
/* Every file, directory and link the writes above create or replace gets the label the
 * target's file contexts give its path; without file contexts in the target it is written
 * unlabeled. */
struct si_fcontext;
/* Label with @fc (borrowed until si_labels_reset(); NULL: write unlabeled) instead of the
 * target's file contexts loaded on demand: the install's, compiled once. */
int si_labels_use(struct seinstall_ctx *ctx, struct si_fcontext *fc);
/* Back to loading the target's file contexts when a write needs them. */
void si_labels_reset(struct seinstall_ctx *ctx);
/* Load the file contexts of policy @type (NULL: the target config's SELINUXTYPE, else
 * "default"), the type a write is about to make the target's. */
int si_labels_for_type(struct seinstall_ctx *ctx, const char *type);
void si_labels_free(struct seinstall_ctx *ctx);
/* Set the label of @path (in the target) of file type @mode (S_IFREG, S_IFDIR, S_IFLNK) on the
 * open file @fd, or on the entry @name of the directory @dfd without following it. 0 also when
 * there is nothing to set (no file contexts, <<none>>) or the mount keeps no per-file labels;
 * else -errno with a message. */
int si_label_fd(struct seinstall_ctx *ctx, int fd, const char *path, mode_t mode);
int si_label_at(struct seinstall_ctx *ctx, int dfd, const char *name, const char *path,
                mode_t mode);
/* The same for the file @path of the target, opened without following a symlink (a symlink or
 * a missing file: nothing to do); for files a program of the target wrote (grub.cfg). */
int si_label_path(struct seinstall_ctx *ctx, const char *path);

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
/* The Debian package that provides policy @type (static string; policy-build.c). */
const char *si_policy_package(const char *type);
/* What to install for the policy @type, for a message: "the package selinux-policy-default",
 * or, for a type no known package provides, a phrase naming Debian's packages. Never NULL. */
const char *si_policy_package_hint(const char *type);
/* The command that builds the policy of the tree @root from its modules: "semodule -B", or
 * "semodule -p ROOT -n -B" (quoted) elsewhere. NULL on ENOMEM. */
char *si_semodule_command(const char *root);
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
};

struct si_mount_list {
        struct si_mount *v;
        size_t n;
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
/* Classify @m under @policy (labeling, label) and judge it in @mode (verdict, reason, fix). */
int si_fscheck_mount(const struct si_policy *policy, enum seinstall_mode mode, struct si_mount *m);

/* The check stage (check.c): judge the mounts of the target (or the planned layout in
 * @plan_file) in the decided mode under @policy, which the caller loaded for d->policy. */
int si_check_run(struct seinstall_ctx *ctx, const struct si_decision *d,
                 const struct seinstall_settings *settings, const struct si_policy *policy,
                 const char *plan_file, struct seinstall_check **ret);

/* ---- the relabel stage (relabel.c) ------------------------------------------------------ */

struct si_fcontext;

/* What a relabel runs on, prepared by its caller (seinstall_relabel(), or the install pipeline
 * which has them already): nothing here is read again. */
/* A label that differs from what the file contexts give: @actual (NULL: none), @expected, and
 * whether it was written. Called with the walk's lock held, from any walking thread. */
typedef int (*si_relabel_mismatch_fn)(void *data, const char *path, const char *actual,
                                      const char *expected, bool fixed);

struct si_relabel_input {
        const char *type;                    /* the policy type */
        const char *file_contexts;           /* a host file used instead of the target's, or NULL */
        struct si_fcontext *fc;              /* compiled, validated (si_relabel_validate) */
        const struct seinstall_check *check; /* which mounts to label; NULL: by fs type */
        si_relabel_mismatch_fn mismatch;     /* told of each label that differed, or NULL */
        void *mismatch_data;
};
/* Mark the contexts of @fc the target's policy @policy (loaded for @type) does not define;
 * -ENOPKG when @policy is not the target's own (labels checked against another prove nothing). */
int si_relabel_validate(struct seinstall_ctx *ctx, const struct si_policy *policy, const char *type,
                        struct si_fcontext *fc);
/* The files a boot cannot do without (init, the shells, the dynamic loader, the account
 * databases, the SELinux config), as paths inside the target, some absent on a given system:
 * a relabel checks them after its walk, a trial before it enforces. */
extern const char *const si_boot_files[];
extern const size_t si_boot_files_n;
/* seinstall_relabel() on prepared input (same flags, result and errors). */
int si_relabel_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                   unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                   struct seinstall_relabel_result **ret_result);
/* The same on just the entries @paths names (absolute, inside the target), each labeled as the
 * walk labels it, nothing below a directory; an entry that is gone, behind a symbolic link or
 * not a plain path is an error, one on a mount the walk would skip is listed as skipped. */
int si_relabel_run_paths(struct seinstall_ctx *ctx, const struct si_relabel_input *in,
                         const char *const *paths, size_t n, unsigned flags,
                         struct seinstall_relabel_result **ret_result);

/* ---- AVC denials (avc.c) ---------------------------------------------------------------- */

struct si_fcontext;

enum si_avc_kind {
        SI_AVC_DENIAL, /* an "avc:  denied" record (kernel, auditd, or a USER_AVC's msg='') */
        SI_AVC_PATH,   /* auditd PATH record: name= in path, inode= in ino */
        SI_AVC_CWD,    /* auditd CWD record: cwd */
};
/* One record of a kernel or audit log line, strings decoded (hex-encoded untrusted strings
 * turned back into bytes). Absent fields are NULL; permissive is -1 when not logged. */
struct si_avc {
        enum si_avc_kind kind;
        char *stamp; /* "SECONDS.MILLIS:SERIAL" of audit(...), or NULL */
        char *perms; /* "read write open" */
        char *comm, *name, *path, *dev, *scontext, *tcontext, *tclass, *cwd;
        unsigned long long ino;
        bool has_ino;
        unsigned long pid;
        int permissive;
};
/* Parse one line: 1 and *ret filled (free with si_avc_done()), 0 when the line is not a
 * denial, PATH or CWD record (granted, other records, other messages), -ENOMEM. */
int si_avc_parse_line(const char *line, size_t len, struct si_avc *ret);
void si_avc_done(struct si_avc *a);
/* Classify every denial of the log text @text into @rep against the file contexts @fc (NULL:
 * only unlabeled types count as labels). Records stamped before @since (seconds; 0: all) are
 * skipped; @live lets a name= denial be found on this system by device and inode. */
struct seinstall_avc_report;
int si_avc_classify_text(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *text,
                         size_t len, unsigned long long since, bool live,
                         struct seinstall_avc_report *rep);
/* An empty report of the log @source (free with seinstall_avc_report_free()), or NULL. */
struct seinstall_avc_report *si_avc_report_new(const char *source);

/* ---- the verify stage (verify.c) -------------------------------------------------------- */

/* seinstall_verify() on prepared input (its mismatch function is verify's own). */
int si_verify_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                  unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                  struct seinstall_verify_result **ret_result);

/* ---- /etc/selinux/config (config.c) ------------------------------------------------------ */

#define SI_CONFIG_PATH "/etc/selinux/config"

struct si_config {
        bool present;             /* the file exists */
        enum seinstall_mode mode; /* SELINUX=, SEINSTALL_MODE_INVALID when missing/unknown */
        char *type;               /* SELINUXTYPE=, NULL when missing */
};
void si_config_done(struct si_config *c);
/* Parse a config's text. Never fails on content (unknown values read as missing). */
int si_config_parse(const char *text, size_t len, struct si_config *ret);
/* Read the target's config; a missing file gives present=false and returns 0. */
int si_config_read(struct seinstall_ctx *ctx, struct si_config *ret);
/* The target's SELINUXTYPE, else "default": a new string. */
int si_config_policy_type(struct seinstall_ctx *ctx, char **ret);
/* The text of @old (NULL: a new file) with exactly one SELINUX=@mode and one SELINUXTYPE=@type,
 * everything else kept in order. */
int si_config_render(const char *old, size_t len, enum seinstall_mode mode, const char *type,
                     char **ret);
/* Write the config when it differs. Returns 1 written (what changed appended to @what), 0
 * already right, -errno. */
int si_config_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *type,
                    unsigned wflags, struct sbuf *what);

/* ---- kernel config (kconfig.c) ----------------------------------------------------------- */

struct si_kconfig {
        enum seinstall_kernel_case kcase;
        bool bootparam; /* CONFIG_SECURITY_SELINUX_BOOTPARAM=y (selinux=0 works) */
        char *file;     /* the /boot/config-* decided on (target path), or NULL */
};
void si_kconfig_done(struct si_kconfig *k);
/* The case one kernel config text describes. */
enum seinstall_kernel_case si_kconfig_case_of(const char *text, size_t len, bool *ret_bootparam);
/* Whether selinux comes before every other exclusive LSM (apparmor, smack) in a comma list. */
bool si_lsm_list_selinux_first(const char *list);
/* Read every /boot/config-* of the target: one case when they agree, UNKNOWN otherwise. */
int si_kconfig_read(struct seinstall_ctx *ctx, struct si_kconfig *ret);

/* ---- boot loaders: which forms a target has, their files (bootloader.c) ---------------- */

struct si_cmdline_goal; /* cmdline.h */
/* Edit every boot loader form @bl selects (AUTO: every one present). Each edited file is
 * reported through @report; @ret_found gets a bit (1 << SEINSTALL_BOOTLOADER_x) per form
 * found. */
typedef int (*si_report_fn)(void *userdata, const char *file, const char *what);
int si_bootcmd_apply(struct seinstall_ctx *ctx, enum seinstall_bootloader bl,
                     const struct si_cmdline_goal *goal, unsigned wflags, si_report_fn report,
                     void *userdata, unsigned *ret_found, bool *ret_grub_changed);
/* The command line of the target's boot loader as the kernel would see it: the first form
 * found of GRUB, /etc/kernel/cmdline, BLS (first entry). *ret NULL and NONE when none. */
int si_bootcmd_read(struct seinstall_ctx *ctx, char **ret, enum seinstall_bootloader *ret_bl);

/* ---- the relabel mark (autorelabel.c) and the first-boot mark (firstbootmark.c) -------- */

/* Whether a relabel is scheduled in the target. */
bool si_autorelabel_pending(struct seinstall_ctx *ctx);
/* Write "-F" into /.autorelabel, or /etc/selinux/.autorelabel on a read-only root. Returns 1
 * written, 0 already there, -errno; *ret_path names the file used (static). */
int si_autorelabel_schedule(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path);

struct si_firstboot_mark {
        bool present;
        enum seinstall_mode mode; /* INVALID for mode=trial */
        bool trial;               /* mode=trial */
        bool relabel;
};
int si_firstboot_mark_read(struct seinstall_ctx *ctx, struct si_firstboot_mark *ret);
/* 1 written, 0 already so, -errno. */
int si_firstboot_mark_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, bool trial,
                            const char *policy, bool relabel, unsigned wflags);

/* ---- the configure stage (apply.c) ------------------------------------------------------ */

/* seinstall_apply() (arguments checked by the caller) with the target's config @config
 * already read: the install pipeline reads it once, in its plan stage. */
int si_apply_run(struct seinstall_ctx *ctx, const struct si_config *config,
                 enum seinstall_mode mode, const char *policy_type,
                 enum seinstall_bootloader bootloader, unsigned flags,
                 struct seinstall_apply_result **ret_result);

/* ---- profiles and boot options (profile.c, bootopts.c) ---------------------------------- */

/* Parse a kickstart text (@name for messages) into @s as source "profile". */
int si_profile_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                     struct seinstall_settings *s);
/* seinstall_profile_plan() of a kickstart text (@text/@len, NULL to read @path). */
int si_ks_plan(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
               const char *default_fstype, unsigned flags, char **ret);
/* Parse a kernel command line text into @s as source "boot"; *ret_profile as in
 * seinstall_settings_load_boot_options(). */
int si_bootopts_parse(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct seinstall_settings *s, char **ret_profile);

/* ---- building the policy from its modules (policy-build.c) ------------------------------ */

/* Whether etc/selinux/@type/policy/policy.N exists in the target. */
bool si_policy_built(struct seinstall_ctx *ctx, const char *type);
/* Build the policy @type from the modules installed in the target (/var/lib/selinux/TYPE) with
 * libsemanage, as `semodule -p ROOT -n -B`. 0 already built, 1 built, -ENOPKG no modules
 * either (message names the package), -ENOTDIR a symlinked policy directory, -EIO. */
int si_policy_build(struct seinstall_ctx *ctx, const char *type);

/* ---- the trial mode (trial.c) --------------------------------------------------------- */

/* One file a label denial named (or a boot-critical file found mislabeled), and the command
 * that fixes it (may be NULL). */
struct si_trial_file {
        const char *path;
        const char *fix;
};
/* What a boot showed: the classified denials (avc.c) the decision rests on. */
struct si_trial_evidence {
        unsigned long long denials;       /* every denial read */
        unsigned long long label_denials; /* of those, caused by a label */
        unsigned long long mislabeled;    /* boot-critical files whose label is wrong now */
        const struct si_trial_file *files;
        size_t n_files;
        const char *log; /* the log read */
};
/* The decision, without I/O: a pending @cur with @ev, at @now, gives the new state in *ret
 * (enforced when no denial was caused by a label and no boot-critical file is mislabeled, else
 * kept-permissive with the files) and 1;
 * any other @cur decides nothing: 0 and *ret NULL. */
int si_trial_decide_from(const struct seinstall_trial *cur, const struct si_trial_evidence *ev,
                         const char *now, struct seinstall_trial **ret);
/* A new, empty state; a file appended to one (listed once, at most 100). */
int si_trial_new(enum seinstall_trial_state state, struct seinstall_trial **ret);
int si_trial_add_path(struct seinstall_trial *t, const char *path, const char *fix);
/* The state file's text of @t, and back (@name, the file, for messages; -EBADMSG). */
int si_trial_render(const struct seinstall_trial *t, char **ret);
int si_trial_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                   struct seinstall_trial **ret);
/* seinstall_trial_read(), but a state file that cannot be read or parsed gives state NONE with
 * the reason in the "error" field (status shows the rest of the state anyway). */
int si_trial_read_for_status(struct seinstall_ctx *ctx, struct seinstall_trial **ret);
/* Record a pending trial for @policy: 1 written, 0 already pending for it, -errno. */
int si_trial_start(struct seinstall_ctx *ctx, const char *policy, unsigned wflags);
/* A pending trial ends as "cancelled" (a mode chosen by hand): 1 written, 0 none pending. */
int si_trial_cancel(struct seinstall_ctx *ctx, unsigned wflags);
/* Enable seinstall-trial.service in the target (its multi-user.target.wants link); 1 made,
 * 0 already, -errno; *ret_path names the link. */
int si_trial_enable_unit(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path);
/* Whether the unit file is installed in the target (/etc, /usr/lib or /lib systemd/system). */
bool si_trial_unit_installed(struct seinstall_ctx *ctx);

#endif
