/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of policy.c: reading Debian's real default policy with libsepol (fs_use_*,
 * genfscon, context validity), the built-in table against it, finding the newest policy.N in
 * a target, and the fallback order target > host > builtin. */
#include <check.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "policy.h"
#include "testutil.h"

#define HOST_POLICY "/etc/selinux/default/policy/policy.33"

static struct seinstall_ctx *ctx_on(const char *root)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        return ctx;
}

START_TEST(test_real_policy_statements)
{
        struct seinstall_ctx *ctx = ctx_on("/");
        struct si_policy *p = NULL;
        _cleanup_free_ char *c1 = NULL, *c2 = NULL, *c3 = NULL, *c4 = NULL, *c5 = NULL;
        _cleanup_free_ char *unl = NULL;
        enum si_fs_use use;

        ck_assert_int_eq(
            si_policy_load_file(ctx, HOST_POLICY, "default", SEINSTALL_SOURCE_HOST, &p), 0);
        ck_assert_ptr_nonnull(si_policy_sepol(p));
        ck_assert_str_eq(si_policy_path(p), HOST_POLICY);

        ck_assert_int_eq(si_policy_fs_use(p, "ext4", &use, &c1), 1);
        ck_assert_int_eq(use, SI_FS_USE_XATTR);
        ck_assert_str_eq(c1, "system_u:object_r:fs_t:s0");
        ck_assert_int_eq(si_policy_fs_use(p, "xfs", &use, NULL), 1);
        ck_assert_int_eq(use, SI_FS_USE_XATTR);
        ck_assert_int_eq(si_policy_fs_use(p, "btrfs", &use, NULL), 1);
        ck_assert_int_eq(use, SI_FS_USE_XATTR);
        ck_assert_int_eq(si_policy_fs_use(p, "tmpfs", &use, &c2), 1);
        ck_assert_int_eq(use, SI_FS_USE_TRANS);
        ck_assert_str_eq(c2, "system_u:object_r:tmpfs_t:s0");
        ck_assert_int_eq(si_policy_fs_use(p, "sockfs", &use, NULL), 1);
        ck_assert_int_eq(use, SI_FS_USE_TASK);
        ck_assert_int_eq(si_policy_fs_use(p, "reiserfs", &use, NULL), 0);
        ck_assert_int_eq(si_policy_fs_use(p, "nilfs2", &use, NULL), 0);

        ck_assert_int_eq(si_policy_genfs(p, "reiserfs", "/", &c3), 1);
        ck_assert_str_eq(c3, "system_u:object_r:nfs_t:s0");
        ck_assert_int_eq(si_policy_genfs(p, "vfat", "/", &c4), 1);
        ck_assert_str_eq(c4, "system_u:object_r:dosfs_t:s0");
        /* Longest prefix wins, as in the kernel. */
        ck_assert_int_eq(si_policy_genfs(p, "proc", "/sys/kernel/modprobe", &c5), 1);
        ck_assert_str_eq(c5, "system_u:object_r:sysctl_modprobe_t:s0");
        ck_assert_int_eq(si_policy_genfs(p, "nilfs2", "/", &c5), 0);
        ck_assert_int_eq(si_policy_genfs(p, "exfat", "/", &c5), 0);

        unl = si_policy_unlabeled_context(p);
        ck_assert_str_eq(unl, "system_u:object_r:unlabeled_t:s0");

        ck_assert_int_eq(si_policy_context_valid(p, "system_u:object_r:etc_t:s0"), 1);
        ck_assert_int_eq(si_policy_context_valid(p, "system_u:object_r:no_such_type_t:s0"), 0);
        ck_assert_int_eq(si_policy_context_valid(p, "nobody_u:object_r:etc_t:s0"), 0);
        ck_assert_int_eq(si_policy_context_valid(p, "system_u:object_r:etc_t:s99"), 0);
        ck_assert_int_eq(si_policy_context_valid(p, "garbage"), 0);
        ck_assert_int_eq(si_policy_context_valid(p, ""), 0);
        ck_assert_int_eq(si_policy_context_valid(p, NULL), 0);

        si_policy_free(p);
        seinstall_unref(ctx);
}
END_TEST

/* The built-in table answers as the real policy does for every filesystem it names and for a
 * few it does not: a guard against the two drifting apart. */
START_TEST(test_builtin_matches_real)
{
        static const char *const fstypes[] = {
            "ext2",     "ext3",  "ext4",  "xfs",    "btrfs",    "f2fs",   "jfs",     "overlay",
            "zfs",      "tmpfs", "ramfs", "devpts", "devtmpfs", "mqueue", "pipefs",  "sockfs",
            "reiserfs", "vfat",  "msdos", "ntfs",   "iso9660",  "proc",   "sysfs",   "cgroup2",
            "nfs",      "nfs4",  "cifs",  "fuse",   "nilfs2",   "exfat",  "bcachefs"};
        struct seinstall_ctx *ctx = ctx_on("/");
        struct si_policy *real = NULL, *builtin = NULL;

        ck_assert_int_eq(
            si_policy_load_file(ctx, HOST_POLICY, "default", SEINSTALL_SOURCE_HOST, &real), 0);
        ck_assert_int_eq(si_policy_load_builtin("default", &builtin), 0);
        for (size_t i = 0; i < ELEMENTSOF(fstypes); i++) {
                _cleanup_free_ char *ca = NULL, *cb = NULL, *ga = NULL, *gb = NULL;
                enum si_fs_use ua = SI_FS_USE_NONE, ub = SI_FS_USE_NONE;
                int ra = si_policy_fs_use(real, fstypes[i], &ua, &ca);
                int rb = si_policy_fs_use(builtin, fstypes[i], &ub, &cb);

                ck_assert_msg(ra == rb && ua == ub, "fs_use %s differs", fstypes[i]);
                ck_assert_msg(streq_ptr(ca, cb), "fs_use %s: %s vs %s", fstypes[i], ca, cb);
                ra = si_policy_genfs(real, fstypes[i], "/", &ga);
                rb = si_policy_genfs(builtin, fstypes[i], "/", &gb);
                ck_assert_msg(ra == rb, "genfscon %s differs", fstypes[i]);
                ck_assert_msg(streq_ptr(ga, gb), "genfscon %s: %s vs %s", fstypes[i], ga, gb);
        }
        si_policy_free(real);
        si_policy_free(builtin);
        seinstall_unref(ctx);
}
END_TEST

static void mkdir_p(const char *root, const char *rel)
{
        struct seinstall_ctx *ctx = ctx_on(root);
        ck_assert_int_eq(si_root_mkdir_p(ctx, rel, 0755, 0), 0);
        seinstall_unref(ctx);
}

START_TEST(test_load_order)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        _cleanup_free_ char *dir = path_join(root, "etc/selinux/default/policy");
        _cleanup_free_ char *p31 = path_join(dir, "policy.31");
        _cleanup_free_ char *p33 = path_join(dir, "policy.33");
        _cleanup_free_ char *p9 = path_join(dir, "policy.9");
        struct seinstall_ctx *ctx = ctx_on(root);
        struct si_policy *p = NULL;

        /* Empty target: the host's policy. */
        ck_assert_int_eq(si_policy_load(ctx, "default", &p), 0);
        ck_assert_int_eq(si_policy_source(p), SEINSTALL_SOURCE_HOST);
        ck_assert_str_eq(si_policy_path(p), HOST_POLICY);
        p = si_policy_free(p);

        /* No policy in the target nor on the host: the built-in table, for "default" only. */
        ck_assert_int_eq(si_policy_load_at(ctx, "default", "/nonexistent/selinux", &p), 0);
        ck_assert_int_eq(si_policy_source(p), SEINSTALL_SOURCE_BUILTIN);
        ck_assert_ptr_null(si_policy_path(p));
        ck_assert_ptr_null(si_policy_sepol(p));
        p = si_policy_free(p);
        ck_assert_int_eq(si_policy_load_at(ctx, "mls", "/nonexistent/selinux", &p), -ENOPKG);

        /* Neither the target nor the host has it, and there is no built-in table for it. */
        ck_assert_int_eq(si_policy_load(ctx, "no-such-type", &p), -ENOPKG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "no-such-type"));
        ck_assert_int_eq(si_policy_load(ctx, "../default", &p), -EINVAL);

        /* The target's newest policy.N wins (numerically: 33 > 9), and a broken one is an
         * error naming the file, not a silent fallback. */
        mkdir_p(root, "etc/selinux/default/policy");
        copy_file(HOST_POLICY, p31);
        write_file(p9, "not a policy");
        ck_assert_int_eq(si_policy_load(ctx, "default", &p), 0);
        ck_assert_int_eq(si_policy_source(p), SEINSTALL_SOURCE_TARGET);
        ck_assert_str_eq(si_policy_path(p), p31);
        p = si_policy_free(p);
        write_file(p33, "not a policy either");
        ck_assert_int_eq(si_policy_load(ctx, "default", &p), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), p33));
        seinstall_unref(ctx);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("policy");
        TCase *tc = tcase_create("policy");

        tcase_add_test(tc, test_real_policy_statements);
        tcase_add_test(tc, test_builtin_matches_real);
        tcase_add_test(tc, test_load_order);
        tcase_set_timeout(tc, 60);
        suite_add_policy_tcase(s, tc, "policy");
        return run_suite(s);
}
