/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report.h — what both front ends, the `seinstall` command and seinstall-firstboot, print the
 * same way (report.c, progress.c, parse.c): names made safe for a terminal, the library's log,
 * errors as text and as JSON documents, usage errors, the progress line, and the exit status
 * of each. Every line starts with the program's name (cli_set_program()). */
#ifndef SEINSTALL_REPORT_H
#define SEINSTALL_REPORT_H

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
DEFINE_CLEANUP_FUNC(struct seinstall_apply_options *, seinstall_apply_options_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_check_options *, seinstall_check_options_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_status_result *, seinstall_status_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_install_result *, seinstall_install_result_unref)
DEFINE_CLEANUP_FUNC(struct seinstall_verify_result *, seinstall_verify_result_unref)

/* The name every message starts with: "seinstall" unless set (before anything is printed). */
void cli_set_program(const char *name);
const char *cli_program(void);

/* Parse a command's options (opts_parse()): with --json errors become JSON documents
 * (cli_set_json()); --help prints @usage on stdout, --version "PROGRAM VERSION"; bad usage
 * prints o->error through cli_usage_error(@cmd). @cmd is the subcommand, NULL for a program
 * that has none. Returns CLI_GO_ON when the command goes on, else its exit status. */
#define CLI_GO_ON (-1)
int cli_parse(const char *cmd, void (*usage)(FILE *f), struct opts *o, const struct opts_spec *spec,
              int argc, char **argv);
/* With @on, every error printed by cli_fail(), cli_error() and cli_usage_error() is also
 * printed as one JSON error document on stdout (seinstall(8), JSON OUTPUT):
 * {"error": {"message": "...", "errno": "ELOOP", "exit": 2}}. seinstall's main() sets it when
 * --json is anywhere on the command line, so even an error found before --json is parsed gives
 * one. */
void cli_set_json(bool on);

/* The library's log callback: "PROGRAM: [warning: ]MESSAGE" on stderr, escaped; errors are
 * left to cli_fail(), which prints them once; with --json warnings are also kept for the
 * document's "warnings". */
void cli_log(void *userdata, int priority, const char *message);
/* Open the library context on o->root (default /) with cli_log(); prints the reason and
 * returns the exit status on failure, 0 on success. */
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
/* Print "PROGRAM: MESSAGE" (escaped) for the errno @r and return its exit status. @fmt is the
 * English message (xgettext collects it, `make pot`): the text is its translation, the JSON
 * error document keeps it as written. */
int cli_error(int r, const char *fmt, ...) _printf_(2, 3);
/* Print @message, which ends with @command (a quoted command, printed as it is), for the errno
 * @r with exit status @status; with --json, the error document, with @message_json (the
 * untranslated message) if not NULL. Returns @status. */
int cli_error_status(int r, int status, const char *message, const char *message_json,
                     const char *command);
/* Print a usage error, "PROGRAM[ CMD]: MESSAGE" then "Try 'PROGRAM[ CMD] --help'.", and
 * return EXIT_USAGE. @fmt as cli_error()'s. */
int cli_usage_error(const char *cmd, const char *fmt, ...) _printf_(2, 3);
/* The same for a message worded already, opts_parse()'s: @message translated, @message_json
 * as written (NULL: the same). */
int cli_usage_error_text(const char *cmd, const char *message, const char *message_json);

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

/* A progress callback for the walking commands: "PROGRAM: WHAT: N of ~T entries, R/s, ~Ss
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

#endif
