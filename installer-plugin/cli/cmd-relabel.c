/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-relabel.c — `seinstall relabel`. Placeholder until the relabel work lands. */
#include <stdio.h>

#include "cli.h"

int cmd_relabel(int argc, char **argv)
{
        (void) argc;
        (void) argv;
        fprintf(stderr, "seinstall relabel: not built yet\n");
        return EXIT_SYSTEM;
}
