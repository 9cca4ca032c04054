/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * util.h — generic helpers with no seinstall types, shared by the library, the `seinstall`
 * command, seinstall-firstboot and the tests: cleanup attributes, string comparisons, growable
 * strings and arrays, string lists, lines (util.c), the one JSON string writer and the JSON
 * documents (json.c), names and commands escaped for people (escape.c), bounded reads and
 * complete writes (fileio.c), and the one errno-to-exit-status table of the command-line
 * contract (exit-status.c). Not installed; the commands link these objects themselves (the
 * library exports none of it).
 */
#ifndef SEINSTALL_UTIL_H
#define SEINSTALL_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define ELEMENTSOF(x)  (sizeof(x) / sizeof((x)[0]))

/* ---- cleanup helpers (systemd style) ---------------------------------------------------- */

static inline void freep(void *p)
{
        free(*(void **) p);
}
static inline void closep(int *fd)
{
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}
static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}
#define _cleanup_(f)     __attribute__((cleanup(f)))
#define _cleanup_free_   _cleanup_(freep)
#define _cleanup_close_  _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Defines funcp(), for _cleanup_(funcp), calling func(*p) unless *p is NULL; for the unref and
 * free calls of a library's types. */
#define DEFINE_CLEANUP_FUNC(type, func)                                                            \
        static inline void func##p(type *p)                                                        \
        {                                                                                          \
                if (*p)                                                                            \
                        (void) func(*p);                                                           \
        }

#define TAKE_PTR(p)                                                                                \
        ({                                                                                         \
                __typeof__(p) _p = (p);                                                            \
                (p) = NULL;                                                                        \
                _p;                                                                                \
        })
#define TAKE_FD(fd)                                                                                \
        ({                                                                                         \
                int _fd = (fd);                                                                    \
                (fd) = -EBADF;                                                                     \
                _fd;                                                                               \
        })

/* ---- strings ---------------------------------------------------------------------------- */

static inline bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}
static inline bool streq_ptr(const char *a, const char *b)
{
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}
/* Returns the part of @s after @prefix, or NULL when @s does not start with it. */
static inline const char *startswith(const char *s, const char *prefix)
{
        size_t n = strlen(prefix);
        return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* A new string formatted as vasprintf() does, or NULL when out of memory. */
char *str_vprintf(const char *fmt, va_list ap) _printf_(1, 0);
/* The same with the arguments given. */
char *str_printf(const char *fmt, ...) _printf_(1, 2);
/* Replace *@slot by a copy of @value (NULL clears it; the old value is freed). 0 or -ENOMEM,
 * *@slot untouched then. */
int si_strdup_replace(char **slot, const char *value);

/* ---- growable arrays -------------------------------------------------------------------- */

/* Make room in the array @array (a pointer variable, NULL when empty) of @cap elements for at
 * least @need elements of sizeof(*@array): when @need is more than @cap, realloc() it to twice
 * @cap, or to @need if that is more (64 bytes at first at least), and update @array and @cap;
 * else do nothing. The elements past the caller's count are not initialised. False (errno
 * ENOMEM) when out of memory or when @need elements would not fit in size_t: then @array and
 * @cap are as they were, so the caller's cleanup still frees the old array. @cap is a size_t.
 * The one way to grow an array (tests/integration/one-grow.sh), in the manner of systemd's
 * GREEDY_REALLOC:
 *         if (!SI_GROW(v, cap_v, n_v + 1))
 *                 return -ENOMEM;
 *         v[n_v++] = x; */
#define SI_GROW(array, cap, need) si_grow((void **) &(array), &(cap), (need), sizeof(*(array)))
bool si_grow(void **p, size_t *cap, size_t need, size_t size) __attribute__((warn_unused_result));

/* ---- string lists ----------------------------------------------------------------------- */

/* Free the first @n strings of @v and @v itself (NULL is fine). */
void si_strv_free(char **v, size_t n);

/* ---- growable string buffer ------------------------------------------------------------- */

struct sbuf {
        char *s;    /* NUL-terminated, NULL until the first append */
        size_t len; /* without the NUL */
        size_t cap;
};

int sbuf_append(struct sbuf *b, const char *s, size_t n);
int sbuf_puts(struct sbuf *b, const char *s);
int sbuf_printf(struct sbuf *b, const char *fmt, ...) _printf_(2, 3);
/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0 if it is not one. */
size_t si_utf8_seq_len(const unsigned char *s, size_t n);
/* Append @s as a JSON string literal, quotes included (NULL gives null). Valid UTF-8 passes
 * through; '"', '\\' and control characters (U+0000-U+001F, U+007F) are escaped (\n, \t, \r,
 * \b, \f, else \u00XX); each byte that is not part of valid UTF-8 becomes \ufffd (U+FFFD, the
 * replacement character), so every strict parser accepts the document. That loses the byte:
 * json_string() puts the lossless KEY_hex member beside it. The one JSON string escaper. */
int sbuf_json_str(struct sbuf *b, const char *s);
/* Whether @s is valid UTF-8 (what sbuf_json_str() passes through unchanged). */
bool str_is_utf8(const char *s);
/* Append the bytes of @s as lowercase hexadecimal, two digits a byte, quotes included. */
int sbuf_json_hex(struct sbuf *b, const char *s);
/* Hand the string over (never NULL on success: an empty buffer gives ""). */
char *sbuf_steal(struct sbuf *b);
void sbuf_free(struct sbuf *b);

/* ---- JSON documents --------------------------------------------------------------------- */

/* Builds one JSON document in memory: commas are placed by the writer, strings go through
 * sbuf_json_str(), and the first error sticks (later calls do nothing), so a caller checks once,
 * at json_steal(). Zero-initialise. Output style: {"key": value, "list": [1, 2]}. */
struct json {
        struct sbuf b;
        int r;           /* first error, negative errno */
        bool comma;      /* the next member or element needs a ", " first */
        const char *brk; /* json_break()'s indent, NULL when none is pending */
        const char *key; /* the member json_key() started, until its value is written */
};

void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
/* A member's key; the value follows with one of the calls below. */
void json_key(struct json *j, const char *key);
/* NULL: null. A member's string that is not valid UTF-8 (a file name from the target) is
 * followed by the member KEY_hex: its bytes in hexadecimal, the lossless form of the name. */
void json_string(struct json *j, const char *s);
void json_bool(struct json *j, bool v);
void json_uint(struct json *j, unsigned long long v);
void json_int(struct json *j, long long v);
void json_null(struct json *j);
/* A number with @decimals digits after the point ("%.*f"). */
void json_fixed(struct json *j, double v, int decimals);
/* Start the next member, element or closing bracket on a new line indented by @indent (its
 * comma stays at the end of the line before); pending at json_steal(), it ends the document
 * with a newline. Layout only: the parsed document is the same. */
void json_break(struct json *j, const char *indent);
/* A complete JSON value made elsewhere (a library's *_to_json()), NULL: null. */
void json_raw(struct json *j, const char *value);
/* The members of the JSON object @object made elsewhere, spliced into the object being
 * written (a document's members after a key the caller put first); -EINVAL when @object is
 * not an object. */
void json_raw_members(struct json *j, const char *object);
/* Key and value in one call. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_bool(struct json *j, const char *key, bool v);
void json_kv_uint(struct json *j, const char *key, unsigned long long v);
void json_kv_fixed(struct json *j, const char *key, double v, int decimals);
/* The document (the writer is emptied), or the first error. */
int json_steal(struct json *j, char **ret);
void json_done(struct json *j);

/* ---- printing names to people ----------------------------------------------------------- */

/* A copy of @s safe to print on a terminal inside a line of human output: control characters
 * (newline included, so a name can never start a line of its own), C1 controls, bidirectional
 * overrides and bytes that are not valid UTF-8 are shown as C escapes (\n, \t, \r, \e, \xNN
 * per byte) and a backslash as \\, so a newline and a backslash followed by n differ; valid
 * UTF-8 otherwise passes through. NULL on ENOMEM. */
char *str_escape_display(const char *s);
/* Whether str_escape_display() would change @s. */
bool str_needs_escape(const char *s);
/* Whether @s holds nothing that could drive a terminal or forge a line (backslashes allowed):
 * true for everything shell_quote() and shell_command() write. */
bool str_display_safe(const char *s);

/* ---- commands for people to run --------------------------------------------------------- */

/* The one shell quoting of seinstall, for every command it prints for a person to run: @s as
 * one bash word naming exactly @s. Plain names stay as they are; others go in single quotes
 * ('it'"'"'s'); a name with a backslash, a control character, a C1 control, a bidirectional
 * override or bytes that are not UTF-8 goes in $'...' with C escapes (\n, \t, \\, \', \xNN).
 * What it writes is safe to print on a terminal as it is (str_display_safe()). */
int shell_quote(struct sbuf *b, const char *s);
/* shell_quote() into a new string; NULL on ENOMEM. */
char *shell_quoted(const char *s);
/* " --root ROOT" (ROOT quoted) unless @root is NULL or "/": what every printed seinstall
 * command adds so that it acts on the tree the person named. */
int shell_root_option(struct sbuf *b, const char *root);
/* A command from @fmt where "%r" is shell_root_option(@root), "%q" a shell_quote()d argument
 * and "%s" an argument as it is (fixed text only). NULL on ENOMEM. */
char *shell_command(const char *root, const char *fmt, ...);
/* When @message ends with @command and @command is safe to print as it is, the length of the
 * text before it (to be escaped for the terminal while the command is printed exactly); else
 * (size_t) -1. How seinstall and seinstall-firstboot print seinstall_last_error_command(). */
size_t str_command_tail(const char *message, const char *command);
/* The command that relabels the one file @path of the tree @root from that tree's own file
 * contexts: "restorecon -F PATH", or "chroot ROOT restorecon -F PATH" when @root is not "/".
 * NULL on ENOMEM. */
char *shell_relabel_command(const char *root, const char *path);

/* ---- lines ------------------------------------------------------------------------------ */

/* Iterate over the lines of a buffer: returns false at the end; otherwise *ret_line and *ret_len
 * describe the next line without its "\n" (and without a "\r" before it). */
bool next_line(const char **pos, const char *end, const char **ret_line, size_t *ret_len);
/* Strip leading and trailing blanks (space, tab) of the range in place; returns the new len. */
size_t strip_range(const char **s, size_t len);

/* ---- files ------------------------------------------------------------------------------ */

/* 0 when @fd is a regular file; -EISDIR for a directory, -EBADFD for anything else (a FIFO,
 * device or socket, which could block a read or never end). */
int fd_check_regular(int fd);
/* Open a file of the host (an input such as --profile) for reading: non-blocking, so a FIFO or
 * a device never blocks the open, and refused unless it is a regular file. An fd or -errno. */
int open_regular(const char *path);
/* strerror() with the refusals of the file helpers (-EBADFD, -ELOOP, -EXDEV) said plainly. */
const char *si_file_strerror(int r);
/* Read a whole regular file opened with @fd, at most @max bytes (-EFBIG beyond); anything but a
 * regular file is refused as fd_check_regular() does. The result is NUL-terminated; *ret_len
 * excludes the NUL. */
int read_fd_bounded(int fd, size_t max, char **ret, size_t *ret_len);
/* Read a file of the host (not the target), opened with open_regular(), bounded as above. */
int read_file_bounded(const char *path, size_t max, char **ret, size_t *ret_len);
/* Write all of @buf to @fd, retrying short writes and EINTR. */
int write_all(int fd, const void *buf, size_t len);
/* Join @a and @b with exactly one "/" between them. NULL on ENOMEM. */
char *path_join(const char *a, const char *b);

/* ---- exit status ------------------------------------------------------------------------ */

/* The command-line contract's exit status (seinstall(8), EXIT STATUS; docs/design.md). */
#define SI_EXIT_OK      0
#define SI_EXIT_REFUSED 1 /* a check verdict of refuse, or an install stopped by one */
#define SI_EXIT_USAGE   2 /* bad usage or bad input */
#define SI_EXIT_SYSTEM  3 /* the system failed: I/O, missing policy, no space, no memory */

/* The exit status for the negative error code (an errno or seinstall's own, which all mean
 * SI_EXIT_SYSTEM) a seinstall call returned (0 gives SI_EXIT_OK). The one
 * table shared by seinstall, seinstall-firstboot and the test helpers; seinstall(8) lists it. */
int si_exit_status(int r);

#endif
