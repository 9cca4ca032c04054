/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the file-contexts engine (fcontext-*.c): our lookup engine against libselinux's
 * selabel_lookup_raw() (the oracle) on the same file_contexts — the host's real policy on every
 * spec's own literal text and on real paths of this machine, and small crafted files for the
 * precedence corners.
 */
#include <check.h>
#include <ftw.h>
#include <selinux/label.h>
#include <selinux/selinux.h>
#include <sys/stat.h>

#include "fcontext.h"
#include "testutil.h"

#define HOST_FC "/etc/selinux/default/contexts/files/file_contexts"

static const mode_t modes[] = {0, S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK};

struct pair {
        struct si_fcontext *fc;
        struct si_fc_scratch *s;
        struct selabel_handle *h;
        struct seinstall_ctx *ctx;
        unsigned long checked, mismatches;
};

/* Without the JIT the engine screens candidates by a required literal: test that path too. */
static unsigned load_flags;

static void pair_open(struct pair *p, const char *path)
{
        struct selinux_opt opts[] = {{SELABEL_OPT_PATH, path}};

        memset(p, 0, sizeof(*p));
        ck_assert_int_eq(seinstall_new("/", &p->ctx), 0);
        ck_assert_int_eq(si_fcontext_load_path_flags(p->ctx, path, load_flags, &p->fc), 0);
        /* the compile a relabel does after the policy (SI_FC_PARSE_ONLY); a no-op otherwise */
        ck_assert_int_eq(si_fcontext_compile(p->ctx, p->fc), 0);
        ck_assert_int_eq(si_fc_scratch_new(p->fc, &p->s), 0);
        p->h = selabel_open(SELABEL_CTX_FILE, opts, 1);
        ck_assert_ptr_nonnull(p->h);
}

static void pair_close(struct pair *p)
{
        selabel_close(p->h);
        si_fc_scratch_free(p->s);
        si_fcontext_free(p->fc);
        seinstall_unref(p->ctx);
}

/* Compare one lookup; returns what we answered (NULL for "no context"). */
static const char *compare(struct pair *p, const char *path, mode_t mode)
{
        const char *ours = NULL;
        char *theirs = NULL;
        int r = si_fcontext_lookup(p->fc, p->s, path, mode, &ours);
        int t = selabel_lookup_raw(p->h, &theirs, path, (int) mode);

        ck_assert_msg(r >= 0 || r == -ENOENT, "lookup %s failed: %d", path, r);
        ck_assert_msg(t == 0 || errno == ENOENT, "selabel_lookup_raw %s failed: %m", path);
        if (r < 0)
                ours = NULL;
        p->checked++;
        if (!streq_ptr(ours, t == 0 ? theirs : NULL)) {
                if (p->mismatches++ < 20)
                        fprintf(stderr, "MISMATCH %s (mode %o): ours %s, libselinux %s\n", path,
                                (unsigned) mode, ours ? ours : "(none)",
                                t == 0 ? theirs : "(none)");
        }
        freecon(theirs);
        return ours;
}

/* Every spec's own text, its literal part, and paths just inside and beside it. */
START_TEST(test_host_specs)
{
        static const char *const files[] = {HOST_FC, HOST_FC ".homedirs"};
        struct pair p;

        if (access(HOST_FC, R_OK) < 0) {
                fprintf(stderr, "SKIPPED: no %s (make deps installs selinux-policy-default)\n",
                        HOST_FC);
                return;
        }
        pair_open(&p, HOST_FC);
        for (size_t f = 0; f < ELEMENTSOF(files); f++) {
                _cleanup_free_ char *data = NULL;
                const char *pos, *end, *l;
                size_t len, llen;

                ck_assert_int_eq(read_file_bounded(files[f], 64 << 20, &data, &len), 0);
                pos = data;
                end = data + len;
                while (next_line(&pos, end, &l, &llen)) {
                        char lit[4096], *path;
                        size_t n = 0;
                        const char *c = l;

                        if (llen == 0 || l[0] != '/' || llen >= sizeof(lit))
                                continue;
                        /* the text up to the first meta character, escapes resolved */
                        while (c < l + llen && !strchr(".^$?*+|[({ \t", *c) && n < 4000) {
                                if (*c == '\\' && c + 1 < l + llen)
                                        c++;
                                lit[n++] = *c++;
                        }
                        lit[n] = '\0';
                        const char *variants[] = {"",          "/",         "/x",      "x",
                                                  "/a/b.conf", ".d/x.so.1", "/.hidden"};
                        for (size_t v = 0; v < ELEMENTSOF(variants); v++) {
                                ck_assert_int_ge(asprintf(&path, "%s%s", lit, variants[v]), 0);
                                for (size_t m = 0; m < ELEMENTSOF(modes); m += v ? 3 : 1)
                                        compare(&p, path, modes[m]);
                                free(path);
                        }
                }
        }
        fprintf(stderr, "host specs: %lu lookups, %lu mismatches\n", p.checked, p.mismatches);
        ck_assert_uint_gt(p.checked, 20000);
        ck_assert_uint_eq(p.mismatches, 0);
        pair_close(&p);
}
END_TEST

static struct pair *walk_pair;
static unsigned long walk_budget;

static int walk_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        compare(walk_pair, path, st->st_mode);
        return --walk_budget == 0;
}

/* Real paths of this machine with their real file types. */
START_TEST(test_host_tree)
{
        static const char *const roots[] = {"/etc",
                                            "/usr/bin",
                                            "/usr/sbin",
                                            "/usr/lib/systemd",
                                            "/usr/share/doc",
                                            "/var",
                                            "/usr/lib/x86_64-linux-gnu",
                                            "/dev",
                                            "/run",
                                            "/root",
                                            "/home",
                                            "/boot"};
        struct pair p;

        if (access(HOST_FC, R_OK) < 0)
                return;
        pair_open(&p, HOST_FC);
        walk_pair = &p;
        for (size_t i = 0; i < ELEMENTSOF(roots); i++) {
                walk_budget = 4000;
                nftw(roots[i], walk_cb, 16, FTW_PHYS);
        }
        fprintf(stderr, "host tree: %lu lookups, %lu mismatches\n", p.checked, p.mismatches);
        ck_assert_uint_gt(p.checked, 1000);
        ck_assert_uint_eq(p.mismatches, 0);
        pair_close(&p);
}
END_TEST

/* Paths no policy writer thought of. */
START_TEST(test_odd_paths)
{
        static const char *const odd[] = {
            "/",
            "/etc",
            "/etc/",
            "/etc/passwd\n",
            "/etc/passwd\nx",
            "/usr/bin/\xff\xfe",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/home/user/.ssh/authorized_keys",
            "/home/user",
            "/root/.ssh",
            "/tmp/.X11-unix/X0",
            "/lib/systemd/systemd",
            "/lib64/ld-linux-x86-64.so.2",
            "/sbin/init",
            "/var/run/utmp",
            "/usr/lib64/x",
            "/usr/local/lib64/x",
            "/var/lib/private/x",
            "/a b/c d",
            "/usr/bin/a\\b",
            "/proc/1/status",
            "/sys/kernel",
            "/dev/null",
            "/dev/pts/0",
            "/.autorelabel",
            "/lost+found",
            "/boot/efi/EFI",
        };
        struct pair p;

        if (access(HOST_FC, R_OK) < 0)
                return;
        pair_open(&p, HOST_FC);
        for (size_t i = 0; i < ELEMENTSOF(odd); i++)
                for (size_t m = 0; m < ELEMENTSOF(modes); m++)
                        compare(&p, odd[i], modes[m]);
        ck_assert_uint_eq(p.mismatches, 0);
        pair_close(&p);
}
END_TEST

/* Crafted file contexts for the precedence corners: order, exact against regex, file types,
 * <<none>>, stems, top-level alternation, .local/.homedirs, and chained substitutions. */
START_TEST(test_crafted)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *fc = path_join(dir, "file_contexts");
        _cleanup_free_ char *local = path_join(dir, "file_contexts.local");
        _cleanup_free_ char *home = path_join(dir, "file_contexts.homedirs");
        _cleanup_free_ char *subs = path_join(dir, "file_contexts.subs");
        _cleanup_free_ char *dist = path_join(dir, "file_contexts.subs_dist");
        static const char *const paths[] = {
            "/",         "/a",       "/a/b",     "/a/b/c",   "/a/bx",  "/x",          "/x/y",
            "/x/y/z",    "/exact",   "/exact\n", "/exact/x", "/esc.d", "/escxd",      "/a-b/c",
            "/a\\-b/c",  "/alt",     "/alt/q",   "/q/alt",   "/none",  "/none/x",     "/home/u",
            "/home/u/f", "/over",    "/over/x",  "/s1/f",    "/s2/f",  "/s3",         "/s3/k",
            "/d/x",      "/digit/1", "/digit/a", "/q",       "/opt/x", "/opt/x.conf", "/l1",
            "/l1/l2/l3", "/tail\n",  "/srv/a.b",
        };
        const char *got;
        struct pair p;

        write_file(fc, "# comment\n"
                       "\n"
                       "/.*\t\tsystem_u:object_r:default_t:s0\n"
                       "/\t-d\tsystem_u:object_r:root_t:s0\n"
                       "/a(/.*)?\tsystem_u:object_r:a_t:s0\n"
                       "/a/b\t--\tsystem_u:object_r:ab_file_t:s0\n"
                       "/a/b(/.*)?\t-d\tsystem_u:object_r:ab_dir_t:s0\n"
                       "/a/b.*\tsystem_u:object_r:ab_star_t:s0\n"
                       "/x/y\tsystem_u:object_r:xy_exact_t:s0\n"
                       "/x/y(/.*)?\tsystem_u:object_r:xy_tree_t:s0\n"
                       "/x(/.*)?\tsystem_u:object_r:x_tree_t:s0\n"
                       "/exact\tsystem_u:object_r:exact1_t:s0\n"
                       "/exact\t--\tsystem_u:object_r:exact2_t:s0\n"
                       "/esc\\.d\tsystem_u:object_r:esc_t:s0\n"
                       "/a\\-b/c\tsystem_u:object_r:stem_esc_t:s0\n"
                       "/alt|/q/alt\tsystem_u:object_r:alt_t:s0\n"
                       "/none(/.*)?\t<<none>>\n"
                       "/none/x\tsystem_u:object_r:none_x_t:s0\n"
                       "/over(/.*)?\tsystem_u:object_r:over1_t:s0\n"
                       "/s3(/.*)?\tsystem_u:object_r:s3_t:s0\n"
                       "/d/[^/]+\t-l\tsystem_u:object_r:d_link_t:s0\n"
                       "/digit/\\d\tsystem_u:object_r:digit_t:s0\n"
                       "/opt/[^/]*\\.conf\t--\tsystem_u:object_r:conf_t:s0\n"
                       "/opt/x\t-d\tsystem_u:object_r:optx_dir_t:s0\n"
                       "/l1(/l2)?(/l3)*\tsystem_u:object_r:l_t:s0\n"
                       "/tail\tsystem_u:object_r:tail_t:s0\n"
                       "/srv/a\\.b\tsystem_u:object_r:srv_t:s0\n"
                       "/srv/a.b\tsystem_u:object_r:srv2_t:s0\n");
        write_file(home, "/home/[^/]+\t-d\tunconfined_u:object_r:user_home_dir_t:s0\n"
                         "/home/[^/]+/.+\tunconfined_u:object_r:user_home_t:s0\n");
        write_file(local, "/over(/.*)?\tsystem_u:object_r:over_local_t:s0\n");
        write_file(subs, "/s1 /s2\n");
        write_file(dist, "/s2 /s3\n/s1 /a\n");

        pair_open(&p, fc);
        for (size_t i = 0; i < ELEMENTSOF(paths); i++)
                for (size_t m = 0; m < ELEMENTSOF(modes); m++)
                        compare(&p, paths[i], modes[m]);
        ck_assert_uint_eq(p.mismatches, 0);

        /* A few answers spelled out, so a shared mistake with the oracle would show. */
        ck_assert_int_ge(si_fcontext_lookup(p.fc, p.s, "/a/b", S_IFREG, &got), 0);
        ck_assert_str_eq(got, "system_u:object_r:ab_file_t:s0");
        ck_assert_int_ge(si_fcontext_lookup(p.fc, p.s, "/x/y", S_IFDIR, &got), 0);
        ck_assert_str_eq(got, "system_u:object_r:xy_exact_t:s0");
        ck_assert_int_eq(si_fcontext_lookup(p.fc, p.s, "/none/y", S_IFREG, &got), -ENOENT);
        ck_assert_int_ge(si_fcontext_lookup(p.fc, p.s, "/over/x", S_IFREG, &got), 0);
        ck_assert_str_eq(got, "system_u:object_r:over_local_t:s0");
        ck_assert_int_ge(si_fcontext_lookup(p.fc, p.s, "/s1/f", S_IFREG, &got), 0);
        ck_assert_str_eq(got, "system_u:object_r:s3_t:s0");
        pair_close(&p);
}
END_TEST

START_TEST(test_bad_input)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *fc = path_join(dir, "file_contexts");
        struct seinstall_ctx *ctx = NULL;
        struct si_fcontext *f = NULL;

        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        write_file(fc, "/a\tsystem_u:object_r:a_t:s0\n/b -x system_u:object_r:b_t:s0\n");
        ck_assert_int_eq(si_fcontext_load_path(ctx, fc, &f), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "file_contexts:2"));
        write_file(fc, "/a(\tsystem_u:object_r:a_t:s0\n");
        ck_assert_int_eq(si_fcontext_load_path(ctx, fc, &f), -EBADMSG);
        /* parsed only, the bad pattern is found when compiled */
        ck_assert_int_eq(si_fcontext_load_path_flags(ctx, fc, SI_FC_PARSE_ONLY, &f), 0);
        ck_assert_int_eq(si_fcontext_compile(ctx, f), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "invalid regular expression"));
        si_fcontext_free(f);
        f = NULL;
        write_file(fc, "/a\n");
        ck_assert_int_eq(si_fcontext_load_path(ctx, fc, &f), -EBADMSG);
        write_file(fc, "/a -- b c\n");
        ck_assert_int_eq(si_fcontext_load_path(ctx, fc, &f), -EBADMSG);
        ck_assert_int_eq(si_fcontext_load_path(ctx, "/nonexistent/fc", &f), -ENOENT);
        ck_assert_ptr_null(f);
        seinstall_unref(ctx);
}
END_TEST

static void no_jit_setup(void)
{
        load_flags = SI_FC_NO_JIT;
}

static void parse_only_setup(void)
{
        load_flags = SI_FC_PARSE_ONLY;
}

int main(void)
{
        Suite *s = suite_create("fcontext");
        TCase *tc = tcase_create("oracle");

        tcase_set_timeout(tc, 300);
        tcase_add_test(tc, test_crafted);
        tcase_add_test(tc, test_bad_input);
        tcase_add_test(tc, test_odd_paths);
        tcase_add_test(tc, test_host_specs);
        tcase_add_test(tc, test_host_tree);
        suite_add_tcase(s, tc);

        /* The same comparisons with the interpreter and the required-literal screen. */
        tc = tcase_create("no-jit");
        tcase_set_timeout(tc, 300);
        tcase_add_checked_fixture(tc, no_jit_setup, NULL);
        tcase_add_test(tc, test_crafted);
        tcase_add_test(tc, test_odd_paths);
        tcase_add_test(tc, test_host_tree);
        suite_add_tcase(s, tc);

        /* Parsed first, compiled later, as a relabel loads them. */
        tc = tcase_create("parse-only");
        tcase_set_timeout(tc, 300);
        tcase_add_checked_fixture(tc, parse_only_setup, NULL);
        tcase_add_test(tc, test_crafted);
        tcase_add_test(tc, test_host_tree);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
