/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* util.c — the generic helpers util.h declares: growable strings, JSON escaping, string lists,
 * lines, bounded reads and complete writes. No seinstall types here. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>

#include "util.h"

int sbuf_append(struct sbuf *b, const char *s, size_t n)
{
        if (n > SIZE_MAX / 2 - b->len - 1)
                return -ENOMEM;
        if (b->len + n + 1 > b->cap) {
                size_t cap = b->cap ? b->cap : 64;
                while (cap < b->len + n + 1)
                        cap *= 2;
                char *p = realloc(b->s, cap);
                if (!p)
                        return -ENOMEM;
                b->s = p;
                b->cap = cap;
        }
        memcpy(b->s + b->len, s, n);
        b->len += n;
        b->s[b->len] = '\0';
        return 0;
}

int sbuf_puts(struct sbuf *b, const char *s)
{
        return sbuf_append(b, s, strlen(s));
}

char *str_vprintf(const char *fmt, va_list ap)
{
        char *s;

        return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

char *str_printf(const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = str_vprintf(fmt, ap);
        va_end(ap);
        return s;
}

int sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
        _cleanup_free_ char *s = NULL;
        va_list ap;

        va_start(ap, fmt);
        s = str_vprintf(fmt, ap);
        va_end(ap);
        return s ? sbuf_puts(b, s) : -ENOMEM;
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0 if it is not one. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
        size_t len;
        uint32_t cp;

        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0)
                len = 2, cp = s[0] & 0x1f;
        else if ((s[0] & 0xf0) == 0xe0)
                len = 3, cp = s[0] & 0x0f;
        else if ((s[0] & 0xf8) == 0xf0)
                len = 4, cp = s[0] & 0x07;
        else
                return 0;
        if (len > n)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3f);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return len;
}

int sbuf_json_str(struct sbuf *b, const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n;
        int r;

        if (!s)
                return sbuf_puts(b, "null");
        n = strlen(s);
        r = sbuf_puts(b, "\"");
        for (size_t i = 0; r >= 0 && i < n;) {
                unsigned char c = p[i];
                size_t len;

                switch (c) {
                case '"':
                        r = sbuf_puts(b, "\\\"");
                        break;
                case '\\':
                        r = sbuf_puts(b, "\\\\");
                        break;
                case '\n':
                        r = sbuf_puts(b, "\\n");
                        break;
                case '\t':
                        r = sbuf_puts(b, "\\t");
                        break;
                case '\r':
                        r = sbuf_puts(b, "\\r");
                        break;
                case '\b':
                        r = sbuf_puts(b, "\\b");
                        break;
                case '\f':
                        r = sbuf_puts(b, "\\f");
                        break;
                default:
                        if (c < 0x20 || c == 0x7f)
                                r = sbuf_printf(b, "\\u%04x", c);
                        else if ((len = utf8_seq_len(p + i, n - i)) > 0) {
                                r = sbuf_append(b, (const char *) p + i, len);
                                i += len;
                                continue;
                        } else
                                /* a byte that is not UTF-8: the replacement character */
                                r = sbuf_puts(b, "\\ufffd");
                        break;
                }
                i++;
        }
        if (r >= 0)
                r = sbuf_puts(b, "\"");
        return r;
}

bool str_is_utf8(const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s);

        for (size_t i = 0, len; i < n; i += len)
                if ((len = utf8_seq_len(p + i, n - i)) == 0)
                        return false;
        return true;
}

int sbuf_json_hex(struct sbuf *b, const char *s)
{
        int r = sbuf_puts(b, "\"");

        for (const unsigned char *p = (const unsigned char *) s; r >= 0 && *p; p++)
                r = sbuf_printf(b, "%02x", *p);
        return r < 0 ? r : sbuf_puts(b, "\"");
}

char *sbuf_steal(struct sbuf *b)
{
        char *s = b->s ? b->s : strdup("");
        b->s = NULL;
        b->len = b->cap = 0;
        return s;
}

void sbuf_free(struct sbuf *b)
{
        free(b->s);
        b->s = NULL;
        b->len = b->cap = 0;
}

bool next_line(const char **pos, const char *end, const char **ret_line, size_t *ret_len)
{
        const char *p = *pos, *nl;
        size_t len;

        if (p >= end)
                return false;
        nl = memchr(p, '\n', (size_t) (end - p));
        len = nl ? (size_t) (nl - p) : (size_t) (end - p);
        *pos = nl ? nl + 1 : end;
        if (len > 0 && p[len - 1] == '\r')
                len--;
        *ret_line = p;
        *ret_len = len;
        return true;
}

size_t strip_range(const char **s, size_t len)
{
        while (len > 0 && (**s == ' ' || **s == '\t'))
                (*s)++, len--;
        while (len > 0 && ((*s)[len - 1] == ' ' || (*s)[len - 1] == '\t'))
                len--;
        return len;
}

int fd_check_regular(int fd)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        return 0;
}

int open_regular(const char *path)
{
        /* O_NONBLOCK: opening a FIFO with no writer blocks, and a device's open may too; the
         * descriptor is refused before anything reads from it. */
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        int r;

        if (fd < 0)
                return -errno;
        r = fd_check_regular(fd);
        if (r < 0) {
                close(fd);
                return r;
        }
        return fd;
}

const char *si_file_strerror(int r)
{
        switch (-r) {
        case EBADFD:
                return "not a regular file (a FIFO, device or socket): refusing to read it";
        case ELOOP:
                return "a symbolic link where seinstall replaces the file: refusing to read "
                       "through it (make it a regular file)";
        case EXDEV:
                return "it lies on a mount that is not one of the target's own (a bind mount "
                       "of the installer's files?): refusing to touch it";
        default:
                return strerror(-r);
        }
}

int read_fd_bounded(int fd, size_t max, char **ret, size_t *ret_len)
{
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap = 0;
        int r;

        r = fd_check_regular(fd);
        if (r < 0)
                return r;
        for (;;) {
                ssize_t n;

                if (len + 4096 + 1 > cap) {
                        size_t ncap = cap ? cap * 2 : 8192;
                        if (ncap > max + 4096 + 1)
                                ncap = max + 4096 + 1;
                        char *p = realloc(buf, ncap);
                        if (!p)
                                return -ENOMEM;
                        buf = p;
                        cap = ncap;
                }
                n = read(fd, buf + len, cap - len - 1);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                len += (size_t) n;
                if (len > max)
                        return -EFBIG;
        }
        if (!buf) {
                buf = malloc(1);
                if (!buf)
                        return -ENOMEM;
        }
        buf[len] = '\0';
        *ret = TAKE_PTR(buf);
        if (ret_len)
                *ret_len = len;
        return 0;
}

int read_file_bounded(const char *path, size_t max, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = open_regular(path);
        if (fd < 0)
                return fd;
        return read_fd_bounded(fd, max, ret, ret_len);
}

int write_all(int fd, const void *buf, size_t len)
{
        const char *p = buf;

        while (len > 0) {
                ssize_t n = write(fd, p, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += n;
                len -= (size_t) n;
        }
        return 0;
}

char *path_join(const char *a, const char *b)
{
        size_t la = strlen(a);
        char *s;

        while (la > 0 && a[la - 1] == '/')
                la--;
        while (*b == '/')
                b++;
        if (asprintf(&s, "%.*s/%s", (int) la, a, b) < 0)
                return NULL;
        return s;
}

void si_strv_free(char **v, size_t n)
{
        for (size_t i = 0; v && i < n; i++)
                free(v[i]);
        free(v);
}

/* ---- JSON documents ---------------------------------------------------------------------- */

static void json_put(struct json *j, const char *s, bool value)
{
        if (j->r < 0)
                return;
        if (j->comma)
                j->r = sbuf_puts(&j->b, j->brk ? "," : ", ");
        if (j->r >= 0 && j->brk)
                j->r = sbuf_printf(&j->b, "\n%s", j->brk);
        j->brk = NULL;
        j->key = NULL;
        if (j->r >= 0)
                j->r = sbuf_puts(&j->b, s);
        j->comma = value;
}

void json_break(struct json *j, const char *indent)
{
        j->brk = indent;
}

void json_object_begin(struct json *j)
{
        json_put(j, "{", false);
}

void json_object_end(struct json *j)
{
        j->comma = false;
        json_put(j, "}", true);
}

void json_array_begin(struct json *j)
{
        json_put(j, "[", false);
}

void json_array_end(struct json *j)
{
        j->comma = false;
        json_put(j, "]", true);
}

void json_key(struct json *j, const char *key)
{
        json_put(j, "", false);
        if (j->r >= 0)
                j->r = sbuf_json_str(&j->b, key);
        if (j->r >= 0)
                j->r = sbuf_puts(&j->b, ": ");
        j->key = key;
}

/* The member KEY_hex: "HEX" after the member @key whose value @s is not valid UTF-8. */
static void json_hex_member(struct json *j, const char *key, const char *s)
{
        _cleanup_free_ char *k = NULL;

        if (j->r < 0)
                return;
        if (asprintf(&k, "%s_hex", key) < 0) {
                j->r = -ENOMEM;
                return;
        }
        json_key(j, k);
        json_put(j, "", true);
        if (j->r >= 0)
                j->r = sbuf_json_hex(&j->b, s);
}

void json_string(struct json *j, const char *s)
{
        const char *key = j->key;

        json_put(j, "", true);
        if (j->r >= 0)
                j->r = sbuf_json_str(&j->b, s);
        if (key && s && !str_is_utf8(s))
                json_hex_member(j, key, s);
}

void json_bool(struct json *j, bool v)
{
        json_put(j, v ? "true" : "false", true);
}

void json_uint(struct json *j, unsigned long long v)
{
        char buf[32];

        snprintf(buf, sizeof(buf), "%llu", v);
        json_put(j, buf, true);
}

void json_int(struct json *j, long long v)
{
        char buf[32];

        snprintf(buf, sizeof(buf), "%lld", v);
        json_put(j, buf, true);
}

void json_null(struct json *j)
{
        json_put(j, "null", true);
}

void json_fixed(struct json *j, double v, int decimals)
{
        char buf[64];

        snprintf(buf, sizeof(buf), "%.*f", decimals, v);
        json_put(j, buf, true);
}

void json_raw(struct json *j, const char *value)
{
        json_put(j, value ? value : "null", true);
}

void json_raw_members(struct json *j, const char *object)
{
        _cleanup_free_ char *inner = NULL;
        size_t a = 0, z = strlen(object);

        if (j->r < 0)
                return;
        while (a < z && strchr(" \t\n", object[a]))
                a++;
        while (z > a && strchr(" \t\n", object[z - 1]))
                z--;
        if (z - a < 2 || object[a] != '{' || object[z - 1] != '}') {
                j->r = -EINVAL;
                return;
        }
        for (a++, z--; a < z && strchr(" \t\n", object[a]); a++)
                ;
        while (z > a && strchr(" \t\n", object[z - 1]))
                z--;
        if (a == z)
                return;
        inner = strndup(object + a, z - a);
        if (!inner) {
                j->r = -ENOMEM;
                return;
        }
        json_put(j, inner, true);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
        json_key(j, key);
        json_string(j, s);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
        json_key(j, key);
        json_bool(j, v);
}

void json_kv_uint(struct json *j, const char *key, unsigned long long v)
{
        json_key(j, key);
        json_uint(j, v);
}

void json_kv_fixed(struct json *j, const char *key, double v, int decimals)
{
        json_key(j, key);
        json_fixed(j, v, decimals);
}

int json_steal(struct json *j, char **ret)
{
        char *s;

        if (j->r >= 0 && j->brk)
                j->r = sbuf_puts(&j->b, "\n");
        j->brk = NULL;
        if (j->r < 0) {
                int r = j->r;
                json_done(j);
                return r;
        }
        s = sbuf_steal(&j->b);
        j->comma = false;
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

void json_done(struct json *j)
{
        sbuf_free(&j->b);
        j->r = 0;
        j->comma = false;
        j->brk = NULL;
        j->key = NULL;
}

/* ---- printing names to people ------------------------------------------------------------- */

/* Length of the byte sequence at @p that needs escaping for a terminal (0: none). A valid
 * UTF-8 character is safe unless it is a C1 control (U+0080-U+009F) or a bidirectional
 * override or isolate (U+202A-U+202E, U+2066-U+2069), which reorder what follows. */
static size_t display_unsafe(const unsigned char *p, size_t n, size_t *ret_len)
{
        size_t len = utf8_seq_len(p, n);

        *ret_len = len ? len : 1;
        if (len == 0)
                return 1;
        if (len == 1)
                return p[0] < 0x20 || p[0] == 0x7f;
        if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
                return len;
        if (len == 3 && p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae)
                return len;
        if (len == 3 && p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
                return len;
        return 0;
}

/* Whether @s holds a sequence display_unsafe() refuses. */
static bool has_unsafe(const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s), len;

        for (size_t i = 0; i < n; i += len)
                if (display_unsafe(p + i, n - i, &len))
                        return true;
        return false;
}

bool str_needs_escape(const char *s)
{
        return strchr(s, '\\') || has_unsafe(s);
}

bool str_display_safe(const char *s)
{
        return !has_unsafe(s);
}

char *str_escape_display(const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s), len;
        struct sbuf b = {0};
        int r = 0;

        for (size_t i = 0; r >= 0 && i < n; i += len) {
                size_t bad = display_unsafe(p + i, n - i, &len);

                if (!bad) {
                        r = p[i] == '\\' ? sbuf_puts(&b, "\\\\") : sbuf_append(&b, s + i, len);
                        continue;
                }
                switch (p[i]) {
                case '\n':
                        r = sbuf_puts(&b, "\\n");
                        break;
                case '\t':
                        r = sbuf_puts(&b, "\\t");
                        break;
                case '\r':
                        r = sbuf_puts(&b, "\\r");
                        break;
                case 0x1b:
                        r = sbuf_puts(&b, "\\e");
                        break;
                default:
                        for (size_t k = 0; r >= 0 && k < bad; k++)
                                r = sbuf_printf(&b, "\\x%02x", p[i + k]);
                }
        }
        if (r < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

/* ---- commands for people to run ---------------------------------------------------------- */

/* Bytes that need no quoting in a shell word. */
#define SHELL_PLAIN "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:@,%"

/* @s in bash's $'...': a backslash, a quote and every sequence display_unsafe() refuses as
 * C escapes (\xNN per byte: always two digits, so a following hex digit stays itself). */
static int shell_ansi_c(struct sbuf *b, const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s), len;
        int r = sbuf_puts(b, "$'");

        for (size_t i = 0; r >= 0 && i < n; i += len) {
                size_t bad = display_unsafe(p + i, n - i, &len);

                if (p[i] == '\\' || p[i] == '\'')
                        r = sbuf_printf(b, "\\%c", p[i]);
                else if (!bad)
                        r = sbuf_append(b, s + i, len);
                else if (p[i] == '\n')
                        r = sbuf_puts(b, "\\n");
                else if (p[i] == '\t')
                        r = sbuf_puts(b, "\\t");
                else
                        for (size_t k = 0; r >= 0 && k < bad; k++)
                                r = sbuf_printf(b, "\\x%02x", p[i + k]);
        }
        return r < 0 ? r : sbuf_puts(b, "'");
}

int shell_quote(struct sbuf *b, const char *s)
{
        int r;

        if (*s && s[0] != '-' && strspn(s, SHELL_PLAIN) == strlen(s))
                return sbuf_puts(b, s);
        if (strchr(s, '\\') || has_unsafe(s))
                return shell_ansi_c(b, s);
        /* single quotes; a quote closes them, is quoted in double quotes, and reopens them */
        r = sbuf_puts(b, "'");
        for (const char *q = s; r >= 0 && *q; q++)
                r = *q == '\'' ? sbuf_puts(b, "'\"'\"'") : sbuf_append(b, q, 1);
        return r < 0 ? r : sbuf_puts(b, "'");
}

char *shell_quoted(const char *s)
{
        struct sbuf b = {0};

        if (shell_quote(&b, s) < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

int shell_root_option(struct sbuf *b, const char *root)
{
        int r;

        if (!root || streq(root, "/"))
                return 0;
        r = sbuf_puts(b, " --root ");
        return r < 0 ? r : shell_quote(b, root);
}

char *shell_command(const char *root, const char *fmt, ...)
{
        struct sbuf b = {0};
        va_list ap;
        int r = 0;

        /* "%r" is the root option, "%q" a shell word, "%s" text as it is */
        va_start(ap, fmt);
        for (const char *f = fmt; r >= 0 && *f; f++) {
                if (f[0] != '%' || !f[1]) {
                        r = sbuf_append(&b, f, 1);
                        continue;
                }
                f++;
                if (*f == 'r')
                        r = shell_root_option(&b, root);
                else if (*f == 'q')
                        r = shell_quote(&b, va_arg(ap, const char *));
                else if (*f == 's')
                        r = sbuf_puts(&b, va_arg(ap, const char *));
                else
                        r = sbuf_append(&b, f - 1, 2);
        }
        va_end(ap);
        if (r < 0 || !b.s) {
                sbuf_free(&b);
                return r < 0 ? NULL : strdup("");
        }
        return sbuf_steal(&b);
}

size_t str_command_tail(const char *message, const char *command)
{
        size_t n = message ? strlen(message) : 0, c = command ? strlen(command) : 0;

        if (c == 0 || c > n || !streq(message + n - c, command) || !str_display_safe(command))
                return (size_t) -1;
        return n - c;
}

char *shell_relabel_command(const char *root, const char *path)
{
        const char *dashes = path[0] == '-' ? "-- " : "";

        if (!root || streq(root, "/"))
                return shell_command(NULL, "restorecon -F %s%q", dashes, path);
        return shell_command(NULL, "chroot %q restorecon -F %s%q", root, dashes, path);
}

/* ---- exit status --------------------------------------------------------------------------- */

/* Bad usage or bad input: the message names the option, the file and line, or the path. Every
 * other errno means the system failed (I/O, no space, no memory, missing policy: ENOPKG). */
static const int usage_errnos[] = {
    EINVAL, EBADMSG,      ENOENT, ENOTDIR, EISDIR, EFBIG,
    E2BIG,  ENAMETOOLONG, ELOOP,  EBADFD, /* a FIFO, device or socket where a file belongs */
    EXDEV,                                /* a path of the target leading onto another mount */
};

int si_exit_status(int r)
{
        if (r >= 0)
                return SI_EXIT_OK;
        for (size_t i = 0; i < ELEMENTSOF(usage_errnos); i++)
                if (usage_errnos[i] == -r)
                        return SI_EXIT_USAGE;
        return SI_EXIT_SYSTEM;
}

const char *si_errno_name(int e)
{
        return e > 0 ? strerrorname_np(e) : NULL;
}
