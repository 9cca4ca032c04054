/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* relabel-options.c — how a relabel, a verify or an install's walk runs: the options object of
 * seinstall_relabel(), seinstall_verify() and seinstall_install(), so that a new option is a new
 * setter, never a new signature. */
#include "seinstall-private.h"
#include "relabel.h"

SEINSTALL_EXPORT int seinstall_relabel_options_new(struct seinstall_relabel_options **ret)
{
        struct seinstall_relabel_options *o;

        if (!ret)
                return -EINVAL;
        o = calloc(1, sizeof(*o));
        if (!o)
                return -ENOMEM;
        *ret = o;
        return 0;
}

static void relabel_options_free(struct seinstall_relabel_options *o)
{
        free(o->policy);
        free(o->file_contexts);
        free(o);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_relabel_options, seinstall_relabel_options,
                           relabel_options_free);

SEINSTALL_EXPORT int seinstall_relabel_options_set_policy(struct seinstall_relabel_options *o,
                                                          const char *type)
{
        if (!o || (type && !si_policy_type_valid(type)))
                return -EINVAL;
        return si_strdup_replace(&o->policy, type);
}

SEINSTALL_EXPORT int
seinstall_relabel_options_set_file_contexts(struct seinstall_relabel_options *o, const char *path)
{
        if (!o || (path && !*path))
                return -EINVAL;
        return si_strdup_replace(&o->file_contexts, path);
}

SEINSTALL_EXPORT int seinstall_relabel_options_set_threads(struct seinstall_relabel_options *o,
                                                           unsigned threads)
{
        if (!o)
                return -EINVAL;
        o->threads = threads;
        return 0;
}

SEINSTALL_EXPORT int seinstall_relabel_options_set_progress(struct seinstall_relabel_options *o,
                                                            seinstall_relabel_progress_fn fn,
                                                            void *userdata)
{
        if (!o)
                return -EINVAL;
        o->progress = fn;
        o->userdata = fn ? userdata : NULL;
        return 0;
}

const struct seinstall_relabel_options *
si_relabel_options_or_defaults(const struct seinstall_relabel_options *o)
{
        static const struct seinstall_relabel_options defaults = {};

        return o ? o : &defaults;
}
