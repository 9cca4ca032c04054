/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stage-options.h — the options objects of seinstall_check_run() and seinstall_apply()
 * (stage-options.c), read by the stages. Not installed. */
#ifndef SEINSTALL_STAGE_OPTIONS_H
#define SEINSTALL_STAGE_OPTIONS_H

#include "seinstall-private.h"

struct seinstall_check_options {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        char *plan_file;     /* a planned layout (fstab format) to check; NULL: the mounts */
};

struct seinstall_apply_options {
        unsigned extra_refs;
        enum seinstall_bootloader bootloader; /* SEINSTALL_BOOTLOADER_AUTO (0) as made */
        unsigned flags;                       /* SEINSTALL_APPLY_* */
};

/* Every flag seinstall_apply() knows. */
#define SI_APPLY_KNOWN_FLAGS                                                                       \
        (SEINSTALL_APPLY_REGENERATE | SEINSTALL_APPLY_RELABEL | SEINSTALL_APPLY_LABELED |          \
         SEINSTALL_APPLY_FIRSTBOOT | SEINSTALL_APPLY_DRY_RUN)

#endif
