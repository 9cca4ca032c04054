/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmdline-files.c — editing the kernel command line where a boot loader keeps it: GRUB's
 * defaults (GRUB_CMDLINE_LINUX and _DEFAULT with their shell quoting), Boot Loader Specification
 * entries (`options`) and /etc/kernel/cmdline. Each file is cut into the parts that hold
 * arguments, each part fixed by cmdline-args.c; every other argument, the spacing, quoting and
 * the rest of each file stay as they were.
 */
#include <stdint.h>

#include "cmdline.h"

struct part {
        size_t start, end; /* the arguments, quotes excluded */
        char quote;        /* '"', '\'' or 0 */
        bool primary;      /* GRUB_CMDLINE_LINUX (additions go to the last primary part) */
};

/* Rebuild @text with each part fixed for @goal and @add appended to part @add_to. */
static int edit_parts(const char *text, size_t len, const struct part *parts, size_t n,
                      const struct si_cmdline_goal *goal, const char *all, const char *add,
                      size_t add_to, char **ret, struct sbuf *what)
{
        _cleanup_free_ bool *after = calloc(n ? n : 1, sizeof(*after));
        struct sbuf b = {};
        size_t at = 0, dash_part = SIZE_MAX;
        int r = 0;

        if (!after)
                return -ENOMEM;
        /* In the kernel's order (GRUB: every GRUB_CMDLINE_LINUX, then the _DEFAULT ones), the
         * parts after the one holding a bare "--" are init's arguments: left alone, and an
         * addition meant for one of them goes before that "--" instead. */
        for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < n; i++) {
                        if (parts[i].primary != (pass == 0))
                                continue;
                        if (dash_part != SIZE_MAX)
                                after[i] = true;
                        else if (si_cmdline_find_dashes(text + parts[i].start,
                                                        parts[i].end - parts[i].start) != SIZE_MAX)
                                dash_part = i;
                }
        if (add_to != SIZE_MAX && add_to < n && after[add_to])
                add_to = dash_part;

        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_free_ char *fixed = NULL;
                const struct part *p = &parts[i];
                bool quote_now = false;

                if (after[i])
                        fixed = strndup(text + p->start, p->end - p->start);
                else
                        r = si_cmdline_fix(text + p->start, p->end - p->start, all, goal, &fixed,
                                           what);
                if (r >= 0 && !fixed)
                        r = -ENOMEM;
                if (r < 0)
                        break;
                if (i == add_to && add && *add) {
                        size_t keep = strlen(fixed), off = si_cmdline_find_dashes(fixed, keep);
                        _cleanup_free_ char *joined = NULL;
                        int k;

                        if (off != SIZE_MAX) {
                                /* "a -- b" + X is "a X -- b": after "--" it would go to init. */
                                k = asprintf(&joined, "%.*s%s %s", (int) off, fixed, add,
                                             fixed + off);
                        } else {
                                /* An empty part right after its keyword (a BLS "options" line
                                 * with no value) needs a blank before what is added, or
                                 * "optionsselinux=0". */
                                bool glued = p->start > 0 &&
                                             !si_cmdline_blank(text[p->start - 1]) &&
                                             !strchr("\"'=", text[p->start - 1]);
                                while (keep > 0 && si_cmdline_blank(fixed[keep - 1]))
                                        keep--;
                                k = asprintf(&joined, "%.*s%s%s%s", (int) keep, fixed,
                                             keep || glued ? " " : "", add, fixed + keep);
                        }
                        if (k < 0) {
                                joined = NULL;
                                r = -ENOMEM;
                                break;
                        }
                        free(fixed);
                        fixed = TAKE_PTR(joined);
                        r = si_cmdline_note(what, "added %.*s%s", add, strlen(add), NULL);
                        /* An unquoted shell value that now has blanks needs quotes. */
                        quote_now = p->quote == 0 && strpbrk(fixed, " \t");
                }
                if (r >= 0)
                        r = sbuf_append(&b, text + at, p->start - at);
                if (r >= 0 && quote_now)
                        r = sbuf_puts(&b, "\"");
                if (r >= 0)
                        r = sbuf_puts(&b, fixed);
                if (r >= 0 && quote_now)
                        r = sbuf_puts(&b, "\"");
                at = p->end;
        }
        if (r >= 0)
                r = sbuf_append(&b, text + at, len - at);
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}

static int parts_join(const char *text, const struct part *parts, size_t n, struct sbuf *out)
{
        int r = 0;

        for (size_t i = 0; r >= 0 && i < n; i++) {
                if (out->len)
                        r = sbuf_puts(out, " ");
                if (r >= 0)
                        r = sbuf_append(out, text + parts[i].start, parts[i].end - parts[i].start);
        }
        return r;
}

/* ---- GRUB's /etc/default/grub ------------------------------------------------------------ */

#define PARTS_MAX 4096

static int add_part(struct part **parts, size_t *n, size_t *cap, struct part p)
{
        if (*n >= PARTS_MAX)
                return -E2BIG;
        if (!SI_GROW(*parts, *cap, *n + 1))
                return -ENOMEM;
        (*parts)[(*n)++] = p;
        return 0;
}

/* Whether an edit of @p keeps what it means to the kernel: no odd '"' (an escaped one in a
 * double-quoted GRUB value is the kernel's), which would swallow what is added into its quote
 * (found by fuzz-grub and fuzz-bls), and no SELinux argument whose value keeps a '"' once the
 * kernel unquotes it (lsm=""n reads as "n), which no rewrite can keep meaning the same. */
static bool part_editable(const char *text, const struct part *p)
{
        return si_cmdline_quotes_balanced(text + p->start, p->end - p->start) &&
               si_cmdline_selinux_args_plain(text + p->start, p->end - p->start);
}

/* Find the GRUB_CMDLINE_LINUX(_DEFAULT) assignments of a shell text. -EBADMSG with *ret_line
 * for one whose value seinstall cannot edit without understanding more shell than it does. */
static int grub_parts(const char *text, size_t len, struct part **ret, size_t *ret_n,
                      unsigned *ret_line)
{
        const char *pos = text, *end = text + len, *line;
        struct part *parts = NULL;
        size_t n = 0, cap = 0, ll;
        unsigned lineno = 0;
        int r = 0;

        while (r >= 0 && next_line(&pos, end, &line, &ll)) {
                const char *p = line, *le = line + ll, *v;
                bool primary;
                struct part part = {};

                lineno++;
                while (p < le && (*p == ' ' || *p == '\t'))
                        p++;
                if (le - p > 7 && strncmp(p, "export", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
                        p += 6;
                        while (p < le && (*p == ' ' || *p == '\t'))
                                p++;
                }
                if ((size_t) (le - p) > 27 && strncmp(p, "GRUB_CMDLINE_LINUX_DEFAULT=", 27) == 0)
                        v = p + 27, primary = false;
                else if ((size_t) (le - p) >= 19 && strncmp(p, "GRUB_CMDLINE_LINUX=", 19) == 0)
                        v = p + 19, primary = true;
                else
                        continue;
                part.primary = primary;
                if (v < le && (*v == '"' || *v == '\'')) {
                        const char *q = v + 1;
                        part.quote = *v;
                        while (q < le && *q != part.quote) {
                                if (part.quote == '"' && *q == '\\' && q + 1 < le)
                                        q++;
                                q++;
                        }
                        if (q >= le) {
                                r = -EBADMSG; /* a value spanning lines */
                                break;
                        }
                        part.start = (size_t) (v + 1 - text);
                        part.end = (size_t) (q - text);
                        v = q + 1;
                } else {
                        const char *q = v;
                        while (q < le && !si_cmdline_blank(*q) && *q != ';' && *q != '#') {
                                /* a quote inside an unquoted word (a"b c") is found by
                                 * fuzz-grub: quoting it again broke the line */
                                if (*q == '\\' || *q == '`' || *q == '"' || *q == '\'' ||
                                    (*q == '$' && q + 1 < le && q[1] == '('))
                                        break;
                                q++;
                        }
                        part.start = (size_t) (v - text);
                        part.end = (size_t) (q - text);
                        v = q;
                }
                /* What follows must end the word: "a"'b' or "a"$X is more shell than we edit. */
                if (v < le && !si_cmdline_blank(*v) && *v != ';' && *v != '#') {
                        r = -EBADMSG;
                        break;
                }
                if (!part_editable(text, &part)) {
                        r = -EBADMSG;
                        break;
                }
                r = add_part(&parts, &n, &cap, part);
        }
        if (r < 0) {
                free(parts);
                *ret_line = lineno;
                return r;
        }
        *ret = parts;
        *ret_n = n;
        return 0;
}

bool si_grub_has_cmdline_linux(const char *text, size_t len)
{
        _cleanup_free_ struct part *parts = NULL;
        size_t n = 0;
        unsigned line;

        if (grub_parts(text, len, &parts, &n, &line) < 0)
                return false;
        for (size_t i = 0; i < n; i++)
                if (parts[i].primary)
                        return true;
        return false;
}

int si_grub_cmdline(const char *text, size_t len, struct sbuf *out, unsigned *ret_line)
{
        _cleanup_free_ struct part *parts = NULL;
        size_t n = 0;
        unsigned line;
        int r;

        r = grub_parts(text, len, &parts, &n, ret_line ? ret_line : &line);
        if (r < 0)
                return r;
        /* grub-mkconfig puts GRUB_CMDLINE_LINUX before GRUB_CMDLINE_LINUX_DEFAULT. */
        for (int pass = 0; r >= 0 && pass < 2; pass++)
                for (size_t i = 0; r >= 0 && i < n; i++)
                        if (parts[i].primary == (pass == 0))
                                r = parts_join(text, &parts[i], 1, out);
        return r;
}

int si_grub_edit(const char *old, size_t len, const struct si_cmdline_goal *goal, const char *all,
                 const char *add, char **ret, unsigned *ret_line, struct sbuf *what)
{
        _cleanup_free_ struct part *parts = NULL;
        _cleanup_free_ char *new = NULL;
        size_t n = 0, add_to = SIZE_MAX;
        int r;

        r = grub_parts(old, len, &parts, &n, ret_line);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                if (parts[i].primary)
                        add_to = i;
        r = edit_parts(old, len, parts, n, goal, all, add, add_to, &new, what);
        if (r < 0)
                return r;
        if (add && *add && add_to == SIZE_MAX) {
                size_t nl = strlen(new);
                _cleanup_free_ char *joined = NULL;
                if (asprintf(&joined, "%s%sGRUB_CMDLINE_LINUX=\"%s\"\n", new,
                             nl && new[nl - 1] != '\n' ? "\n" : "", add) < 0)
                        return -ENOMEM;
                free(new);
                new = TAKE_PTR(joined);
                r = si_cmdline_note(what, "added GRUB_CMDLINE_LINUX=\"%.*s\"%s", add, strlen(add),
                                    NULL);
                if (r < 0)
                        return r;
        }
        *ret = strlen(new) == len && memcmp(new, old, len) == 0 ? NULL : TAKE_PTR(new);
        return 0;
}

/* ---- Boot Loader Specification entries and /etc/kernel/cmdline --------------------------- */

static int bls_parts(const char *text, size_t len, struct part **ret, size_t *ret_n)
{
        const char *pos = text, *end = text + len, *line;
        struct part *parts = NULL;
        size_t n = 0, cap = 0, ll;
        int r = 0;

        while (r >= 0 && next_line(&pos, end, &line, &ll)) {
                const char *p = line, *le = line + ll;
                while (p < le && (*p == ' ' || *p == '\t'))
                        p++;
                if ((size_t) (le - p) < 7 || strncmp(p, "options", 7) != 0 ||
                    (le - p > 7 && p[7] != ' ' && p[7] != '\t'))
                        continue;
                p += 7;
                while (p < le && (*p == ' ' || *p == '\t'))
                        p++;
                r = add_part(&parts, &n, &cap,
                             (struct part){.start = (size_t) (p - text),
                                           .end = (size_t) (le - text),
                                           .quote = '\'', /* never add quotes */
                                           .primary = true});
        }
        if (r < 0) {
                free(parts);
                return r;
        }
        *ret = parts;
        *ret_n = n;
        return 0;
}

int si_bls_cmdline(const char *text, size_t len, struct sbuf *out)
{
        _cleanup_free_ struct part *parts = NULL;
        size_t n = 0;
        int r = bls_parts(text, len, &parts, &n);

        return r < 0 ? r : parts_join(text, parts, n, out);
}

/* Fix every part, then append what the fixed whole still lacks to the last part (or as a new
 * line "@prefix ARGS" at the end of the file when there is no part). */
static int edit_self_contained(const char *old, size_t len, const struct part *parts, size_t n,
                               const struct si_cmdline_goal *goal, const char *prefix, char **ret,
                               struct sbuf *what)
{
        _cleanup_free_ char *add = NULL, *new = NULL;
        struct sbuf all = {}, fixed_all = {};
        int r;

        r = parts_join(old, parts, n, &all);
        if (r >= 0)
                r = sbuf_puts(&all, ""); /* never NULL below */
        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_free_ char *f = NULL;
                r = si_cmdline_fix(old + parts[i].start, parts[i].end - parts[i].start, all.s, goal,
                                   &f, NULL);
                if (r >= 0)
                        r = sbuf_printf(&fixed_all, "%s%s", fixed_all.len ? " " : "", f);
        }
        if (r >= 0)
                r = sbuf_puts(&fixed_all, "");
        if (r >= 0)
                r = si_cmdline_missing(fixed_all.s, goal, &add);
        if (r >= 0)
                r = edit_parts(old, len, parts, n, goal, all.s, n > 0 ? add : NULL,
                               n > 0 ? n - 1 : SIZE_MAX, &new, what);
        if (r >= 0 && n == 0 && *add) {
                size_t nl = strlen(new);
                char *j;
                if (asprintf(&j, "%s%s%s%s\n", new, nl && new[nl - 1] != '\n' ? "\n" : "", prefix,
                             add) < 0)
                        r = -ENOMEM;
                else {
                        free(new);
                        new = j;
                        r = si_cmdline_note(what, "added %.*s%s", add, strlen(add), NULL);
                }
        }
        sbuf_free(&all);
        sbuf_free(&fixed_all);
        if (r < 0)
                return r;
        *ret = strlen(new) == len && memcmp(new, old, len) == 0 ? NULL : TAKE_PTR(new);
        return 0;
}

/* The number of the line (from 1) that holds offset @at of @text. */
static unsigned line_of(const char *text, size_t at)
{
        unsigned line = 1;

        for (size_t i = 0; i < at; i++)
                line += text[i] == '\n';
        return line;
}

int si_bls_edit(const char *old, size_t len, const struct si_cmdline_goal *goal, char **ret,
                unsigned *ret_line, struct sbuf *what)
{
        _cleanup_free_ struct part *parts = NULL;
        size_t n = 0;
        int r = bls_parts(old, len, &parts, &n);

        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                if (!part_editable(old, &parts[i])) {
                        if (ret_line)
                                *ret_line = line_of(old, parts[i].start);
                        return -EBADMSG;
                }
        return edit_self_contained(old, len, parts, n, goal, "options ", ret, what);
}

int si_kernel_cmdline_edit(const char *old, size_t len, const struct si_cmdline_goal *goal,
                           char **ret, unsigned *ret_line, struct sbuf *what)
{
        /* The whole file is the command line (kernel-install joins its lines). */
        struct part whole = {.start = 0, .end = len, .quote = '\'', .primary = true};

        if (!part_editable(old, &whole)) {
                if (ret_line)
                        *ret_line = 0; /* the file as a whole */
                return -EBADMSG;
        }
        return edit_self_contained(old, len, &whole, 1, goal, "", ret, what);
}
