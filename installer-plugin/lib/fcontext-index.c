/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext-index.c — building the lookup index of loaded specs: each compiled to its PCRE2
 * pattern, filed under its literal prefix in a byte trie, and plain-string exact specs in a hash
 * table. The lookup (fcontext-lookup.c) walks what is built here.
 */
#include "fcontext-internal.h"

static int node_new(struct si_fcontext *fc, unsigned char ch, uint32_t *ret)
{
        if (!SI_GROW(fc->nodes, fc->cap_nodes, fc->nnodes + 1))
                return -ENOMEM;
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
        if (!SI_GROW(node->specs, node->cap, node->nspecs + 1))
                return -ENOMEM;
        node->specs[node->nspecs++] = spec;
        return 0;
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
        if (!(fc->flags & SI_FC_NO_JIT) && fc->n_jit < FC_JIT_MAX &&
            pcre2_jit_compile(sp->re, PCRE2_JIT_COMPLETE) == 0) {
                fc->n_jit++;
                return 0;
        }
        if (!si_fc_toplevel_alternation(sp->regex))
                return si_fc_required_literal(sp->regex, &sp->required, &sp->required_len);
        return 0;
}

int si_fc_build_index(struct seinstall_ctx *ctx, struct si_fcontext *fc)
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

                if (!SI_GROW(buf, bufcap, len + 1))
                        return -ENOMEM;
                si_fc_literal_prefix(sp->regex, buf, &plen, &complete);
                if (!sp->meta && complete && !memchr(sp->regex, '\\', sp->stem_len)) {
                        /* A plain string: "^s$" matches s and s followed by a newline. */
                        size_t h;
                        sp->literal = strndup(buf, plen);
                        if (!sp->literal)
                                return -ENOMEM;
                        h = (size_t) si_fc_hash(buf, plen) & fc->lit_mask;
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
                if (si_fc_toplevel_alternation(sp->regex)) {
                        plen = sp->stem_len;
                        memcpy(buf, sp->regex, plen);
                }
                r = trie_insert(fc, buf, plen, (uint32_t) i);
                if (r < 0)
                        return r;
        }
        return 0;
}
