/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* relabel.h — private interface of the relabel result (relabel-result.c): how the engine
 * (relabel.c) and the walker (walk.c) fill in the struct seinstall_relabel_result the caller
 * gets. None of these lock: the walker calls them under its lock. */
#ifndef SEINSTALL_RELABEL_H
#define SEINSTALL_RELABEL_H

#include "seinstall-private.h"

/* A new result for a run over @root with @policy (and @file_contexts, may be NULL). */
int si_relabel_result_new(const char *root, const char *policy, const char *file_contexts,
                          unsigned threads, bool dry_run, struct seinstall_relabel_result **ret);
static inline void seinstall_relabel_result_unrefp(struct seinstall_relabel_result **r)
{
        seinstall_relabel_result_unref(*r);
}
void si_relabel_result_add_count(struct seinstall_relabel_result *r,
                                 enum seinstall_relabel_count which, unsigned long long n);
/* Keep @msg (taken over, may be NULL) among the first error messages, or free it. */
void si_relabel_result_add_error(struct seinstall_relabel_result *r, char *msg);
int si_relabel_result_add_skipped(struct seinstall_relabel_result *r, const char *path,
                                  const char *fstype, const char *reason);
/* A boot-critical file checked: its label (NULL: none) and the expected one. */
int si_relabel_result_add_verified(struct seinstall_relabel_result *r, const char *path,
                                   const char *actual, const char *expected);
/* How long the run took and its return value. */
void si_relabel_result_finish(struct seinstall_relabel_result *r, double seconds, int status);

#endif
