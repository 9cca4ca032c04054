/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the relabel entry point, seinstall_relabel(), and of seinstall_verify(), on a
 * small tree in a temporary directory with the host's real default policy copied into it
 * (verify: with the file contexts too): the labels it writes, a second
 * run that changes nothing, a dry run that writes nothing, and the promise of seinstall.h that
 * the log and progress callbacks run on the caller's thread, also when a walking thread meets a
 * label the running system refuses (lsetxattr is interposed below to refuse one name with
 * EINVAL, as a system whose own policy does not know the target's context does), and two
 * contexts relabelling at the same time in two threads, and threads handing the heap back at
 * once.
 * `make check-tsan` runs this file again under ThreadSanitizer. */
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "relabel.h"
#include "testutil.h"

#define REFUSED_NAME "refused-by-the-running-policy"

/* The name whose label the "running system" refuses; lsetxattr() below returns EINVAL for it. */
static atomic_bool refuse_one;
/* A filesystem that says yes and keeps nothing: lsetxattr() below returns 0 for this name
 * without writing. */
#define IGNORED_NAME "ignored-by-the-filesystem"
static atomic_bool ignore_one;

int lsetxattr(const char *path, const char *name, const void *value, size_t size, int flags)
{
        const char *base = strrchr(path, '/');

        base = base ? base + 1 : path;
        if (atomic_load(&refuse_one) && streq(base, REFUSED_NAME)) {
                errno = EINVAL;
                return -1;
        }
        if (atomic_load(&ignore_one) && streq(base, IGNORED_NAME))
                return 0;
        return (int) syscall(SYS_lsetxattr, path, name, value, size, flags);
}

/* What the callbacks saw. Plain (not atomic) on purpose: were a callback called from a walking
 * thread while the caller's thread runs the progress callback, ThreadSanitizer reports it. */
static pthread_t caller;
static unsigned nlogs, nprogress, wrong_thread;
static char last_log[1024];

static void on_log(void *userdata, int priority, const char *message)
{
        (void) userdata;
        (void) priority;
        if (!pthread_equal(pthread_self(), caller))
                wrong_thread++;
        nlogs++;
        snprintf(last_log, sizeof(last_log), "%s", message);
}

static void on_progress(void *userdata, unsigned long long done, unsigned long long total,
                        double elapsed)
{
        (void) userdata;
        (void) done;
        (void) total;
        (void) elapsed;
        if (!pthread_equal(pthread_self(), caller))
                wrong_thread++;
        nprogress++;
        /* reads what on_log writes */
        if (nlogs > 0 && !last_log[0])
                wrong_thread++;
}

static char *tmp, *root, *fc;

static char *at(const char *rel)
{
        static char buf[4][4096];
        static unsigned n;
        char *b = buf[n++ % 4];

        snprintf(b, sizeof(buf[0]), "%s/%s", root, rel);
        return b;
}

static void mkdirs(const char *rel)
{
        _cleanup_free_ char *p = strdup(at(rel));

        for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
                *s = '\0';
                ck_assert(mkdir(p, 0755) == 0 || errno == EEXIST);
                *s = '/';
        }
        ck_assert(mkdir(p, 0755) == 0 || errno == EEXIST);
}

static const char fc_text[] = "/\t\tsystem_u:object_r:root_t:s0\n"
                              "/.*\t\tsystem_u:object_r:default_t:s0\n"
                              "/etc(/.*)?\tsystem_u:object_r:etc_t:s0\n"
                              "/etc/shadow.*\t--\tsystem_u:object_r:shadow_t:s0\n"
                              "/var(/.*)?\tsystem_u:object_r:var_t:s0\n"
                              "/var/lib(/.*)?\tsystem_u:object_r:var_lib_t:s0\n"
                              "/home/nolabel(/.*)?\t<<none>>\n";

/* A small target: 4 levels of directories, every kind of name the walk handles differently. */
static void setup(void)
{
        _cleanup_free_ char *pol = host_policy_path();

        tmp = make_tmpdir();
        ck_assert_int_ge(asprintf(&root, "%s/root", tmp), 0);
        ck_assert_int_ge(asprintf(&fc, "%s/file_contexts", tmp), 0);
        write_file(fc, fc_text);
        ck_assert_int_eq(mkdir(root, 0755), 0);
        mkdirs("etc/selinux/default/policy");
        copy_file(pol, at("etc/selinux/default/policy/policy.33"));
        write_file(at("etc/passwd"), "root:x:0:0::/root:/bin/sh\n");
        write_file(at("etc/shadow"), "root:*::0:::::\n");
        write_file(at("etc/hostname"), "target\n");
        ck_assert_int_eq(link(at("etc/hostname"), at("etc/hostname.link")), 0);
        ck_assert_int_eq(symlink("passwd", at("etc/passwd.sym")), 0);
        mkdirs("var/lib/a/b/c");
        write_file(at("var/lib/a/b/c/leaf"), "");
        write_file(at("var/lib/a/" REFUSED_NAME), "");
        mkdirs("home/nolabel/x");
        write_file(at("home/nolabel/x/f"), "");
        mkdirs("srv/d1/d2");
        write_file(at("srv/d1/d2/f"), "");
        caller = pthread_self();
        nlogs = nprogress = wrong_thread = 0;
        last_log[0] = '\0';
        atomic_store(&refuse_one, false);
        atomic_store(&ignore_one, false);
}

static void teardown(void)
{
        tmpdir_removep(&tmp);
        free(root);
        free(fc);
}

static char *label_of(const char *rel)
{
        static char buf[256];
        ssize_t n = lgetxattr(at(rel), "security.selinux", buf, sizeof(buf) - 1);

        if (n < 0)
                return NULL;
        while (n > 0 && buf[n - 1] == '\0')
                n--;
        buf[n] = '\0';
        return buf;
}

/* verify reads the target's own file contexts: put ours there. */
static void install_file_contexts(void)
{
        mkdirs("etc/selinux/default/contexts/files");
        write_file(at("etc/selinux/default/contexts/files/file_contexts"), fc_text);
}

/* Options for one call: @policy, @file_contexts, @threads, @progress (the previous call's are
 * released here, so a test needs no cleanup). */
static struct seinstall_relabel_options *opts(const char *policy, const char *file_contexts,
                                              unsigned threads,
                                              seinstall_relabel_progress_fn progress)
{
        static struct seinstall_relabel_options *o;

        o = seinstall_relabel_options_unref(o);
        ck_assert_int_eq(seinstall_relabel_options_new(&o), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_policy(o, policy), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_file_contexts(o, file_contexts), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_threads(o, threads), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_progress(o, progress, NULL), 0);
        /* referenced twice, released once: still the caller's */
        ck_assert_ptr_eq(seinstall_relabel_options_ref(o), o);
        ck_assert_ptr_null(seinstall_relabel_options_unref(o));
        return o;
}

static int relabel(unsigned flags, struct seinstall_relabel_result **ret)
{
        struct seinstall_ctx *ctx = NULL;
        int r;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        seinstall_set_log_fn(ctx, on_log, NULL);
        seinstall_set_log_priority(ctx, SEINSTALL_LOG_DEBUG);
        r = seinstall_relabel(ctx, opts(NULL, fc, 4, on_progress), flags, ret);
        if (r < 0)
                ck_assert_ptr_nonnull(seinstall_last_error(ctx));
        if (r == -SEINSTALL_ERROR_LABEL_REFUSED)
                ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), REFUSED_NAME));
        seinstall_unref(ctx);
        return r;
}

START_TEST(test_relabel_small_tree)
{
        struct seinstall_relabel_result *res = NULL;

        ck_assert_int_eq(relabel(0, &res), 0);
        ck_assert_ptr_nonnull(res);
        /* 26 names: the root, 15 directories, 10 files and links; the hard-linked file is
         * labeled once, through its name that sorts first: 25 labels, 3 of them <<none>> */
        ck_assert_uint_eq(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_SEEN),
                          26);
        ck_assert_uint_eq(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS),
                          0);
        ck_assert_uint_eq(
            seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_NO_CONTEXT), 3);
        ck_assert_uint_eq(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED),
                          22);
        ck_assert_uint_eq(
            seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_UNCHANGED), 0);
        ck_assert_uint_eq(seinstall_relabel_result_get_n_skipped(res), 0);
        seinstall_relabel_result_unref(res);

        ck_assert_str_eq(label_of(""), "system_u:object_r:root_t:s0");
        ck_assert_str_eq(label_of("etc/passwd"), "system_u:object_r:etc_t:s0");
        ck_assert_str_eq(label_of("etc/passwd.sym"), "system_u:object_r:etc_t:s0");
        ck_assert_str_eq(label_of("etc/shadow"), "system_u:object_r:shadow_t:s0");
        ck_assert_str_eq(label_of("etc/hostname.link"), "system_u:object_r:etc_t:s0");
        ck_assert_str_eq(label_of("var/lib/a/b/c/leaf"), "system_u:object_r:var_lib_t:s0");
        ck_assert_str_eq(label_of("var"), "system_u:object_r:var_t:s0");
        ck_assert_str_eq(label_of("srv/d1/d2/f"), "system_u:object_r:default_t:s0");
        ck_assert_ptr_null(label_of("home/nolabel/x/f"));
        ck_assert_uint_eq(wrong_thread, 0);

        /* a second run changes nothing */
        ck_assert_int_eq(relabel(0, &res), 0);
        ck_assert_uint_eq(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED),
                          0);
        ck_assert_uint_eq(
            seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_UNCHANGED), 22);
        seinstall_relabel_result_unref(res);

        /* a dry run counts one wrong label and leaves it */
        ck_assert_int_eq(lsetxattr(at("etc/passwd"), "security.selinux",
                                   "system_u:object_r:tmp_t:s0",
                                   sizeof("system_u:object_r:tmp_t:s0"), 0),
                         0);
        ck_assert_int_eq(relabel(SEINSTALL_RELABEL_DRY_RUN, &res), 0);
        ck_assert_uint_eq(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED),
                          1);
        ck_assert_uint_eq(seinstall_relabel_result_get_n_verified(res), 0);
        seinstall_relabel_result_unref(res);
        ck_assert_str_eq(label_of("etc/passwd"), "system_u:object_r:tmp_t:s0");
        ck_assert_uint_eq(wrong_thread, 0);
}
END_TEST

START_TEST(test_relabel_verifies_boot_files)
{
        struct seinstall_relabel_result *res = NULL;
        bool shadow = false;

        ck_assert_int_eq(relabel(0, &res), 0);
        for (size_t i = 0; i < seinstall_relabel_result_get_n_verified(res); i++) {
                const char *p = seinstall_relabel_result_get_verified_path(res, i);
                ck_assert_str_eq(seinstall_relabel_result_get_verified_actual(res, i),
                                 seinstall_relabel_result_get_verified_expected(res, i));
                shadow |= streq(p, "/etc/shadow");
        }
        ck_assert(shadow);
        seinstall_relabel_result_unref(res);
}
END_TEST

/* A walking thread meets a label the running system refuses: the run stops with
 * -SEINSTALL_ERROR_LABEL_REFUSED and the message reaches the log callback on the caller's thread.
 */
START_TEST(test_relabel_log_on_caller_thread)
{
        struct seinstall_relabel_result *res = NULL;

        atomic_store(&refuse_one, true);
        ck_assert_int_eq(relabel(0, &res), -SEINSTALL_ERROR_LABEL_REFUSED);
        ck_assert_ptr_nonnull(res);
        ck_assert_uint_ge(seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_ERRORS),
                          1);
        seinstall_relabel_result_unref(res);
        ck_assert_uint_ge(nlogs, 1);
        ck_assert_ptr_nonnull(strstr(last_log, "refused the label"));
        ck_assert_ptr_nonnull(strstr(last_log, "/var/lib/a/" REFUSED_NAME));
        ck_assert_uint_eq(wrong_thread, 0);
}
END_TEST

/* seinstall.h's thread rule: distinct contexts may work at the same time in distinct threads.
 * Two threads relabel two copies of the tree, each with its own context, options and log
 * callback, each walk with its own 4 threads: both label every entry, each thread's callback
 * runs in that thread, and under `make check-tsan` ThreadSanitizer reports no race. */
struct parallel_run {
        const char *root;
        pthread_t self;
        unsigned logs, wrong_thread;
        int r;
        unsigned long long changed;
};

static void parallel_log(void *userdata, int priority, const char *message)
{
        struct parallel_run *p = userdata;

        (void) priority;
        (void) message;
        if (!pthread_equal(pthread_self(), p->self))
                p->wrong_thread++;
        p->logs++;
}

static void *parallel_relabel(void *arg)
{
        struct parallel_run *p = arg;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_relabel_options *o = NULL;
        struct seinstall_relabel_result *res = NULL;

        p->self = pthread_self();
        p->r = seinstall_new(p->root, &ctx);
        if (p->r >= 0) {
                seinstall_set_log_fn(ctx, parallel_log, p);
                seinstall_set_log_priority(ctx, SEINSTALL_LOG_DEBUG);
                p->r = seinstall_relabel_options_new(&o);
        }
        if (p->r >= 0)
                p->r = seinstall_relabel_options_set_file_contexts(o, fc);
        if (p->r >= 0)
                p->r = seinstall_relabel_options_set_threads(o, 4);
        if (p->r >= 0)
                p->r = seinstall_relabel(ctx, o, 0, &res);
        p->changed = seinstall_relabel_result_get_count(res, SEINSTALL_RELABEL_COUNT_CHANGED);
        seinstall_relabel_result_unref(res);
        seinstall_relabel_options_unref(o);
        seinstall_unref(ctx);
        return NULL;
}

START_TEST(test_relabel_contexts_in_parallel_threads)
{
        _cleanup_free_ char *root2 = NULL, *cmd = NULL;
        struct parallel_run runs[2] = {};
        pthread_t t[2];
        char buf[256];
        ssize_t n;

        ck_assert_int_ge(asprintf(&root2, "%s/root2", tmp), 0);
        ck_assert_int_ge(asprintf(&cmd, "cp -a '%s' '%s'", root, root2), 0);
        ck_assert_int_eq(system(cmd), 0);
        runs[0].root = root;
        runs[1].root = root2;
        for (int i = 0; i < 2; i++)
                ck_assert_int_eq(pthread_create(&t[i], NULL, parallel_relabel, &runs[i]), 0);
        for (int i = 0; i < 2; i++)
                ck_assert_int_eq(pthread_join(t[i], NULL), 0);
        for (int i = 0; i < 2; i++) {
                ck_assert_int_eq(runs[i].r, 0);
                /* as test_relabel_small_tree: 22 labels written in each tree */
                ck_assert_uint_eq(runs[i].changed, 22);
                ck_assert_uint_ge(runs[i].logs, 1);
                ck_assert_uint_eq(runs[i].wrong_thread, 0);
        }
        snprintf(buf, sizeof(buf), "%s/etc/shadow", root2);
        n = lgetxattr(buf, "security.selinux", buf, sizeof(buf) - 1);
        ck_assert_int_gt(n, 0);
        buf[n] = '\0';
        ck_assert_str_eq(buf, "system_u:object_r:shadow_t:s0");
        ck_assert_str_eq(label_of("etc/shadow"), "system_u:object_r:shadow_t:s0");
}
END_TEST

/* Threads that hand the heap back at the same moment, as two relabels in two threads do at the
 * end of their policy load. Each child process starts with glibc's heap as its parent left it:
 * untouched in the sanitized pass (AddressSanitizer took malloc), where unserialized
 * malloc_trim() calls abort most children (162 of 200 when measured); set up in the plain
 * pass, where this shows nothing. */
#define TRIM_THREADS  8
#define TRIM_CHILDREN 200
static pthread_barrier_t trim_start;

static void *trim_at_once(void *arg)
{
        (void) arg;
        pthread_barrier_wait(&trim_start);
        si_relabel_release_heap();
        return NULL;
}

static void trim_child(void)
{
        pthread_t t[TRIM_THREADS];

        if (pthread_barrier_init(&trim_start, NULL, TRIM_THREADS) != 0)
                _exit(2);
        for (int i = 0; i < TRIM_THREADS; i++)
                if (pthread_create(&t[i], NULL, trim_at_once, NULL) != 0)
                        _exit(2);
        for (int i = 0; i < TRIM_THREADS; i++)
                pthread_join(t[i], NULL);
        _exit(0);
}

START_TEST(test_release_heap_from_threads_at_once)
{
        unsigned died = 0;

        for (int i = 0; i < TRIM_CHILDREN; i++) {
                int status;
                pid_t pid = fork();

                ck_assert_int_ge(pid, 0);
                if (pid == 0)
                        trim_child();
                ck_assert_int_eq(waitpid(pid, &status, 0), pid);
                if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                        died++;
        }
        ck_assert_msg(died == 0, "%u of %d children died handing the heap back", died,
                      TRIM_CHILDREN);
}
END_TEST

/* After a relabel, /etc/shadow gets a wrong label and a file is created without one: verify
 * names exactly those two, grouped by directory, writes nothing; FIX writes those two; then
 * clean. */
START_TEST(test_verify)
{
        static const char wrong[] = "system_u:object_r:etc_t:s0";
        struct seinstall_verify_result *vr = NULL;
        struct seinstall_ctx *ctx = NULL;

        install_file_contexts();
        ck_assert_int_eq(relabel(0, NULL), 0);
        ck_assert_int_eq(lsetxattr(at("etc/shadow"), "security.selinux", wrong, sizeof(wrong), 0),
                         0);
        write_file(at("var/lib/a/b/new"), "");
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        seinstall_set_log_fn(ctx, on_log, NULL);

        ck_assert_int_eq(seinstall_verify(ctx, opts(NULL, NULL, 4, on_progress), 0, &vr), 1);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                          2);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_ERRORS), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_NO_CONTEXT),
                          3);
        ck_assert_uint_eq(seinstall_verify_result_get_n_dirs(vr), 2);
        ck_assert_str_eq(seinstall_verify_result_get_dir_path(vr, 0), "/etc");
        ck_assert_uint_eq(seinstall_verify_result_get_dir_mismatched(vr, 0), 1);
        ck_assert_uint_eq(seinstall_verify_result_get_dir_n_examples(vr, 0), 1);
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 0), "/etc/shadow");
        ck_assert_str_eq(seinstall_verify_result_get_example_actual(vr, 0, 0), wrong);
        ck_assert_str_eq(seinstall_verify_result_get_example_expected(vr, 0, 0),
                         "system_u:object_r:shadow_t:s0");
        ck_assert(!seinstall_verify_result_get_example_fixed(vr, 0, 0));
        ck_assert_str_eq(seinstall_verify_result_get_dir_path(vr, 1), "/var/lib/a/b");
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 1, 0), "/var/lib/a/b/new");
        ck_assert_ptr_null(seinstall_verify_result_get_example_actual(vr, 1, 0));
        ck_assert_str_eq(seinstall_verify_result_get_example_expected(vr, 1, 0),
                         "system_u:object_r:var_lib_t:s0");
        ck_assert_ptr_null(seinstall_verify_result_get_dir_path(vr, 2));
        ck_assert_ptr_null(seinstall_verify_result_get_example_path(vr, 1, 1));
        vr = seinstall_verify_result_unref(vr);
        /* nothing written */
        ck_assert_str_eq(label_of("etc/shadow"), wrong);
        ck_assert_ptr_null(label_of("var/lib/a/b/new"));

        ck_assert_int_eq(
            seinstall_verify(ctx, opts(NULL, NULL, 4, NULL), SEINSTALL_VERIFY_FIX, &vr), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                          2);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED), 2);
        ck_assert_str_eq(seinstall_verify_result_get_dir_path(vr, 0), "/etc");
        ck_assert_uint_eq(seinstall_verify_result_get_dir_fixed(vr, 0), 1);
        ck_assert(seinstall_verify_result_get_example_fixed(vr, 0, 0));
        vr = seinstall_verify_result_unref(vr);
        ck_assert_str_eq(label_of("etc/shadow"), "system_u:object_r:shadow_t:s0");
        ck_assert_str_eq(label_of("var/lib/a/b/new"), "system_u:object_r:var_lib_t:s0");

        ck_assert_int_eq(seinstall_verify(ctx, opts(NULL, NULL, 4, NULL), 0, &vr), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                          0);
        ck_assert_uint_eq(seinstall_verify_result_get_n_dirs(vr), 0);
        vr = seinstall_verify_result_unref(vr);
        ck_assert_int_eq(seinstall_verify(ctx, opts(NULL, NULL, 4, NULL), 1u << 5, &vr), -EINVAL);
        ck_assert_ptr_null(vr);
        seinstall_unref(ctx);
        ck_assert_uint_eq(wrong_thread, 0);
}
END_TEST

/* verify --fix is done when a verify after it finds nothing: a label the filesystem said it
 * wrote but did not keep is left, counted and not shown as fixed, and FIX returns 1; the other
 * mismatch of the run is fixed. With ALL the same. */
START_TEST(test_verify_fix_checks_after)
{
        struct seinstall_verify_result *vr = NULL;
        struct seinstall_ctx *ctx = NULL;

        install_file_contexts();
        ck_assert_int_eq(relabel(0, NULL), 0);
        write_file(at("etc/" IGNORED_NAME), "");
        write_file(at("etc/zz-new"), "");
        atomic_store(&ignore_one, true);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        for (unsigned all = 0; all <= SEINSTALL_VERIFY_ALL; all += SEINSTALL_VERIFY_ALL) {
                ck_assert_int_eq(seinstall_verify(ctx, opts(NULL, NULL, 4, NULL),
                                                  SEINSTALL_VERIFY_FIX | all, &vr),
                                 1);
                ck_assert_uint_eq(
                    seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                    all ? 1 : 2);
                ck_assert_uint_eq(
                    seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_REMAINING), 1);
                ck_assert_str_eq(seinstall_verify_result_get_dir_path(vr, 0), "/etc");
                ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 0),
                                 "/etc/" IGNORED_NAME);
                ck_assert(!seinstall_verify_result_get_example_fixed(vr, 0, 0));
                ck_assert_ptr_null(seinstall_verify_result_get_example_actual(vr, 0, 0));
                if (!all) {
                        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 1),
                                         "/etc/zz-new");
                        ck_assert(seinstall_verify_result_get_example_fixed(vr, 0, 1));
                }
                vr = seinstall_verify_result_unref(vr);
        }
        ck_assert_ptr_null(label_of("etc/" IGNORED_NAME));
        ck_assert_str_eq(label_of("etc/zz-new"), "system_u:object_r:etc_t:s0");
        /* once the filesystem keeps it, FIX is done */
        atomic_store(&ignore_one, false);
        ck_assert_int_eq(
            seinstall_verify(ctx, opts(NULL, NULL, 4, NULL), SEINSTALL_VERIFY_FIX, &vr), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_REMAINING),
                          0);
        vr = seinstall_verify_result_unref(vr);
        seinstall_unref(ctx);
}
END_TEST

/* Many mismatches in one directory: the count has them all, the examples are the three paths
 * that sort first, whatever order the threads met them in. */
START_TEST(test_verify_examples_sorted)
{
        struct seinstall_verify_result *vr = NULL;
        struct seinstall_ctx *ctx = NULL;
        char name[64];

        install_file_contexts();
        ck_assert_int_eq(relabel(0, NULL), 0);
        for (int i = 40; i > 0; i--) {
                snprintf(name, sizeof(name), "srv/d1/f%02d", i);
                write_file(at(name), "");
        }
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(seinstall_verify(ctx, opts(NULL, NULL, 4, NULL), 0, &vr), 1);
        ck_assert_uint_eq(seinstall_verify_result_get_n_dirs(vr), 1);
        ck_assert_str_eq(seinstall_verify_result_get_dir_path(vr, 0), "/srv/d1");
        ck_assert_uint_eq(seinstall_verify_result_get_dir_mismatched(vr, 0), 40);
        ck_assert_uint_eq(seinstall_verify_result_get_dir_n_examples(vr, 0), 3);
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 0), "/srv/d1/f01");
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 1), "/srv/d1/f02");
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 2), "/srv/d1/f03");
        seinstall_verify_result_unref(vr);
        seinstall_unref(ctx);
}
END_TEST

/* verify on just a list of paths (what the first-boot screen relabels: the files this boot's
 * denials blame on their labels): with FIX exactly the listed entries with a wrong label are
 * written, whatever their names; an unlisted wrong label stays; a path that is gone, not plain
 * or reached through a symbolic link is an error with its message, never followed. */
START_TEST(test_verify_paths)
{
        static const char wrong[] = "system_u:object_r:tmp_t:s0";
        static const char spaced[] = "var/lib/a/b/sp ace \xc3\xbc";
        const char *const paths[] = {
            "/etc/shadow",
            "//var/lib/a/b/c//leaf/",
            "/var/lib/a/b/sp ace \xc3\xbc",
            "/etc/passwd",             /* already right */
            "/etc/passwd.sym",         /* the link itself */
            "/etc/gone",               /* removed since */
            "/etc/../etc/hostname",    /* not plain */
            "etc/hostname",            /* not absolute */
            "/etc/vardir/lib/a/b/c/f", /* through a symbolic link */
        };
        struct seinstall_verify_result *vr = NULL;
        struct seinstall_relabel_result *rr;
        struct seinstall_ctx *ctx = NULL;
        bool gone = false, link = false;

        install_file_contexts();
        ck_assert_int_eq(relabel(0, NULL), 0);
        ck_assert_int_eq(symlink("../var", at("etc/vardir")), 0);
        write_file(at("var/lib/a/b/c/f"), "");
        write_file(at(spaced), "");
        for (size_t i = 0; i < 3; i++) {
                const char *rel = i == 0   ? "etc/shadow"
                                  : i == 1 ? "var/lib/a/b/c/leaf"
                                           : "srv/d1/d2/f";
                ck_assert_int_eq(lsetxattr(at(rel), "security.selinux", wrong, sizeof(wrong), 0),
                                 0);
        }
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        seinstall_set_log_fn(ctx, on_log, NULL);

        /* read-only: the three wrong ones counted, nothing written */
        ck_assert_int_eq(seinstall_verify_paths(ctx, NULL, paths, 5, 0, &vr), 1);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_CHECKED), 5);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                          3);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED), 0);
        vr = seinstall_verify_result_unref(vr);
        ck_assert_str_eq(label_of("etc/shadow"), wrong);

        ck_assert_int_eq(
            seinstall_verify_paths(ctx, NULL, paths, ELEMENTSOF(paths), SEINSTALL_VERIFY_FIX, &vr),
            -SEINSTALL_ERROR_INCOMPLETE);
        ck_assert_ptr_nonnull(vr);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_CHECKED), 5);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED),
                          3);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED), 3);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_ERRORS), 4);
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 0, 0), "/etc/shadow");
        /* grouped by directory, sorted: /etc, /var/lib/a/b, /var/lib/a/b/c */
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 1, 0),
                         "/var/lib/a/b/sp ace \xc3\xbc");
        ck_assert_str_eq(seinstall_verify_result_get_example_path(vr, 2, 0), "/var/lib/a/b/c/leaf");
        rr = (struct seinstall_relabel_result *) seinstall_verify_result_get_relabel(vr);
        for (size_t i = 0; i < seinstall_relabel_result_get_n_errors(rr); i++) {
                const char *e = seinstall_relabel_result_get_error(rr, i);
                gone |= strstr(e, "/etc/gone") && strstr(e, "no such file");
                link |= strstr(e, "/etc/vardir/lib/a/b/c/f") && strstr(e, "symbolic link");
        }
        ck_assert(gone && link);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "could not be labeled"));
        vr = seinstall_verify_result_unref(vr);
        ck_assert_str_eq(label_of("etc/shadow"), "system_u:object_r:shadow_t:s0");
        ck_assert_str_eq(label_of("var/lib/a/b/c/leaf"), "system_u:object_r:var_lib_t:s0");
        ck_assert_str_eq(label_of(spaced), "system_u:object_r:var_lib_t:s0");
        ck_assert_str_eq(label_of("etc/passwd.sym"), "system_u:object_r:etc_t:s0");
        /* not listed: left as it was, also behind the link */
        ck_assert_str_eq(label_of("srv/d1/d2/f"), wrong);
        ck_assert_ptr_null(label_of("var/lib/a/b/c/f"));

        /* the listed ones are clean now; no paths is nothing to do */
        ck_assert_int_eq(seinstall_verify_paths(ctx, NULL, paths, 3, 0, &vr), 0);
        vr = seinstall_verify_result_unref(vr);
        ck_assert_int_eq(seinstall_verify_paths(ctx, NULL, NULL, 0, SEINSTALL_VERIFY_FIX, &vr), 0);
        ck_assert_uint_eq(seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_CHECKED), 0);
        vr = seinstall_verify_result_unref(vr);
        ck_assert_int_eq(seinstall_verify_paths(ctx, NULL, NULL, 1, 0, &vr), -EINVAL);
        ck_assert_int_eq(seinstall_verify_paths(ctx, NULL, paths, 1, 1u << 5, &vr), -EINVAL);
        ck_assert_ptr_null(vr);
        seinstall_unref(ctx);
        ck_assert_uint_eq(wrong_thread, 0);
}
END_TEST

START_TEST(test_relabel_bad_arguments)
{
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_relabel_result *res = NULL;

        ck_assert_int_eq(seinstall_relabel(NULL, opts(NULL, fc, 1, NULL), 0, &res), -EINVAL);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(seinstall_relabel(ctx, opts(NULL, fc, 1, NULL), 1u << 7, &res), -EINVAL);
        /* a policy type that is no directory name is refused by the options already */
        {
                struct seinstall_relabel_options *o = opts(NULL, fc, 1, NULL);

                ck_assert_int_eq(seinstall_relabel_options_set_policy(o, "../x"), -EINVAL);
                ck_assert_int_eq(seinstall_relabel_options_set_file_contexts(o, ""), -EINVAL);
                ck_assert_int_eq(seinstall_relabel_options_set_threads(NULL, 1), -EINVAL);
                ck_assert_ptr_null(seinstall_relabel_options_unref(NULL));
        }
        ck_assert_ptr_null(res);
        seinstall_unref(ctx);
}
END_TEST

/* Whether this machine can run these tests: a policy to copy, a temporary directory on a
 * filesystem that keeps security.selinux, and root to write it. Returns a reason, or NULL. */
static const char *cannot_run(void)
{
        _cleanup_free_ char *pol = host_policy_path();
        static const char label[] = "system_u:object_r:etc_t:s0";
        const char *base = getenv("TMPDIR");
        char probe[4096];
        int fd, r;

        if (!pol)
                return "no /etc/selinux/default/policy/policy.N"
                       " (make deps installs selinux-policy-default)";
        if (geteuid() != 0)
                return "needs root to write security.selinux";
        snprintf(probe, sizeof(probe), "%s/seinstall-xattr-probe.XXXXXX", base ? base : "/tmp");
        fd = mkstemp(probe);
        if (fd < 0)
                return "cannot create a file in the temporary directory";
        r = fsetxattr(fd, "security.selinux", label, sizeof(label), 0);
        close(fd);
        unlink(probe);
        if (r < 0)
                return "the temporary directory's filesystem does not keep security.selinux";
        return NULL;
}

int main(void)
{
        Suite *s = suite_create("relabel");
        TCase *tc = tcase_create("relabel");
        const char *why = cannot_run();

        if (why) {
                printf("SKIPPED: %s\n", why);
                return 77;
        }
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, test_relabel_small_tree);
        tcase_add_test(tc, test_relabel_verifies_boot_files);
        tcase_add_test(tc, test_relabel_log_on_caller_thread);
        tcase_add_test(tc, test_relabel_contexts_in_parallel_threads);
        tcase_add_test(tc, test_release_heap_from_threads_at_once);
        tcase_add_test(tc, test_relabel_bad_arguments);
        tcase_add_test(tc, test_verify);
        tcase_add_test(tc, test_verify_fix_checks_after);
        tcase_add_test(tc, test_verify_examples_sorted);
        tcase_add_test(tc, test_verify_paths);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
