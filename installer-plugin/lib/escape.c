/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* escape.c — text for people (util.h): the names seinstall prints, escaped for a terminal
 * (control characters, invalid UTF-8, bidirectional overrides), and the commands it prints,
 * quoted for the shell with the same --root the person gave. */
#include "util.h"

/* ---- printing names to people ------------------------------------------------------------- */

/* Length of the byte sequence at @p that needs escaping for a terminal (0: none). A valid
 * UTF-8 character is safe unless it is a C1 control (U+0080-U+009F) or a bidirectional
 * override or isolate (U+202A-U+202E, U+2066-U+2069), which reorder what follows. */
static size_t display_unsafe(const unsigned char *p, size_t n, size_t *ret_len)
{
        size_t len = si_utf8_seq_len(p, n);

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
