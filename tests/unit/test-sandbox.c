/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of sandbox.c: the output relay (escaped, prefixed, bounded), the wall-clock limit
 * from SEINSTALL_SANDBOX_TIMEOUT, and si_run_in_target() itself: for the root "/" (the running
 * system's own program, no bwrap) its status, output and kill at the limit; for a target, that
 * without a sandbox nothing runs. tests/integration/hostile-sandbox.sh attacks the sandbox. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "sandbox.h"
#include "testutil.h"

struct logged {
        struct sbuf text;
        unsigned lines;
};

static void collect(void *userdata, int priority, const char *message)
{
        struct logged *l = userdata;

        (void) priority;
        l->lines++;
        ck_assert(sbuf_printf(&l->text, "%s\n", message) >= 0);
}

static struct seinstall_ctx *ctx_logging(const char *root, struct logged *l)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        seinstall_set_log_fn(ctx, collect, l);
        seinstall_set_log_priority(ctx, SEINSTALL_LOG_DEBUG);
        return ctx;
}

START_TEST(test_relay_escapes_and_prefixes)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        struct si_relay r = {.name = "/usr/sbin/update-grub"};
        const char out[] = "\033[31mred\033[0m\nseinstall: error: forged\nnul[\0]\nlast";

        si_relay_feed(ctx, &r, out, sizeof(out) - 1);
        si_relay_end(ctx, &r);
        /* the library hands the text on as it came; the front end escapes it once */
        ck_assert_str_eq(l.text.s, "/usr/sbin/update-grub: \033[31mred\033[0m\n"
                                   "/usr/sbin/update-grub: seinstall: error: forged\n"
                                   "/usr/sbin/update-grub: nul[\xef\xbf\xbd]\n"
                                   "/usr/sbin/update-grub: last\n");
        ck_assert_str_eq(r.last, "last");
        free(r.last);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_relay_bounded)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        struct si_relay r = {.name = "p"};
        char *big = malloc(100000);

        ck_assert_ptr_nonnull(big);
        /* one line far longer than a line may be, fed in pieces */
        memset(big, 'x', 100000);
        for (int i = 0; i < 10; i++)
                si_relay_feed(ctx, &r, big, 10000);
        si_relay_feed(ctx, &r, "\n", 1);
        ck_assert_uint_eq(l.lines, 1);
        ck_assert_uint_eq(strlen(l.text.s),
                          strlen("p: ") + SI_RELAY_LINE_MAX + strlen(" [line cut]") + 1);
        /* then many short lines: at most SI_RELAY_LINES shown, the rest counted */
        for (int i = 0; i < 5000; i++)
                si_relay_feed(ctx, &r, "short line\n", 11);
        si_relay_end(ctx, &r);
        ck_assert_uint_eq(l.lines, SI_RELAY_LINES + 1);
        ck_assert_ptr_nonnull(strstr(l.text.s, "more bytes of output not shown"));
        ck_assert_uint_gt(r.hidden, 0);
        ck_assert_uint_lt(l.text.len, SI_RELAY_LINES * 32 + SI_RELAY_LINE_MAX + 200);
        free(big);
        free(r.last);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_timeout_parse)
{
        unsigned t = 0;

        ck_assert_int_eq(si_sandbox_timeout(NULL, &t), 0);
        ck_assert_uint_eq(t, 300);
        ck_assert_int_eq(si_sandbox_timeout("", &t), 0);
        ck_assert_uint_eq(t, 300);
        ck_assert_int_eq(si_sandbox_timeout("5", &t), 0);
        ck_assert_uint_eq(t, 5);
        ck_assert_int_eq(si_sandbox_timeout("86400", &t), 0);
        ck_assert_int_eq(si_sandbox_timeout("0", &t), -EINVAL);
        ck_assert_int_eq(si_sandbox_timeout("86401", &t), -EINVAL);
        ck_assert_int_eq(si_sandbox_timeout("-1", &t), -EINVAL);
        ck_assert_int_eq(si_sandbox_timeout("+5", &t), -EINVAL);
        ck_assert_int_eq(si_sandbox_timeout("5s", &t), -EINVAL);
        ck_assert_int_eq(si_sandbox_timeout("99999999999999999999", &t), -EINVAL);
}
END_TEST

/* The root "/": its own program runs without bwrap, with the same relay and limit. */
START_TEST(test_run_host_program)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        const char *const ok[] = {"/bin/sh", "-c", "echo out; echo err >&2; test ! -t 0", NULL};
        const char *const bad[] = {"/bin/sh", "-c", "exit 4", NULL};
        const char *const hang[] = {"/bin/sh", "-c", "sleep 1000 & sleep 1000", NULL};

        ck_assert_int_eq(si_run_in_target(ctx, ok), 0);
        ck_assert_ptr_nonnull(strstr(l.text.s, "/bin/sh: out\n"));
        ck_assert_ptr_nonnull(strstr(l.text.s, "/bin/sh: err\n"));
        ck_assert_int_eq(si_run_in_target(ctx, bad), -EIO);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "exit status 4"));
        ck_assert_int_eq(setenv("SEINSTALL_SANDBOX_TIMEOUT", "1", 1), 0);
        ck_assert_int_eq(si_run_in_target(ctx, hang), -ETIME);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "ran longer than 1 s"));
        ck_assert_int_eq(setenv("SEINSTALL_SANDBOX_TIMEOUT", "soon", 1), 0);
        ck_assert_int_eq(si_run_in_target(ctx, ok), -EINVAL);
        unsetenv("SEINSTALL_SANDBOX_TIMEOUT");
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

/* A target whose sandbox cannot stand (its /proc a file): refused, and nothing ran. */
START_TEST(test_run_refused_without_sandbox)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *proc = NULL, *marker = NULL;
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging(dir, &l);
        const char *argv[] = {"/bin/sh", "-c", NULL, NULL};
        _cleanup_free_ char *cmd = NULL;

        ck_assert_int_ge(asprintf(&proc, "%s/proc", dir), 0);
        ck_assert_int_ge(asprintf(&marker, "%s/ran", dir), 0);
        ck_assert_int_ge(asprintf(&cmd, "touch %s", marker), 0);
        argv[2] = cmd;
        write_file(proc, "not a directory\n");
        /* without bubblewrap (a package build's chroot) the refusal comes first, for that */
        ck_assert_int_eq(si_run_in_target(ctx, argv),
                         access("/usr/bin/bwrap", X_OK) == 0 ? -ENOTDIR : -ENOPKG);
        ck_assert_int_ne(access(marker, F_OK), 0);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("sandbox");
        TCase *tc = tcase_create("core");

        tcase_set_timeout(tc, 30);
        tcase_add_test(tc, test_relay_escapes_and_prefixes);
        tcase_add_test(tc, test_relay_bounded);
        tcase_add_test(tc, test_timeout_parse);
        tcase_add_test(tc, test_run_host_program);
        tcase_add_test(tc, test_run_refused_without_sandbox);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
