/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json.c — JSON text (util.h): a string escaped as JSON (invalid UTF-8 shown as U+FFFD, its
 * bytes then given as hex beside it), and the writer of JSON documents that keeps its first
 * error. */
#include "util.h"

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
                        else if ((len = si_utf8_seq_len(p + i, n - i)) > 0) {
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

int sbuf_json_hex(struct sbuf *b, const char *s)
{
        int r = sbuf_puts(b, "\"");

        for (const unsigned char *p = (const unsigned char *) s; r >= 0 && *p; p++)
                r = sbuf_printf(b, "%02x", *p);
        return r < 0 ? r : sbuf_puts(b, "\"");
}

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
