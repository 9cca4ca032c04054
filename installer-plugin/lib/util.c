/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* util.c — growable strings and arrays, UTF-8 sequences, string lists, lines and paths (util.h).
 * The other generic helpers util.h declares each have a file: json.c (JSON text), escape.c (names
 * and commands for people), fileio.c (bounded reads, complete writes), exit-status.c. No
 * seinstall types here. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>

#include "util.h"

int si_strdup_replace(char **slot, const char *value)
{
        char *copy = NULL;

        if (value && !(copy = strdup(value)))
                return -ENOMEM;
        free(*slot);
        *slot = copy;
        return 0;
}

/* The least a first si_grow() allocates, in bytes: a few small elements need one call. */
#define GROW_MIN_BYTES 64

bool si_grow(void **p, size_t *cap, size_t need, size_t size)
{
        size_t max = SIZE_MAX / size, n;
        void *q;

        if (need <= *cap)
                return true;
        if (need > max) {
                errno = ENOMEM;
                return false;
        }
        n = *cap <= max / 2 ? *cap * 2 : need;
        if (n < need)
                n = need;
        if (n < GROW_MIN_BYTES / size)
                n = GROW_MIN_BYTES / size;
        q = realloc(*p, n * size);
        if (!q)
                return false;
        *p = q;
        *cap = n;
        return true;
}

int sbuf_append(struct sbuf *b, const char *s, size_t n)
{
        if (n > SIZE_MAX / 2 - b->len - 1)
                return -ENOMEM;
        if (!SI_GROW(b->s, b->cap, b->len + n + 1))
                return -ENOMEM;
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
size_t si_utf8_seq_len(const unsigned char *s, size_t n)
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

bool str_is_utf8(const char *s)
{
        const unsigned char *p = (const unsigned char *) s;
        size_t n = strlen(s);

        for (size_t i = 0, len; i < n; i += len)
                if ((len = si_utf8_seq_len(p + i, n - i)) == 0)
                        return false;
        return true;
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
