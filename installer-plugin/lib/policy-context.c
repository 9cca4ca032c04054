/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-context.c — SELinux contexts and the policy: a context of the binary policy written as
 * the kernel writes it (MLS ranges and category sets included), and whether a context string is
 * one the policy accepts.
 */
#include <ctype.h>
#include <sepol/context.h>
#include <sepol/context_record.h>
#include <sepol/policydb/ebitmap.h>

#include "policy-internal.h"
#include "policy.h"

#define CONTEXT_MAX 4096

/* Append ":c0.c3,c7" for a category set; runs of consecutive categories are written with ".",
 * as the kernel writes them. */
static int format_cats(struct sbuf *b, const policydb_t *db, const ebitmap_t *cats)
{
        ebitmap_node_t *node;
        unsigned int bit;
        long start = -1, prev = -1;
        int r = 0;

        ebitmap_for_each_positive_bit(cats, node, bit)
        {
                if (prev >= 0 && (long) bit == prev + 1) {
                        prev = bit;
                        continue;
                }
                if (start >= 0 && start != prev) {
                        r = sbuf_printf(b, ".%s", db->p_cat_val_to_name[prev]);
                        if (r < 0)
                                return r;
                }
                r = sbuf_printf(b, "%s%s", start >= 0 ? "," : ":", db->p_cat_val_to_name[bit]);
                if (r < 0)
                        return r;
                start = prev = bit;
        }
        if (start >= 0 && start != prev)
                r = sbuf_printf(b, ".%s", db->p_cat_val_to_name[prev]);
        return r;
}

/* ebitmap_get_bit() is not exported by libsepol.so. */
static bool cat_has(const ebitmap_t *e, unsigned int bit)
{
        for (const ebitmap_node_t *n = e->node; n; n = n->next)
                if (bit >= n->startbit && bit < n->startbit + MAPSIZE)
                        return ebitmap_node_get_bit(n, bit);
        return false;
}

static bool cats_subset(const ebitmap_t *a, const ebitmap_t *b)
{
        ebitmap_node_t *node;
        unsigned int bit;

        ebitmap_for_each_positive_bit(a, node, bit)
        {
                if (!cat_has(b, bit))
                        return false;
        }
        return true;
}

static bool level_eq(const mls_level_t *a, const mls_level_t *b)
{
        return a->sens == b->sens && cats_subset(&a->cat, &b->cat) && cats_subset(&b->cat, &a->cat);
}

char *si_policy_context_str(const policydb_t *db, const context_struct_t *c)
{
        struct sbuf b = {0};
        int r;

        if (c->user < 1 || c->user > db->p_users.nprim || c->role < 1 ||
            c->role > db->p_roles.nprim || c->type < 1 || c->type > db->p_types.nprim)
                return NULL;
        r = sbuf_printf(&b, "%s:%s:%s", db->p_user_val_to_name[c->user - 1],
                        db->p_role_val_to_name[c->role - 1], db->p_type_val_to_name[c->type - 1]);
        for (int l = 0; db->mls && l < 2 && r >= 0; l++) {
                const mls_level_t *lv = &c->range.level[l];

                /* "s0-s0" is written "s0", as the kernel shows it. */
                if (l == 1 && level_eq(&c->range.level[0], lv))
                        break;
                if (lv->sens < 1 || lv->sens > db->p_levels.nprim) {
                        r = -EINVAL;
                        break;
                }
                r = sbuf_printf(&b, "%s%s", l ? "-" : ":", db->p_sens_val_to_name[lv->sens - 1]);
                if (r >= 0)
                        r = format_cats(&b, db, &lv->cat);
        }
        if (r < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

/* user:role:type[:range]: printable, no empty user, role or type. */
static bool context_syntax_ok(const char *context)
{
        const char *s = context;
        int colons = 0;

        if (!*s || strlen(s) >= CONTEXT_MAX)
                return false;
        for (; *s; s++) {
                if (!isgraph((unsigned char) *s))
                        return false;
                if (*s != ':')
                        continue;
                if (colons < 3 && (s == context || s[-1] == ':' || !s[1]))
                        return false;
                colons++;
        }
        return colons >= 2;
}

int si_policy_context_valid(const struct si_policy *p, const char *context)
{
        sepol_context_t *con = NULL;
        int r;

        if (!context || !context_syntax_ok(context))
                return 0;
        if (!p->db)
                return 1;
        if (sepol_context_from_string(p->handle, context, &con) < 0)
                return 0;
        r = sepol_context_check(p->handle, p->db, con) < 0 ? 0 : 1;
        sepol_context_free(con);
        return r;
}
