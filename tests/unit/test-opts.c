/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of cli/opts.c, the option parsing `seinstall` and seinstall-firstboot share: the
 * shared options' values, one wording of each bad value whichever command reads it, options
 * that exclude each other, arguments, --help, and parsing again in the same process. opts.c
 * is compiled into this test (the test programs link the library archive, not cli/). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../../installer-plugin/cli/opts.c"
#include "testutil.h"

#define ARGV(...) ((char *[]){"cmd", __VA_ARGS__, NULL})

/* What relabel and verify take of the shared options. */
static const struct opts_spec relabel_like = {
    .shared = OPTS_COMMON | OPT_BIT(OPT_POLICY) | OPT_BIT(OPT_THREADS) | OPTS_PROGRESS |
              OPT_BIT(OPT_DRY_RUN),
};
static const struct opts_spec verify_like = {
    .shared = OPTS_COMMON | OPT_BIT(OPT_THREADS) | OPTS_PROGRESS,
};

/* Parse @argv (NULL-terminated) by @spec into a fresh struct opts. */
static int parse(const struct opts_spec *spec, struct opts *o, char **argv)
{
        int argc = 0;

        while (argv[argc])
                argc++;
        *o = (struct opts) OPTS_INIT;
        return opts_parse(o, spec, argc, argv);
}

START_TEST(test_shared_values)
{
        char **v = ARGV("--root", "/t", "--json", "--threads", " 4", "--no-progress", "--progress",
                        "--dry-run", "--policy", "mls");
        struct opts o;

        ck_assert_int_eq(parse(&relabel_like, &o, v), 1);
        ck_assert_str_eq(o.root, "/t");
        ck_assert(o.json);
        ck_assert_uint_eq(o.threads, 4);
        ck_assert_int_eq(o.progress, 1); /* the last of --progress and --no-progress */
        ck_assert(o.dry_run);
        ck_assert_str_eq(o.policy, "mls");
        ck_assert_ptr_null(o.error);
        ck_assert_uint_eq(o.n_args, 0);
        /* what was not given keeps its "not given" value */
        ck_assert_int_eq(o.mode, SEINSTALL_MODE_INVALID);
        ck_assert_int_eq(o.unsupported_warn, -1);
        opts_done(&o);
}
END_TEST

/* The same bad value gives the same words from two commands, and leaves nothing set. */
START_TEST(test_threads_one_wording)
{
        static const char *bad[] = {"0", "1025", "-1", "4x", "", "+4", "99999999999999999999"};

        for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
                char **v = ARGV("--threads", (char *) bad[i]);
                _cleanup_free_ char *want = NULL;
                struct opts a, b;

                ck_assert_int_ge(asprintf(&want,
                                          "invalid --threads '%s': use a number from 1 to "
                                          "1024",
                                          bad[i]),
                                 0);
                ck_assert_int_eq(parse(&relabel_like, &a, v), -EINVAL);
                ck_assert_int_eq(parse(&verify_like, &b, v), -EINVAL);
                ck_assert_str_eq(a.error, want);
                ck_assert_str_eq(b.error, want);
                ck_assert_uint_eq(a.threads, 0);
                opts_done(&a);
                opts_done(&b);
        }
}
END_TEST

START_TEST(test_values_checked)
{
        static const struct opts_spec all = {
            .shared =
                OPTS_COMMON | OPT_BIT(OPT_MODE) | OPT_BIT(OPT_POLICY) | OPT_BIT(OPT_UNSUPPORTED),
        };
        struct opts o;

        ck_assert_int_eq(parse(&all, &o, ARGV("--mode", "enforce")), -EINVAL);
        ck_assert_str_eq(o.error,
                         "invalid --mode 'enforce': use enforcing, permissive, disabled or trial");
        ck_assert_int_eq(o.mode, SEINSTALL_MODE_INVALID);
        opts_done(&o);
        ck_assert_int_eq(parse(&all, &o, ARGV("--mode=trial")), 1);
        ck_assert_int_eq(o.mode, SEINSTALL_MODE_TRIAL);

        /* the library's rule for a policy type: a name, never a path */
        ck_assert_int_eq(parse(&all, &o, ARGV("--policy", "../etc")), -EINVAL);
        ck_assert_str_eq(o.error, "invalid --policy '../etc': use a policy type, a directory name "
                                  "under /etc/selinux");
        ck_assert_ptr_null(o.policy);
        opts_done(&o);
        ck_assert_int_eq(parse(&all, &o, ARGV("--policy", "")), -EINVAL);
        opts_done(&o);

        ck_assert_int_eq(parse(&all, &o, ARGV("--unsupported", "maybe")), -EINVAL);
        ck_assert_str_eq(o.error, "invalid --unsupported 'maybe': use refuse or warn");
        ck_assert_int_eq(o.unsupported_warn, -1);
        opts_done(&o);
        ck_assert_int_eq(parse(&all, &o, ARGV("--unsupported", "warn")), 1);
        ck_assert_int_eq(o.unsupported_warn, 1);
        ck_assert_int_eq(parse(&all, &o, ARGV("--unsupported", "refuse")), 1);
        ck_assert_int_eq(o.unsupported_warn, 0);
}
END_TEST

/* A shared option a command does not take is unknown there; getopt_long() said so. */
START_TEST(test_not_taken)
{
        static const struct opts_spec status_like = {.shared = OPTS_COMMON};
        struct opts o;

        ck_assert_int_eq(parse(&status_like, &o, ARGV("--json", "--threads", "2")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '--threads'");
        opts_done(&o);
        /* named without its value */
        ck_assert_int_eq(parse(&status_like, &o, ARGV("--dry-run=1")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '--dry-run'");
        opts_done(&o);
        ck_assert_int_eq(parse(&status_like, &o, ARGV("-x", "--json")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '-x'");
        opts_done(&o);
}
END_TEST

/* A value missing, or given to an option that takes none, is said as such, not as an unknown
 * option: the option is named in full even when abbreviated. */
START_TEST(test_value_missing)
{
        static const struct opts_spec install_like = {
            .shared = OPTS_COMMON | OPTS_PROGRESS | OPTS_CMDLINE | OPT_BIT(OPT_THREADS),
        };
        struct opts o;

        ck_assert_int_eq(parse(&relabel_like, &o, ARGV("--threads")), -EINVAL);
        ck_assert_str_eq(o.error, "option --threads needs a value");
        opts_done(&o);
        ck_assert_int_eq(parse(&relabel_like, &o, ARGV("--json", "--thr")), -EINVAL);
        ck_assert_str_eq(o.error, "option --threads needs a value");
        opts_done(&o);
        ck_assert_int_eq(parse(&relabel_like, &o, ARGV("--dry-run=yes")), -EINVAL);
        ck_assert_str_eq(o.error, "option --dry-run takes no value");
        opts_done(&o);
        ck_assert_int_eq(parse(&install_like, &o, ARGV("--no")), -EINVAL);
        ck_assert_str_eq(o.error, "option '--no' is ambiguous");
        opts_done(&o);
}
END_TEST

struct own_seen {
        int yes, status;
        const char *timeout;
};

static int own_option(struct opts *o, int opt, const char *arg, void *userdata)
{
        struct own_seen *s = userdata;

        switch (opt) {
        case 'y':
                s->yes++;
                return 0;
        case 's':
                s->status++;
                return 0;
        case 't':
                if (!streq(arg, "5"))
                        return opts_invalid(o, "timeout", arg, "5");
                s->timeout = arg;
                return 0;
        default:
                return -EINVAL;
        }
}

static const struct option own[] = {
    {"yes", no_argument, NULL, 'y'},
    {"status", no_argument, NULL, 's'},
    {"timeout", required_argument, NULL, 't'},
    {},
};
static const int yes_status[][2] = {{'y', 's'}, {}};
static const int cmdlines[][2] = {{OPT_CMDLINE, OPT_NO_CMDLINE}, {}};

START_TEST(test_own_and_exclusive)
{
        struct own_seen seen = {};
        const struct opts_spec fb = {
            .shared = OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_MODE),
            .own = own,
            .own_option = own_option,
            .userdata = &seen,
            .exclusive = yes_status,
        };
        const struct opts_spec profile_like = {
            .shared = OPTS_COMMON | OPTS_CMDLINE,
            .exclusive = cmdlines,
            .max_args = SIZE_MAX,
        };
        struct opts o;

        ck_assert_int_eq(parse(&fb, &o, ARGV("--yes", "--timeout", "5", "--mode=permissive")), 1);
        ck_assert_int_eq(seen.yes, 1);
        ck_assert_str_eq(seen.timeout, "5");
        ck_assert_int_eq(o.mode, SEINSTALL_MODE_PERMISSIVE);
        /* an own option's error passes through as it was worded */
        ck_assert_int_eq(parse(&fb, &o, ARGV("--timeout", "6")), -EINVAL);
        ck_assert_str_eq(o.error, "invalid --timeout '6': use 5");
        opts_done(&o);
        /* an own option's missing value; an unknown short option with its code is not it */
        ck_assert_int_eq(parse(&fb, &o, ARGV("--yes", "--timeout")), -EINVAL);
        ck_assert_str_eq(o.error, "option --timeout needs a value");
        opts_done(&o);
        ck_assert_int_eq(parse(&fb, &o, ARGV("--timeout", "5", "-t")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '-t'");
        opts_done(&o);
        ck_assert_int_eq(parse(&fb, &o, ARGV("--yes", "-ty")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '-t'");
        opts_done(&o);
        ck_assert_int_eq(parse(&fb, &o, ARGV("--timeout=5", "-ty")), -EINVAL);
        ck_assert_str_eq(o.error, "unknown option '-t'");
        opts_done(&o);
        /* own codes and shared codes alike */
        ck_assert_int_eq(parse(&fb, &o, ARGV("--status", "--yes")), -EINVAL);
        ck_assert_str_eq(o.error, "--yes and --status exclude each other");
        opts_done(&o);
        ck_assert_int_eq(parse(&profile_like, &o, ARGV("f.ks", "--no-cmdline", "--cmdline", "c")),
                         -EINVAL);
        ck_assert_str_eq(o.error, "--cmdline and --no-cmdline exclude each other");
        opts_done(&o);
        /* the arguments point into argv: it must outlive the checks (not a literal inside
         * ck_assert's own block) */
        char **kept = ARGV("--cmdline", "c", "f.ks");
        ck_assert_int_eq(parse(&profile_like, &o, kept), 1);
        ck_assert_str_eq(o.cmdline, "c");
        ck_assert(!o.no_cmdline);
        ck_assert_uint_eq(o.n_args, 1);
        ck_assert_str_eq(o.args[0], "f.ks");
}
END_TEST

START_TEST(test_arguments)
{
        struct opts o;
        const struct opts_spec one = {.shared = OPTS_COMMON, .max_args = 1};

        ck_assert_int_eq(parse(&verify_like, &o, ARGV("--json", "extra")), -EINVAL);
        ck_assert_str_eq(o.error, "unexpected argument 'extra'");
        opts_done(&o);
        ck_assert_int_eq(parse(&one, &o, ARGV("a", "b", "--json")), -EINVAL);
        ck_assert_str_eq(o.error, "unexpected argument 'b'");
        opts_done(&o);
        /* "--" ends the options: what follows is an argument even when it looks like one */
        char **kept = ARGV("--", "--json");
        ck_assert_int_eq(parse(&one, &o, kept), 1);
        ck_assert(!o.json);
        ck_assert_uint_eq(o.n_args, 1);
        ck_assert_str_eq(o.args[0], "--json");
}
END_TEST

START_TEST(test_help_stops)
{
        static const struct opts_spec with_version = {
            .shared = OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_VERSION),
        };
        struct opts o;

        /* help wins over what follows it, not over an error before it */
        ck_assert_int_eq(parse(&verify_like, &o, ARGV("--help", "--bogus", "extra")), 0);
        ck_assert(o.help);
        ck_assert_int_eq(parse(&verify_like, &o, ARGV("-h")), 0);
        ck_assert(o.help);
        ck_assert_int_eq(parse(&verify_like, &o, ARGV("--threads", "0", "--help")), -EINVAL);
        opts_done(&o);
        ck_assert_int_eq(parse(&with_version, &o, ARGV("--version")), 0);
        ck_assert(o.version && !o.help);
        ck_assert_int_eq(parse(&verify_like, &o, ARGV("--version")), -EINVAL);
        opts_done(&o);
}
END_TEST

/* Every front end parses from the start: a second parse in the same process (a test, a
 * library caller) sees its own vector, not the rest of the first one. */
START_TEST(test_parse_again)
{
        struct opts o;

        ck_assert_int_eq(parse(&relabel_like, &o, ARGV("--threads", "3", "--root", "/a")), 1);
        ck_assert_int_eq(parse(&relabel_like, &o, ARGV("--threads", "5")), 1);
        ck_assert_uint_eq(o.threads, 5);
        ck_assert_ptr_null(o.root);
}
END_TEST

START_TEST(test_value_readers)
{
        unsigned long n = 7;
        enum seinstall_mode m = SEINSTALL_MODE_PERMISSIVE;

        ck_assert_int_eq(opt_parse_uint("12", 1, 12, &n), 0);
        ck_assert_uint_eq(n, 12);
        ck_assert_int_eq(opt_parse_uint("13", 1, 12, &n), -EINVAL);
        ck_assert_int_eq(opt_parse_uint(NULL, 0, 1, &n), -EINVAL);
        ck_assert_uint_eq(n, 12);
        ck_assert_int_eq(opt_parse_mode("disabled", &m), 0);
        ck_assert_int_eq(m, SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(opt_parse_mode("Disabled!", &m), -EINVAL);
        ck_assert_int_eq(m, SEINSTALL_MODE_DISABLED);
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("opts");
        TCase *tc = tcase_create("parse");

        tcase_add_test(tc, test_shared_values);
        tcase_add_test(tc, test_threads_one_wording);
        tcase_add_test(tc, test_values_checked);
        tcase_add_test(tc, test_not_taken);
        tcase_add_test(tc, test_value_missing);
        tcase_add_test(tc, test_own_and_exclusive);
        tcase_add_test(tc, test_arguments);
        tcase_add_test(tc, test_help_stops);
        tcase_add_test(tc, test_parse_again);
        tcase_add_test(tc, test_value_readers);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
