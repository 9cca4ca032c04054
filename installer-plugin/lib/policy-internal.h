/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-internal.h — private interface between the parts of the policy reader: the loaded policy
 * (policy.c) and the lookups into it (policy-fs.c, policy-context.c). The rest of the library
 * sees struct si_policy only through policy.h. */
#ifndef SEINSTALL_POLICY_INTERNAL_H
#define SEINSTALL_POLICY_INTERNAL_H

#include <sepol/handle.h>
#include <sepol/policydb.h>
#include <sepol/policydb/policydb.h>

#include "seinstall-private.h"

struct si_policy {
        char *type;
        enum seinstall_source source;
        char *path;             /* NULL for the built-in table */
        sepol_handle_t *handle; /* NULL for the built-in table */
        sepol_policydb_t *db;   /* NULL for the built-in table */
};

/* The context @c of the policy @db as a string ("user:role:type[:range]", the range as the
 * kernel writes it), or NULL (ENOMEM, or values the policy does not define). */
char *si_policy_context_str(const policydb_t *db, const context_struct_t *c);

#endif
