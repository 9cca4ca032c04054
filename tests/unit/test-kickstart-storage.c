/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of kickstart-storage*.c: the layout a kickstart plans, read through seinstall's
 * kickstart reader (%include, %ksappend, shlex), with pykickstart 3.74's storage grammar (prefixes,
 * both value spellings, required words) and the file system Anaconda gives each device (--fstype,
 * the default, /boot, /boot/efi, autopart and reqpart), later claims replacing earlier ones,
 * fstab escapes, and errors naming file and line. tests/integration/storage-differential.sh
 * compares the grammar with the real pykickstart; these pin the plan's lines. */
#include <check.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "profile.h"
#include "testutil.h"

static struct seinstall_ctx *ctx;
static char *plan;

static void setup(void)
{
        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
}

static void teardown(void)
{
        free(plan);
        plan = NULL;
        ctx = seinstall_unref(ctx);
}

/* Plan @text (default fstype @def, @flags); returns the number of entries. */
static int plan_of(const char *text, const char *def, unsigned flags)
{
        int n;

        free(plan);
        plan = NULL;
        n = si_ks_plan(ctx, "test.ks", text, strlen(text), def, flags, &plan);
        ck_assert_msg(n >= 0, "%s: %s", text, seinstall_last_error(ctx));
        return n;
}

/* The plan holds the fstab line @line (a whole line). */
static void has_line(const char *line)
{
        _cleanup_free_ char *want = NULL;

        ck_assert_int_ge(asprintf(&want, "\n%s\n", line), 0);
        ck_assert_msg(strstr(plan, want), "'%s' not in:\n%s", line, plan);
}

static void bad(const char *text, const char *msg)
{
        char *p = NULL;

        ck_assert_int_eq(si_ks_plan(ctx, "test.ks", text, strlen(text), NULL, 0, &p), -EBADMSG);
        ck_assert_ptr_null(p);
        ck_assert_msg(strstr(seinstall_last_error(ctx), msg), "'%s' not in '%s'", msg,
                      seinstall_last_error(ctx));
}

START_TEST(test_part)
{
        ck_assert_int_eq(plan_of("part / --fstype=reiserfs --size=4000\n", NULL, 0), 1);
        has_line("planned / reiserfs defaults");
        ck_assert_ptr_nonnull(strstr(plan, "# test.ks:1: part / --fstype=reiserfs --size=4000\n"));
        /* --fstype VALUE, the --type alias, an unambiguous prefix, quotes */
        plan_of("part \"/\" --fst 'reiserfs'\n", NULL, 0);
        has_line("planned / reiserfs defaults");
        plan_of("partition / --type=vfat\n", NULL, 0);
        has_line("planned / vfat defaults");
        /* no --fstype: the default, xfs unless told; /boot the boot loader's choice of it */
        plan_of("part / --size=1\npart /boot --size=1\n", NULL, 0);
        has_line("planned / xfs defaults");
        has_line("planned /boot xfs defaults");
        plan_of("part / --size=1\npart /boot --size=1\n", "vfat", 0);
        has_line("planned / vfat defaults");
        has_line("planned /boot ext4 defaults");
        /* a partition at /boot/efi is the EFI System Partition whatever --fstype says */
        plan_of("part /boot/efi --fstype=xfs\n", NULL, 0);
        has_line("planned /boot/efi vfat defaults,uid=0,gid=0,umask=077,shortname=winnt");
        /* "efi" elsewhere is vfat; hfs+ is hfsplus */
        plan_of("part /x --fstype=efi\npart /y --fstype=hfs+\n", NULL, 0);
        has_line("planned /x vfat defaults");
        has_line("planned /y hfsplus defaults");
        /* --onpart names the device, "/dev/" or not; --fsoptions are the mount options */
        plan_of("part / --fstype=ext4 --onpart=/dev/sda3\npart /a --fstype=ext4 --usepart sdb1 "
                "--fsoptions=noatime\n",
                NULL, 0);
        has_line("/dev/sda3 / ext4 defaults");
        has_line("/dev/sdb1 /a ext4 noatime");
        /* not mounts: swap, members, biosboot, a swap type */
        ck_assert_int_eq(plan_of("part swap --size=1\npart pv.01 --size=1\npart raid.01 "
                                 "--size=1\npart btrfs.01 --size=1\npart biosboot --size=1\n"
                                 "part None --fstype=ext4\npart /s --fstype=swap\n",
                                 NULL, 0),
                         0);
        /* os.path.normpath(); blanks escaped for the fstab */
        plan_of("part //x/../y/./ --fstype=ext4\npart ///a --fstype=ext4\npart '/my data' "
                "--fstype=ext4\n",
                NULL, 0);
        has_line("planned //y ext4 defaults");
        has_line("planned /a ext4 defaults");
        has_line("planned /my\\040data ext4 defaults");
}
END_TEST

START_TEST(test_logvol_raid_btrfs)
{
        plan_of("logvol / --vgname=vg --name=root --fstype=reiserfs --size=1\n", NULL, 0);
        has_line("/dev/vg/root / reiserfs defaults");
        ck_assert_int_eq(plan_of("logvol none --vgname=vg --name=p --thinpool --size=1\n", NULL, 0),
                         0);
        plan_of("raid / --level=RAID1 --device=root --fstype=reiserfs raid.01 raid.02\n", NULL, 0);
        has_line("/dev/md/root / reiserfs defaults");
        plan_of("raid /boot --level=1 --device=boot raid.01 raid.02\n", "vfat", 0);
        has_line("/dev/md/boot /boot ext4 defaults");
        /* /boot on LVM keeps the default (no boot loader's choice); only a partition at /boot/efi
         * is made the EFI System Partition */
        plan_of("logvol /boot --vgname=vg --name=boot --size=1\n", "vfat", 0);
        has_line("/dev/vg/boot /boot vfat defaults");
        plan_of("raid /boot/efi --level=1 --device=efi --fstype=xfs raid.01 raid.02\n", NULL, 0);
        has_line("/dev/md/efi /boot/efi xfs defaults");
        plan_of("logvol /boot/efi --vgname=vg --name=efi --fstype=xfs --size=1\n", NULL, 0);
        has_line("/dev/vg/efi /boot/efi xfs defaults");
        /* btrfs volumes and subvolumes are btrfs: per-file labels */
        ck_assert_int_eq(plan_of("btrfs none --label=f btrfs.01\nbtrfs / --subvol --name=root "
                                 "LABEL=f\nbtrfs /home --subvol --name=home LABEL=f\n",
                                 NULL, 0),
                         2);
        has_line("planned / btrfs defaults");
        has_line("planned /home btrfs defaults");
        /* an existing device that is not here is left out (a warning), one that is probed */
        ck_assert_int_eq(plan_of("logvol /srv --vgname=nonexistent-vg --name=srv --noformat\n"
                                 "raid /d --useexisting --device=nonexistent-md\n"
                                 "part /x --noformat --onpart=/nonexistent\n",
                                 NULL, 0),
                         0);
        plan_of("part /x --noformat --onpart=/dev/null\n", NULL, 0);
        has_line("/dev/null /x auto defaults");
}
END_TEST

START_TEST(test_autopart_reqpart)
{
        ck_assert_int_eq(plan_of("autopart --fstype=reiserfs\n", NULL, 0), 2);
        has_line("planned / reiserfs defaults");
        has_line("planned /boot ext4 defaults");
        ck_assert_int_eq(plan_of("autopart --type=btrfs --noboot\n", NULL, SEINSTALL_PLAN_EFI), 2);
        has_line("planned / btrfs defaults");
        has_line("planned /boot/efi vfat defaults,uid=0,gid=0,umask=077,shortname=winnt");
        /* a later autopart line keeps the values it does not give */
        plan_of("autopart --fstype=ext4\nautopart --nohome\n", NULL, 0);
        has_line("planned / ext4 defaults");
        ck_assert_int_eq(plan_of("reqpart\n", NULL, 0), 0);
        ck_assert_int_eq(plan_of("reqpart\n", NULL, SEINSTALL_PLAN_EFI), 1);
        ck_assert_int_eq(plan_of("reqpart --add-boot\npart / --fstype=ext4\n", NULL, 0), 2);
        has_line("planned /boot xfs defaults");
}
END_TEST

/* Anaconda's order (reqpart, autopart, part, raid, logvol, btrfs): a later claim of a mount
 * point replaces the earlier one, whatever order the lines are in. */
START_TEST(test_replaced)
{
        ck_assert_int_eq(plan_of("logvol / --vgname=vg --name=r --fstype=reiserfs --size=1\n"
                                 "part / --fstype=ext4\n",
                                 NULL, 0),
                         1);
        has_line("/dev/vg/r / reiserfs defaults");
        ck_assert_ptr_nonnull(strstr(plan, "replaced by a later claim of its mount point"));
        ck_assert_int_eq(plan_of("part / --fstype=ext4\npart / --fstype=vfat\n", NULL, 0), 1);
        has_line("planned / vfat defaults");
}
END_TEST

/* Everything pykickstart reads: %include in place, %ksappend, and not the sections. */
START_TEST(test_includes)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *main = path_join(dir, "main.ks"), *inc = path_join(dir, "inc.ks"),
                            *app = path_join(dir, "app.ks"), *text = NULL, *where = NULL;

        write_file(inc, "part /boot --fstype=ext4\n");
        write_file(app, "part /var --fstype=ext4\n");
        ck_assert_int_ge(asprintf(&text,
                                  "%%ksappend %s\n%%include %s\n%%pre\npart /bogus --fstype=vfat\n"
                                  "%%end\npart / --fstype=reiserfs\n",
                                  app, inc),
                         0);
        write_file(main, text);
        ck_assert_int_eq(seinstall_profile_plan(ctx, main, NULL, 0, &plan), 3);
        has_line("planned /boot ext4 defaults");
        has_line("planned / reiserfs defaults");
        has_line("planned /var ext4 defaults");
        ck_assert_ptr_null(strstr(plan, "/bogus"));
        ck_assert_int_ge(asprintf(&where, "# %s:1: part /boot", inc), 0);
        ck_assert_ptr_nonnull(strstr(plan, where));
        ck_assert_int_eq(seinstall_profile_plan(ctx, main, "bad type", 0, &text), -EINVAL);
        ck_assert_int_eq(seinstall_profile_plan(ctx, main, NULL, 1u << 5, &text), -EINVAL);
}
END_TEST

/* The layout is read through the same budget as the settings (issue 32, item 5): 32 files each
 * including the next twice stop at the 256th file, %ksappend counted too. */
START_TEST(test_include_budget)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        struct sbuf b = {};
        char name[32], text[64];
        char *p = NULL;

        ck_assert_int_eq(chdir(dir), 0);
        for (unsigned i = 0; i < 31; i++) {
                snprintf(name, sizeof(name), "f%u.ks", i);
                snprintf(text, sizeof(text), "%%include f%u.ks\n%%include f%u.ks\n", i + 1, i + 1);
                write_file(name, text);
        }
        write_file("f31.ks", "part / --fstype=ext4\n");
        ck_assert_int_eq(seinstall_profile_plan(ctx, "f0.ks", NULL, 0, &p), -EBADMSG);
        ck_assert_ptr_null(p);
        ck_assert_msg(strstr(seinstall_last_error(ctx), ".ks:2: %include f") &&
                          strstr(seinstall_last_error(ctx), ": more than 256 files opened"),
                      "%s", seinstall_last_error(ctx));

        write_file("app.ks", "part /var --fstype=ext4\n");
        for (unsigned i = 0; i < 256; i++)
                ck_assert_int_ge(sbuf_puts(&b, "%ksappend app.ks\n"), 0);
        write_file("main.ks", b.s);
        sbuf_free(&b);
        ck_assert_int_eq(seinstall_profile_plan(ctx, "main.ks", NULL, 0, &p), -EBADMSG);
        ck_assert_msg(strstr(seinstall_last_error(ctx),
                             "main.ks:256: %ksappend app.ks: more than 256 files opened"),
                      "%s", seinstall_last_error(ctx));
        ck_assert_int_eq(chdir("/"), 0);
}
END_TEST

START_TEST(test_errors)
{
        bad("selinux --enforcing\npart / --bogus\n", "test.ks:2: Unexpected arguments");
        bad("part / --fs=xfs\n", "test.ks:1: partition: ambiguous option: --fs");
        bad("part / --fstype\n", "argument --fstype: expected one argument");
        bad("part / --fstype --size=1\n", "argument --fstype: expected one argument");
        bad("part / --noformat=1\n", "ignored explicit argument");
        bad("part\n", "required: <mntpoint>");
        bad("part / /home\n", "Unexpected arguments to partition");
        bad("logvol / --vgname=vg --name=r\n", "No size given for logical volume");
        bad("logvol / --name=r --size=1\n", "required: --vgname");
        bad("logvol / --vgname=vg --name=r --percent=101\n", "between 0 and 100");
        bad("raid / --level=1 raid.01\n", "required: --device");
        bad("raid / --level=7 --device=x raid.01\n", "Invalid raid level: 7");
        bad("raid / --device=x raid.01\n", "without RAID level");
        bad("raid / --noformat\n", "required: --device");
        bad("raid / --noformat --device=\n", "Device required");
        bad("btrfs / --subvol LABEL=f\n", "requires a name");
        bad("btrfs /\n", "list of partitions");
        bad("autopart --type=foo\n", "Invalid autopart type: foo");
        bad("autopart --fstype=btrfs\n", "use --type=btrfs");
        bad("reqpart --add-boot=1\n", "ignored explicit argument");
        bad("part / --fstype='reiserfs\n", "quote");
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("ksstorage");
        TCase *tc = tcase_create("ksstorage");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_part);
        tcase_add_test(tc, test_logvol_raid_btrfs);
        tcase_add_test(tc, test_autopart_reqpart);
        tcase_add_test(tc, test_replaced);
        tcase_add_test(tc, test_includes);
        tcase_add_test(tc, test_include_budget);
        tcase_add_test(tc, test_errors);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
