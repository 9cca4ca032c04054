/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* version.c — the library's version at run time, from the generated seinstall-version.h. */
#include "seinstall-private.h"

SEINSTALL_EXPORT const char *seinstall_version(void)
{
        return SEINSTALL_VERSION;
}
