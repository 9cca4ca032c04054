/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the walker's table of files with several names (walk-links.c): it keeps each
 * file's name that sorts first whatever the order names arrive in, stays within its bound
 * (files and bytes of names) by refusing new files once full (-ENOSPC: the walk labels those
 * through each name at once), compacts its arena of names without losing one, and labels each
 * remembered file once, through its best name, after the walk. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "testutil.h"
#include "walk-internal.h"

static struct si_walk *walk_new(size_t links_max, size_t names_max)
{
        struct si_walk *j = calloc(1, sizeof(*j));

        ck_assert_ptr_nonnull(j);
        j->links_max = links_max;
        j->names_max = names_max;
        ck_assert_int_eq(si_walk_init(j), 0);
        return j;
}

static void walk_free(struct si_walk *j)
{
        si_walk_done(j);
        free(j);
}

START_TEST(test_keeps_name_that_sorts_first)
{
        struct si_walk *j = walk_new(0, 0);

        ck_assert_int_eq(si_walk_links_add(j, 1, 10, "/var/lib/b", S_IFREG), 1);
        ck_assert_int_eq(si_walk_links_add(j, 1, 10, "/var/lib/c", S_IFREG), 0);
        ck_assert_str_eq(si_walk_links_find(j, 1, 10), "/var/lib/b");
        /* a shorter name that sorts first takes the old one's place */
        ck_assert_int_eq(si_walk_links_add(j, 1, 10, "/usr/a", S_IFREG), 0);
        ck_assert_str_eq(si_walk_links_find(j, 1, 10), "/usr/a");
        /* a longer one goes to the end of the arena */
        ck_assert_int_eq(si_walk_links_add(j, 1, 10, "/etc/a-much-longer-name", S_IFREG), 0);
        ck_assert_str_eq(si_walk_links_find(j, 1, 10), "/etc/a-much-longer-name");
        /* same inode on another device is another file */
        ck_assert_int_eq(si_walk_links_add(j, 2, 10, "/zzz", S_IFREG), 1);
        ck_assert_str_eq(si_walk_links_find(j, 2, 10), "/zzz");
        ck_assert_ptr_null(si_walk_links_find(j, 3, 10));
        ck_assert_uint_eq(j->nlinks, 2);
        ck_assert_uint_eq(j->links_spilled, 0);
        walk_free(j);
}
END_TEST

#define AS "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* Files with several names on more filesystems than the device table holds: those past it
 * are not remembered (-ENOSPC: the walk labels them through each name at once) and counted;
 * the ones remembered are still found. */
START_TEST(test_device_table_full)
{
        struct si_walk *j = walk_new(0, 0);
        char name[32];

        for (int d = 0; d < SI_WALK_LINK_DEVS; d++) {
                snprintf(name, sizeof(name), "/m%02d/f", d);
                ck_assert_int_eq(si_walk_links_add(j, (dev_t) d + 1, 5, name, S_IFREG), 1);
        }
        ck_assert_int_eq(si_walk_links_add(j, SI_WALK_LINK_DEVS + 1, 5, "/late/f", S_IFREG),
                         -ENOSPC);
        ck_assert_uint_eq(j->links_spilled, 1);
        ck_assert_ptr_null(si_walk_links_find(j, SI_WALK_LINK_DEVS + 1, 5));
        ck_assert_str_eq(si_walk_links_find(j, SI_WALK_LINK_DEVS, 5), "/m63/f");
        /* another name of a remembered file on a known device still counts as one */
        ck_assert_int_eq(si_walk_links_add(j, 1, 5, "/a/f", S_IFREG), 0);
        ck_assert_str_eq(si_walk_links_find(j, 1, 5), "/a/f");
        walk_free(j);
}
END_TEST

/* Many files, each met through names in decreasing order, so that every better name needs
 * room at the end of a small arena: compaction must keep every file's best name. */
START_TEST(test_bound_and_compaction)
{
        enum { FILES = 3000, NAMES = 4 };
        struct si_walk *j = walk_new(FILES, 256 * 1024);
        char name[64];

        for (int k = 1; k <= NAMES; k++)
                for (int i = 0; i < FILES; i++) {
                        int r;
                        /* each round's name sorts before the last one's and is longer, so
                         * none replaces another in place */
                        snprintf(name, sizeof(name), "/d%05d/%.*sz", i, k * 8, AS);
                        r = si_walk_links_add(j, 7, (ino_t) i + 100, name, S_IFREG);
                        ck_assert_int_eq(r, k == 1 ? 1 : 0);
                }
        ck_assert_uint_eq(j->nlinks, FILES);
        ck_assert_uint_eq(j->links_spilled, 0);
        ck_assert_uint_le(j->names_cap, 256 * 1024);
        ck_assert_uint_le(j->links_cap, 2 * 4096);
        for (int i = 0; i < FILES; i++) {
                snprintf(name, sizeof(name), "/d%05d/%.*sz", i, NAMES * 8, AS);
                ck_assert_str_eq(si_walk_links_find(j, 7, (ino_t) i + 100), name);
        }
        /* the table is full: a new file is refused and counted, a known one still improves */
        ck_assert_int_eq(si_walk_links_add(j, 7, 99999, "/new", S_IFREG), -ENOSPC);
        ck_assert_uint_eq(j->links_spilled, 1);
        ck_assert_int_eq(si_walk_links_add(j, 7, 100, "/a", S_IFREG), 0);
        ck_assert_str_eq(si_walk_links_find(j, 7, 100), "/a");
        walk_free(j);
}
END_TEST

START_TEST(test_arena_full)
{
        struct si_walk *j = walk_new(0, 100);
        char name[64];
        int refused = 0;

        for (int i = 0; i < 20; i++) {
                int r;
                snprintf(name, sizeof(name), "/dir/file-%02d", i);
                r = si_walk_links_add(j, 1, (ino_t) i + 1, name, S_IFREG);
                ck_assert(r == 1 || r == -ENOSPC);
                refused += r == -ENOSPC;
        }
        ck_assert_int_gt(refused, 0);
        ck_assert_uint_eq(j->links_spilled, (size_t) refused);
        ck_assert_uint_le(j->names_cap, 100);
        ck_assert_uint_eq(j->nlinks, 20 - (size_t) refused);
        walk_free(j);
}
END_TEST

static char visited[8][64];
static unsigned n_visited;

static void record_visit(struct si_walker *w, int fd, int dfd, const char *name, const char *path,
                         mode_t mode)
{
        (void) w, (void) dfd, (void) name;
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(mode, S_IFREG);
        ck_assert_uint_lt(n_visited, 8);
        snprintf(visited[n_visited++], sizeof(visited[0]), "%s", path);
}

static void at(char *buf, size_t n, const char *dir, const char *name)
{
        snprintf(buf, n, "%s/%s", dir, name);
}

/* After the walk, each remembered file is visited once through its best name, and the walk
 * warns about the files that did not fit. */
START_TEST(test_label_after_walk)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        struct seinstall_ctx *ctx = NULL;
        struct si_walker w = {0};
        struct si_walk *j = walk_new(2, 0);
        char a[PATH_MAX], b[PATH_MAX];
        struct stat st;

        for (int i = 0; i < 3; i++) {
                char n1[16], n2[16];
                snprintf(n1, sizeof(n1), "x%d", i);
                snprintf(n2, sizeof(n2), "y%d", i);
                at(a, sizeof(a), dir, n1);
                at(b, sizeof(b), dir, n2);
                write_file(b, "");
                ck_assert_int_eq(link(b, a), 0);
                ck_assert_int_eq(stat(a, &st), 0);
                /* the walk meets y before x */
                snprintf(b, sizeof(b), "/%s", n2);
                snprintf(a, sizeof(a), "/%s", n1);
                ck_assert_int_eq(si_walk_links_add(j, st.st_dev, st.st_ino, b, S_IFREG),
                                 i < 2 ? 1 : -ENOSPC);
                ck_assert_int_eq(si_walk_links_add(j, st.st_dev, st.st_ino, a, S_IFREG),
                                 i < 2 ? 0 : -ENOSPC);
        }
        ck_assert_uint_eq(j->links_spilled, 2);
        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        j->ctx = ctx;
        j->ops = &(const struct si_walk_ops){.visit = record_visit};
        w.walk = j;
        n_visited = 0;
        si_walk_links_label(j, &w);
        ck_assert_uint_eq(n_visited, 2);
        ck_assert(strcmp(visited[0], "/x0") == 0 || strcmp(visited[0], "/x1") == 0);
        ck_assert(strcmp(visited[1], "/x0") == 0 || strcmp(visited[1], "/x1") == 0);
        ck_assert_str_ne(visited[0], visited[1]);
        ck_assert_uint_eq(j->nmsgs, 1); /* the warning about the files that did not fit */
        walk_free(j);
        seinstall_unref(ctx);
}
END_TEST

/* What the walker cannot walk reaches its user only through the ops it was given (walk.h),
 * with the user's data: the walker writes into no record of the layers above it. */
struct reported {
        char *error;
        char skipped[64];
};

static void record_error(void *data, char *msg)
{
        struct reported *rep = data;
        free(rep->error);
        rep->error = msg;
}

static int record_skipped(void *data, const char *path, const char *fstype, const char *reason)
{
        struct reported *rep = data;
        snprintf(rep->skipped, sizeof(rep->skipped), "%s %s %s", path, fstype, reason);
        return 0;
}

START_TEST(test_reports_through_ops)
{
        static const struct si_walk_ops ops = {.error = record_error, .skipped = record_skipped};
        struct reported rep = {0};
        struct si_walk *j = walk_new(0, 0);
        struct si_walker w = {.walk = j};

        j->ops = &ops;
        j->data = &rep;
        ck_assert_int_eq(si_walk_add_skipped(j, "/boot/efi", "vfat", "no labels"), 0);
        ck_assert_str_eq(rep.skipped, "/boot/efi vfat no labels");
        si_walk_error(j, &w, "Could not read %s", "/x");
        ck_assert_str_eq(rep.error, "Could not read /x");
        ck_assert_uint_eq(atomic_load(&w.counts[SEINSTALL_RELABEL_ERRORS]), 1);
        free(rep.error);
        walk_free(j);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("walk-links");
        TCase *tc = tcase_create("core");

        tcase_add_test(tc, test_keeps_name_that_sorts_first);
        tcase_add_test(tc, test_bound_and_compaction);
        tcase_add_test(tc, test_device_table_full);
        tcase_add_test(tc, test_arena_full);
        tcase_add_test(tc, test_label_after_walk);
        tcase_add_test(tc, test_reports_through_ops);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
