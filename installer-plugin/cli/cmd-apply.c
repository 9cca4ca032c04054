/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-apply.c — `seinstall apply`. Placeholder until the apply work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_apply(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall apply: not built yet\n");
        return EXIT_SYSTEM;
}
