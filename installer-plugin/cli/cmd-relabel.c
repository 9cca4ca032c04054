/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-relabel.c — `seinstall relabel`: options, a progress line, and the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall relabel [--root DIR] [--policy TYPE | --file-contexts FILE]\n"
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
                "  --json                print a JSON summary on stdout\n"),
              f);
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

        printf(dry_run ? _("relabel (dry run): %llu entries, %llu to change, %llu already right, "
                           "%llu without a context, %llu errors\n")
                       : _("relabel: %llu entries, %llu changed, %llu already right, %llu "
                           "without a context, %llu errors\n"),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_SEEN),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_UNCHANGED),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_NO_CONTEXT),
               seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS));
        if (seinstall_relabel_result_get_under_mounts(res, &under_points, &under_seen,
                                                      &under_changed) > 0)
                printf(dry_run ? _("under mounts: %llu entries below %zu mount point(s), %llu to "
                                   "change\n")
                               : _("under mounts: %llu entries below %zu mount point(s), %llu "
                                   "changed\n"),
                       under_seen, under_points, under_changed);
        cli_print_relabel_skipped(res);
        for (size_t i = 0; i < seinstall_relabel_result_get_n_verified(res); i++) {
                const char *p = seinstall_relabel_result_get_verified_path(res, i);
                const char *actual = seinstall_relabel_result_get_verified_actual(res, i);
                const char *expected = seinstall_relabel_result_get_verified_expected(res, i);
                if (!actual || strcmp(actual, expected) != 0)
                        printf(_("verify: %s has %s, expected %s\n"), cli_esc(p), cli_esc(actual),
                               cli_esc(expected));
        }
        cli_print_relabel_errors(res);
}

struct relabel_args {
        const char *fc;
        unsigned flags;
};

static int relabel_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct relabel_args *a = userdata;

        (void) o;
        switch (opt) {
        case 'f':
                a->fc = arg;
                return 0;
        case 'u':
                a->flags |= SEINSTALL_RELABEL_UNDER_MOUNTS;
                return 0;
        default:
                return -EINVAL;
        }
}

int cmd_relabel(int argc, char **argv)
{
        static const struct option own[] = {
            {"file-contexts", required_argument, NULL, 'f'},
            {"under-mounts", no_argument, NULL, 'u'},
            {},
        };
        static const int exclusive[][2] = {{OPT_POLICY, 'f'}, {}};
        struct relabel_args a = {};
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPT_BIT(OPT_POLICY) | OPT_BIT(OPT_THREADS) | OPTS_PROGRESS |
                      OPT_BIT(OPT_DRY_RUN),
            .own = own,
            .own_option = relabel_option,
            .userdata = &a,
            .exclusive = exclusive,
        };
        _cleanup_(opts_done) struct opts c = OPTS_INIT;
        unsigned flags;
        int progress, r;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_relabel_result_unrefp) struct seinstall_relabel_result *res = NULL;
        _cleanup_(seinstall_relabel_options_unrefp) struct seinstall_relabel_options *o = NULL;
        _cleanup_free_ char *json = NULL;

        r = cli_parse("relabel", usage, &c, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        flags = a.flags | (c.dry_run ? SEINSTALL_RELABEL_DRY_RUN : 0);
        progress = c.progress >= 0 ? c.progress : isatty(STDERR_FILENO);

        r = cli_open(&c, &ctx);
        if (r != 0)
                return r;
        raise_fd_limit();
        r = seinstall_relabel_options_new(&o);
        if (r >= 0)
                r = seinstall_relabel_options_set_policy(o, c.policy);
        if (r >= 0)
                r = seinstall_relabel_options_set_file_contexts(o, a.fc);
        if (r >= 0)
                r = seinstall_relabel_options_set_threads(o, c.threads);
        if (r >= 0 && progress)
                r = seinstall_relabel_options_set_progress(o, cli_show_progress,
                                                           (void *) "relabel");
        if (r < 0)
                return cli_fail(ctx, r, "relabel");
        cli_catch_interrupts(ctx);
        r = seinstall_relabel(ctx, o, flags, &res);
        if (progress && !cli_interrupted()) /* else the line stays, ended by the message */
                cli_progress_end();
        if (r == -EINTR && cli_interrupted())
                return cli_interrupted_exit(flags & SEINSTALL_RELABEL_DRY_RUN
                                                ? N_("nothing was written")
                                                : N_("every file has its old label or its new "
                                                     "one, none a mix (a relabel can run again)"),
                                            argc, argv);
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
