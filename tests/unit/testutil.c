/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seinstall-private.h"
#include "testutil.h"

#define HOST_POLICY_DIR "/etc/selinux/default/policy"

char *make_tmpdir(void)
{
        const char *base = getenv("TMPDIR");
        char *dir;

        ck_assert_int_ge(asprintf(&dir, "%s/seinstall-test.XXXXXX", base ? base : "/tmp"), 0);
        ck_assert_ptr_nonnull(mkdtemp(dir));
        return dir;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void) st;
        (void) flag;
        (void) ftw;
        return remove(path);
}

void tmpdir_removep(char **dir)
{
        if (!*dir)
                return;
        nftw(*dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(*dir);
}

void write_file(const char *path, const char *content)
{
        FILE *f = fopen(path, "we");

        ck_assert_msg(f != NULL, "cannot write %s", path);
        ck_assert_int_eq(fputs(content, f) >= 0, 1);
        ck_assert_int_eq(fclose(f), 0);
}

void copy_file(const char *from, const char *to)
{
        _cleanup_free_ char *data = NULL;
        size_t len;
        FILE *f;

        ck_assert_int_eq(read_file_bounded(from, 64 << 20, &data, &len), 0);
        f = fopen(to, "we");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(data, 1, len, f), len);
        ck_assert_int_eq(fclose(f), 0);
}

char *host_policy_path(void)
{
        DIR *d = opendir(HOST_POLICY_DIR);
        struct dirent *de;
        int best = -1;
        char *p = NULL;

        if (!d)
                return NULL;
        while ((de = readdir(d))) {
                int v;
                if (sscanf(de->d_name, "policy.%d", &v) == 1 && v > best)
                        best = v;
        }
        closedir(d);
        if (best >= 0 && asprintf(&p, HOST_POLICY_DIR "/policy.%d", best) < 0)
                p = NULL;
        return p;
}

/* The test cases suite_add_policy_tcase() left out, for run_suite()'s report. */
static char left_out[256];

void suite_add_policy_tcase(Suite *s, TCase *tc, const char *name)
{
        _cleanup_free_ char *p = host_policy_path();
        size_t n = strlen(left_out);

        if (p) {
                suite_add_tcase(s, tc);
                return;
        }
        snprintf(left_out + n, sizeof(left_out) - n, "%s%s", n ? ", " : "", name);
}

int run_suite(Suite *s)
{
        SRunner *sr = srunner_create(s);
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        if (failed)
                return EXIT_FAILURE;
        if (*left_out) {
                printf("SKIPPED: the test cases %s need the host's default policy "
                       "(no policy.N in " HOST_POLICY_DIR ": selinux-policy-default)\n",
                       left_out);
                return 77;
        }
        return EXIT_SUCCESS;
}

int apply_with(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *policy_type,
               enum seinstall_bootloader bootloader, unsigned flags,
               struct seinstall_apply_result **ret)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_apply_options *o = NULL;
        int r;

        r = seinstall_apply_options_new(&o);
        if (r >= 0)
                r = seinstall_apply_options_set_bootloader(o, bootloader);
        if (r >= 0)
                r = seinstall_apply_options_set_flags(o, flags);
        if (r >= 0 && mode != SEINSTALL_MODE_INVALID) {
                r = seinstall_settings_new(&s);
                if (r >= 0)
                        r = seinstall_settings_set_mode(s, mode, SEINSTALL_SOURCE_OPTION);
                if (r >= 0 && policy_type)
                        r = seinstall_settings_set_policy(s, policy_type, SEINSTALL_SOURCE_OPTION);
        }
        if (r >= 0)
                r = seinstall_apply(ctx, s, o, ret);
        seinstall_settings_unref(s);
        seinstall_apply_options_unref(o);
        return r;
}

int check_with_plan(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                    const char *plan, struct seinstall_check_result **ret)
{
        struct seinstall_check_options *o = NULL;
        int r;

        r = seinstall_check_options_new(&o);
        if (r >= 0)
                r = seinstall_check_options_set_plan_file(o, plan);
        if (r >= 0)
                r = seinstall_check_run(ctx, settings, o, ret);
        seinstall_check_options_unref(o);
        return r;
}
