/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* exit-status.c — the exit status an error code means for the front ends (util.h); names.c
 * names the codes. */
#include "util.h"

/* Bad usage or bad input: the message names the option, the file and line, or the path. Every
 * other errno means the system failed (I/O, no space, no memory, missing policy: ENOPKG). */
static const int usage_errnos[] = {
    EINVAL, EBADMSG,      ENOENT, ENOTDIR, EISDIR, EFBIG,
    E2BIG,  ENAMETOOLONG, ELOOP,  EBADFD, /* a FIFO, device or socket where a file belongs */
    EXDEV,                                /* a path of the target leading onto another mount */
};

int si_exit_status(int r)
{
        if (r >= 0)
                return SI_EXIT_OK;
        for (size_t i = 0; i < ELEMENTSOF(usage_errnos); i++)
                if (usage_errnos[i] == -r)
                        return SI_EXIT_USAGE;
        return SI_EXIT_SYSTEM;
}
