/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmdline-args.c — the kernel command line's arguments: splitting them as the kernel does,
 * reading a value (selinux=, enforcing=), which SELinux arguments a mode needs on a kernel of a
 * given case (docs/design.md), and fixing one part of a command line for it. Only selinux=,
 * enforcing=, security= and lsm= are ever touched. The files that hold a command line are
 * cmdline-files.c's.
 */
#include <limits.h>
#include <stdint.h>

#include "cmdline.h"
#include "config.h"

bool si_cmdline_quotes_balanced(const char *text, size_t len)
{
        bool in_quote = false;

        for (size_t i = 0; i < len; i++)
                if (text[i] == '"')
                        in_quote = !in_quote;
        return !in_quote;
}

/* Next argument of [*pos, end) as the kernel's next_arg() splits them: blanks end it, except
 * inside double quotes, which any '"' toggles. false at the end. */
static bool next_token(const char **pos, const char *end, const char **ret, size_t *ret_len)
{
        const char *p = *pos, *s;
        bool in_quote = false;

        while (p < end && si_cmdline_blank(*p))
                p++;
        if (p >= end)
                return false;
        s = p;
        while (p < end && (in_quote || !si_cmdline_blank(*p))) {
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

/* A SELinux argument whose value keeps a '"' once the kernel removed its quotes. */
static bool token_keeps_quote(const char *t, size_t n)
{
        static const char *const names[] = {"selinux", "enforcing", "security", "lsm"};
        const char *v;
        size_t vn;

        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (token_is(t, n, names[i], &v, &vn) && memchr(v, '"', vn))
                        return true;
        return false;
}

/* A bare "--": the kernel stops there and hands the rest to init. */
static bool token_is_dashes(const char *t, size_t n)
{
        return (n == 2 && strncmp(t, "--", 2) == 0) || (n == 4 && strncmp(t, "\"--\"", 4) == 0);
}

/* Offset of the bare "--" in [s, s + n), or SIZE_MAX. */
bool si_cmdline_selinux_args_plain(const char *text, size_t len)
{
        const char *pos = text, *end = text + len, *t;
        size_t n;

        while (next_token(&pos, end, &t, &n) && !token_is_dashes(t, n))
                if (token_keeps_quote(t, n))
                        return false;
        return true;
}

size_t si_cmdline_find_dashes(const char *s, size_t n)
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

int si_cmdline_note(struct sbuf *what, const char *fmt, const char *a, size_t an, const char *b)
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
                /* a trial boots permissive, then its config alone makes it enforcing */
                if (goal->mode == SEINSTALL_MODE_TRIAL)
                        return 1;
                return goal->mode == SEINSTALL_MODE_PERMISSIVE && num == 1;
        }
        if (token_is(t, n, "security", &v, &vn)) {
                bool sel = range_eq(v, vn, "selinux");
                if (!enabling(goal))
                        return sel;
                /* security= is ignored when lsm= is given; without it, another major LSM named
                 * here would keep SELinux off. */
                if (sel || has_lsm || goal->kcase == SEINSTALL_KERNEL_CASE_NO_SELINUX)
                        return 0;
                *ret_new = strdup("security=selinux");
                return *ret_new ? 2 : -ENOMEM;
        }
        if (token_is(t, n, "lsm", &v, &vn) && goal->kcase != SEINSTALL_KERNEL_CASE_NO_SELINUX) {
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
        while (pos < end && si_cmdline_blank(*pos))
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
                /* the callers' parsers refuse such a line; never rewrite one regardless */
                if (token_keeps_quote(t, n)) {
                        r = -EBADMSG;
                        break;
                }
                a = token_action(t, n, lsm != NULL, goal, &repl);

                if (a < 0) {
                        r = a;
                        break;
                }
                if (a == 1) {
                        r = si_cmdline_note(what, "removed %.*s%s", t, n, NULL);
                } else {
                        if (kept_any)
                                r = sbuf_append(&b, prev_end, (size_t) (t - prev_end));
                        if (r >= 0)
                                r = a == 2 ? sbuf_puts(&b, repl) : sbuf_append(&b, t, n);
                        if (r >= 0 && a == 2)
                                r = si_cmdline_note(what, "replaced %.*s by %s", t, n, repl);
                        kept_any = true;
                }
                prev_end = t + n;
        }
        if (r >= 0) {
                const char *q = end;
                while (q > prev_end && si_cmdline_blank(q[-1]))
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

        bool optin = goal->kcase == SEINSTALL_KERNEL_CASE_SELINUX_OPTIN;
        bool dflt = goal->kcase == SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT;
        bool unknown = goal->kcase == SEINSTALL_KERNEL_CASE_UNKNOWN;

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

        if (kcase == SEINSTALL_KERNEL_CASE_NO_SELINUX)
                return SEINSTALL_MODE_DISABLED;
        if (lsm)
                enabled = si_lsm_list_selinux_first(lsm);
        else if (security)
                enabled = streq(security, "selinux");
        else if (kcase == SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT)
                enabled = 1;
        else if (kcase == SEINSTALL_KERNEL_CASE_SELINUX_OPTIN)
                enabled = 0;
        else
                enabled = -1;
        if (enabled != 0 && sel == 0 && (bootparam || kcase == SEINSTALL_KERNEL_CASE_UNKNOWN))
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
