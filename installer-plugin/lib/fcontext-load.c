/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcontext-load.c — the file-contexts object: loading a policy's file_contexts and companions
 * (from the host or inside the target), freeing it, and the accessors on its specs and contexts.
 */
#include "fcontext-internal.h"
#include "policy.h"

typedef int (*read_fn)(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                       size_t *ret_len);

static int read_host(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                     size_t *ret_len)
{
        return read_file_bounded(path, max, ret, ret_len);
}

static int read_target(struct seinstall_ctx *ctx, const char *path, size_t max, char **ret,
                       size_t *ret_len)
{
        return si_root_read_file(ctx, path, max, ret, ret_len);
}

/* Read the next file of a file contexts set, within what is left of FC_FILE_MAX (*used). */
static int read_part(struct seinstall_ctx *ctx, read_fn rd, const char *name, size_t *used,
                     char **ret, size_t *ret_len)
{
        int r = rd(ctx, name, FC_FILE_MAX - *used, ret, ret_len);

        if (r == -EFBIG)
                return si_error(ctx, r,
                                "File contexts %s: larger than %u MiB with the other files of "
                                "its set (.homedirs, .local, .subs): not a policy's file contexts "
                                "(real ones are under 1 MiB); refusing it",
                                name, FC_FILE_MAX >> 20);
        if (r >= 0)
                *used += *ret_len;
        return r;
}

static int load(struct seinstall_ctx *ctx, const char *path, read_fn rd, unsigned flags,
                struct si_fcontext **ret)
{
        static const char *const suffixes[] = {"", ".homedirs", ".local"};
        struct si_fcontext *fc = calloc(1, sizeof(*fc));
        struct fc_spec *sorted;
        size_t k = 0, used = 0;
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
                r = read_part(ctx, rd, name, &used, &data, &len);
                if (r == -ENOENT && i > 0)
                        continue;
                if (r == -EFBIG)
                        goto fail;
                if (r < 0) {
                        r = si_error(ctx, r, "Could not read file contexts %s: %s", name,
                                     si_file_strerror(r));
                        goto fail;
                }
                r = si_fc_parse_file(ctx, fc, name, data, len);
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
                r = read_part(ctx, rd, name, &used, &data, &len);
                if (r == -ENOENT)
                        continue;
                if (r == -EFBIG)
                        goto fail;
                if (r < 0) {
                        r = si_error(ctx, r, "Could not read substitutions %s: %s", name,
                                     si_file_strerror(r));
                        goto fail;
                }
                r = si_fc_parse_subs(ctx, name, data, len, i == 0 ? &fc->subs : &fc->dist_subs,
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

        r = flags & SI_FC_PARSE_ONLY ? 0 : si_fcontext_compile(ctx, fc);
        if (r < 0)
                goto fail;
        *ret = fc;
        return 0;
fail:
        si_fcontext_free(fc);
        return r;
}

int si_fcontext_compile(struct seinstall_ctx *ctx, struct si_fcontext *fc)
{
        int r;

        if (fc->compiled)
                return 0;
        r = si_fc_build_index(ctx, fc);
        if (r < 0)
                return r;
        fc->compiled = true;
        return 0;
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

int si_fcontext_load_target(struct seinstall_ctx *ctx, const char *type, unsigned flags,
                            struct si_fcontext **ret)
{
        _cleanup_free_ char *path = NULL;
        int r;

        if (!si_policy_type_valid(type))
                return si_error(ctx, -EINVAL, "Invalid policy type '%s'", type);
        if (asprintf(&path, "/etc/selinux/%s/contexts/files/file_contexts", type) < 0)
                return -ENOMEM;
        r = load(ctx, path, read_target, flags, ret);
        /* The target's own file contexts missing is a policy not installed, not bad input. */
        if (r == -ENOENT)
                return si_error(ctx, -ENOPKG,
                                "No SELinux policy of type '%s' in the target %s: %s%s is "
                                "missing; install %s in the target first, or choose a policy "
                                "type the target has",
                                type, ctx->root, streq(ctx->root, "/") ? "" : ctx->root, path,
                                si_policy_package_hint(ctx, type));
        return r;
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
        si_fc_free_subs(fc->subs, fc->nsubs);
        si_fc_free_subs(fc->dist_subs, fc->ndist_subs);
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

/* The first spec (by file, then line) whose context the policy rejected, or NULL. */
static const struct fc_spec *first_invalid_spec(const struct si_fcontext *fc)
{
        const struct fc_spec *first = NULL;

        for (size_t i = 0; i < fc->nspecs; i++) {
                const struct fc_spec *sp = &fc->specs[i];
                if (sp->ctx < 0 || !fc->contexts[sp->ctx].invalid)
                        continue;
                if (!first || sp->file < first->file ||
                    (sp->file == first->file && sp->line < first->line))
                        first = sp;
        }
        return first;
}

int si_fcontext_validate(struct seinstall_ctx *ctx, struct si_fcontext *fc,
                         const struct si_policy *policy, const char *type)
{
        const struct fc_spec *sp;
        size_t bad = 0;

        for (size_t i = 0; i < fc->ncontexts; i++)
                if (si_policy_context_valid(policy, si_fcontext_context(fc, i)) != 1) {
                        si_fcontext_invalidate(fc, i);
                        bad++;
                }
        sp = bad ? first_invalid_spec(fc) : NULL;
        if (!sp)
                return 0;
        /* setfiles refuses such a file when it loads it: so does seinstall, before any write */
        return si_error(ctx, -EBADMSG,
                        si_ntr(ctx,
                               "%s:%u: the context %s is not valid in the '%s' policy of the "
                               "target %s; nothing was labeled: fix or remove that line (%zu "
                               "invalid context in all)",
                               "%s:%u: the context %s is not valid in the '%s' policy of the "
                               "target %s; nothing was labeled: fix or remove that line (%zu "
                               "invalid contexts in all)",
                               bad),
                        fc->files[sp->file], sp->line, fc->contexts[sp->ctx].str, type, ctx->root,
                        bad);
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
