/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.h — what the subcommands of the `seinstall` command share. */
#ifndef SEINSTALL_CLI_H
#define SEINSTALL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "opts.h"
#include "seinstall-internal.h"
#include "util.h"

/* Exit status of the command-line contract: util.h's one table (si_exit_status()). */
#define EXIT_OK      SI_EXIT_OK
#define EXIT_REFUSED SI_EXIT_REFUSED
#define EXIT_USAGE   SI_EXIT_USAGE
#define EXIT_SYSTEM  SI_EXIT_SYSTEM

DEFINE_CLEANUP_FUNC(struct seinstall_ctx *, seinstall_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_settings *, seinstall_settings_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_check_result *, seinstall_check_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_relabel_result *, seinstall_relabel_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_relabel_options *, seinstall_relabel_options_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_apply_result *, seinstall_apply_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_status_result *, seinstall_status_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_install_result *, seinstall_install_result_unref)

/* Parse a subcommand's options (opts_parse()): with --json errors become JSON documents
 * (cli_set_json()); --help prints @usage on stdout; bad usage prints o->error through
 * cli_usage_error(). Returns CLI_GO_ON when the command goes on, else its exit status. */
#define CLI_GO_ON (-1)
int cli_parse(const char *cmd, void (*usage)(FILE *f), struct opts *o, const struct opts_spec *spec,
              int argc, char **argv);
/* With @on, every error printed by cli_fail(), cli_error() and cli_usage_error() is also
 * printed as one JSON error document on stdout (seinstall(8), JSON OUTPUT):
 * {"error": {"message": "...", "errno": "ELOOP", "exit": 2}}. main() sets it when --json is
 * anywhere on the command line, so even an error found before --json is parsed gives one. */
void cli_set_json(bool on);

/* Open the library context on o->root (default /) with the stderr logger; prints the reason
 * and returns the exit status on failure, 0 on success. */
int cli_open(const struct opts *o, struct seinstall_ctx **ret_ctx);

/* Exit status for a negative errno returned by the library (si_exit_status()). */
int cli_exit_status(int r);
/* Print what failed (the library's last error, else "@what: strerror") and return the exit
 * status for @r. */
int cli_fail(struct seinstall_ctx *ctx, int r, const char *what);
/* The same, and with --json the error document also carries @key: @value_json (a partial
 * result, e.g. the relabel summary of a relabel that failed). */
int cli_fail_with(struct seinstall_ctx *ctx, int r, const char *what, const char *key,
                  const char *value_json);
/* Print "seinstall: MESSAGE" (escaped) for the errno @r and return its exit status. */
int cli_error(int r, const char *fmt, ...) _printf_(2, 3);
/* Print a usage error naming the command and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) _printf_(2, 3);

/* @s made safe for a line of human output (str_escape_display()): control characters,
 * escape sequences and newlines in names are shown as C escapes, so a name can neither drive
 * the terminal nor forge a line. The result lives until 16 more calls; NULL gives "(none)". */
const char *cli_esc(const char *s);
/* A command for a person to run (a library "fix", a to-do), built with shell_command() or
 * shell_quote(): printed as it is so that it can be pasted, unless it holds what could drive
 * the terminal (then escaped as cli_esc() does). */
const char *cli_cmd(const char *s);
/* shell_command(@root, @fmt) with "%r" the root option (nothing for "/"); lives until 4 more
 * calls. */
const char *cli_command(const char *root, const char *fmt);

/* The version in every document's "schema": "seinstall.KIND/VERSION". It changes only when a
 * key changes meaning or goes away; added keys keep it (seinstall(8), JSON OUTPUT). */
#define CLI_JSON_SCHEMA_VERSION 1

/* Print the object @j built as the document of @kind (with a final newline) on stdout: its
 * members between "schema": "seinstall.KIND/1" and the run's "warnings". On an error of the
 * writer, prints the error instead and returns its exit status; else 0. Every JSON document
 * the command prints goes through here (errors: cli_fail() and friends). */
int cli_print_json(struct json *j, const char *kind);

/* An apply result as text lines, each starting with @indent (JSON:
 * seinstall_apply_result_to_json()); with @dry_run the changes are said as "would change". */
void cli_print_apply_result(const struct seinstall_apply_result *res, bool dry_run,
                            const char *indent, FILE *f);

/* A progress callback for the walking commands: "seinstall: WHAT: N of ~T entries, R/s, ~Ss
 * left" rewritten in place on stderr when it is a terminal; elsewhere (a pipe, the journal) as
 * plain lines, the first at once, then at most one every 5 seconds, with no carriage return or
 * escape sequence. @userdata is WHAT (a string). On a terminal, SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT end an open line before the process dies of them. */
void cli_show_progress(void *userdata, unsigned long long done, unsigned long long total,
                       double elapsed);
/* End an open progress line with a newline, so that a message printed next starts a line of its
 * own (every message on stderr does this first). */
void cli_progress_break(void);
/* Clear an open progress line: the command is done and prints its summary. */
void cli_progress_end(void);
/* A relabel result's errors (stderr, one "seinstall: " line each) and the mounts it skipped
 * (stdout, "skipped mount MOUNTPOINT (FSTYPE): REASON"). */
void cli_print_relabel_errors(const struct seinstall_relabel_result *res);
void cli_print_relabel_skipped(const struct seinstall_relabel_result *res);

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
/* Set --mode, --policy and --unsupported, when given, into @s with the rank of boot options
 * (they win over the boot options, being read after them). Negative errno on failure. */
int cli_settings_set_opts(struct seinstall_settings *s, const struct opts *o);
/* Print the effective settings and their sources as text, or as one JSON object. */
void cli_print_settings(const struct seinstall_settings *s, const char *profile, FILE *f);
void cli_json_settings(struct json *j, const struct seinstall_settings *s, const char *profile);

int cmd_check(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_install(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_avc(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_trial(int argc, char **argv);

#endif
