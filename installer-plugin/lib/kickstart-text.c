/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-text.c — kickstart text as Python sees it: strict UTF-8 (pykickstart decodes every file
 * as UTF-8), str.isspace() and the strip and split built on it, and the line breaks of
 * str.splitlines(). Owns the refusal of text pykickstart cannot decode, naming its line, and
 * si_ks_error(), the one way every part of the reader names a file and line in a message.
 */
#include "kickstart-internal.h"

/* Length of the valid UTF-8 sequence at @p (strict, as Python's decoder is), or 0. */
static size_t u8_valid(const unsigned char *p, const unsigned char *end)
{
        size_t n;
        uint32_t c;

        if (p[0] < 0x80)
                return 1;
        if (p[0] >= 0xc2 && p[0] <= 0xdf)
                n = 2, c = p[0] & 0x1f;
        else if (p[0] >= 0xe0 && p[0] <= 0xef)
                n = 3, c = p[0] & 0x0f;
        else if (p[0] >= 0xf0 && p[0] <= 0xf4)
                n = 4, c = p[0] & 0x07;
        else
                return 0;
        if ((size_t) (end - p) < n)
                return 0;
        for (size_t i = 1; i < n; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                c = c << 6 | (p[i] & 0x3f);
        }
        if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
            (n == 4 && (c < 0x10000 || c > 0x10ffff)))
                return 0;
        return n;
}

bool si_text_utf8(const char *s, size_t len, size_t *ret_bad)
{
        const unsigned char *p = (const unsigned char *) s, *end = p + len;

        while (p < end) {
                size_t n = u8_valid(p, end);
                if (n == 0) {
                        *ret_bad = (size_t) (p - (const unsigned char *) s);
                        return false;
                }
                p += n;
        }
        return true;
}

/* Decode the character at @p of text already checked. */
static size_t u8_decode(const char *p, const char *end, uint32_t *ret)
{
        const unsigned char *u = (const unsigned char *) p;
        size_t n = u8_valid(u, (const unsigned char *) end);

        if (n <= 1) {
                *ret = u[0];
                return 1;
        }
        *ret = u[0] & (0xffu >> (n + 1));
        for (size_t i = 1; i < n; i++)
                *ret = *ret << 6 | (u[i] & 0x3f);
        return n;
}

/* Python's str.isspace() for one character. */
static bool py_isspace(uint32_t c)
{
        return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 ||
               c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
               c == 0x202f || c == 0x205f || c == 0x3000;
}

/* str.lstrip(): the first character that is not whitespace. */
const char *si_py_lstrip(const char *p, const char *end)
{
        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                if (!py_isspace(c))
                        break;
                p += n;
        }
        return p;
}

/* The end of str.rstrip(). */
const char *si_py_rstrip_end(const char *p, const char *end)
{
        const char *last = p;

        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                p += n;
                if (!py_isspace(c))
                        last = p;
        }
        return last;
}

/* The end of the whitespace-separated word at @p (str.split()[0] of stripped text). */
const char *si_py_word_end(const char *p, const char *end)
{
        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                if (py_isspace(c))
                        break;
                p += n;
        }
        return p;
}

/* Length of the line break str.splitlines() sees at @p, or 0. */
static size_t line_break(const char *p, const char *end)
{
        const unsigned char *u = (const unsigned char *) p;

        switch (u[0]) {
        case '\n':
        case '\v':
        case '\f':
        case 0x1c:
        case 0x1d:
        case 0x1e:
                return 1;
        case '\r':
                return end - p > 1 && p[1] == '\n' ? 2 : 1;
        case 0xc2:
                return end - p > 1 && u[1] == 0x85 ? 2 : 0;
        case 0xe2:
                return end - p > 2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9) ? 3 : 0;
        default:
                return 0;
        }
}

/* The end of the line at @p, break included. */
const char *si_py_line_end(const char *p, const char *end)
{
        while (p < end) {
                size_t b = line_break(p, end);
                if (b)
                        return p + b;
                p++;
        }
        return end;
}

/* Refuse text pykickstart cannot decode (and NUL bytes, which seinstall refuses on purpose),
 * naming the line. */
int si_ks_check_text(struct seinstall_ctx *ctx, const char *file, const char *text, size_t len)
{
        const unsigned char *p = (const unsigned char *) text, *end = p + len;
        struct si_ks_origin at = {file, 1};

        while (p < end) {
                size_t n = line_break((const char *) p, (const char *) end);
                if (n) {
                        at.line++;
                        p += n;
                        continue;
                }
                if (*p == 0)
                        return si_ks_error(ctx, &at,
                                           "NUL byte: not a text file, not a kickstart "
                                           "profile");
                n = u8_valid(p, end);
                if (n == 0)
                        return si_ks_error(ctx, &at,
                                           "not valid UTF-8 (byte 0x%02x): pykickstart reads "
                                           "kickstart files as UTF-8; convert the file",
                                           *p);
                p += n;
        }
        return 0;
}

int si_ks_error(struct seinstall_ctx *ctx, const struct si_ks_origin *o, const char *fmt, ...)
{
        _cleanup_free_ char *what = NULL;
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vasprintf(&what, fmt, ap);
        va_end(ap);
        if (n < 0)
                return -ENOMEM;
        return si_error(ctx, -EBADMSG, "%s:%u: %s", o->file, o->line, what);
}
