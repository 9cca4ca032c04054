/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refcount.h — the one ref/unref pair of every object of the library (seinstall-private.h
 * includes it), as seinstall.h documents it: each accepts NULL and returns it, ref returns its
 * argument, unref returns NULL and frees the object with its last reference. Not installed.
 *
 * The count is `unsigned extra_refs`, the references beyond the maker's: 0 as made, so an
 * object fresh from calloc() holds its one reference without a line of its constructor. A count
 * that reaches UINT_MAX stays there (ref and unref leave it alone): the object is then never
 * freed, a leak where wrapping round would free it under its other holders (the kernel's
 * refcount_t saturates alike). Not atomic: an object is used by one thread at a time. */
#ifndef SEINSTALL_REFCOUNT_H
#define SEINSTALL_REFCOUNT_H

#include <limits.h>

/* Defines `SCOPE struct TYPE *PREFIX_ref(struct TYPE *)` and `..._unref()` over the member
 * extra_refs of struct TYPE; unref calls FREE_FUNC(p) (a static void function of the object's
 * file) with the last reference. Used with a semicolon after it. */
#define SI_DEFINE_REF_UNREF_SCOPE(scope, type, prefix, free_func)                                  \
        scope struct type *prefix##_ref(struct type *p)                                            \
        {                                                                                          \
                if (p && p->extra_refs < UINT_MAX)                                                 \
                        p->extra_refs++;                                                           \
                return p;                                                                          \
        }                                                                                          \
        scope struct type *prefix##_unref(struct type *p)                                          \
        {                                                                                          \
                if (!p || p->extra_refs == UINT_MAX)                                               \
                        return NULL;                                                               \
                if (p->extra_refs > 0) {                                                           \
                        p->extra_refs--;                                                           \
                        return NULL;                                                               \
                }                                                                                  \
                free_func(p);                                                                      \
                return NULL;                                                                       \
        }                                                                                          \
        _Static_assert(_Generic(((struct type *) 0)->extra_refs, unsigned : 1, default : 0),       \
                       "struct " #type ": extra_refs must be unsigned")

/* The pair of an object of the ABI (seinstall.h), exported from libseinstall.so.0. */
#define SI_DEFINE_PUBLIC_REF_UNREF(type, prefix, free_func)                                        \
        SI_DEFINE_REF_UNREF_SCOPE(SEINSTALL_EXPORT, type, prefix, free_func)
/* The pair of an object of the commands' own calls (seinstall-internal.h): not exported. */
#define SI_DEFINE_REF_UNREF(type, prefix, free_func)                                               \
        SI_DEFINE_REF_UNREF_SCOPE(, type, prefix, free_func)

#endif
