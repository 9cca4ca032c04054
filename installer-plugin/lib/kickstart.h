/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kickstart.h — the kickstart reader (kickstart-lex.c, with kickstart-text.c, kickstart-shlex.c,
 * kickstart-file.c, kickstart-path.c): pykickstart's walk over a kickstart file and its %ksappend
 * and %include files, as calls into a caller that gives the commands a meaning. */
#ifndef SEINSTALL_KICKSTART_H
#define SEINSTALL_KICKSTART_H

#include <stdbool.h>
#include <stdint.h>

#include "seinstall-private.h"

/* Where a line came from: the file that holds it (an included or appended file's own name, as
 * the %include line spelled it after pykickstart's path lookup) and its line there. */
struct si_ks_origin {
        const char *file;
        unsigned line;
};

/* Record "FILE:LINE: message" as the context's error and return -EBADMSG (-ENOMEM when the
 * message cannot be made): the one way a kickstart error names where it is. */
int si_ks_error(struct seinstall_ctx *ctx, const struct si_ks_origin *o, const char *fmt, ...)
    _printf_(3, 4);

/* Python's str.lstrip() and the end of str.rstrip() on UTF-8 text (Unicode whitespace). */
const char *si_py_lstrip(const char *p, const char *end);
const char *si_py_rstrip_end(const char *p, const char *end);
/* Whether @s is valid UTF-8 as Python's strict decoder sees it; else the first bad byte's
 * offset in *ret_bad. */
bool si_text_utf8(const char *s, size_t len, size_t *ret_bad);

/* argparse's long option lookup (kickstart-argparse.c): among @count names, the i-th at
 * @names + i * @stride bytes (an array of strings, or the name member of an array of
 * structs), the one equal to the @n bytes of @arg, else the one name they are a prefix of.
 * Returns its index, -1 for none, -2 for a prefix of several. */
int si_ks_option_find(const void *names, size_t count, size_t stride, const char *arg, size_t n);
/* Whether argparse takes the word @s as an option: a dash and more, but not a negative number
 * ("-1", "-.5", which are words while no option looks like one). */
bool si_ks_looks_like_option(const char *s);

/* Words of one line. argv[n] is NULL; all strings live in buf. */
struct si_ks_words {
        char **argv;
        size_t n;
        struct sbuf buf;
        size_t *off;
        size_t *pos; /* where each word starts in the input */
        size_t cap_off, cap_pos;
        size_t start;
};
void si_ks_words_free(struct si_ks_words *w);

/* shlex.split(@s, comments=@comments) as Python's shlex (POSIX mode) splits it. -EBADMSG with
 * Python's reason in *ret_why for an open quote or a trailing backslash; -E2BIG past 65536
 * words. */
int si_ks_split(const char *s, size_t len, bool comments, struct si_ks_words *ret,
                const char **ret_why);

/* What the reader hands over; each returns 0 or a negative errno that stops the walk. The
 * origin and words are valid only during the call. */
struct si_ks_ops {
        /* a command line outside any section (never a %-line) */
        int (*command)(void *userdata, const struct si_ks_origin *o, char **argv, size_t argc);
        /* a known section header; argv[0] is the section */
        int (*header)(void *userdata, const struct si_ks_origin *o, char **argv, size_t argc);
        /* a line of the open section's body, with its line break */
        int (*line)(void *userdata, const struct si_ks_origin *o, const char *section,
                    const char *text, size_t len);
        /* %end of @section */
        int (*end)(void *userdata, const struct si_ks_origin *o, const char *section);
};

/* Read the kickstart file @path (@text/@len: its content already read, or NULL to read it)
 * with pykickstart's rules. Errors are -EBADMSG with a message naming file and line (reported
 * through @ctx), or the caller's own errors. */
int si_ks_read(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
               const struct si_ks_ops *ops, void *userdata);

#endif
