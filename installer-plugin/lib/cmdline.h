/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmdline.h — the kernel command line: its arguments (cmdline-args.c) and the boot loader files
 * that hold it (cmdline-files.c). Not installed. */
#ifndef SEINSTALL_CMDLINE_H
#define SEINSTALL_CMDLINE_H

#include "seinstall-private.h"

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
/* Every BLS entry of the target (target paths), in its directories' order, sorted by name. */
int si_bls_entries(struct seinstall_ctx *ctx, char ***ret, size_t *ret_n);

/* What a command line must say for @mode on a kernel of case @kcase; SEINSTALL_MODE_TRIAL: what
 * suits both the trial's permissive boot and the enforcing ones after it (no enforcing=). */
struct si_cmdline_goal {
        enum seinstall_mode mode;
        enum seinstall_kernel_case kcase;
};
/* Remove and fix arguments of one part of a command line (@text, @len), given @all (every
 * part of the same command line joined) for context. Appends "removed X; " style notes to
 * @what. Returns 0 and the new text in *ret. */
int si_cmdline_fix(const char *text, size_t len, const char *all,
                   const struct si_cmdline_goal *goal, char **ret, struct sbuf *what);
/* Whether @text (@len bytes) has an even number of '"': the kernel's next_arg() reads each one as
 * opening or closing a quoted stretch, so after an odd one the rest of the line, and whatever
 * is added to it, is a single argument. The editors refuse such a command line (-EBADMSG). */
bool si_cmdline_quotes_balanced(const char *text, size_t len);
/* Whether every SELinux argument of @text (selinux=, enforcing=, security=, lsm=, before a
 * bare "--") is plain: its value keeps no '"' after the kernel has removed its quotes.
 * lsm=""n is not: no rewrite of it could say what the kernel reads (found by fuzz-grub). */
bool si_cmdline_selinux_args_plain(const char *text, size_t len);
/* The arguments (space separated, "" when none) that @all lacks for @goal. */
int si_cmdline_missing(const char *all, const struct si_cmdline_goal *goal, char **ret);
/* Value of the last argument @name in @cmdline ("" without "="), quotes removed as the
 * kernel removes them, NULL when absent; arguments after a bare "--" (init's) do not count.
 * The result is allocated. */
char *si_cmdline_get(const char *cmdline, const char *name);
/* The last valid numeric value of @name= before any bare "--", as the kernel reads it
 * (kstrtoul base 0): 0, 1 for any non-zero number, -1 when absent or never a number. */
int si_cmdline_get_num(const char *cmdline, const char *name);
/* kstrtoul(@v, 0, ...) of the kernel: 0 and *ret, -EINVAL, -ERANGE. */
int si_kernel_ulong(const char *v, size_t n, unsigned long *ret);
/* The mode a kernel of @kcase boots in with @cmdline, given the config's @config_mode. */
enum seinstall_mode si_cmdline_boot_mode(const char *cmdline, enum seinstall_kernel_case kcase,
                                         bool bootparam, enum seinstall_mode config_mode);

/* Edit the GRUB defaults text @old so the command line meets @goal. Returns 0 and the new text
 * (NULL when nothing changes) in *ret; -EBADMSG (with *ret_line set) for an assignment it cannot
 * edit safely. @add: arguments to append to the last GRUB_CMDLINE_LINUX (a new line when there
 * is none), or NULL. */
int si_grub_edit(const char *old, size_t len, const struct si_cmdline_goal *goal, const char *all,
                 const char *add, char **ret, unsigned *ret_line, struct sbuf *what);
/* Whether a GRUB defaults text assigns GRUB_CMDLINE_LINUX. */
bool si_grub_has_cmdline_linux(const char *text, size_t len);
/* The GRUB_CMDLINE_LINUX and _DEFAULT values of a GRUB defaults text, joined by a space;
 * -EBADMSG with *ret_line (may be NULL) as si_grub_edit(). */
int si_grub_cmdline(const char *text, size_t len, struct sbuf *out, unsigned *ret_line);
/* The same for a BLS entry (its options lines) and /etc/kernel/cmdline. -EBADMSG for a command
 * line an edit cannot keep the meaning of (an odd '"', or a SELinux argument whose value keeps
 * a '"'), with *ret_line (may be NULL) the BLS options line, 0 for /etc/kernel/cmdline (the
 * file is one command line). */
int si_bls_edit(const char *old, size_t len, const struct si_cmdline_goal *goal, char **ret,
                unsigned *ret_line, struct sbuf *what);
int si_bls_cmdline(const char *text, size_t len, struct sbuf *out);
int si_kernel_cmdline_edit(const char *old, size_t len, const struct si_cmdline_goal *goal,
                           char **ret, unsigned *ret_line, struct sbuf *what);

/* Shared by cmdline-args.c and cmdline-files.c. */
/* A blank between arguments: space, tab, newline or carriage return. */
static inline bool si_cmdline_blank(char c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
/* Offset of the bare "--" (init's arguments follow) in [s, s + n), or SIZE_MAX. */
size_t si_cmdline_find_dashes(const char *s, size_t n);
/* Append "; " (unless @what is empty) and @fmt with (int) @an, @a, @b ("" for NULL) to @what;
 * nothing when @what is NULL. */
int si_cmdline_note(struct sbuf *what, const char *fmt, const char *a, size_t an, const char *b);

#endif
