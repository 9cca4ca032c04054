/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* apply.h — the configure stage (apply.c), as the install pipeline runs it. Not installed. */
#ifndef SEINSTALL_APPLY_H
#define SEINSTALL_APPLY_H

#include "seinstall-private.h"
#include "config.h"

/* ---- the configure stage (apply.c) ------------------------------------------------------ */

/* si_apply_run()'s own flag beside SEINSTALL_APPLY_*: the trial mode (seinstall_apply() with
 * SEINSTALL_MODE_TRIAL), run with mode enforcing, the mode it aims at. */
#define SI_APPLY_TRIAL (1u << 16)
/* A dry run of an install whose policy the real run builds first: the policy counts as built. */
#define SI_APPLY_POLICY_PENDING (1u << 17)

/* seinstall_apply() (arguments checked by the caller) with the target's config @config
 * already read: the install pipeline reads it once, in its plan stage. */
int si_apply_run(struct seinstall_ctx *ctx, const struct si_config *config,
                 enum seinstall_mode mode, const char *policy_type,
                 enum seinstall_bootloader bootloader, unsigned flags,
                 struct seinstall_apply_result **ret_result);

#endif
