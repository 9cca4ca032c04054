/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext.c — the file-contexts lookup engine: loads a policy's file_contexts (plus .homedirs,
 * .local, .subs_dist and .subs) and answers "which context does this path get" exactly as
 * libselinux 3.4's selabel_lookup_raw() does, only much faster.
 *
 * What libselinux does, and what we reproduce:
 *  - specs are kept in file order (file_contexts, then .homedirs, then .local), then stably
 *    partitioned: specs whose regex has a meta character (. ^ $ ? * + | [ ( {, a backslash
 *    escaping the next character) first, the others ("exact") after them;
 *  - a lookup first rewrites the path with the substitutions (.subs, then .subs_dist), then
 *    tries the specs from the last to the first; the first whose file type qualifier allows the
 *    file's type and whose regex matches wins; "<<none>>" wins like any context but means "do
 *    not label";
 *  - each regex is matched as PCRE2 "^" REGEX "$" with PCRE2_DOTALL, except that a spec whose
 *    text up to its second "/" has no meta character (its "stem") only applies to paths with the
 *    same first component, and then its regex minus the stem is matched against the path minus
 *    its stem.
 * What we add: the same PCRE2 patterns, but each spec is filed under the literal prefix every
 * path it matches must start with (a byte trie), exact specs that are plain strings go into a
 * hash table, and a required literal substring screens candidates before the regex runs. A
 * lookup walks the trie along the path and merges the few candidate lists from the highest
 * spec index down, stopping at the first match — the same answer, far fewer regex runs.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <stdint.h>
#include <sys/stat.h>

#include "configure.h"
#include "fcontext.h"

#define FC_FILE_MAX (64u << 20) /* a file_contexts larger than this is not a policy's */

struct fc_spec {
        char *regex;       /* as written in the file */
        int ctx;           /* index into contexts, -1 for <<none>> */
        mode_t mode;       /* S_IFMT value, 0 for any type */
        uint32_t stem_len; /* libselinux's stem: regex bytes before its second '/' */
        pcre2_code *re;    /* "^" regex-after-stem "$"; NULL for plain literals */
        char *literal;     /* exact specs that are plain strings: the unescaped string */
        char *required;    /* a literal that every matching path contains, or NULL */
        size_t required_len;
        uint32_t file, line; /* where it came from */
        bool meta;           /* libselinux's hasMetaChars */
};

struct fc_context {
        char *str;
        bool invalid;
};

struct fc_sub {
        char *src, *dst;
        size_t slen;
};

struct trie_node {
        uint32_t child;   /* first child, 0 for none (the root is never a child) */
        uint32_t sibling; /* next sibling, 0 for none */
        uint32_t *specs;  /* spec indices filed here, ascending */
        uint32_t nspecs, cap;
        unsigned char ch;
};

struct si_fcontext {
        struct fc_spec *specs;
        size_t nspecs, cap_specs;
        struct fc_context *contexts;
        size_t ncontexts, cap_contexts;
        struct fc_sub *subs, *dist_subs; /* in the order libselinux tries them */
        size_t nsubs, ndist_subs;
        struct trie_node *nodes;
        size_t nnodes, cap_nodes;
        uint32_t *lit_table; /* open addressing: 1 + highest spec index with that literal */
        uint32_t *lit_next;  /* per spec: 1 + next lower spec index with the same literal */
        size_t lit_mask;
        char *files[5];
        size_t nfiles;
        unsigned flags; /* SI_FC_* */
};

/* A pattern that backtracks catastrophically costs seconds per path and hours per tree: stop
 * it far above what any real file contexts pattern needs (a few hundred steps) and far below
 * PCRE2's default of ten million, and say which spec it was. */
#define FC_MATCH_LIMIT 1000000u
#define FC_DEPTH_LIMIT 100000u

struct si_fc_scratch {
        pcre2_match_data *md;
        pcre2_match_context *mctx;
        int limit_spec; /* the spec whose match hit a limit in the last lookup, or -1 */
        struct sbuf key, norm;
        const uint32_t **lists;
        uint32_t *pos;
        size_t cap_lists;
};

/* ---- parsing the regex text --------------------------------------------------------- */

static bool is_meta(char c)
{
        return strchr(".^$?*+|[({", c) != NULL && c != '\0';
}

/* libselinux's spec_hasMetaChars(). */
static bool has_meta_chars(const char *re)
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
static uint32_t stem_of_spec(const char *re)
{
        const char *slash = re[0] ? strchr(re + 1, '/') : NULL;

        if (!slash)
                return 0;
        for (const char *c = re; c < slash; c++)
                if (is_meta(*c))
                        return 0;
        return (uint32_t) (slash - re);
}

/* libselinux's get_stem_from_file_name(). */
static size_t stem_of_path(const char *path)
{
        const char *slash = path[0] ? strchr(path + 1, '/') : NULL;
        return slash ? (size_t) (slash - path) : 0;
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
static void literal_prefix(const char *re, char *out, size_t *ret_len, bool *ret_complete)
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
static bool toplevel_alternation(const char *re)
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
static int required_literal(const char *re, char **ret, size_t *ret_len)
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

/* ---- loading ------------------------------------------------------------------------ */

static mode_t mode_from_string(const char *s)
{
        if (s[0] != '-' || !s[1] || s[2])
                return (mode_t) -1;
        switch (s[1]) {
        case 'b':
                return S_IFBLK;
        case 'c':
                return S_IFCHR;
        case 'd':
                return S_IFDIR;
        case 'p':
                return S_IFIFO;
        case 'l':
                return S_IFLNK;
        case 's':
                return S_IFSOCK;
        case '-':
                return S_IFREG;
        default:
                return (mode_t) -1;
        }
}

static int context_index(struct si_fcontext *fc, const char *s)
{
        /* Few distinct contexts (about a thousand): a linear search at load time is cheap
         * enough next to compiling the regexes, and keeps this simple. */
        for (size_t i = fc->ncontexts; i > 0; i--)
                if (streq(fc->contexts[i - 1].str, s))
                        return (int) (i - 1);
        if (fc->ncontexts == fc->cap_contexts) {
                size_t cap = fc->cap_contexts ? fc->cap_contexts * 2 : 256;
                struct fc_context *n = realloc(fc->contexts, cap * sizeof(*n));
                if (!n)
                        return -ENOMEM;
                fc->contexts = n;
                fc->cap_contexts = cap;
        }
        fc->contexts[fc->ncontexts].str = strdup(s);
        if (!fc->contexts[fc->ncontexts].str)
                return -ENOMEM;
        fc->contexts[fc->ncontexts].invalid = false;
        return (int) fc->ncontexts++;
}

/* Split a line into at most @max whitespace-separated fields (as read_spec_entries()).
 * Returns the number of fields, or -E2BIG when there are more. Modifies @line. */
static int split_fields(char *line, char **fields, int max)
{
        int n = 0;
        char *p = line;

        for (;;) {
                while (*p && isspace((unsigned char) *p))
                        p++;
                if (!*p)
                        return n;
                if (n == 0 && *p == '#')
                        return 0;
                if (n == max)
                        return -E2BIG;
                fields[n++] = p;
                while (*p && !isspace((unsigned char) *p))
                        p++;
                if (*p)
                        *p++ = '\0';
        }
}

static int add_spec(struct seinstall_ctx *ctx, struct si_fcontext *fc, char **fields, int n,
                    uint32_t file, uint32_t line)
{
        const char *re = fields[0], *type = n == 3 ? fields[1] : NULL, *con = fields[n - 1];
        struct fc_spec *sp;
        int ci = -1;

        if (fc->nspecs == fc->cap_specs) {
                size_t cap = fc->cap_specs ? fc->cap_specs * 2 : 1024;
                struct fc_spec *nsp = realloc(fc->specs, cap * sizeof(*nsp));
                if (!nsp)
                        return -ENOMEM;
                fc->specs = nsp;
                fc->cap_specs = cap;
        }
        if (!streq(con, "<<none>>")) {
                ci = context_index(fc, con);
                if (ci < 0)
                        return ci;
        }
        sp = &fc->specs[fc->nspecs];
        *sp = (struct fc_spec){.ctx = ci, .file = file, .line = line};
        if (type) {
                sp->mode = mode_from_string(type);
                if (sp->mode == (mode_t) -1)
                        return si_error(ctx, -EBADMSG,
                                        "%s:%u: invalid file type '%s' (expected one of -- -d "
                                        "-l -b -c -p -s)",
                                        fc->files[file], line, type);
        }
        sp->regex = strdup(re);
        if (!sp->regex)
                return -ENOMEM;
        fc->nspecs++;
        sp->meta = has_meta_chars(re);
        sp->stem_len = stem_of_spec(re);
        return 0;
}

static int parse_file(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *name,
                      char *data, size_t len)
{
        const char *pos = data, *end = data + len, *l;
        size_t llen;
        uint32_t lineno = 0, file;
        _cleanup_free_ char *buf = NULL;
        size_t bufcap = 0;

        fc->files[fc->nfiles] = strdup(name);
        if (!fc->files[fc->nfiles])
                return -ENOMEM;
        file = (uint32_t) fc->nfiles++;
        while (next_line(&pos, end, &l, &llen)) {
                char *fields[3];
                int n, r;

                lineno++;
                /* libselinux would read up to the NUL and drop the rest of the line */
                if (memchr(l, '\0', llen))
                        return si_error(ctx, -EBADMSG,
                                        "%s:%u: not a text file (NUL byte); a policy's file "
                                        "contexts are text",
                                        name, lineno);
                if (llen + 1 > bufcap) {
                        char *nb = realloc(buf, llen + 1);
                        if (!nb)
                                return -ENOMEM;
                        buf = nb;
                        bufcap = llen + 1;
                }
                memcpy(buf, l, llen);
                buf[llen] = '\0';
                n = split_fields(buf, fields, 3);
                if (n == 0)
                        continue;
                if (n == 1)
                        return si_error(ctx, -EBADMSG,
                                        "%s:%u: missing fields (expected REGEX [TYPE] CONTEXT)",
                                        name, lineno);
                if (n < 0)
                        return si_error(ctx, -EBADMSG,
                                        "%s:%u: too many fields (expected REGEX [TYPE] CONTEXT)",
                                        name, lineno);
                r = add_spec(ctx, fc, fields, n, file, lineno);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* selabel_subs_init(): "SRC DST" lines; libselinux prepends each to its list, so the last
 * line is tried first. */
static int parse_subs(struct seinstall_ctx *ctx, const char *name, char *data, size_t len,
                      struct fc_sub **ret, size_t *ret_n)
{
        const char *pos = data, *end = data + len, *l;
        size_t llen, n = 0, cap = 0;
        struct fc_sub *subs = NULL;
        uint32_t lineno = 0;

        while (next_line(&pos, end, &l, &llen)) {
                _cleanup_free_ char *copy = strndup(l, llen);
                char *fields[2];
                int nf;

                lineno++;
                if (!copy)
                        goto oom;
                nf = split_fields(copy, fields, 2);
                if (nf == 0)
                        continue;
                if (nf != 2) {
                        for (size_t i = 0; i < n; i++) {
                                free(subs[i].src);
                                free(subs[i].dst);
                        }
                        free(subs);
                        return si_error(ctx, -EBADMSG, "%s:%u: expected two paths (ALIAS ORIGINAL)",
                                        name, lineno);
                }
                if (n == cap) {
                        struct fc_sub *ns;
                        cap = cap ? cap * 2 : 16;
                        ns = realloc(subs, cap * sizeof(*ns));
                        if (!ns)
                                goto oom;
                        subs = ns;
                }
                subs[n].src = strdup(fields[0]);
                subs[n].dst = strdup(fields[1]);
                subs[n].slen = strlen(fields[0]);
                n++;
                if (!subs[n - 1].src || !subs[n - 1].dst)
                        goto oom;
        }
        /* reverse into libselinux's order */
        for (size_t i = 0; i < n / 2; i++) {
                struct fc_sub t = subs[i];
                subs[i] = subs[n - 1 - i];
                subs[n - 1 - i] = t;
        }
        *ret = subs;
        *ret_n = n;
        return 0;
oom:
        for (size_t i = 0; i < n; i++) {
                free(subs[i].src);
                free(subs[i].dst);
        }
        free(subs);
        return -ENOMEM;
}

/* ---- index --------------------------------------------------------------------------- */

static int node_new(struct si_fcontext *fc, unsigned char ch, uint32_t *ret)
{
        if (fc->nnodes == fc->cap_nodes) {
                size_t cap = fc->cap_nodes ? fc->cap_nodes * 2 : 4096;
                struct trie_node *nn = realloc(fc->nodes, cap * sizeof(*nn));
                if (!nn)
                        return -ENOMEM;
                fc->nodes = nn;
                fc->cap_nodes = cap;
        }
        fc->nodes[fc->nnodes] = (struct trie_node){.ch = ch};
        *ret = (uint32_t) fc->nnodes++;
        return 0;
}

static int trie_insert(struct si_fcontext *fc, const char *prefix, size_t len, uint32_t spec)
{
        uint32_t cur = 0;
        struct trie_node *node;

        for (size_t i = 0; i < len; i++) {
                unsigned char ch = (unsigned char) prefix[i];
                uint32_t c = fc->nodes[cur].child, found = 0;
                for (; c; c = fc->nodes[c].sibling)
                        if (fc->nodes[c].ch == ch) {
                                found = c;
                                break;
                        }
                if (!found) {
                        int r = node_new(fc, ch, &found);
                        if (r < 0)
                                return r;
                        fc->nodes[found].sibling = fc->nodes[cur].child;
                        fc->nodes[cur].child = found;
                }
                cur = found;
        }
        node = &fc->nodes[cur];
        if (node->nspecs == node->cap) {
                uint32_t cap = node->cap ? node->cap * 2 : 4;
                uint32_t *ns = realloc(node->specs, cap * sizeof(*ns));
                if (!ns)
                        return -ENOMEM;
                node->specs = ns;
                node->cap = cap;
        }
        node->specs[node->nspecs++] = spec;
        return 0;
}

static uint64_t hash_str(const char *s, size_t n)
{
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (size_t i = 0; i < n; i++) {
                h ^= (unsigned char) s[i];
                h *= 1099511628211ull;
        }
        return h;
}

static int compile_spec(struct seinstall_ctx *ctx, struct si_fcontext *fc, struct fc_spec *sp)
{
        const char *rest = sp->regex;
        size_t rlen = strlen(rest);
        _cleanup_free_ char *pat = malloc(rlen + 3);
        int err;
        PCRE2_SIZE off;

        if (!pat)
                return -ENOMEM;
        pat[0] = '^';
        memcpy(pat + 1, rest, rlen);
        pat[rlen + 1] = '$';
        pat[rlen + 2] = '\0';
        sp->re =
            pcre2_compile((PCRE2_SPTR) pat, PCRE2_ZERO_TERMINATED, PCRE2_DOTALL, &err, &off, NULL);
        if (!sp->re) {
                PCRE2_UCHAR msg[256];
                pcre2_get_error_message(err, msg, sizeof(msg));
                return si_error(ctx, -EBADMSG, "%s:%u: invalid regular expression '%s': %s",
                                fc->files[sp->file], sp->line, sp->regex, (char *) msg);
        }
        /* Compiled to machine code the match costs a fraction of the interpreter's; when the
         * JIT is not available, a required literal screens candidates instead. */
        if (!(fc->flags & SI_FC_NO_JIT) && pcre2_jit_compile(sp->re, PCRE2_JIT_COMPLETE) == 0)
                return 0;
        if (!toplevel_alternation(sp->regex))
                return required_literal(sp->regex, &sp->required, &sp->required_len);
        return 0;
}

static int build_index(struct seinstall_ctx *ctx, struct si_fcontext *fc)
{
        _cleanup_free_ char *buf = NULL;
        size_t bufcap = 0, tsize = 64;
        uint32_t root;
        int r;

        r = node_new(fc, 0, &root);
        if (r < 0)
                return r;
        while (tsize < fc->nspecs * 2)
                tsize *= 2;
        fc->lit_table = calloc(tsize, sizeof(uint32_t));
        fc->lit_next = calloc(fc->nspecs ? fc->nspecs : 1, sizeof(uint32_t));
        if (!fc->lit_table || !fc->lit_next)
                return -ENOMEM;
        fc->lit_mask = tsize - 1;

        for (size_t i = 0; i < fc->nspecs; i++) {
                struct fc_spec *sp = &fc->specs[i];
                size_t len = strlen(sp->regex), plen;
                bool complete;

                if (len + 1 > bufcap) {
                        char *nb = realloc(buf, len + 1);
                        if (!nb)
                                return -ENOMEM;
                        buf = nb;
                        bufcap = len + 1;
                }
                literal_prefix(sp->regex, buf, &plen, &complete);
                if (!sp->meta && complete && !memchr(sp->regex, '\\', sp->stem_len)) {
                        /* A plain string: "^s$" matches s and s followed by a newline. */
                        size_t h;
                        sp->literal = strndup(buf, plen);
                        if (!sp->literal)
                                return -ENOMEM;
                        h = (size_t) hash_str(buf, plen) & fc->lit_mask;
                        for (;; h = (h + 1) & fc->lit_mask) {
                                uint32_t e = fc->lit_table[h];
                                if (!e) {
                                        fc->lit_table[h] = (uint32_t) i + 1;
                                        break;
                                }
                                if (streq(fc->specs[e - 1].literal, sp->literal)) {
                                        fc->lit_next[i] = e;
                                        fc->lit_table[h] = (uint32_t) i + 1;
                                        break;
                                }
                        }
                        continue;
                }
                r = compile_spec(ctx, fc, sp);
                if (r < 0)
                        return r;
                /* The index key: the literal prefix of the pattern, or without one (a
                 * top-level alternation) the stem, which libselinux compares as a string. */
                if (toplevel_alternation(sp->regex)) {
                        plen = sp->stem_len;
                        memcpy(buf, sp->regex, plen);
                }
                r = trie_insert(fc, buf, plen, (uint32_t) i);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* ---- construction ------------------------------------------------------------------ */

typedef int (*read_fn)(struct seinstall_ctx *ctx, const char *path, char **ret, size_t *ret_len);

static int read_host(struct seinstall_ctx *ctx, const char *path, char **ret, size_t *ret_len)
{
        return read_file_bounded(path, FC_FILE_MAX, ret, ret_len);
}

static int read_target(struct seinstall_ctx *ctx, const char *path, char **ret, size_t *ret_len)
{
        return root_read_file(ctx, path, FC_FILE_MAX, ret, ret_len);
}

static int load(struct seinstall_ctx *ctx, const char *path, read_fn rd, unsigned flags,
                struct si_fcontext **ret)
{
        static const char *const suffixes[] = {"", ".homedirs", ".local"};
        struct si_fcontext *fc = calloc(1, sizeof(*fc));
        struct fc_spec *sorted;
        size_t k = 0;
        int r;

        if (!fc)
                return -ENOMEM;
        if (ctx)
                ctx->counters.fc_compiles++;
        fc->flags = flags;
        for (size_t i = 0; i < ELEMENTSOF(suffixes); i++) {
                _cleanup_free_ char *name = NULL, *data = NULL;
                size_t len;

                if (asprintf(&name, "%s%s", path, suffixes[i]) < 0) {
                        r = -ENOMEM;
                        goto fail;
                }
                r = rd(ctx, name, &data, &len);
                if (r == -ENOENT && i > 0)
                        continue;
                if (r < 0) {
                        r = si_error(ctx, r, "Could not read file contexts %s: %s", name,
                                     si_file_strerror(r));
                        goto fail;
                }
                r = parse_file(ctx, fc, name, data, len);
                if (r < 0)
                        goto fail;
        }
        for (int i = 0; i < 2; i++) {
                _cleanup_free_ char *name = NULL, *data = NULL;
                size_t len;

                if (asprintf(&name, "%s%s", path, i == 0 ? ".subs" : ".subs_dist") < 0) {
                        r = -ENOMEM;
                        goto fail;
                }
                r = rd(ctx, name, &data, &len);
                if (r == -ENOENT)
                        continue;
                if (r < 0) {
                        r = si_error(ctx, r, "Could not read substitutions %s: %s", name,
                                     si_file_strerror(r));
                        goto fail;
                }
                r = parse_subs(ctx, name, data, len, i == 0 ? &fc->subs : &fc->dist_subs,
                               i == 0 ? &fc->nsubs : &fc->ndist_subs);
                if (r < 0)
                        goto fail;
        }

        /* libselinux's sort_specs(): a stable partition, regex specs before exact ones. */
        sorted = malloc((fc->nspecs ? fc->nspecs : 1) * sizeof(*sorted));
        if (!sorted) {
                r = -ENOMEM;
                goto fail;
        }
        for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < fc->nspecs; i++)
                        if (fc->specs[i].meta == (pass == 0))
                                sorted[k++] = fc->specs[i];
        free(fc->specs);
        fc->specs = sorted;
        fc->cap_specs = fc->nspecs;

        r = build_index(ctx, fc);
        if (r < 0)
                goto fail;
        *ret = fc;
        return 0;
fail:
        si_fcontext_free(fc);
        return r;
}

int si_fcontext_load_path(struct seinstall_ctx *ctx, const char *path, struct si_fcontext **ret)
{
        return load(ctx, path, read_host, 0, ret);
}

int si_fcontext_load_path_flags(struct seinstall_ctx *ctx, const char *path, unsigned flags,
                                struct si_fcontext **ret)
{
        return load(ctx, path, read_host, flags, ret);
}

int si_fcontext_load_target(struct seinstall_ctx *ctx, const char *type, struct si_fcontext **ret)
{
        _cleanup_free_ char *path = NULL;
        int r;

        if (!si_policy_type_valid(type))
                return si_error(ctx, -EINVAL, "Invalid policy type '%s'", type);
        if (asprintf(&path, "/etc/selinux/%s/contexts/files/file_contexts", type) < 0)
                return -ENOMEM;
        r = load(ctx, path, read_target, 0, ret);
        /* The target's own file contexts missing is a policy not installed, not bad input. */
        if (r == -ENOENT)
                return si_error(ctx, -ENOPKG,
                                "No file contexts in the target: %s is missing (install the "
                                "policy package %s in the target first)",
                                path, si_policy_package(type));
        return r;
}

static void free_subs(struct fc_sub *subs, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(subs[i].src);
                free(subs[i].dst);
        }
        free(subs);
}

void si_fcontext_free(struct si_fcontext *fc)
{
        if (!fc)
                return;
        for (size_t i = 0; i < fc->nspecs; i++) {
                free(fc->specs[i].regex);
                free(fc->specs[i].literal);
                free(fc->specs[i].required);
                pcre2_code_free(fc->specs[i].re);
        }
        free(fc->specs);
        for (size_t i = 0; i < fc->ncontexts; i++)
                free(fc->contexts[i].str);
        free(fc->contexts);
        free_subs(fc->subs, fc->nsubs);
        free_subs(fc->dist_subs, fc->ndist_subs);
        for (size_t i = 0; i < fc->nnodes; i++)
                free(fc->nodes[i].specs);
        free(fc->nodes);
        free(fc->lit_table);
        free(fc->lit_next);
        for (size_t i = 0; i < fc->nfiles; i++)
                free(fc->files[i]);
        free(fc);
}

size_t si_fcontext_n_contexts(const struct si_fcontext *fc)
{
        return fc->ncontexts;
}

const char *si_fcontext_context(const struct si_fcontext *fc, size_t i)
{
        return i < fc->ncontexts ? fc->contexts[i].str : NULL;
}

void si_fcontext_invalidate(struct si_fcontext *fc, size_t i)
{
        if (i < fc->ncontexts)
                fc->contexts[i].invalid = true;
}

void si_fcontext_validate(struct si_fcontext *fc, const struct si_policy *policy)
{
        for (size_t i = 0; i < fc->ncontexts; i++)
                if (si_policy_context_valid(policy, si_fcontext_context(fc, i)) != 1)
                        si_fcontext_invalidate(fc, i);
}

size_t si_fcontext_n_specs(const struct si_fcontext *fc)
{
        return fc->nspecs;
}

const char *si_fcontext_spec_regex(const struct si_fcontext *fc, int index)
{
        return index >= 0 && (size_t) index < fc->nspecs ? fc->specs[index].regex : NULL;
}

int si_fc_scratch_limit_spec(const struct si_fc_scratch *s)
{
        return s->limit_spec;
}

const char *si_fcontext_spec_origin(const struct si_fcontext *fc, int index, unsigned *ret_line)
{
        if (index < 0 || (size_t) index >= fc->nspecs)
                return NULL;
        if (ret_line)
                *ret_line = fc->specs[index].line;
        return fc->files[fc->specs[index].file];
}

/* ---- lookup ----------------------------------------------------------------------------- */

int si_fc_scratch_new(const struct si_fcontext *fc, struct si_fc_scratch **ret)
{
        struct si_fc_scratch *s = calloc(1, sizeof(*s));

        if (!s)
                return -ENOMEM;
        s->md = pcre2_match_data_create(1, NULL);
        s->mctx = pcre2_match_context_create(NULL);
        if (!s->md || !s->mctx) {
                pcre2_match_data_free(s->md);
                pcre2_match_context_free(s->mctx);
                free(s);
                return -ENOMEM;
        }
        pcre2_set_match_limit(s->mctx, FC_MATCH_LIMIT);
        pcre2_set_depth_limit(s->mctx, FC_DEPTH_LIMIT);
        s->limit_spec = -1;
        *ret = s;
        return 0;
}

void si_fc_scratch_free(struct si_fc_scratch *s)
{
        if (!s)
                return;
        pcre2_match_data_free(s->md);
        pcre2_match_context_free(s->mctx);
        sbuf_free(&s->key);
        sbuf_free(&s->norm);
        free(s->lists);
        free(s->pos);
        free(s);
}

/* selabel_sub(): the first alias that is @key or a leading directory of it. */
static const struct fc_sub *find_sub(const struct fc_sub *subs, size_t n, const char *key)
{
        for (size_t i = 0; i < n; i++)
                if (strncmp(key, subs[i].src, subs[i].slen) == 0 &&
                    (key[subs[i].slen] == '/' || key[subs[i].slen] == '\0'))
                        return &subs[i];
        return NULL;
}

static int apply_sub(struct sbuf *out, const struct fc_sub *sub, const char *key)
{
        size_t skip = sub->slen;

        if (key[skip] == '/' && streq(sub->dst, "/"))
                skip++;
        out->len = 0;
        if (sbuf_puts(out, sub->dst) < 0 || sbuf_puts(out, key + skip) < 0)
                return -ENOMEM;
        return 0;
}

/* selabel_sub_key(): .subs first, then .subs_dist on the result. */
static int substitute(const struct si_fcontext *fc, struct si_fc_scratch *s, const char **key)
{
        const struct fc_sub *sub = find_sub(fc->subs, fc->nsubs, *key);
        const struct fc_sub *dsub;

        if (sub) {
                if (apply_sub(&s->key, sub, *key) < 0)
                        return -ENOMEM;
                dsub = find_sub(fc->dist_subs, fc->ndist_subs, s->key.s);
                if (dsub) {
                        _cleanup_free_ char *tmp = strdup(s->key.s);
                        if (!tmp || apply_sub(&s->key, dsub, tmp) < 0)
                                return -ENOMEM;
                }
                *key = s->key.s;
                return 0;
        }
        dsub = find_sub(fc->dist_subs, fc->ndist_subs, *key);
        if (dsub) {
                if (apply_sub(&s->key, dsub, *key) < 0)
                        return -ENOMEM;
                *key = s->key.s;
        }
        return 0;
}

static int normalize(struct si_fc_scratch *s, const char **key, size_t len)
{
        char *out = malloc(len + 1);
        size_t n = 0;

        if (!out)
                return -ENOMEM;
        for (const char *c = *key; *c; c++)
                if (!(c[0] == '/' && c[1] == '/'))
                        out[n++] = *c;
        if (n > 1 && out[n - 1] == '/')
                n--;
        s->norm.len = 0;
        if (sbuf_append(&s->norm, out, n) < 0) {
                free(out);
                return -ENOMEM;
        }
        free(out);
        *key = s->norm.s;
        return 0;
}

static int literal_best(const struct si_fcontext *fc, const char *key, size_t len, mode_t mode)
{
        size_t h = (size_t) hash_str(key, len) & fc->lit_mask;

        for (;; h = (h + 1) & fc->lit_mask) {
                uint32_t e = fc->lit_table[h];
                const struct fc_spec *sp;
                if (!e)
                        return -1;
                sp = &fc->specs[e - 1];
                if (strlen(sp->literal) != len || memcmp(sp->literal, key, len) != 0)
                        continue;
                for (; e; e = fc->lit_next[e - 1]) {
                        sp = &fc->specs[e - 1];
                        if (!mode || !sp->mode || sp->mode == mode)
                                return (int) (e - 1);
                }
                return -1;
        }
}

/* 1 match, 0 no match, -1 the match failed, -2 it hit the match or depth limit. */
static int regex_matches(const struct fc_spec *sp, struct si_fc_scratch *s, const char *key,
                         size_t len, size_t file_stem)
{
        int rc;

        /* libselinux only tries a spec with a stem on paths with the same stem, then matches
         * the whole pattern against the whole path. */
        if (sp->stem_len && (file_stem != sp->stem_len || memcmp(key, sp->regex, file_stem) != 0))
                return 0;
        if (sp->required && !memmem(key, len, sp->required, sp->required_len))
                return 0;
        rc = pcre2_match(sp->re, (PCRE2_SPTR) key, len, 0, 0, s->md, s->mctx);
        if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && rc != PCRE2_ERROR_MATCHLIMIT)
                /* e.g. the JIT stack is too small: ask the interpreter, as libselinux does */
                rc = pcre2_match(sp->re, (PCRE2_SPTR) key, len, 0, PCRE2_NO_JIT, s->md, s->mctx);
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
            rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT)
                return -2;
        return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

int si_fcontext_lookup(const struct si_fcontext *fc, struct si_fc_scratch *s, const char *path,
                       mode_t mode, const char **ret_context)
{
        const char *key = path;
        size_t len, nlists = 0, file_stem;
        uint32_t cur = 0;
        int best = -1, r;

        mode &= S_IFMT;
        s->limit_spec = -1;
        if (fc->nspecs == 0)
                return -ENOENT;
        len = strlen(key);
        if (strstr(key, "//") || (len > 1 && key[len - 1] == '/')) {
                /* libselinux squeezes repeated slashes and drops a trailing one */
                r = normalize(s, &key, len);
                if (r < 0)
                        return r;
        }
        if (fc->nsubs || fc->ndist_subs) {
                r = substitute(fc, s, &key);
                if (r < 0)
                        return r;
        }
        len = strlen(key);
        file_stem = stem_of_path(key);

        best = literal_best(fc, key, len, mode);
        if (len > 0 && key[len - 1] == '\n') {
                int b = literal_best(fc, key, len - 1, mode);
                if (b > best)
                        best = b;
        }

        /* Candidate lists along the path in the trie. */
        if (s->cap_lists < len + 1) {
                const uint32_t **nl = realloc(s->lists, (len + 1) * sizeof(*nl));
                uint32_t *np;
                if (!nl)
                        return -ENOMEM;
                s->lists = nl;
                np = realloc(s->pos, (len + 1) * sizeof(*np));
                if (!np)
                        return -ENOMEM;
                s->pos = np;
                s->cap_lists = len + 1;
        }
        for (size_t i = 0;; i++) {
                const struct trie_node *n = &fc->nodes[cur];
                uint32_t c;
                if (n->nspecs && (int) n->specs[n->nspecs - 1] > best) {
                        s->lists[nlists] = n->specs;
                        s->pos[nlists] = n->nspecs;
                        nlists++;
                }
                if (i == len)
                        break;
                for (c = n->child; c; c = fc->nodes[c].sibling)
                        if (fc->nodes[c].ch == (unsigned char) key[i])
                                break;
                if (!c)
                        break;
                cur = c;
        }

        /* Highest spec index first, down to the best literal hit. */
        for (;;) {
                size_t top = SIZE_MAX;
                uint32_t idx = 0;
                const struct fc_spec *sp;

                for (size_t k = 0; k < nlists; k++) {
                        if (!s->pos[k])
                                continue;
                        if (top == SIZE_MAX || s->lists[k][s->pos[k] - 1] > idx) {
                                top = k;
                                idx = s->lists[k][s->pos[k] - 1];
                        }
                }
                if (top == SIZE_MAX || (int) idx <= best)
                        break;
                s->pos[top]--;
                sp = &fc->specs[idx];
                if (mode && sp->mode && sp->mode != mode)
                        continue;
                r = regex_matches(sp, s, key, len, file_stem);
                if (r == -2) {
                        s->limit_spec = (int) idx;
                        return -ETIME;
                }
                if (r < 0)
                        return -ENOENT;
                if (r > 0) {
                        best = (int) idx;
                        break;
                }
        }

        if (best < 0 || fc->specs[best].ctx < 0)
                return -ENOENT;
        *ret_context = fc->contexts[fc->specs[best].ctx].str;
        if (fc->contexts[fc->specs[best].ctx].invalid)
                return -EPROTO;
        return best;
}
