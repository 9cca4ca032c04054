/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-apply.c — `seinstall apply`: write the target's SELinux config, kernel command line,
 * relabel scheduling and first-boot mark for a mode. Parsing and printing only. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: seinstall apply [--root DIR] --mode M [--policy TYPE]\n"
                   "                       [--bootloader auto|grub|bls|kernel-cmdline|none]\n"
                   "                       [--regenerate] [--relabel | --labeled] [--firstboot] "
                   "[--dry-run] [--json]\n\n"
                   "Make the target boot in mode M (enforcing, permissive, disabled, or trial:\n"
                   "permissive until a boot without denials caused by labels, then enforcing): "
                   "/etc/selinux/config,\nthe boot loader's kernel command line, /.autorelabel "
                   "when SELinux goes from off to on,\nand (--firstboot) the first-boot mark.\n"
                   "  --regenerate  run update-grub/grub2-mkconfig in the target when GRUB "
                   "changed\n"
                   "  --relabel     schedule a first-boot relabel in any case\n"
                   "  --labeled     the target was just relabeled: schedule none\n"
                   "  --dry-run     list each file that would change, and how; write nothing\n");
}

void cli_print_apply_result(const struct seinstall_apply_result *res, bool dry_run,
                            const char *indent, FILE *f)
{
        size_t n = seinstall_apply_result_get_n_changes(res);
        size_t nt = seinstall_apply_result_get_n_todo(res);
        const char *changed = dry_run ? "would change" : "changed";

        fprintf(f, "%sconfig: SELINUX=%s SELINUXTYPE=%s (kernel: SELinux %s)\n", indent,
                seinstall_mode_to_string(seinstall_apply_result_get_config_mode(res)),
                cli_esc(seinstall_apply_result_get_policy(res)),
                seinstall_kernel_case_to_string(seinstall_apply_result_get_kernel_case(res)));
        if (n == 0)
                fprintf(f, "%snothing to change: the target already says so\n", indent);
        for (size_t i = 0; i < n; i++)
                fprintf(f, "%s%s %s: %s\n", indent, changed,
                        cli_esc(seinstall_apply_result_get_change_file(res, i)),
                        cli_esc(seinstall_apply_result_get_change_what(res, i)));
        for (size_t i = 0; i < nt; i++)
                fprintf(f, "%sto do: %s\n", indent,
                        cli_cmd(seinstall_apply_result_get_todo(res, i)));
}

int cmd_apply(int argc, char **argv)
{
        static const struct option options[] = {
            CLI_COMMON_OPTIONS,
            {"mode", required_argument, NULL, 'm'},
            {"policy", required_argument, NULL, 'p'},
            {"bootloader", required_argument, NULL, 'b'},
            {"regenerate", no_argument, NULL, 'g'},
            {"relabel", no_argument, NULL, 'r'},
            {"labeled", no_argument, NULL, 'l'},
            {"firstboot", no_argument, NULL, 'f'},
            {"dry-run", no_argument, NULL, 'n'},
            {},
        };
        struct cli_common common = {};
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_apply_result_unrefp) struct seinstall_apply_result *res = NULL;
        enum seinstall_mode mode = SEINSTALL_MODE_INVALID;
        enum seinstall_bootloader bl = SEINSTALL_BOOTLOADER_AUTO;
        const char *policy = NULL;
        unsigned flags = 0;
        int opt, r;

        opt_reset();
        while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
                if (cli_common_option(&common, opt, optarg))
                        continue;
                switch (opt) {
                case 'h':
                        usage(stdout);
                        return EXIT_OK;
                case 'm': {
                        /* trial: enforcing, reached through a permissive boot */
                        if (opt_parse_mode(optarg, &mode) < 0)
                                return cli_usage_error("apply",
                                                       "--mode: '%s' is not enforcing, "
                                                       "permissive, disabled or trial",
                                                       optarg);
                        break;
                }
                case 'p':
                        policy = optarg;
                        break;
                case 'b':
                        bl = seinstall_bootloader_from_string(optarg);
                        if (bl == SEINSTALL_BOOTLOADER_INVALID)
                                return cli_usage_error("apply",
                                                       "--bootloader: '%s' is not auto, grub, "
                                                       "bls, kernel-cmdline or none",
                                                       optarg);
                        break;
                case 'g':
                        flags |= SEINSTALL_APPLY_REGENERATE;
                        break;
                case 'r':
                        flags |= SEINSTALL_APPLY_RELABEL;
                        break;
                case 'l':
                        flags |= SEINSTALL_APPLY_LABELED;
                        break;
                case 'f':
                        flags |= SEINSTALL_APPLY_FIRSTBOOT;
                        break;
                case 'n':
                        flags |= SEINSTALL_APPLY_DRY_RUN;
                        break;
                default:
                        return cli_usage_error("apply", "unknown option");
                }
        }
        if (optind < argc)
                return cli_usage_error("apply", "unexpected argument '%s'", argv[optind]);
        if (mode == SEINSTALL_MODE_INVALID)
                return cli_usage_error("apply", "--mode is required");
        if ((flags & SEINSTALL_APPLY_RELABEL) && (flags & SEINSTALL_APPLY_LABELED))
                return cli_usage_error("apply", "--relabel and --labeled contradict each other");
        r = cli_open(&common, &ctx);
        if (r != 0)
                return r;
        r = seinstall_apply(ctx, mode, policy, bl, flags, &res);
        if (r < 0)
                return cli_fail(ctx, r, "apply");
        if (common.json) {
                _cleanup_free_ char *doc = NULL;
                struct json j = {0};

                r = seinstall_apply_result_to_json(res, &doc);
                if (r < 0)
                        return cli_error(r, "writing the JSON document: %s", strerror(-r));
                json_raw(&j, doc);
                return cli_print_json(&j, "apply");
        }
        if (flags & SEINSTALL_APPLY_DRY_RUN)
                printf("apply (dry run): nothing was written\n");
        cli_print_apply_result(res, flags & SEINSTALL_APPLY_DRY_RUN, "", stdout);
        return EXIT_OK;
}
