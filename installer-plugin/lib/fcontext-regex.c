/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext-regex.c — what the text of a file_contexts regex says, read without compiling it:
 * whether it has meta characters and its stem (as libselinux decides both), the literal prefix
 * every matching path starts with, and a literal every matching path contains. The index
 * (fcontext-index.c) files specs by these; nothing here runs during a lookup.
 */
#include <ctype.h>

#include "fcontext-internal.h"

static bool is_meta(char c)
{
        return strchr(".^$?*+|[({", c) != NULL && c != '\0';
}

/* libselinux's spec_hasMetaChars(). */
bool si_fc_has_meta(const char *re)
{
        for (const char *c = re; *c; c++) {
                if (is_meta(*c))
                        return true;
                if (*c == '\\' && c[1])
                        c++;
        }
        return false;
}

/* libselinux's get_stem_from_spec(): bytes before the second '/', when none of them is meta. */
uint32_t si_fc_stem_of_spec(const char *re)
{
        const char *slash = re[0] ? strchr(re + 1, '/') : NULL;

        if (!slash)
                return 0;
        for (const char *c = re; c < slash; c++)
                if (is_meta(*c))
                        return 0;
        return (uint32_t) (slash - re);
}

static bool is_quantifier(char c)
{
        return c == '?' || c == '*' || c == '+' || c == '{';
}

/* Read one literal character of a PCRE2 pattern at *p: a plain byte, or a backslash followed by
 * ASCII punctuation (which PCRE2 always takes literally). Returns false at anything else. */
static bool next_literal(const char **p, char *ret)
{
        const char *c = *p;

        if (!*c || strchr(".^$?*+|[](){}", *c))
                return false;
        if (*c == '\\') {
                unsigned char n = (unsigned char) c[1];
                if (!n || n >= 0x80 || isalnum(n) || !isgraph(n))
                        return false;
                *ret = (char) n;
                *p = c + 2;
                return true;
        }
        *ret = *c;
        *p = c + 1;
        return true;
}

/* The literal text a match of @re must begin with (a character followed by a quantifier is
 * not required). Returns its length in *ret_len (bytes written to @out, which has room for
 * strlen(re)); *ret_complete tells whether the whole pattern is that literal. */
void si_fc_literal_prefix(const char *re, char *out, size_t *ret_len, bool *ret_complete)
{
        const char *p = re;
        size_t n = 0;
        char ch;

        for (;;) {
                const char *before = p;
                if (!next_literal(&p, &ch)) {
                        *ret_complete = *before == '\0';
                        break;
                }
                if (is_quantifier(*p)) {
                        *ret_complete = false;
                        break;
                }
                out[n++] = ch;
        }
        *ret_len = n;
}

/* Skip a character class starting at the '[' at *p; false when it does not end. */
static bool skip_class(const char **p)
{
        const char *c = *p + 1;

        if (*c == '^')
                c++;
        if (*c == ']')
                c++;
        for (; *c; c++) {
                if (*c == '\\' && c[1]) {
                        c++;
                } else if (*c == '[' && c[1] == ':') {
                        const char *end = strstr(c + 2, ":]");
                        if (end)
                                c = end + 1;
                } else if (*c == ']') {
                        *p = c;
                        return true;
                }
        }
        return false;
}

/* Whether @re has a '|' outside any group: then "^" re "$" is an unanchored alternation and
 * no literal prefix is required. Unusual syntax we do not follow counts as "yes". */
bool si_fc_toplevel_alternation(const char *re)
{
        int depth = 0;

        if (strstr(re, "\\Q") || strstr(re, "(?") || strstr(re, "(*"))
                return true;
        for (const char *c = re; *c; c++) {
                if (*c == '\\') {
                        if (!c[1])
                                return true;
                        c++;
                } else if (*c == '[') {
                        if (!skip_class(&c))
                                return true;
                } else if (*c == '(') {
                        depth++;
                } else if (*c == ')') {
                        if (--depth < 0)
                                return true;
                } else if (*c == '|' && depth == 0) {
                        return true;
                }
        }
        return depth != 0;
}

/* The longest run of literal characters outside any group and class, each one required: every
 * path the pattern matches contains it. @re has no top-level alternation. */
int si_fc_required_literal(const char *re, char **ret, size_t *ret_len)
{
        size_t n = strlen(re) + 1, best_len = 0, cur_len = 0;
        _cleanup_free_ char *cur = malloc(n), *best = malloc(n);
        int depth = 0;

        if (!cur || !best)
                return -ENOMEM;
        for (const char *c = re;;) {
                const char *p = c;
                char ch;

                if (depth == 0 && next_literal(&p, &ch) && !is_quantifier(*p)) {
                        cur[cur_len++] = ch;
                        c = p;
                        continue;
                }
                if (cur_len > best_len) {
                        memcpy(best, cur, cur_len);
                        best_len = cur_len;
                }
                cur_len = 0;
                if (!*c)
                        break;
                if (*c == '\\') {
                        c += c[1] ? 2 : 1;
                } else if (*c == '[') {
                        if (!skip_class(&c))
                                break;
                        c++;
                } else if (*c == '{') {
                        const char *e = strchr(c, '}');
                        c = e ? e + 1 : c + 1;
                } else {
                        if (*c == '(')
                                depth++;
                        else if (*c == ')')
                                depth--;
                        c++;
                }
        }
        *ret = NULL;
        *ret_len = 0;
        if (best_len >= 2) {
                best[best_len] = '\0';
                *ret = TAKE_PTR(best);
                *ret_len = best_len;
        }
        return 0;
}
