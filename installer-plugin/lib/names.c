/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* names.c — the stable names of the public enums (what --json prints and what parsers accept),
 * the names and words of the error codes, errno's and seinstall's own, and what makes a policy
 * type's name valid. */
#include <strings.h>

#include "seinstall-private.h"
#include "config.h"

/* Look @i up in a table of names; NULL when out of range. */
static const char *name_of(const char *const *names, size_t n, int i)
{
        return i >= 0 && (size_t) i < n ? names[i] : NULL;
}

static const char *const mode_names[] = {
    [SEINSTALL_MODE_ENFORCING] = "enforcing",
    [SEINSTALL_MODE_PERMISSIVE] = "permissive",
    [SEINSTALL_MODE_DISABLED] = "disabled",
    [SEINSTALL_MODE_TRIAL] = "trial",
};

SEINSTALL_EXPORT enum seinstall_mode seinstall_mode_from_string(const char *s)
{
        if (!s)
                return SEINSTALL_MODE_INVALID;
        /* SELINUX= is read case-insensitively; "trial" is seinstall's own word, exact. */
        if (streq(s, mode_names[SEINSTALL_MODE_TRIAL]))
                return SEINSTALL_MODE_TRIAL;
        for (size_t i = 0; i < ELEMENTSOF(mode_names); i++)
                if (i != SEINSTALL_MODE_TRIAL && strcasecmp(s, mode_names[i]) == 0)
                        return (enum seinstall_mode) i;
        return SEINSTALL_MODE_INVALID;
}

SEINSTALL_EXPORT const char *seinstall_mode_to_string(enum seinstall_mode mode)
{
        return name_of(mode_names, ELEMENTSOF(mode_names), mode);
}

enum seinstall_mode si_config_mode_from_string(const char *s)
{
        enum seinstall_mode m = seinstall_mode_from_string(s);

        return m == SEINSTALL_MODE_TRIAL ? SEINSTALL_MODE_INVALID : m;
}

bool si_config_mode_valid(enum seinstall_mode mode)
{
        return mode >= SEINSTALL_MODE_ENFORCING && mode <= SEINSTALL_MODE_DISABLED;
}

SEINSTALL_EXPORT const char *seinstall_source_to_string(enum seinstall_source source)
{
        static const char *const names[] = {
            [SEINSTALL_SOURCE_DEFAULT] = "default", [SEINSTALL_SOURCE_TARGET] = "target",
            [SEINSTALL_SOURCE_PROFILE] = "profile", [SEINSTALL_SOURCE_BOOT] = "boot",
            [SEINSTALL_SOURCE_HOST] = "host",       [SEINSTALL_SOURCE_BUILTIN] = "builtin",
            [SEINSTALL_SOURCE_OPTION] = "option",
        };
        return name_of(names, ELEMENTSOF(names), source);
}

SEINSTALL_EXPORT const char *seinstall_labeling_to_string(enum seinstall_labeling l)
{
        static const char *const names[] = {
            [SEINSTALL_LABELING_XATTR] = "xattr",
            [SEINSTALL_LABELING_TRANS] = "trans",
            [SEINSTALL_LABELING_GENFS] = "genfs",
            [SEINSTALL_LABELING_MOUNT_CONTEXT] = "mount-context",
            [SEINSTALL_LABELING_NONE] = "none",
        };
        return name_of(names, ELEMENTSOF(names), l);
}

SEINSTALL_EXPORT const char *seinstall_verdict_to_string(enum seinstall_verdict v)
{
        static const char *const names[] = {
            [SEINSTALL_VERDICT_OK] = "ok",
            [SEINSTALL_VERDICT_NOTE] = "note",
            [SEINSTALL_VERDICT_WARN] = "warn",
            [SEINSTALL_VERDICT_REFUSE] = "refuse",
        };
        return name_of(names, ELEMENTSOF(names), v);
}

SEINSTALL_EXPORT const char *seinstall_bootloader_to_string(enum seinstall_bootloader b)
{
        static const char *const names[] = {
            [SEINSTALL_BOOTLOADER_AUTO] = "auto",
            [SEINSTALL_BOOTLOADER_GRUB] = "grub",
            [SEINSTALL_BOOTLOADER_BLS] = "bls",
            [SEINSTALL_BOOTLOADER_KERNEL_CMDLINE] = "kernel-cmdline",
            [SEINSTALL_BOOTLOADER_NONE] = "none",
        };
        return name_of(names, ELEMENTSOF(names), b);
}

SEINSTALL_EXPORT enum seinstall_bootloader seinstall_bootloader_from_string(const char *s)
{
        for (int b = SEINSTALL_BOOTLOADER_AUTO; s && b <= SEINSTALL_BOOTLOADER_NONE; b++)
                if (streq(s, seinstall_bootloader_to_string((enum seinstall_bootloader) b)))
                        return (enum seinstall_bootloader) b;
        return SEINSTALL_BOOTLOADER_INVALID;
}

SEINSTALL_EXPORT const char *seinstall_kernel_case_to_string(enum seinstall_kernel_case k)
{
        static const char *const names[] = {
            [SEINSTALL_KERNEL_CASE_UNKNOWN] = "unknown",
            [SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT] = "default",
            [SEINSTALL_KERNEL_CASE_SELINUX_OPTIN] = "opt-in",
            [SEINSTALL_KERNEL_CASE_NO_SELINUX] = "none",
        };
        return name_of(names, ELEMENTSOF(names), k);
}

SEINSTALL_EXPORT const char *seinstall_relabel_when_to_string(enum seinstall_relabel_when r)
{
        static const char *const names[] = {
            [SEINSTALL_RELABEL_WHEN_INSTALL] = "install",
            [SEINSTALL_RELABEL_WHEN_FIRSTBOOT] = "firstboot",
        };
        return name_of(names, ELEMENTSOF(names), r);
}

SEINSTALL_EXPORT enum seinstall_relabel_when seinstall_relabel_when_from_string(const char *s)
{
        for (int i = 0; s && i <= SEINSTALL_RELABEL_WHEN_FIRSTBOOT; i++)
                if (streq(s, seinstall_relabel_when_to_string((enum seinstall_relabel_when) i)))
                        return (enum seinstall_relabel_when) i;
        return SEINSTALL_RELABEL_WHEN_INVALID;
}

bool si_policy_type_valid(const char *type)
{
        /* It becomes a directory name and the value of SELINUXTYPE=: a newline or a control
         * character would write an extra line into the config, a quote or a blank change how
         * libselinux reads it. Policy types are plain names (default, mls, targeted,
         * minimum, refpolicy-arch). */
        if (!type || !*type || *type == '.' || *type == '-' || strlen(type) >= 256)
                return false;
        return strspn(type, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
               strlen(type);
}

/* seinstall's own error codes: name and what each says (seinstall.h, enum seinstall_error). */
/* One entry of own_errors[]: its index is the code's distance from the first code, its name
 * the enum constant's own (spelt once). */
#define OWN_ERROR(code, text) [code - SEINSTALL_ERROR_LABEL_REFUSED] = {#code, text}
static const struct {
        const char *name, *text;
} own_errors[] = {
    OWN_ERROR(SEINSTALL_ERROR_LABEL_REFUSED,
              "The running system's SELinux policy refused a label of the target's"),
    OWN_ERROR(SEINSTALL_ERROR_INCOMPLETE, "Some entries could not be labeled, read or fixed"),
    OWN_ERROR(SEINSTALL_ERROR_PROGRAM_FAILED, "A program run for the target failed"),
    OWN_ERROR(SEINSTALL_ERROR_NOT_CONFINED, "A program of the target could not be confined"),
};
#undef OWN_ERROR

static int own_index(int err)
{
        int e = err < 0 ? -err : err;

        return e >= SEINSTALL_ERROR_LABEL_REFUSED &&
                       e < SEINSTALL_ERROR_LABEL_REFUSED + (int) ELEMENTSOF(own_errors)
                   ? e - SEINSTALL_ERROR_LABEL_REFUSED
                   : -1;
}

SEINSTALL_EXPORT const char *seinstall_strerror(int err)
{
        int i = own_index(err);

        if (i >= 0)
                return own_errors[i].text;
        return strerror(err < 0 ? -err : err);
}

SEINSTALL_EXPORT const char *seinstall_error_name(int err)
{
        int i = own_index(err);

        if (i >= 0)
                return own_errors[i].name;
        return err ? strerrorname_np(err < 0 ? -err : err) : NULL;
}
