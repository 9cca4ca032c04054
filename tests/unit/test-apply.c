/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of apply.c and status.c on targets in temporary directories: what each mode
 * writes, idempotence, refusals that change nothing, and symlinks that point out of the
 * target (every write must stay inside). */
#include <check.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "configure.h"
#include "testutil.h"

static char *root;
static struct seinstall_ctx *ctx;

static const char debian_kconfig[] =
    "CONFIG_SECURITY_SELINUX=y\n"
    "CONFIG_LSM=\"landlock,lockdown,yama,loadpin,safesetid,integrity,apparmor,selinux\"\n";
static const char fedora_kconfig[] = "CONFIG_SECURITY_SELINUX=y\n"
                                     "CONFIG_SECURITY_SELINUX_BOOTPARAM=y\n"
                                     "CONFIG_LSM=\"lockdown,yama,integrity,selinux,bpf\"\n";

/* Create ROOT/@rel (and its parents) with @content; NULL content makes a directory. */
static void put(const char *rel, const char *content)
{
        _cleanup_free_ char *path = path_join(root, rel);
        for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                mkdir(path, 0755);
                *p = '/';
        }
        if (content)
                write_file(path, content);
        else
                mkdir(path, 0755);
}

/* Contents of ROOT/@rel, or NULL when it does not exist. */
static char *get(const char *rel)
{
        _cleanup_free_ char *path = path_join(root, rel);
        char *text = NULL;
        return read_file_bounded(path, 1 << 20, &text, NULL) < 0 ? NULL : text;
}

static bool exists(const char *path)
{
        struct stat st;
        return lstat(path, &st) == 0;
}

static void setup(void)
{
        root = make_tmpdir();
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
}

static void teardown(void)
{
        ctx = seinstall_unref(ctx);
        tmpdir_removep(&root);
}

static void debian_target(void)
{
        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        put("etc/selinux/default/policy/policy.33", "x");
        put("etc/default/grub", "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
                                "GRUB_CMDLINE_LINUX=\"\"\n");
}

START_TEST(test_debian_enforcing)
{
        struct seinstall_apply_result *res = NULL;
        _cleanup_free_ char *cfg = NULL, *grub = NULL, *rel = NULL, *mark = NULL;

        debian_target();
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, SEINSTALL_APPLY_FIRSTBOOT,
                                         &res),
                         0);
        /* SELinux was off: relabel at first boot, permissive until then */
        ck_assert(seinstall_apply_result_get_relabel(res));
        ck_assert_int_eq(seinstall_apply_result_get_config_mode(res), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(seinstall_apply_result_get_kernel_case(res),
                         SEINSTALL_KERNEL_SELINUX_OPTIN);
        ck_assert(seinstall_apply_result_has_bootloader(res, SEINSTALL_BOOTLOADER_GRUB));
        ck_assert_uint_eq(seinstall_apply_result_get_n_changes(res), 4);
        /* the config is the last change */
        ck_assert_str_eq(seinstall_apply_result_get_change_file(res, 3), "/etc/selinux/config");
        seinstall_apply_result_unref(res);
        cfg = get("etc/selinux/config");
        grub = get("etc/default/grub");
        rel = get(".autorelabel");
        mark = get("var/lib/seinstall/firstboot");
        ck_assert_ptr_nonnull(strstr(cfg, "\nSELINUX=permissive\nSELINUXTYPE=default\n"));
        ck_assert_str_eq(grub, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
                               "GRUB_CMDLINE_LINUX=\"security=selinux\"\n");
        ck_assert_str_eq(rel, "-F\n");
        ck_assert_str_eq(mark, "mode=enforcing\npolicy=default\nrelabel=pending\n");

        /* a second run changes nothing */
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, SEINSTALL_APPLY_FIRSTBOOT,
                                         &res),
                         0);
        ck_assert_uint_eq(seinstall_apply_result_get_n_changes(res), 0);
        seinstall_apply_result_unref(res);
}
END_TEST

START_TEST(test_labeled_enforcing_and_status)
{
        struct seinstall_apply_result *res = NULL;
        struct seinstall_status *st = NULL;
        _cleanup_free_ char *cfg = NULL;

        debian_target();
        put("etc/selinux/config", "# mine\nSELINUX=disabled\nSELINUXTYPE=default\nFOO=bar\n");
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, "default",
                                         SEINSTALL_BOOTLOADER_AUTO, SEINSTALL_APPLY_LABELED, &res),
                         0);
        ck_assert(!seinstall_apply_result_get_relabel(res));
        seinstall_apply_result_unref(res);
        cfg = get("etc/selinux/config");
        ck_assert_str_eq(cfg, "# mine\nSELINUX=enforcing\nSELINUXTYPE=default\nFOO=bar\n");
        ck_assert(!exists(".autorelabel"));

        ck_assert_int_eq(seinstall_status_read(ctx, &st), 0);
        ck_assert_int_eq(seinstall_status_get_config_mode(st), SEINSTALL_MODE_ENFORCING);
        ck_assert_str_eq(seinstall_status_get_config_policy(st), "default");
        ck_assert(seinstall_status_get_policy_built(st));
        ck_assert_int_eq(seinstall_status_get_bootloader(st), SEINSTALL_BOOTLOADER_GRUB);
        ck_assert_str_eq(seinstall_status_get_kernel_arg(st, "security"), "selinux");
        ck_assert_ptr_null(seinstall_status_get_kernel_arg(st, "enforcing"));
        ck_assert_int_eq(seinstall_status_get_kernel_case(st), SEINSTALL_KERNEL_SELINUX_OPTIN);
        ck_assert_str_eq(seinstall_status_get_kernel_config(st), "/boot/config-6.1.0-13-amd64");
        ck_assert_int_eq(seinstall_status_get_boot_mode(st), SEINSTALL_MODE_ENFORCING);
        ck_assert(!seinstall_status_get_relabel_pending(st));
        ck_assert(!seinstall_status_get_firstboot_pending(st));
        /* the target is not the running system */
        ck_assert_int_eq(seinstall_status_get_active(st), SEINSTALL_MODE_INVALID);
        seinstall_status_unref(st);

        /* and back to disabled: security=selinux removed, nothing added (opt-in kernel) */
        ck_assert_int_eq(
            seinstall_apply(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            0);
        free(cfg);
        cfg = get("etc/default/grub");
        ck_assert_str_eq(cfg, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
                              "GRUB_CMDLINE_LINUX=\"\"\n");
        ck_assert_int_eq(seinstall_status_read(ctx, &st), 0);
        ck_assert_int_eq(seinstall_status_get_boot_mode(st), SEINSTALL_MODE_DISABLED);
        seinstall_status_unref(st);
}
END_TEST

START_TEST(test_fedora_bls_disabled)
{
        _cleanup_free_ char *e1 = NULL, *e2 = NULL, *k = NULL;

        put("boot/config-6.5.6-300.fc39.x86_64", fedora_kconfig);
        put("etc/selinux/config", "SELINUX=enforcing\nSELINUXTYPE=targeted\n");
        put("boot/loader/entries/a.conf", "title A\noptions root=UUID=1 ro rhgb quiet\n");
        put("boot/loader/entries/b.conf", "title B\noptions root=UUID=1 ro selinux=0\n");
        put("boot/loader/entries/notes.txt", "options enforcing=0\n");
        put("etc/kernel/cmdline", "root=UUID=1 ro enforcing=0\n");
        /* disabling needs no policy */
        ck_assert_int_eq(
            seinstall_apply(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            0);
        e1 = get("boot/loader/entries/a.conf");
        e2 = get("boot/loader/entries/b.conf");
        k = get("etc/kernel/cmdline");
        ck_assert_str_eq(e1, "title A\noptions root=UUID=1 ro rhgb quiet selinux=0\n");
        ck_assert_str_eq(e2, "title B\noptions root=UUID=1 ro selinux=0\n");
        ck_assert_str_eq(k, "root=UUID=1 ro enforcing=0 selinux=0\n");
        free(e1);
        e1 = get("boot/loader/entries/notes.txt");
        ck_assert_str_eq(e1, "options enforcing=0\n");
        free(e1);
        e1 = get("etc/selinux/config");
        ck_assert_str_eq(e1, "SELINUX=disabled\nSELINUXTYPE=targeted\n");
}
END_TEST

START_TEST(test_refusals_change_nothing)
{
        _cleanup_free_ char *grub = NULL;

        /* no built policy: -ENOPKG naming the package, nothing written */
        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        put("etc/default/grub", "GRUB_CMDLINE_LINUX=\"\"\n");
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
                         -ENOPKG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "selinux-policy-default"));
        grub = get("etc/default/grub");
        ck_assert_str_eq(grub, "GRUB_CMDLINE_LINUX=\"\"\n");
        ck_assert_ptr_null(get("etc/selinux/config"));
        ck_assert_ptr_null(get(".autorelabel"));

        /* a kernel without SELinux cannot be made to run it */
        put("etc/selinux/default/policy/policy.33", "x");
        put("boot/config-6.1.0-13-amd64", "# CONFIG_SECURITY_SELINUX is not set\n");
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_PERMISSIVE, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
                         -EOPNOTSUPP);
        ck_assert_ptr_null(get("etc/selinux/config"));

        /* an explicit boot loader that is not there */
        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_PERMISSIVE, NULL,
                                         SEINSTALL_BOOTLOADER_BLS, 0, NULL),
                         -ENOENT);
        /* a GRUB value too clever to edit is refused with its line, before the config */
        put("etc/default/grub", "X=1\nGRUB_CMDLINE_LINUX=\"$(cat /proc/foo)\"'x'\n");
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_PERMISSIVE, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
                         -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "/etc/default/grub:2:"));
        ck_assert_ptr_null(get("etc/selinux/config"));
        ck_assert_int_eq(
            seinstall_apply(ctx, SEINSTALL_MODE_INVALID, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -EINVAL);
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, "../x",
                                         SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
                         -EINVAL);
}
END_TEST

START_TEST(test_symlinks_out_of_target)
{
        _cleanup_(tmpdir_removep) char *out = make_tmpdir();
        _cleanup_free_ char *out_grub = path_join(out, "grub"), *out_rel = path_join(out, "rel"),
                            *l_sel = path_join(root, "etc/selinux"),
                            *l_grub = path_join(root, "etc/default/grub"),
                            *l_rel = path_join(root, ".autorelabel"), *text = NULL,
                            *out_cfg = path_join(out, "config");
        struct stat st;
        int r;

        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        put("etc/default/x", "");
        write_file(out_grub, "GRUB_CMDLINE_LINUX=\"\"\n");
        /* absolute links to places outside: inside the root they mean ROOT/that/path */
        ck_assert_int_eq(symlink(out, l_sel), 0);
        ck_assert_int_eq(symlink(out_grub, l_grub), 0);
        ck_assert_int_eq(symlink(out_rel, l_rel), 0);
        put("usr/x", "");
        /* the policy must be found for enabling: ROOT/etc/selinux is the symlink, so no
         * policy is visible and apply refuses, writing nothing anywhere */
        r = seinstall_apply(ctx, SEINSTALL_MODE_ENFORCING, NULL, SEINSTALL_BOOTLOADER_AUTO, 0,
                            NULL);
        ck_assert_int_eq(r, -ENOPKG);
        /* disabled needs no policy: the config write cannot follow etc/selinux out */
        r = seinstall_apply(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO,
                            SEINSTALL_APPLY_RELABEL, NULL);
        ck_assert_int_lt(r, 0);
        ck_assert(!exists(out_cfg));
        ck_assert(!exists(out_rel));
        ck_assert_int_eq(read_file_bounded(out_grub, 4096, &text, NULL), 0);
        ck_assert_str_eq(text, "GRUB_CMDLINE_LINUX=\"\"\n");

        /* relative links climbing out are clamped at the root the same way */
        ck_assert_int_eq(unlink(l_sel), 0);
        ck_assert_int_eq(symlink("../../../../../../../../../..", l_sel), 0);
        r = seinstall_apply(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_NONE, 0, NULL);
        /* "etc/selinux" -> "/" inside the root: the config lands in ROOT/config, not /config */
        ck_assert_int_eq(r, 0);
        free(text);
        text = get("config");
        ck_assert_ptr_nonnull(text);

        /* a symlinked .autorelabel is replaced by a file, never followed */
        ck_assert_int_eq(unlink(l_sel), 0);
        put("etc/selinux/default/policy/policy.33", "x");
        r = seinstall_apply(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_NONE,
                            SEINSTALL_APPLY_RELABEL, NULL);
        ck_assert_int_eq(r, 0);
        ck_assert_int_eq(lstat(l_rel, &st), 0);
        ck_assert(S_ISREG(st.st_mode));
        ck_assert(!exists(out_rel));
        ck_assert(!exists(out_cfg));
        free(text);
        text = NULL;
        ck_assert_int_eq(read_file_bounded(out_grub, 4096, &text, NULL), 0);
        ck_assert_str_eq(text, "GRUB_CMDLINE_LINUX=\"\"\n");
}
END_TEST

START_TEST(test_readonly_root_and_mark)
{
        struct seinstall_apply_result *res = NULL;
        _cleanup_free_ char *mark = NULL;

        debian_target();
        put("etc/fstab", "# <fs> <mp> <type> <opts>\nUUID=1 / ext4 ro,relatime 0 1\n");
        ck_assert_int_eq(seinstall_apply(ctx, SEINSTALL_MODE_PERMISSIVE, NULL,
                                         SEINSTALL_BOOTLOADER_AUTO, 0, &res),
                         0);
        ck_assert(seinstall_apply_result_get_relabel(res));
        seinstall_apply_result_unref(res);
        ck_assert_ptr_null(get(".autorelabel"));
        ck_assert_str_eq(mark = get("etc/selinux/.autorelabel"), "-F\n");
        /* permissive needs no deferral: no mark unless asked */
        ck_assert_ptr_null(get("var/lib/seinstall/firstboot"));
        ck_assert_int_eq(seinstall_firstboot_mark_remove(ctx), 0);
}
END_TEST

START_TEST(test_policy_ensure)
{
        _cleanup_(tmpdir_removep) char *out = make_tmpdir();
        _cleanup_free_ char *link = path_join(root, "var/lib/selinux");

        /* nothing at all: -ENOPKG naming the package */
        ck_assert_int_eq(seinstall_policy_ensure(ctx, NULL), -ENOPKG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "install selinux-policy-default"));
        ck_assert_int_eq(seinstall_policy_ensure(ctx, "mls"), -ENOPKG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "selinux-policy-mls"));
        ck_assert_int_eq(seinstall_policy_ensure(ctx, "../x"), -EINVAL);
        /* already built: nothing to do */
        put("etc/selinux/default/policy/policy.33", "x");
        ck_assert_int_eq(seinstall_policy_ensure(ctx, "default"), 0);
        /* modules behind a symlink: libsemanage works by path, so it is refused */
        put("var/lib", NULL);
        ck_assert_int_eq(symlink("/", link), 0);
        put("etc/selinux/mls", NULL);
        put("mls/active/modules", NULL); /* var/lib/selinux/mls through the link, in the root */
        ck_assert_int_eq(seinstall_policy_ensure(ctx, "mls"), -ENOTDIR);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "var/lib/selinux is not a dir"));
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("apply");
        TCase *tc = tcase_create("apply");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_debian_enforcing);
        tcase_add_test(tc, test_labeled_enforcing_and_status);
        tcase_add_test(tc, test_fedora_bls_disabled);
        tcase_add_test(tc, test_refusals_change_nothing);
        tcase_add_test(tc, test_symlinks_out_of_target);
        tcase_add_test(tc, test_readonly_root_and_mark);
        tcase_add_test(tc, test_policy_ensure);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
