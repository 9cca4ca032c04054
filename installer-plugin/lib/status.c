/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status.c — seinstall_status_read(): the target's SELinux state as the first-boot screen and
 * `seinstall status` show it: config, the boot loader's kernel command line, the kernel's case,
 * the boot menu made from it (bootmenu.c) and whether it lags, the mode it will boot in (the
 * menu's, when it can be read), a pending relabel, the first-boot mark, the trial mode's state
 * (trial.c) and SELinux now.
 */
#include <fcntl.h>
#include <stddef.h>

#include "bootmenu.h"
#include "cmdline.h"
#include "config.h"
#include "marks.h"
#include "policy.h"
#include "trial.h"

struct seinstall_status_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        char *root;          /* the target, as given to seinstall_new() */
        struct si_config config;
        bool policy_built;
        enum seinstall_bootloader bootloader;
        char *cmdline;
        char *args[4]; /* selinux, security, lsm, enforcing */
        struct si_bootmenu menu;
        struct si_kconfig kconfig;
        bool relabel_pending;
        struct si_firstboot_mark mark;
        enum seinstall_mode boot_mode;
        enum seinstall_mode active;
        struct seinstall_trial_result *trial;
};

static const char *const arg_names[] = {"selinux", "security", "lsm", "enforcing"};

static void status_result_free(struct seinstall_status_result *st)
{
        free(st->root);
        si_config_done(&st->config);
        free(st->cmdline);
        si_bootmenu_done(&st->menu);
        for (size_t i = 0; i < ELEMENTSOF(st->args); i++)
                free(st->args[i]);
        si_kconfig_done(&st->kconfig);
        seinstall_trial_result_unref(st->trial);
        free(st);
}

SI_DEFINE_REF_UNREF(seinstall_status_result, seinstall_status_result, status_result_free);

/* SELinux of the running system: only meaningful when the target is the running system. */
static enum seinstall_mode active_mode(struct seinstall_ctx *ctx)
{
        _cleanup_free_ char *v = NULL;

        if (!streq(ctx->root, "/"))
                return SEINSTALL_MODE_INVALID;
        if (read_file_bounded("/sys/fs/selinux/enforce", 64, &v, NULL) < 0)
                return SEINSTALL_MODE_DISABLED;
        return v[0] == '1' ? SEINSTALL_MODE_ENFORCING : SEINSTALL_MODE_PERMISSIVE;
}

/* What the next boot gives the kernel: the menu's default entry when it can be read, else
 * the configuration's command line (no menu yet: GRUB's install makes it from that). */
static const char *boot_cmdline(const struct seinstall_status_result *st)
{
        if (st->menu.cmdline)
                return st->menu.cmdline;
        return st->cmdline ? st->cmdline : "";
}

int seinstall_status_read(struct seinstall_ctx *ctx, struct seinstall_status_result **ret)
{
        struct seinstall_status_result *st;
        int r;

        if (!ctx || !ret)
                return -EINVAL;
        st = calloc(1, sizeof(*st));
        if (!st)
                return -ENOMEM;
        st->root = strdup(ctx->root);
        if (!st->root) {
                free(st);
                return -ENOMEM;
        }
        r = si_config_read(ctx, &st->config);
        if (r >= 0)
                r = si_bootcmd_read(ctx, &st->cmdline, &st->bootloader);
        if (r >= 0)
                r = si_bootmenu_read(ctx, &st->menu);
        for (size_t i = 0; r >= 0 && st->cmdline && i < ELEMENTSOF(arg_names); i++)
                st->args[i] = si_cmdline_get(st->cmdline, arg_names[i]);
        if (r >= 0)
                r = si_kconfig_read(ctx, &st->kconfig);
        if (r >= 0)
                r = si_firstboot_mark_read(ctx, &st->mark);
        if (r >= 0)
                r = si_trial_read_for_status(ctx, &st->trial);
        if (r < 0) {
                seinstall_status_result_unref(st);
                return r;
        }
        st->policy_built = si_policy_built(ctx, st->config.type ? st->config.type : "default");
        st->relabel_pending = si_autorelabel_pending(ctx);
        st->boot_mode = si_cmdline_boot_mode(boot_cmdline(st), st->kconfig.kcase,
                                             st->kconfig.bootparam, st->config.mode);
        if (st->boot_mode != SEINSTALL_MODE_DISABLED && !st->policy_built)
                st->boot_mode = SEINSTALL_MODE_DISABLED; /* nothing to load */
        st->active = active_mode(ctx);
        *ret = st;
        return 0;
}

enum seinstall_mode
seinstall_status_result_get_config_mode(const struct seinstall_status_result *st)
{
        return st ? st->config.mode : SEINSTALL_MODE_INVALID;
}

const char *seinstall_status_result_get_config_policy(const struct seinstall_status_result *st)
{
        return st ? st->config.type : NULL;
}

bool seinstall_status_result_get_policy_built(const struct seinstall_status_result *st)
{
        return st && st->policy_built;
}

enum seinstall_bootloader
seinstall_status_result_get_bootloader(const struct seinstall_status_result *st)
{
        return st ? st->bootloader : SEINSTALL_BOOTLOADER_NONE;
}

const char *seinstall_status_result_get_cmdline(const struct seinstall_status_result *st)
{
        return st ? st->cmdline : NULL;
}

const char *seinstall_status_result_get_kernel_arg(const struct seinstall_status_result *st,
                                                   const char *name)
{
        for (size_t i = 0; st && name && i < ELEMENTSOF(arg_names); i++)
                if (streq(name, arg_names[i]))
                        return st->args[i];
        return NULL;
}

const char *seinstall_status_result_get_menu(const struct seinstall_status_result *st,
                                             const char *what)
{
        static const struct {
                const char *name;
                size_t offset;
        } fields[] = {
            {"file", offsetof(struct si_bootmenu, file)},
            {"entry", offsetof(struct si_bootmenu, entry)},
            {"chosen", offsetof(struct si_bootmenu, chosen)},
            {"cmdline", offsetof(struct si_bootmenu, cmdline)},
            {"unknown", offsetof(struct si_bootmenu, unknown)},
            {"lag", offsetof(struct si_bootmenu, lag)},
        };

        for (size_t i = 0; st && what && i < ELEMENTSOF(fields); i++)
                if (streq(what, fields[i].name))
                        return *(char *const *) ((const char *) &st->menu + fields[i].offset);
        return NULL;
}

enum seinstall_kernel_case
seinstall_status_result_get_kernel_case(const struct seinstall_status_result *st)
{
        return st ? st->kconfig.kcase : SEINSTALL_KERNEL_CASE_UNKNOWN;
}

const char *seinstall_status_result_get_kernel_config(const struct seinstall_status_result *st)
{
        return st ? st->kconfig.file : NULL;
}

bool seinstall_status_result_get_relabel_pending(const struct seinstall_status_result *st)
{
        return st && st->relabel_pending;
}

bool seinstall_status_result_get_firstboot_pending(const struct seinstall_status_result *st)
{
        return st && st->mark.present;
}

enum seinstall_mode
seinstall_status_result_get_firstboot_mode(const struct seinstall_status_result *st)
{
        return st ? st->mark.mode : SEINSTALL_MODE_INVALID;
}

bool seinstall_status_result_get_firstboot_chosen_after_install(
    const struct seinstall_status_result *st)
{
        return st && st->mark.chosen_after_install;
}

enum seinstall_mode seinstall_status_result_get_boot_mode(const struct seinstall_status_result *st)
{
        return st ? st->boot_mode : SEINSTALL_MODE_INVALID;
}

enum seinstall_mode seinstall_status_result_get_active(const struct seinstall_status_result *st)
{
        return st ? st->active : SEINSTALL_MODE_INVALID;
}

const struct seinstall_trial_result *
seinstall_status_result_get_trial(const struct seinstall_status_result *st)
{
        return st ? st->trial : NULL;
}

int seinstall_status_result_to_json(const struct seinstall_status_result *st, char **ret)
{
        _cleanup_free_ char *trial = NULL;
        struct json j = {0};
        int r;

        if (!st || !ret)
                return -EINVAL;
        r = seinstall_trial_result_to_json(st->trial, &trial);
        if (r < 0)
                return r;
        json_object_begin(&j);
        json_kv_string(&j, "root", st->root);
        json_kv_string(&j, "config_mode", seinstall_mode_to_string(st->config.mode));
        json_kv_string(&j, "config_policy", st->config.type);
        json_kv_bool(&j, "policy_built", st->policy_built);
        json_kv_string(&j, "bootloader", seinstall_bootloader_to_string(st->bootloader));
        json_kv_string(&j, "cmdline", st->cmdline);
        json_key(&j, "kernel_args");
        json_object_begin(&j);
        for (size_t i = 0; i < ELEMENTSOF(arg_names); i++)
                json_kv_string(&j, arg_names[i], st->args[i]);
        json_object_end(&j);
        json_key(&j, "boot_menu");
        json_object_begin(&j);
        json_kv_string(&j, "file", st->menu.file);
        json_kv_string(&j, "entry", st->menu.entry);
        json_kv_string(&j, "chosen", st->menu.chosen);
        json_kv_string(&j, "cmdline", st->menu.cmdline);
        json_kv_string(&j, "unknown", st->menu.unknown);
        json_kv_string(&j, "lag", st->menu.lag);
        json_object_end(&j);
        json_kv_string(&j, "kernel", seinstall_kernel_case_to_string(st->kconfig.kcase));
        json_kv_string(&j, "kernel_config", st->kconfig.file);
        json_kv_string(&j, "boot_mode", seinstall_mode_to_string(st->boot_mode));
        json_kv_bool(&j, "relabel_pending", st->relabel_pending);
        json_kv_bool(&j, "firstboot_pending", st->mark.present);
        json_kv_string(&j, "firstboot_mode",
                       seinstall_mode_to_string(seinstall_status_result_get_firstboot_mode(st)));
        json_kv_string(&j, "active", seinstall_mode_to_string(st->active));
        json_key(&j, "trial");
        json_raw(&j, trial);
        json_object_end(&j);
        return json_steal(&j, ret);
}
