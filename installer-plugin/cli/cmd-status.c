/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-status.c — `seinstall status`: the target's SELinux state. Parsing and printing only. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: seinstall status [--root DIR] [--json]\n\n"
                   "Show the target's SELinux state: config, kernel command line, kernel, the "
                   "mode it boots in,\na pending relabel, the first-boot mark, and (root /) "
                   "SELinux now.\n");
}

static const char *mode_or(enum seinstall_mode m, const char *dflt)
{
        const char *s = seinstall_mode_to_string(m);
        return s ? s : dflt;
}

static int print_json(const struct seinstall_status *st, const char *root)
{
        static const char *const args[] = {"selinux", "security", "lsm", "enforcing"};
        struct json j = {0};

        json_object_begin(&j);
        json_kv_string(&j, "root", root);
        json_kv_string(&j, "config_mode",
                       seinstall_mode_to_string(seinstall_status_get_config_mode(st)));
        json_kv_string(&j, "config_policy", seinstall_status_get_config_policy(st));
        json_kv_bool(&j, "policy_built", seinstall_status_get_policy_built(st));
        json_kv_string(&j, "bootloader",
                       seinstall_bootloader_to_string(seinstall_status_get_bootloader(st)));
        json_kv_string(&j, "cmdline", seinstall_status_get_cmdline(st));
        json_key(&j, "kernel_args");
        json_object_begin(&j);
        for (size_t i = 0; i < ELEMENTSOF(args); i++)
                json_kv_string(&j, args[i], seinstall_status_get_kernel_arg(st, args[i]));
        json_object_end(&j);
        json_kv_string(&j, "kernel",
                       seinstall_kernel_case_to_string(seinstall_status_get_kernel_case(st)));
        json_kv_string(&j, "kernel_config", seinstall_status_get_kernel_config(st));
        json_kv_string(&j, "boot_mode",
                       seinstall_mode_to_string(seinstall_status_get_boot_mode(st)));
        json_kv_bool(&j, "relabel_pending", seinstall_status_get_relabel_pending(st));
        json_kv_bool(&j, "firstboot_pending", seinstall_status_get_firstboot_pending(st));
        json_kv_string(&j, "firstboot_mode",
                       seinstall_mode_to_string(seinstall_status_get_firstboot_mode(st)));
        json_kv_string(&j, "active", seinstall_mode_to_string(seinstall_status_get_active(st)));
        json_object_end(&j);
        return cli_print_json(&j);
}

static void print_text(const struct seinstall_status *st, const char *root)
{
        const char *cmdline = seinstall_status_get_cmdline(st);
        const char *kconfig = seinstall_status_get_kernel_config(st);

        printf("target:          %s\n", cli_esc(root));
        printf("config:          SELINUX=%s SELINUXTYPE=%s (policy %s)\n",
               mode_or(seinstall_status_get_config_mode(st), "(unset)"),
               seinstall_status_get_config_policy(st)
                   ? cli_esc(seinstall_status_get_config_policy(st))
                   : "(unset)",
               seinstall_status_get_policy_built(st) ? "built" : "NOT built");
        printf("kernel:          SELinux %s%s%s%s\n",
               seinstall_kernel_case_to_string(seinstall_status_get_kernel_case(st)),
               kconfig ? " (" : "", kconfig ? cli_esc(kconfig) : "", kconfig ? ")" : "");
        printf("command line:    %s%s%s\n",
               seinstall_bootloader_to_string(seinstall_status_get_bootloader(st)),
               cmdline ? ": " : "", cmdline ? cli_esc(cmdline) : "");
        printf("boots in:        %s\n", mode_or(seinstall_status_get_boot_mode(st), "unknown"));
        printf("relabel pending: %s\n", seinstall_status_get_relabel_pending(st) ? "yes" : "no");
        printf("first boot:      %s%s%s\n",
               seinstall_status_get_firstboot_pending(st) ? "pending, chosen mode " : "done",
               seinstall_status_get_firstboot_pending(st)
                   ? mode_or(seinstall_status_get_firstboot_mode(st), "unknown")
                   : "",
               "");
        printf("SELinux now:     %s\n",
               mode_or(seinstall_status_get_active(st), "(not the running system)"));
}

int cmd_status(int argc, char **argv)
{
        static const struct option options[] = {CLI_COMMON_OPTIONS, {}};
        struct cli_common common = {};
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_status_unrefp) struct seinstall_status *st = NULL;
        int opt, r;

        while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
                if (cli_common_option(&common, opt, optarg))
                        continue;
                if (opt == 'h') {
                        usage(stdout);
                        return EXIT_OK;
                }
                return cli_usage_error("status", "unknown option");
        }
        if (optind < argc)
                return cli_usage_error("status", "unexpected argument '%s'", argv[optind]);
        r = cli_open(&common, &ctx);
        if (r != 0)
                return r;
        r = seinstall_status_read(ctx, &st);
        if (r < 0)
                return cli_fail(ctx, r, "status");
        if (common.json)
                return print_json(st, seinstall_get_root(ctx));
        print_text(st, seinstall_get_root(ctx));
        return EXIT_OK;
}
