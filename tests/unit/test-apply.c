/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of apply.c and status.c on targets in temporary directories: what each mode
 * writes, idempotence, refusals that change nothing, and symlinks that point out of the
 * target (every write must stay inside). */
#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>

#include "seinstall-private.h"
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
        ck_assert_int_eq(apply_with(ctx, SEINSTALL_MODE_ENFORCING, NULL, SEINSTALL_BOOTLOADER_AUTO,
                                    SEINSTALL_APPLY_FIRSTBOOT, &res),
                         0);
        /* SELinux was off: relabel at first boot, permissive until then */
        ck_assert(seinstall_apply_result_get_relabel(res));
        ck_assert_int_eq(seinstall_apply_result_get_config_mode(res), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(seinstall_apply_result_get_kernel_case(res),
                         SEINSTALL_KERNEL_CASE_SELINUX_OPTIN);
        ck_assert(seinstall_apply_result_has_bootloader(res, SEINSTALL_BOOTLOADER_GRUB));
        ck_assert_uint_eq(seinstall_apply_result_get_n_changes(res), 4);
        /* the config is the last change */
        ck_assert_str_eq(seinstall_apply_result_get_change_file(res, 3), "/etc/selinux/config");
        /* a second reference keeps it: the first unref frees nothing (LeakSanitizer and
         * AddressSanitizer see a leak or a use after free in the sanitized run) */
        ck_assert_ptr_eq(seinstall_apply_result_ref(res), res);
        ck_assert_ptr_null(seinstall_apply_result_ref(NULL));
        ck_assert_ptr_null(seinstall_apply_result_unref(res));
        ck_assert_uint_eq(seinstall_apply_result_get_n_changes(res), 4);
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
        ck_assert_int_eq(apply_with(ctx, SEINSTALL_MODE_ENFORCING, NULL, SEINSTALL_BOOTLOADER_AUTO,
                                    SEINSTALL_APPLY_FIRSTBOOT, &res),
                         0);
        ck_assert_uint_eq(seinstall_apply_result_get_n_changes(res), 0);
        seinstall_apply_result_unref(res);
}
END_TEST

START_TEST(test_labeled_enforcing_and_status)
{
        struct seinstall_apply_result *res = NULL;
        struct seinstall_status_result *st = NULL;
        _cleanup_free_ char *cfg = NULL;

        debian_target();
        put("etc/selinux/config", "# mine\nSELINUX=disabled\nSELINUXTYPE=default\nFOO=bar\n");
        ck_assert_int_eq(apply_with(ctx, SEINSTALL_MODE_ENFORCING, "default",
                                    SEINSTALL_BOOTLOADER_AUTO, SEINSTALL_APPLY_LABELED, &res),
                         0);
        ck_assert(!seinstall_apply_result_get_relabel(res));
        seinstall_apply_result_unref(res);
        cfg = get("etc/selinux/config");
        ck_assert_str_eq(cfg, "# mine\nSELINUX=enforcing\nSELINUXTYPE=default\nFOO=bar\n");
        ck_assert(!exists(".autorelabel"));

        ck_assert_int_eq(seinstall_status_read(ctx, &st), 0);
        ck_assert_int_eq(seinstall_status_result_get_config_mode(st), SEINSTALL_MODE_ENFORCING);
        ck_assert_str_eq(seinstall_status_result_get_config_policy(st), "default");
        ck_assert(seinstall_status_result_get_policy_built(st));
        ck_assert_int_eq(seinstall_status_result_get_bootloader(st), SEINSTALL_BOOTLOADER_GRUB);
        ck_assert_str_eq(seinstall_status_result_get_kernel_arg(st, "security"), "selinux");
        ck_assert_ptr_null(seinstall_status_result_get_kernel_arg(st, "enforcing"));
        ck_assert_int_eq(seinstall_status_result_get_kernel_case(st),
                         SEINSTALL_KERNEL_CASE_SELINUX_OPTIN);
        ck_assert_str_eq(seinstall_status_result_get_kernel_config(st),
                         "/boot/config-6.1.0-13-amd64");
        ck_assert_int_eq(seinstall_status_result_get_boot_mode(st), SEINSTALL_MODE_ENFORCING);
        ck_assert(!seinstall_status_result_get_relabel_pending(st));
        ck_assert(!seinstall_status_result_get_firstboot_pending(st));
        /* the target is not the running system */
        ck_assert_int_eq(seinstall_status_result_get_active(st), SEINSTALL_MODE_INVALID);
        ck_assert_ptr_eq(seinstall_status_result_ref(st), st);
        ck_assert_ptr_null(seinstall_status_result_unref(st));
        ck_assert_int_eq(seinstall_status_result_get_boot_mode(st), SEINSTALL_MODE_ENFORCING);
        seinstall_status_result_unref(st);

        /* and back to disabled: security=selinux removed, nothing added (opt-in kernel) */
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL), 0);
        free(cfg);
        cfg = get("etc/default/grub");
        ck_assert_str_eq(cfg, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
                              "GRUB_CMDLINE_LINUX=\"\"\n");
        ck_assert_int_eq(seinstall_status_read(ctx, &st), 0);
        ck_assert_int_eq(seinstall_status_result_get_boot_mode(st), SEINSTALL_MODE_DISABLED);
        seinstall_status_result_unref(st);
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
            apply_with(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL), 0);
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
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_ENFORCING, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -ENOPKG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "selinux-policy-default"));
        grub = get("etc/default/grub");
        ck_assert_str_eq(grub, "GRUB_CMDLINE_LINUX=\"\"\n");
        ck_assert_ptr_null(get("etc/selinux/config"));
        ck_assert_ptr_null(get(".autorelabel"));

        /* a kernel without SELinux cannot be made to run it */
        put("etc/selinux/default/policy/policy.33", "x");
        put("boot/config-6.1.0-13-amd64", "# CONFIG_SECURITY_SELINUX is not set\n");
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -EOPNOTSUPP);
        ck_assert_ptr_null(get("etc/selinux/config"));

        /* an explicit boot loader that is not there */
        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_BLS, 0, NULL),
            -ENOENT);
        /* a GRUB value too clever to edit is refused with its line, before the config */
        put("etc/default/grub", "X=1\nGRUB_CMDLINE_LINUX=\"$(cat /proc/foo)\"'x'\n");
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "/etc/default/grub:2:"));
        ck_assert_ptr_null(get("etc/selinux/config"));
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_INVALID, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -EINVAL);
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_ENFORCING, "../x", SEINSTALL_BOOTLOADER_AUTO, 0, NULL),
            -EINVAL);
}
END_TEST

/* The options objects refuse what seinstall_apply() and seinstall_check_run() would; NULL
 * options are the defaults, NULL settings are only the boot menu's regeneration. */
START_TEST(test_stage_options)
{
        struct seinstall_apply_options *o = NULL;
        struct seinstall_check_options *c = NULL;
        struct seinstall_settings *s = NULL;
        struct seinstall_apply_result *res = NULL;
        _cleanup_free_ char *config = NULL;

        debian_target();
        ck_assert_int_eq(seinstall_apply_options_new(NULL), -EINVAL);
        ck_assert_int_eq(seinstall_apply_options_new(&o), 0);
        ck_assert_int_eq(seinstall_apply_options_set_flags(o, 1u << 15), -EINVAL);
        ck_assert_int_eq(
            seinstall_apply_options_set_flags(o, SEINSTALL_APPLY_RELABEL | SEINSTALL_APPLY_LABELED),
            -EINVAL);
        ck_assert_int_eq(seinstall_apply_options_set_bootloader(o, SEINSTALL_BOOTLOADER_INVALID),
                         -EINVAL);
        ck_assert_int_eq(seinstall_apply_options_set_bootloader(o, SEINSTALL_BOOTLOADER_NONE + 1),
                         -EINVAL);
        ck_assert_int_eq(seinstall_apply_options_set_flags(NULL, 0), -EINVAL);
        ck_assert_int_eq(seinstall_apply_options_set_flags(o, SEINSTALL_APPLY_DRY_RUN), 0);
        /* no settings: nothing to write, so only with the regeneration */
        ck_assert_int_eq(seinstall_apply(ctx, NULL, o, NULL), -EINVAL);
        ck_assert_int_eq(seinstall_apply(ctx, NULL, NULL, NULL), -EINVAL);
        ck_assert_int_eq(seinstall_apply(NULL, NULL, NULL, NULL), -EINVAL);
        /* settings with options NULL: the defaults, the same as a new options object */
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_OPTION), 1);
        ck_assert_int_eq(seinstall_apply(ctx, s, o, &res), 0); /* the dry run */
        ck_assert_ptr_null(get("etc/selinux/config"));
        ck_assert_uint_gt(seinstall_apply_result_get_n_changes(res), 0);
        res = seinstall_apply_result_unref(res);
        ck_assert_int_eq(seinstall_apply(ctx, s, NULL, &res), 0);
        ck_assert_int_eq(seinstall_apply_result_get_config_mode(res), SEINSTALL_MODE_PERMISSIVE);
        config = get("etc/selinux/config");
        ck_assert_ptr_nonnull(config);
        ck_assert_ptr_nonnull(strstr(config, "SELINUX=permissive"));
        seinstall_apply_result_unref(res);
        seinstall_settings_unref(s);
        seinstall_apply_options_unref(o);

        ck_assert_int_eq(seinstall_check_options_new(NULL), -EINVAL);
        ck_assert_int_eq(seinstall_check_options_new(&c), 0);
        ck_assert_int_eq(seinstall_check_options_set_plan_file(c, ""), -EINVAL);
        ck_assert_int_eq(seinstall_check_options_set_plan_file(NULL, "x"), -EINVAL);
        ck_assert_int_eq(seinstall_check_options_set_plan_file(c, "/nonexistent/plan"), 0);
        ck_assert_int_eq(seinstall_check_options_set_plan_file(c, NULL), 0);
        seinstall_check_options_unref(c);
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
        r = apply_with(ctx, SEINSTALL_MODE_ENFORCING, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, NULL);
        ck_assert_int_eq(r, -ENOPKG);
        /* disabled needs no policy: the config write cannot follow etc/selinux out */
        r = apply_with(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_AUTO,
                       SEINSTALL_APPLY_RELABEL, NULL);
        ck_assert_int_lt(r, 0);
        ck_assert(!exists(out_cfg));
        ck_assert(!exists(out_rel));
        ck_assert_int_eq(read_file_bounded(out_grub, 4096, &text, NULL), 0);
        ck_assert_str_eq(text, "GRUB_CMDLINE_LINUX=\"\"\n");

        /* relative links climbing out are clamped at the root the same way */
        ck_assert_int_eq(unlink(l_sel), 0);
        ck_assert_int_eq(symlink("../../../../../../../../../..", l_sel), 0);
        r = apply_with(ctx, SEINSTALL_MODE_DISABLED, NULL, SEINSTALL_BOOTLOADER_NONE, 0, NULL);
        /* "etc/selinux" -> "/" inside the root: the config lands in ROOT/config, not /config */
        ck_assert_int_eq(r, 0);
        free(text);
        text = get("config");
        ck_assert_ptr_nonnull(text);

        /* a symlinked .autorelabel is replaced by a file, never followed */
        ck_assert_int_eq(unlink(l_sel), 0);
        put("etc/selinux/default/policy/policy.33", "x");
        r = apply_with(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_NONE,
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
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_PERMISSIVE, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, &res),
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
        _cleanup_free_ char *link = path_join(root, "var/lib/selinux");

        /* nothing at all: -ENOPKG naming the package */
        ck_assert_int_eq(seinstall_policy_ensure(ctx, NULL), -ENOPKG);
        ck_assert_ptr_nonnull(
            strstr(seinstall_last_error(ctx), "install the policy package selinux-policy-default"));
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

/* ---- a dry run reports exactly what the real run writes --------------------------------- */

/* Every file and symbolic link of the tree under the root: "path\ncontent" and
 * "path\n-> target" entries, sorted by path. */
struct snapshot {
        char **entries;
        size_t n;
};
static struct snapshot *snap_target;

static int snap_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
        _cleanup_free_ char *text = NULL;
        char *e;

        (void) ftw;
        if (type == FTW_SL) {
                text = calloc(1, (size_t) st->st_size + 4);
                ck_assert_ptr_nonnull(text);
                memcpy(text, "-> ", 3);
                ck_assert_int_eq(readlink(path, text + 3, (size_t) st->st_size), st->st_size);
        } else if (type == FTW_F)
                ck_assert_int_ge(read_file_bounded(path, 1 << 20, &text, NULL), 0);
        else
                return 0;
        ck_assert_int_ge(asprintf(&e, "%s\n%s", path + strlen(root), text), 0);
        snap_target->entries = realloc(snap_target->entries, (snap_target->n + 1) * sizeof(e));
        ck_assert_ptr_nonnull(snap_target->entries);
        snap_target->entries[snap_target->n++] = e;
        return 0;
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

static void snapshot(struct snapshot *s)
{
        *s = (struct snapshot){};
        snap_target = s;
        ck_assert_int_eq(nftw(root, snap_one, 16, FTW_PHYS), 0);
        qsort(s->entries, s->n, sizeof(*s->entries), cmp_str);
}

static void snapshot_free(struct snapshot *s)
{
        for (size_t i = 0; i < s->n; i++)
                free(s->entries[i]);
        free(s->entries);
}

/* Whether the result names @file among its changes. */
static bool result_changes(const struct seinstall_apply_result *r, const char *file)
{
        for (size_t i = 0; i < seinstall_apply_result_get_n_changes(r); i++)
                if (streq(seinstall_apply_result_get_change_file(r, i), file))
                        return true;
        return false;
}

/* The target paths whose content differs between @a and @b (new files included) are exactly
 * the files @r lists as changed. */
static void assert_changed_files(const struct snapshot *a, const struct snapshot *b,
                                 const struct seinstall_apply_result *r, const char *what)
{
        size_t n_changed = 0;

        for (size_t j = 0; j < b->n; j++) {
                size_t plen = strcspn(b->entries[j], "\n");
                _cleanup_free_ char *path = strndup(b->entries[j], plen);
                bool same = false;

                for (size_t i = 0; i < a->n; i++)
                        same = same || streq(a->entries[i], b->entries[j]);
                if (same)
                        continue;
                n_changed++;
                ck_assert_msg(result_changes(r, path), "%s: %s changed but is not reported", what,
                              path);
        }
        ck_assert_msg(n_changed == seinstall_apply_result_get_n_changes(r),
                      "%s: %zu files changed, %zu reported", what, n_changed,
                      seinstall_apply_result_get_n_changes(r));
}

static const char *const layouts[] = {"grub", "grub.d", "bls", "kernel-cmdline", "none"};
static const char *const kconfigs[] = {
    debian_kconfig, /* opt-in */
    fedora_kconfig, /* SELinux the default LSM */
    NULL,           /* unknown: no /boot/config-* */
    "CONFIG_SECURITY=y\n# CONFIG_SECURITY_SELINUX is not set\n",
};
static const char *const cmdlines[] = {"quiet", "quiet security=selinux enforcing=0",
                                       "quiet selinux=0", "quiet lsm=landlock,apparmor,selinux",
                                       "quiet security=selinux enforcing=1"};
static const char *const configs[] = {NULL, "SELINUX=enforcing\nSELINUXTYPE=default\n",
                                      "SELINUX=permissive\nSELINUXTYPE=default\n",
                                      "# comment\nSELINUX=disabled\nSELINUXTYPE=default\n"};

static void make_layout(const char *layout, const char *kconfig, const char *cmdline,
                        const char *config, bool pending)
{
        _cleanup_free_ char *text = NULL;

        put("etc/selinux/default/policy/policy.33", "x");
        if (kconfig)
                put("boot/config-6.1.0-13-amd64", kconfig);
        if (config)
                put("etc/selinux/config", config);
        if (pending)
                put(".autorelabel", "");
        if (streq(layout, "grub")) {
                ck_assert_int_ge(
                    asprintf(&text, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"%s\"\n", cmdline), 0);
                put("etc/default/grub", text);
        } else if (streq(layout, "grub.d")) {
                put("etc/default/grub", "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"\"\n");
                ck_assert_int_ge(asprintf(&text, "GRUB_CMDLINE_LINUX=\"%s\"\n", cmdline), 0);
                put("etc/default/grub.d/50-local.cfg", text);
        } else if (streq(layout, "bls")) {
                ck_assert_int_ge(asprintf(&text, "title A\noptions root=UUID=1 ro %s\n", cmdline),
                                 0);
                put("boot/loader/entries/a.conf", text);
                put("boot/loader/entries/b.conf", "title B\noptions root=UUID=1 ro\n");
        } else if (streq(layout, "kernel-cmdline")) {
                ck_assert_int_ge(asprintf(&text, "root=UUID=1 ro %s\n", cmdline), 0);
                put("etc/kernel/cmdline", text);
        }
}

static void assert_same_result(const struct seinstall_apply_result *a,
                               const struct seinstall_apply_result *b, const char *what)
{
        ck_assert_msg(
            seinstall_apply_result_get_n_changes(a) == seinstall_apply_result_get_n_changes(b),
            "%s: dry run predicts %zu changes, the run made %zu", what,
            seinstall_apply_result_get_n_changes(a), seinstall_apply_result_get_n_changes(b));
        for (size_t i = 0; i < seinstall_apply_result_get_n_changes(a); i++) {
                ck_assert_str_eq(seinstall_apply_result_get_change_file(a, i),
                                 seinstall_apply_result_get_change_file(b, i));
                ck_assert_str_eq(seinstall_apply_result_get_change_what(a, i),
                                 seinstall_apply_result_get_change_what(b, i));
        }
        ck_assert_uint_eq(seinstall_apply_result_get_n_todo(a),
                          seinstall_apply_result_get_n_todo(b));
        for (size_t i = 0; i < seinstall_apply_result_get_n_todo(a); i++)
                ck_assert_str_eq(seinstall_apply_result_get_todo(a, i),
                                 seinstall_apply_result_get_todo(b, i));
        ck_assert_int_eq(seinstall_apply_result_get_config_mode(a),
                         seinstall_apply_result_get_config_mode(b));
        ck_assert_int_eq(seinstall_apply_result_get_relabel(a),
                         seinstall_apply_result_get_relabel(b));
        ck_assert_int_eq(seinstall_apply_result_get_kernel_case(a),
                         seinstall_apply_result_get_kernel_case(b));
        for (int bl = SEINSTALL_BOOTLOADER_GRUB; bl < SEINSTALL_BOOTLOADER_NONE; bl++)
                ck_assert_int_eq(seinstall_apply_result_has_bootloader(a, bl),
                                 seinstall_apply_result_has_bootloader(b, bl));
}

/* A trial's command line must suit both its permissive boot and the enforcing one its
 * decision leads to: on a target with several boot loader files each file is one change,
 * both enforcing=0 and enforcing=1 go in that one edit, and the dry run lists what the run
 * writes. */
START_TEST(test_trial_changes_each_file_once)
{
        static const char *const files[] = {"/etc/default/grub", "/boot/loader/entries/a.conf",
                                            "/boot/loader/entries/b.conf", "/etc/kernel/cmdline"};
        struct seinstall_apply_result *dry = NULL, *real = NULL;
        struct snapshot before, after;
        size_t n;

        put("boot/config-6.1.0-13-amd64", debian_kconfig);
        put("etc/selinux/default/policy/policy.33", "x");
        put("etc/default/grub", "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"quiet enforcing=1\"\n");
        put("boot/loader/entries/a.conf", "title A\noptions root=UUID=1 ro enforcing=0\n");
        put("boot/loader/entries/b.conf", "title B\noptions root=UUID=1 ro\n");
        put("etc/kernel/cmdline", "root=UUID=1 ro enforcing=1\n");

        ck_assert_int_eq(apply_with(ctx, SEINSTALL_MODE_TRIAL, NULL, SEINSTALL_BOOTLOADER_AUTO,
                                    SEINSTALL_APPLY_DRY_RUN, &dry),
                         0);
        n = seinstall_apply_result_get_n_changes(dry);
        for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++)
                        ck_assert_msg(!streq(seinstall_apply_result_get_change_file(dry, i),
                                             seinstall_apply_result_get_change_file(dry, j)),
                                      "%s listed twice: '%s', then '%s'",
                                      seinstall_apply_result_get_change_file(dry, i),
                                      seinstall_apply_result_get_change_what(dry, i),
                                      seinstall_apply_result_get_change_what(dry, j));
        for (size_t k = 0; k < ELEMENTSOF(files); k++)
                ck_assert_msg(result_changes(dry, files[k]), "%s is not listed", files[k]);

        snapshot(&before);
        ck_assert_int_eq(
            apply_with(ctx, SEINSTALL_MODE_TRIAL, NULL, SEINSTALL_BOOTLOADER_AUTO, 0, &real), 0);
        snapshot(&after);
        assert_same_result(dry, real, "trial");
        assert_changed_files(&before, &after, real, "trial");
        _cleanup_free_ char *entry = get("boot/loader/entries/a.conf");
        _cleanup_free_ char *cmdline = get("etc/kernel/cmdline");
        ck_assert_str_eq(entry, "title A\noptions root=UUID=1 ro security=selinux\n");
        ck_assert_str_eq(cmdline, "root=UUID=1 ro security=selinux\n");
        snapshot_free(&before);
        snapshot_free(&after);
        seinstall_apply_result_unref(dry);
        seinstall_apply_result_unref(real);
}
END_TEST

static void tmpdir_in_memory(void)
{
        struct stat st;

        if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
                setenv("TMPDIR", "/dev/shm", 1);
}

/* One loop index per (layout, kernel); inside, every command line, config, pending relabel,
 * flag set and mode on a fresh tree. */
START_TEST(test_dry_run_is_the_run)
{
        const char *layout = layouts[_i / ELEMENTSOF(kconfigs)];
        const char *kconfig = kconfigs[_i % ELEMENTSOF(kconfigs)];
        static const unsigned flag_sets[] = {SEINSTALL_APPLY_FIRSTBOOT, SEINSTALL_APPLY_RELABEL};
        unsigned n = 0;

        for (size_t c = 0; c < ELEMENTSOF(cmdlines); c++)
                for (size_t g = 0; g < ELEMENTSOF(configs); g++)
                        for (size_t f = 0; f < ELEMENTSOF(flag_sets); f++)
                                for (int m = SEINSTALL_MODE_ENFORCING; m <= SEINSTALL_MODE_TRIAL;
                                     m++) {
                                        struct seinstall_apply_result *dry = NULL, *real = NULL;
                                        struct snapshot before, after_dry, after;
                                        _cleanup_free_ char *what = NULL;
                                        int r_dry, r_real;

                                        teardown();
                                        setup();
                                        make_layout(layout, kconfig, cmdlines[c], configs[g],
                                                    f == 0 && c % 2 == 1);
                                        ck_assert_int_ge(
                                            asprintf(&what,
                                                     "%s, kernel %zu, '%s', config %zu, "
                                                     "flags %u, %s",
                                                     layout, (size_t) (_i % ELEMENTSOF(kconfigs)),
                                                     cmdlines[c], g, flag_sets[f],
                                                     seinstall_mode_to_string(m)),
                                            0);
                                        snapshot(&before);
                                        r_dry = apply_with(ctx, m, NULL, SEINSTALL_BOOTLOADER_AUTO,
                                                           flag_sets[f] | SEINSTALL_APPLY_DRY_RUN,
                                                           &dry);
                                        snapshot(&after_dry);
                                        assert_changed_files(&before, &after_dry, NULL, what);
                                        r_real = apply_with(ctx, m, NULL, SEINSTALL_BOOTLOADER_AUTO,
                                                            flag_sets[f], &real);
                                        ck_assert_msg(r_dry == r_real, "%s: dry run %d, run %d",
                                                      what, r_dry, r_real);
                                        snapshot(&after);
                                        if (r_real >= 0) {
                                                assert_same_result(dry, real, what);
                                                assert_changed_files(&before, &after, real, what);
                                                n++;
                                        }
                                        snapshot_free(&before);
                                        snapshot_free(&after_dry);
                                        snapshot_free(&after);
                                        seinstall_apply_result_unref(dry);
                                        seinstall_apply_result_unref(real);
                                }
        /* only enabling on a kernel without SELinux fails */
        ck_assert_uint_ge(n, ELEMENTSOF(cmdlines) * ELEMENTSOF(configs) * ELEMENTSOF(flag_sets));
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
        tcase_add_test(tc, test_stage_options);
        tcase_add_test(tc, test_symlinks_out_of_target);
        tcase_add_test(tc, test_readonly_root_and_mark);
        tcase_add_test(tc, test_policy_ensure);
        tcase_add_test(tc, test_trial_changes_each_file_once);
        suite_add_tcase(suite, tc);
        /* Thousands of atomic writes, each with two fsyncs: on tmpfs when there is one. */
        tc = tcase_create("dry-run");
        tcase_add_unchecked_fixture(tc, tmpdir_in_memory, NULL);
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 120);
        tcase_add_loop_test(tc, test_dry_run_is_the_run, 0,
                            (int) (ELEMENTSOF(layouts) * ELEMENTSOF(kconfigs)));
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
