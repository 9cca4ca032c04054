/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * profile.c — unattended profiles: kickstart files. Reads the `selinux` command with
 * pykickstart's grammar (argparse: unambiguous prefixes, case-sensitive, the last option wins,
 * a repeated command replaces the earlier one, shlex tokens with # comments) and seinstall's
 * own `%addon org_seinstall` section, and feeds them into the settings as source "profile".
 * Every other command and section is skipped; a section without %end, an unknown option or
 * value, or a file with NUL bytes is bad input (-EBADMSG, the message names file and line).
 */
#include "configure.h"

#define PROFILE_MAX (4 * 1024 * 1024)
#define TOKENS_MAX  4096

struct tokens {
        char **v;
        size_t n;
};

static void tokens_free(struct tokens *t)
{
        si_strv_free(t->v, t->n);
        t->v = NULL;
        t->n = 0;
}

static int tokens_push(struct tokens *t, struct sbuf *b)
{
        char **v;

        if (t->n >= TOKENS_MAX)
                return -E2BIG;
        v = realloc(t->v, (t->n + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        t->v = v;
        t->v[t->n] = sbuf_steal(b);
        if (!t->v[t->n])
                return -ENOMEM;
        t->n++;
        return 0;
}

/* Split a line as Python's shlex.split(line, comments=True) does: blanks separate words,
 * quotes and backslashes as in a POSIX shell, # outside quotes starts a comment. -EBADMSG for
 * an unclosed quote. */
static int shlex_split(const char *line, size_t len, struct tokens *ret)
{
        const char *p = line, *end = line + len;
        struct tokens t = {};
        struct sbuf b = {};
        bool in_word = false;
        int r = 0;

        while (r >= 0 && p < end) {
                char c = *p++;

                if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                        if (in_word)
                                r = tokens_push(&t, &b);
                        in_word = false;
                } else if (c == '#') {
                        break;
                } else if (c == '\\') {
                        in_word = true;
                        r = p < end ? sbuf_append(&b, p++, 1) : sbuf_puts(&b, "");
                } else if (c == '\'' || c == '"') {
                        const char *q = p;
                        in_word = true;
                        r = sbuf_puts(&b, "");
                        while (r >= 0 && q < end && *q != c) {
                                if (c == '"' && *q == '\\' && q + 1 < end && strchr("\"\\$`", q[1]))
                                        q++;
                                r = sbuf_append(&b, q++, 1);
                        }
                        if (q >= end) {
                                r = -EBADMSG;
                                break;
                        }
                        p = q + 1;
                } else {
                        in_word = true;
                        r = sbuf_append(&b, &c, 1);
                }
        }
        if (r >= 0 && in_word)
                r = tokens_push(&t, &b);
        sbuf_free(&b);
        if (r < 0) {
                tokens_free(&t);
                return r;
        }
        *ret = t;
        return 0;
}

/* argparse's long option matching: an exact name, else the one name @arg is a prefix of.
 * Returns the index, -1 for none, -2 for an ambiguous prefix. */
static int match_option(const char *arg, size_t n, const char *const *names, size_t count)
{
        int found = -1;

        if (n == 0)
                return -1;
        for (size_t i = 0; i < count; i++) {
                if (strlen(names[i]) == n && strncmp(names[i], arg, n) == 0)
                        return (int) i;
                if (strlen(names[i]) > n && strncmp(names[i], arg, n) == 0)
                        found = found == -1 ? (int) i : -2;
        }
        return found;
}

struct profile {
        const char *name; /* file name for messages */
        struct seinstall_ctx *ctx;
        bool mode_set;
        enum seinstall_mode mode;
        char *policy;
        int unsupported_warn; /* -1 unset */
        int relabel;          /* -1 unset, else enum seinstall_relabel_when */
};

static int bad(struct profile *pf, unsigned line, const char *fmt, const char *a, const char *b)
{
        _cleanup_free_ char *what = NULL;

        if (asprintf(&what, fmt, a, b ? b : "") < 0)
                return -ENOMEM;
        return si_error(pf->ctx, -EBADMSG, "%s:%u: %s", pf->name, line, what);
}

/* `selinux [--enforcing|--permissive|--disabled]...` */
static int parse_selinux(struct profile *pf, unsigned line, const struct tokens *t)
{
        static const char *const names[] = {"disabled", "enforcing", "permissive"};
        static const enum seinstall_mode modes[] = {
            SEINSTALL_MODE_DISABLED, SEINSTALL_MODE_ENFORCING, SEINSTALL_MODE_PERMISSIVE};
        bool set = false, options_done = false;
        enum seinstall_mode mode = SEINSTALL_MODE_INVALID;

        for (size_t i = 1; i < t->n; i++) {
                const char *a = t->v[i], *eq;
                int m;

                if (!options_done && streq(a, "--")) {
                        options_done = true; /* argparse: only positionals follow */
                        continue;
                }
                if (options_done || !startswith(a, "--"))
                        return bad(pf, line,
                                   "selinux does not take arguments: '%s' (use --enforcing, "
                                   "--permissive or --disabled)%s",
                                   a, NULL);
                eq = strchr(a, '=');
                m = match_option(a + 2, eq ? (size_t) (eq - a - 2) : strlen(a + 2), names,
                                 ELEMENTSOF(names));
                if (m < 0)
                        return bad(pf, line,
                                   "selinux: unknown option '%s' (options are --enforcing, "
                                   "--permissive and --disabled, lower case)%s",
                                   a, NULL);
                if (eq)
                        return bad(pf, line, "selinux: option --%s takes no value: '%s'", names[m],
                                   a);
                mode = modes[m];
                set = true;
        }
        /* A repeated command replaces the earlier one; a bare `selinux` chooses nothing, as in
         * pykickstart, so the installer's default (here: the target's config) applies. */
        pf->mode_set = set;
        pf->mode = mode;
        return 0;
}

/* `%addon org_seinstall --policy=TYPE --unsupported=refuse|warn --relabel=install|firstboot` */
static int parse_addon(struct profile *pf, unsigned line, const struct tokens *t)
{
        static const char *const names[] = {"policy", "unsupported", "relabel"};

        for (size_t i = 2; i < t->n; i++) {
                const char *a = t->v[i], *eq, *v;
                int m;

                if (!startswith(a, "--"))
                        return bad(pf, line, "%%addon org_seinstall: unexpected argument '%s'%s", a,
                                   NULL);
                eq = strchr(a, '=');
                m = match_option(a + 2, eq ? (size_t) (eq - a - 2) : strlen(a + 2), names,
                                 ELEMENTSOF(names));
                if (m < 0)
                        return bad(pf, line,
                                   "%%addon org_seinstall: unknown option '%s' (options are "
                                   "--policy, --unsupported and --relabel)%s",
                                   a, NULL);
                if (eq)
                        v = eq + 1;
                else if (i + 1 < t->n)
                        v = t->v[++i];
                else
                        return bad(pf, line, "%%addon org_seinstall: --%s needs a value%s",
                                   names[m], NULL);
                if (m == 0) {
                        if (!si_policy_type_valid(v))
                                return bad(pf, line,
                                           "%%addon org_seinstall: --policy=%s is not a policy "
                                           "type (a directory name under /etc/selinux)%s",
                                           v, NULL);
                        free(pf->policy);
                        pf->policy = strdup(v);
                        if (!pf->policy)
                                return -ENOMEM;
                } else if (m == 1) {
                        if (!streq(v, "refuse") && !streq(v, "warn"))
                                return bad(pf, line,
                                           "%%addon org_seinstall: --unsupported=%s: use refuse "
                                           "or warn%s",
                                           v, NULL);
                        pf->unsupported_warn = streq(v, "warn");
                } else {
                        enum seinstall_relabel_when rl = seinstall_relabel_when_from_string(v);
                        if (rl == SEINSTALL_RELABEL_WHEN_INVALID)
                                return bad(pf, line,
                                           "%%addon org_seinstall: --relabel=%s: use install or "
                                           "firstboot%s",
                                           v, NULL);
                        pf->relabel = rl;
                }
        }
        return 0;
}

/* The line of byte offset @off. */
static unsigned line_of(const char *text, size_t off)
{
        unsigned line = 1;
        for (size_t i = 0; i < off; i++)
                line += text[i] == '\n';
        return line;
}

int si_profile_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                     struct seinstall_settings *s)
{
        struct profile pf = {.name = name, .ctx = ctx, .unsupported_warn = -1, .relabel = -1};
        const char *pos = text, *end = text + len, *line, *nul;
        _cleanup_free_ char *section = NULL;
        bool ours = false;
        unsigned lineno = 0, section_line = 0;
        size_t n;
        int r = 0;

        nul = memchr(text, '\0', len);
        if (nul)
                return si_error(ctx, -EBADMSG,
                                "%s:%u: not a text file (NUL byte): not a "
                                "kickstart profile",
                                name, line_of(text, (size_t) (nul - text)));
        while (r >= 0 && next_line(&pos, end, &line, &n)) {
                struct tokens t = {};
                size_t w;

                lineno++;
                n = strip_range(&line, n);
                if (n == 0 || line[0] == '#')
                        continue;
                w = strcspn(line, " \t#");
                w = w < n ? w : n;
                if (section) {
                        /* Inside a section (scripts, package lists, other addons) only %end
                         * matters; nothing else is tokenized. Our addon's body must be empty. */
                        if (w == 4 && strncmp(line, "%end", 4) == 0) {
                                section = (free(section), NULL);
                                ours = false;
                        } else if (ours) {
                                r = si_error(ctx, -EBADMSG,
                                             "%s:%u: %%addon org_seinstall takes its options on "
                                             "the %%addon line, not in its body",
                                             name, lineno);
                        }
                        continue;
                }
                /* Other commands are skipped without being parsed. */
                if (line[0] != '%' && !(w == 7 && strncmp(line, "selinux", 7) == 0))
                        continue;
                r = shlex_split(line, n, &t);
                if (r == -EBADMSG)
                        r = si_error(ctx, r, "%s:%u: no closing quotation", name, lineno);
                if (r < 0)
                        break;
                if (t.n == 0) {
                        /* only a comment */
                } else if (t.v[0][0] == '%') {
                        if (streq(t.v[0], "%include") || streq(t.v[0], "%ksappend")) {
                                si_warn(ctx, "%s:%u: %s is not followed by seinstall", name, lineno,
                                        t.v[0]);
                        } else if (!streq(t.v[0], "%end")) {
                                section = strdup(t.v[0]);
                                section_line = lineno;
                                if (!section)
                                        r = -ENOMEM;
                                ours = streq(t.v[0], "%addon") && t.n > 1 &&
                                       streq(t.v[1], "org_seinstall");
                                if (r >= 0 && ours)
                                        r = parse_addon(&pf, lineno, &t);
                        }
                } else if (streq(t.v[0], "selinux")) {
                        r = parse_selinux(&pf, lineno, &t);
                }
                tokens_free(&t);
        }
        if (r >= 0 && section)
                r = si_error(ctx, -EBADMSG, "%s:%u: section %s has no %%end", name, section_line,
                             section);
        if (r >= 0 && pf.mode_set)
                r = seinstall_settings_set_mode(s, pf.mode, SEINSTALL_SOURCE_PROFILE);
        if (r >= 0 && pf.policy)
                r = seinstall_settings_set_policy(s, pf.policy, SEINSTALL_SOURCE_PROFILE);
        if (r >= 0 && pf.unsupported_warn >= 0)
                r = seinstall_settings_set_unsupported_warn(s, pf.unsupported_warn,
                                                            SEINSTALL_SOURCE_PROFILE);
        if (r >= 0 && pf.relabel >= 0)
                r = seinstall_settings_set_relabel_when(s, (enum seinstall_relabel_when) pf.relabel,
                                                        SEINSTALL_SOURCE_PROFILE);
        free(pf.policy);
        return r < 0 ? r : 0;
}

SEINSTALL_EXPORT int seinstall_settings_load_profile(struct seinstall_settings *s,
                                                     struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        int r;

        if (!s || !ctx || !path)
                return -EINVAL;
        r = read_file_bounded(path, PROFILE_MAX, &text, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read the profile %s: %s", path,
                                r == -EFBIG ? "larger than 4 MiB, not a kickstart file"
                                            : si_file_strerror(r));
        return si_profile_parse(ctx, path, text, len, s);
}

SEINSTALL_EXPORT const char *seinstall_relabel_when_to_string(enum seinstall_relabel_when r)
{
        static const char *const names[] = {
            [SEINSTALL_RELABEL_WHEN_INSTALL] = "install",
            [SEINSTALL_RELABEL_WHEN_FIRSTBOOT] = "firstboot",
        };
        return r >= 0 && (size_t) r < ELEMENTSOF(names) ? names[r] : NULL;
}

SEINSTALL_EXPORT enum seinstall_relabel_when seinstall_relabel_when_from_string(const char *s)
{
        for (int i = 0; s && i <= SEINSTALL_RELABEL_WHEN_FIRSTBOOT; i++)
                if (streq(s, seinstall_relabel_when_to_string((enum seinstall_relabel_when) i)))
                        return (enum seinstall_relabel_when) i;
        return SEINSTALL_RELABEL_WHEN_INVALID;
}
