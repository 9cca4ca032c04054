/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seinstall-private.h — the library's shared core, which every file includes: the context
 * (ctx.c), logging and the last error (log.c), the names of values (names.c), and access to the
 * target's files (rootfs.c, rootfs-write.c, label.c, mount-boundary.c). Each stage and engine
 * declares its calls in a header of its own (settings.h, policy.h, check-stage.h, relabel.h,
 * trial.h, ...). Not installed. */
#ifndef SEINSTALL_PRIVATE_H
#define SEINSTALL_PRIVATE_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "refcount.h"
#include "seinstall-internal.h"
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
        /* references beyond the maker's: 0 as made (calloc; refcount.h) */
        unsigned extra_refs;
        char *root;  /* normalised path as given */
        int root_fd; /* O_PATH|O_DIRECTORY fd of the root */
        seinstall_log_fn log_fn;
        void *log_data;
        int log_priority;
        char *last_error;
        char *last_error_command; /* the command last_error ends with, or NULL */
        char *cause; /* a lower layer's explanation of cause_err, until the next si_error() */
        int cause_err;
        struct si_counters counters;
        struct si_mountset *mounts; /* the target's own mounts (mount-boundary.c) */
        struct si_labels *labels;   /* the labels of what seinstall writes (label.c) */
        void (*labels_free)(struct seinstall_ctx *ctx); /* label.c's, called by ctx.c */
        struct si_undo *undo; /* while a stage's writes can be rolled back (rootfs-undo.c) */
        const volatile sig_atomic_t *interrupt; /* non-zero: stop (seinstall_set_interrupt()) */
        unsigned sandbox_timeout_s; /* 0: the default (seinstall_set_sandbox_timeout()) */
        size_t links_max;           /* 0: the default (seinstall_set_links_max()) */
        bool translate; /* messages in the locale's language (seinstall_set_translate()) */
};

/* Whether the caller asked the running operation to stop (a signal it caught). */
static inline bool si_interrupted(const struct seinstall_ctx *ctx)
{
        return ctx->interrupt && *ctx->interrupt;
}

/* ---- logging and the last error (log.c) ---- */
/* The text domain of the library's messages (po/libseinstall/LANG.po): si_log(), si_error() and
 * the other calls below translate their format through it when the context says so, and the
 * words composed elsewhere go through si_tr() (xgettext finds all of them: make pot). */
#define SI_TEXT_DOMAIN "libseinstall"
/* Marks a word for the template where it is defined; si_tr() translates it where it is used. */
#define N_(s) s
/* @msgid in the language of the process's locale (LC_MESSAGES) when @ctx asks for it
 * (seinstall_set_translate()), else @msgid itself: English. */
const char *si_tr(const struct seinstall_ctx *ctx, const char *msgid)
    __attribute__((format_arg(2)));
/* si_tr() with the plural form for @n: @one or @many in English. */
const char *si_ntr(const struct seinstall_ctx *ctx, const char *one, const char *many,
                   unsigned long n) __attribute__((format_arg(2))) __attribute__((format_arg(3)));
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
/* si_error() for a lower layer whose caller words the message (label.c under rootfs-write.c):
 * the text is also kept as the cause of @err, which the caller's si_strerror() returns. */
int si_error_cause(struct seinstall_ctx *ctx, int err, const char *fmt, ...) _printf_(3, 4);
/* The reason to put after "writing FILE: " for @r: the cause a lower layer gave for this very
 * error, else si_file_strerror(@r). Valid until the next si_error(), which consumes the cause. */
const char *si_strerror(struct seinstall_ctx *ctx, int r);
#define si_warn(ctx, ...)  si_log(ctx, SEINSTALL_LOG_WARNING, __VA_ARGS__)
#define si_info(ctx, ...)  si_log(ctx, SEINSTALL_LOG_INFO, __VA_ARGS__)
#define si_debug(ctx, ...) si_log(ctx, SEINSTALL_LOG_DEBUG, __VA_ARGS__)

/* ---- names (names.c) ---------------------------------------------------------------- */
/* A policy type is a plain directory name under /etc/selinux: letters, digits, ".", "_" and "-",
 * not starting with "." or "-", shorter than 256 bytes (no "/", blank, quote or control). */
bool si_policy_type_valid(const char *type);

struct libmnt_table;
/* ---- a mountinfo file, read (mountinfo.c) ---------------------------------------------------- */

/* One line of a mountinfo file, its strings unescaped; they live as long as the table. */
struct si_mountinfo_entry {
        uint64_t id, parent; /* mount IDs */
        dev_t dev;
        const char *root;   /* the mount's root within its filesystem */
        const char *point;  /* the mount point, as the reading process sees it */
        const char *fstype; /* "ext4", "cgroup2" */
        const char *source; /* "/dev/vda1", "none"; "" when the line has none */
        const char *super;  /* the superblock's options, "" when none */
};
struct si_mountinfo {
        struct libmnt_table *tb;
        struct si_mountinfo_entry *v;
        size_t n;
};
/* Read the mountinfo file @path (libmount's parser; a line it cannot parse is left out).
 * -ENOMEM, -EIO when it cannot be read. */
int si_mountinfo_read(const char *path, struct si_mountinfo *ret);
void si_mountinfo_done(struct si_mountinfo *mi);

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
/* One of the target's own mounts (si_mounts_own_list()). */
struct si_own_mount {
        char *rel;   /* its mount point inside the target: "/" for the mount holding the root */
        uint64_t id; /* mount ID */
        dev_t dev;   /* st_dev of its filesystem */
        bool whole;  /* its filesystem holds nothing outside the target: the root of the
                      * filesystem mounted (not a directory of it, not a btrfs subvolume), and
                      * not above the target's root */
        char *fstype;
};
/* The target's own mounts, sorted by mount point (a mount before those below it). Stacked
 * mounts on one point are all listed: the caller keeps the one a path resolves to. */
int si_mounts_own_list(struct seinstall_ctx *ctx, struct si_own_mount **ret, size_t *ret_n);
void si_own_mounts_free(struct si_own_mount *v, size_t n);
/* The mount points of the mounts whose parent is mount @parent_id and that lie below the root,
 * as paths inside the target ("/dev"), sorted; one below another listed, or stacked on the
 * same point, is left out (walking the other covers it). */
int si_mounts_on(struct seinstall_ctx *ctx, uint64_t parent_id, char ***ret, size_t *ret_n);

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
/* All or nothing for a stage's writes (rootfs-undo.c). Between si_undo_begin() and
 * si_undo_end() or si_undo_rollback(), every writer above notes what a path held before its
 * first change; si_undo_rollback() puts each back (the last first), removes the directories
 * made, ends the journal and returns 0, -ENOTRECOVERABLE when a change could not be noted,
 * or the first error of a restore (*ret_failed: that path, to free). */
struct si_undo;
int si_undo_begin(struct seinstall_ctx *ctx);
void si_undo_end(struct seinstall_ctx *ctx);
int si_undo_rollback(struct seinstall_ctx *ctx, char **ret_failed);
/* For the writers: note @path before changing it (0 without a journal); a directory made. */
int si_undo_note(struct seinstall_ctx *ctx, const char *path);
void si_undo_made_dir(struct seinstall_ctx *ctx, const char *path);
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

#endif
