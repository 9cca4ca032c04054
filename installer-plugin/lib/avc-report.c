/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc-report.c — the report of `seinstall avc` (struct seinstall_avc_result): the denials counted,
 * grouped by cause, domain, type, class, permissions and (label causes) file; its accessors and
 * its JSON document.
 */
#include "avc.h"

#define AVC_MAX_DENIALS 100000u /* distinct groups kept; more are counted only */

struct seinstall_avc_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        char *source;
        size_t n_denials;
        size_t n_label;
        size_t n_unsearched; /* denials whose file the search budget left unsearched */
        struct si_avc_group *groups;
        size_t n_groups, cap;
        size_t *heads; /* open addressing over groups (at most half full), SIZE_MAX empty */
        size_t n_heads;
};

void si_avc_group_done(struct si_avc_group *g)
{
        free(g->domain);
        free(g->type);
        free(g->tclass);
        free(g->perms);
        free(g->scontext);
        free(g->tcontext);
        free(g->path);
        free(g->name);
        free(g->comm);
        free(g->expected);
        free(g->fix);
        *g = (struct si_avc_group){0};
}

static void avc_result_free(struct seinstall_avc_result *rep)
{
        for (size_t i = 0; i < rep->n_groups; i++)
                si_avc_group_done(&rep->groups[i]);
        free(rep->groups);
        free(rep->heads);
        free(rep->source);
        free(rep);
}

SI_DEFINE_REF_UNREF(seinstall_avc_result, seinstall_avc_result, avc_result_free);

struct seinstall_avc_result *si_avc_report_new(const char *source)
{
        struct seinstall_avc_result *rep = calloc(1, sizeof(*rep));

        if (rep && !(rep->source = strdup(source)))
                rep = seinstall_avc_result_unref(rep);
        return rep;
}

void si_avc_report_set_skipped(struct seinstall_avc_result *rep, size_t n)
{
        rep->n_unsearched = n;
}

static uint64_t mix(uint64_t h, const char *s)
{
        for (; s && *s; s++)
                h = (h ^ (unsigned char) *s) * 1099511628211ull; /* FNV-1a */
        return (h ^ 0xff) * 1099511628211ull;
}

/* Denials of one group: same cause, domain, type, class, permissions, and file for labels. */
static uint64_t group_hash(enum seinstall_avc_cause cause, const char *domain, const char *type,
                           const char *tclass, const char *perms, const char *path)
{
        uint64_t h = 1469598103934665603ull ^ (uint64_t) cause;

        h = mix(mix(mix(mix(h, domain), type), tclass), perms);
        return cause == SEINSTALL_AVC_CAUSE_POLICY ? h : mix(h, path);
}

static bool group_is(const struct si_avc_group *o, const struct si_avc_group *g,
                     const struct si_avc *a)
{
        return o->cause == g->cause && streq(o->domain, g->domain) && streq(o->type, g->type) &&
               streq(o->tclass, a->tclass) && streq(o->perms, a->perms) &&
               (g->cause == SEINSTALL_AVC_CAUSE_POLICY || streq_ptr(o->path, g->path));
}

static size_t *group_slot(const struct seinstall_avc_result *rep, const struct si_avc_group *g,
                          const struct si_avc *a)
{
        size_t h = group_hash(g->cause, g->domain, g->type, a->tclass, a->perms, g->path) &
                   (rep->n_heads - 1);

        while (rep->heads[h] != SIZE_MAX && !group_is(&rep->groups[rep->heads[h]], g, a))
                h = (h + 1) & (rep->n_heads - 1);
        return &rep->heads[h];
}

/* Room in the hash for one more group. */
static int heads_reserve(struct seinstall_avc_result *rep)
{
        size_t n = rep->n_heads ? 2 * rep->n_heads : 64, *heads;

        if (2 * (rep->n_groups + 1) <= rep->n_heads)
                return 0;
        heads = malloc(n * sizeof(*heads));
        if (!heads)
                return -ENOMEM;
        memset(heads, 0xff, n * sizeof(*heads));
        for (size_t i = 0; i < rep->n_groups; i++) {
                const struct si_avc_group *o = &rep->groups[i];
                size_t h = group_hash(o->cause, o->domain, o->type, o->tclass, o->perms, o->path) &
                           (n - 1);
                while (heads[h] != SIZE_MAX)
                        h = (h + 1) & (n - 1);
                heads[h] = i;
        }
        free(rep->heads);
        rep->heads = heads;
        rep->n_heads = n;
        return 0;
}

int si_avc_report_add(struct seinstall_avc_result *rep, const struct si_avc *a,
                      struct si_avc_group *g)
{
        size_t *slot;

        rep->n_denials++;
        if (!g)
                return 0;
        if (g->cause == SEINSTALL_AVC_CAUSE_LABEL)
                rep->n_label++;
        if (heads_reserve(rep) < 0) {
                si_avc_group_done(g);
                return -ENOMEM;
        }
        slot = group_slot(rep, g, a);
        if (*slot != SIZE_MAX) {
                struct si_avc_group *o = &rep->groups[*slot];
                o->count++;
                o->permissive = o->permissive && a->permissive == 1;
                si_avc_group_done(g);
                return 0;
        }
        if (rep->n_groups >= AVC_MAX_DENIALS) {
                si_avc_group_done(g);
                return 0;
        }
        if (!SI_GROW(rep->groups, rep->cap, rep->n_groups + 1)) {
                si_avc_group_done(g);
                return -ENOMEM;
        }
        g->count = 1;
        g->permissive = a->permissive == 1;
        if (!(g->tclass = strdup(a->tclass)) || !(g->perms = strdup(a->perms)) ||
            !(g->scontext = strdup(a->scontext)) || !(g->tcontext = strdup(a->tcontext)) ||
            (a->name && !(g->name = strdup(a->name))) ||
            (a->comm && !(g->comm = strdup(a->comm)))) {
                si_avc_group_done(g);
                return -ENOMEM;
        }
        *slot = rep->n_groups;
        rep->groups[rep->n_groups++] = *g;
        *g = (struct si_avc_group){0};
        return 0;
}

const char *seinstall_avc_result_get_source(const struct seinstall_avc_result *rep)
{
        return rep ? rep->source : NULL;
}

size_t seinstall_avc_result_get_n_denials(const struct seinstall_avc_result *rep)
{
        return rep ? rep->n_denials : 0;
}

size_t seinstall_avc_result_get_n_label(const struct seinstall_avc_result *rep)
{
        return rep ? rep->n_label : 0;
}

size_t seinstall_avc_result_get_n_unsearched(const struct seinstall_avc_result *rep)
{
        return rep ? rep->n_unsearched : 0;
}

size_t seinstall_avc_result_get_n_groups(const struct seinstall_avc_result *rep)
{
        return rep ? rep->n_groups : 0;
}

static const struct si_avc_group *group(const struct seinstall_avc_result *rep, size_t i)
{
        return rep && i < rep->n_groups ? &rep->groups[i] : NULL;
}

enum seinstall_avc_cause
seinstall_avc_result_get_group_cause(const struct seinstall_avc_result *rep, size_t i)
{
        const struct si_avc_group *g = group(rep, i);
        return g ? g->cause : SEINSTALL_AVC_CAUSE_POLICY;
}

unsigned seinstall_avc_result_get_group_count(const struct seinstall_avc_result *rep, size_t i)
{
        const struct si_avc_group *g = group(rep, i);
        return g ? g->count : 0;
}

bool seinstall_avc_result_get_group_permissive(const struct seinstall_avc_result *rep, size_t i)
{
        const struct si_avc_group *g = group(rep, i);
        return g && g->permissive;
}

const char *seinstall_avc_result_get_group_field(const struct seinstall_avc_result *rep, size_t i,
                                                 enum seinstall_avc_field field)
{
        const struct si_avc_group *g = group(rep, i);

        if (!g)
                return NULL;
        switch (field) {
        case SEINSTALL_AVC_FIELD_DOMAIN:
                return g->domain;
        case SEINSTALL_AVC_FIELD_TYPE:
                return g->type;
        case SEINSTALL_AVC_FIELD_TCLASS:
                return g->tclass;
        case SEINSTALL_AVC_FIELD_PERMS:
                return g->perms;
        case SEINSTALL_AVC_FIELD_SCONTEXT:
                return g->scontext;
        case SEINSTALL_AVC_FIELD_TCONTEXT:
                return g->tcontext;
        case SEINSTALL_AVC_FIELD_PATH:
                return g->path;
        case SEINSTALL_AVC_FIELD_NAME:
                return g->name;
        case SEINSTALL_AVC_FIELD_COMM:
                return g->comm;
        case SEINSTALL_AVC_FIELD_EXPECTED:
                return g->expected;
        case SEINSTALL_AVC_FIELD_FIX:
                return g->fix;
        }
        return NULL;
}

int seinstall_avc_result_to_json(const struct seinstall_avc_result *rep, char **ret)
{
        /* The members, in the order of enum seinstall_avc_field. */
        static const char *const fields[] = {"domain",   "type",     "tclass", "perms",
                                             "scontext", "tcontext", "path",   "name",
                                             "comm",     "expected", "fix"};
        struct json j = {0};

        if (!rep || !ret)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "source", rep->source);
        json_kv_uint(&j, "denials", rep->n_denials);
        json_kv_uint(&j, "caused_by_label", rep->n_label);
        json_kv_uint(&j, "caused_by_policy", rep->n_denials - rep->n_label);
        json_kv_uint(&j, "unsearched", rep->n_unsearched);
        for (int pass = 0; pass < 2; pass++) {
                enum seinstall_avc_cause want =
                    pass ? SEINSTALL_AVC_CAUSE_POLICY : SEINSTALL_AVC_CAUSE_LABEL;

                json_key(&j, pass ? "policy" : "label");
                json_array_begin(&j);
                for (size_t i = 0; i < rep->n_groups; i++) {
                        if (rep->groups[i].cause != want)
                                continue;
                        json_object_begin(&j);
                        json_kv_uint(&j, "count", rep->groups[i].count);
                        json_kv_bool(&j, "permissive", rep->groups[i].permissive);
                        for (size_t k = 0; k < ELEMENTSOF(fields); k++)
                                json_kv_string(&j, fields[k],
                                               seinstall_avc_result_get_group_field(
                                                   rep, i, (enum seinstall_avc_field) k));
                        json_object_end(&j);
                }
                json_array_end(&j);
        }
        json_object_end(&j);
        return json_steal(&j, ret);
}
