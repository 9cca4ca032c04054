/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of config.c: /etc/selinux/config rewritten keeping everything else, exactly one
 * SELINUX= and SELINUXTYPE=, and the target's config as a settings source. */
#include <check.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "config.h"
#include "testutil.h"

static char *render(const char *old, enum seinstall_mode mode, const char *type)
{
        char *out = NULL;
        ck_assert_int_eq(si_config_render(old, old ? strlen(old) : 0, mode, type, &out), 0);
        return out;
}

START_TEST(test_render_keeps_the_rest)
{
        _cleanup_free_ char *a = render("# comment\nSELINUX=permissive\n\n# type:\n"
                                        "SELINUXTYPE=default\nSETLOCALDEFS=0\nAUTORELABEL=0\n",
                                        SEINSTALL_MODE_ENFORCING, "mls");
        ck_assert_str_eq(a, "# comment\nSELINUX=enforcing\n\n# type:\nSELINUXTYPE=mls\n"
                            "SETLOCALDEFS=0\nAUTORELABEL=0\n");
}
END_TEST

START_TEST(test_render_duplicates_and_missing)
{
        /* later duplicates go, commented ones stay, blanks around = are understood */
        _cleanup_free_ char *a = render("#SELINUX=enforcing\n SELINUX = disabled\nX=1\n"
                                        "SELINUX=enforcing\nSELINUXTYPE=a\nSELINUXTYPE=b",
                                        SEINSTALL_MODE_PERMISSIVE, "default");
        _cleanup_free_ char *b = render("FOO=1\n", SEINSTALL_MODE_DISABLED, "default");
        _cleanup_free_ char *c = render(NULL, SEINSTALL_MODE_ENFORCING, "default");
        _cleanup_free_ char *d = render("SELINUX=enforcing\r\nSELINUXTYPE=default\r\n# x\r\n",
                                        SEINSTALL_MODE_ENFORCING, "default");
        ck_assert_str_eq(a, "#SELINUX=enforcing\nSELINUX=permissive\nX=1\nSELINUXTYPE=default\n");
        ck_assert_str_eq(b, "FOO=1\nSELINUX=disabled\nSELINUXTYPE=default\n");
        ck_assert_ptr_nonnull(strstr(c, "\nSELINUX=enforcing\nSELINUXTYPE=default\n"));
        /* the same values give the same bytes (so nothing is rewritten) */
        ck_assert_str_eq(d, "SELINUX=enforcing\nSELINUXTYPE=default\n# x\r\n");
}
END_TEST

START_TEST(test_parse)
{
        struct si_config c;
        const char text[] = "SELINUXTYPE=\"mls\"\n# SELINUX=disabled\nSELINUX=Permissive\n";

        ck_assert_int_eq(si_config_parse(text, strlen(text), &c), 0);
        ck_assert_int_eq(c.mode, SEINSTALL_MODE_PERMISSIVE);
        ck_assert_str_eq(c.type, "mls");
        si_config_done(&c);
        ck_assert_int_eq(si_config_parse("SELINUX=bogus\n", 14, &c), 0);
        ck_assert_int_eq(c.mode, SEINSTALL_MODE_INVALID);
        ck_assert_ptr_null(c.type);
}
END_TEST

START_TEST(test_load_target)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *etc = path_join(dir, "etc"), *sel = path_join(dir, "etc/selinux"),
                            *cfg = path_join(dir, "etc/selinux/config");
        struct seinstall_settings *s = NULL;
        struct seinstall_ctx *ctx = NULL;
        enum seinstall_source src;

        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        /* no config: nothing set */
        ck_assert_int_eq(seinstall_settings_load_target(s, ctx), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_DEFAULT);
        mkdir(etc, 0755);
        mkdir(sel, 0755);
        write_file(cfg, "SELINUX=permissive\nSELINUXTYPE=mls\n");
        /* a profile already decided the mode: the target only fills in the policy */
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_DISABLED, SEINSTALL_SOURCE_PROFILE), 1);
        ck_assert_int_eq(seinstall_settings_load_target(s, ctx), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert_str_eq(seinstall_settings_get_policy(s, &src), "mls");
        ck_assert_int_eq(src, SEINSTALL_SOURCE_TARGET);
        seinstall_settings_unref(s);
        seinstall_unref(ctx);
}
END_TEST

/* What a rewrite reports names only the keys whose value changes. */
static char *write_what(struct seinstall_ctx *ctx, const char *cfg, const char *old,
                        enum seinstall_mode mode, const char *type)
{
        struct sbuf what = {};

        if (old)
                write_file(cfg, old);
        ck_assert_int_ge(si_config_write(ctx, mode, type, 0, &what), 0);
        return what.s ? sbuf_steal(&what) : strdup("");
}

START_TEST(test_write_says_what_changed)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *cfg = path_join(dir, "etc/selinux/config");
        struct seinstall_ctx *ctx = NULL;
        const struct {
                const char *old;
                enum seinstall_mode mode;
                const char *type, *what;
        } cases[] = {
            {NULL, SEINSTALL_MODE_ENFORCING, "default",
             "created: SELINUX=enforcing SELINUXTYPE=default"},
            {"SELINUX=enforcing\nSELINUXTYPE=default\n", SEINSTALL_MODE_PERMISSIVE, "default",
             "SELINUX=permissive (was enforcing)"},
            {"SELINUX=enforcing\nSELINUXTYPE=default\n", SEINSTALL_MODE_ENFORCING, "mls",
             "SELINUXTYPE=mls (was default)"},
            {"SELINUX=disabled\n", SEINSTALL_MODE_ENFORCING, "default",
             "SELINUX=enforcing (was disabled), SELINUXTYPE=default (was unset)"},
            {"SELINUX=enforcing\nSELINUX=disabled\nSELINUXTYPE=default\n", SEINSTALL_MODE_ENFORCING,
             "default", "rewritten, keeping SELINUX=enforcing and SELINUXTYPE=default"},
            {"SELINUX=enforcing\nSELINUXTYPE=default\n", SEINSTALL_MODE_ENFORCING, "default", ""},
        };

        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                _cleanup_free_ char *what =
                    write_what(ctx, cfg, cases[i].old, cases[i].mode, cases[i].type);
                ck_assert_str_eq(what, cases[i].what);
        }
        seinstall_unref(ctx);
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("config");
        TCase *tc = tcase_create("config");

        tcase_add_test(tc, test_render_keeps_the_rest);
        tcase_add_test(tc, test_render_duplicates_and_missing);
        tcase_add_test(tc, test_parse);
        tcase_add_test(tc, test_load_target);
        tcase_add_test(tc, test_write_says_what_changed);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
