/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-profile.c — `seinstall profile`. Placeholder until the profile work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_profile(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall profile: not built yet\n");
        return EXIT_SYSTEM;
}
