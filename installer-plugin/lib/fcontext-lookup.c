/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext-lookup.c — the relabel hot path: which context a path gets. Substitutions first, then
 * the trie walk along the path merging candidate lists from the highest spec index down, the hash
 * table for exact literals, and the PCRE2 match of each candidate until the first one that
 * matches (see fcontext.h for the rules reproduced). Also the per-thread scratch.
 */
#include <sys/stat.h>

#include "fcontext-internal.h"

/* libselinux's get_stem_from_file_name(). */
static size_t stem_of_path(const char *path)
{
        const char *slash = path[0] ? strchr(path + 1, '/') : NULL;
        return slash ? (size_t) (slash - path) : 0;
}

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
        size_t h = (size_t) si_fc_hash(key, len) & fc->lit_mask;

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
        if (!SI_GROW(s->lists, s->cap_lists, len + 1) || !SI_GROW(s->pos, s->cap_pos, len + 1))
                return -ENOMEM;
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
