/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kickstart-internal.h — private interface between the parts of the kickstart reader (kickstart.h
 * is its interface to the rest of the library): the state of one read, the files and lines it
 * walks, and the calls the state machine (kickstart-lex.c) makes into kickstart-text.c,
 * kickstart-file.c and kickstart-path.c; and between the parts of the layout a kickstart plans
 * (si_ks_plan() in profile.h): the storage commands (kickstart-storage.c) over their options
 * (kickstart-storage-opts.c) and the layout they claim mount points in
 * (kickstart-storage-layout.c). */
#ifndef SEINSTALL_KICKSTART_INTERNAL_H
#define SEINSTALL_KICKSTART_INTERNAL_H

#include <sys/types.h>

#include "kickstart.h"

#define KS_FILE_MAX (4 * 1024 * 1024)
/* pykickstart has no limit of its own: Python's recursion limit stops it near 240 levels */
#define KS_DEPTH_MAX 200
#define KS_WORDS_MAX 65536
/* The budget of one read: files opened (the main file, each %ksappend and each %include, the
 * same file counted each time it is opened, a missing one too) and bytes read in all. The depth
 * and cycle checks bound only the chain open at once: 32 files each including the next twice
 * are 2^31 inclusions. A real kickstart opens a handful of files (Anaconda's %pre writes one or
 * two, /tmp/part-include) of a few KiB; the largest ones, with long %packages lists or
 * certificates, stay well under a MiB. 256 files and 16 MiB are far beyond that, and bound what
 * a hostile profile costs to reading 16 MiB once, with about that much text held (lines are
 * cut one at a time). */
#define KS_READ_FILES_MAX 256
#define KS_READ_BYTES_MAX (16 * 1024 * 1024)

struct ks_line {
        const char *s;
        size_t len; /* with its line break; 0 only for the end-of-file marker */
        struct si_ks_origin at;
};

/* A run of a file's text that came from one file, from its line @first_line on. */
struct ks_segment {
        size_t start;
        const char *file;
        unsigned first_line;
};

/* A file of the read, its lines cut one at a time as the walk asks for them: what a read holds is
 * its text, whatever the number of lines. */
struct ks_file {
        const char *path; /* kept in the reader's names */
        char *text;
        size_t len;
        struct ks_segment *seg; /* the main file's, after %ksappend; NULL: all of it is @path's */
        size_t nseg;
        size_t pos;         /* where the next line starts */
        size_t si;          /* the segment of @cur */
        unsigned c;         /* @cur is line first_line + c of its segment */
        struct ks_line cur; /* the line si_ks_next_line() returned last */
        bool putback, ended;
        dev_t dev;
        ino_t ino;
        struct ks_file *parent;
        struct si_ks_origin from; /* the %include line in the parent */
};

struct ks_reader {
        struct seinstall_ctx *ctx;
        const struct si_ks_ops *ops;
        void *userdata;
        const char *state; /* NULL: commands; else the open section */
        struct si_ks_origin section_at;
        unsigned depth;
        unsigned files; /* opened so far, against KS_READ_FILES_MAX */
        size_t bytes;   /* read so far, against KS_READ_BYTES_MAX */
        char *currentdir[KS_DEPTH_MAX + 2];
        char **names; /* every file name an origin points at, freed at the end */
        size_t nnames, cap_names;
};

/* kickstart-file.c: keep @name (taken over) alive for the whole read; NULL on ENOMEM. */
const char *si_ks_keep_name(struct ks_reader *r, char *name);

/* kickstart-text.c: the end of the whitespace-separated word at @p; the end of the line at @p, its
 * break included; -EBADMSG naming the line for text that is not UTF-8 or holds a NUL byte. */
const char *si_py_word_end(const char *p, const char *end);
const char *si_py_line_end(const char *p, const char *end);
int si_ks_check_text(struct seinstall_ctx *ctx, const char *file, const char *text, size_t len);

/* kickstart-file.c: read a host file as a regular file (at most KS_FILE_MAX bytes) and the reason
 * of its error for a message. */
struct stat;
int si_ks_read_regular(const char *path, char **ret, size_t *ret_len, struct stat *ret_st);
const char *si_ks_read_error(int r);
/* kickstart-file.c: read the file @path that the line @at (@directive: "%include" or
 * "%ksappend") names within the budget of the read @r, counted as one more file even when it
 * cannot be read. -EBADMSG, reported naming @at and the limit, when the budget is spent; else the
 * file's own errors for the caller to report (-ENOENT, -EFBIG past KS_FILE_MAX). */
int si_ks_read_budgeted(struct ks_reader *r, const struct si_ks_origin *at, const char *directive,
                        const char *path, char **ret, size_t *ret_len, struct stat *ret_st);
/* kickstart-file.c: the next line of @f as str.splitlines(True) cuts it (then an end marker of
 * length 0, then NULL), or the line returned last again when @f->putback is set; merge the
 * %ksappend files into the main file @f. */
const struct ks_line *si_ks_next_line(struct ks_file *f);
int si_ks_preprocess(struct ks_reader *r, struct ks_file *f);

/* kickstart-path.c: the directory of @path made absolute (os.path.abspath(os.path.dirname())), or
 * NULL on ENOMEM; the path an %include of @arg opens, which sets the directory its own includes are
 * looked up in. */
char *si_ks_dir_abs(const char *path);
int si_ks_resolve(struct ks_reader *r, const char *arg, char **ret);

/* kickstart-path.c: os.path.normpath() of a mount point starting with "/" (POSIX: "//x" keeps
 * both slashes, three or more become one); other mount points ("swap", "pv.01") unchanged. NULL
 * on ENOMEM. */
char *si_py_normpath(const char *p);

/* ---- the layout a kickstart plans ---------------------------------------------------------- */

/* What an option sets; KS_OPT_NONE: pykickstart takes it, the layout does not depend on it. */
enum ks_opt_dest {
        KS_OPT_NONE = 0,
        KS_OPT_FSTYPE,
        KS_OPT_ONPART,
        KS_OPT_NOFORMAT,
        KS_OPT_USEEXISTING,
        KS_OPT_FSOPTS,
        KS_OPT_NAME,
        KS_OPT_VGNAME,
        KS_OPT_DEVICE,
        KS_OPT_LEVEL,
        KS_OPT_SUBVOL,
        KS_OPT_TYPE,
        KS_OPT_NOLVM,
        KS_OPT_NOBOOT,
        KS_OPT_ADDBOOT,
        KS_OPT_THINPOOL,
        KS_OPT_SIZE,
        KS_OPT_PERCENT,
        KS_OPT_RECOMMENDED,
        KS_OPT_HIBERNATION,
        _KS_OPT_MAX,
};

/* Anaconda's order of execution (CustomPartitioning._configure_partitioning()). */
enum ks_rank {
        KS_RANK_REQPART,
        KS_RANK_AUTOPART,
        KS_RANK_PART,
        KS_RANK_RAID,
        KS_RANK_LOGVOL,
        KS_RANK_BTRFS
};

/* One line of a command, as argparse leaves it. */
struct ks_args {
        const char *val[_KS_OPT_MAX];
        bool flag[_KS_OPT_MAX];
        char **pos; /* positional words, in order */
        size_t n_pos;
};

/* The layout a kickstart plans: the mounts its commands claim, in the order they claim them. */
struct ks_layout {
        struct seinstall_ctx *ctx;
        const char *default_fstype;
        unsigned flags;
        struct ks_entry *v;
        size_t n, cap;
};

/* kickstart-storage-opts.c: the storage commands as argparse reads them (their name in messages
 * and their options); argparse over @argv[1..] of one line of @c into *@ret, with pykickstart's
 * messages naming @o (-EBADMSG); si_ks_args_done() frees what it holds. */
struct ks_command;
extern const struct ks_command si_ks_part_cmd, si_ks_logvol_cmd, si_ks_raid_cmd, si_ks_btrfs_cmd,
    si_ks_autopart_cmd, si_ks_reqpart_cmd;
int si_ks_storage_args(struct seinstall_ctx *ctx, const struct ks_command *c,
                       const struct si_ks_origin *o, char **argv, size_t argc, struct ks_args *ret);
void si_ks_args_done(struct ks_args *a);

/* kickstart-storage-layout.c: claim @mountpoint in @l for the command line @argv of @o, on
 * @fstype (NULL: probed from @source, an existing device, which is left out with a warning when
 * it is not here); claim one for a single-object command (autopart, reqpart) whose line @text
 * (si_ks_command_text()) says where; write @l out as an fstab-format plan (*@ret, the number of
 * mounts returned) after sorting it; free what @l holds. */
int si_ks_layout_add(struct ks_layout *l, enum ks_rank rank, const struct si_ks_origin *o,
                     char **argv, size_t argc, const char *source, const char *mountpoint,
                     const char *fstype, const char *options);
int si_ks_layout_add_implicit(struct ks_layout *l, enum ks_rank rank, const char *text,
                              const char *mp, const char *fstype, const char *options);
int si_ks_layout_render(struct ks_layout *l, const char *path, char **ret);
void si_ks_layout_done(struct ks_layout *l);
/* kickstart-storage-layout.c: "FILE:LINE: the command" as a comment line of the plan (NULL on
 * ENOMEM); the file system /boot gets when @def is the default (the boot loader's choice). */
char *si_ks_command_text(const struct si_ks_origin *o, char **argv, size_t argc);
const char *si_ks_boot_fstype(const char *def);

#endif
