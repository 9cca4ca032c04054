/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* config.h — the target's /etc/selinux/config (config.c) and its kernel's config (kconfig.c).
 * Not installed. */
#ifndef SEINSTALL_CONFIG_H
#define SEINSTALL_CONFIG_H

#include "seinstall-private.h"

/* ---- /etc/selinux/config (config.c) ------------------------------------------------------ */

/* A mode SELINUX= can say (names.c): seinstall_mode_from_string() without "trial", which is no
 * value of the config (nor of the first-boot mark's mode= as a mode). */
enum seinstall_mode si_config_mode_from_string(const char *s);
bool si_config_mode_valid(enum seinstall_mode mode);

#define SI_CONFIG_PATH "/etc/selinux/config"

struct si_config {
        bool present;             /* the file exists */
        enum seinstall_mode mode; /* SELINUX=, SEINSTALL_MODE_INVALID when missing/unknown */
        char *type;               /* SELINUXTYPE=, NULL when missing */
};
void si_config_done(struct si_config *c);
/* Parse a config's text. Never fails on content (unknown values read as missing). */
int si_config_parse(const char *text, size_t len, struct si_config *ret);
/* Read the target's config; a missing file gives present=false and returns 0. */
int si_config_read(struct seinstall_ctx *ctx, struct si_config *ret);
/* The target's SELINUXTYPE, else "default": a new string. */
int si_config_policy_type(struct seinstall_ctx *ctx, char **ret);
/* The text of @old (NULL: a new file) with exactly one SELINUX=@mode and one SELINUXTYPE=@type,
 * everything else kept in order. */
int si_config_render(const char *old, size_t len, enum seinstall_mode mode, const char *type,
                     char **ret);
/* Write the config when it differs. Returns 1 written (what changed appended to @what), 0
 * already right, -errno. */
int si_config_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *type,
                    unsigned wflags, struct sbuf *what);

/* ---- kernel config (kconfig.c) ----------------------------------------------------------- */

struct si_kconfig {
        enum seinstall_kernel_case kcase;
        bool bootparam; /* CONFIG_SECURITY_SELINUX_BOOTPARAM=y (selinux=0 works) */
        char *file;     /* the /boot/config-* decided on (target path), or NULL */
};
void si_kconfig_done(struct si_kconfig *k);
/* The case one kernel config text describes. */
enum seinstall_kernel_case si_kconfig_case_of(const char *text, size_t len, bool *ret_bootparam);
/* Whether selinux comes before every other exclusive LSM (apparmor, smack) in a comma list. */
bool si_lsm_list_selinux_first(const char *list);
/* Read every /boot/config-* of the target: one case when they agree, UNKNOWN otherwise. */
int si_kconfig_read(struct seinstall_ctx *ctx, struct si_kconfig *ret);

#endif
