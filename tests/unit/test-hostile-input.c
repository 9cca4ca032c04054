/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Input an attacker controls, read as the kernel and the library must read it (issue 18,
 * items 7 and 8): kernel command lines with a bare "--", numbers in every form kstrtoul
 * accepts, quoted arguments; an empty root; policy types holding newlines, escapes, blanks. */
#include <check.h>

#include "cmdline.h"
#include "testutil.h"
#include "config.h"
#include "settings.h"

static const struct si_cmdline_goal enf_optin = {SEINSTALL_MODE_ENFORCING,
                                                 SEINSTALL_KERNEL_CASE_SELINUX_OPTIN};
static const struct si_cmdline_goal perm_optin = {SEINSTALL_MODE_PERMISSIVE,
                                                  SEINSTALL_KERNEL_CASE_SELINUX_OPTIN};
static const struct si_cmdline_goal dis_default = {SEINSTALL_MODE_DISABLED,
                                                   SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT};

static char *kcmd(const char *in, const struct si_cmdline_goal *goal)
{
        char *out = NULL;
        ck_assert_int_eq(si_kernel_cmdline_edit(in, strlen(in), goal, &out, NULL, NULL), 0);
        return out ? out : strdup("=");
}

static void assert_kcmd(const char *in, const struct si_cmdline_goal *goal, const char *want)
{
        _cleanup_free_ char *out = kcmd(in, goal);
        ck_assert_str_eq(out, want);
}

START_TEST(test_kernel_ulong)
{
        static const struct {
                const char *s;
                int r;
                unsigned long v;
        } cases[] = {
            {"0", 0, 0},        {"00", 0, 0},        {"0x0", 0, 0},
            {"0X10", 0, 16},    {"+1", 0, 1},        {"010", 0, 8},
            {"1\n", 0, 1},      {"08", -EINVAL, 0},  {"1a", -EINVAL, 0},
            {"", -EINVAL, 0},   {"0x", -EINVAL, 0},  {"-1", -EINVAL, 0},
            {" 1", -EINVAL, 0}, {"0xg", -EINVAL, 0}, {"18446744073709551616", -ERANGE, 0},
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                unsigned long v = 12345;
                int r = si_kernel_ulong(cases[i].s, strlen(cases[i].s), &v);
                ck_assert_msg(r == cases[i].r, "'%s': %d, expected %d", cases[i].s, r, cases[i].r);
                if (r == 0)
                        ck_assert_msg(v == cases[i].v, "'%s': %lu", cases[i].s, v);
        }
}
END_TEST

START_TEST(test_numbers_as_the_kernel_reads_them)
{
        ck_assert_int_eq(si_cmdline_get_num("quiet enforcing=00", "enforcing"), 0);
        ck_assert_int_eq(si_cmdline_get_num("selinux=0x0", "selinux"), 0);
        ck_assert_int_eq(si_cmdline_get_num("selinux=0x1", "selinux"), 1);
        ck_assert_int_eq(si_cmdline_get_num("enforcing=2", "enforcing"), 1);
        /* an unparsable value changes nothing: the last valid one decides */
        ck_assert_int_eq(si_cmdline_get_num("enforcing=0 enforcing=yes", "enforcing"), 0);
        ck_assert_int_eq(si_cmdline_get_num("enforcing", "enforcing"), -1);
        ck_assert_int_eq(si_cmdline_get_num("\"enforcing=0\"", "enforcing"), 0);
        ck_assert_int_eq(si_cmdline_get_num("enforcing=\"0\"", "enforcing"), 0);
        /* optin kernel, enforcing config: enforcing=00 boots permissive */
        ck_assert_int_eq(si_cmdline_boot_mode("security=selinux enforcing=00",
                                              SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_PERMISSIVE);
        /* default kernel with bootparam: selinux=0x0 is off */
        ck_assert_int_eq(si_cmdline_boot_mode("selinux=0x0", SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT,
                                              true, SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
        /* choosing enforcing removes every spelling of 0; permissive every non-zero */
        assert_kcmd("security=selinux enforcing=00\n", &enf_optin, "security=selinux\n");
        assert_kcmd("security=selinux enforcing=0x0 selinux=00\n", &enf_optin,
                    "security=selinux\n");
        assert_kcmd("security=selinux enforcing=0x1\n", &perm_optin, "security=selinux\n");
        /* disabling on a default kernel: selinux=00 is already 0, nothing to add */
        assert_kcmd("quiet selinux=00\n", &dis_default, "=");
}
END_TEST

START_TEST(test_dashes_belong_to_init)
{
        _cleanup_free_ char *grub = NULL, *bls = NULL;

        /* after "--" nothing is the kernel's: not read, not edited, never added to */
        ck_assert_ptr_null(si_cmdline_get("quiet -- security=selinux", "security"));
        ck_assert_int_eq(si_cmdline_get_num("quiet -- enforcing=0", "enforcing"), -1);
        ck_assert_int_eq(si_cmdline_boot_mode("quiet -- security=selinux",
                                              SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
        assert_kcmd("quiet -- single\n", &enf_optin, "quiet security=selinux -- single\n");
        assert_kcmd("quiet -- security=selinux enforcing=0\n", &enf_optin,
                    "quiet security=selinux -- security=selinux enforcing=0\n");
        assert_kcmd("security=selinux -- x\n", &enf_optin, "=");
        /* "key=--" is no separator */
        assert_kcmd("foo=--\n", &enf_optin, "foo=-- security=selinux\n");

        const char *g = "GRUB_CMDLINE_LINUX=\"quiet -- init-arg\"\n";
        ck_assert_int_eq(si_grub_edit(g, strlen(g), &enf_optin, "quiet -- init-arg",
                                      "security=selinux", &grub, NULL, NULL),
                         0);
        ck_assert_ptr_nonnull(grub);
        ck_assert_str_eq(grub, "GRUB_CMDLINE_LINUX=\"quiet security=selinux -- init-arg\"\n");

        /* two options lines: the second is wholly after the first one's "--" */
        const char *b = "title x\noptions root=/dev/vda1 --\noptions single\n";
        ck_assert_int_eq(si_bls_edit(b, strlen(b), &enf_optin, &bls, NULL, NULL), 0);
        ck_assert_ptr_nonnull(bls);
        ck_assert_str_eq(bls,
                         "title x\noptions root=/dev/vda1 security=selinux --\noptions single\n");
}
END_TEST

START_TEST(test_quoted_arguments)
{
        _cleanup_free_ char *v = si_cmdline_get("a=\"x y\" security=\"selinux\"", "security");

        ck_assert_str_eq(v, "selinux");
        free(v);
        v = si_cmdline_get("foo=\"security=apparmor x\"", "security");
        ck_assert_ptr_null(v);
}
END_TEST

START_TEST(test_empty_root_refused)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new("", &ctx), -EINVAL);
        ck_assert_ptr_null(ctx);
        ck_assert_int_eq(seinstall_new(NULL, &ctx), 0);
        ck_assert_str_eq(seinstall_get_root(ctx), "/");
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_policy_type_names)
{
        static const char *const good[] = {"default",        "mls",     "targeted",
                                           "refpolicy-arch", "minimum", "my_policy.2"};
        static const char *const bad[] = {"",        "a\nb",     "x\nSELINUX=disabled",
                                          "a b",     "\x1b[31m", "..",
                                          ".hidden", "-x",       "a/b",
                                          "a\"b",    "a'b",      "t\t"};
        _cleanup_free_ char *out = NULL;

        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
                ck_assert_msg(si_policy_type_valid(good[i]), "'%s' refused", good[i]);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(!si_policy_type_valid(bad[i]), "'%s' accepted", bad[i]);
        ck_assert_int_eq(
            si_config_render(NULL, 0, SEINSTALL_MODE_ENFORCING, "x\nSELINUX=disabled", &out),
            -EINVAL);
        ck_assert_ptr_null(out);
}
END_TEST

START_TEST(test_boot_option_policy_with_newline)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *cmd = path_join(dir, "cmdline");
        struct seinstall_settings *s = NULL;
        struct seinstall_ctx *ctx = NULL;

        write_file(cmd, "quiet seinstall.policy=\"de\nSELINUX=disabled\"\n");
        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_lt(seinstall_settings_load_boot_options(s, ctx, cmd, NULL), 0);
        ck_assert_ptr_null(seinstall_settings_get_policy(s, NULL));
        seinstall_settings_unref(s);
        seinstall_unref(ctx);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("hostile-input");
        TCase *tc = tcase_create("hostile-input");

        tcase_set_timeout(tc, 10);
        tcase_add_test(tc, test_kernel_ulong);
        tcase_add_test(tc, test_numbers_as_the_kernel_reads_them);
        tcase_add_test(tc, test_dashes_belong_to_init);
        tcase_add_test(tc, test_quoted_arguments);
        tcase_add_test(tc, test_empty_root_refused);
        tcase_add_test(tc, test_policy_type_names);
        tcase_add_test(tc, test_boot_option_policy_with_newline);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
