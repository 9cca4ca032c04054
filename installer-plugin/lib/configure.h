/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* configure.h — private calls of the configure stage (config.c, kconfig.c, bootloader.c,
 * autorelabel.c, firstbootmark.c, apply.c, status.c). Not installed. */
#ifndef SEINSTALL_CONFIGURE_H
#define SEINSTALL_CONFIGURE_H

#include "cmdline.h"
#include "seinstall-private.h"

#define SI_CONFIG_PATH   "/etc/selinux/config"
#define SI_TEXT_FILE_MAX (1024 * 1024)
#define SI_KCONFIG_MAX   (8 * 1024 * 1024)

/* ---- /etc/selinux/config (config.c) ------------------------------------------------------ */

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
                    struct sbuf *what);

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

/* ---- boot loaders: which forms a target has, their files (bootloader.c) ---------------- */

/* Edit every boot loader form @bl selects (AUTO: every one present). Each edited file is
 * reported through @report; @ret_found gets a bit (1 << SEINSTALL_BOOTLOADER_x) per form
 * found. */
typedef int (*si_report_fn)(void *userdata, const char *file, const char *what);
int si_bootcmd_apply(struct seinstall_ctx *ctx, enum seinstall_bootloader bl,
                     const struct si_cmdline_goal *goal, si_report_fn report, void *userdata,
                     unsigned *ret_found, bool *ret_grub_changed);
/* The command line of the target's boot loader as the kernel would see it: the first form
 * found of GRUB, /etc/kernel/cmdline, BLS (first entry). *ret NULL and NONE when none. */
int si_bootcmd_read(struct seinstall_ctx *ctx, char **ret, enum seinstall_bootloader *ret_bl);

/* ---- relabel scheduling and the first-boot mark (autorelabel.c, firstbootmark.c) ------- */

/* Whether a relabel is scheduled in the target. */
bool si_autorelabel_pending(struct seinstall_ctx *ctx);
/* Write "-F" into /.autorelabel, or /etc/selinux/.autorelabel on a read-only root. Returns 1
 * written, 0 already there, -errno; *ret_path names the file used (static). */
int si_autorelabel_schedule(struct seinstall_ctx *ctx, const char **ret_path);

struct si_firstboot_mark {
        bool present;
        enum seinstall_mode mode; /* INVALID for mode=trial */
        bool trial;               /* mode=trial */
        bool relabel;
};
int si_firstboot_mark_read(struct seinstall_ctx *ctx, struct si_firstboot_mark *ret);
/* 1 written, 0 already so, -errno. */
int si_firstboot_mark_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, bool trial,
                            const char *policy, bool relabel);

/* ---- the configure stage (apply.c) ------------------------------------------------------ */

/* seinstall_apply() (arguments checked by the caller) with the target's config @config
 * already read: the install pipeline reads it once, in its plan stage. */
int si_apply_run(struct seinstall_ctx *ctx, const struct si_config *config,
                 enum seinstall_mode mode, const char *policy_type,
                 enum seinstall_bootloader bootloader, unsigned flags,
                 struct seinstall_apply_result **ret_result);

/* ---- the trial mode (trial.c) --------------------------------------------------------- */

/* One file a label denial named, and the command that fixes it (may be NULL). */
struct si_trial_file {
        const char *path;
        const char *fix;
};
/* What a boot showed: the classified denials (avc.c) the decision rests on. */
struct si_trial_evidence {
        unsigned long long denials;       /* every denial read */
        unsigned long long label_denials; /* of those, caused by a label */
        const struct si_trial_file *files;
        size_t n_files;
        const char *log; /* the log read */
};
/* The decision, without I/O: a pending @cur with @ev, at @now, gives the new state in *ret
 * (enforced when no denial was caused by a label, else kept-permissive with the files) and 1;
 * any other @cur decides nothing: 0 and *ret NULL. */
int si_trial_decide_from(const struct seinstall_trial *cur, const struct si_trial_evidence *ev,
                         const char *now, struct seinstall_trial **ret);
/* A new, empty state; a file appended to one (listed once, at most 100). */
int si_trial_new(enum seinstall_trial_state state, struct seinstall_trial **ret);
int si_trial_add_path(struct seinstall_trial *t, const char *path, const char *fix);
/* The state file's text of @t, and back (@name, the file, for messages; -EBADMSG). */
int si_trial_render(const struct seinstall_trial *t, char **ret);
int si_trial_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                   struct seinstall_trial **ret);
/* seinstall_trial_read(), but a state file that cannot be read or parsed gives state NONE with
 * the reason in the "error" field (status shows the rest of the state anyway). */
int si_trial_read_for_status(struct seinstall_ctx *ctx, struct seinstall_trial **ret);
/* Record a pending trial for @policy: 1 written, 0 already pending for it, -errno. */
int si_trial_start(struct seinstall_ctx *ctx, const char *policy);
/* A pending trial ends as "cancelled" (a mode chosen by hand): 1 written, 0 none pending. */
int si_trial_cancel(struct seinstall_ctx *ctx);
/* Enable seinstall-trial.service in the target (its multi-user.target.wants link); 1 made,
 * 0 already, -errno; *ret_path names the link. */
int si_trial_enable_unit(struct seinstall_ctx *ctx, const char **ret_path);
/* Whether the unit file is installed in the target (/etc, /usr/lib or /lib systemd/system). */
bool si_trial_unit_installed(struct seinstall_ctx *ctx);

/* ---- profiles and boot options (profile.c, bootopts.c) ---------------------------------- */

/* Parse a kickstart text (@name for messages) into @s as source "profile". */
int si_profile_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                     struct seinstall_settings *s);
/* Parse a kernel command line text into @s as source "boot"; *ret_profile as in
 * seinstall_settings_load_boot_options(). */
int si_bootopts_parse(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct seinstall_settings *s, char **ret_profile);

/* Whether etc/selinux/@type/policy/policy.N exists in the target. */
bool si_policy_built(struct seinstall_ctx *ctx, const char *type);
/* Build the policy @type from the modules installed in the target (/var/lib/selinux/TYPE) with
 * libsemanage, as `semodule -p ROOT -n -B`. 0 already built, 1 built, -ENOPKG no modules
 * either (message names the package), -ENOTDIR a symlinked policy directory, -EIO. */
int si_policy_build(struct seinstall_ctx *ctx, const char *type);

#endif
