/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-status.c — `seinstall status`. Placeholder until the status work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_status(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall status: not built yet\n");
        return EXIT_SYSTEM;
}
