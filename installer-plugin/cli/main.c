/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main.c — the `seinstall` command: dispatch to a subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef SEINSTALL_VERSION
#error "SEINSTALL_VERSION comes from seinstall-version.h, generated from the Makefile's VERSION"
#endif

static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
        const char *summary;
} commands[] = {
    {"check", cmd_check, N_("can the target's filesystems carry SELinux labels?")},
    {"relabel", cmd_relabel, N_("label every file of the target from its file contexts")},
    {"apply", cmd_apply, N_("write the SELinux config and kernel command line of the target")},
    {"install", cmd_install, N_("check, policy, relabel and configure, unattended")},
    {"profile", cmd_profile, N_("show a profile's effective settings and their sources")},
    {"status", cmd_status, N_("show the target's SELinux state")},
    {"avc", cmd_avc, N_("this boot's denials: caused by a label, or by the policy")},
    {"verify", cmd_verify, N_("compare every file's label with the file contexts")},
    {"trial", cmd_trial, N_("decide the trial mode: enforcing after a boot without label denials")},
};

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall COMMAND [OPTIONS]\n\n"
                "Make SELinux work on a freshly installed system from its first boot.\n\n"
                "Commands:\n"),
              f);
        for (size_t i = 0; i < ELEMENTSOF(commands); i++)
                fprintf(f, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
        fputs(_("\nEvery command takes --root DIR (the target, default /) and --json.\n"
                "Run 'seinstall COMMAND --help' for a command's options.\n"
                "Exit status: 0 ok, 1 refused, 2 bad usage or input, 3 system failure.\n"),
              f);
}

/* Whether --json is among the options (before a "--"): then even an error found before the
 * subcommand parses it is printed as a JSON document. */
static bool wants_json(int argc, char **argv)
{
        for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
                if (strcmp(argv[i], "--json") == 0)
                        return true;
        return false;
}

static int run(int argc, char **argv)
{
        if (argc < 2)
                return cli_usage_error(NULL, "no command given");
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                usage(stdout);
                return EXIT_OK;
        }
        if (strcmp(argv[1], "--version") == 0) {
                printf("seinstall %s\n", SEINSTALL_VERSION);
                return EXIT_OK;
        }
        for (size_t i = 0; i < ELEMENTSOF(commands); i++)
                if (strcmp(argv[1], commands[i].name) == 0)
                        return commands[i].run(argc - 1, argv + 1);
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
}

int main(int argc, char **argv)
{
        int status;

        cli_i18n_init();
        cli_set_json(wants_json(argc, argv));
        status = run(argc, argv);
        /* Output that never arrived (a full disk, a closed pipe) is a failure. */
        if (fflush(stdout) != 0 && status == EXIT_OK) {
                fprintf(stderr, _("seinstall: writing the output: %s\n"), strerror(errno));
                status = EXIT_SYSTEM;
        }
        return status;
}
