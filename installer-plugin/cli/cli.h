/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.h — what the subcommands of the `seinstall` command share. */
#ifndef SEINSTALL_CLI_H
#define SEINSTALL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "seinstall.h"

/* Exit status of the command-line contract. */
#define EXIT_OK      0
#define EXIT_REFUSED 1
#define EXIT_USAGE   2
#define EXIT_SYSTEM  3

/* Options every subcommand takes. */
struct cli_common {
        const char *root;
        bool json;
};

/* Long option entries for --root and --json, to put into a subcommand's option table. */
#define CLI_COMMON_OPTIONS                                                                         \
        {"root", required_argument, NULL, 'R'}, {"json", no_argument, NULL, 'J'},                  \
        {                                                                                          \
                "help", no_argument, NULL, 'h'                                                     \
        }

/* Handle a common option; returns true when @opt was one. */
bool cli_common_option(struct cli_common *c, int opt, const char *arg);

/* Open the library context on c->root with the stderr logger; prints the reason and returns
 * the exit status on failure, 0 on success. */
int cli_open(const struct cli_common *c, struct seinstall_ctx **ret_ctx);

/* Exit status for a negative errno returned by the library. */
int cli_exit_status(int r);
/* Print what failed (the library's last error, else "@what: strerror") and return the exit
 * status for @r. */
int cli_fail(struct seinstall_ctx *ctx, int r, const char *what);
/* Print a usage error naming the command and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print @s as a JSON string literal (NULL: null). */
void cli_json_str(FILE *f, const char *s);
/* Print an apply result as text lines (each starting with @indent) or one JSON object. */
void cli_print_apply_result(const struct seinstall_apply_result *res, bool json, const char *indent,
                            FILE *f);

/* Where an install's settings come from. */
struct cli_settings_args {
        const char *profile;      /* --profile FILE (or profile's FILE); NULL: inst.ks= */
        const char *cmdline_file; /* --cmdline FILE; NULL: /proc/cmdline */
        bool no_cmdline;          /* --no-cmdline */
        bool load_target;         /* read the target's /etc/selinux/config */
};
/* Load the settings: boot options, profile, target. Prints the reason and returns the exit
 * status on failure, 0 on success with *ret (and the profile path used, or NULL). */
int cli_load_settings(struct seinstall_ctx *ctx, const struct cli_settings_args *a,
                      struct seinstall_settings **ret, char **ret_profile);
/* Print the effective settings and their sources (text, or one JSON object without newline). */
void cli_print_settings(const struct seinstall_settings *s, const char *profile, bool json,
                        FILE *f);

int cmd_check(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_install(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_status(int argc, char **argv);

#endif
