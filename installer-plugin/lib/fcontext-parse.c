/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext-parse.c — parsing the text of file_contexts (and .homedirs, .local) into specs and
 * distinct contexts, and of .subs/.subs_dist into substitutions, as libselinux reads them.
 */
#include <ctype.h>
#include <sys/stat.h>

#include "fcontext-internal.h"

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
        if (!SI_GROW(fc->contexts, fc->cap_contexts, fc->ncontexts + 1))
                return -ENOMEM;
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

        if (!SI_GROW(fc->specs, fc->cap_specs, fc->nspecs + 1))
                return -ENOMEM;
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
        sp->meta = si_fc_has_meta(re);
        sp->stem_len = si_fc_stem_of_spec(re);
        return 0;
}

int si_fc_parse_file(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *name,
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
                if (!SI_GROW(buf, bufcap, llen + 1))
                        return -ENOMEM;
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
int si_fc_parse_subs(struct seinstall_ctx *ctx, const char *name, char *data, size_t len,
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
                if (!SI_GROW(subs, cap, n + 1))
                        goto oom;
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

void si_fc_free_subs(struct fc_sub *subs, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(subs[i].src);
                free(subs[i].dst);
        }
        free(subs);
}
