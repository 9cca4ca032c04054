/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of check-classify.c and check.c: mount roles, the verdict table (docs/design.md) for
 * every labeling class x mount role x mode, classification under Debian's real default policy and
 * the built-in table, mount options, unsupported=warn, and the JSON document. */
#include <check.h>
#include <dirent.h>

#include "seinstall-private.h"
#include "check-stage.h"
#include "policy.h"
#include "testutil.h"

#define HOST_POLICY "/etc/selinux/default/policy/policy.33"

START_TEST(test_roles)
{
        ck_assert_int_eq(si_mount_role("/"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/usr"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/var/lib/mysql"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/home"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/boot"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/srv"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/root"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/opt"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/etc"), SI_ROLE_SYSTEM);
        ck_assert_int_eq(si_mount_role("/boot/efi"), SI_ROLE_EFI);
        ck_assert_int_eq(si_mount_role("/efi"), SI_ROLE_EFI);
        ck_assert_int_eq(si_mount_role("/tmp"), SI_ROLE_VOLATILE);
        ck_assert_int_eq(si_mount_role("/run/user/1000"), SI_ROLE_VOLATILE);
        ck_assert_int_eq(si_mount_role("/dev/shm"), SI_ROLE_VOLATILE);
        /* Prefixes of names are not parents. */
        ck_assert_int_eq(si_mount_role("/homework"), SI_ROLE_OTHER);
        ck_assert_int_eq(si_mount_role("/tmpdata"), SI_ROLE_OTHER);
        ck_assert_int_eq(si_mount_role("/efi2"), SI_ROLE_OTHER);
        ck_assert_int_eq(si_mount_role("/mnt/usb"), SI_ROLE_OTHER);
        ck_assert_int_eq(si_mount_role("/proc"), SI_ROLE_OTHER);
}
END_TEST

/* Expected verdicts: one row per role, one group of three (enforcing, permissive, disabled) per
 * labeling class in enum order (xattr, trans, genfs, mount-context, none).
 * o ok, n note, w warn, r refuse. */
static const char *const verdict_table[] = {
    [SI_ROLE_SYSTEM] = "ooo rwn rwn rwn rwn",
    [SI_ROLE_EFI] = "ooo rwn ooo ooo rwn",
    [SI_ROLE_VOLATILE] = "ooo ooo rwn rwn rwn",
    [SI_ROLE_OTHER] = "ooo ooo ooo ooo wwn",
};

START_TEST(test_verdict_table)
{
        static const enum seinstall_mode modes[] = {
            SEINSTALL_MODE_ENFORCING, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_MODE_DISABLED};
        unsigned checked = 0;

        for (int role = SI_ROLE_SYSTEM; role <= SI_ROLE_OTHER; role++)
                for (int l = SEINSTALL_LABELING_XATTR; l <= SEINSTALL_LABELING_NONE; l++)
                        for (int m = 0; m < 3; m++) {
                                char want = verdict_table[role][l * 4 + m];
                                enum seinstall_verdict v = si_verdict_rule(
                                    (enum seinstall_labeling) l, (enum si_role) role, modes[m]);
                                char got = "onwr"[v];
                                ck_assert_msg(got == want,
                                              "role %d labeling %s mode %s: got %c want %c", role,
                                              seinstall_labeling_to_string(l),
                                              seinstall_mode_to_string(modes[m]), got, want);
                                checked++;
                        }
        ck_assert_int_eq(checked, 4 * 5 * 3);
}
END_TEST

START_TEST(test_mount_option)
{
        _cleanup_free_ char *v = NULL, *w = NULL, *x = NULL;

        ck_assert_int_eq(si_mount_option("rw,fscontext=system_u:object_r:fs_t:s0", "context", &v),
                         0);
        ck_assert_int_eq(
            si_mount_option("rw,context=\"system_u:object_r:tmp_t:s0:c0,c1\",ro", "context", &v),
            1);
        ck_assert_str_eq(v, "system_u:object_r:tmp_t:s0:c0,c1");
        ck_assert_int_eq(si_mount_option("defcontext=a:b:c", "defcontext", &w), 1);
        ck_assert_str_eq(w, "a:b:c");
        ck_assert_int_eq(si_mount_option(NULL, "context", &x), 0);
}
END_TEST

static struct si_policy *host_policy(struct seinstall_ctx **ctx)
{
        struct si_policy *p = NULL;

        ck_assert_int_eq(seinstall_new("/", ctx), 0);
        ck_assert_int_eq(
            si_policy_load_file(*ctx, HOST_POLICY, "default", SEINSTALL_SOURCE_HOST, &p), 0);
        return p;
}

/* Classify a planned mount (no probe) or a probed one under @p in @mode. */
static void judge(const struct si_policy *p, enum seinstall_mode mode, const char *mp,
                  const char *fstype, const char *options, enum si_probe probe, struct si_mount *m)
{
        *m = (struct si_mount){.mountpoint = strdup(mp),
                               .source = strdup("/dev/vda2"),
                               .fstype = strdup(fstype),
                               .options = options ? strdup(options) : NULL,
                               .probe = probe,
                               .probe_errno = probe == SI_PROBE_NO ? EOPNOTSUPP : 0};
        ck_assert_int_eq(si_fscheck_mount(NULL, p, mode, m), 0);
}

static void check_seed_case(const struct si_policy *p)
{
        struct si_mount m;

        /* The seed: ReiserFS / under Debian's default policy, kernel able to store xattrs. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/", "reiserfs", NULL, SI_PROBE_YES, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_GENFS);
        ck_assert_str_eq(m.label, "system_u:object_r:nfs_t:s0");
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
        ck_assert_ptr_nonnull(strstr(m.reason, "/dev/vda2"));
        ck_assert_ptr_nonnull(strstr(m.reason, "reiserfs"));
        ck_assert_ptr_nonnull(strstr(m.reason, "even though the kernel can store"));
        ck_assert_ptr_nonnull(strstr(m.fix, "ext4, xfs or btrfs"));
        ck_assert_ptr_nonnull(strstr(m.fix, "for /"));
        si_mount_clear(&m);

        judge(p, SEINSTALL_MODE_PERMISSIVE, "/", "reiserfs", NULL, SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_WARN);
        ck_assert_ptr_null(strstr(m.reason, "even though"));
        ck_assert_ptr_nonnull(strstr(m.reason, "never be made enforcing"));
        si_mount_clear(&m);

        judge(p, SEINSTALL_MODE_ENFORCING, "/boot/efi", "vfat", NULL, SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_GENFS);
        ck_assert_str_eq(m.label, "system_u:object_r:dosfs_t:s0");
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_OK);
        ck_assert_str_eq(m.fix, "");
        si_mount_clear(&m);

        judge(p, SEINSTALL_MODE_ENFORCING, "/", "ext4", NULL, SI_PROBE_YES, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_XATTR);
        ck_assert_ptr_null(m.label);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_OK);
        si_mount_clear(&m);

        /* xattr in the policy, but the kernel cannot store it on this mount. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/home", "xfs", NULL, SI_PROBE_NO, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_NONE);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
        ck_assert_ptr_nonnull(strstr(m.reason, "kernel cannot store"));
        si_mount_clear(&m);

        static const char *const unnamed[] = {"nilfs2", "exfat"};
        for (size_t i = 0; i < ELEMENTSOF(unnamed); i++) {
                judge(p, SEINSTALL_MODE_ENFORCING, "/srv", unnamed[i], NULL, SI_PROBE_NOT_RUN, &m);
                ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_NONE);
                ck_assert_str_eq(m.label, "system_u:object_r:unlabeled_t:s0");
                ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
                ck_assert_ptr_nonnull(strstr(m.reason, "does not name"));
                si_mount_clear(&m);
        }

        judge(p, SEINSTALL_MODE_ENFORCING, "/tmp", "tmpfs", NULL, SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_TRANS);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_OK);
        si_mount_clear(&m);
        judge(p, SEINSTALL_MODE_ENFORCING, "/var", "tmpfs", NULL, SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
        si_mount_clear(&m);
}

START_TEST(test_classify_real_policy)
{
        struct seinstall_ctx *ctx = NULL;
        struct si_policy *p = host_policy(&ctx);

        check_seed_case(p);
        si_policy_free(p);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_classify_builtin)
{
        struct si_policy *p = NULL;

        ck_assert_int_eq(si_policy_load_builtin("default", &p), 0);
        ck_assert_int_eq(si_policy_source(p), SEINSTALL_SOURCE_BUILTIN);
        check_seed_case(p);
        si_policy_free(p);
        ck_assert_int_eq(si_policy_load_builtin("mls", &p), -ENOENT);
}
END_TEST

START_TEST(test_mount_context)
{
        struct seinstall_ctx *ctx = NULL;
        struct si_policy *p = host_policy(&ctx);
        struct si_mount m;

        /* context= gives one label: fine for an EFI partition, not for /home. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/boot/efi", "vfat",
              "umask=077,context=system_u:object_r:dosfs_t:s0", SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_MOUNT_CONTEXT);
        ck_assert_str_eq(m.label, "system_u:object_r:dosfs_t:s0");
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_OK);
        si_mount_clear(&m);

        judge(p, SEINSTALL_MODE_ENFORCING, "/home", "ext4",
              "context=system_u:object_r:user_home_t:s0", SI_PROBE_YES, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_MOUNT_CONTEXT);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
        ck_assert_ptr_nonnull(strstr(m.fix, "remove context="));
        si_mount_clear(&m);

        /* A context the policy does not define leaves the files unlabeled. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/mnt/data", "ext4",
              "context=system_u:object_r:no_such_type_t:s0", SI_PROBE_YES, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_NONE);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_WARN);
        ck_assert_ptr_nonnull(strstr(m.reason, "does not define"));
        si_mount_clear(&m);

        /* defcontext= where files have no labels of their own: the kernel refuses the mount. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/boot/efi", "vfat",
              "defcontext=system_u:object_r:dosfs_t:s0", SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_NONE);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_REFUSE);
        ck_assert_ptr_nonnull(strstr(m.reason, "defcontext="));
        ck_assert_ptr_nonnull(strstr(m.fix, "remove defcontext= from the options of /boot/efi"));
        si_mount_clear(&m);
        judge(p, SEINSTALL_MODE_PERMISSIVE, "/home", "xfs",
              "context=system_u:object_r:user_home_t:s0,defcontext=system_u:object_r:default_t:s0",
              SI_PROBE_NOT_RUN, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_NONE);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_WARN);
        ck_assert_str_eq(m.label, "system_u:object_r:user_home_t:s0");
        ck_assert_ptr_nonnull(strstr(m.fix, "remove context=system_u:object_r:user_home_t:s0"));
        si_mount_clear(&m);

        /* fscontext=, defcontext=, rootcontext= keep per-file labels on an xattr filesystem. */
        judge(p, SEINSTALL_MODE_ENFORCING, "/", "ext4",
              "fscontext=system_u:object_r:fs_t:s0,defcontext=system_u:object_r:default_t:s0,"
              "rootcontext=system_u:object_r:root_t:s0",
              SI_PROBE_YES, &m);
        ck_assert_int_eq(m.labeling, SEINSTALL_LABELING_XATTR);
        ck_assert_int_eq(m.verdict, SEINSTALL_VERDICT_OK);
        si_mount_clear(&m);

        si_policy_free(p);
        seinstall_unref(ctx);
}
END_TEST

static unsigned count_entries(const char *dir)
{
        DIR *d = opendir(dir);
        unsigned n = 0;

        ck_assert_ptr_nonnull(d);
        while (readdir(d))
                n++;
        closedir(d);
        return n;
}

START_TEST(test_probe)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        int err = -1;

        /* Whatever $TMPDIR is on, the probe answers and leaves nothing; the positive answer
         * is asserted on real ext4, xfs and btrfs mounts in check-mounted.sh. */
        enum si_probe p = si_probe_xattr(dir, &err);
        if (p == SI_PROBE_YES)
                ck_assert_int_eq(err, 0);
        else
                ck_assert_msg(p == SI_PROBE_NO || p == SI_PROBE_UNKNOWN, "probe %d", p);
        /* "." and ".." only: the scratch file never had a name, or lost it at once. */
        ck_assert_uint_eq(count_entries(dir), 2);

        ck_assert_int_eq(si_probe_xattr("/nonexistent/seinstall", &err), SI_PROBE_UNKNOWN);
        ck_assert_int_eq(err, ENOENT);
        /* procfs: nothing can be created there, and it keeps no security xattrs. */
        ck_assert_int_ne(si_probe_xattr("/proc/self", &err), SI_PROBE_YES);
}
END_TEST

/* A plan in a fresh target directory: check_run with settings, JSON shape. */
static struct seinstall_check_result *run_plan(const char *plan_text, enum seinstall_mode mode,
                                               bool unsupported_warn, char **root_out)
{
        char *root = make_tmpdir();
        _cleanup_free_ char *plan = path_join(root, "plan.fstab");
        struct seinstall_settings *s = NULL;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_check_result *c = NULL;

        write_file(plan, plan_text);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_set_mode(s, mode, SEINSTALL_SOURCE_PROFILE), 1);
        if (unsupported_warn)
                ck_assert_int_eq(
                    seinstall_settings_set_unsupported_warn(s, true, SEINSTALL_SOURCE_BOOT), 1);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(check_with_plan(ctx, s, plan, &c), 0);
        seinstall_unref(ctx);
        seinstall_settings_unref(s);
        *root_out = root;
        return c;
}

static const char seed_plan[] = "# the seed's layout\n"
                                "/dev/vda2 / reiserfs defaults 0 1\n"
                                "/dev/vda1 /boot/efi vfat umask=0077 0 2\n"
                                "/dev/vda3 /home xfs defaults 0 2\n";

START_TEST(test_check_run_plan)
{
        _cleanup_(tmpdir_removep) char *root = NULL;
        struct seinstall_check_result *c =
            run_plan(seed_plan, SEINSTALL_MODE_ENFORCING, false, &root);
        enum seinstall_source src;

        ck_assert_int_eq(seinstall_check_result_get_verdict(c), SEINSTALL_VERDICT_REFUSE);
        ck_assert_int_eq(seinstall_check_result_get_mode(c, &src), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert(!seinstall_check_result_get_mode_lowered(c));
        /* The empty target has no policy: the host's is used and reported. */
        ck_assert_str_eq(seinstall_check_result_get_policy(c, &src), "default");
        ck_assert_int_eq(src, SEINSTALL_SOURCE_HOST);
        ck_assert_int_eq(seinstall_check_result_get_policy_type_source(c),
                         SEINSTALL_SOURCE_DEFAULT);
        ck_assert_int_eq(seinstall_check_result_get_n_mounts(c), 3);
        ck_assert_str_eq(seinstall_check_result_get_mount_mountpoint(c, 0), "/");
        ck_assert_str_eq(seinstall_check_result_get_mount_source(c, 0), "/dev/vda2");
        ck_assert_str_eq(seinstall_check_result_get_mount_fstype(c, 0), "reiserfs");
        ck_assert_int_eq(seinstall_check_result_get_mount_labeling(c, 0), SEINSTALL_LABELING_GENFS);
        ck_assert_str_eq(seinstall_check_result_get_mount_label(c, 0),
                         "system_u:object_r:nfs_t:s0");
        ck_assert_int_eq(seinstall_check_result_get_mount_verdict(c, 0), SEINSTALL_VERDICT_REFUSE);
        ck_assert_int_eq(seinstall_check_result_get_mount_verdict(c, 1), SEINSTALL_VERDICT_OK);
        ck_assert_int_eq(seinstall_check_result_get_mount_verdict(c, 2), SEINSTALL_VERDICT_OK);
        ck_assert_ptr_null(seinstall_check_result_get_mount_mountpoint(c, 3));
        ck_assert_int_eq(seinstall_check_result_get_mount_verdict(c, 3), SEINSTALL_VERDICT_REFUSE);
        seinstall_check_result_unref(c);
}
END_TEST

START_TEST(test_check_unsupported_warn)
{
        _cleanup_(tmpdir_removep) char *root = NULL;
        struct seinstall_check_result *c =
            run_plan(seed_plan, SEINSTALL_MODE_ENFORCING, true, &root);
        enum seinstall_source src;

        ck_assert_int_eq(seinstall_check_result_get_verdict(c), SEINSTALL_VERDICT_WARN);
        ck_assert_int_eq(seinstall_check_result_get_mode(c, &src), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_BOOT);
        ck_assert_int_eq(seinstall_check_result_get_requested_mode(c), SEINSTALL_MODE_ENFORCING);
        ck_assert(seinstall_check_result_get_mode_lowered(c));
        ck_assert_int_eq(seinstall_check_result_get_mount_verdict(c, 0), SEINSTALL_VERDICT_WARN);
        ck_assert_ptr_nonnull(strstr(seinstall_check_result_get_mount_reason(c, 0),
                                     "seinstall.unsupported=warn accepts it and lowers the mode "
                                     "from enforcing to permissive"));
        seinstall_check_result_unref(c);

        /* Nothing refused: unsupported=warn changes nothing. */
        _cleanup_(tmpdir_removep) char *root2 = NULL;
        c = run_plan("/dev/vda2 / ext4 defaults\n", SEINSTALL_MODE_ENFORCING, true, &root2);
        ck_assert_int_eq(seinstall_check_result_get_mode(c, NULL), SEINSTALL_MODE_ENFORCING);
        ck_assert(!seinstall_check_result_get_mode_lowered(c));
        seinstall_check_result_unref(c);
}
END_TEST

START_TEST(test_check_json)
{
        _cleanup_(tmpdir_removep) char *root = NULL;
        struct seinstall_check_result *c =
            run_plan(seed_plan, SEINSTALL_MODE_DISABLED, false, &root);
        _cleanup_free_ char *json = NULL;

        ck_assert_int_eq(seinstall_check_result_get_verdict(c), SEINSTALL_VERDICT_NOTE);
        ck_assert_int_eq(seinstall_check_result_to_json(c, &json), 0);
        ck_assert_ptr_nonnull(strstr(json, "{\"mode\": \"disabled\", \"mode_source\": \"profile\", "
                                           "\"policy\": \"default\", \"policy_source\": \"host\""));
        ck_assert_ptr_nonnull(strstr(json, "\"verdict\": \"note\""));
        ck_assert_ptr_nonnull(strstr(json, "\"mounts\": [\n  {\"mountpoint\": \"/\", "
                                           "\"source\": \"/dev/vda2\", \"fstype\": \"reiserfs\""));
        ck_assert_ptr_nonnull(strstr(json,
                                     "\"labeling\": \"genfs\", \"label\": "
                                     "\"system_u:object_r:nfs_t:s0\", \"verdict\": \"note\""));
        ck_assert_ptr_nonnull(strstr(json, "\"labeling\": \"xattr\", \"label\": null"));
        ck_assert_ptr_nonnull(strstr(json, "\"plan_line\": 2"));
        seinstall_check_result_unref(c);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("fscheck");
        TCase *rules = tcase_create("rules");
        TCase *classify = tcase_create("classify");
        TCase *classify_real = tcase_create("classify-real");
        TCase *run = tcase_create("run");

        tcase_add_test(rules, test_roles);
        tcase_add_test(rules, test_verdict_table);
        tcase_add_test(rules, test_mount_option);
        tcase_add_test(classify_real, test_classify_real_policy);
        tcase_add_test(classify, test_classify_builtin);
        tcase_add_test(classify_real, test_mount_context);
        tcase_add_test(classify, test_probe);
        tcase_add_test(run, test_check_run_plan);
        tcase_add_test(run, test_check_unsupported_warn);
        tcase_add_test(run, test_check_json);
        tcase_set_timeout(classify, 30);
        tcase_set_timeout(classify_real, 30);
        tcase_set_timeout(run, 30);
        suite_add_tcase(s, rules);
        suite_add_tcase(s, classify);
        suite_add_policy_tcase(s, classify_real, "classify-real");
        suite_add_policy_tcase(s, run, "run");
        return run_suite(s);
}
