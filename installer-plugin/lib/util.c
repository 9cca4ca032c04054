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

int sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
        _cleanup_free_ char *s = NULL;
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (n < 0) {
                s = NULL;
                return -ENOMEM;
        }
        return sbuf_append(b, s, (size_t) n);
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

                if (c == '"' || c == '\\') {
                        char esc[2] = {'\\', (char) c};
                        r = sbuf_append(b, esc, 2);
                        i++;
                } else if (c == '\n') {
                        r = sbuf_puts(b, "\\n"), i++;
                } else if (c == '\t') {
                        r = sbuf_puts(b, "\\t"), i++;
                } else if (c < 0x20 || c == 0x7f) {
                        r = sbuf_printf(b, "\\u%04x", c), i++;
                } else if ((len = utf8_seq_len(p + i, n - i)) > 0) {
                        r = sbuf_append(b, (const char *) p + i, len);
                        i += len;
                } else {
                        /* not UTF-8: keep the byte visible and the document valid */
                        r = sbuf_printf(b, "\\u%04x", c), i++;
                }
        }
        if (r >= 0)
                r = sbuf_puts(b, "\"");
        return r;
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
