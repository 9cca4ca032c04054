/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-install.c — `seinstall install`. Placeholder until the install work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_install(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall install: not built yet\n");
        return EXIT_SYSTEM;
}
