/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * verify.c — `seinstall verify`: every file's label against what the target policy's file
 * contexts say, read with the relabel engine (relabel.c) in its dry-run mode, so it walks as
 * fast as a relabel and writes nothing; with SEINSTALL_VERIFY_FIX the engine writes the labels
 * that differ, and only those. Owns the verify result: the mismatches grouped by directory,
 * each with its count and the examples that sort first (every one with SEINSTALL_VERIFY_ALL),
 * and its JSON.
 */
#include "fcontext.h"
#include "relabel.h"

#define MAX_EXAMPLES 3     /* per directory, unless SEINSTALL_VERIFY_ALL */
#define MAX_DIRS     10000 /* directories listed; mismatches beyond are counted only (not ALL) */

struct example {
        char *path, *actual, *expected;
        bool fixed;
};

struct dir {
        char *path;
        unsigned long long mismatched, fixed, remaining;
        struct example *ex; /* sorted by path (with ALL: once the walk is over) */
        size_t nex, cap;
        size_t nsorted; /* with ALL, while checking after the fix: the examples sorted so far */
};

struct seinstall_verify_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        struct seinstall_relabel_result *relabel;
        bool fix;
        bool all;      /* SEINSTALL_VERIFY_ALL: every mismatch is an example */
        bool checking; /* the verify run after the fix: its mismatches are what is left */
        /* open addressing on the directory's path while the walk runs; sorted after it */
        struct dir *dirs;
        size_t ndirs, cap;
        unsigned long long mismatched, fixed, unlisted, remaining;
};

static void example_clear(struct example *e)
{
        free(e->path);
        free(e->actual);
        free(e->expected);
        *e = (struct example){0};
}

static void verify_result_free(struct seinstall_verify_result *r)
{
        for (size_t i = 0; i < r->cap; i++) {
                free(r->dirs[i].path);
                for (size_t k = 0; k < r->dirs[i].nex; k++)
                        example_clear(&r->dirs[i].ex[k]);
                free(r->dirs[i].ex);
        }
        free(r->dirs);
        seinstall_relabel_result_unref(r->relabel);
        free(r);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_verify_result, seinstall_verify_result, verify_result_free);

DEFINE_CLEANUP_FUNC(struct seinstall_verify_result *, seinstall_verify_result_unref)

/* ---- collecting mismatches (the walk's lock held) ------------------------------------------ */

static size_t hash(const char *s, size_t cap)
{
        size_t h = 14695981039346656037ULL;

        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 1099511628211ULL;
        return h & (cap - 1);
}

static int dirs_grow(struct seinstall_verify_result *r)
{
        size_t cap = r->cap ? r->cap * 2 : 64;
        struct dir *n = calloc(cap, sizeof(*n));

        if (!n)
                return -ENOMEM;
        for (size_t i = 0; i < r->cap; i++) {
                size_t h;
                if (!r->dirs[i].path)
                        continue;
                for (h = hash(r->dirs[i].path, cap); n[h].path; h = (h + 1) & (cap - 1))
                        ;
                n[h] = r->dirs[i];
        }
        free(r->dirs);
        r->dirs = n;
        r->cap = cap;
        return 0;
}

/* The group of directory @path (@len bytes of it), made when new; NULL when the list is full. */
static int dir_get(struct seinstall_verify_result *r, const char *path, size_t len,
                   struct dir **ret)
{
        _cleanup_free_ char *key = strndup(path, len);
        size_t h;
        int e;

        if (!key)
                return -ENOMEM;
        if (r->ndirs * 2 >= r->cap) {
                e = dirs_grow(r);
                if (e < 0)
                        return e;
        }
        for (h = hash(key, r->cap); r->dirs[h].path; h = (h + 1) & (r->cap - 1))
                if (streq(r->dirs[h].path, key)) {
                        *ret = &r->dirs[h];
                        return 0;
                }
        if (r->ndirs >= MAX_DIRS && !r->all) {
                *ret = NULL;
                return 0;
        }
        r->dirs[h].path = TAKE_PTR(key);
        r->ndirs++;
        *ret = &r->dirs[h];
        return 0;
}

/* Keep the MAX_EXAMPLES examples whose paths sort first (@all: every one, sorted after the
 * walk), so the report does not depend on which thread met which file first. */
static int dir_add_example(struct dir *d, bool all, const char *path, const char *actual,
                           const char *expected, bool fixed)
{
        struct example e = {
            .path = strdup(path),
            .actual = actual ? strdup(actual) : NULL,
            .expected = strdup(expected),
            .fixed = fixed,
        };
        size_t i;

        if (!e.path || !e.expected || (actual && !e.actual)) {
                example_clear(&e);
                return -ENOMEM;
        }
        /* all of them, or room for the first MAX_EXAMPLES (the last one pushed out) */
        if (!SI_GROW(d->ex, d->cap, all ? d->nex + 1 : MAX_EXAMPLES)) {
                example_clear(&e);
                return -ENOMEM;
        }
        if (all) {
                d->ex[d->nex++] = e;
                return 0;
        }
        for (i = d->nex; i > 0 && strcmp(d->ex[i - 1].path, path) > 0; i--)
                ;
        if (i >= MAX_EXAMPLES) {
                example_clear(&e);
                return 0;
        }
        if (d->nex == MAX_EXAMPLES)
                example_clear(&d->ex[--d->nex]);
        memmove(&d->ex[i + 1], &d->ex[i], (d->nex - i) * sizeof(d->ex[0]));
        d->ex[i] = e;
        d->nex++;
        return 0;
}

static int example_cmp(const void *a, const void *b)
{
        const struct example *x = a, *y = b;

        return strcmp(x->path, y->path);
}

/* The example of @d for @path, or NULL. */
static struct example *example_find(struct dir *d, bool all, const char *path)
{
        struct example key = {.path = (char *) path};

        if (!all) /* at most MAX_EXAMPLES */
                for (size_t k = 0; k < d->nex; k++)
                        if (streq(d->ex[k].path, path))
                                return &d->ex[k];
        return all ? bsearch(&key, d->ex, d->nsorted, sizeof(*d->ex), example_cmp) : NULL;
}

/* A mismatch the verify run after the fix found: left, whether written or not. */
static int on_left(struct seinstall_verify_result *r, struct dir *d, const char *path,
                   const char *actual, const char *expected)
{
        struct example *e;
        char *a = NULL;

        r->remaining++;
        if (!d) {
                r->unlisted++;
                return 0;
        }
        d->remaining++;
        e = example_find(d, r->all, path);
        if (!e)
                return dir_add_example(d, r->all, path, actual, expected, false);
        if (actual && !(a = strdup(actual)))
                return -ENOMEM;
        free(e->actual);
        e->actual = a;
        e->fixed = false;
        return 0;
}

static int on_mismatch(void *data, const char *path, const char *actual, const char *expected,
                       bool fixed)
{
        struct seinstall_verify_result *r = data;
        const char *slash = strrchr(path, '/');
        size_t len = slash && slash != path ? (size_t) (slash - path) : 1;
        struct dir *d;
        int e;

        if (r->checking) {
                e = dir_get(r, path, len, &d);
                return e < 0 ? e : on_left(r, d, path, actual, expected);
        }
        r->mismatched++;
        r->fixed += fixed;
        e = dir_get(r, path, len, &d);
        if (e < 0)
                return e;
        if (!d) {
                r->unlisted++;
                return 0;
        }
        d->mismatched++;
        d->fixed += fixed;
        return dir_add_example(d, r->all, path, actual, expected, fixed);
}

static int dir_cmp(const void *a, const void *b)
{
        const struct dir *x = a, *y = b;

        return strcmp(x->path, y->path);
}

/* After the walk: the groups packed at the front, sorted by path. */
static void dirs_sort(struct seinstall_verify_result *r)
{
        size_t n = 0;

        for (size_t i = 0; i < r->cap; i++)
                if (r->dirs[i].path)
                        r->dirs[n++] = r->dirs[i];
        for (size_t i = n; i < r->cap; i++)
                r->dirs[i] = (struct dir){0};
        if (n > 1)
                qsort(r->dirs, n, sizeof(r->dirs[0]), dir_cmp);
        for (size_t i = 0; r->all && i < n; i++)
                if (r->dirs[i].nex > 1)
                        qsort(r->dirs[i].ex, r->dirs[i].nex, sizeof(r->dirs[i].ex[0]), example_cmp);
}

/* Before the verify run after the fix: with ALL, each directory's examples sorted by path, to
 * find those it finds again. */
static void examples_sort(struct seinstall_verify_result *r)
{
        for (size_t i = 0; r->all && i < r->cap; i++) {
                struct dir *d = &r->dirs[i];
                if (d->path && d->nex > 1)
                        qsort(d->ex, d->nex, sizeof(d->ex[0]), example_cmp);
                d->nsorted = d->nex;
        }
}

/* ---- entry point ----------------------------------------------------------------------------- */

/* The whole tree, or (@listed) just the @n entries of @paths, through the relabel engine. */
static int verify_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, bool listed,
                      const char *const *paths, size_t n, unsigned threads, unsigned flags,
                      seinstall_relabel_progress_fn progress, void *userdata,
                      struct seinstall_verify_result **ret_result)
{
        _cleanup_(seinstall_verify_result_unrefp) struct seinstall_verify_result *res = NULL;
        struct si_relabel_input vin = *in;
        /* the whole tree is compared here, the boot-critical files with it */
        unsigned rflags = SEINSTALL_RELABEL_NO_VERIFY |
                          (flags & SEINSTALL_VERIFY_FIX ? 0 : SEINSTALL_RELABEL_DRY_RUN);
        bool remaining;
        int r;

        res = calloc(1, sizeof(*res));
        if (!res)
                return -ENOMEM;
        res->fix = flags & SEINSTALL_VERIFY_FIX;
        res->all = flags & SEINSTALL_VERIFY_ALL;
        vin.mismatch = on_mismatch;
        vin.mismatch_data = res;
        r = listed ? si_relabel_run_paths(ctx, &vin, paths, n, rflags, &res->relabel)
                   : si_relabel_run(ctx, &vin, threads, rflags, progress, userdata, &res->relabel);
        if (!res->relabel)
                return r;
        if (res->fix && res->mismatched > 0 && r != -ENOMEM) {
                /* A write that worked is no proof: verify again, writing nothing, and what it
                 * finds is what is left. */
                _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *again =
                    NULL;
                int k;

                examples_sort(res);
                res->checking = true;
                rflags |= SEINSTALL_RELABEL_DRY_RUN;
                k = listed ? si_relabel_run_paths(ctx, &vin, paths, n, rflags, &again)
                           : si_relabel_run(ctx, &vin, threads, rflags, NULL, NULL, &again);
                res->checking = false;
                if (k < 0 && r >= 0)
                        r = k;
        }
        dirs_sort(res);
        remaining = res->fix ? res->remaining > 0 : res->mismatched > 0;
        if (ret_result)
                *ret_result = TAKE_PTR(res);
        if (r < 0)
                return r;
        return remaining ? 1 : 0;
}

int si_verify_run(struct seinstall_ctx *ctx, const struct si_relabel_input *in, unsigned threads,
                  unsigned flags, seinstall_relabel_progress_fn progress, void *userdata,
                  struct seinstall_verify_result **ret_result)
{
        return verify_run(ctx, in, false, NULL, 0, threads, flags, progress, userdata, ret_result);
}

SEINSTALL_EXPORT int seinstall_verify(struct seinstall_ctx *ctx,
                                      const struct seinstall_relabel_options *options,
                                      unsigned flags, struct seinstall_verify_result **ret_result)
{
        _cleanup_(si_relabel_prepared_done) struct si_relabel_prepared p = {0};
        const struct seinstall_relabel_options *o = si_relabel_options_or_defaults(options);
        int r;

        if (!ctx || (flags & ~(unsigned) (SEINSTALL_VERIFY_FIX | SEINSTALL_VERIFY_ALL)))
                return -EINVAL;
        r = si_relabel_prepare(ctx, o->policy, o->file_contexts, 0, &p);
        if (r < 0)
                return r;
        return si_verify_run(
            ctx,
            &(const struct si_relabel_input){
                .type = p.type, .file_contexts = o->file_contexts, .fc = p.fc, .check = p.check},
            o->threads, flags, o->progress, o->userdata, ret_result);
}

int seinstall_verify_paths(struct seinstall_ctx *ctx,
                           const struct seinstall_relabel_options *options,
                           const char *const *paths, size_t n_paths, unsigned flags,
                           struct seinstall_verify_result **ret_result)
{
        _cleanup_(si_relabel_prepared_done) struct si_relabel_prepared p = {0};
        const struct seinstall_relabel_options *o = si_relabel_options_or_defaults(options);
        const char *policy_type = o->policy;
        int r;

        if (!ctx || (n_paths > 0 && !paths) ||
            (flags & ~(unsigned) (SEINSTALL_VERIFY_FIX | SEINSTALL_VERIFY_ALL)))
                return -EINVAL;
        /* a lookup per path: the interpreter (fcontext.h) */
        r = si_relabel_prepare(ctx, policy_type, o->file_contexts, SI_FC_NO_JIT, &p);
        if (r < 0)
                return r;
        return verify_run(
            ctx,
            &(const struct si_relabel_input){
                .type = p.type, .file_contexts = o->file_contexts, .fc = p.fc, .check = p.check},
            true, paths, n_paths, 1, flags, NULL, NULL, ret_result);
}

/* ---- accessors and JSON ---------------------------------------------------------------------- */

SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_count(const struct seinstall_verify_result *r,
                                  enum seinstall_verify_count which)
{
        if (!r)
                return 0;
        switch (which) {
        case SEINSTALL_VERIFY_COUNT_CHECKED:
                return seinstall_relabel_result_get_count(r->relabel, SEINSTALL_RELABEL_COUNT_SEEN);
        case SEINSTALL_VERIFY_COUNT_MISMATCHED:
                return r->mismatched;
        case SEINSTALL_VERIFY_COUNT_FIXED:
                return r->fixed;
        case SEINSTALL_VERIFY_COUNT_REMAINING:
                return r->fix ? r->remaining : r->mismatched;
        case SEINSTALL_VERIFY_COUNT_NO_CONTEXT:
                return seinstall_relabel_result_get_count(r->relabel,
                                                          SEINSTALL_RELABEL_COUNT_NO_CONTEXT);
        case SEINSTALL_VERIFY_COUNT_ERRORS:
                return seinstall_relabel_result_get_count(r->relabel,
                                                          SEINSTALL_RELABEL_COUNT_ERRORS);
        case SEINSTALL_VERIFY_COUNT_UNLISTED:
                return r->unlisted;
        default:
                return 0;
        }
}

SEINSTALL_EXPORT const struct seinstall_relabel_result *
seinstall_verify_result_get_relabel(const struct seinstall_verify_result *r)
{
        return r ? r->relabel : NULL;
}

SEINSTALL_EXPORT size_t seinstall_verify_result_get_n_dirs(const struct seinstall_verify_result *r)
{
        return r ? r->ndirs : 0;
}

static const struct dir *get_dir(const struct seinstall_verify_result *r, size_t i)
{
        return r && i < r->ndirs ? &r->dirs[i] : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_verify_result_get_dir_path(const struct seinstall_verify_result *r, size_t i)
{
        const struct dir *d = get_dir(r, i);

        return d ? d->path : NULL;
}

SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_dir_mismatched(const struct seinstall_verify_result *r, size_t i)
{
        const struct dir *d = get_dir(r, i);

        return d ? d->mismatched : 0;
}

SEINSTALL_EXPORT unsigned long long
seinstall_verify_result_get_dir_fixed(const struct seinstall_verify_result *r, size_t i)
{
        const struct dir *d = get_dir(r, i);

        return d ? d->fixed : 0;
}

SEINSTALL_EXPORT size_t
seinstall_verify_result_get_dir_n_examples(const struct seinstall_verify_result *r, size_t i)
{
        const struct dir *d = get_dir(r, i);

        return d ? d->nex : 0;
}

static const struct example *get_example(const struct seinstall_verify_result *r, size_t i,
                                         size_t k)
{
        const struct dir *d = get_dir(r, i);

        return d && k < d->nex ? &d->ex[k] : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_path(const struct seinstall_verify_result *r, size_t i,
                                         size_t k)
{
        const struct example *e = get_example(r, i, k);

        return e ? e->path : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_actual(const struct seinstall_verify_result *r, size_t i,
                                           size_t k)
{
        const struct example *e = get_example(r, i, k);

        return e ? e->actual : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_verify_result_get_example_expected(const struct seinstall_verify_result *r, size_t i,
                                             size_t k)
{
        const struct example *e = get_example(r, i, k);

        return e ? e->expected : NULL;
}

SEINSTALL_EXPORT bool
seinstall_verify_result_get_example_fixed(const struct seinstall_verify_result *r, size_t i,
                                          size_t k)
{
        const struct example *e = get_example(r, i, k);

        return e && e->fixed;
}

static void json_dir(struct json *j, const struct dir *d, bool fix)
{
        json_object_begin(j);
        json_kv_string(j, "path", d->path);
        json_kv_uint(j, "mismatches", d->mismatched);
        json_kv_uint(j, "fixed", d->fixed);
        json_kv_uint(j, "remaining", fix ? d->remaining : d->mismatched);
        json_key(j, "examples");
        json_array_begin(j);
        for (size_t k = 0; k < d->nex; k++) {
                json_object_begin(j);
                json_kv_string(j, "path", d->ex[k].path);
                json_kv_string(j, "label", d->ex[k].actual);
                json_kv_string(j, "expected", d->ex[k].expected);
                json_kv_bool(j, "fixed", d->ex[k].fixed);
                json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
}

SEINSTALL_EXPORT int seinstall_verify_result_to_json(const struct seinstall_verify_result *r,
                                                     char **ret_json)
{
        _cleanup_free_ char *relabel = NULL;
        struct json j = {0};
        int e;

        if (!r || !ret_json)
                return -EINVAL;
        e = seinstall_relabel_result_to_json(r->relabel, &relabel);
        if (e < 0)
                return e;
        json_object_begin(&j);
        json_kv_bool(&j, "fix", r->fix);
        json_kv_uint(&j, "entries",
                     seinstall_verify_result_get_count(r, SEINSTALL_VERIFY_COUNT_CHECKED));
        json_kv_uint(&j, "mismatches", r->mismatched);
        json_kv_uint(&j, "fixed", r->fixed);
        json_kv_uint(&j, "no_context",
                     seinstall_verify_result_get_count(r, SEINSTALL_VERIFY_COUNT_NO_CONTEXT));
        json_kv_uint(&j, "errors",
                     seinstall_verify_result_get_count(r, SEINSTALL_VERIFY_COUNT_ERRORS));
        json_kv_uint(&j, "unlisted", r->unlisted);
        json_kv_uint(&j, "remaining", r->fix ? r->remaining : r->mismatched);
        json_kv_bool(&j, "clean", r->fix ? r->remaining == 0 : r->mismatched == 0);
        json_key(&j, "directories");
        json_array_begin(&j);
        for (size_t i = 0; i < r->ndirs; i++)
                json_dir(&j, &r->dirs[i], r->fix);
        json_array_end(&j);
        /* root, policy, time, skipped mounts, error messages: the walk's own document */
        json_key(&j, "relabel");
        json_raw(&j, relabel);
        json_object_end(&j);
        return json_steal(&j, ret_json);
}
