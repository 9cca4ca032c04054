/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * relabel-result.c — the result of a relabel run (struct seinstall_relabel_result): its
 * counts, the mounts it skipped, the first error messages and the boot-critical files it
 * verified, the public accessors and the `relabel --json` document. The engine (relabel.c) and
 * the walker (walk.c) fill it in through relabel.h.
 */
#include "relabel.h"

#define MAX_ERRORS 100

struct skipped_mount {
        char *path, *fstype, *reason;
};

struct verified {
        char *path, *actual, *expected;
};

struct seinstall_relabel_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        unsigned long long counts[SEINSTALL_RELABEL_COUNT_ERRORS + 1];
        struct skipped_mount *skipped;
        size_t nskipped, cap_skipped;
        char **errors;
        size_t nerrors, cap_errors;
        struct verified *verified;
        size_t nverified, cap_verified;
        char *root, *policy, *file_contexts;
        unsigned threads;
        bool dry_run;
        double seconds;
        int status;
        /* the pass over what the mounts hide (relabel --under-mounts), when it ran */
        bool under_mounts;
        char **under_points;
        size_t n_under_points;
        unsigned long long under_seen, under_changed;
};

static void relabel_result_free(struct seinstall_relabel_result *r)
{
        for (size_t i = 0; i < r->nskipped; i++) {
                free(r->skipped[i].path);
                free(r->skipped[i].fstype);
                free(r->skipped[i].reason);
        }
        free(r->skipped);
        si_strv_free(r->under_points, r->n_under_points);
        for (size_t i = 0; i < r->nerrors; i++)
                free(r->errors[i]);
        free(r->errors);
        for (size_t i = 0; i < r->nverified; i++) {
                free(r->verified[i].path);
                free(r->verified[i].actual);
                free(r->verified[i].expected);
        }
        free(r->verified);
        free(r->root);
        free(r->policy);
        free(r->file_contexts);
        free(r);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_relabel_result, seinstall_relabel_result, relabel_result_free);

unsigned long long seinstall_relabel_result_get_count(const struct seinstall_relabel_result *r,
                                                      enum seinstall_relabel_count which)
{
        if (!r || (unsigned) which > SEINSTALL_RELABEL_COUNT_ERRORS)
                return 0;
        return r->counts[which];
}

size_t seinstall_relabel_result_get_n_skipped(const struct seinstall_relabel_result *r)
{
        return r ? r->nskipped : 0;
}

static const struct skipped_mount *skipped_at(const struct seinstall_relabel_result *r, size_t i)
{
        return r && i < r->nskipped ? &r->skipped[i] : NULL;
}

const char *
seinstall_relabel_result_get_skipped_mountpoint(const struct seinstall_relabel_result *r, size_t i)
{
        const struct skipped_mount *m = skipped_at(r, i);
        return m ? m->path : NULL;
}

const char *seinstall_relabel_result_get_skipped_fstype(const struct seinstall_relabel_result *r,
                                                        size_t i)
{
        const struct skipped_mount *m = skipped_at(r, i);
        return m ? m->fstype : NULL;
}

const char *seinstall_relabel_result_get_skipped_reason(const struct seinstall_relabel_result *r,
                                                        size_t i)
{
        const struct skipped_mount *m = skipped_at(r, i);
        return m ? m->reason : NULL;
}

size_t seinstall_relabel_result_get_n_errors(const struct seinstall_relabel_result *r)
{
        return r ? r->nerrors : 0;
}

const char *seinstall_relabel_result_get_error(const struct seinstall_relabel_result *r, size_t i)
{
        return r && i < r->nerrors ? r->errors[i] : NULL;
}

size_t seinstall_relabel_result_get_n_verified(const struct seinstall_relabel_result *r)
{
        return r ? r->nverified : 0;
}

const char *seinstall_relabel_result_get_verified_path(const struct seinstall_relabel_result *r,
                                                       size_t i)
{
        return r && i < r->nverified ? r->verified[i].path : NULL;
}

const char *seinstall_relabel_result_get_verified_actual(const struct seinstall_relabel_result *r,
                                                         size_t i)
{
        return r && i < r->nverified ? r->verified[i].actual : NULL;
}

const char *seinstall_relabel_result_get_verified_expected(const struct seinstall_relabel_result *r,
                                                           size_t i)
{
        return r && i < r->nverified ? r->verified[i].expected : NULL;
}

int seinstall_relabel_result_to_json(const struct seinstall_relabel_result *r, char **ret_json)
{
        struct json j = {0};

        if (!r)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "root", r->root);
        json_kv_string(&j, "policy", r->policy);
        json_kv_string(&j, "file_contexts", r->file_contexts);
        json_kv_bool(&j, "dry_run", r->dry_run);
        json_kv_uint(&j, "threads", r->threads);
        json_kv_fixed(&j, "seconds", r->seconds, 3);
        json_kv_uint(&j, "entries", r->counts[SEINSTALL_RELABEL_COUNT_SEEN]);
        json_kv_uint(&j, "changed", r->counts[SEINSTALL_RELABEL_COUNT_CHANGED]);
        json_kv_uint(&j, "unchanged", r->counts[SEINSTALL_RELABEL_COUNT_UNCHANGED]);
        json_kv_uint(&j, "no_context", r->counts[SEINSTALL_RELABEL_COUNT_NO_CONTEXT]);
        json_kv_uint(&j, "errors", r->counts[SEINSTALL_RELABEL_COUNT_ERRORS]);
        json_key(&j, "skipped_mounts");
        json_array_begin(&j);
        for (size_t i = 0; i < r->nskipped; i++) {
                json_object_begin(&j);
                json_kv_string(&j, "mountpoint", r->skipped[i].path);
                json_kv_string(&j, "fstype", r->skipped[i].fstype);
                json_kv_string(&j, "reason", r->skipped[i].reason);
                json_object_end(&j);
        }
        json_array_end(&j);
        json_key(&j, "error_messages");
        json_array_begin(&j);
        for (size_t i = 0; i < r->nerrors; i++)
                json_string(&j, r->errors[i]);
        json_array_end(&j);
        json_key(&j, "verified");
        json_array_begin(&j);
        for (size_t i = 0; i < r->nverified; i++) {
                const struct verified *v = &r->verified[i];

                json_object_begin(&j);
                json_kv_string(&j, "path", v->path);
                json_kv_string(&j, "label", v->actual);
                json_kv_string(&j, "expected", v->expected);
                json_kv_bool(&j, "ok", streq_ptr(v->actual, v->expected));
                json_object_end(&j);
        }
        json_array_end(&j);
        json_key(&j, "under_mounts");
        if (r->under_mounts) {
                json_object_begin(&j);
                json_kv_uint(&j, "entries", r->under_seen);
                json_kv_uint(&j, "changed", r->under_changed);
                json_key(&j, "mountpoints");
                json_array_begin(&j);
                for (size_t i = 0; i < r->n_under_points; i++)
                        json_string(&j, r->under_points[i]);
                json_array_end(&j);
                json_object_end(&j);
        } else {
                json_null(&j);
        }
        json_kv_bool(&j, "ok", r->status == 0);
        json_object_end(&j);
        return json_steal(&j, ret_json);
}

int si_relabel_result_new(const char *root, const char *policy, const char *file_contexts,
                          unsigned threads, bool dry_run, struct seinstall_relabel_result **ret)
{
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *r = NULL;

        r = calloc(1, sizeof(*r));
        if (!r)
                return -ENOMEM;
        r->root = strdup(root);
        r->policy = strdup(policy);
        r->file_contexts = file_contexts ? strdup(file_contexts) : NULL;
        r->threads = threads;
        r->dry_run = dry_run;
        if (!r->root || !r->policy || (file_contexts && !r->file_contexts))
                return -ENOMEM;
        *ret = TAKE_PTR(r);
        return 0;
}

void si_relabel_result_add_count(struct seinstall_relabel_result *r,
                                 enum seinstall_relabel_count which, unsigned long long n)
{
        r->counts[which] += n;
}

void si_relabel_result_add_error(struct seinstall_relabel_result *r, char *msg)
{
        if (msg && r->nerrors < MAX_ERRORS && SI_GROW(r->errors, r->cap_errors, r->nerrors + 1))
                r->errors[r->nerrors++] = TAKE_PTR(msg);
        free(msg);
}

int si_relabel_result_add_skipped(struct seinstall_relabel_result *r, const char *path,
                                  const char *fstype, const char *reason)
{
        if (!SI_GROW(r->skipped, r->cap_skipped, r->nskipped + 1))
                return -ENOMEM;
        r->skipped[r->nskipped] = (struct skipped_mount){
            .path = strdup(*path ? path : "/"),
            .fstype = strdup(fstype),
            .reason = strdup(reason),
        };
        r->nskipped++;
        return 0;
}

int si_relabel_result_add_verified(struct seinstall_relabel_result *r, const char *path,
                                   const char *actual, const char *expected)
{
        if (!SI_GROW(r->verified, r->cap_verified, r->nverified + 1))
                return -ENOMEM;
        r->verified[r->nverified] = (struct verified){
            .path = strdup(path),
            .actual = actual ? strdup(actual) : NULL,
            .expected = strdup(expected),
        };
        r->nverified++;
        return 0;
}

void si_relabel_result_finish(struct seinstall_relabel_result *r, double seconds, int status)
{
        r->seconds = seconds;
        r->status = status;
}

int seinstall_relabel_result_get_under_mounts(const struct seinstall_relabel_result *r,
                                              size_t *ret_mountpoints,
                                              unsigned long long *ret_entries,
                                              unsigned long long *ret_changed)
{
        if (!r)
                return -EINVAL;
        if (ret_mountpoints)
                *ret_mountpoints = r->n_under_points;
        if (ret_entries)
                *ret_entries = r->under_seen;
        if (ret_changed)
                *ret_changed = r->under_changed;
        return r->under_mounts;
}

void si_relabel_result_set_under_mounts(struct seinstall_relabel_result *r, char **points, size_t n,
                                        unsigned long long seen, unsigned long long changed)
{
        si_strv_free(r->under_points, r->n_under_points);
        r->under_mounts = true;
        r->under_points = points;
        r->n_under_points = n;
        r->under_seen = seen;
        r->under_changed = changed;
}
