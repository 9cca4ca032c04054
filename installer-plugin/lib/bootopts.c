/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootopts.c — the installer's own kernel command line (/proc/cmdline, or a file): the choices
 * a person made at the boot prompt, which rank above everything else. Read as Anaconda 45.21
 * reads it (pyanaconda/core/kernel.py KernelArguments.read_string, then
 * argument_parsing.py AnacondaArgumentParser.parse_boot_cmdline): the text is stripped, a
 * BOOT_IMAGE= value with an odd number of double quotes gets one more, "\x20" becomes "_", the
 * rest is split with shlex; options are keyed without the "inst." prefix, the last value of a
 * key wins but the key keeps the place of its first appearance, and Anaconda applies them in
 * that order. inst.selinux=V is disabled for exactly "0" and enforcing for any other value; a
 * bare inst.selinux is ignored; inst.noselinux (any value) is disabled.
 * seinstall's own additions (seinstall.ks(5) lists them): the spellings without "inst."
 * (selinux=V, noselinux, which Anaconda ignores since Fedora 34) still count; the kernel's
 * enforcing=N (read as the kernel reads it) makes an enabled or unset mode permissive or
 * enforcing; seinstall.mode=M (M may be "trial": permissive until a clean boot, then
 * enforcing), seinstall.policy=TYPE, seinstall.unsupported=refuse|warn.
 */
#include <ctype.h>

#include "seinstall-private.h"
#include "profile.h"
#include "settings.h"
#include "kickstart.h"

#define CMDLINE_MAX (256 * 1024)

/* One key of the command line, as KernelArguments keeps it. */
struct bootarg {
        char *key;
        char *val;        /* NULL: given without "=" */
        bool prefixed;    /* some occurrence had "inst." */
        const char *word; /* the last occurrence as written, for messages */
        unsigned line;
};

struct bootargs {
        struct bootarg *v;
        size_t n, cap;
};

static void bootargs_free(struct bootargs *a)
{
        for (size_t i = 0; i < a->n; i++) {
                free(a->v[i].key);
                free(a->v[i].val);
        }
        free(a->v);
}

static struct bootarg *bootargs_find(struct bootargs *a, const char *key)
{
        for (size_t i = 0; i < a->n; i++)
                if (streq(a->v[i].key, key))
                        return &a->v[i];
        return NULL;
}

/* KernelArguments.read_string()'s text fix-ups before shlex. */
static int fixup(const char *text, size_t len, struct sbuf *out)
{
        const char *b = text, *e = text + len, *bi = NULL, *right;
        size_t quotes = 0;
        int r = 0;

        b = si_py_lstrip(b, e); /* str.strip() */
        e = si_py_rstrip_end(b, e);
        for (const char *p = b; p + 11 <= e; p++)
                if (memcmp(p, "BOOT_IMAGE=", 11) == 0)
                        bi = p;
        right = bi ? bi + 11 : b;
        for (const char *p = right; p < e; p++)
                quotes += *p == '"';
        for (const char *p = b; p < e && r >= 0;) {
                if (quotes % 2 && p == right) {
                        r = sbuf_append(out, "\"", 1);
                        quotes = 0;
                        continue;
                }
                if (e - p >= 4 && memcmp(p, "\\x20", 4) == 0) {
                        r = sbuf_append(out, "_", 1);
                        p += 4;
                } else {
                        r = sbuf_append(out, p++, 1);
                }
        }
        if (r >= 0 && quotes % 2) /* BOOT_IMAGE= ended the text */
                r = sbuf_append(out, "\"", 1);
        if (r >= 0 && !out->s)
                r = sbuf_puts(out, "");
        return r < 0 ? -ENOMEM : 0;
}

struct decision {
        enum seinstall_mode mode;
        const char *word; /* NULL: nothing decided */
        unsigned line;
};

static unsigned line_at(const struct sbuf *fixed, size_t pos)
{
        unsigned line = 1;
        for (size_t j = 0; j < pos && j < fixed->len; j++)
                line += fixed->s[j] == '\n';
        return line;
}

static int parse_args(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct si_ks_words *w, struct sbuf *fixed, struct bootargs *a)
{
        const char *why = NULL;
        int r;

        size_t bad;

        if (!si_text_utf8(text, strlen(text), &bad))
                return si_error(ctx, -EBADMSG,
                                "%s: not valid UTF-8 at byte %zu: not a kernel command line", name,
                                bad);
        r = fixup(text, strlen(text), fixed);
        if (r < 0)
                return r;
        r = si_ks_split(fixed->s, fixed->len, false, w, &why);
        if (r == -EBADMSG)
                return si_error(ctx, r,
                                "%s: %s: a quote is not closed or the line ends in a backslash "
                                "(the command line is split as a shell would)",
                                name, why);
        if (r == -E2BIG)
                return si_error(ctx, -EBADMSG, "%s: more than 65536 options", name);
        if (r < 0)
                return r;
        for (size_t i = 0; i < w->n; i++) {
                const char *word = w->argv[i], *k = word, *eq;
                _cleanup_free_ char *key = NULL, *val = NULL;
                struct bootarg *b;
                bool prefixed = false;
                unsigned line = line_at(fixed, w->pos[i]);

                if (startswith(k, "inst.")) {
                        k += 5;
                        prefixed = true;
                }
                eq = strchr(k, '=');
                key = eq ? strndup(k, (size_t) (eq - k)) : strdup(k);
                val = eq ? strdup(eq + 1) : NULL;
                if (!key || (eq && !val))
                        return -ENOMEM;
                b = bootargs_find(a, key);
                if (!b) {
                        if (!SI_GROW(a->v, a->cap, a->n + 1))
                                return -ENOMEM;
                        b = &a->v[a->n++];
                        *b = (struct bootarg){.key = TAKE_PTR(key)};
                }
                free(b->val);
                b->val = TAKE_PTR(val);
                b->prefixed |= prefixed;
                b->word = word;
                b->line = line;
        }
        return 0;
}

/* The kernel's kstrtoul(s, 0, ...): decimal, 0x hex or 0 octal, an optional "+" and one
 * trailing newline; -1 when the kernel would ignore the value. */
static int kernel_bool(const char *s)
{
        unsigned long long v = 0;
        unsigned base = 10;
        const char *p = s;
        size_t n;

        if (!s)
                return -1;
        if (*p == '+')
                p++;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char) p[2])) {
                base = 16;
                p += 2;
        } else if (p[0] == '0') {
                base = 8;
        }
        n = strlen(p);
        if (n > 0 && p[n - 1] == '\n')
                n--;
        if (n == 0)
                return -1;
        for (size_t i = 0; i < n; i++) {
                int d = isdigit((unsigned char) p[i])    ? p[i] - '0'
                        : isxdigit((unsigned char) p[i]) ? tolower((unsigned char) p[i]) - 'a' + 10
                                                         : 99;
                if ((unsigned) d >= base)
                        return -1;
                if (v > (~0ULL - (unsigned) d) / base)
                        return -1; /* overflow */
                v = v * base + (unsigned) d;
        }
        return v != 0;
}

int si_bootopts_parse(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct seinstall_settings *s, char **ret_profile)
{
        _cleanup_free_ char *profile = NULL;
        struct si_ks_words w = {};
        struct sbuf fixed = {};
        struct bootargs a = {};
        struct decision anaconda = {SEINSTALL_MODE_INVALID, NULL, 0};
        struct decision explicit = {SEINSTALL_MODE_INVALID, NULL, 0};
        struct decision enforcing = {SEINSTALL_MODE_INVALID, NULL, 0};
        const struct bootarg *policy = NULL, *unsupported = NULL;
        int r;

        r = parse_args(ctx, name, text, &w, &fixed, &a);
        /* The kernel reads enforcing= itself, every occurrence in order: the last valid one
         * counts (so it is not a KernelArguments key). */
        for (size_t i = 0; r >= 0 && i < w.n; i++) {
                const char *v = startswith(w.argv[i], "enforcing=");
                int e = kernel_bool(v);
                if (e >= 0)
                        enforcing = (struct decision){e ? SEINSTALL_MODE_ENFORCING
                                                        : SEINSTALL_MODE_PERMISSIVE,
                                                      w.argv[i], line_at(&fixed, w.pos[i])};
        }
        /* Anaconda applies the keys in the order of their first appearance. */
        for (size_t i = 0; r >= 0 && i < a.n; i++) {
                const struct bootarg *b = &a.v[i];

                if (streq(b->key, "selinux")) {
                        /* nargs="?": a bare selinux is skipped as having no value */
                        if (b->val)
                                anaconda =
                                    (struct decision){streq(b->val, "0") ? SEINSTALL_MODE_DISABLED
                                                                         : SEINSTALL_MODE_ENFORCING,
                                                      b->word, b->line};
                } else if (streq(b->key, "noselinux")) {
                        anaconda = (struct decision){SEINSTALL_MODE_DISABLED, b->word, b->line};
                } else if (streq(b->key, "seinstall.mode")) {
                        explicit =
                            (struct decision){seinstall_mode_from_string(b->val), b->word, b->line};
                        if (explicit.mode == SEINSTALL_MODE_INVALID)
                                r = si_error(ctx, -EBADMSG,
                                             "%s:%u: %s: use seinstall.mode=enforcing, "
                                             "permissive, disabled or trial",
                                             name, b->line, b->word);
                } else if (streq(b->key, "seinstall.policy")) {
                        policy = b;
                        if (!si_policy_type_valid(b->val))
                                r = si_error(ctx, -EBADMSG,
                                             "%s:%u: %s: not a policy type (a directory name "
                                             "under /etc/selinux)",
                                             name, b->line, b->word);
                } else if (streq(b->key, "seinstall.unsupported")) {
                        unsupported = b;
                        if (!b->val || (!streq(b->val, "refuse") && !streq(b->val, "warn")))
                                r = si_error(ctx, -EBADMSG,
                                             "%s:%u: %s: use seinstall.unsupported=refuse or "
                                             "warn",
                                             name, b->line, b->word);
                } else if (streq(b->key, "ks") && b->prefixed && b->val) {
                        const char *path = startswith(b->val, "file:");
                        if (!path || path[0] != '/')
                                si_warn(ctx,
                                        "%s: inst.ks=%s ignored: seinstall reads only local "
                                        "profiles (inst.ks=file:/PATH)",
                                        name, b->val);
                        else if (!(profile = (free(profile), strdup(path))))
                                r = -ENOMEM;
                }
        }
        if (r >= 0) {
                struct decision d = explicit.word ? explicit : anaconda;

                /* enforcing=0 boots an enabled SELinux permissive; enforcing=1 says enforcing
                 * when nothing else spoke */
                if (!explicit.word && enforcing.word && d.mode != SEINSTALL_MODE_DISABLED &&
                    (enforcing.mode == SEINSTALL_MODE_PERMISSIVE || !d.word))
                        d = enforcing;
                if (d.word) {
                        r = seinstall_settings_set_mode(s, d.mode, SEINSTALL_SOURCE_BOOT);
                        if (r > 0)
                                r = si_settings_set_origin(s, SI_SETTING_MODE, name, d.line,
                                                           d.word);
                }
        }
        if (r >= 0 && policy) {
                r = seinstall_settings_set_policy(s, policy->val, SEINSTALL_SOURCE_BOOT);
                if (r > 0)
                        r = si_settings_set_origin(s, SI_SETTING_POLICY, name, policy->line,
                                                   policy->word);
        }
        if (r >= 0 && unsupported) {
                r = seinstall_settings_set_unsupported_warn(s, streq(unsupported->val, "warn"),
                                                            SEINSTALL_SOURCE_BOOT);
                if (r > 0)
                        r = si_settings_set_origin(s, SI_SETTING_UNSUPPORTED, name,
                                                   unsupported->line, unsupported->word);
        }
        si_ks_words_free(&w);
        sbuf_free(&fixed);
        bootargs_free(&a);
        if (r < 0)
                return r;
        if (ret_profile)
                *ret_profile = TAKE_PTR(profile);
        return 0;
}

int seinstall_settings_load_boot_options(struct seinstall_settings *s, struct seinstall_ctx *ctx,
                                         const char *cmdline_file, char **ret_profile)
{
        const char *path = cmdline_file ? cmdline_file : "/proc/cmdline";
        _cleanup_free_ char *text = NULL;
        size_t len;
        int r;

        if (!s || !ctx)
                return -EINVAL;
        r = read_file_bounded(path, CMDLINE_MAX, &text, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read the kernel command line %s: %s", path,
                                r == -EFBIG ? "larger than 256 KiB" : si_file_strerror(r));
        if (memchr(text, '\0', len))
                return si_error(ctx, -EBADMSG, "%s: not a kernel command line (NUL byte)", path);
        return si_bootopts_parse(ctx, path, text, s, ret_profile);
}
