/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stage-options.c — how a check and an apply run: the options objects of seinstall_check_run()
 * and seinstall_apply() (the walk's are relabel-options.c), so that a new option of a stage is
 * a new setter, never a new signature. */
#include "seinstall-private.h"
#include "stage-options.h"

SEINSTALL_EXPORT int seinstall_check_options_new(struct seinstall_check_options **ret)
{
        struct seinstall_check_options *o;

        if (!ret)
                return -EINVAL;
        o = calloc(1, sizeof(*o));
        if (!o)
                return -ENOMEM;
        *ret = o;
        return 0;
}

static void check_options_free(struct seinstall_check_options *o)
{
        free(o->plan_file);
        free(o);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_check_options, seinstall_check_options, check_options_free);

SEINSTALL_EXPORT int seinstall_check_options_set_plan_file(struct seinstall_check_options *o,
                                                           const char *path)
{
        if (!o || (path && !*path))
                return -EINVAL;
        return si_strdup_replace(&o->plan_file, path);
}

SEINSTALL_EXPORT int seinstall_apply_options_new(struct seinstall_apply_options **ret)
{
        struct seinstall_apply_options *o;

        if (!ret)
                return -EINVAL;
        o = calloc(1, sizeof(*o));
        if (!o)
                return -ENOMEM;
        o->bootloader = SEINSTALL_BOOTLOADER_AUTO;
        *ret = o;
        return 0;
}

static void apply_options_free(struct seinstall_apply_options *o)
{
        free(o);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_apply_options, seinstall_apply_options, apply_options_free);

SEINSTALL_EXPORT int seinstall_apply_options_set_bootloader(struct seinstall_apply_options *o,
                                                            enum seinstall_bootloader bootloader)
{
        if (!o || !seinstall_bootloader_to_string(bootloader))
                return -EINVAL;
        o->bootloader = bootloader;
        return 0;
}

SEINSTALL_EXPORT int seinstall_apply_options_set_flags(struct seinstall_apply_options *o,
                                                       unsigned flags)
{
        if (!o || (flags & ~SI_APPLY_KNOWN_FLAGS) ||
            ((flags & SEINSTALL_APPLY_RELABEL) && (flags & SEINSTALL_APPLY_LABELED)))
                return -EINVAL;
        o->flags = flags;
        return 0;
}
