/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fcontext-internal.h — the data of the file-contexts engine, shared by its files (fcontext-*.c):
 * specs, contexts, substitutions, the index and the per-thread scratch. Not for other callers:
 * they use fcontext.h. */
#ifndef SEINSTALL_FCONTEXT_INTERNAL_H
#define SEINSTALL_FCONTEXT_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

#include "fcontext.h"

/* A policy's file_contexts with .homedirs, .local and the substitutions, together: Debian's and
 * Fedora's are under 1 MiB. Memory and time grow in proportion up to this. */
#define FC_FILE_MAX (16u << 20)
/* Regex specs compiled to machine code (a few KB each, for the life of the object): real
 * policies have under 10,000; beyond, the interpreter with a required literal. */
#define FC_JIT_MAX 20000u

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
        size_t cap;
        uint32_t nspecs;
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
        size_t n_jit;   /* specs compiled to machine code, at most FC_JIT_MAX */
        unsigned flags; /* SI_FC_* */
        bool compiled;  /* si_fcontext_compile() done */
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
        uint32_t *pos; /* beside lists, as many */
        size_t cap_lists, cap_pos;
};

/* FNV-1a of @n bytes of @s: the literal hash table's, shared by build and lookup. */
static inline uint64_t si_fc_hash(const char *s, size_t n)
{
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (size_t i = 0; i < n; i++) {
                h ^= (unsigned char) s[i];
                h *= 1099511628211ull;
        }
        return h;
}

/* fcontext-regex.c */
bool si_fc_has_meta(const char *re);
uint32_t si_fc_stem_of_spec(const char *re);
void si_fc_literal_prefix(const char *re, char *out, size_t *ret_len, bool *ret_complete);
bool si_fc_toplevel_alternation(const char *re);
int si_fc_required_literal(const char *re, char **ret, size_t *ret_len);

/* fcontext-parse.c */
int si_fc_parse_file(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *name,
                     char *data, size_t len);
int si_fc_parse_subs(struct seinstall_ctx *ctx, const char *name, char *data, size_t len,
                     struct fc_sub **ret, size_t *ret_n);
void si_fc_free_subs(struct fc_sub *subs, size_t n);

/* fcontext-index.c */
int si_fc_build_index(struct seinstall_ctx *ctx, struct si_fcontext *fc);

#endif
