/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of trial.c: the decision on canned classifier results (clean boot, a label
 * denial, policy-only denials, a trial decided already), the state file's format both ways
 * (names with newlines and backslashes survive), state files seinstall did not write (refused
 * with a message naming file and line, nothing changed), a symlinked state file in the target
 * (refused, never followed), and seinstall_trial_decide() on a tree with a saved log. */
#include <check.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "trial.h"
#include "testutil.h"

static struct seinstall_trial_result *pending(void)
{
        struct seinstall_trial_result *t = NULL;
        struct seinstall_ctx *ctx = NULL;
        static const char text[] = "state=pending\npolicy=default\nstarted=2026-12-05T00:00:00Z\n";

        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(si_trial_parse(ctx, "t", text, strlen(text), &t), 0);
        seinstall_unref(ctx);
        return t;
}

START_TEST(test_decide_clean)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = pending(),
                                                                               *t = NULL;
        const struct si_trial_evidence ev = {.denials = 0, .log = "/dev/kmsg"};

        ck_assert_int_eq(si_trial_decide_from(cur, &ev, "2026-12-05T01:00:00Z", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_ENFORCED);
        ck_assert_str_eq(seinstall_trial_result_get_decided(t), "2026-12-05T01:00:00Z");
        ck_assert_str_eq(seinstall_trial_result_get_started(t), "2026-12-05T00:00:00Z");
        ck_assert_str_eq(seinstall_trial_result_get_policy(t), "default");
        ck_assert_ptr_eq(seinstall_trial_result_ref(t), t);
        ck_assert_ptr_null(seinstall_trial_result_unref(t));
        ck_assert_str_eq(seinstall_trial_result_get_policy(t), "default");
        ck_assert_str_eq(seinstall_trial_result_get_log(t), "/dev/kmsg");
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(t), 0);
}
END_TEST

START_TEST(test_decide_policy_only)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = pending(),
                                                                               *t = NULL;
        const struct si_trial_evidence ev = {.denials = 12, .label_denials = 0, .log = "a.log"};

        ck_assert_int_eq(si_trial_decide_from(cur, &ev, "now", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_ENFORCED);
        ck_assert_uint_eq(seinstall_trial_result_get_n_denials(t), 12);
        ck_assert_uint_eq(seinstall_trial_result_get_n_label_denials(t), 0);
}
END_TEST

/* No label denial, but a boot-critical file found mislabeled: kept permissive. */
START_TEST(test_decide_mislabeled)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = pending(),
                                                                               *t = NULL;
        const struct si_trial_evidence ev = {.denials = 2, .mislabeled = 1, .log = "a.log"};

        ck_assert_int_eq(si_trial_decide_from(cur, &ev, "now", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_mislabeled(t), 1);
}
END_TEST

START_TEST(test_decide_label)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = pending(),
                                                                               *t = NULL;
        const struct si_trial_file files[] = {
            {"/etc/shadow", "restorecon -F /etc/shadow"},
            {"/var/lib/x", "restorecon -F /var/lib/x"},
            {"/etc/shadow", "restorecon -F /etc/shadow"}, /* another group, same file */
        };
        const struct si_trial_evidence ev = {
            .denials = 5, .label_denials = 3, .files = files, .n_files = 3, .log = "a.log"};

        ck_assert_int_eq(si_trial_decide_from(cur, &ev, "now", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_label_denials(t), 3);
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(t), 2);
        ck_assert_str_eq(seinstall_trial_result_get_path(t, 0), "/etc/shadow");
        ck_assert_str_eq(seinstall_trial_result_get_fix(t, 0), "restorecon -F /etc/shadow");
        ck_assert_str_eq(seinstall_trial_result_get_path(t, 1), "/var/lib/x");
        ck_assert_ptr_null(seinstall_trial_result_get_path(t, 2));
}
END_TEST

/* Once decided, never again: whatever the next boot shows. */
START_TEST(test_decide_once)
{
        static const enum seinstall_trial_state done[] = {
            SEINSTALL_TRIAL_NONE, SEINSTALL_TRIAL_ENFORCED, SEINSTALL_TRIAL_KEPT_PERMISSIVE,
            SEINSTALL_TRIAL_CANCELLED};
        const struct si_trial_file file = {"/etc/shadow", "restorecon -F /etc/shadow"};
        const struct si_trial_evidence clean = {.log = "a"}, label = {
                                                                 .denials = 1,
                                                                 .label_denials = 1,
                                                                 .files = &file,
                                                                 .n_files = 1,
                                                                 .log = "a",
                                                             };

        for (size_t i = 0; i < ELEMENTSOF(done); i++) {
                _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = NULL;
                struct seinstall_trial_result *t = (void *) 1;

                ck_assert_int_eq(si_trial_new(done[i], &cur), 0);
                ck_assert_int_eq(si_trial_decide_from(cur, &clean, "now", &t), 0);
                ck_assert_ptr_null(t);
                ck_assert_int_eq(si_trial_decide_from(cur, &label, "now", &t), 0);
                ck_assert_ptr_null(t);
        }
}
END_TEST

/* What is written reads back the same, names with any byte included. */
START_TEST(test_state_roundtrip)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *cur = pending(),
                                                                               *t = NULL,
                                                                               *back = NULL;
        const struct si_trial_file files[] = {
            {"/etc/new\nline", "restorecon -F '/etc/new\nline'"},
            {"/a\\b c\x7f\xc3\xa9", NULL},
        };
        const struct si_trial_evidence ev = {.denials = 7,
                                             .label_denials = 2,
                                             .mislabeled = 3,
                                             .files = files,
                                             .n_files = 2,
                                             .log = "/l"};
        _cleanup_free_ char *text = NULL, *again = NULL;
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(si_trial_decide_from(cur, &ev, "now", &t), 1);
        ck_assert_int_eq(si_trial_render(t, &text), 0);
        ck_assert_ptr_null(strstr(text, "new\nline")); /* one line per value */
        ck_assert_ptr_nonnull(strstr(text, "path=/etc/new\\x0aline\n"));
        ck_assert_ptr_nonnull(strstr(text, "path=/a\\\\b c\\x7f\xc3\xa9\n"));
        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(si_trial_parse(ctx, "t", text, strlen(text), &back), 0);
        seinstall_unref(ctx);
        ck_assert_int_eq(seinstall_trial_result_get_state(back), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_denials(back), 7);
        ck_assert_uint_eq(seinstall_trial_result_get_n_label_denials(back), 2);
        ck_assert_uint_eq(seinstall_trial_result_get_n_mislabeled(back), 3);
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(back), 2);
        ck_assert_str_eq(seinstall_trial_result_get_path(back, 0), "/etc/new\nline");
        ck_assert_str_eq(seinstall_trial_result_get_fix(back, 0), "restorecon -F '/etc/new\nline'");
        ck_assert_str_eq(seinstall_trial_result_get_path(back, 1), "/a\\b c\x7f\xc3\xa9");
        ck_assert_ptr_null(seinstall_trial_result_get_fix(back, 1));
        ck_assert_int_eq(si_trial_render(back, &again), 0);
        ck_assert_str_eq(again, text);
}
END_TEST

/* State files seinstall did not write: -EBADMSG naming the file and line. */
START_TEST(test_state_corrupt)
{
        static const struct {
                const char *text;
                size_t len; /* 0: strlen */
                const char *where;
        } bad[] = {
            {"", 0, "t: no state= line"},
            {"# only a comment\npolicy=default\n", 0, "t: no state= line"},
            {"state=maybe\n", 0, "t:1: unknown state 'maybe'"},
            {"state=none\n", 0, "t:1: unknown state 'none'"},
            {"state=pending\nstate=enforced\n", 0, "t:2: a second state= line"},
            {"state=pending\ngarbage\n", 0, "t:2: not a key=value line"},
            {"state=pending\n=x\n", 0, "t:2: not a key=value line"},
            {"state=enforced\ndenials=-1\n", 0, "t:2: denials= is not a number"},
            {"state=enforced\nlabel_denials=99999999999999999999\n", 0,
             "t:2: label_denials= is not a number"},
            {"state=kept-permissive\nfix=rm -rf /\n", 0, "t:2: fix= without a path="},
            {"state=kept-permissive\npath=/a\\q\n", 0, "t:2: a bad escape"},
            {"state=kept-permissive\npath=/a\\x00b\n", 0, "t:2: a bad escape"},
            {"state=kept-permissive\npath=/a\\x4\n", 0, "t:2: a bad escape"},
            {"state=pending\0\n", 15, "t: holds a NUL byte"},
        };
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                struct seinstall_trial_result *t = NULL;
                size_t len = bad[i].len ? bad[i].len : strlen(bad[i].text);

                ck_assert_msg(si_trial_parse(ctx, "t", bad[i].text, len, &t) == -EBADMSG,
                              "accepted: %s", bad[i].text);
                ck_assert_ptr_null(t);
                ck_assert_msg(strstr(seinstall_last_error(ctx), bad[i].where), "'%s' not in '%s'",
                              bad[i].where, seinstall_last_error(ctx));
                ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "seinstall apply"));
        }
        seinstall_unref(ctx);
}
END_TEST

/* ---- on a tree: seinstall_trial_decide() ----------------------------------------------- */

static char *root;

static char *at(const char *path)
{
        char *p = path_join(root, path);
        ck_assert_ptr_nonnull(p);
        return p;
}

static void mkdirs(const char *path)
{
        _cleanup_free_ char *p = at(path);
        for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
                *s = '\0';
                mkdir(p, 0755);
                *s = '/';
        }
        mkdir(p, 0755);
}

static void put(const char *path, const char *text)
{
        _cleanup_free_ char *p = at(path);
        write_file(p, text);
}

static char *get(const char *path)
{
        _cleanup_free_ char *p = at(path);
        char *text = NULL;
        size_t len;

        ck_assert_int_eq(read_file_bounded(p, 1 << 20, &text, &len), 0);
        return text;
}

static const char label_log[] =
    "type=AVC msg=audit(1733270000.123:101): avc:  denied  { read } for  pid=812 comm=\"passwd\" "
    "name=\"shadow\" dev=\"vda3\" ino=39231 scontext=system_u:system_r:passwd_t:s0 "
    "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1\n"
    "type=PATH msg=audit(1733270000.123:101): item=0 name=\"/etc/shadow\" inode=39231 dev=fe:03 "
    "mode=0100640 ouid=0 ogid=42 rdev=00:00 obj=system_u:object_r:etc_t:s0 nametype=NORMAL\n";
static const char policy_log[] =
    "[    9.1] audit: type=1400 audit(1733270001.000:102): avc:  denied  { sys_admin } for  "
    "pid=500 comm=\"foo\" capability=21  scontext=system_u:system_r:foo_t:s0 "
    "tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1\n";

static void set_label(const char *path, const char *label)
{
        _cleanup_free_ char *p = at(path);
        ck_assert_int_eq(lsetxattr(p, "security.selinux", label, strlen(label) + 1, 0), 0);
}

/* A target whose boot-critical files there are (/etc/shadow, the config) carry their labels. */
static void tree_setup(void)
{
        _cleanup_free_ char *pol = host_policy_path(), *polcopy = NULL;

        ck_assert_msg(pol != NULL, "no policy.N in /etc/selinux/default/policy (make deps)");
        root = make_tmpdir();
        mkdirs("etc/selinux/default/contexts/files");
        mkdirs("etc/selinux/default/policy");
        mkdirs("var/lib/seinstall");
        polcopy = at("etc/selinux/default/policy/policy.33");
        copy_file(pol, polcopy);
        put("etc/shadow", "root:*::0:::::\n");
        set_label("etc/shadow", "system_u:object_r:shadow_t:s0");
        put("etc/selinux/config", "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        set_label("etc/selinux/config", "system_u:object_r:etc_t:s0");
        put("etc/selinux/default/contexts/files/file_contexts",
            "/.*\tsystem_u:object_r:default_t:s0\n/etc(/.*)?\tsystem_u:object_r:etc_t:s0\n"
            "/etc/shadow.*\t--\tsystem_u:object_r:shadow_t:s0\n");
        put("label.log", label_log);
        put("policy.log", policy_log);
        put("var/lib/seinstall/trial", "state=pending\npolicy=default\nstarted=then\n");
}

static void tree_teardown(void)
{
        tmpdir_removep(&root);
}

static int decide(const char *log, struct seinstall_trial_result **ret)
{
        _cleanup_free_ char *l = at(log);
        struct seinstall_ctx *ctx = NULL;
        int r;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        r = seinstall_trial_decide(ctx, l, 0, ret);
        seinstall_unref(ctx);
        return r;
}

START_TEST(test_tree_enforce_then_nothing)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL,
                                                                               *again = NULL;
        _cleanup_free_ char *config = NULL, *state = NULL, *state2 = NULL;

        ck_assert_int_eq(decide("policy.log", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_ENFORCED);
        ck_assert(!seinstall_trial_result_get_enforcing_now(t)); /* not the running system */
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=enforcing\nSELINUXTYPE=default\n");
        state = get("var/lib/seinstall/trial");
        ck_assert_ptr_nonnull(strstr(state, "\nstate=enforced\n"));
        ck_assert_ptr_nonnull(strstr(state, "\nstarted=then\n"));
        /* a later boot's label denial changes nothing */
        put("etc/selinux/config", "SELINUX=permissive\n");
        ck_assert_int_eq(decide("label.log", &again), 0);
        ck_assert_int_eq(seinstall_trial_result_get_state(again), SEINSTALL_TRIAL_ENFORCED);
        free(config);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "SELINUX=permissive\n");
        state2 = get("var/lib/seinstall/trial");
        ck_assert_str_eq(state2, state);
}
END_TEST

START_TEST(test_tree_keep)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        _cleanup_free_ char *config = NULL, *state = NULL, *fix = NULL;

        ck_assert_int_eq(decide("label.log", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(t), 1);
        ck_assert_str_eq(seinstall_trial_result_get_path(t, 0), "/etc/shadow");
        ck_assert_ptr_nonnull(fix = shell_relabel_command(root, "/etc/shadow"));
        ck_assert_str_eq(seinstall_trial_result_get_fix(t, 0), fix);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        state = get("var/lib/seinstall/trial");
        ck_assert_ptr_nonnull(strstr(state, "\nstate=kept-permissive\n"));
        ck_assert_ptr_nonnull(strstr(state, "\npath=/etc/shadow\nfix=chroot "));
}
END_TEST

/* No denial in the log named it, but /etc/shadow carries a wrong label now (a reader that had
 * not run yet, a rate-limited audit line): kept permissive, the file named with its fix. */
START_TEST(test_tree_mislabeled)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        _cleanup_free_ char *config = NULL, *state = NULL, *fix = NULL;

        set_label("etc/shadow", "system_u:object_r:etc_t:s0");
        ck_assert_int_eq(decide("policy.log", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_label_denials(t), 0);
        ck_assert_uint_eq(seinstall_trial_result_get_n_mislabeled(t), 1);
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(t), 1);
        ck_assert_str_eq(seinstall_trial_result_get_path(t, 0), "/etc/shadow");
        ck_assert_ptr_nonnull(fix = shell_relabel_command(root, "/etc/shadow"));
        ck_assert_str_eq(seinstall_trial_result_get_fix(t, 0), fix);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        state = get("var/lib/seinstall/trial");
        ck_assert_ptr_nonnull(strstr(state, "\nmislabeled=1\n"));
        ck_assert_ptr_nonnull(strstr(state, "\npath=/etc/shadow\nfix=chroot "));
}
END_TEST

/* The labels cannot be checked (no binary policy to validate the file contexts against): the
 * trial does not decide on the denials alone; it fails, the state stays pending, the config
 * permissive. */
START_TEST(test_tree_cannot_check_labels)
{
        _cleanup_free_ char *pol = at("etc/selinux/default/policy/policy.33"), *config = NULL,
                            *state = NULL;
        struct seinstall_trial_result *t = NULL;

        ck_assert_int_eq(unlink(pol), 0);
        ck_assert_int_eq(decide("policy.log", &t), -ENOPKG);
        ck_assert_ptr_null(t);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        state = get("var/lib/seinstall/trial");
        ck_assert_str_eq(state, "state=pending\npolicy=default\nstarted=then\n");
}
END_TEST

/* The same file named by a denial and found mislabeled: listed once. */
START_TEST(test_tree_denied_and_mislabeled)
{
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;

        set_label("etc/shadow", "system_u:object_r:etc_t:s0");
        ck_assert_int_eq(decide("label.log", &t), 1);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_KEPT_PERMISSIVE);
        ck_assert_uint_eq(seinstall_trial_result_get_n_label_denials(t), 1);
        ck_assert_uint_eq(seinstall_trial_result_get_n_mislabeled(t), 1);
        ck_assert_uint_eq(seinstall_trial_result_get_n_paths(t), 1);
        ck_assert_str_eq(seinstall_trial_result_get_path(t, 0), "/etc/shadow");
}
END_TEST

/* A state file that is a symlink (to a pending state outside the target): refused, the link
 * and what it points to left alone, the config unchanged. */
START_TEST(test_tree_symlink)
{
        _cleanup_free_ char *state = at("var/lib/seinstall/trial"), *outside = NULL, *config = NULL,
                            *back = NULL;
        _cleanup_(tmpdir_removep) char *other = make_tmpdir();
        struct seinstall_trial_result *t = NULL;
        struct seinstall_ctx *ctx = NULL;
        char link[4096];
        ssize_t n;

        outside = path_join(other, "trial");
        write_file(outside, "state=pending\n");
        ck_assert_int_eq(unlink(state), 0);
        ck_assert_int_eq(symlink(outside, state), 0);
        ck_assert_int_eq(decide("policy.log", &t), -ELOOP);
        ck_assert_ptr_null(t);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        n = readlink(state, link, sizeof(link) - 1);
        ck_assert_int_gt(n, 0);
        link[n] = '\0';
        ck_assert_str_eq(link, outside);
        ck_assert_int_eq(read_file_bounded(outside, 1024, &back, NULL), 0);
        ck_assert_str_eq(back, "state=pending\n");
        /* status still reads, and says why the trial is unknown */
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(si_trial_read_for_status(ctx, &t), 0);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_NONE);
        ck_assert_ptr_nonnull(strstr(seinstall_trial_result_get_error(t), "symbolic link"));
        seinstall_trial_result_unref(t);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_tree_corrupt)
{
        _cleanup_free_ char *config = NULL, *state = NULL;
        struct seinstall_trial_result *t = NULL;

        put("var/lib/seinstall/trial", "state=pending\npath=\\z\n");
        ck_assert_int_eq(decide("policy.log", &t), -EBADMSG);
        config = get("etc/selinux/config");
        ck_assert_str_eq(config, "# kept\nSELINUX=permissive\nSELINUXTYPE=default\n");
        state = get("var/lib/seinstall/trial");
        ck_assert_str_eq(state, "state=pending\npath=\\z\n");
}
END_TEST

/* No state file: nothing to decide, nothing written. */
START_TEST(test_tree_none)
{
        _cleanup_free_ char *state = at("var/lib/seinstall/trial");
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;

        ck_assert_int_eq(unlink(state), 0);
        ck_assert_int_eq(decide("policy.log", &t), 0);
        ck_assert_int_eq(seinstall_trial_result_get_state(t), SEINSTALL_TRIAL_NONE);
        ck_assert_int_eq(access(state, F_OK), -1);
}
END_TEST

/* A pending relabel: the trial waits for the boot after it. */
START_TEST(test_tree_relabel_pending)
{
        struct seinstall_trial_result *t = NULL;

        put(".autorelabel", "-F\n");
        ck_assert_int_eq(decide("policy.log", &t), -EBUSY);
        ck_assert_ptr_null(t);
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("trial");
        TCase *tc = tcase_create("decision");
        TCase *tree = tcase_create("tree");

        tcase_add_test(tc, test_decide_clean);
        tcase_add_test(tc, test_decide_policy_only);
        tcase_add_test(tc, test_decide_mislabeled);
        tcase_add_test(tc, test_decide_label);
        tcase_add_test(tc, test_decide_once);
        tcase_add_test(tc, test_state_roundtrip);
        tcase_add_test(tc, test_state_corrupt);
        suite_add_tcase(suite, tc);
        tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
        tcase_add_test(tree, test_tree_enforce_then_nothing);
        tcase_add_test(tree, test_tree_keep);
        tcase_add_test(tree, test_tree_mislabeled);
        tcase_add_test(tree, test_tree_denied_and_mislabeled);
        tcase_add_test(tree, test_tree_cannot_check_labels);
        tcase_add_test(tree, test_tree_symlink);
        tcase_add_test(tree, test_tree_corrupt);
        tcase_add_test(tree, test_tree_none);
        tcase_add_test(tree, test_tree_relabel_pending);
        suite_add_policy_tcase(suite, tree, "tree");
        return run_suite(suite);
}
