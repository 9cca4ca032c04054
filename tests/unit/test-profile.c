/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of kickstart-lex.c, profile.c and bootopts.c: pykickstart's grammar of the `selinux`
 * command, line ends, shlex before the command, sections, %include and %ksappend, the
 * %addon org_seinstall section, errors with file and line, the installer's boot options as
 * Anaconda reads them, the file and line of each decision, and the precedence table boot >
 * profile > target > default. Each expectation here was checked against the real code:
 * pykickstart 3.74 (commit 435ebbefdb5a) and Anaconda 45.21 (commit 8eddd3c95d28), the same
 * releases tests/differential/ follows. */
#include <check.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "kickstart.h"
#include "profile.h"
#include "testutil.h"

static struct seinstall_ctx *ctx;
static struct seinstall_settings *s;

static void setup(void)
{
        ck_assert_int_eq(seinstall_new("/", &ctx), 0);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
}

static void teardown(void)
{
        s = seinstall_settings_unref(s);
        ctx = seinstall_unref(ctx);
}

static int ks(const char *text)
{
        return si_profile_parse(ctx, "test.ks", text, strlen(text), s);
}

/* Parse @text into fresh settings and return the mode it sets (INVALID: left at default). */
static enum seinstall_mode ks_mode(const char *text)
{
        enum seinstall_source src;
        enum seinstall_mode m;

        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_msg(ks(text) == 0, "%s: %s", text, seinstall_last_error(ctx));
        m = seinstall_settings_get_mode(s, &src);
        return src == SEINSTALL_SOURCE_PROFILE ? m : SEINSTALL_MODE_INVALID;
}

static void ks_bad(const char *text, const char *where)
{
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_msg(ks(text) == -EBADMSG, "accepted: %s", text);
        ck_assert_msg(strstr(seinstall_last_error(ctx), where), "'%s' not in '%s'", where,
                      seinstall_last_error(ctx));
        /* nothing of a bad profile is applied */
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
}

START_TEST(test_selinux_command)
{
        ck_assert_int_eq(ks_mode("selinux --enforcing\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux --permissive\n"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        /* bare selinux chooses nothing (pykickstart leaves it None) */
        ck_assert_int_eq(ks_mode("selinux\n"), SEINSTALL_MODE_INVALID);
        /* argparse prefixes */
        ck_assert_int_eq(ks_mode("selinux --perm\n"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --e\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux --dis\n"), SEINSTALL_MODE_DISABLED);
        /* two options on one line: the last wins */
        ck_assert_int_eq(ks_mode("selinux --enforcing --disabled\n"), SEINSTALL_MODE_DISABLED);
        /* the command repeated: the later one replaces the earlier one */
        ck_assert_int_eq(ks_mode("selinux --disabled\nselinux --permissive\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        /* one command object: a bare selinux keeps what an earlier line chose */
        ck_assert_int_eq(ks_mode("selinux --disabled\nselinux\n"), SEINSTALL_MODE_DISABLED);
        /* comments, CRLF, blanks, quotes */
        ck_assert_int_eq(ks_mode("# a profile\r\n  selinux --permissive   # trial run\r\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("selinux --enforcing#x\n"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(ks_mode("selinux '--permissive'\n"), SEINSTALL_MODE_PERMISSIVE);
        /* every line is split before its command is known */
        ck_assert_int_eq(ks_mode("\"selinux\" --permissive\n"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("sel\\inux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("s'elinux' \"--\"perm\n"), SEINSTALL_MODE_PERMISSIVE);
        /* Python's line ends: CR alone, VT, FF, 0x1c-0x1e, NEL, U+2028, U+2029 */
        ck_assert_int_eq(ks_mode("selinux --disabled\rselinux --permissive\r"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("# x\vselinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\fselinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\x1cselinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\x1eselinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\xc2\x85selinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\xe2\x80\xa8selinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("# x\xe2\x80\xa9selinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        /* 0x1f is whitespace to Python but no line end: a blank line, or part of a word */
        ck_assert_int_eq(ks_mode("\x1f\nselinux --disabled\n"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(ks_mode("\x1fselinux --disabled\n"), SEINSTALL_MODE_INVALID);
        /* thousands of words on one line are a line like any other */
        {
                struct sbuf b = {};
                ck_assert_int_eq(sbuf_puts(&b, "selinux"), 0);
                for (int i = 0; i < 5000; i++)
                        ck_assert_int_eq(sbuf_puts(&b, " --perm"), 0);
                ck_assert_int_eq(sbuf_puts(&b, "\n"), 0);
                ck_assert_int_eq(ks_mode(b.s), SEINSTALL_MODE_PERMISSIVE);
                sbuf_free(&b);
                ck_assert_int_eq(sbuf_puts(&b, "part"), 0);
                for (int i = 0; i < 70000; i++)
                        ck_assert_int_eq(sbuf_puts(&b, " x"), 0);
                ks_bad(b.s, "test.ks:1: more than 65536 words");
                sbuf_free(&b);
        }
}
END_TEST

START_TEST(test_selinux_errors)
{
        ks_bad("selinux --Enforcing\n", "test.ks:1: selinux: unknown option '--Enforcing'");
        ks_bad("\n\nselinux --enforce-it\n", "test.ks:3:");
        ks_bad("selinux --disabled=1\n", "test.ks:1: selinux: option --disabled takes no value");
        ks_bad("selinux --perm=yes\n", "takes no value");
        ks_bad("selinux enforcing\n", "test.ks:1: selinux does not take arguments: 'enforcing'");
        ks_bad("selinux -e\n", "does not take arguments");
        /* "--" is left over as an argument, however placed (argparse without positionals) */
        ks_bad("selinux --permissive\nselinux --\n", "test.ks:2: selinux does not take "
                                                     "arguments: '--'");
        ks_bad("selinux -- --enforcing\n", "test.ks:1:");
        ks_bad("selinux --permissive --\n", "test.ks:1:");
        ks_bad("selinux \"\"\n", "test.ks:1:");
        ks_bad("selinux --=x\n", "ambiguous");
        ks_bad("selinux ---permissive\n", "unknown option");
        ks_bad("selinux \"--enforcing\n", "test.ks:1: No closing quotation");
        /* the line break is part of the line shlex splits: VT, FF, NEL glue to the last word */
        ks_bad("selinux --permissive\v", "test.ks:1: selinux: unknown option");
        ks_bad("selinux --permissive\xc2\x85", "test.ks:1:");
        ks_bad("selinux --permissive \\\n", "test.ks:1: selinux does not take arguments");
        ks_bad("selinux --permissive \\", "test.ks:1: No escaped character");
}
END_TEST

START_TEST(test_sections)
{
        enum seinstall_source src;

        /* selinux lines in %pre, %post, %packages and other addons are not commands */
        ck_assert_int_eq(ks_mode("selinux --permissive\n%pre\nselinux --disabled\necho \"it's\n"
                                 "%end\n%post --nochroot\nselinux --enforcing\n%end\n"
                                 "%packages\nselinux\n%end\n%addon com_redhat_kdump --enable\n"
                                 "selinux --disabled\n%end\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        /* other commands are not checked, but their lines are split too */
        ck_assert_int_eq(ks_mode("rootpw --iscrypted '$6$it'\\''s'\nlang en_US\n"
                                 "selinux --disabled\n%include /nonexistent/part.ks\n"),
                         SEINSTALL_MODE_DISABLED);
        ks_bad("rootpw --iscrypted $6$it's\n", "test.ks:1: No closing quotation");
        ks_bad("selinux --disabled\n%post\necho hi\n",
               "test.ks:2: section %post does not end with %end");
        ks_bad("%addon org_seinstall\n", "test.ks:1: section %addon does not end");
        ks_bad("%pre\n%post\n%end\n", "test.ks:2: section %pre does not end with %end before "
                                      "%post");
        ks_bad("%end\n", "test.ks:1: Unknown kickstart section: %end");
        ks_bad("\n%pre-nope\n%end\n", "test.ks:2: Unknown kickstart section: %pre-nope");
        ks_bad("%pre\n%end \"\n", "test.ks:2: No closing quotation");
        ks_bad("\"\"\n", "test.ks:1: empty command name");
        /* inside a section only %end, %include and section names are split */
        ck_assert_int_eq(ks_mode("%post\necho \"it's\n%endx \"\n%end\nselinux --permissive\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("%packages\n# %end\n%end # done\nselinux --permissive\n"),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(ks_mode("%anaconda\n%end\n%certificate --filename=a\nx\n%end\n"
                                 "%traceback\n%end\n%onerror\n%end\n%pre-install\n%end\n"
                                 "selinux --disabled\n"),
                         SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(si_profile_parse(ctx, "test.ks", "x\ny\0b\n", 6, s), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "test.ks:2: NUL byte"));
        ks_bad("selinux --permissive\n# caf\xe9\n", "test.ks:2: not valid UTF-8");
        ks_bad("\xed\xa0\x80\n", "test.ks:1: not valid UTF-8"); /* a surrogate */
        ks_bad("\xc0\xaf\n", "test.ks:1: not valid UTF-8");     /* overlong */

        /* our addon */
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(ks("%addon org_seinstall --policy=mls --unsupported warn "
                            "--relabel=firstboot # comment\n%end\n"),
                         0);
        ck_assert_str_eq(seinstall_settings_get_policy(s, &src), "mls");
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert(seinstall_settings_get_unsupported_warn(s, &src));
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ck_assert_int_eq(seinstall_settings_get_relabel_when(s, &src),
                         SEINSTALL_RELABEL_WHEN_FIRSTBOOT);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_PROFILE);
        ks_bad("%addon org_seinstall --polisy=mls\n%end\n", "test.ks:1: %addon org_seinstall: "
                                                            "unknown option '--polisy=mls'");
        ks_bad("%addon org_seinstall --unsupported=maybe\n%end\n", "--unsupported=maybe");
        ks_bad("%addon org_seinstall --relabel=never\n%end\n", "--relabel=never");
        ks_bad("%addon org_seinstall --policy=../x\n%end\n", "not a policy type");
        ks_bad("%addon org_seinstall --policy\n%end\n", "needs a value");
        /* as argparse: a next word that looks like an option is not the value */
        ks_bad("%addon org_seinstall --policy --trial\n%end\n", "--policy needs a value");
        ks_bad("%addon org_seinstall --unsupported -w\n%end\n", "--unsupported needs a value");
        ks_bad("%addon org_seinstall --policy -1\n%end\n", "--policy=-1 is not a policy type");
        ks_bad("%addon org_seinstall\n--policy=mls\n%end\n", "test.ks:2:");
}
END_TEST

/* The one argparse matcher both readers use: strings and structs, exact before prefix,
 * ambiguous prefixes, and which words are options. */
START_TEST(test_option_find)
{
        static const char *const names[] = {"policy", "unsupported", "relabel", "trial"};
        static const struct {
                const char *name;
                int other;
        } opts[] = {{"--fstype", 1}, {"--fsprofile", 2}, {"--size", 3}, {"--fs", 4}};

        ck_assert_int_eq(si_ks_option_find(names, 4, sizeof(names[0]), "trial", 5), 3);
        ck_assert_int_eq(si_ks_option_find(names, 4, sizeof(names[0]), "pol", 3), 0);
        ck_assert_int_eq(si_ks_option_find(names, 4, sizeof(names[0]), "policyx", 7), -1);
        ck_assert_int_eq(si_ks_option_find(names, 4, sizeof(names[0]), "", 0), -2);
        ck_assert_int_eq(si_ks_option_find(&opts[0].name, 4, sizeof(opts[0]), "--fs", 4), 3);
        ck_assert_int_eq(si_ks_option_find(&opts[0].name, 4, sizeof(opts[0]), "--fst", 5), 0);
        ck_assert_int_eq(si_ks_option_find(&opts[0].name, 4, sizeof(opts[0]), "--f", 3), -2);
        ck_assert_int_eq(si_ks_option_find(&opts[0].name, 4, sizeof(opts[0]), "--si", 4), 2);
        ck_assert(si_ks_looks_like_option("--size"));
        ck_assert(si_ks_looks_like_option("-x"));
        ck_assert(!si_ks_looks_like_option("-1"));
        ck_assert(!si_ks_looks_like_option("-.5"));
        ck_assert(!si_ks_looks_like_option("-"));
        ck_assert(!si_ks_looks_like_option("500"));
        ck_assert(si_ks_looks_like_option("-1x"));
}
END_TEST

/* %include in place, relative paths as pykickstart resolves them, cycles, depth, missing
 * files; %ksappend merged into the main file; the file and line of each decision. */
START_TEST(test_includes)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *sub = path_join(dir, "sub"), *main = path_join(dir, "main.ks"),
                            *a = path_join(dir, "sub/a.ks"), *b = path_join(dir, "sub/b.ks"),
                            *c = path_join(dir, "c.ks"), *app = path_join(dir, "app.ks"),
                            *loop = path_join(dir, "loop.ks"), *post = path_join(dir, "post.ks");
        const char *file, *text;
        unsigned line;

        ck_assert_int_eq(mkdir(sub, 0755), 0);
        /* a.ks includes b.ks relative to its own directory */
        write_file(main, "selinux --enforcing\n%include sub/a.ks\n");
        write_file(a, "# a\n%include b.ks\n");
        write_file(b, "\n\nselinux --permissive\n");
        ck_assert_int_eq(chdir(dir), 0);
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(
            seinstall_settings_get_origin(s, SEINSTALL_SETTING_MODE, &file, &line, &text), 0);
        ck_assert_str_eq(file, b);
        ck_assert_int_eq(line, 3);
        ck_assert_str_eq(text, "selinux --permissive");
        ck_assert_int_eq(
            seinstall_settings_get_origin(s, SEINSTALL_SETTING_POLICY, &file, NULL, NULL), -ENOENT);
        ck_assert_int_eq(
            seinstall_settings_get_origin(s, (enum seinstall_setting) 99, &file, NULL, NULL),
            -EINVAL);

        /* a cycle names the chain */
        write_file(loop, "selinux --disabled\n%include c.ks\n");
        write_file(c, "\n%include loop.ks\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, loop), -EBADMSG);
        ck_assert_msg(strstr(seinstall_last_error(ctx), "c.ks:2: %include cycle: ") &&
                          strstr(seinstall_last_error(ctx), "loop.ks:2 -> c.ks:2 -> loop.ks"),
                      "%s", seinstall_last_error(ctx));
        /* runaway depth */
        write_file(c, "%include c.ks\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, c), -EBADMSG);
        /* an included file's own lines are named, an error there too */
        write_file(c, "selinux --permissive\nselinux --bogus\n");
        write_file(main, "%include c.ks\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "c.ks:2: selinux: unknown"));
        /* an include inside a section continues the section; its %end closes it */
        write_file(post, "echo it's\n%end\nselinux --disabled\n");
        write_file(main, "%post\n%include post.ks\nselinux --enforcing\n%end\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "post.ks:1: No closing"));
        write_file(post, "echo its\n%end\nselinux --disabled\n");
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* %ksappend: merged in place, relative to the working directory; its lines keep their
         * own file and line */
        write_file(app, "\nselinux --permissive\n");
        write_file(main, "selinux --enforcing\n  %ksappend app.ks\n# after\n");
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(
            seinstall_settings_get_origin(s, SEINSTALL_SETTING_MODE, &file, &line, NULL), 0);
        ck_assert_str_eq(file, "app.ks");
        ck_assert_int_eq(line, 2);
        write_file(main, "%ksappend\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), -EBADMSG);
        write_file(main, "%ksappend missing.ks\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "main.ks:1: Unable to open"));
        /* a FIFO is refused, never waited on */
        ck_assert_int_eq(mkfifo("fifo.ks", 0600), 0);
        write_file(main, "%include fifo.ks\n");
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "not a regular file"));
        ck_assert_int_eq(chdir("/"), 0);
}
END_TEST

/* Load @path into fresh settings; -EBADMSG expected, with each of @want in the message. */
static void load_bad(const char *path, const char *want1, const char *want2)
{
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, path), -EBADMSG);
        ck_assert_msg(strstr(seinstall_last_error(ctx), want1) &&
                          strstr(seinstall_last_error(ctx), want2),
                      "'%s', '%s' not in '%s'", want1, want2, seinstall_last_error(ctx));
        /* nothing of a refused profile is applied */
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
}

/* @n lines "@directive @arg" after "selinux --permissive". */
static void write_repeated(const char *path, const char *directive, const char *arg, unsigned n)
{
        struct sbuf b = {};

        ck_assert_int_ge(sbuf_puts(&b, "selinux --permissive\n"), 0);
        for (unsigned i = 0; i < n; i++)
                ck_assert_int_ge(sbuf_printf(&b, "%s %s\n", directive, arg), 0);
        write_file(path, b.s);
        sbuf_free(&b);
}

/* The budget of one read (issue 32, item 5): the depth and cycle checks bound only the chain
 * open at once; 256 files and 16 MiB in all, every %include and %ksappend counted each time. */
START_TEST(test_include_budget)
{
        _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
        _cleanup_free_ char *main = path_join(dir, "main.ks"), *big = NULL;
        char name[32], text[64];

        ck_assert_int_eq(chdir(dir), 0);
        /* 32 files, each including the next twice: 2^31 inclusions, no cycle, 32 deep */
        for (unsigned i = 0; i < 31; i++) {
                snprintf(name, sizeof(name), "f%u.ks", i);
                snprintf(text, sizeof(text), "%%include f%u.ks\n%%include f%u.ks\n", i + 1, i + 1);
                write_file(name, text);
        }
        write_file("f31.ks", "selinux --permissive\n");
        load_bad("f0.ks", ".ks:2: %include f", ": more than 256 files opened for one profile");

        /* the main file and 255 inclusions of one file are read; one more is refused at its
         * line */
        write_file("one.ks", "# one\n");
        write_repeated(main, "%include", "one.ks", 255);
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        write_repeated(main, "%include", "one.ks", 256);
        load_bad(main, "main.ks:257: %include one.ks: more than 256 files", "limit");
        /* a missing file counts: it was looked for */
        write_repeated(main, "%include", "missing.ks", 256);
        load_bad(main, "main.ks:257: %include missing.ks: more than 256 files", "limit");
        /* a remote file is never fetched, so it does not count */
        write_repeated(main, "%include", "http://example.invalid/a.ks", 300);
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        /* %ksappend goes through the same budget */
        write_repeated(main, "%ksappend", "one.ks", 256);
        load_bad(main, "main.ks:257: %ksappend one.ks: more than 256 files", "limit");

        /* bytes: five inclusions of a 3.5 MiB file pass 16 MiB at the fifth, though only one is
         * open at a time; five %ksappend of it too */
        ck_assert_ptr_nonnull(big = malloc(7 * 512 * 1024 + 1));
        memset(big, '#', 7 * 512 * 1024);
        big[7 * 512 * 1024 - 1] = '\n';
        big[7 * 512 * 1024] = '\0';
        write_file("big.ks", big);
        write_repeated(main, "%include", "big.ks", 4);
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(seinstall_settings_load_profile(s, ctx, main), 0);
        write_repeated(main, "%include", "big.ks", 5);
        load_bad(main, "main.ks:6: %include big.ks: more than 16 MiB read for one profile",
                 "limit");
        write_repeated(main, "%ksappend", "big.ks", 5);
        load_bad(main, "main.ks:6: %ksappend big.ks: more than 16 MiB read for one profile",
                 "limit");
        ck_assert_int_eq(chdir("/"), 0);
}
END_TEST

static int boot(const char *cmdline, char **ret_profile)
{
        return si_bootopts_parse(ctx, "cmdline", cmdline, s, ret_profile);
}

START_TEST(test_boot_options)
{
        _cleanup_free_ char *profile = NULL;
        enum seinstall_source src;

        ck_assert_int_eq(boot("BOOT_IMAGE=/vmlinuz quiet inst.ks=file:/run/install/ks.cfg "
                              "enforcing=0",
                              &profile),
                         0);
        ck_assert_str_eq(profile, "/run/install/ks.cfg");
        free(profile);
        profile = NULL;
        ck_assert_int_eq(seinstall_settings_get_mode(s, &src), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(src, SEINSTALL_SOURCE_BOOT);
        /* off wins over permissive whatever the order; each way of saying off */
        ck_assert_int_eq(boot("enforcing=0 selinux=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(boot("enforcing=1", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(boot("noselinux enforcing=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(boot("inst.selinux=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* keyed without inst., the last value wins */
        ck_assert_int_eq(boot("selinux=0 inst.selinux=1", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(boot("inst.selinux=1 selinux=0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* any value but exactly 0 is enabled; inst.noselinux with any value is disabled */
        ck_assert_int_eq(boot("inst.selinux=off", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(boot("inst.noselinux=off", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* a key keeps its first place: noselinux applied after selinux=1 */
        ck_assert_int_eq(boot("inst.selinux=1 inst.noselinux inst.selinux=1", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_DISABLED);
        /* the kernel reads enforcing= with kstrtoul(base 0) */
        ck_assert_int_eq(boot("enforcing=0x0", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(boot("enforcing=00 inst.selinux=1", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        /* shell quoting: one option */
        ck_assert_int_eq(boot("\"inst.ks=file:/a b.ks\" inst.noselinux", &profile), 0);
        ck_assert_str_eq(profile, "/a b.ks");
        free(profile);
        profile = NULL;
        ck_assert_int_eq(boot("inst.selinux='", NULL), -EBADMSG);
        /* seinstall.mode= is the explicit choice */
        ck_assert_int_eq(boot("selinux=0 seinstall.mode=permissive seinstall.policy=mls "
                              "seinstall.unsupported=warn",
                              NULL),
                         0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_str_eq(seinstall_settings_get_policy(s, NULL), "mls");
        ck_assert(seinstall_settings_get_unsupported_warn(s, NULL));
        /* quoted arguments are one argument */
        ck_assert_int_eq(boot("foo=\"a seinstall.mode=disabled\"", NULL), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        /* network profiles are not read: ignored with a warning */
        free(profile);
        profile = NULL;
        ck_assert_int_eq(boot("inst.ks=http://x/ks.cfg", &profile), 0);
        ck_assert_ptr_null(profile);
        ck_assert_int_eq(boot("seinstall.mode=enforce", NULL), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "seinstall.mode=enforce"));
        ck_assert_int_eq(boot("seinstall.unsupported=yes", NULL), -EBADMSG);
        ck_assert_int_eq(boot("seinstall.policy=a/b", NULL), -EBADMSG);
}
END_TEST

/* The precedence table: each row sets some sources, the result names the winner. */
START_TEST(test_precedence_table)
{
        static const struct {
                const char *boot, *profile, *target;
                enum seinstall_mode mode;
                enum seinstall_source source;
        } rows[] = {
            {"", "", NULL, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_DEFAULT},
            {"", "", "SELINUX=permissive\n", SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_TARGET},
            {"", "selinux --disabled\n", "SELINUX=permissive\n", SEINSTALL_MODE_DISABLED,
             SEINSTALL_SOURCE_PROFILE},
            {"", "selinux\n", "SELINUX=permissive\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_TARGET},
            {"enforcing=0", "selinux --disabled\n", "SELINUX=disabled\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_BOOT},
            {"selinux=0", "selinux --enforcing\n", NULL, SEINSTALL_MODE_DISABLED,
             SEINSTALL_SOURCE_BOOT},
            {"quiet", "selinux --perm\n", "SELINUX=disabled\n", SEINSTALL_MODE_PERMISSIVE,
             SEINSTALL_SOURCE_PROFILE},
            {"seinstall.mode=enforcing", "selinux --disabled\n", "SELINUX=permissive\n",
             SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_BOOT},
        };
        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                _cleanup_(tmpdir_removep) char *dir = make_tmpdir();
                _cleanup_free_ char *d1 = path_join(dir, "etc"),
                                    *d2 = path_join(dir, "etc/selinux"),
                                    *cfg = path_join(dir, "etc/selinux/config");
                struct seinstall_ctx *t = NULL;
                enum seinstall_source src;

                s = seinstall_settings_unref(s);
                ck_assert_int_eq(seinstall_settings_new(&s), 0);
                mkdir(d1, 0755);
                mkdir(d2, 0755);
                if (rows[i].target)
                        write_file(cfg, rows[i].target);
                ck_assert_int_eq(seinstall_new(dir, &t), 0);
                /* applied in the "wrong" order on purpose: the settings rank them */
                ck_assert_int_eq(seinstall_settings_load_target(s, t), 0);
                ck_assert_int_eq(boot(rows[i].boot, NULL), 0);
                ck_assert_int_eq(ks(rows[i].profile), 0);
                ck_assert_msg(seinstall_settings_get_mode(s, &src) == rows[i].mode &&
                                  src == rows[i].source,
                              "row %zu: got %s from %s", i,
                              seinstall_mode_to_string(seinstall_settings_get_mode(s, NULL)),
                              seinstall_source_to_string(src));
                seinstall_unref(t);
        }
}
END_TEST

/* The trial mode: the addon's --trial flag, seinstall.mode=trial, and how they rank. */
START_TEST(test_trial)
{
        static const struct {
                const char *boot, *profile;
                bool trial;
                enum seinstall_mode mode;
                enum seinstall_source source;
        } rows[] = {
            /* the profile's --trial takes the place of its selinux line, in either order */
            {"", "%addon org_seinstall --trial\n%end\n", true, SEINSTALL_MODE_ENFORCING,
             SEINSTALL_SOURCE_PROFILE},
            {"", "selinux --enforcing\n%addon org_seinstall --trial\n%end\n", true,
             SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE},
            {"", "%addon org_seinstall --trial\n%end\nselinux --permissive\n", true,
             SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE},
            {"", "%addon org_seinstall --tr --policy=default\n%end\n", true,
             SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE},
            /* a boot option outranks it, both ways */
            {"seinstall.mode=permissive", "%addon org_seinstall --trial\n%end\n", false,
             SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_BOOT},
            {"inst.selinux=0", "%addon org_seinstall --trial\n%end\n", false,
             SEINSTALL_MODE_DISABLED, SEINSTALL_SOURCE_BOOT},
            {"seinstall.mode=trial", "selinux --disabled\n", true, SEINSTALL_MODE_ENFORCING,
             SEINSTALL_SOURCE_BOOT},
            /* seinstall.mode= is the explicit choice: enforcing=0 does not lower the trial */
            {"enforcing=0 seinstall.mode=trial", "", true, SEINSTALL_MODE_ENFORCING,
             SEINSTALL_SOURCE_BOOT},
            {"seinstall.mode=trial seinstall.mode=enforcing", "", false, SEINSTALL_MODE_ENFORCING,
             SEINSTALL_SOURCE_BOOT},
            {"seinstall.mode=enforcing seinstall.mode=trial", "", true, SEINSTALL_MODE_ENFORCING,
             SEINSTALL_SOURCE_BOOT},
        };
        const char *file;
        unsigned line;

        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                enum seinstall_source src = SEINSTALL_SOURCE_DEFAULT;

                s = seinstall_settings_unref(s);
                ck_assert_int_eq(seinstall_settings_new(&s), 0);
                ck_assert_int_eq(boot(rows[i].boot, NULL), 0);
                ck_assert_msg(ks(rows[i].profile) == 0, "row %zu: %s", i,
                              seinstall_last_error(ctx));
                /* the trial is a mode of its own, aiming at enforcing */
                ck_assert_msg(seinstall_settings_get_mode(s, &src) ==
                                      (rows[i].trial ? SEINSTALL_MODE_TRIAL : rows[i].mode) &&
                                  src == rows[i].source,
                              "row %zu: got %s from %s", i,
                              seinstall_mode_to_string(seinstall_settings_get_mode(s, NULL)),
                              seinstall_source_to_string(src));
        }

        /* the addon line decides, and says so */
        s = seinstall_settings_unref(s);
        ck_assert_int_eq(seinstall_settings_new(&s), 0);
        ck_assert_int_eq(ks("selinux --enforcing\n\n%addon org_seinstall --trial\n%end\n"), 0);
        ck_assert_int_eq(
            seinstall_settings_get_origin(s, SEINSTALL_SETTING_MODE, &file, &line, NULL), 0);
        ck_assert_str_eq(file, "test.ks");
        ck_assert_uint_eq(line, 3);

        /* --trial with selinux --disabled: both lines named, nothing applied */
        ks_bad("selinux --disabled\n%addon org_seinstall --trial\n%end\n",
               "test.ks:2: %addon org_seinstall --trial contradicts 'selinux --disabled' at "
               "test.ks:1");
        ck_assert_int_ne(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_TRIAL);
        ks_bad("%addon org_seinstall --trial\n%end\nselinux --dis\n",
               "contradicts 'selinux --dis'");
        ks_bad("%addon org_seinstall --trial=yes\n%end\n", "--trial takes no value");
        /* the selinux line that counts is the last one */
        ck_assert_int_eq(ks_mode("selinux --disabled\nselinux --enforcing\n%addon org_seinstall "
                                 "--trial\n%end\n"),
                         SEINSTALL_MODE_TRIAL);

        /* seinstall.mode= takes trial; a typo is still an error */
        ck_assert_int_eq(boot("seinstall.mode=Trial", NULL), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(seinstall_last_error(ctx), "disabled or trial"));
        /* a plain mode of equal rank ends the trial */
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_TRIAL, SEINSTALL_SOURCE_PROFILE), 1);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_PERMISSIVE, SEINSTALL_SOURCE_PROFILE), 1);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(
            seinstall_settings_set_mode(s, SEINSTALL_MODE_TRIAL, SEINSTALL_SOURCE_TARGET), 0);
        ck_assert_int_eq(seinstall_settings_get_mode(s, NULL), SEINSTALL_MODE_PERMISSIVE);
        /* the names: "trial" is exact, the config's modes are not */
        ck_assert_int_eq(seinstall_mode_from_string("trial"), SEINSTALL_MODE_TRIAL);
        ck_assert_int_eq(seinstall_mode_from_string("Trial"), SEINSTALL_MODE_INVALID);
        ck_assert_int_eq(seinstall_mode_from_string("Permissive"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_str_eq(seinstall_mode_to_string(SEINSTALL_MODE_TRIAL), "trial");
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("profile");
        TCase *tc = tcase_create("profile");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_selinux_command);
        tcase_add_test(tc, test_selinux_errors);
        tcase_add_test(tc, test_sections);
        tcase_add_test(tc, test_option_find);
        tcase_add_test(tc, test_includes);
        tcase_add_test(tc, test_include_budget);
        tcase_add_test(tc, test_boot_options);
        tcase_add_test(tc, test_precedence_table);
        tcase_add_test(tc, test_trial);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
