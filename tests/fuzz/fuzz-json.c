/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the JSON string writer: every path, device name and label seinstall prints in --json
 * comes from outside (file names have any bytes). Whatever the input, the output must be one
 * valid JSON string literal: no raw control characters, every escape well formed, no quote
 * left unescaped, no surrogate, and only well-formed UTF-8 (RFC 8259); it must decode back to
 * the input with each byte that is not UTF-8 replaced by U+FFFD; and the KEY_hex form of the
 * same input must give the bytes back, so nothing is lost. */
#include <stdint.h>

#include "seinstall-private.h"

/* Length of the well-formed UTF-8 sequence at @p (RFC 3629), 0 when there is none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
        size_t len;
        unsigned cp;

        if (p[0] < 0x80)
                return 1;
        if (p[0] >= 0xc2 && p[0] <= 0xdf)
                len = 2, cp = p[0] & 0x1f;
        else if (p[0] >= 0xe0 && p[0] <= 0xef)
                len = 3, cp = p[0] & 0x0f;
        else if (p[0] >= 0xf0 && p[0] <= 0xf4)
                len = 4, cp = p[0] & 0x07;
        else
                return 0;
        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
                return 0;
        return len;
}

static bool valid_json_string(const unsigned char *s, size_t n)
{
        if (n < 2 || s[0] != '"' || s[n - 1] != '"')
                return false;
        for (size_t i = 1; i < n - 1;) {
                size_t len;

                if (s[i] == '\\') {
                        if (i + 1 >= n - 1)
                                return false;
                        if (s[i + 1] == 'u') {
                                if (i + 6 > n - 1)
                                        return false;
                                for (size_t k = 2; k < 6; k++)
                                        if (!strchr("0123456789abcdefABCDEF", s[i + k]) ||
                                            !s[i + k])
                                                return false;
                                i += 6;
                        } else if (strchr("\"\\/bfnrt", s[i + 1]) && s[i + 1]) {
                                i += 2;
                        } else {
                                return false;
                        }
                        continue;
                }
                if (s[i] < 0x20 || s[i] == '"')
                        return false;
                len = utf8_len(s + i, n - 1 - i);
                if (len == 0)
                        return false;
                i += len;
        }
        return true;
}

static unsigned hex4(const unsigned char *p)
{
        unsigned v = 0;

        for (size_t k = 0; k < 4; k++)
                v = v << 4 | (unsigned) (p[k] <= '9' ? p[k] - '0' : (p[k] | 0x20) - 'a' + 10);
        return v;
}

/* Decode a literal valid_json_string() accepted into bytes; false for an escape seinstall
 * never writes (a \uXXXX that is neither a control character nor U+FFFD). */
static bool decode(const unsigned char *s, size_t n, struct sbuf *out)
{
        for (size_t i = 1; i < n - 1;) {
                char c = (char) s[i];

                if (s[i] != '\\') {
                        i++;
                } else if (s[i + 1] == 'u') {
                        unsigned v = hex4(s + i + 2);
                        if (v == 0xfffd) {
                                if (sbuf_puts(out, "\xef\xbf\xbd") < 0)
                                        return false;
                                i += 6;
                                continue;
                        } else if (v < 0x80)
                                c = (char) v;
                        else
                                return false;
                        i += 6;
                } else {
                        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
                        c = to[strchr(from, s[i + 1]) - from];
                        i += 2;
                }
                if (sbuf_append(out, &c, 1) < 0)
                        return false;
        }
        return true;
}

/* @in with each byte that is not part of well-formed UTF-8 replaced by U+FFFD. */
static bool replaced(const char *in, struct sbuf *out)
{
        const unsigned char *p = (const unsigned char *) in;
        size_t n = strlen(in);

        for (size_t i = 0; i < n;) {
                size_t len = utf8_len(p + i, n - i);
                int r = len ? sbuf_append(out, in + i, len) : sbuf_puts(out, "\xef\xbf\xbd");
                if (r < 0)
                        return false;
                i += len ? len : 1;
        }
        return true;
}

/* The KEY_hex literal of @in decodes back to @in. */
static void check_hex(const char *in)
{
        struct sbuf h = {0};
        size_t n = strlen(in);

        if (sbuf_json_hex(&h, in) < 0)
                return;
        if (h.len != 2 * n + 2)
                abort();
        for (size_t i = 0; i < n; i++) {
                unsigned v;
                if (sscanf(h.s + 1 + 2 * i, "%2x", &v) != 1 || v != (unsigned char) in[i])
                        abort();
        }
        sbuf_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct sbuf b = {0};
        _cleanup_free_ char *in = NULL;
        size_t n;

        if (size > 65536)
                return 0;
        in = strndup((const char *) data, size); /* stops at the first NUL, as C strings do */
        if (!in || sbuf_json_str(&b, in) < 0) {
                sbuf_free(&b);
                return 0;
        }
        n = b.len;
        if (!valid_json_string((const unsigned char *) b.s, n))
                abort();
        {
                struct sbuf back = {0}, want = {0};
                bool ok = decode((const unsigned char *) b.s, n, &back);

                if (!replaced(in, &want))
                        abort();
                if (!ok || !streq(back.s ? back.s : "", want.s ? want.s : ""))
                        abort();
                if (str_is_utf8(in) != streq(want.s ? want.s : "", in))
                        abort();
                sbuf_free(&back);
                sbuf_free(&want);
        }
        sbuf_free(&b);
        check_hex(in);
        return 0;
}
