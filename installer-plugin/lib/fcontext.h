/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext.h — the file-contexts lookup engine (fcontext-*.c): loads a policy's file_contexts (plus
 * .homedirs, .local, .subs_dist and .subs) and answers "which context does this path get" exactly
 * as libselinux 3.4's selabel_lookup_raw() does, only much faster.
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
#ifndef SEINSTALL_FCONTEXT_H
#define SEINSTALL_FCONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "seinstall-private.h"

struct si_fcontext;
struct si_fc_scratch;
struct si_policy;

/* Load file_contexts from the host path @path plus its companions (@path.homedirs, .local,
 * .subs_dist, .subs; each optional), as selabel_open(SELABEL_OPT_PATH=@path) does. */
int si_fcontext_load_path(struct seinstall_ctx *ctx, const char *path, struct si_fcontext **ret);
/* The same with SI_FC_* flags: SI_FC_NO_JIT matches with the PCRE2 interpreter and the
 * required-literal screen, as on a PCRE2 built without JIT. For a few lookups (the files a
 * denial names, a list of paths) the interpreter is the right choice: compiling thousands of
 * patterns to machine code costs more than it saves, and on a running SELinux system it maps
 * executable memory, which Debian's policy denies (execmem) and logs; the JIT pays for a walk. */
#define SI_FC_NO_JIT (1u << 0)
/* SI_FC_PARSE_ONLY: parse and validate only; si_fcontext_compile() must follow before any
 * lookup. A relabel compiles its patterns after the policy is freed, so that its peak memory
 * is the larger of the two, not their sum. */
#define SI_FC_PARSE_ONLY (1u << 1)
int si_fcontext_load_path_flags(struct seinstall_ctx *ctx, const char *path, unsigned flags,
                                struct si_fcontext **ret);
/* Load the target's own file contexts of policy @type, read inside the target root; @flags:
 * SI_FC_*. */
int si_fcontext_load_target(struct seinstall_ctx *ctx, const char *type, unsigned flags,
                            struct si_fcontext **ret);
/* Compile the patterns and build the index of file contexts loaded with SI_FC_PARSE_ONLY
 * (a no-op otherwise). Returns 0 or a negative errno, the error reported through @ctx. */
int si_fcontext_compile(struct seinstall_ctx *ctx, struct si_fcontext *fc);
void si_fcontext_free(struct si_fcontext *fc);
static inline void si_fcontext_freep(struct si_fcontext **fc)
{
        si_fcontext_free(*fc);
}

/* Per-thread scratch space for lookups (match data, key buffers). */
int si_fc_scratch_new(const struct si_fcontext *fc, struct si_fc_scratch **ret);
void si_fc_scratch_free(struct si_fc_scratch *s);

/* Look up the context for @path (absolute, as seen from the target's root) of file type @mode
 * (st_mode; only S_IFMT bits are used, 0 matches any spec). Returns the index of the winning
 * spec (>= 0) and its context in *ret_context (owned by @fc), or -ENOENT when nothing matches
 * or the winning spec says <<none>>, or -ENOMEM. Thread-safe with one scratch per thread. */
int si_fcontext_lookup(const struct si_fcontext *fc, struct si_fc_scratch *s, const char *path,
                       mode_t mode, const char **ret_context);

/* Distinct contexts of the loaded specs, for validation against a policy. */
size_t si_fcontext_n_contexts(const struct si_fcontext *fc);
const char *si_fcontext_context(const struct si_fcontext *fc, size_t i);
/* Mark context @i invalid: lookups that end on it return -EPROTO (the spec's context is not
 * valid in the target's policy) with the context in *ret_context. */
void si_fcontext_invalidate(struct si_fcontext *fc, size_t i);
/* Check every context of @fc against @policy (of type @type) as setfiles does when it loads
 * file contexts: 0 when all are valid; else the ones rejected are marked invalid and -EBADMSG
 * (bad input, exit status 2) is returned with the first one's file, line and context as the
 * context's error. */
int si_fcontext_validate(struct seinstall_ctx *ctx, struct si_fcontext *fc,
                         const struct si_policy *policy, const char *type);
/* Where the spec at @index came from ("file:line"), for messages. */
const char *si_fcontext_spec_origin(const struct si_fcontext *fc, int index, unsigned *ret_line);
size_t si_fcontext_n_specs(const struct si_fcontext *fc);
/* The regex of the spec at @index as written, NULL when there is none. */
const char *si_fcontext_spec_regex(const struct si_fcontext *fc, int index);
/* After si_fcontext_lookup() returned -ETIME (a pattern hit PCRE2's match or depth limit:
 * catastrophic backtracking), the index of that spec; else -1. */
int si_fc_scratch_limit_spec(const struct si_fc_scratch *s);

#endif
