/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the walker's table of files with several names (walk-links.c): it keeps each
 * file's name that sorts first whatever the order names arrive in, on any number of devices,
 * stays within its bound (files and bytes of names) by halving the part of the files a pass
 * handles once full (the others wait for a later pass, SI_WALK_LINK_LATER), so that over all
 * passes every file is remembered in exactly one, with its best name; it compacts its arena of
 * names without losing one, and labels each remembered file once, through its best name, after
 * the walk. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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
        ck_assert(!j->links_later);
        walk_free(j);
}
END_TEST

#define AS "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* Files with several names on many filesystems (btrfs subvolumes, tmpfs mounts: each its own
 * device): each is remembered with its best name, whatever its device; the 64 the table once
 * had room for are nothing special. */
START_TEST(test_many_devices)
{
        enum { DEVS = 5000 };
        struct si_walk *j = walk_new(0, 0);
        char name[32];

        for (int d = 0; d < DEVS; d++) {
                snprintf(name, sizeof(name), "/m%04d/z", d);
                ck_assert_int_eq(
                    si_walk_links_add(j, makedev(0, (unsigned) d + 30), 5, name, S_IFREG), 1);
        }
        for (int d = DEVS - 1; d >= 0; d--) {
                snprintf(name, sizeof(name), "/m%04d/a", d);
                ck_assert_int_eq(
                    si_walk_links_add(j, makedev(0, (unsigned) d + 30), 5, name, S_IFREG), 0);
        }
        for (int d = 0; d < DEVS; d++) {
                snprintf(name, sizeof(name), "/m%04d/a", d);
                ck_assert_str_eq(si_walk_links_find(j, makedev(0, (unsigned) d + 30), 5), name);
        }
        /* real device numbers: a large major and minor, and the same inode on another major */
        ck_assert_int_eq(si_walk_links_add(j, makedev(259, 0xfffff), 5, "/nvme", S_IFREG), 1);
        ck_assert_int_eq(si_walk_links_add(j, makedev(8, 0xfffff), 5, "/sd", S_IFREG), 1);
        ck_assert_str_eq(si_walk_links_find(j, makedev(259, 0xfffff), 5), "/nvme");
        ck_assert_str_eq(si_walk_links_find(j, makedev(8, 0xfffff), 5), "/sd");
        ck_assert_uint_eq(j->nlinks, DEVS + 2);
        ck_assert(!j->links_later);
        /* a device number no kernel makes is refused, never mixed up with another */
        ck_assert_int_eq(si_walk_links_add(j, makedev(0x1000, 0), 5, "/odd", S_IFREG), -EOVERFLOW);
        walk_free(j);
}
END_TEST

/* Every pass of a walk over @files files, each with @names names met in a shuffled order per
 * pass, into a table of @links_max files and @names_max bytes: each file must be remembered in
 * exactly one pass, with its name that sorts first (name 0 below). Returns the passes. */
static unsigned run_passes(unsigned files, unsigned names, size_t links_max, size_t names_max)
{
        struct si_walk *j = walk_new(links_max, names_max);
        unsigned *seen = calloc(files, sizeof(*seen)),
                 *order = calloc(files * names, sizeof(*order));
        unsigned passes = 0, seed = 12345;
        char name[96];

        ck_assert_ptr_nonnull(seen);
        ck_assert_ptr_nonnull(order);
        for (unsigned i = 0; i < files * names; i++)
                order[i] = i;
        do {
                passes++;
                ck_assert_uint_le(passes, 10000);
                for (unsigned i = files * names; i > 1; i--) { /* a new walk order each pass */
                        unsigned k = (seed = seed * 1103515245 + 12345) % i, t = order[i - 1];
                        order[i - 1] = order[k];
                        order[k] = t;
                }
                for (unsigned i = 0; i < files * names; i++) {
                        unsigned f = order[i] / names, n = order[i] % names;
                        int r;
                        /* name 0 sorts first; the names differ in length, so a better name does
                         * not always fit in the place of the one it replaces */
                        snprintf(name, sizeof(name), "/dir%u/%.*sname-%05u", n, (int) (n * 7 % 40),
                                 AS, f);
                        r = si_walk_links_add(j, makedev(0, 40 + f % 3), 1000 + f, name, S_IFREG);
                        ck_assert(r == 0 || r == 1 || r == SI_WALK_LINK_LATER);
                }
                ck_assert_uint_le(j->nlinks, links_max ? links_max : SI_WALK_LINKS_MAX);
                ck_assert_uint_le(j->names_cap, names_max ? names_max : SI_WALK_NAMES_MAX);
                for (unsigned f = 0; f < files; f++) {
                        const char *got = si_walk_links_find(j, makedev(0, 40 + f % 3), 1000 + f);
                        if (!got)
                                continue;
                        snprintf(name, sizeof(name), "/dir0/name-%05u", f);
                        ck_assert_str_eq(got, name);
                        seen[f]++;
                }
        } while (si_walk_links_next_pass(j));
        for (unsigned f = 0; f < files; f++)
                ck_assert_uint_eq(seen[f], 1);
        ck_assert_uint_eq(j->links_passes + 1, passes);
        free(seen);
        free(order);
        walk_free(j);
        return passes;
}

/* A table of files that is too small: more passes, never a file left out, never one twice,
 * never a name that does not sort first. */
START_TEST(test_full_table_passes)
{
        ck_assert_uint_eq(run_passes(300, 3, 0, 0), 1);    /* fits: one walk */
        ck_assert_uint_gt(run_passes(300, 3, 64, 0), 4);   /* 64 files for 300 */
        ck_assert_uint_gt(run_passes(200, 4, 1, 0), 100);  /* one file per pass, in effect */
        ck_assert_uint_gt(run_passes(500, 3, 0, 4096), 1); /* the arena of names full */
        ck_assert_uint_gt(run_passes(2000, 2, 100, 8192), 16);
}
END_TEST

/* A name that cannot fit in the arena even alone: an error for that file, not a label through
 * another of its names. */
START_TEST(test_name_too_long_for_arena)
{
        struct si_walk *j = walk_new(0, 64);
        char name[200];
        unsigned found = 0, refused = 0, passes = 0;

        memset(name, 'x', sizeof(name) - 1);
        name[0] = '/';
        name[sizeof(name) - 1] = '\0';
        do {
                int r;
                ck_assert_uint_lt(++passes, 100);
                ck_assert_int_ge(si_walk_links_add(j, 1, 10, "/short", S_IFREG), 0);
                r = si_walk_links_add(j, 1, 11, name, S_IFREG);
                ck_assert(r == SI_WALK_LINK_LATER || r == -ENOSPC);
                refused += r == -ENOSPC;
                found += si_walk_links_find(j, 1, 10) != NULL;
                ck_assert_ptr_null(si_walk_links_find(j, 1, 11));
        } while (si_walk_links_next_pass(j));
        ck_assert_uint_eq(found, 1);
        ck_assert_uint_eq(refused, 1);
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
        ck_assert(!j->links_later);
        ck_assert_uint_le(j->names_cap, 256 * 1024);
        ck_assert_uint_le(j->links_cap, 2 * 4096);
        for (int i = 0; i < FILES; i++) {
                snprintf(name, sizeof(name), "/d%05d/%.*sz", i, NAMES * 8, AS);
                ck_assert_str_eq(si_walk_links_find(j, 7, (ino_t) i + 100), name);
        }
        /* the table is full: a new file halves the part this pass handles; the files of
         * the other half wait for a later pass, a known one of this half still improves */
        ck_assert(!j->links_later);
        int r = si_walk_links_add(j, 7, 99999, "/new", S_IFREG);
        ck_assert(r == 1 || r == SI_WALK_LINK_LATER);
        ck_assert(j->links_later);
        ck_assert_uint_ge(j->links_bits, 1);
        ck_assert_uint_lt(j->nlinks, FILES);
        for (int i = 0; i < FILES; i++) {
                const char *got = si_walk_links_find(j, 7, (ino_t) i + 100);
                snprintf(name, sizeof(name), "/d%05d/%.*sz", i, NAMES * 8, AS);
                if (got) {
                        ck_assert_str_eq(got, name);
                        ck_assert_int_eq(si_walk_links_add(j, 7, (ino_t) i + 100, "/a", S_IFREG),
                                         0);
                        ck_assert_str_eq(si_walk_links_find(j, 7, (ino_t) i + 100), "/a");
                } else {
                        ck_assert_int_eq(si_walk_links_add(j, 7, (ino_t) i + 100, "/a", S_IFREG),
                                         SI_WALK_LINK_LATER);
                }
        }
        walk_free(j);
}
END_TEST

START_TEST(test_arena_full)
{
        struct si_walk *j = walk_new(0, 100);
        char name[64];
        int later = 0;

        for (int i = 0; i < 20; i++) {
                int r;
                snprintf(name, sizeof(name), "/dir/file-%02d", i);
                r = si_walk_links_add(j, 1, (ino_t) i + 1, name, S_IFREG);
                ck_assert(r == 1 || r == SI_WALK_LINK_LATER);
                later += r == SI_WALK_LINK_LATER;
        }
        ck_assert_int_gt(later, 0);
        ck_assert(j->links_later);
        ck_assert_uint_le(j->names_cap, 100);
        ck_assert_uint_lt(j->nlinks, 20 - (size_t) later + 1);
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

/* After the walk, each remembered file is visited once through its best name, over as many
 * passes as its table needs. */
START_TEST(test_label_after_walk)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        struct seinstall_ctx *ctx = NULL;
        struct si_walker w = {0};
        struct si_walk *j = walk_new(2, 0);
        char a[PATH_MAX], b[PATH_MAX];
        struct stat st[3];
        unsigned passes = 0;

        for (int i = 0; i < 3; i++) {
                char n1[16], n2[16];
                snprintf(n1, sizeof(n1), "x%d", i);
                snprintf(n2, sizeof(n2), "y%d", i);
                at(a, sizeof(a), dir, n1);
                at(b, sizeof(b), dir, n2);
                write_file(b, "");
                ck_assert_int_eq(link(b, a), 0);
                ck_assert_int_eq(stat(a, &st[i]), 0);
        }
        ck_assert_int_eq(seinstall_new(dir, &ctx), 0);
        j->ctx = ctx;
        j->ops = &(const struct si_walk_ops){.visit = record_visit};
        w.walk = j;
        n_visited = 0;
        do {
                passes++;
                for (int i = 0; i < 3; i++) {
                        /* the walk meets y before x */
                        snprintf(b, sizeof(b), "/y%d", i);
                        snprintf(a, sizeof(a), "/x%d", i);
                        ck_assert_int_ge(
                            si_walk_links_add(j, st[i].st_dev, st[i].st_ino, b, S_IFREG), 0);
                        ck_assert_int_ge(
                            si_walk_links_add(j, st[i].st_dev, st[i].st_ino, a, S_IFREG), 0);
                }
                si_walk_links_label(j, &w);
        } while (si_walk_links_next_pass(j));
        ck_assert_uint_gt(passes, 1); /* 3 files, a table of 2 */
        ck_assert_uint_eq(n_visited, 3);
        for (unsigned k = 0; k < 3; k++) {
                ck_assert_int_eq(visited[k][0], '/');
                ck_assert_int_eq(visited[k][1], 'x');
                for (unsigned m = 0; m < k; m++)
                        ck_assert_str_ne(visited[k], visited[m]);
        }
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
        ck_assert_uint_eq(atomic_load(&w.counts[SEINSTALL_RELABEL_COUNT_ERRORS]), 1);
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
        tcase_add_test(tc, test_many_devices);
        tcase_add_test(tc, test_full_table_passes);
        tcase_add_test(tc, test_name_too_long_for_arena);
        tcase_add_test(tc, test_arena_full);
        tcase_add_test(tc, test_label_after_walk);
        tcase_add_test(tc, test_reports_through_ops);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
