/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.h — what the subcommands of the `seinstall` command share; what seinstall-firstboot
 * shares with them is in report.h. */
#ifndef SEINSTALL_CLI_H
#define SEINSTALL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "i18n.h"
#include "report.h"

/* An apply result as text lines, each starting with @indent (JSON:
 * seinstall_apply_result_to_json()); with @dry_run the changes are said as "would change". */
void cli_print_apply_result(const struct seinstall_apply_result *res, bool dry_run,
                            const char *indent, FILE *f);

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
/* Set --mode, --policy and --unsupported, when given, into @s as source "option" (they rank
 * above the boot options). Negative errno on failure. */
int cli_settings_set_opts(struct seinstall_settings *s, const struct opts *o);
/* A source's name for people: @option ("--mode") for an option given to the command, the
 * library's name for the others. */
const char *cli_source_name(enum seinstall_source src, const char *option);
/* Print the effective settings and their sources as text, or as one JSON object. */
void cli_print_settings(const struct seinstall_settings *s, const char *profile, FILE *f);
void cli_json_settings(struct json *j, const struct seinstall_settings *s, const char *profile);

/* SIGINT and SIGTERM (interrupt.c): catch them for @ctx's operations; the signal caught (0:
 * none); and the one line that says so, what stays as it was (@left, marked N_(), shown
 * translated) and the command, @argv
 * (argv[0] the subcommand) again, that finishes the job. Returns the exit status, 128 + the
 * signal's number as a shell reports it (EXIT_INTERRUPTED()). */
#define EXIT_INTERRUPTED(sig) (128 + (sig))
void cli_catch_interrupts(struct seinstall_ctx *ctx);
int cli_interrupted(void);
int cli_interrupted_exit(const char *left, int argc, char **argv);

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
