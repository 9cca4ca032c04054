/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* parse.c — a command line read by opts_parse() (opts.c), then what both front ends print for
 * --help, --version and bad usage (report.h). Apart from report.c, which the test helpers link
 * without opts.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

int cli_parse(const char *cmd, void (*usage)(FILE *f), struct opts *o, const struct opts_spec *spec,
              int argc, char **argv)
{
        int r = opts_parse(o, spec, argc, argv);

        /* seinstall's main() saw a plain --json already; this also catches an abbreviation */
        if (o->json)
                cli_set_json(true);
        if (r > 0)
                return CLI_GO_ON;
        if (r == 0 && o->version) {
                printf("%s %s\n", cli_program(), SEINSTALL_VERSION);
                return EXIT_OK;
        }
        if (r == 0) {
                usage(stdout);
                return EXIT_OK;
        }
        if (r == -EINVAL)
                return cli_usage_error_text(cmd, o->error, o->error_untranslated);
        /* no words of ours to translate: "CMD: strerror" */
        _cleanup_free_ char *msg = NULL;
        if (!cmd || asprintf(&msg, "%s: %s", cmd, strerror(-r)) < 0)
                msg = NULL;
        return cli_error_status(r, cli_exit_status(r), msg ? msg : strerror(-r), NULL, NULL);
}
