/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cmd-verify.c — `seinstall verify`: options, and the mismatches grouped by directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
        fputs(_("Usage: seinstall verify [--root DIR] [--fix] [--all] [--threads N]\n"
                "                        [--progress | --no-progress] [--json]\n\n"
                "Compare every file's label with what the target policy's file contexts\n"
                "say, as a relabel would, writing nothing unless --fix is given.\n\n"
                "  --root DIR     the target tree (default /)\n"
                "  --fix          write the expected label on each file that differs\n"
                "  --all          list every label that differs, not three per directory\n"
                "  --threads N    worker threads (default: one per CPU)\n"
                "  --progress     show progress on stderr (default on a terminal)\n"
                "  --no-progress  never show progress\n"
                "  --json         print a JSON document on stdout\n\n"
                "Exit status: 0 every label matches (with --fix: a verify after the fix\n"
                "finds none different), 1 labels differ (with --fix: some still do after\n"
                "it), 2 bad usage, 3 the target could not be read or written.\n"),
              f);
}

/* Print the group of directory @i; returns whether it was abridged. */
static bool print_dir(const struct seinstall_verify_result *res, size_t i)
{
        unsigned long long n = seinstall_verify_result_get_dir_mismatched(res, i);
        size_t nex = seinstall_verify_result_get_dir_n_examples(res, i);

        printf("  %s: %llu\n", cli_esc(seinstall_verify_result_get_dir_path(res, i)), n);
        for (size_t k = 0; k < nex; k++) {
                const char *actual = seinstall_verify_result_get_example_actual(res, i, k);
                bool fixed = seinstall_verify_result_get_example_fixed(res, i, k);

                /* TRANSLATORS: "    fixed PATH: WAS, now IS" or "    PATH: HAS, expected WANT" */
                printf(fixed ? _("    fixed %s: %s, now %s\n") : _("    %s: %s, expected %s\n"),
                       cli_esc(seinstall_verify_result_get_example_path(res, i, k)),
                       actual ? cli_esc(actual) : _("no label"),
                       cli_esc(seinstall_verify_result_get_example_expected(res, i, k)));
        }
        if (n > nex)
                printf(_("    ... and %llu more\n"), n - nex);
        return n > nex;
}

static void print_text(const struct seinstall_verify_result *res, bool fix, const char *root)
{
        const struct seinstall_relabel_result *rl = seinstall_verify_result_get_relabel(res);
        unsigned long long
            checked = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_CHECKED),
            bad = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_MISMATCHED),
            fixed = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_FIXED),
            unlisted = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_UNLISTED),
            left = seinstall_verify_result_get_count(res, SEINSTALL_VERIFY_COUNT_REMAINING);

        if (bad == 0)
                printf(_("verify: %llu entries checked, every label matches the file contexts\n"),
                       checked);
        else if (fix && left == 0)
                printf(ngettext("verify: %llu entries checked, %llu label differed from the file "
                                "contexts, %llu fixed; a verify after the fix finds none "
                                "different\n",
                                "verify: %llu entries checked, %llu labels differed from the "
                                "file contexts, %llu fixed; a verify after the fix finds none "
                                "different\n",
                                bad),
                       checked, bad, fixed);
        else if (fix) {
                printf(ngettext("verify: %llu entries checked, %llu label differed from the file "
                                "contexts, %llu written; ",
                                "verify: %llu entries checked, %llu labels differed from the "
                                "file contexts, %llu written; ",
                                bad),
                       checked, bad, fixed);
                printf(ngettext("%llu still differs after the fix\n",
                                "%llu still differ after the fix\n", left),
                       left);
        } else
                printf(ngettext("verify: %llu entries checked, %llu label differs from the file "
                                "contexts\n",
                                "verify: %llu entries checked, %llu labels differ from the file "
                                "contexts\n",
                                bad),
                       checked, bad);
        bool abridged = unlisted > 0;

        for (size_t i = 0; i < seinstall_verify_result_get_n_dirs(res); i++)
                abridged |= print_dir(res, i);
        if (unlisted > 0)
                printf(_("  (%llu more in directories not listed)\n"), unlisted);
        if (abridged)
                printf(_("Run '%s' to list every one.\n"),
                       cli_command(root, "seinstall verify%r --all"));
        cli_print_relabel_skipped(rl);
        if (fix && left > 0)
                /* TRANSLATORS: "fixed" as in "    fixed PATH: WAS, now IS" above */
                printf(ngettext("Left after the fix: %llu label that a verify run after it, "
                                "writing nothing, still finds different (listed above without "
                                "\"fixed\"). One that could not be written says why on stderr; "
                                "one written and found different again was changed meanwhile "
                                "by something else than this run. Rerun %s once that is dealt "
                                "with.\n",
                                "Left after the fix: %llu labels that a verify run after it, "
                                "writing nothing, still finds different (listed above without "
                                "\"fixed\"). One that could not be written says why on stderr; "
                                "one written and found different again was changed meanwhile "
                                "by something else than this run. Rerun %s once that is dealt "
                                "with.\n",
                                left),
                       left, cli_command(root, "seinstall verify%r --fix"));
        if (bad > fixed && !fix)
                printf(_("To write the expected labels, run: %s\n"),
                       cli_command(root, "seinstall verify%r --fix"));
}

static int verify_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        unsigned *flags = userdata;

        (void) o;
        (void) arg;
        switch (opt) {
        case 'x':
                *flags |= SEINSTALL_VERIFY_FIX;
                return 0;
        case 'a':
                *flags |= SEINSTALL_VERIFY_ALL;
                return 0;
        default:
                return -EINVAL;
        }
}

int cmd_verify(int argc, char **argv)
{
        static const struct option own[] = {
            {"fix", no_argument, NULL, 'x'},
            {"all", no_argument, NULL, 'a'},
            {},
        };
        unsigned flags = 0;
        const struct opts_spec spec = {
            .shared = OPTS_COMMON | OPT_BIT(OPT_THREADS) | OPTS_PROGRESS,
            .own = own,
            .own_option = verify_option,
            .userdata = &flags,
        };
        _cleanup_(opts_done) struct opts c = OPTS_INIT;
        _cleanup_(seinstall_unrefp) struct seinstall_ctx *ctx = NULL;
        _cleanup_(seinstall_verify_result_unrefp) struct seinstall_verify_result *res = NULL;
        _cleanup_(seinstall_relabel_options_unrefp) struct seinstall_relabel_options *o = NULL;
        _cleanup_free_ char *json = NULL;
        int progress, r;

        r = cli_parse("verify", usage, &c, &spec, argc, argv);
        if (r != CLI_GO_ON)
                return r;
        progress = c.progress >= 0 ? c.progress : isatty(STDERR_FILENO);

        r = cli_open(&c, &ctx);
        if (r != 0)
                return r;
        r = seinstall_relabel_options_new(&o);
        if (r >= 0)
                r = seinstall_relabel_options_set_threads(o, c.threads);
        if (r >= 0 && progress)
                r = seinstall_relabel_options_set_progress(o, cli_show_progress, (void *) "verify");
        if (r < 0)
                return cli_fail(ctx, r, "verify");
        r = seinstall_verify(ctx, o, flags, &res);
        if (progress)
                cli_progress_end();
        if (res && c.json) {
                int k = seinstall_verify_result_to_json(res, &json);
                if (k < 0 && r >= 0)
                        r = k;
                cli_print_relabel_errors(seinstall_verify_result_get_relabel(res));
        } else if (res) {
                print_text(res, flags & SEINSTALL_VERIFY_FIX, seinstall_get_root(ctx));
                cli_print_relabel_errors(seinstall_verify_result_get_relabel(res));
        }
        if (r < 0)
                /* one document: the error, with what the walk found before it */
                return cli_fail_with(ctx, r, "verify", "verify", json);
        if (c.json) {
                struct json j = {0};
                int k;

                json_raw(&j, json);
                k = cli_print_json(&j, "verify");
                if (k != 0)
                        return k;
        }
        return r > 0 ? EXIT_REFUSED : EXIT_OK;
}
