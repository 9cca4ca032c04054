/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of avc.c: real denial lines as the kernel (printk, /dev/kmsg, journal) and auditd
 * write them, enforcing and permissive, path= and name=/dev/ino forms, hex-encoded names with
 * spaces; and their classification against a target's file contexts. */
#include <check.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "avc.h"
#include "seinstall-private.h"
#include "testutil.h"

static struct si_avc parse(const char *line, int want)
{
        struct si_avc a = {0};
        ck_assert_int_eq(si_avc_parse_line(line, strlen(line), &a), want);
        return a;
}

START_TEST(test_auditd_path_enforcing)
{
        struct si_avc a =
            parse("type=AVC msg=audit(1733270001.500:102): avc:  denied  { read write open } for  "
                  "pid=1042 comm=\"sshd\" path=\"/etc/ssh/sshd_config\" dev=\"vda1\" ino=262402 "
                  "scontext=system_u:system_r:sshd_t:s0-s0:c0.c1023 "
                  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0\n",
                  1);
        ck_assert_int_eq(a.kind, SI_AVC_DENIAL);
        ck_assert_str_eq(a.stamp, "1733270001.500:102");
        ck_assert_str_eq(a.perms, "read write open");
        ck_assert_str_eq(a.comm, "sshd");
        ck_assert_str_eq(a.path, "/etc/ssh/sshd_config");
        ck_assert_str_eq(a.dev, "vda1");
        ck_assert(a.has_ino && a.ino == 262402);
        ck_assert_str_eq(a.scontext, "system_u:system_r:sshd_t:s0-s0:c0.c1023");
        ck_assert_str_eq(a.tcontext, "system_u:object_r:etc_t:s0");
        ck_assert_str_eq(a.tclass, "file");
        ck_assert_int_eq(a.permissive, 0);
        ck_assert_uint_eq(a.pid, 1042);
        si_avc_done(&a);
}
END_TEST

START_TEST(test_kernel_printk_name_dev_ino_permissive)
{
        /* dmesg, journalctl -k and /dev/kmsg forms of the same record */
        static const char *const lines[] = {
            "[    7.812345] audit: type=1400 audit(1733270002.448:4): avc:  denied  { getattr } "
            "for  pid=1 comm=\"systemd\" name=\"shadow\" dev=\"vda1\" ino=39231 "
            "scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:etc_t:s0 "
            "tclass=file permissive=1",
            "Dec 04 23:59:01 debian kernel: audit: type=1400 audit(1733270002.448:4): avc:  "
            "denied  { getattr } for  pid=1 comm=\"systemd\" name=\"shadow\" dev=\"vda1\" "
            "ino=39231 scontext=system_u:system_r:init_t:s0 "
            "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1",
            "5,812,7812345,-;audit: type=1400 audit(1733270002.448:4): avc:  denied  { getattr "
            "} for  pid=1 comm=\"systemd\" name=\"shadow\" dev=\"vda1\" ino=39231 "
            "scontext=system_u:system_r:init_t:s0 tcontext=system_u:object_r:etc_t:s0 "
            "tclass=file permissive=1",
        };
        for (size_t i = 0; i < ELEMENTSOF(lines); i++) {
                struct si_avc a = parse(lines[i], 1);
                ck_assert_str_eq(a.stamp, "1733270002.448:4");
                ck_assert_str_eq(a.perms, "getattr");
                ck_assert_str_eq(a.name, "shadow");
                ck_assert_ptr_null(a.path);
                ck_assert_str_eq(a.dev, "vda1");
                ck_assert(a.has_ino && a.ino == 39231);
                ck_assert_str_eq(a.tclass, "file");
                ck_assert_int_eq(a.permissive, 1);
                si_avc_done(&a);
        }
}
END_TEST

START_TEST(test_hex_names_with_spaces)
{
        /* audit_log_untrustedstring: a value with a space, quote or control byte is hex */
        struct si_avc a =
            parse("type=AVC msg=audit(1733270003.000:7): avc:  denied  { unlink } for  pid=77 "
                  "comm=6D7920746F6F6C name=6D792066696C652E747874 dev=\"dm-0\" ino=12 "
                  "scontext=unconfined_u:unconfined_r:unconfined_t:s0 "
                  "tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=1",
                  1);
        ck_assert_str_eq(a.comm, "my tool");
        ck_assert_str_eq(a.name, "my file.txt");
        si_avc_done(&a);
        a = parse("audit: type=1400 audit(1733270003.100:8): avc:  denied  { read } for  pid=9 "
                  "comm=\"cat\" path=2F686F6D652F7573657220612F6E6F7465732062 dev=\"vda1\" "
                  "ino=5 scontext=s:r:t:s0 tcontext=s:object_r:o_t:s0 tclass=file permissive=0",
                  1);
        ck_assert_str_eq(a.path, "/home/user a/notes b");
        si_avc_done(&a);
        /* a quoted value that happens to be hex digits stays as it is */
        a = parse("audit: type=1400 audit(1.1:1): avc:  denied  { read } for  pid=9 "
                  "comm=\"cafe\" name=\"beef\" dev=\"vda1\" ino=5 scontext=s:r:t:s0 "
                  "tcontext=s:object_r:o_t:s0 tclass=file permissive=0",
                  1);
        ck_assert_str_eq(a.comm, "cafe");
        ck_assert_str_eq(a.name, "beef");
        si_avc_done(&a);
}
END_TEST

START_TEST(test_other_forms)
{
        struct si_avc a;

        /* capability, no object fields */
        a = parse("audit: type=1400 audit(1733270004.000:9): avc:  denied  { net_admin } for  "
                  "pid=321 comm=\"NetworkManager\" capability=12  "
                  "scontext=system_u:system_r:NetworkManager_t:s0 "
                  "tcontext=system_u:system_r:NetworkManager_t:s0 tclass=capability "
                  "permissive=0",
                  1);
        ck_assert_str_eq(a.tclass, "capability");
        ck_assert_ptr_null(a.name);
        si_avc_done(&a);
        /* a userspace object manager's USER_AVC (systemd), inside msg='...' */
        a = parse("type=USER_AVC msg=audit(1733270005.000:107): pid=1 uid=0 auid=4294967295 "
                  "ses=4294967295 subj=system_u:system_r:init_t:s0 msg='avc:  denied  { status "
                  "} for auid=n/a uid=0 gid=0 path=\"/lib/systemd/system/ssh.service\" "
                  "cmdline=\"systemctl status ssh\" scontext=system_u:system_r:sysadm_t:s0 "
                  "tcontext=system_u:object_r:systemd_unit_file_t:s0 tclass=service "
                  "permissive=0  exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? "
                  "terminal=?'",
                  1);
        ck_assert_str_eq(a.tclass, "service");
        ck_assert_str_eq(a.path, "/lib/systemd/system/ssh.service");
        si_avc_done(&a);
        /* auditd's enriched format: interpreted fields after a GS byte are not the record's */
        a = parse("type=AVC msg=audit(1733270006.0:110): avc:  denied  { read } for  pid=5 "
                  "comm=\"a\" name=\"b\" dev=\"vda1\" ino=3 scontext=u:r:a_t:s0 "
                  "tcontext=u:object_r:b_t:s0 tclass=dir permissive=1\x1d"
                  "ARCH=x86_64 tclass=file",
                  1);
        ck_assert_str_eq(a.tclass, "dir");
        si_avc_done(&a);
        /* the kernel's trawcon= for a context the policy does not know */
        a = parse("audit: type=1400 audit(1.2:3): avc:  denied  { read } for  pid=5 comm=\"a\" "
                  "name=\"b\" dev=\"vda1\" ino=3 scontext=u:r:a_t:s0 "
                  "tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=1 "
                  "trawcon=\"system_u:object_r:gone_t:s0\"",
                  1);
        ck_assert_str_eq(a.tcontext, "system_u:object_r:unlabeled_t:s0");
        si_avc_done(&a);
        /* PATH and CWD records */
        a = parse("type=PATH msg=audit(1733270000.123:101): item=0 name=\"/etc/shadow\" "
                  "inode=39231 dev=fe:01 mode=0100640 ouid=0 ogid=42 rdev=00:00 "
                  "obj=system_u:object_r:etc_t:s0 nametype=NORMAL",
                  1);
        ck_assert_int_eq(a.kind, SI_AVC_PATH);
        ck_assert_str_eq(a.path, "/etc/shadow");
        ck_assert(a.has_ino && a.ino == 39231);
        si_avc_done(&a);
        a = parse("type=CWD msg=audit(1733270000.123:101): cwd=2F726F6F742F6D7920646972", 1);
        ck_assert_int_eq(a.kind, SI_AVC_CWD);
        ck_assert_str_eq(a.cwd, "/root/my dir");
        si_avc_done(&a);
}
END_TEST

START_TEST(test_not_denials)
{
        static const char *const lines[] = {
            ("type=AVC msg=audit(1.0:1): avc:  granted  { setenforce } for  pid=7 comm=\"s\" "
             "scontext=u:r:a_t:s0 tcontext=u:object_r:security_t:s0 tclass=security"),
            "type=SYSCALL msg=audit(1.0:1): arch=c000003e syscall=2 success=no exit=-13",
            "audit: type=1403 audit(1.0:2): auid=4294967295 ses=4294967295 lsm=selinux res=1",
            "SELinux:  Initializing.",
            "avc:  denied  { read } for pid=1 comm=\"x\"", /* no contexts: cut short */
            "avc:  denied  {} for scontext=a:b:c tcontext=a:b:c tclass=file",
            "avc:  denied  { read for scontext=a:b:c tcontext=a:b:c tclass=file",
            "",
            "type=PATH item=0 name=\"/x\"", /* no audit() stamp */
        };
        for (size_t i = 0; i < ELEMENTSOF(lines); i++)
                parse(lines[i], 0);
}
END_TEST

/* A target with a small policy's file contexts, and a log file. */
static char *target(void)
{
        char *d = make_tmpdir();
        char *p = NULL;

        static const char *const dirs[] = {"etc", "etc/selinux", "etc/selinux/default",
                                           "etc/selinux/default/contexts",
                                           "etc/selinux/default/contexts/files"};
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                ck_assert_int_ge(asprintf(&p, "%s/%s", d, dirs[i]), 0);
                ck_assert_int_eq(mkdir(p, 0755), 0);
                free(p);
        }
        ck_assert_int_ge(asprintf(&p, "%s/etc/selinux/config", d), 0);
        write_file(p, "SELINUX=permissive\nSELINUXTYPE=default\n");
        free(p);
        ck_assert_int_ge(asprintf(&p, "%s/etc/selinux/default/contexts/files/file_contexts", d), 0);
        write_file(p, "/.*\tsystem_u:object_r:default_t:s0\n"
                      "/etc(/.*)?\tsystem_u:object_r:etc_t:s0\n"
                      "/etc/shadow.*\t--\tsystem_u:object_r:shadow_t:s0\n"
                      "/home/[^/]+/.*\tsystem_u:object_r:user_home_t:s0\n"
                      "/var/log(/.*)?\tsystem_u:object_r:var_log_t:s0\n");
        free(p);
        return d;
}

static struct seinstall_avc_result *classify(const char *root, const char *log)
{
        _cleanup_free_ char *f = NULL;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_avc_result *rep = NULL;

        ck_assert_int_ge(asprintf(&f, "%s/log", root), 0);
        write_file(f, log);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(seinstall_avc_read(ctx, f, &rep), 0);
        seinstall_unref(ctx);
        return rep;
}

static const char *get(const struct seinstall_avc_result *r, size_t i, enum seinstall_avc_field f)
{
        return seinstall_avc_result_get_group_field(r, i, f);
}

START_TEST(test_classify)
{
        _cleanup_(tmpdir_removep) char *root = target();
        _cleanup_free_ char *fix = NULL;
        struct seinstall_avc_result *r = classify(
            root,
            /* /etc/shadow with etc_t: a label; its name resolved through auditd's PATH record */
            "type=AVC msg=audit(1733270000.123:101): avc:  denied  { read } for  pid=812 "
            "comm=\"passwd\" name=\"shadow\" dev=\"vda1\" ino=39231 "
            "scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:etc_t:s0 "
            "tclass=file permissive=1\n"
            "type=SYSCALL msg=audit(1733270000.123:101): arch=c000003e syscall=257 success=yes "
            "exit=3 items=1 comm=\"passwd\" exe=\"/usr/bin/passwd\" key=(null)\n"
            "type=CWD msg=audit(1733270000.123:101): cwd=\"/root\"\n"
            "type=PATH msg=audit(1733270000.123:101): item=0 name=\"/etc/shadow\" inode=39231 "
            "dev=fe:01 mode=0100640 obj=system_u:object_r:etc_t:s0 nametype=NORMAL\n"
            /* the same in the kernel's own log, path= form: grouped with it */
            "[   9.1] audit: type=1400 audit(1733270000.200:102): avc:  denied  { read } for  "
            "pid=813 comm=\"passwd\" path=\"/etc/shadow\" dev=\"vda1\" ino=39231 "
            "scontext=system_u:system_r:passwd_t:s0 tcontext=system_u:object_r:etc_t:s0 "
            "tclass=file permissive=1\n"
            /* right label, the policy denies: twice, grouped */
            "audit: type=1400 audit(1733270001.0:103): avc:  denied  { write } for  pid=4 "
            "comm=\"logrotate\" path=\"/var/log/syslog\" dev=\"vda1\" ino=7 "
            "scontext=system_u:system_r:logrotate_t:s0 tcontext=system_u:object_r:var_log_t:s0 "
            "tclass=file permissive=0\n"
            "audit: type=1400 audit(1733270001.5:104): avc:  denied  { write } for  pid=5 "
            "comm=\"logrotate\" path=\"/var/log/messages\" dev=\"vda1\" ino=8 "
            "scontext=system_u:system_r:logrotate_t:s0 tcontext=system_u:object_r:var_log_t:s0 "
            "tclass=file permissive=0\n"
            /* a relative PATH name joined to the event's CWD; a name with spaces */
            "type=AVC msg=audit(1733270002.0:105): avc:  denied  { open } for  pid=6 "
            "comm=\"vi\" name=6E6F746573206120622E747874 dev=\"vda1\" ino=99 "
            "scontext=unconfined_u:unconfined_r:unconfined_t:s0 "
            "tcontext=unconfined_u:object_r:etc_t:s0 tclass=file permissive=1\n"
            "type=CWD msg=audit(1733270002.0:105): cwd=\"/home/user\"\n"
            "type=PATH msg=audit(1733270002.0:105): item=0 name=6E6F746573206120622E747874 "
            "inode=99 dev=fe:01 mode=0100644 nametype=NORMAL\n"
            /* never labeled: a label cause even without a path */
            "audit: type=1400 audit(1733270003.0:106): avc:  denied  { getattr } for  pid=7 "
            "comm=\"ls\" name=\"x\" dev=\"vdb\" ino=5 scontext=system_u:system_r:init_t:s0 "
            "tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=1\n"
            /* not files at all */
            "audit: type=1400 audit(1733270004.0:107): avc:  denied  { sys_admin } for  pid=8 "
            "comm=\"x\" capability=21 scontext=system_u:system_r:init_t:s0 "
            "tcontext=system_u:system_r:init_t:s0 tclass=capability permissive=1\n"
            "type=AVC msg=audit(1733270005.0:108): avc:  granted  { setenforce } for  pid=9 "
            "comm=\"setenforce\" scontext=u:r:a_t:s0 tcontext=u:object_r:security_t:s0 "
            "tclass=security\n");

        ck_assert_uint_eq(seinstall_avc_result_get_n_denials(r), 7);
        ck_assert_uint_eq(seinstall_avc_result_get_n_label(r), 4);
        ck_assert_uint_eq(seinstall_avc_result_get_n_groups(r), 5);
        /* 0: /etc/shadow, twice */
        ck_assert_int_eq(seinstall_avc_result_get_group_cause(r, 0), SEINSTALL_AVC_CAUSE_LABEL);
        ck_assert_uint_eq(seinstall_avc_result_get_group_count(r, 0), 2);
        ck_assert(seinstall_avc_result_get_group_permissive(r, 0));
        ck_assert_str_eq(get(r, 0, SEINSTALL_AVC_FIELD_PATH), "/etc/shadow");
        ck_assert_str_eq(get(r, 0, SEINSTALL_AVC_FIELD_TCONTEXT), "system_u:object_r:etc_t:s0");
        ck_assert_str_eq(get(r, 0, SEINSTALL_AVC_FIELD_EXPECTED), "system_u:object_r:shadow_t:s0");
        /* the log is the target's (--root): the fix relabels the file of that tree */
        ck_assert_ptr_nonnull(fix =
                                  shell_command(NULL, "chroot %q restorecon -F /etc/shadow", root));
        ck_assert_str_eq(get(r, 0, SEINSTALL_AVC_FIELD_FIX), fix);
        ck_assert_str_eq(get(r, 0, SEINSTALL_AVC_FIELD_DOMAIN), "passwd_t");
        /* 1: the policy's write to var_log_t, twice, enforcing */
        ck_assert_int_eq(seinstall_avc_result_get_group_cause(r, 1), SEINSTALL_AVC_CAUSE_POLICY);
        ck_assert_uint_eq(seinstall_avc_result_get_group_count(r, 1), 2);
        ck_assert(!seinstall_avc_result_get_group_permissive(r, 1));
        ck_assert_str_eq(get(r, 1, SEINSTALL_AVC_FIELD_DOMAIN), "logrotate_t");
        ck_assert_str_eq(get(r, 1, SEINSTALL_AVC_FIELD_TYPE), "var_log_t");
        ck_assert_str_eq(get(r, 1, SEINSTALL_AVC_FIELD_PERMS), "write");
        ck_assert_ptr_null(get(r, 1, SEINSTALL_AVC_FIELD_FIX));
        /* 2: the file with spaces in its name, in a home directory */
        ck_assert_int_eq(seinstall_avc_result_get_group_cause(r, 2), SEINSTALL_AVC_CAUSE_LABEL);
        ck_assert_str_eq(get(r, 2, SEINSTALL_AVC_FIELD_PATH), "/home/user/notes a b.txt");
        ck_assert_str_eq(get(r, 2, SEINSTALL_AVC_FIELD_EXPECTED),
                         "system_u:object_r:user_home_t:s0");
        free(fix);
        fix = shell_command(NULL, "chroot %q restorecon -F '/home/user/notes a b.txt'", root);
        ck_assert_str_eq(get(r, 2, SEINSTALL_AVC_FIELD_FIX), fix);
        /* 3: unlabeled, no path: the whole-system fix */
        ck_assert_int_eq(seinstall_avc_result_get_group_cause(r, 3), SEINSTALL_AVC_CAUSE_LABEL);
        ck_assert_ptr_null(get(r, 3, SEINSTALL_AVC_FIELD_PATH));
        free(fix);
        fix = shell_command(root, "seinstall verify%r --fix");
        ck_assert_str_eq(get(r, 3, SEINSTALL_AVC_FIELD_FIX), fix);
        ck_assert_ptr_nonnull(strstr(fix, " --root "));
        /* 4: a capability */
        ck_assert_int_eq(seinstall_avc_result_get_group_cause(r, 4), SEINSTALL_AVC_CAUSE_POLICY);
        ck_assert_str_eq(get(r, 4, SEINSTALL_AVC_FIELD_TCLASS), "capability");
        ck_assert_ptr_null(get(r, 4, (enum seinstall_avc_field) 99));
        ck_assert_ptr_null(get(r, 9, SEINSTALL_AVC_FIELD_PATH));
        ck_assert_ptr_eq(seinstall_avc_result_ref(r), r);
        ck_assert_ptr_null(seinstall_avc_result_unref(r));
        ck_assert_str_eq(get(r, 4, SEINSTALL_AVC_FIELD_TCLASS), "capability");
        seinstall_avc_result_unref(r);
}
END_TEST

START_TEST(test_unreadable_logs)
{
        _cleanup_(tmpdir_removep) char *root = target();
        _cleanup_free_ char *f = NULL, *missing = NULL;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_avc_result *rep = NULL;

        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_ge(asprintf(&missing, "%s/no-such-log", root), 0);
        ck_assert_int_eq(seinstall_avc_read(ctx, missing, &rep), -ENOENT);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "no-such-log"));
        ck_assert_int_eq(seinstall_avc_read(ctx, root, &rep), -EBADMSG); /* a directory */
        ck_assert_int_ge(asprintf(&f, "%s/binary", root), 0);
        {
                FILE *o = fopen(f, "w");
                ck_assert_ptr_nonnull(o);
                fwrite("LPKSHHRH\0\0\0\0", 1, 12, o); /* a binary journal's start */
                fclose(o);
        }
        ck_assert_int_eq(seinstall_avc_read(ctx, f, &rep), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "not a text log"));
        ck_assert_ptr_null(rep);
        seinstall_unref(ctx);
}
END_TEST

/* name= + dev + ino of a real file on this machine, found by a bounded search of its mount */
START_TEST(test_live_dev_ino)
{
        _cleanup_(tmpdir_removep) char *d = make_tmpdir();
        _cleanup_free_ char *f = NULL, *ue = NULL, *log = NULL, *line = NULL, *devname = NULL;
        struct seinstall_ctx *ctx = NULL;
        struct seinstall_avc_result *rep = NULL;
        struct stat st;
        size_t len;

        if (access("/etc/selinux/default/contexts/files/file_contexts", R_OK) != 0)
                return; /* no host policy: the classification half needs one */
        ck_assert_int_ge(asprintf(&f, "%s/a file", d), 0);
        write_file(f, "x");
        ck_assert_int_eq(stat(f, &st), 0);
        ck_assert_int_ge(
            asprintf(&ue, "/sys/dev/block/%u:%u/uevent", major(st.st_dev), minor(st.st_dev)), 0);
        if (read_file_bounded(ue, 4096, &line, &len) < 0 || !strstr(line, "DEVNAME="))
                return; /* not on a block device (tmpfs, overlay): nothing to resolve */
        devname =
            strndup(strstr(line, "DEVNAME=") + 8, strcspn(strstr(line, "DEVNAME=") + 8, "\n"));
        ck_assert_int_ge(asprintf(&log, "%s/log", d), 0);
        {
                FILE *o = fopen(log, "w");
                ck_assert_ptr_nonnull(o);
                fprintf(o,
                        "audit: type=1400 audit(1.0:1): avc:  denied  { read } for  pid=1 "
                        "comm=\"cat\" name=612066696C65 dev=\"%s\" ino=%llu "
                        "scontext=u:r:a_t:s0 tcontext=u:object_r:b_t:s0 tclass=file "
                        "permissive=1\n",
                        devname, (unsigned long long) st.st_ino);
                fclose(o);
        }
        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(seinstall_avc_read(ctx, log, &rep), 0);
        ck_assert_uint_eq(seinstall_avc_result_get_n_groups(rep), 1);
        /* the search is bounded: on a huge filesystem it may give up, never name another file */
        if (get(rep, 0, SEINSTALL_AVC_FIELD_PATH))
                ck_assert_str_eq(get(rep, 0, SEINSTALL_AVC_FIELD_PATH), f);
        seinstall_avc_result_unref(rep);
        seinstall_unref(ctx);
}
END_TEST

static uint64_t ino_of(const char *dir, const char *rel)
{
        _cleanup_free_ char *p = NULL;
        struct stat st;

        ck_assert_int_ge(asprintf(&p, "%s/%s", dir, rel), 0);
        ck_assert_int_eq(lstat(p, &st), 0);
        return st.st_ino;
}

static char *mkpath(const char *dir, const char *rel)
{
        char *p = NULL;
        ck_assert_int_ge(asprintf(&p, "%s/%s", dir, rel), 0);
        return p;
}

/* One walk per filesystem for the whole log: later lookups cost no budget; names with several
 * links are told apart by name; a budget used up makes lookups report skipped, counted. */
START_TEST(test_locator_cache)
{
        _cleanup_(tmpdir_removep) char *d = make_tmpdir();
        _cleanup_free_ char *target = mkpath(d, "dir7/deep/target"),
                            *alias = mkpath(d, "dir3/alias"), *path = NULL;
        struct si_avc_locator *l = si_avc_locator_new(1000);
        uint64_t ino;
        size_t fs, left;

        ck_assert_ptr_nonnull(l);
        for (int i = 0; i < 20; i++) {
                _cleanup_free_ char *rel = NULL, *p = NULL;
                ck_assert_int_ge(asprintf(&rel, "dir%d", i), 0);
                p = mkpath(d, rel);
                ck_assert_int_eq(mkdir(p, 0755), 0);
        }
        {
                _cleanup_free_ char *p = mkpath(d, "dir7/deep");
                ck_assert_int_eq(mkdir(p, 0755), 0);
        }
        write_file(target, "x");
        ck_assert_int_eq(link(target, alias), 0);
        ino = ino_of(d, "dir7/deep/target");

        ck_assert_int_eq(si_avc_locator_add_top(l, d, &fs), 0);
        ck_assert_int_eq(si_avc_locate_in(l, fs, "target", ino, &path), 1);
        ck_assert_str_eq(path, target);
        left = si_avc_locator_budget(l);
        ck_assert_uint_lt(left, 1000);
        free(path);
        /* the same file by its other name, and a name with that inode that is not there: from
         * the index, no budget spent */
        ck_assert_int_eq(si_avc_locate_in(l, fs, "alias", ino, &path), 1);
        ck_assert_str_eq(path, alias);
        free(path);
        ck_assert_int_eq(si_avc_locate_in(l, fs, "nothing", ino, &path), 0);
        ck_assert_ptr_null(path);
        for (int i = 0; i < 1000; i++) {
                ck_assert_int_eq(si_avc_locate_in(l, fs, "target", ino, &path), 1);
                free(path);
        }
        ck_assert_uint_eq(si_avc_locator_budget(l), left);
        ck_assert_uint_eq(si_avc_locator_skipped(l), 0);
        si_avc_locator_free(l);

        /* a budget too small for the tree: the walk stops, lookups of what it did not reach
         * are skipped and counted, and never spend more */
        l = si_avc_locator_new(10);
        ck_assert_int_eq(si_avc_locator_add_top(l, d, &fs), 0);
        ck_assert_int_eq(si_avc_locate_in(l, fs, "target", ino, &path), -EAGAIN);
        ck_assert_int_eq(si_avc_locate_in(l, fs, "target", ino, &path), -EAGAIN);
        ck_assert_ptr_null(path);
        ck_assert_uint_eq(si_avc_locator_skipped(l), 2);
        ck_assert_uint_eq(si_avc_locator_budget(l), 0);
        si_avc_locator_free(l);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("avc");
        TCase *tc = tcase_create("parse");

        tcase_add_test(tc, test_auditd_path_enforcing);
        tcase_add_test(tc, test_kernel_printk_name_dev_ino_permissive);
        tcase_add_test(tc, test_hex_names_with_spaces);
        tcase_add_test(tc, test_other_forms);
        tcase_add_test(tc, test_not_denials);
        suite_add_tcase(s, tc);
        tc = tcase_create("classify");
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_classify);
        tcase_add_test(tc, test_unreadable_logs);
        tcase_add_test(tc, test_live_dev_ino);
        tcase_add_test(tc, test_locator_cache);
        suite_add_tcase(s, tc);
        return run_suite(s);
}
