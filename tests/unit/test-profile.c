/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of profile.c and bootopts.c: pykickstart's grammar of the `selinux` command, the
 * %addon org_seinstall section, sections skipped, errors with file and line, the installer's
 * boot options, and the precedence table boot > profile > target > default. */
#include <check.h>
#include <sys/stat.h>

#include "configure.h"
#include "testutil.h"

static struct seinstall_ctx *ctx;
static struct seinstall_settings *s;

static void setup(void)
{
        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
}

static void teardown(void)
{
        s = seinstall_settings_unref(s);
        ctx = seinstall_unref(ctx);
}

static int ks(const char *text)
{
        return si_profile_parse(ctx, "test.ks", text, strlen(text), s);
}

/* Parse @text into fresh settings and return the mode it sets (INVALID: left at default). */
static enum seinstall_mode ks_mode(const char *text)
{
        enum seinstall_source src;
        enum seinstall_mode m;

        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_msg(ks(text) == 0, "%s: %s", text, seinstall_last_error(ctx));
        m = seinstall_settings_get_mode(s, &src);
        return src == SEINSTALL_SOURCE_PROFILE ? m : SEINSTALL_MODE_INVALID;
}

static void ks_bad(const char *text, const char *where)
{
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_msg(ks(text) == -EBADMSG, "accepted: %s", text);
        ck_assert_msg(strstr(seinstall_last_error(ctx), where), "'%s' not in '%s'", where,
                      seinstall_last_error(ctx));
        /* nothing of a bad profile is applied */
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
}

START_TEST(test_selinux_command)
{
        ck_assert_int_eq(ks_mode("selinux --enforcing\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux --permissive\n"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        /* bare selinux chooses nothing (pykickstart leaves it None) */
        ck_assert_int_eq(ks_mode("selinux\n"), SEINSTALL_MODE_INVALID);
        /* argparse prefixes */
        ck_assert_int_eq(ks_mode("selinux --perm\n"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --e\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux --dis\n"), SEINSTALL_MODE_DISABLED);
        /* two options on one line: the last wins */
        ck_assert_int_eq(ks_mode("selinux --enforcing --disabled\n"), SEINSTALL_MODE_DISABLED);
        /* the command repeated: the later one replaces the earlier one */
        ck_assert_int_eq(ks_mode("selinux --disabled\nselinux --permissive\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --disabled\nselinux\n"), SEINSTALL_MODE_INVALID);
        /* comments, CRLF, blanks, quotes */
        ck_assert_int_eq(ks_mode("# a profile\r\n  selinux --permissive   # trial run\r\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --enforcing#x\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux '--permissive'\n"), SEINSTALL_MODE_PERMISSIVE);
}
END_TEST

START_TEST(test_selinux_errors)
{
        ks_bad("selinux --Enforcing\n", "test.ks:1: selinux: unknown option '--Enforcing'");
        ks_bad("\n\nselinux --enforce-it\n", "test.ks:3:");
        ks_bad("selinux --disabled=1\n", "test.ks:1: selinux: option --disabled takes no value");
        ks_bad("selinux --perm=yes\n", "takes no value");
        ks_bad("selinux enforcing\n", "test.ks:1: selinux does not take arguments: 'enforcing'");
        ks_bad("selinux -e\n", "does not take arguments");
        ks_bad("selinux --\n--x\nselinux -- --enforcing\n", "test.ks:3:");
        /* "--" only ends the options (argparse): alone it is a bare selinux */
        ck_assert_int_eq(ks_mode("selinux --permissive\nselinux --\n"), SEINSTALL_MODE_INVALID);
        ks_bad("selinux \"--enforcing\n", "test.ks:1: no closing quotation");
}
END_TEST

START_TEST(test_sections)
{
        enum seinstall_source src;

        /* selinux lines in %pre, %post, %packages and other addons are not commands */
        ck_assert_int_eq(ks_mode("selinux --permissive\n%pre\nselinux --disabled\necho \"it's\n"
                                 "%end\n%post --nochroot\nselinux --enforcing\n%end\n"
                                 "%packages\nselinux\n%end\n%addon com_redhat_kdump --enable\n"
                                 "selinux --disabled\n%end\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        /* other commands are skipped, even with odd quoting */
        ck_assert_int_eq(ks_mode("rootpw --iscrypted $6$it's\nlang en_US\nselinux --disabled\n"
                                 "%include /tmp/part.ks\n"),
                         SEINSTALL_MODE_DISABLED);
        ks_bad("selinux --disabled\n%post\necho hi\n", "test.ks:2: section %post has no %end");
        ks_bad("%addon org_seinstall\n", "test.ks:1: section %addon has no %end");
        ck_assert_int_eq(si_profile_parse(ctx, "test.ks", "x\ny\0b\n", 6, s), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "test.ks:2: not a text file"));

        /* our addon */
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(ks("%addon org_seinstall --policy=mls --unsupported warn "
                            "--relabel=firstboot # comment\n%end\n"),
                         0);
        ck_assert_str_eq(seinstall_settings_get_policy(s, &src), "mls");
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert(seinstall_settings_get_unsupported_warn(s, &src));
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert_int_eq(seinstall_settings_get_relabel_when(s, &src),
                         SEINSTALL_RELABEL_WHEN_FIRSTBOOT);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ks_bad("%addon org_seinstall --polisy=mls\n%end\n", "test.ks:1: %addon org_seinstall: "
                                                            "unknown option '--polisy=mls'");
        ks_bad("%addon org_seinstall --unsupported=maybe\n%end\n", "--unsupported=maybe");
        ks_bad("%addon org_seinstall --relabel=never\n%end\n", "--relabel=never");
        ks_bad("%addon org_seinstall --policy=../x\n%end\n", "not a policy type");
        ks_bad("%addon org_seinstall --policy\n%end\n", "needs a value");
        ks_bad("%addon org_seinstall\n--policy=mls\n%end\n", "test.ks:2:");
}
END_TEST

static int boot(const char *cmdline, char **ret_profile)
{
        return si_bootopts_parse(ctx, "cmdline", cmdline, s, ret_profile);
}

START_TEST(test_boot_options)
{
        _cleanup_free_ char *profile = NULL;
        enum seinstall_source src;

        ck_assert_int_eq(boot("BOOT_IMAGE=/vmlinuz quiet inst.ks=file:/run/install/ks.cfg "
                              "enforcing=0",
                              &profile),
                         0);
        ck_assert_str_eq(profile, "/run/install/ks.cfg");
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_BOOT);
        /* off wins over permissive whatever the order; each way of saying off */
        ck_assert_int_eq(boot("enforcing=0 selinux=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(boot("enforcing=1", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(boot("noselinux enforcing=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(boot("inst.selinux=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* seinstall.mode= is the explicit choice */
        ck_assert_int_eq(boot("selinux=0 seinstall.mode=permissive seinstall.policy=mls "
                              "seinstall.unsupported=warn",
                              NULL),
                         0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_str_eq(seinstall_settings_get_policy(s, NULL), "mls");
        ck_assert(seinstall_settings_get_unsupported_warn(s, NULL));
        /* quoted arguments are one argument */
        ck_assert_int_eq(boot("foo=\"a seinstall.mode=disabled\"", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        /* network profiles are not read: ignored with a warning */
        free(profile);
        profile = NULL;
        ck_assert_int_eq(boot("inst.ks=http://x/ks.cfg", &profile), 0);
        ck_assert_ptr_null(profile);
        ck_assert_int_eq(boot("seinstall.mode=enforce", NULL), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "seinstall.mode=enforce"));
        ck_assert_int_eq(boot("seinstall.unsupported=yes", NULL), -EBADMSG);
        ck_assert_int_eq(boot("seinstall.policy=a/b", NULL), -EBADMSG);
}
END_TEST

/* The precedence table: each row sets some sources, the result names the winner. */
START_TEST(test_precedence_table)
{
        static const struct {
                const char *boot, *profile, *target;
                enum seinstall_mode mode;
                enum seinstall_source source;
        } rows[] = {
            {"", "", NULL, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_DEFAULT},
            {"", "", "SELINUX=permissive\n", SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_TARGET},
            {"", "selinux --disabled\n", "SELINUX=permissive\n", SEINSTALL_MODE_DISABLED,
             SEINSTALL_SOURCE_PROFILE},
            {"", "selinux\n", "SELINUX=permissive\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_TARGET},
            {"enforcing=0", "selinux --disabled\n", "SELINUX=disabled\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_BOOT},
            {"selinux=0", "selinux --enforcing\n", NULL, SEINSTALL_MODE_DISABLED,
             SEINSTALL_SOURCE_BOOT},
            {"quiet", "selinux --perm\n", "SELINUX=disabled\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_PROFILE},
            {"seinstall.mode=enforcing", "selinux --disabled\n", "SELINUX=permissive\n",
             SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_BOOT},
        };
        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
                _cleanup_free_ char *d1 = path_join(dir, "etc"),
                                    *d2 = path_join(dir, "etc/selinux"),
                                    *cfg = path_join(dir, "etc/selinux/config");
                struct seinstall_ctx *t = NULL;
                enum seinstall_source src;

                s = seinstall_settings_unref(s);
                ck_assert_int_eq(seinstall_settings_new(&s), 0);
                mkdir(d1, 0755);
                mkdir(d2, 0755);
                if (rows[i].target)
                        write_file(cfg, rows[i].target);
                ck_assert_int_eq(seinstall_new(dir, &t), 0);
                /* applied in the "wrong" order on purpose: the settings rank them */
                ck_assert_int_eq(seinstall_settings_load_target(s, t), 0);
                ck_assert_int_eq(boot(rows[i].boot, NULL), 0);
                ck_assert_int_eq(ks(rows[i].profile), 0);
                ck_assert_msg(seinstall_settings_get_mode(s, &src) == rows[i].mode &&
                                  src == rows[i].source,
                              "row %zu: got %s from %s", i,
                              seinstall_mode_to_string(seinstall_settings_get_mode(s, NULL)),
                              seinstall_source_to_string(src));
                seinstall_unref(t);
        }
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("profile");
        TCase *tc = tcase_create("profile");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_selinux_command);
        tcase_add_test(tc, test_selinux_errors);
        tcase_add_test(tc, test_sections);
        tcase_add_test(tc, test_boot_options);
        tcase_add_test(tc, test_precedence_table);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
