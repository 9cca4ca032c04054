/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of plan.c: fstab-format plans, good and bad lines (errors name file and line),
 * skipped swap, type auto / missing on devices that do not exist or hold no filesystem. */
#include <check.h>

#include "seinstall-private.h"
#include "check-stage.h"
#include "testutil.h"

struct plan_run {
        char *dir;
        char *file;
        struct seinstall_ctx *ctx;
        struct si_mount_list list;
        int r;
};

static void plan_run(struct plan_run *pr, const char *text)
{
        pr->dir = make_tmpdir();
        pr->file = path_join(pr->dir, "plan");
        write_file(pr->file, text);
        ck_assert_int_eq(seinstall_new(pr->dir, &pr->ctx), 0);
        pr->list = (struct si_mount_list){0};
        pr->r = si_plan_read(pr->ctx, pr->file, &pr->list);
}

static void plan_done(struct plan_run *pr)
{
        si_mount_list_free(&pr->list);
        seinstall_unref(pr->ctx);
        free(pr->file);
        tmpdir_removep(&pr->dir);
}

/* The run failed with @err and its message names "<file>:<line>". */
static void assert_failed_at(struct plan_run *pr, int err, unsigned line)
{
        _cleanup_free_ char *where = NULL;

        ck_assert_int_eq(pr->r, err);
        ck_assert_int_ge(asprintf(&where, "%s:%u:", pr->file, line), 0);
        ck_assert_msg(seinstall_last_error(pr->ctx) && strstr(seinstall_last_error(pr->ctx), where),
                      "message '%s' does not name %s", seinstall_last_error(pr->ctx), where);
}

START_TEST(test_good_plan)
{
        struct plan_run pr;

        plan_run(&pr, "# comment\n"
                      "\n"
                      "/dev/vda2 / ext4 errors=remount-ro 0 1\r\n"
                      "UUID=1234-ABCD /boot/efi vfat umask=0077 0 1\n"
                      "  /dev/vda3\t/home  xfs  defaults\n"
                      "/dev/vda4 none swap sw 0 0\n"
                      "tmpfs /tmp tmpfs context=\"system_u:object_r:tmp_t:s0:c0,c1\" 0 0\n"
                      "/dev/vda5 /srv/my\\040data ext4 defaults\n");
        ck_assert_int_eq(pr.r, 0);
        ck_assert_int_eq(pr.list.n, 5);
        ck_assert_str_eq(pr.list.v[0].mountpoint, "/");
        ck_assert_str_eq(pr.list.v[0].source, "/dev/vda2");
        ck_assert_str_eq(pr.list.v[0].fstype, "ext4");
        ck_assert_str_eq(pr.list.v[0].options, "errors=remount-ro");
        ck_assert_uint_eq(pr.list.v[0].line, 3);
        ck_assert_ptr_null(pr.list.v[0].path);
        ck_assert_int_eq(pr.list.v[0].probe, SI_PROBE_NOT_RUN);
        ck_assert_str_eq(pr.list.v[1].source, "UUID=1234-ABCD");
        ck_assert_str_eq(pr.list.v[1].mountpoint, "/boot/efi");
        ck_assert_uint_eq(pr.list.v[2].line, 5);
        ck_assert_str_eq(pr.list.v[2].mountpoint, "/home");
        ck_assert_str_eq(pr.list.v[3].mountpoint, "/tmp");
        ck_assert_uint_eq(pr.list.v[3].line, 7);
        ck_assert_str_eq(pr.list.v[4].mountpoint, "/srv/my data");
        plan_done(&pr);
}
END_TEST

START_TEST(test_bad_lines)
{
        struct plan_run pr;

        plan_run(&pr, "/dev/vda2 / ext4 defaults 0 1\n# ok\n/dev/vda3\n");
        assert_failed_at(&pr, -EBADMSG, 3);
        plan_done(&pr);

        plan_run(&pr, "/dev/vda2 / ext4 defaults zero 1\n");
        assert_failed_at(&pr, -EBADMSG, 1);
        plan_done(&pr);

        plan_run(&pr, "/dev/vda2 / ext4 defaults\n/dev/vda3 home ext4 defaults\n");
        assert_failed_at(&pr, -EBADMSG, 2);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(pr.ctx), "not an absolute path"));
        plan_done(&pr);

        plan_run(&pr, "/dev/vda2 / ext4\n\n/dev/vda3 /home xfs\n/dev/vda4 / xfs\n");
        assert_failed_at(&pr, -EBADMSG, 4);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(pr.ctx), "already planned on line 1"));
        plan_done(&pr);

        plan_run(&pr, "# nothing but comments\n\n");
        ck_assert_int_eq(pr.r, -EBADMSG);
        plan_done(&pr);

        plan_run(&pr, "");
        ck_assert_int_eq(pr.r, -EBADMSG);
        plan_done(&pr);
}
END_TEST

START_TEST(test_not_text)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *file = path_join(dir, "plan");
        struct seinstall_ctx *ctx = NULL;
        struct si_mount_list l = {0};
        FILE *f = fopen(file, "we");

        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fwrite("/dev/a / ext4\0x\n", 1, 16, f), 16);
        fclose(f);
        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        ck_assert_int_eq(si_plan_read(ctx, file, &l), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "not text"));
        ck_assert_int_eq(si_plan_read(ctx, "/nonexistent/plan", &l), -ENOENT);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "/nonexistent/plan"));
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_probe_needed)
{
        struct plan_run pr;
        _cleanup_free_ char *text = NULL, *img = NULL;

        /* Type missing or auto on a device that does not exist: bad input, with the line. */
        plan_run(&pr, "/dev/vda2 / ext4\n/nonexistent/disk.img /home\n");
        assert_failed_at(&pr, -ENOENT, 2);
        plan_done(&pr);

        plan_run(&pr, "/nonexistent/disk.img / auto defaults 0 1\n");
        assert_failed_at(&pr, -ENOENT, 1);
        plan_done(&pr);

        plan_run(&pr, "UUID=00000000-dead-beef-0000-000000000000 / auto defaults\n");
        assert_failed_at(&pr, -ENOENT, 1);
        plan_done(&pr);

        /* An image of zeros holds no filesystem libblkid knows. */
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        img = path_join(dir, "zero.img");
        {
                FILE *f = fopen(img, "we");
                ck_assert_ptr_nonnull(f);
                ck_assert_int_eq(ftruncate(fileno(f), 1 << 20), 0);
                fclose(f);
        }
        ck_assert_int_ge(asprintf(&text, "# x\n%s /\n", img), 0);
        plan_run(&pr, text);
        assert_failed_at(&pr, -EINVAL, 2);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(pr.ctx), "no filesystem found"));
        plan_done(&pr);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("plan");
        TCase *tc = tcase_create("plan");

        tcase_add_test(tc, test_good_plan);
        tcase_add_test(tc, test_bad_lines);
        tcase_add_test(tc, test_not_text);
        tcase_add_test(tc, test_probe_needed);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
