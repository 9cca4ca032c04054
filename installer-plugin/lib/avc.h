/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* avc.h — private interface between the parts of `seinstall avc`: the group a denial is
 * explained into (avc-classify.c), the report that gathers the groups (avc-report.c), and the
 * search for a file logged by device and inode (avc-locate.c). */
#ifndef SEINSTALL_AVC_H
#define SEINSTALL_AVC_H

#include "seinstall-private.h"

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
struct seinstall_avc_result;
int si_avc_classify_text(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *text,
                         size_t len, unsigned long long since, bool live,
                         struct seinstall_avc_result *rep);
/* An empty report of the log @source (free with seinstall_avc_result_unref()), or NULL. */
struct seinstall_avc_result *si_avc_report_new(const char *source);

/* One explained denial, or a group of like ones in a report. */
struct si_avc_group {
        enum seinstall_avc_cause cause;
        char *domain, *type, *tclass, *perms, *scontext, *tcontext;
        char *path, *name, *comm, *expected, *fix;
        bool permissive;
        unsigned count;
};
void si_avc_group_done(struct si_avc_group *g);

/* Count denial @a in @rep and add its explanation @g (taken over, emptied; NULL: counted only)
 * to the group of like denials, or as a new group. 0 or -ENOMEM. */
int si_avc_report_add(struct seinstall_avc_result *rep, const struct si_avc *a,
                      struct si_avc_group *g);

/* What the dev/ino searches of one log may cost in all: entries read plus directory components
 * opened. Beyond it denials are counted as skipped, not searched. */
#define SI_AVC_SEARCH_BUDGET 1000000u

/* The searches of one log (avc-locate.c): each filesystem the log names is walked once, within
 * one budget, into an index of inode and name. */
struct si_avc_locator;
struct si_avc_locator *si_avc_locator_new(size_t budget);
void si_avc_locator_free(struct si_avc_locator *l);
/* Denials whose file the budget left unsearched; the budget left. */
size_t si_avc_locator_skipped(const struct si_avc_locator *l);
size_t si_avc_locator_budget(const struct si_avc_locator *l);
/* The path of @name with inode @ino on the filesystem the kernel calls @dev: 1 and *ret, 0
 * (not there, or no such filesystem), -EAGAIN when the budget left it unsearched (counted), or
 * -ENOMEM. */
int si_avc_locate(struct si_avc_locator *l, const char *dev, const char *name, uint64_t ino,
                  char **ret);
/* As si_avc_locate() on the filesystem mounted at @top, registered by add_top (for tests). */
int si_avc_locator_add_top(struct si_avc_locator *l, const char *top, size_t *ret);
int si_avc_locate_in(struct si_avc_locator *l, size_t fs, const char *name, uint64_t ino,
                     char **ret);

/* Set the number of denials whose file was not searched for. */
void si_avc_report_set_skipped(struct seinstall_avc_result *rep, size_t n);

#endif
