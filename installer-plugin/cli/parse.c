/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* parse.c — a subcommand's command line: opts_parse() (opts.c, shared with
 * seinstall-firstboot), then what `seinstall` prints for --help and for bad usage. Apart from
 * common.c, which the test helpers link without opts.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_parse(const char *cmd, void (*usage)(FILE *f), struct opts *o, const struct opts_spec *spec,
              int argc, char **argv)
{
        int r = opts_parse(o, spec, argc, argv);

        /* main() saw a plain --json already; this also catches an abbreviation (--js) */
        if (o->json)
                cli_set_json(true);
        if (r > 0)
                return CLI_GO_ON;
        if (r == 0) {
                usage(stdout);
                return EXIT_OK;
        }
        if (r == -EINVAL)
                return cli_usage_error(cmd, "%s", o->error);
        return cli_error(r, "%s: %s", cmd, strerror(-r));
}
