/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile.h — unattended settings: kickstart profiles (profile.c) and the installer's boot
 * options (bootopts.c). Not installed. */
#ifndef SEINSTALL_PROFILE_H
#define SEINSTALL_PROFILE_H

#include "seinstall-private.h"

/* ---- profiles and boot options (profile.c, bootopts.c) ---------------------------------- */

/* Parse a kickstart text (@name for messages) into @s as source "profile". */
int si_profile_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                     struct seinstall_settings *s);
/* seinstall_profile_plan() of a kickstart text (@text/@len, NULL to read @path). */
int si_ks_plan(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
               const char *default_fstype, unsigned flags, char **ret);
/* Parse a kernel command line text into @s as source "boot"; *ret_profile as in
 * seinstall_settings_load_boot_options(). */
int si_bootopts_parse(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct seinstall_settings *s, char **ret_profile);

#endif
