/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hostile targets against rootfs.c: symlinks (absolute, relative, chains of ".."), hard links,
 * FIFOs and devices arranged so that a read or a write in the target would reach outside it
 * or hang. Each test puts a file outside the target and checks it is never touched. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "seinstall-private.h"
#include "testutil.h"

struct fixture {
        char *root;    /* the target */
        char *outside; /* a directory next to it that must stay untouched */
        char *victim;  /* outside/victim, content "precious\n" */
        struct seinstall_ctx *ctx;
};
static struct fixture f;

static void setup(void)
{
        f.root = make_tmpdir();
        f.outside = make_tmpdir();
        f.victim = path_join(f.outside, "victim");
        write_file(f.victim, "precious\n");
        ck_assert_int_eq(seinstall_new(f.root, &f.ctx), 0);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/selinux", 0755, 0), 0);
}

static void teardown(void)
{
        seinstall_unref(f.ctx);
        tmpdir_removep(&f.root);
        tmpdir_removep(&f.outside);
        free(f.victim);
}

/* Host path of @path inside the target. */
static char *in_root(const char *path)
{
        char *p = path_join(f.root, path);
        ck_assert_ptr_nonnull(p);
        return p;
}

static void assert_victim_untouched(void)
{
        _cleanup_free_ char *data = NULL;
        struct stat st;

        ck_assert_int_eq(read_file_bounded(f.victim, 1024, &data, NULL), 0);
        ck_assert_str_eq(data, "precious\n");
        ck_assert_int_eq(lstat(f.victim, &st), 0);
        ck_assert(S_ISREG(st.st_mode));
}

static void assert_target_file(const char *path, const char *content)
{
        _cleanup_free_ char *p = in_root(path), *data = NULL;
        struct stat st;

        ck_assert_int_eq(lstat(p, &st), 0);
        ck_assert_msg(S_ISREG(st.st_mode), "%s is not a regular file", p);
        ck_assert_int_eq(read_file_bounded(p, 1 << 20, &data, NULL), 0);
        ck_assert_str_eq(data, content);
}

START_TEST(test_write_over_absolute_symlink)
{
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config");

        ck_assert_int_eq(symlink(f.victim, cfg), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "new\n", 4, 0644, 0),
                         0);
        assert_victim_untouched();
        assert_target_file("/etc/selinux/config", "new\n");
}
END_TEST

/* Written once, then 0 (nothing written) while the file holds the text; a symlink that leads
 * to a file holding the same text is not "the same": it is replaced, never followed. */
START_TEST(test_write_if_changed)
{
        _cleanup_free_ char *mark = in_root("/var/lib/seinstall/mark");
        struct stat before, after;

        ck_assert_int_eq(si_root_write_if_changed(f.ctx, "/var/lib/seinstall/mark", "a\n", 4096, 0),
                         1);
        assert_target_file("/var/lib/seinstall/mark", "a\n");
        ck_assert_int_eq(lstat(mark, &before), 0);
        ck_assert_int_eq(si_root_write_if_changed(f.ctx, "/var/lib/seinstall/mark", "a\n", 4096, 0),
                         0);
        ck_assert_int_eq(lstat(mark, &after), 0);
        ck_assert_uint_eq(after.st_ino, before.st_ino);
        ck_assert_int_eq(
            si_root_write_if_changed(f.ctx, "/var/lib/seinstall/mark", "a\nb\n", 4096, 0), 1);
        assert_target_file("/var/lib/seinstall/mark", "a\nb\n");
        ck_assert_int_eq(unlink(mark), 0);
        ck_assert_int_eq(symlink(f.victim, mark), 0);
        ck_assert_int_eq(
            si_root_write_if_changed(f.ctx, "/var/lib/seinstall/mark", "precious\n", 4096, 0), 1);
        assert_victim_untouched();
        assert_target_file("/var/lib/seinstall/mark", "precious\n");
}
END_TEST

START_TEST(test_write_over_relative_symlink)
{
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config");
        _cleanup_free_ char *rel = NULL;

        /* Enough ".." to reach / from anywhere, then the victim's absolute path. */
        ck_assert_int_ge(asprintf(&rel, "../../../../../../../../../../../..%s", f.victim), 0);
        ck_assert_int_eq(symlink(rel, cfg), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "new\n", 4, 0644, 0),
                         0);
        assert_victim_untouched();
        assert_target_file("/etc/selinux/config", "new\n");
}
END_TEST

START_TEST(test_write_through_dir_symlinks)
{
        _cleanup_free_ char *def = in_root("/etc/default");
        _cleanup_free_ char *inside = NULL, *where = path_join(f.outside, "victim");

        /* where: the victim's path taken inside the target, where the write must land */

        /* /etc/default -> ../../../../<outside>: resolved in the root it is <root>/<outside>. */
        ck_assert_int_ge(asprintf(&inside, "../../../../../../../..%s", f.outside), 0);
        ck_assert_int_eq(symlink(inside, def), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/default/victim", "new\n", 4, 0644, 0),
                         -ENOENT);
        /* mkdir -p does not create a symlink's target: the dangling link is an error. */
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/default", 0755, 0), -ENOENT);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, f.outside, 0755, 0), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/default/victim", "new\n", 4, 0644, 0),
                         0);
        assert_victim_untouched();
        assert_target_file(where, "new\n");
}
END_TEST

START_TEST(test_path_dotdot)
{
        ck_assert_int_eq(
            si_root_write_atomic(f.ctx, "/../../../../etc/selinux/config", "x\n", 2, 0644, 0), 0);
        assert_target_file("/etc/selinux/config", "x\n");
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/..", "x\n", 2, 0644, 0),
                         -EINVAL);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/", "x\n", 2, 0644, 0), -EINVAL);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "", "x\n", 2, 0644, 0), -EINVAL);
}
END_TEST

START_TEST(test_read_symlink_outside)
{
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config"), *data = NULL;
        size_t len;

        ck_assert_int_eq(symlink(f.victim, cfg), 0);
        ck_assert_int_eq(si_root_read_file(f.ctx, "/etc/selinux/config", 1024, &data, &len),
                         -ENOENT);
        ck_assert_ptr_null(data);
}
END_TEST

START_TEST(test_mkdir_through_symlink)
{
        _cleanup_free_ char *etc_x = in_root("/etc/x"), *there = NULL;
        struct stat st;

        ck_assert_int_eq(symlink(f.outside, etc_x), 0);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/x/made", 0755, 0), -ENOENT);
        ck_assert_int_ge(asprintf(&there, "%s/made", f.outside), 0);
        ck_assert_int_eq(stat(there, &st), -1);
}
END_TEST

START_TEST(test_mkdir_over_file)
{
        _cleanup_free_ char *p = in_root("/etc/selinux/config");

        write_file(p, "file\n");
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/selinux/config", 0755, 0), -ENOTDIR);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/selinux/config/x", 0755, 0), -ENOTDIR);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/selinux", 0755, 0), 0);
}
END_TEST

START_TEST(test_write_over_hard_link)
{
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config");

        /* Both temporary directories are on the same filesystem, so a hard link is possible:
         * replacing the config must not change the other name's content. */
        if (link(f.victim, cfg) < 0 && errno == EXDEV)
                return;
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "new\n", 4, 0644, 0),
                         0);
        assert_victim_untouched();
        assert_target_file("/etc/selinux/config", "new\n");
}
END_TEST

START_TEST(test_write_over_directory)
{
        _cleanup_free_ char *dir = in_root("/etc/selinux/config"), *d = in_root("/etc/selinux");
        struct dirent *de;
        DIR *dh;

        ck_assert_int_eq(mkdir(dir, 0755), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "new\n", 4, 0644, 0),
                         -EISDIR);
        dh = opendir(d);
        ck_assert_ptr_nonnull(dh);
        while ((de = readdir(dh)))
                ck_assert_msg(strncmp(de->d_name, ".#", 2) != 0, "left %s", de->d_name);
        closedir(dh);
}
END_TEST

START_TEST(test_read_fifo_does_not_hang)
{
        _cleanup_free_ char *p = in_root("/etc/selinux/config"), *data = NULL;

        ck_assert_int_eq(mkfifo(p, 0644), 0);
        ck_assert_int_eq(si_root_read_file(f.ctx, "/etc/selinux/config", 1024, &data, NULL),
                         -EBADFD);
        ck_assert_ptr_null(data);
}
END_TEST

START_TEST(test_read_device_refused)
{
        _cleanup_free_ char *p = in_root("/etc/selinux/config"), *data = NULL;

        /* /dev/kmsg: reading blocks once the log is read; a config must be a regular file. */
        if (mknod(p, S_IFCHR | 0644, makedev(1, 11)) < 0)
                return; /* not root */
        ck_assert_int_eq(si_root_read_file(f.ctx, "/etc/selinux/config", 1 << 20, &data, NULL),
                         -EBADFD);
        ck_assert_ptr_null(data);
}
END_TEST

START_TEST(test_read_replaced_symlink_refused)
{
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config"), *data = NULL;
        _cleanup_free_ char *real = in_root("/etc/selinux/real");

        /* A link inside the target is still refused: the file at the link is what gets
         * replaced, and the linked file's content must not be written back under its name. */
        write_file(real, "SELINUX=enforcing\n");
        ck_assert_int_eq(symlink("real", cfg), 0);
        ck_assert_int_eq(si_root_read_replaced(f.ctx, "/etc/selinux/config", 1024, &data, NULL),
                         -ELOOP);
        ck_assert_ptr_null(data);
        ck_assert_int_eq(si_root_read_file(f.ctx, "/etc/selinux/config", 1024, &data, NULL), 0);
        ck_assert_str_eq(data, "SELINUX=enforcing\n");
}
END_TEST

START_TEST(test_host_input_fifo_refused)
{
        _cleanup_free_ char *p = path_join(f.outside, "fifo"), *data = NULL;

        ck_assert_int_eq(mkfifo(p, 0644), 0);
        ck_assert_int_eq(read_file_bounded(p, 1024, &data, NULL), -EBADFD);
        ck_assert_int_eq(open_regular(p), -EBADFD);
        ck_assert_int_eq(open_regular(f.outside), -EISDIR);
        ck_assert_int_eq(si_root_open_regular(f.ctx, "/etc/selinux", true), -EISDIR);
}
END_TEST

START_TEST(test_stale_temporaries_removed)
{
        _cleanup_free_ char *mine = in_root("/etc/selinux/.#config.0123456789abcdef");
        _cleanup_free_ char *link = in_root("/etc/selinux/.#config.fedcba9876543210");
        _cleanup_free_ char *other = in_root("/etc/selinux/.#other.0123456789abcdef");
        _cleanup_free_ char *odd = in_root("/etc/selinux/.#config.0123456789abcdeg");
        _cleanup_free_ char *dir = in_root("/etc/selinux/.#config.00000000000000aa");
        struct stat st;

        /* A run killed between creating its temporary and the rename leaves one behind. */
        write_file(mine, "half\n");
        ck_assert_int_eq(symlink(f.victim, link), 0);
        write_file(other, "x\n");
        write_file(odd, "x\n");
        ck_assert_int_eq(mkdir(dir, 0755), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "new\n", 4, 0644, 0),
                         0);
        ck_assert_int_eq(lstat(mine, &st), -1);
        /* only regular files of its own pattern: the link, other names and a directory stay */
        ck_assert_int_eq(lstat(link, &st), 0);
        ck_assert(S_ISLNK(st.st_mode));
        ck_assert_int_eq(lstat(other, &st), 0);
        ck_assert_int_eq(lstat(odd, &st), 0);
        ck_assert_int_eq(lstat(dir, &st), 0);
        assert_victim_untouched();
        assert_target_file("/etc/selinux/config", "new\n");
}
END_TEST

START_TEST(test_long_paths)
{
        _cleanup_free_ char *longpath = malloc(PATH_MAX + 100), *longname = malloc(400);

        memset(longpath, 'a', PATH_MAX + 99);
        for (size_t i = 50; i < PATH_MAX + 99; i += 50)
                longpath[i] = '/';
        longpath[0] = '/';
        longpath[PATH_MAX + 99] = '\0';
        ck_assert_int_eq(si_root_write_atomic(f.ctx, longpath, "x", 1, 0644, 0), -ENAMETOOLONG);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, longpath, 0755, 0), -ENAMETOOLONG);
        ck_assert_int_eq(si_root_read_file(f.ctx, longpath, 10, &longname, NULL), -ENAMETOOLONG);

        memset(longname, 'b', 399);
        longname[0] = '/';
        longname[399] = '\0';
        ck_assert_int_eq(si_root_write_atomic(f.ctx, longname, "x", 1, 0644, 0), -ENAMETOOLONG);
}
END_TEST

START_TEST(test_unlink_symlink_only)
{
        _cleanup_free_ char *cfg = in_root("/.autorelabel");
        struct stat st;

        ck_assert_int_eq(symlink(f.victim, cfg), 0);
        ck_assert_int_eq(si_root_unlink(f.ctx, "/.autorelabel", 0), 0);
        ck_assert_int_eq(lstat(cfg, &st), -1);
        assert_victim_untouched();
}
END_TEST

/* A dry run of each writer decides what a real run would do and writes nothing: a missing
 * parent directory is no error (a dry mkdir made none), a path with no last component is. */
START_TEST(test_dry_run_writes_nothing)
{
        const unsigned dry = SI_WRITE_DRY_RUN;
        _cleanup_free_ char *cfg = in_root("/etc/selinux/config"), *link = in_root("/etc/l"),
                            *made = in_root("/etc/made");
        char buf[64];
        struct stat st;

        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/config", "x\n", 2, 0644, dry),
                         0);
        ck_assert_int_eq(lstat(cfg, &st), -1);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/missing/config", "x\n", 2, 0644, dry), 0);
        ck_assert_int_eq(si_root_write_atomic(f.ctx, "/etc/selinux/..", "x\n", 2, 0644, dry),
                         -EINVAL);
        ck_assert_int_eq(si_root_mkdir_p(f.ctx, "/etc/made", 0755, dry), 0);
        ck_assert_int_eq(lstat(made, &st), -1);

        write_file(cfg, "old\n");
        ck_assert_int_eq(si_root_unlink(f.ctx, "/etc/selinux/config", dry), 0);
        assert_target_file("/etc/selinux/config", "old\n");
        ck_assert_int_eq(si_root_unlink(f.ctx, "/missing/config", dry), 0);
        ck_assert_int_eq(si_root_unlink(f.ctx, "/missing/config", 0), 0);

        /* a link: 1 where a real run makes or replaces it, 0 where it is already right */
        ck_assert_int_eq(si_root_symlink(f.ctx, "/missing/l", "t", dry), 1);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/l", "t", dry), 1);
        ck_assert_int_eq(lstat(link, &st), -1);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/l", "t", 0), 1);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/l", "t", dry), 0);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/l", "other", dry), 1);
        ck_assert_int_eq(readlink(link, buf, sizeof(buf)), 1);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/l", "t", 0), 0);
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/..", "t", dry), -EINVAL);
        /* a file of that name is not replaced by a link */
        ck_assert_int_eq(si_root_symlink(f.ctx, "/etc/selinux/config", "t", 0), -EEXIST);
        assert_target_file("/etc/selinux/config", "old\n");
}
END_TEST

int main(void)
{
        Suite *s = suite_create("rootfs-hostile");
        TCase *tc = tcase_create("hostile");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 10);
        tcase_add_test(tc, test_write_over_absolute_symlink);
        tcase_add_test(tc, test_write_over_relative_symlink);
        tcase_add_test(tc, test_write_if_changed);
        tcase_add_test(tc, test_write_through_dir_symlinks);
        tcase_add_test(tc, test_path_dotdot);
        tcase_add_test(tc, test_read_symlink_outside);
        tcase_add_test(tc, test_mkdir_through_symlink);
        tcase_add_test(tc, test_mkdir_over_file);
        tcase_add_test(tc, test_write_over_hard_link);
        tcase_add_test(tc, test_write_over_directory);
        tcase_add_test(tc, test_read_fifo_does_not_hang);
        tcase_add_test(tc, test_read_device_refused);
        tcase_add_test(tc, test_read_replaced_symlink_refused);
        tcase_add_test(tc, test_host_input_fifo_refused);
        tcase_add_test(tc, test_stale_temporaries_removed);
        tcase_add_test(tc, test_long_paths);
        tcase_add_test(tc, test_unlink_symlink_only);
        tcase_add_test(tc, test_dry_run_writes_nothing);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
