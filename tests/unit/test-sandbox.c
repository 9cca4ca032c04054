/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of sandbox.c: the output relay (escaped, prefixed, bounded), the wall-clock limit
 * from SEINSTALL_SANDBOX_TIMEOUT (seinstall_sandbox_timeout_parse()), and si_run_in_target()
 * itself: for the root "/" (the running system's own program, no bwrap) its status, output and kill
 * at the limit; for a target, that without a sandbox nothing runs. Of sandbox-cgroup.c: where the
 * sandbox's cgroup goes, in fake cgroup trees. tests/integration/hostile-sandbox.sh attacks the
 * sandbox, hostile-sandbox-limits.sh its process and memory limits. */
#include <check.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/blkpg.h>
#include <linux/hdreg.h>
#include <linux/loop.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "seinstall-private.h"
#include "seinstall-internal.h"
#include "sandbox-cgroup.h"
#include "sandbox.h"
#include "testutil.h"

struct logged {
        struct sbuf text;
        unsigned lines;
};

static void collect(void *userdata, int priority, const char *message)
{
        struct logged *l = userdata;

        (void) priority;
        l->lines++;
        ck_assert(sbuf_printf(&l->text, "%s\n", message) >= 0);
}

static struct seinstall_ctx *ctx_logging(const char *root, struct logged *l)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        seinstall_set_log_fn(ctx, collect, l);
        seinstall_set_log_priority(ctx, SEINSTALL_LOG_DEBUG);
        return ctx;
}

START_TEST(test_relay_escapes_and_prefixes)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        struct si_relay r = {.name = "/usr/sbin/update-grub"};
        const char out[] = "\033[31mred\033[0m\nseinstall: error: forged\nnul[\0]\nlast";

        si_relay_feed(ctx, &r, out, sizeof(out) - 1);
        si_relay_end(ctx, &r);
        /* the library hands the text on as it came; the front end escapes it once */
        ck_assert_str_eq(l.text.s, "/usr/sbin/update-grub: \033[31mred\033[0m\n"
                                   "/usr/sbin/update-grub: seinstall: error: forged\n"
                                   "/usr/sbin/update-grub: nul[\xef\xbf\xbd]\n"
                                   "/usr/sbin/update-grub: last\n");
        ck_assert_str_eq(r.last, "last");
        free(r.last);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_relay_bounded)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        struct si_relay r = {.name = "p"};
        char *big = malloc(100000);

        ck_assert_ptr_nonnull(big);
        /* one line far longer than a line may be, fed in pieces */
        memset(big, 'x', 100000);
        for (int i = 0; i < 10; i++)
                si_relay_feed(ctx, &r, big, 10000);
        si_relay_feed(ctx, &r, "\n", 1);
        ck_assert_uint_eq(l.lines, 1);
        ck_assert_uint_eq(strlen(l.text.s),
                          strlen("p: ") + SI_RELAY_LINE_MAX + strlen(" [line cut]") + 1);
        /* then many short lines: at most SI_RELAY_LINES shown, the rest counted */
        for (int i = 0; i < 5000; i++)
                si_relay_feed(ctx, &r, "short line\n", 11);
        si_relay_end(ctx, &r);
        ck_assert_uint_eq(l.lines, SI_RELAY_LINES + 1);
        ck_assert_ptr_nonnull(strstr(l.text.s, "more bytes of output not shown"));
        ck_assert_uint_gt(r.hidden, 0);
        ck_assert_uint_lt(l.text.len, SI_RELAY_LINES * 32 + SI_RELAY_LINE_MAX + 200);
        free(big);
        free(r.last);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_timeout_parse)
{
        unsigned t = 0;

        ck_assert_int_eq(seinstall_sandbox_timeout_parse(NULL, &t), 0);
        ck_assert_uint_eq(t, 300);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("", &t), 0);
        ck_assert_uint_eq(t, 300);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("5", &t), 0);
        ck_assert_uint_eq(t, 5);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("86400", &t), 0);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("0", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("86401", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("-1", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("+5", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("5s", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse(" 5", &t), -EINVAL);
        ck_assert_int_eq(seinstall_sandbox_timeout_parse("99999999999999999999", &t), -EINVAL);
}
END_TEST

/* The limits are the context's, set by the commands: the library reads no environment. */
START_TEST(test_limits_setters)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(seinstall_set_sandbox_timeout(ctx, 5), 0);
        ck_assert_int_eq(seinstall_set_sandbox_timeout(ctx, 0), 0);
        ck_assert_int_eq(seinstall_set_sandbox_timeout(ctx, SEINSTALL_SANDBOX_TIMEOUT_MAX + 1),
                         -EINVAL);
        ck_assert_int_eq(seinstall_set_links_max(ctx, 1), 0);
        ck_assert_int_eq(seinstall_set_links_max(ctx, SEINSTALL_LINKS_MAX_LIMIT), 0);
        ck_assert_int_eq(seinstall_set_links_max(ctx, SEINSTALL_LINKS_MAX_LIMIT + 1), -EINVAL);
        ck_assert_int_eq(seinstall_set_links_max(NULL, 1), -EINVAL);
        seinstall_unref(ctx);
}
END_TEST

/* The names of the sandbox's /dev/disk/by-uuid and by-partuuid links come from the target's
 * devices: what every filesystem's UUID looks like passes, nothing that leaves the directory,
 * hides in it or breaks a line does. */
START_TEST(test_link_names)
{
        static const char *const good[] = {
            "0b7c2f6e-3a1d-4c5e-9f00-123456789abc", /* ext4, xfs, btrfs, swap, LUKS */
            "1234-ABCD",                            /* vfat */
            "0123456789ABCDEF",                     /* ntfs */
            "2023-01-02-03-04-05-00",               /* iso9660 */
            "12345678-01",                          /* an MBR partition */
            "15560483853716014135",                 /* zfs */
            "a.b_c:d=e@f#g+h",                      /* udev's other characters */
        };
        static const char *const bad[] = {
            "",     ".",    "..",    "../x",      "a/b",
            "/",    "x/..", "a..b",  "..a",       "a\nb",
            "a\tb", "a b",  "a\x7f", "\x01x",     "\xc3\xa9t\xc3\xa9",
            "a\\b", "a*",   "a?b",   "$(reboot)", "a\"b",
            "a'b",
        };
        char longest[SI_SANDBOX_LINK_NAME_MAX + 2];

        for (size_t i = 0; i < ELEMENTSOF(good); i++)
                ck_assert_msg(si_sandbox_link_name_ok(good[i]), "refused %s", good[i]);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                ck_assert_msg(!si_sandbox_link_name_ok(bad[i]), "accepted %s", bad[i]);
        memset(longest, 'a', sizeof(longest));
        longest[SI_SANDBOX_LINK_NAME_MAX] = '\0';
        ck_assert(si_sandbox_link_name_ok(longest));
        longest[SI_SANDBOX_LINK_NAME_MAX] = 'a';
        longest[SI_SANDBOX_LINK_NAME_MAX + 1] = '\0';
        ck_assert(!si_sandbox_link_name_ok(longest));
        {
                char big[301];
                memset(big, '0', 300);
                big[300] = '\0';
                ck_assert(!si_sandbox_link_name_ok(big));
        }
}
END_TEST

/* The root "/": its own program runs without bwrap, with the same relay and limit. */
/* The ioctl allowlist: the read-only queries grub-probe and a shell make pass, and none of the
 * requests that change a device (the loop driver checks neither a capability nor the open mode
 * for LOOP_CLR_FD, LOOP_SET_FD, LOOP_CONFIGURE, LOOP_CHANGE_FD). */
START_TEST(test_ioctl_allowlist)
{
        const unsigned long good[] = {
            TCGETS,       TIOCGWINSZ,        BLKGETSIZE64,      BLKSSZGET,
            HDIO_GETGEO,  LOOP_GET_STATUS64, BTRFS_IOC_FS_INFO, BTRFS_IOC_DEV_INFO,
            RAID_VERSION, GET_ARRAY_INFO,    GET_DISK_INFO};
        const unsigned long bad[] = {LOOP_CLR_FD,
                                     LOOP_SET_FD,
                                     LOOP_CONFIGURE,
                                     LOOP_CHANGE_FD,
                                     LOOP_SET_STATUS64,
                                     BLKDISCARD,
                                     BLKZEROOUT,
                                     BLKFLSBUF,
                                     BLKRRPART,
                                     BLKPG,
                                     TIOCSTI,
                                     TIOCLINUX,
                                     FS_IOC_SETFLAGS,
                                     BTRFS_IOC_SNAP_DESTROY,
                                     FICLONE};

        for (size_t i = 0; i < ELEMENTSOF(good); i++)
                ck_assert_msg(si_sandbox_ioctl_allowed(good[i]), "refused %#lx", good[i]);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                ck_assert_msg(!si_sandbox_ioctl_allowed(bad[i]), "allowed %#lx", bad[i]);
        /* the request is an int: the upper half of the register is not looked at */
        ck_assert(si_sandbox_ioctl_allowed(0xffffffff00000000UL | TCGETS));
}
END_TEST

/* The signal handlers and mask of this process, to compare before and after a call. */
struct signal_state {
        sigset_t mask;
        struct sigaction act[NSIG];
};

static void signal_state(struct signal_state *st)
{
        memset(st, 0, sizeof(*st));
        ck_assert_int_eq(sigprocmask(SIG_BLOCK, NULL, &st->mask), 0);
        for (int sig = 1; sig < NSIG; sig++)
                if (sigaction(sig, NULL, &st->act[sig]) < 0)
                        memset(&st->act[sig], 0, sizeof(st->act[sig]));
}

static bool signal_state_same(const struct signal_state *a, const struct signal_state *b)
{
        for (int sig = 1; sig < NSIG; sig++) {
                if (sigismember(&a->mask, sig) != sigismember(&b->mask, sig))
                        return false;
                if (a->act[sig].sa_handler != b->act[sig].sa_handler ||
                    a->act[sig].sa_flags != b->act[sig].sa_flags)
                        return false;
        }
        return true;
}

/* seinstall.h's process rules: a run waits for its own child alone (a child of the caller
 * started before it is still the caller's to reap) and leaves the signal handlers and mask as
 * they were. */
START_TEST(test_run_host_program)
{
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging("/", &l);
        const char *const ok[] = {"/bin/sh", "-c", "echo out; echo err >&2; test ! -t 0", NULL};
        const char *const bad[] = {"/bin/sh", "-c", "exit 4", NULL};
        const char *const hang[] = {"/bin/sh", "-c", "sleep 1000 & sleep 1000", NULL};
        struct signal_state before, after;
        int status;
        pid_t mine;

        signal_state(&before);
        mine = fork();
        ck_assert_int_ge(mine, 0);
        if (mine == 0)
                _exit(7);
        ck_assert_int_eq(si_run_in_target(ctx, ok), 0);
        ck_assert_ptr_nonnull(strstr(l.text.s, "/bin/sh: out\n"));
        ck_assert_ptr_nonnull(strstr(l.text.s, "/bin/sh: err\n"));
        ck_assert_int_eq(si_run_in_target(ctx, bad), -SEINSTALL_ERROR_PROGRAM_FAILED);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "exit status 4"));
        ck_assert_int_eq(seinstall_set_sandbox_timeout(ctx, 1), 0);
        ck_assert_int_eq(si_run_in_target(ctx, hang), -ETIME);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "ran longer than 1 s"));
        /* the environment is the commands' to read, not the library's */
        ck_assert_int_eq(setenv("SEINSTALL_SANDBOX_TIMEOUT", "soon", 1), 0);
        ck_assert_int_eq(si_run_in_target(ctx, ok), 0);
        unsetenv("SEINSTALL_SANDBOX_TIMEOUT");
        ck_assert_int_eq(waitpid(mine, &status, 0), mine);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
        signal_state(&after);
        ck_assert(signal_state_same(&before, &after));
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

/* A target whose sandbox cannot stand (its /proc a file): refused, and nothing ran. */
START_TEST(test_run_refused_without_sandbox)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *proc = NULL, *marker = NULL;
        struct logged l = {};
        struct seinstall_ctx *ctx = ctx_logging(dir, &l);
        const char *argv[] = {"/bin/sh", "-c", NULL, NULL};
        _cleanup_free_ char *cmd = NULL;

        ck_assert_int_ge(asprintf(&proc, "%s/proc", dir), 0);
        ck_assert_int_ge(asprintf(&marker, "%s/ran", dir), 0);
        ck_assert_int_ge(asprintf(&cmd, "touch %s", marker), 0);
        argv[2] = cmd;
        write_file(proc, "not a directory\n");
        /* without bubblewrap (a package build's chroot) the refusal comes first, for that */
        ck_assert_int_eq(si_run_in_target(ctx, argv),
                         access("/usr/bin/bwrap", X_OK) == 0 ? -ENOTDIR : -ENOPKG);
        ck_assert_int_ne(access(marker, F_OK), 0);
        sbuf_free(&l.text);
        seinstall_unref(ctx);
}
END_TEST

/* ---- where the sandbox's cgroup goes (fake trees: ROOT/proc/self/..., ROOT/sys/fs/cgroup) -- */

/* @content at @root/@rel, its directories made. */
static void fake(const char *root, const char *rel, const char *content)
{
        _cleanup_free_ char *path = NULL;

        ck_assert_int_ge(asprintf(&path, "%s/%s", root, rel), 0);
        for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
                *p = '/';
        }
        write_file(path, content);
}

static char *fake_read(const char *root, const char *rel)
{
        _cleanup_free_ char *path = NULL;
        char *text = NULL;

        ck_assert_int_ge(asprintf(&path, "%s/%s", root, rel), 0);
        ck_assert_int_eq(read_file_bounded(path, 4096, &text, NULL), 0);
        return text;
}

static void fake_proc(const char *root, const char *mountinfo, const char *cgroup)
{
        fake(root, "proc/self/mountinfo", mountinfo);
        fake(root, "proc/self/cgroup", cgroup);
}

static void assert_place(const char *root, const struct si_cgroup_place *p, int version,
                         const char *where, bool memory)
{
        _cleanup_free_ char *want = NULL;

        ck_assert_int_ge(asprintf(&want, "%s%s", root, where), 0);
        ck_assert_int_eq(p->version, version);
        ck_assert_str_eq(p->where, want);
        ck_assert_int_eq(p->memory, memory);
        ck_assert_int_ge(p->pids_fd, 0);
}

/* This machine's layout: systemd's hybrid, cgroup2 without controllers, pids on v1, this
 * process at the root of pids and in a cgroup of its own in memory. */
START_TEST(test_cgroup_hybrid_takes_v1)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;
        _cleanup_free_ char *v2_sub = NULL;

        fake_proc(root,
                  "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
                  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
                  "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
                  "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
                  "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
                  "9:name=systemd:/\n8:pids:/\n4:memory:/job/1\n1:cpu:/\n0::/\n");
        fake(root, "sys/fs/cgroup/unified/cgroup.controllers", "");
        fake(root, "sys/fs/cgroup/unified/cgroup.subtree_control", "");
        fake(root, "sys/fs/cgroup/pids/cgroup.procs", "1\n");
        fake(root, "sys/fs/cgroup/memory/job/1/cgroup.procs", "1\n");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), 0);
        assert_place(root, &p, 1, "/sys/fs/cgroup/pids", true);
        ck_assert_int_ge(p.mem_fd, 0);
        /* the v2 root without a pids controller was left as it was */
        v2_sub = fake_read(root, "sys/fs/cgroup/unified/cgroup.subtree_control");
        ck_assert_str_eq(v2_sub, "");
        si_cgroup_place_done(&p);
}
END_TEST

/* Pure v2 under systemd: this process's own scope (a threaded domain here, pids enabled on
 * it) and a slice without pids are passed over for the slice above that passes pids and
 * memory on. The mount point has a blank, escaped in mountinfo. */
START_TEST(test_cgroup_v2_nearest_domain_above)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;
        _cleanup_free_ char *scope_sub = NULL;

        fake_proc(root, "30 23 0:26 / /sys/fs/cg\\040two rw,nosuid - cgroup2 cgroup2 rw\n",
                  "0::/user.slice/user-0.slice/session-1.scope\n");
        fake(root, "sys/fs/cg two/cgroup.controllers", "cpu memory pids\n");
        fake(root, "sys/fs/cg two/cgroup.subtree_control", "cpu memory pids\n");
        fake(root, "sys/fs/cg two/user.slice/cgroup.type", "domain\n");
        fake(root, "sys/fs/cg two/user.slice/cgroup.subtree_control", "memory pids\n");
        fake(root, "sys/fs/cg two/user.slice/user-0.slice/cgroup.type", "domain\n");
        fake(root, "sys/fs/cg two/user.slice/user-0.slice/cgroup.subtree_control", "memory\n");
        fake(root, "sys/fs/cg two/user.slice/user-0.slice/session-1.scope/cgroup.type",
             "domain threaded\n");
        fake(root, "sys/fs/cg two/user.slice/user-0.slice/session-1.scope/cgroup.subtree_control",
             "pids\n");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), 0);
        assert_place(root, &p, 2, "/sys/fs/cg two/user.slice", true);
        ck_assert_int_lt(p.mem_fd, 0);
        si_cgroup_place_done(&p);
        scope_sub = fake_read(root, "sys/fs/cg two/user.slice/user-0.slice/cgroup.subtree_control");
        ck_assert_str_eq(scope_sub, "memory\n");
}
END_TEST

/* The root cgroup (no cgroup.type) with pids on: taken, even though this process is in it. */
START_TEST(test_cgroup_v2_root)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;

        fake_proc(root, "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/\n");
        fake(root, "sys/fs/cgroup/cgroup.controllers", "pids\n");
        fake(root, "sys/fs/cgroup/cgroup.subtree_control", "pids\n");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), 0);
        assert_place(root, &p, 2, "/sys/fs/cgroup", false);
        si_cgroup_place_done(&p);
}
END_TEST

/* A container: the top of the mount is its cgroup namespace's root, which holds this process
 * (it has a cgroup.type: not the real root). Nothing may be enabled there, no v1: refused,
 * with the reason; the files left as they were. */
START_TEST(test_cgroup_v2_container_refused)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;
        _cleanup_free_ char *sub = NULL;

        fake_proc(root, "30 23 0:26 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n", "0::/\n");
        fake(root, "sys/fs/cgroup/cgroup.type", "domain\n");
        fake(root, "sys/fs/cgroup/cgroup.controllers", "memory pids\n");
        fake(root, "sys/fs/cgroup/cgroup.subtree_control", "");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), -EOPNOTSUPP);
        ck_assert_ptr_nonnull(strstr(why, "pids controller"));
        ck_assert_int_lt(p.pids_fd, 0);
        sub = fake_read(root, "sys/fs/cgroup/cgroup.subtree_control");
        ck_assert_str_eq(sub, "");
}
END_TEST

/* No cgroup filesystem at all (an installer's initramfs): -ENOENT, so that seinstall mounts
 * its own; a v2 mount that does not show this process's cgroup: refused. */
START_TEST(test_cgroup_none_mounted)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        struct si_cgroup_place p = {.pids_fd = -1, .mem_fd = -1};
        const char *why = NULL;

        fake_proc(root, "1 0 0:2 / / rw - rootfs rootfs rw\n22 1 0:20 / /proc rw - proc proc rw\n",
                  "0::/\n");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), -ENOENT);
        ck_assert_str_eq(why, "no cgroup filesystem is mounted");
        fake_proc(root, "30 23 0:26 /other /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/mine\n");
        ck_assert_int_eq(si_cgroup_find(root, &p, &why), -EOPNOTSUPP);
        ck_assert_ptr_nonnull(strstr(why, "outside"));
}
END_TEST

int main(void)
{
        Suite *s = suite_create("sandbox");
        TCase *tc = tcase_create("core");

        tcase_set_timeout(tc, 30);
        tcase_add_test(tc, test_relay_escapes_and_prefixes);
        tcase_add_test(tc, test_relay_bounded);
        tcase_add_test(tc, test_timeout_parse);
        tcase_add_test(tc, test_limits_setters);
        tcase_add_test(tc, test_link_names);
        tcase_add_test(tc, test_ioctl_allowlist);
        tcase_add_test(tc, test_run_host_program);
        tcase_add_test(tc, test_run_refused_without_sandbox);
        tcase_add_test(tc, test_cgroup_hybrid_takes_v1);
        tcase_add_test(tc, test_cgroup_v2_nearest_domain_above);
        tcase_add_test(tc, test_cgroup_v2_root);
        tcase_add_test(tc, test_cgroup_v2_container_refused);
        tcase_add_test(tc, test_cgroup_none_mounted);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
