/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of settings.c: precedence option > boot > profile > target > default, in any order. */
#include <check.h>

#include "seinstall-private.h"
#include "testutil.h"

static struct seinstall_settings *s;

static void setup(void)
{
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
}

static void teardown(void)
{
        s = seinstall_settings_unref(s);
}

START_TEST(test_defaults)
{
        enum seinstall_source src = SEINSTALL_SOURCE_BOOT;

        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_DEFAULT);
        ck_assert_ptr_null(seinstall_settings_get_policy(s, NULL));
        ck_assert(!seinstall_settings_get_unsupported_warn(s, &src));
        ck_assert_int_eq(src, SEINSTALL_SOURCE_DEFAULT);
}
END_TEST

START_TEST(test_precedence_any_order)
{
        enum seinstall_source src;

        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_DISABLED, SEINSTALL_SOURCE_BOOT), 1);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_PROFILE), 0);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_TARGET), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_BOOT);

        /* The same source may change its mind: the last boot option wins. */
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_BOOT), 1);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);

        /* An option given to the command (--mode) outranks the boot options, in any order. */
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_OPTION), 1);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_DISABLED, SEINSTALL_SOURCE_BOOT), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_OPTION);

        ck_assert_int_eq(seinstall_settings_set_policy(s, "mls", SEINSTALL_SOURCE_TARGET), 1);
        ck_assert_int_eq(seinstall_settings_set_policy(s, "default", SEINSTALL_SOURCE_PROFILE), 1);
        ck_assert_int_eq(seinstall_settings_set_policy(s, "mls", SEINSTALL_SOURCE_TARGET), 0);
        ck_assert_str_eq(seinstall_settings_get_policy(s, &src), "default");
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);

        ck_assert_int_eq(seinstall_settings_set_unsupported_warn(s, true, SEINSTALL_SOURCE_BOOT),
                         1);
        ck_assert_int_eq(
            seinstall_settings_set_unsupported_warn(s, false, SEINSTALL_SOURCE_PROFILE), 0);
        ck_assert(seinstall_settings_get_unsupported_warn(s, NULL));
}
END_TEST

START_TEST(test_invalid)
{
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_INVALID, SEINSTALL_SOURCE_BOOT), -EINVAL);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_HOST),
            -EINVAL);
        ck_assert_int_eq(seinstall_settings_set_policy(s, "../etc", SEINSTALL_SOURCE_BOOT),
                         -EINVAL);
        ck_assert_int_eq(seinstall_settings_set_policy(s, "..", SEINSTALL_SOURCE_BOOT), -EINVAL);
        ck_assert_int_eq(seinstall_settings_set_policy(s, "", SEINSTALL_SOURCE_BOOT), -EINVAL);
        ck_assert_ptr_null(seinstall_settings_get_policy(s, NULL));
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
}
END_TEST

START_TEST(test_names)
{
        ck_assert_str_eq(seinstall_labeling_to_string(SEINSTALL_LABELING_MOUNT_CONTEXT),
                         "mount-context");
        ck_assert_str_eq(seinstall_verdict_to_string(SEINSTALL_VERDICT_REFUSE), "refuse");
        ck_assert_ptr_null(seinstall_labeling_to_string((enum seinstall_labeling) 99));
        ck_assert_ptr_null(seinstall_verdict_to_string((enum seinstall_verdict) - 1));
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("settings");
        TCase *tc = tcase_create("precedence");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_defaults);
        tcase_add_test(tc, test_precedence_any_order);
        tcase_add_test(tc, test_invalid);
        tcase_add_test(tc, test_names);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
