/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-check.c — `seinstall check`. Placeholder until the check work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_check(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall check: not built yet\n");
        return EXIT_SYSTEM;
}
