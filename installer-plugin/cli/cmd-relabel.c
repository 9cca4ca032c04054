/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-relabel.c — `seinstall relabel`: options, a progress line, and the summary. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: seinstall relabel [--root DIR] [--policy TYPE | --file-contexts FILE]\n"
                   "                         [--threads N] [--progress | --no-progress]\n"
                   "                         [--under-mounts] [--dry-run] [--json]\n\n"
                   "Label every file of the target from its policy's file contexts, as\n"
                   "'setfiles -F' would, on every mount that keeps per-file labels.\n\n"
                   "  --root DIR            the target tree (default /)\n"
                   "  --policy TYPE         policy under DIR/etc/selinux (default: the target's)\n"
                   "  --file-contexts FILE  use this file_contexts (on the host) instead\n"
                   "  --threads N           worker threads (default: one per CPU)\n"
                   "  --progress            show progress on stderr (default on a terminal)\n"
                   "  --no-progress         never show progress\n"
                   "  --under-mounts        then label what the mounts on the root's filesystem\n"
                   "                        hide (/dev, /proc as directories, device nodes\n"
                   "                        below them), through a private bind mount\n"
                   "  --dry-run             count what would change, write nothing\n"
                   "  --json                print a JSON summary on stdout\n");
}

/* A deep tree needs an open directory per level and per thread. */
static void raise_fd_limit(void)
{
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
                rl.rlim_cur = rl.rlim_max;
                (void) setrlimit(RLIMIT_NOFILE, &rl);
        }
}

static void print_text(const struct seinstall_relabel_result *res, bool dry_run)
{
        unsigned long long under_seen = 0, under_changed = 0;
        size_t under_points = 0;

        printf("%s: %llu entries, %llu %s, %llu already right, %llu without a context, "
               "%llu errors\n",
               dry_run ? "relabel (dry run)" : "relabel",
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_SEEN),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_CHANGED),
               dry_run ? "to change" : "changed",
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_UNCHANGED),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_NO_CONTEXT),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_ERRORS));
        if (seinstall_relabel_result_get_under_mounts(res, &under_points, &under_seen,
                                                      &under_changed) > 0)
                printf("under mounts: %llu entries below %zu mount point(s), %llu %s\n", under_seen,
                       under_points, under_changed, dry_run ? "to change" : "changed");
        cli_print_relabel_skipped(res);
        for (size_t i = 0; i < seinstall_relabel_result_get_n_verified(res); i++) {
                const char *p = seinstall_relabel_result_get_verified_path(res, i);
                const char *actual = seinstall_relabel_result_get_verified_actual(res, i);
                const char *expected = seinstall_relabel_result_get_verified_expected(res, i);
                if (!actual || strcmp(actual, expected) != 0)
                        printf("verify: %s has %s, expected %s\n", cli_esc(p), cli_esc(actual),
                               cli_esc(expected));
        }
        cli_print_relabel_errors(res);
}

int cmd_relabel(int argc, char **argv)
{
        static const struct option options[] = {
            CLI_COMMON_OPTIONS,
            {"policy", required_argument, NULL, 'P'},
            {"file-contexts", required_argument, NULL, 'f'},
            {"threads", required_argument, NULL, 't'},
            {"progress", no_argument, NULL, 'p'},
            {"no-progress", no_argument, NULL, 'n'},
            {"dry-run", no_argument, NULL, 'd'},
            {"under-mounts", no_argument, NULL, 'u'},
            {},
        };
        struct cli_common c = {0};
        const char *policy = NULL, *fc = NULL;
        unsigned threads = 0, flags = 0;
        int progress = -1, opt, r;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *res = NULL;
        _cleanup_(seinstall_relabel_options_unrefp) struct seinstall_relabel_options *o = NULL;
        _cleanup_free_ char *json = NULL;

        opt_reset();
        while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
                if (cli_common_option(&c, opt, optarg))
                        continue;
                switch (opt) {
                case 'h':
                        usage(stdout);
                        return EXIT_OK;
                case 'P':
                        policy = optarg;
                        break;
                case 'f':
                        fc = optarg;
                        break;
                case 't': {
                        unsigned long n;
                        if (opt_parse_uint(optarg, 1, 1024, &n) < 0)
                                return cli_usage_error("relabel",
                                                       "--threads takes a number from 1 to 1024, "
                                                       "not '%s'",
                                                       optarg);
                        threads = (unsigned) n;
                        break;
                }
                case 'p':
                        progress = 1;
                        break;
                case 'n':
                        progress = 0;
                        break;
                case 'd':
                        flags |= SEINSTALL_RELABEL_DRY_RUN;
                        break;
                case 'u':
                        flags |= SEINSTALL_RELABEL_UNDER_MOUNTS;
                        break;
                default:
                        return cli_usage_error("relabel", "unknown option");
                }
        }
        if (optind < argc)
                return cli_usage_error("relabel", "unexpected argument '%s'", argv[optind]);
        if (policy && fc)
                return cli_usage_error("relabel",
                                       "--policy and --file-contexts exclude each other");
        if (progress < 0)
                progress = isatty(STDERR_FILENO);

        r = cli_open(&c, &ctx);
        if (r != 0)
                return r;
        raise_fd_limit();
        r = seinstall_relabel_options_new(&o);
        if (r >= 0)
                r = seinstall_relabel_options_set_policy(o, policy);
        if (r >= 0)
                r = seinstall_relabel_options_set_file_contexts(o, fc);
        if (r >= 0)
                r = seinstall_relabel_options_set_threads(o, threads);
        if (r >= 0 && progress)
                r = seinstall_relabel_options_set_progress(o, cli_show_progress,
                                                           (void *) "relabel");
        if (r < 0)
                return cli_fail(ctx, r, "relabel");
        r = seinstall_relabel(ctx, o, flags, &res);
        if (progress)
                cli_progress_end();
        if (res && c.json) {
                int k = seinstall_relabel_result_to_json(res, &json);
                if (k < 0 && r >= 0)
                        r = k;
                cli_print_relabel_errors(res);
        } else if (res) {
                print_text(res, flags & SEINSTALL_RELABEL_DRY_RUN);
        }
        if (r < 0)
                /* one document: the error, with the summary of what was done before it */
                return cli_fail_with(ctx, r, "relabel", "relabel", json);
        if (c.json) {
                struct json j = {0};

                json_raw(&j, json);
                return cli_print_json(&j, "relabel");
        }
        return EXIT_OK;
}
