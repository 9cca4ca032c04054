/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootcmd.c — the kernel command line of the target's boot loader: which SELinux arguments a
 * mode needs on a kernel of a given case (DESIGN.md), and editing them into GRUB's defaults
 * (GRUB_CMDLINE_LINUX with its quoting), Boot Loader Specification entries (`options`) and
 * /etc/kernel/cmdline. Only selinux=, enforcing=, security= and lsm= are ever touched; every
 * other argument, the spacing, quoting and the rest of each file stay as they were.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>

#include "configure.h"

static bool is_blank(char c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Next argument of [*pos, end) as the kernel's next_arg() splits them: blanks end it, except
 * inside double quotes, which any '"' toggles. false at the end. */
static bool next_token(const char **pos, const char *end, const char **ret, size_t *ret_len)
{
        const char *p = *pos, *s;
        bool in_quote = false;

        while (p < end && is_blank(*p))
                p++;
        if (p >= end)
                return false;
        s = p;
        while (p < end && (in_quote || !is_blank(*p))) {
                if (*p == '"')
                        in_quote = !in_quote;
                p++;
        }
        *ret = s;
        *ret_len = (size_t) (p - s);
        *pos = p;
        return true;
}

/* If the argument is @name or @name=value, point at the value ("" without "="), with the
 * quotes the kernel removes removed: a leading '"' of the whole argument ("name=v") or of the
 * value (name="v"), and the matching '"' at its end. */
static bool token_is(const char *t, size_t n, const char *name, const char **ret_v, size_t *ret_vn)
{
        size_t k = strlen(name);
        bool quoted = n > 0 && t[0] == '"';
        const char *v;
        size_t vn;

        if (quoted)
                t++, n--;
        if (n < k || strncmp(t, name, k) != 0 || (n > k && t[k] != '='))
                return false;
        v = n > k ? t + k + 1 : t + n;
        vn = n > k ? n - k - 1 : 0;
        if (vn > 0 && v[0] == '"')
                v++, vn--, quoted = true;
        if (quoted && vn > 0 && v[vn - 1] == '"')
                vn--;
        *ret_v = v;
        *ret_vn = vn;
        return true;
}

/* A bare "--": the kernel stops there and hands the rest to init. */
static bool token_is_dashes(const char *t, size_t n)
{
        return (n == 2 && strncmp(t, "--", 2) == 0) || (n == 4 && strncmp(t, "\"--\"", 4) == 0);
}

/* Offset of the bare "--" in [s, s + n), or SIZE_MAX. */
static size_t find_dashes(const char *s, size_t n)
{
        const char *pos = s, *t;
        size_t tn;

        while (next_token(&pos, s + n, &t, &tn))
                if (token_is_dashes(t, tn))
                        return (size_t) (t - s);
        return SIZE_MAX;
}

static bool range_eq(const char *s, size_t n, const char *lit)
{
        return strlen(lit) == n && strncmp(s, lit, n) == 0;
}

int si_kernel_ulong(const char *v, size_t n, unsigned long *ret)
{
        unsigned long x = 0, base = 10;
        size_t i = 0, digits = 0;

        /* kstrtoul(s, 0, ...): an optional '+', "0x" for hex, a leading 0 for octal, one
         * trailing newline; nothing else, no overflow. */
        if (n > 0 && v[n - 1] == '\n')
                n--;
        if (i < n && v[i] == '+')
                i++;
        if (i + 1 < n && v[i] == '0' && (v[i + 1] == 'x' || v[i + 1] == 'X'))
                base = 16, i += 2;
        else if (i < n && v[i] == '0')
                base = 8;
        for (; i < n; i++, digits++) {
                unsigned long d;
                char c = v[i];

                if (c >= '0' && c <= '9')
                        d = (unsigned long) (c - '0');
                else if (c >= 'a' && c <= 'f')
                        d = (unsigned long) (c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        d = (unsigned long) (c - 'A' + 10);
                else
                        return -EINVAL;
                if (d >= base)
                        return -EINVAL;
                if (x > (ULONG_MAX - d) / base)
                        return -ERANGE;
                x = x * base + d;
        }
        if (!digits)
                return -EINVAL;
        *ret = x;
        return 0;
}

/* 0 or 1 for a value the kernel reads as a number (zero or not), -1 for one it ignores. */
static int num_value(const char *v, size_t vn)
{
        unsigned long x;

        return si_kernel_ulong(v, vn, &x) < 0 ? -1 : x != 0;
}

char *si_cmdline_get(const char *cmdline, const char *name)
{
        const char *pos = cmdline, *end = cmdline + strlen(cmdline), *t, *v = NULL, *tv;
        size_t n, vn = 0, tvn;

        while (next_token(&pos, end, &t, &n) && !token_is_dashes(t, n))
                if (token_is(t, n, name, &tv, &tvn))
                        v = tv, vn = tvn;
        return v ? strndup(v, vn) : NULL;
}

int si_cmdline_get_num(const char *cmdline, const char *name)
{
        const char *pos = cmdline, *end = cmdline + strlen(cmdline), *t, *v;
        size_t n, vn;
        int last = -1;

        /* Each occurrence runs the kernel's setup function; one it cannot parse changes
         * nothing, so the last valid one decides. */
        while (next_token(&pos, end, &t, &n) && !token_is_dashes(t, n))
                if (token_is(t, n, name, &v, &vn) && n > strlen(name) && num_value(v, vn) >= 0)
                        last = num_value(v, vn);
        return last;
}

static bool enabling(const struct si_cmdline_goal *goal)
{
        return goal->mode != SEINSTALL_MODE_DISABLED;
}

/* The lsm= list with selinux placed for @goal: before the first other exclusive LSM when
 * enabling, absent when disabling. Allocated; "" for an empty list. */
static char *lsm_list_fixed(const char *v, size_t vn, bool enable)
{
        struct sbuf b = {};
        const char *p = v, *end = v + vn;
        bool placed = !enable;
        int r = 0;

        while (r >= 0 && p < end) {
                const char *c = memchr(p, ',', (size_t) (end - p));
                size_t n = c ? (size_t) (c - p) : (size_t) (end - p);

                if (!placed && (range_eq(p, n, "apparmor") || range_eq(p, n, "smack"))) {
                        r = sbuf_printf(&b, "%sselinux", b.len ? "," : "");
                        placed = true;
                }
                if (r >= 0 && n > 0 && !range_eq(p, n, "selinux"))
                        r = sbuf_printf(&b, "%s%.*s", b.len ? "," : "", (int) n, p);
                p += n + (c ? 1 : 0);
        }
        if (r >= 0 && !placed)
                r = sbuf_printf(&b, "%sselinux", b.len ? "," : "");
        if (r < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

static int note(struct sbuf *what, const char *fmt, const char *a, size_t an, const char *b)
{
        if (!what)
                return 0;
        if (what->len)
                if (sbuf_puts(what, "; ") < 0)
                        return -ENOMEM;
        return sbuf_printf(what, fmt, (int) an, a, b ? b : "");
}

/* What to do with one token: 0 keep, 1 drop, 2 replace by *ret_new. */
static int token_action(const char *t, size_t n, bool has_lsm, const struct si_cmdline_goal *goal,
                        char **ret_new)
{
        const char *v;
        size_t vn;

        /* Numbers as the kernel reads them (kstrtoul base 0: "00" and "0x0" are 0); a value
         * it cannot parse is ignored by it and left alone here. */
        if (token_is(t, n, "selinux", &v, &vn)) {
                int num = num_value(v, vn);
                if (num < 0)
                        return 0;
                return enabling(goal) ? num == 0 : num == 1;
        }
        if (token_is(t, n, "enforcing", &v, &vn)) {
                int num = num_value(v, vn);
                if (num < 0)
                        return 0;
                if (goal->mode == SEINSTALL_MODE_ENFORCING)
                        return num == 0;
                return goal->mode == SEINSTALL_MODE_PERMISSIVE && num == 1;
        }
        if (token_is(t, n, "security", &v, &vn)) {
                bool sel = range_eq(v, vn, "selinux");
                if (!enabling(goal))
                        return sel;
                /* security= is ignored when lsm= is given; without it, another major LSM named
                 * here would keep SELinux off. */
                if (sel || has_lsm || goal->kcase == SEINSTALL_KERNEL_NO_SELINUX)
                        return 0;
                *ret_new = strdup("security=selinux");
                return *ret_new ? 2 : -ENOMEM;
        }
        if (token_is(t, n, "lsm", &v, &vn) && goal->kcase != SEINSTALL_KERNEL_NO_SELINUX) {
                _cleanup_free_ char *list = lsm_list_fixed(v, vn, enabling(goal));
                if (!list)
                        return -ENOMEM;
                if (range_eq(v, vn, list))
                        return 0;
                if (!*list)
                        return 1;
                if (asprintf(ret_new, "lsm=%s", list) < 0)
                        return -ENOMEM;
                return 2;
        }
        return 0;
}

int si_cmdline_fix(const char *text, size_t len, const char *all,
                   const struct si_cmdline_goal *goal, char **ret, struct sbuf *what)
{
        _cleanup_free_ char *lsm = si_cmdline_get(all ? all : "", "lsm");
        const char *pos = text, *end = text + len, *t, *prev_end;
        struct sbuf b = {};
        bool kept_any = false;
        size_t n;
        int r;

        /* Leading blanks stay; between kept tokens the blanks after a dropped one are used. */
        while (pos < end && is_blank(*pos))
                pos++;
        r = sbuf_append(&b, text, (size_t) (pos - text));
        prev_end = pos;
        while (r >= 0 && next_token(&pos, end, &t, &n)) {
                _cleanup_free_ char *repl = NULL;
                int a;

                /* Init's arguments follow a bare "--": never the kernel's, never touched. */
                if (token_is_dashes(t, n)) {
                        if (kept_any)
                                r = sbuf_append(&b, prev_end, (size_t) (t - prev_end));
                        if (r >= 0)
                                r = sbuf_append(&b, t, (size_t) (end - t));
                        prev_end = end;
                        break;
                }
                a = token_action(t, n, lsm != NULL, goal, &repl);

                if (a < 0) {
                        r = a;
                        break;
                }
                if (a == 1) {
                        r = note(what, "removed %.*s%s", t, n, NULL);
                } else {
                        if (kept_any)
                                r = sbuf_append(&b, prev_end, (size_t) (t - prev_end));
                        if (r >= 0)
                                r = a == 2 ? sbuf_puts(&b, repl) : sbuf_append(&b, t, n);
                        if (r >= 0 && a == 2)
                                r = note(what, "replaced %.*s by %s", t, n, repl);
                        kept_any = true;
                }
                prev_end = t + n;
        }
        if (r >= 0) {
                const char *q = end;
                while (q > prev_end && is_blank(q[-1]))
                        q--;
                r = sbuf_append(&b, q, (size_t) (end - q));
        }
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}

int si_cmdline_missing(const char *all, const struct si_cmdline_goal *goal, char **ret)
{
        _cleanup_free_ char *lsm = si_cmdline_get(all, "lsm");
        _cleanup_free_ char *security = si_cmdline_get(all, "security");
        int sel = si_cmdline_get_num(all, "selinux");
        const char *add = "";

        bool optin = goal->kcase == SEINSTALL_KERNEL_SELINUX_OPTIN;
        bool dflt = goal->kcase == SEINSTALL_KERNEL_SELINUX_DEFAULT;
        bool unknown = goal->kcase == SEINSTALL_KERNEL_UNKNOWN;

        /* An unknown kernel gets both: security=selinux to enable, selinux=0 to disable. */
        if (enabling(goal) && (optin || unknown) && !lsm && !streq_ptr(security, "selinux"))
                add = "security=selinux";
        if (!enabling(goal) && (dflt || unknown) && sel != 0)
                add = "selinux=0";
        *ret = strdup(add);
        return *ret ? 0 : -ENOMEM;
}

enum seinstall_mode si_cmdline_boot_mode(const char *cmdline, enum seinstall_kernel_case kcase,
                                         bool bootparam, enum seinstall_mode config_mode)
{
        _cleanup_free_ char *lsm = si_cmdline_get(cmdline, "lsm");
        _cleanup_free_ char *security = si_cmdline_get(cmdline, "security");
        int sel = si_cmdline_get_num(cmdline, "selinux");
        int enforcing = si_cmdline_get_num(cmdline, "enforcing");
        int enabled; /* -1 unknown */

        if (kcase == SEINSTALL_KERNEL_NO_SELINUX)
                return SEINSTALL_MODE_DISABLED;
        if (lsm)
                enabled = si_lsm_list_selinux_first(lsm);
        else if (security)
                enabled = streq(security, "selinux");
        else if (kcase == SEINSTALL_KERNEL_SELINUX_DEFAULT)
                enabled = 1;
        else if (kcase == SEINSTALL_KERNEL_SELINUX_OPTIN)
                enabled = 0;
        else
                enabled = -1;
        if (enabled != 0 && sel == 0 && (bootparam || kcase == SEINSTALL_KERNEL_UNKNOWN))
                enabled = 0;
        if (enabled < 0)
                return SEINSTALL_MODE_INVALID;
        /* SELINUX=disabled (or no config) since Linux 6.4: no policy is loaded, nothing is
         * enforced; for the person that is "disabled". */
        if (!enabled || config_mode == SEINSTALL_MODE_INVALID ||
            config_mode == SEINSTALL_MODE_DISABLED)
                return SEINSTALL_MODE_DISABLED;
        if (enforcing == 0)
                return SEINSTALL_MODE_PERMISSIVE;
        if (enforcing == 1)
                return SEINSTALL_MODE_ENFORCING;
        return config_mode;
}

/* ---- files: parts of a file that hold command line arguments ----------------------------- */

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
                        else if (find_dashes(text + parts[i].start,
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
                if (i == add_to && add && *add && find_dashes(fixed, strlen(fixed)) != SIZE_MAX) {
                        size_t off = find_dashes(fixed, strlen(fixed));
                        _cleanup_free_ char *joined = NULL;

                        /* "a -- b" + X is "a X -- b": after "--" it would go to init. */
                        if (asprintf(&joined, "%.*s%s %s", (int) off, fixed, add, fixed + off) <
                            0) {
                                r = -ENOMEM;
                                break;
                        }
                        free(fixed);
                        fixed = TAKE_PTR(joined);
                        r = note(what, "added %.*s%s", add, strlen(add), NULL);
                        quote_now = p->quote == 0 && strpbrk(fixed, " \t");
                } else if (i == add_to && add && *add) {
                        size_t fl = strlen(fixed), keep = fl;
                        _cleanup_free_ char *joined = NULL;
                        /* An empty part right after its keyword (a BLS "options" line with no
                         * value) needs a blank before what is added, or "optionsselinux=0". */
                        bool glued = p->start > 0 && !is_blank(text[p->start - 1]) &&
                                     !strchr("\"'=", text[p->start - 1]);
                        while (keep > 0 && is_blank(fixed[keep - 1]))
                                keep--;
                        if (asprintf(&joined, "%.*s%s%s%s", (int) keep, fixed,
                                     keep || glued ? " " : "", add, fixed + keep) < 0) {
                                r = -ENOMEM;
                                break;
                        }
                        free(fixed);
                        fixed = TAKE_PTR(joined);
                        r = note(what, "added %.*s%s", add, strlen(add), NULL);
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

static int add_part(struct part **parts, size_t *n, struct part p)
{
        struct part *np;

        if (*n >= PARTS_MAX)
                return -E2BIG;
        np = realloc(*parts, (*n + 1) * sizeof(**parts));
        if (!np)
                return -ENOMEM;
        np[(*n)++] = p;
        *parts = np;
        return 0;
}

/* Find the GRUB_CMDLINE_LINUX(_DEFAULT) assignments of a shell text. -EBADMSG with *ret_line
 * for one whose value seinstall cannot edit without understanding more shell than it does. */
static int grub_parts(const char *text, size_t len, struct part **ret, size_t *ret_n,
                      unsigned *ret_line)
{
        const char *pos = text, *end = text + len, *line;
        struct part *parts = NULL;
        size_t n = 0, ll;
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
                        while (q < le && !is_blank(*q) && *q != ';' && *q != '#') {
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
                if (v < le && !is_blank(*v) && *v != ';' && *v != '#') {
                        r = -EBADMSG;
                        break;
                }
                r = add_part(&parts, &n, part);
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
                r = note(what, "added GRUB_CMDLINE_LINUX=\"%.*s\"%s", add, strlen(add), NULL);
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
        size_t n = 0, ll;
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
                r = add_part(&parts, &n,
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
                        r = note(what, "added %.*s%s", add, strlen(add), NULL);
                }
        }
        sbuf_free(&all);
        sbuf_free(&fixed_all);
        if (r < 0)
                return r;
        *ret = strlen(new) == len && memcmp(new, old, len) == 0 ? NULL : TAKE_PTR(new);
        return 0;
}

int si_bls_edit(const char *old, size_t len, const struct si_cmdline_goal *goal, char **ret,
                struct sbuf *what)
{
        _cleanup_free_ struct part *parts = NULL;
        size_t n = 0;
        int r = bls_parts(old, len, &parts, &n);

        if (r < 0)
                return r;
        return edit_self_contained(old, len, parts, n, goal, "options ", ret, what);
}

int si_kernel_cmdline_edit(const char *old, size_t len, const struct si_cmdline_goal *goal,
                           char **ret, struct sbuf *what)
{
        /* The whole file is the command line (kernel-install joins its lines). */
        struct part whole = {.start = 0, .end = len, .quote = '\'', .primary = true};

        return edit_self_contained(old, len, &whole, 1, goal, "", ret, what);
}
