/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of util.c, ctx.c, rootfs.c and refcount.h: strings, growable arrays, lines, JSON,
 * escaping for terminals, the exit status table, listing and writes in the root, the ref/unref
 * pair of every object. */
#include <check.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "avc.h"
#include "relabel.h"
#include "seinstall-private.h"
#include "stage-options.h"
#include "testutil.h"
#include "trial.h"

START_TEST(test_mode_names)
{
        ck_assert_int_eq(seinstall_mode_from_string("Enforcing"), SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(seinstall_mode_from_string("permissive"), SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(seinstall_mode_from_string("disabled"), SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(seinstall_mode_from_string("enforce"), SEINSTALL_MODE_INVALID);
        ck_assert_int_eq(seinstall_mode_from_string(NULL), SEINSTALL_MODE_INVALID);
        ck_assert_str_eq(seinstall_mode_to_string(SEINSTALL_MODE_PERMISSIVE), "permissive");
        ck_assert_ptr_null(seinstall_mode_to_string(SEINSTALL_MODE_INVALID));
        ck_assert_str_eq(seinstall_source_to_string(SEINSTALL_SOURCE_BOOT), "boot");
        ck_assert_str_eq(seinstall_source_to_string(SEINSTALL_SOURCE_OPTION), "option");
}
END_TEST

struct grow_elem {
        char bytes[24];
};

START_TEST(test_grow)
{
        _cleanup_free_ struct grow_elem *v = NULL;
        _cleanup_free_ char *c = NULL;
        size_t cap = 0, cap_c = 0;
        struct grow_elem *before;

        /* nothing asked of an empty array: nothing allocated */
        ck_assert(SI_GROW(v, cap, 0));
        ck_assert_ptr_null(v);
        ck_assert_uint_eq(cap, 0);
        /* from empty: what was asked, or 64 bytes' worth of small elements */
        ck_assert(SI_GROW(v, cap, 1));
        ck_assert_ptr_nonnull(v);
        ck_assert_uint_eq(cap, 2);
        ck_assert(SI_GROW(c, cap_c, 1));
        ck_assert_uint_eq(cap_c, 64);
        ck_assert(SI_GROW(c, cap_c, 65));
        ck_assert_uint_eq(cap_c, 128);
        memset(v, 'x', cap * sizeof(*v));
        /* doubling, the elements kept; more than twice: what was asked */
        ck_assert(SI_GROW(v, cap, 3));
        ck_assert_uint_eq(cap, 4);
        ck_assert(SI_GROW(v, cap, 5));
        ck_assert_uint_eq(cap, 8);
        ck_assert(SI_GROW(v, cap, 100));
        ck_assert_uint_eq(cap, 100);
        ck_assert_int_eq(v[1].bytes[23], 'x');
        /* room enough: the array is not touched */
        before = v;
        ck_assert(SI_GROW(v, cap, 100));
        ck_assert(SI_GROW(v, cap, 7));
        ck_assert_ptr_eq(v, before);
        ck_assert_uint_eq(cap, 100);
        /* more than size_t counts: refused, the array and its capacity as they were */
        errno = 0;
        ck_assert(!SI_GROW(v, cap, SIZE_MAX / sizeof(*v) + 1));
        ck_assert_int_eq(errno, ENOMEM);
        ck_assert(!SI_GROW(v, cap, SIZE_MAX));
        ck_assert_ptr_eq(v, before);
        ck_assert_uint_eq(cap, 100);
        ck_assert_int_eq(v[1].bytes[23], 'x');
}
END_TEST

START_TEST(test_lines)
{
        const char text[] = "one\r\n  two \t\n\nthree";
        const char *pos = text, *end = text + sizeof(text) - 1, *line;
        size_t len;

        ck_assert(next_line(&pos, end, &line, &len));
        ck_assert_int_eq(len, 3);
        ck_assert(strncmp(line, "one", 3) == 0);
        ck_assert(next_line(&pos, end, &line, &len));
        len = strip_range(&line, len);
        ck_assert_int_eq(len, 3);
        ck_assert(strncmp(line, "two", 3) == 0);
        ck_assert(next_line(&pos, end, &line, &len));
        ck_assert_int_eq(len, 0);
        ck_assert(next_line(&pos, end, &line, &len));
        ck_assert(strncmp(line, "three", len) == 0 && len == 5);
        ck_assert(!next_line(&pos, end, &line, &len));
}
END_TEST

START_TEST(test_json_escape)
{
        struct sbuf b = {0};
        _cleanup_free_ char *s = NULL, *u = NULL;

        ck_assert_int_eq(sbuf_json_str(&b, "a\"b\\c\n\x01\xff\r\x1b\x7f"), 0);
        s = sbuf_steal(&b);
        /* an invalid byte: U+FFFD, never a lone surrogate strict parsers reject */
        ck_assert_str_eq(s, "\"a\\\"b\\\\c\\n\\u0001\\ufffd\\r\\u001b\\u007f\"");
        /* valid UTF-8 passes through (café.conf came out as caf\u00c3\u00a9.conf) */
        ck_assert_int_eq(sbuf_json_str(&b, "caf\xc3\xa9.conf \xc3\xbf \xf0\x9f\x98\x80"), 0);
        u = sbuf_steal(&b);
        ck_assert_str_eq(u, "\"caf\xc3\xa9.conf \xc3\xbf \xf0\x9f\x98\x80\"");
        /* a truncated sequence, an overlong form, an encoded surrogate: one U+FFFD a byte */
        free(u);
        ck_assert_int_eq(sbuf_json_str(&b, "\xc3 \xc0\xaf \xed\xb3\xbf"), 0);
        u = sbuf_steal(&b);
        ck_assert_str_eq(u, "\"\\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\"");
        ck_assert(!str_is_utf8("\xc3 \xc0\xaf") && !str_is_utf8("\xed\xb3\xbf"));
        ck_assert(str_is_utf8("caf\xc3\xa9 \xf0\x9f\x98\x80") && str_is_utf8(""));
        ck_assert_int_eq(sbuf_json_str(&b, NULL), 0);
        free(u);
        u = sbuf_steal(&b);
        ck_assert_str_eq(u, "null");
}
END_TEST

START_TEST(test_json_writer)
{
        struct json j = {0};
        _cleanup_free_ char *doc = NULL;

        json_object_begin(&j);
        json_kv_string(&j, "name", "x");
        json_key(&j, "list");
        json_array_begin(&j);
        json_uint(&j, 1);
        json_int(&j, -2);
        json_object_begin(&j);
        json_object_end(&j);
        json_array_begin(&j);
        json_array_end(&j);
        json_null(&j);
        json_array_end(&j);
        json_kv_bool(&j, "ok", true);
        json_key(&j, "raw");
        json_raw(&j, "{\"a\": 1}");
        json_kv_string(&j, "none", NULL);
        json_object_end(&j);
        ck_assert_int_eq(json_steal(&j, &doc), 0);
        ck_assert_str_eq(doc, "{\"name\": \"x\", \"list\": [1, -2, {}, [], null], \"ok\": true, "
                              "\"raw\": {\"a\": 1}, \"none\": null}");
}
END_TEST

/* A member whose string is not valid UTF-8 gets KEY_hex, the bytes; an array element or a valid
 * string does not. json_raw_members() splices another object's members. */
START_TEST(test_json_hex_members)
{
        _cleanup_free_ char *doc = NULL;
        struct json j = {0};

        json_object_begin(&j);
        json_kv_string(&j, "path", "/caf\xc3\xa9\xff");
        json_kv_string(&j, "ok", "caf\xc3\xa9");
        json_key(&j, "list");
        json_array_begin(&j);
        json_string(&j, "\xfe");
        json_array_end(&j);
        json_raw_members(&j, " {\"a\": 1,\n \"b\": [2]}\n");
        json_raw_members(&j, "{ }");
        json_kv_bool(&j, "last", true);
        json_object_end(&j);
        ck_assert_int_eq(json_steal(&j, &doc), 0);
        ck_assert_str_eq(
            doc, "{\"path\": \"/caf\xc3\xa9\\ufffd\", \"path_hex\": \"2f636166c3a9ff\", "
                 "\"ok\": \"caf\xc3\xa9\", \"list\": [\"\\ufffd\"], \"a\": 1,\n \"b\": [2], "
                 "\"last\": true}");
        json_object_begin(&j);
        json_raw_members(&j, "[1]");
        json_object_end(&j);
        ck_assert_int_eq(json_steal(&j, &doc), -EINVAL);
}
END_TEST

/* json_break() moves the separator's blank to a new line and indent; pending at the end it ends
 * the document with a newline. json_fixed() prints a fixed number of decimals. */
START_TEST(test_json_layout)
{
        _cleanup_free_ char *doc = NULL;
        struct json j = {0};

        json_object_begin(&j);
        json_kv_fixed(&j, "s", 1.23456, 3);
        json_break(&j, " ");
        json_key(&j, "l");
        json_array_begin(&j);
        json_break(&j, "  ");
        json_fixed(&j, 2.0, 1);
        json_break(&j, "  ");
        json_object_begin(&j);
        json_object_end(&j);
        json_array_end(&j);
        json_object_end(&j);
        json_break(&j, "");
        ck_assert_int_eq(json_steal(&j, &doc), 0);
        ck_assert_str_eq(doc, "{\"s\": 1.235,\n \"l\": [\n  2.0,\n  {}]}\n");
}
END_TEST

START_TEST(test_escape_display)
{
        _cleanup_free_ char *a = str_escape_display("/h\xc3\xa9\x1b[31m\nseinstall: x\t\xff\r");
        _cleanup_free_ char *c = NULL, *d = NULL;
        _cleanup_free_ char *b = str_escape_display("\xc2\x9b"
                                                    "2J \xe2\x80\xae"
                                                    "fdp.exe");

        ck_assert_str_eq(a, "/h\xc3\xa9\\e[31m\\nseinstall: x\\t\\xff\\r");
        /* C1 CSI and a right-to-left override */
        ck_assert_str_eq(b, "\\xc2\\x9b2J \\xe2\\x80\\xaefdp.exe");
        ck_assert(!str_needs_escape("/boot/caf\xc3\xa9 \"x\""));
        /* a backslash is escaped too: a newline and a backslash followed by n differ */
        ck_assert(str_needs_escape("a\\nb"));
        ck_assert_ptr_nonnull(c = str_escape_display("a\\nb"));
        ck_assert_ptr_nonnull(d = str_escape_display("a\nb"));
        ck_assert_str_eq(c, "a\\\\nb");
        ck_assert_str_eq(d, "a\\nb");
        ck_assert(str_display_safe("a\\nb"));
        ck_assert(!str_display_safe("a\nb"));
        ck_assert(str_needs_escape("a\nb"));
        ck_assert(str_needs_escape("\x7f"));
}
END_TEST

static void assert_quoted(const char *name, const char *want)
{
        _cleanup_free_ char *q = shell_quoted(name);

        ck_assert_ptr_nonnull(q);
        ck_assert_str_eq(q, want);
        ck_assert(str_display_safe(q));
}

/* The one shell quoting: plain names as they are, single quotes without a backslash, $'...'
 * for what a terminal must not see raw; the bash round trip is in tests/integration. */
START_TEST(test_shell_quote)
{
        _cleanup_free_ char *c1 = NULL, *c2 = NULL, *c3 = NULL, *c4 = NULL;

        assert_quoted("/etc/shadow", "/etc/shadow");
        assert_quoted("", "''");
        assert_quoted("-r", "'-r'");
        assert_quoted("/a b", "'/a b'");
        assert_quoted("it's", "'it'\"'\"'s'");
        assert_quoted("/caf\xc3\xa9 $x `y`", "'/caf\xc3\xa9 $x `y`'");
        assert_quoted("/a\nb", "$'/a\\nb'");
        assert_quoted("/a\\nb", "$'/a\\\\nb'");
        assert_quoted("/x\xff'\x1b[1m", "$'/x\\xff\\'\\x1b[1m'");
        assert_quoted("\xe2\x80\xae", "$'\\xe2\\x80\\xae'");
        ck_assert_ptr_nonnull(c1 = shell_command("/", "seinstall verify%r --fix"));
        ck_assert_str_eq(c1, "seinstall verify --fix");
        ck_assert_ptr_nonnull(c2 = shell_command("/mnt/t a", "seinstall verify%r --fix"));
        ck_assert_str_eq(c2, "seinstall verify --root '/mnt/t a' --fix");
        ck_assert_ptr_nonnull(c3 = shell_relabel_command("/", "-x"));
        ck_assert_str_eq(c3, "restorecon -F -- '-x'");
        ck_assert_ptr_nonnull(c4 = shell_relabel_command("/mnt", "/etc/a b"));
        ck_assert_str_eq(c4, "chroot /mnt restorecon -F '/etc/a b'");
        /* an error's text is escaped, the command it ends with printed as it is */
        ck_assert_uint_eq(str_command_tail("fix it: run: seinstall verify --fix", c1), 13);
        ck_assert_uint_eq(str_command_tail("seinstall verify --fix", c1), 0);
        ck_assert_uint_eq(str_command_tail("fix it: run: other", c1), (size_t) -1);
        ck_assert_uint_eq(str_command_tail("run: a\nb", "a\nb"), (size_t) -1);
        ck_assert_uint_eq(str_command_tail("x", NULL), (size_t) -1);
        ck_assert_uint_eq(str_command_tail(NULL, c1), (size_t) -1);
}
END_TEST

START_TEST(test_exit_status)
{
        /* one table: ELOOP was 2 for seinstall and 3 for seinstall-firstboot */
        ck_assert_int_eq(si_exit_status(0), SI_EXIT_OK);
        ck_assert_int_eq(si_exit_status(1), SI_EXIT_OK);
        ck_assert_int_eq(si_exit_status(-ELOOP), SI_EXIT_USAGE);
        ck_assert_int_eq(si_exit_status(-EBADMSG), SI_EXIT_USAGE);
        ck_assert_int_eq(si_exit_status(-EISDIR), SI_EXIT_USAGE);
        ck_assert_int_eq(si_exit_status(-EBADFD), SI_EXIT_USAGE);
        ck_assert_int_eq(si_exit_status(-EXDEV), SI_EXIT_USAGE);
        ck_assert_int_eq(si_exit_status(-ENOPKG), SI_EXIT_SYSTEM);
        ck_assert_int_eq(si_exit_status(-EIO), SI_EXIT_SYSTEM);
        ck_assert_int_eq(si_exit_status(-ENOSPC), SI_EXIT_SYSTEM);
        /* seinstall's own codes: the system failed, not the input */
        ck_assert_int_eq(si_exit_status(-SEINSTALL_ERROR_LABEL_REFUSED), SI_EXIT_SYSTEM);
        ck_assert_int_eq(si_exit_status(-SEINSTALL_ERROR_INCOMPLETE), SI_EXIT_SYSTEM);
}
END_TEST

/* The names and words of both kinds of error code, negative or positive. */
START_TEST(test_error_names)
{
        ck_assert_str_eq(seinstall_error_name(-ELOOP), "ELOOP");
        ck_assert_str_eq(seinstall_error_name(ELOOP), "ELOOP");
        ck_assert_ptr_null(seinstall_error_name(0));
        ck_assert_str_eq(seinstall_error_name(-SEINSTALL_ERROR_LABEL_REFUSED),
                         "SEINSTALL_ERROR_LABEL_REFUSED");
        ck_assert_str_eq(seinstall_error_name(-SEINSTALL_ERROR_INCOMPLETE),
                         "SEINSTALL_ERROR_INCOMPLETE");
        ck_assert_str_eq(seinstall_error_name(-SEINSTALL_ERROR_PROGRAM_FAILED),
                         "SEINSTALL_ERROR_PROGRAM_FAILED");
        ck_assert_str_eq(seinstall_error_name(SEINSTALL_ERROR_NOT_CONFINED),
                         "SEINSTALL_ERROR_NOT_CONFINED");
        /* past the last of seinstall's codes: neither kind */
        ck_assert_ptr_null(seinstall_error_name(-(SEINSTALL_ERROR_NOT_CONFINED + 1)));
        ck_assert_str_eq(seinstall_strerror(-ENOENT), strerror(ENOENT));
        ck_assert_ptr_nonnull(strstr(seinstall_strerror(-SEINSTALL_ERROR_INCOMPLETE), "entries"));
        ck_assert_ptr_nonnull(
            strstr(seinstall_strerror(-SEINSTALL_ERROR_LABEL_REFUSED), "refused"));
        ck_assert_ptr_nonnull(seinstall_strerror(-(SEINSTALL_ERROR_NOT_CONFINED + 1)));
}
END_TEST

START_TEST(test_write_atomic_stays_inside)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        _cleanup_(tmpdir_removep) char *outside = make_tmpdir();
        struct seinstall_ctx *ctx = NULL;
        _cleanup_free_ char *link = path_join(root, "etc");
        _cleanup_free_ char *victim = path_join(outside, "config");
        _cleanup_free_ char *data = NULL;
        size_t len;
        struct stat st;

        /* /etc in the target is a symlink to a directory outside it: the write must land in
         * the target (resolved as <root>/<outside>/config), never in the outside directory. */
        ck_assert_int_eq(symlink(outside, link), 0);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(si_root_mkdir_p(ctx, outside, 0755, 0), 0);
        ck_assert_int_eq(si_root_write_atomic(ctx, "/etc/config", "x\n", 2, 0644, 0), 0);
        ck_assert_int_eq(stat(victim, &st), -1);
        ck_assert_int_eq(errno, ENOENT);
        ck_assert_int_eq(si_root_read_file(ctx, "/etc/config", 1024, &data, &len), 0);
        ck_assert_str_eq(data, "x\n");
        ck_assert_int_eq(si_root_read_file(ctx, "/etc/missing", 1024, &data, &len), -ENOENT);
        ck_assert_int_eq(si_root_unlink(ctx, "/etc/config", 0), 0);
        ck_assert_int_eq(si_root_unlink(ctx, "/etc/config", 0), 0);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_write_dry_run_is_a_parameter)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        _cleanup_free_ char *dir = path_join(root, "etc/made");
        _cleanup_free_ char *data = NULL;
        struct seinstall_ctx *ctx = NULL;
        size_t len;
        struct stat st;

        /* A dry run is what the caller passes, not state of the shared context: the same
         * context writes nothing for one call and writes for the next. */
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);
        ck_assert_int_eq(si_root_mkdir_p(ctx, "/etc/made", 0755, SI_WRITE_DRY_RUN), 0);
        ck_assert_int_eq(stat(dir, &st), -1);
        ck_assert_int_eq(si_root_write_if_changed(ctx, "/etc/made/f", "a\n", 64, SI_WRITE_DRY_RUN),
                         1);
        ck_assert_int_eq(si_root_read_file(ctx, "/etc/made/f", 64, &data, &len), -ENOENT);
        ck_assert_int_eq(si_root_write_if_changed(ctx, "/etc/made/f", "a\n", 64, 0), 1);
        ck_assert_int_eq(si_root_read_file(ctx, "/etc/made/f", 64, &data, &len), 0);
        ck_assert_str_eq(data, "a\n");
        ck_assert_int_eq(si_root_unlink(ctx, "/etc/made/f", SI_WRITE_DRY_RUN), 0);
        ck_assert_int_eq(stat(dir, &st), 0);
        ck_assert_int_eq(si_root_unlink(ctx, "/etc/made/f", 0), 0);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_read_bounded)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        _cleanup_free_ char *p = path_join(root, "big");
        _cleanup_free_ char *data = NULL;
        size_t len;

        write_file(p, "0123456789");
        ck_assert_int_eq(read_file_bounded(p, 5, &data, &len), -EFBIG);
        ck_assert_ptr_null(data);
        ck_assert_int_eq(read_file_bounded(p, 10, &data, &len), 0);
        ck_assert_int_eq(len, 10);
}
END_TEST

START_TEST(test_root_list)
{
        _cleanup_(tmpdir_removep) char *root = make_tmpdir();
        _cleanup_free_ char *dir = path_join(root, "boot");
        _cleanup_free_ char *loop = path_join(root, "loop");
        _cleanup_free_ char *f = NULL;
        struct seinstall_ctx *ctx = NULL;
        char *sentinel[1] = {NULL}, **v = sentinel;
        size_t n = 42;

        ck_assert_int_eq(mkdir(dir, 0755), 0);
        ck_assert_int_eq(asprintf(&f, "%s/config-6.1", dir) > 0, 1);
        write_file(f, "");
        free(f);
        ck_assert_int_eq(asprintf(&f, "%s/config-5.10", dir) > 0, 1);
        write_file(f, "");
        free(f);
        ck_assert_int_eq(asprintf(&f, "%s/vmlinuz", dir) > 0, 1);
        write_file(f, "");
        ck_assert_int_eq(symlink("loop", loop), 0);
        ck_assert_int_eq(seinstall_new(root, &ctx), 0);

        /* a failure leaves the out-parameters as they were */
        ck_assert_int_eq(si_root_list(ctx, "/loop", NULL, NULL, &v, &n), -ELOOP);
        ck_assert_ptr_eq(v, sentinel);
        ck_assert_int_eq(n, 42);

        ck_assert_int_eq(si_root_list(ctx, "/boot", "config-", NULL, &v, &n), 0);
        ck_assert_int_eq(n, 2);
        ck_assert_str_eq(v[0], "/boot/config-5.10");
        ck_assert_str_eq(v[1], "/boot/config-6.1");
        si_strv_free(v, n);

        /* a missing directory lists nothing */
        ck_assert_int_eq(si_root_list(ctx, "/etc/none", NULL, ".conf", &v, &n), 0);
        ck_assert_ptr_null(v);
        ck_assert_int_eq(n, 0);
        seinstall_unref(ctx);
}
END_TEST

START_TEST(test_new_bad_root)
{
        struct seinstall_ctx *ctx = NULL;

        ck_assert_int_eq(seinstall_new("/nonexistent/seinstall", &ctx), -ENOENT);
        ck_assert_ptr_null(ctx);
        ck_assert_int_eq(seinstall_new("/etc/passwd", &ctx), -ENOTDIR);
        ck_assert_int_eq(seinstall_new("/", NULL), -EINVAL);
        ck_assert_ptr_null(seinstall_unref(NULL));
}
END_TEST

/* ---- references (refcount.h) ------------------------------------------------------------ */

struct probe {
        unsigned extra_refs;
};
static unsigned probe_frees;
static void probe_free(struct probe *p)
{
        (void) p;
        probe_frees++;
}
SI_DEFINE_REF_UNREF_SCOPE(static, probe, probe, probe_free);

/* The pair itself: freed with the last reference and only then; a count at UINT_MAX stays. */
START_TEST(test_ref_unref_pair)
{
        struct probe p = {0};

        probe_frees = 0;
        ck_assert_ptr_null(probe_ref(NULL));
        ck_assert_ptr_null(probe_unref(NULL));
        ck_assert_ptr_eq(probe_ref(&p), &p);
        ck_assert_ptr_eq(probe_ref(&p), &p);
        ck_assert_uint_eq(p.extra_refs, 2);
        ck_assert_ptr_null(probe_unref(&p));
        ck_assert_ptr_null(probe_unref(&p));
        ck_assert_uint_eq(probe_frees, 0);
        ck_assert_ptr_null(probe_unref(&p));
        ck_assert_uint_eq(probe_frees, 1);

        /* saturated: never wraps round to a count that frees under the other holders */
        p.extra_refs = UINT_MAX - 1;
        ck_assert_ptr_eq(probe_ref(&p), &p);
        ck_assert_ptr_eq(probe_ref(&p), &p);
        ck_assert_uint_eq(p.extra_refs, UINT_MAX);
        ck_assert_ptr_null(probe_unref(&p));
        ck_assert_uint_eq(p.extra_refs, UINT_MAX);
        ck_assert_uint_eq(probe_frees, 1);
}
END_TEST

/* The rules every object's pair keeps, on @obj, which the test holds once: NULL in gives NULL
 * out, ref returns its argument, unref returns NULL, and an object referenced three times
 * survives two unrefs: @alive reads it then (a use after free for AddressSanitizer, in the
 * SANITIZE=1 tree, when it was freed; a double free for any build at the last unref). The last
 * unref frees it (a leak for LeakSanitizer when it does not) and sets @obj to NULL. */
#define CHECK_REFS(obj, prefix, alive)                                                             \
        do {                                                                                       \
                ck_assert_ptr_nonnull(obj);                                                        \
                ck_assert_ptr_null(prefix##_ref(NULL));                                            \
                ck_assert_ptr_null(prefix##_unref(NULL));                                          \
                ck_assert_ptr_eq(prefix##_ref(obj), obj);                                          \
                ck_assert_ptr_eq(prefix##_ref(obj), obj);                                          \
                ck_assert_ptr_null(prefix##_unref(obj));                                           \
                ck_assert_ptr_null(prefix##_unref(obj));                                           \
                ck_assert(alive);                                                                  \
                ck_assert_ptr_null(obj = prefix##_unref(obj));                                     \
        } while (0)

/* What every object test starts from: a target root, its context, settings and options. */
static char *refs_root;
static struct seinstall_ctx *refs_ctx;
static struct seinstall_settings *refs_settings;
static struct seinstall_relabel_options *refs_options;

static void refs_setup(void)
{
        refs_root = make_tmpdir();
        ck_assert_int_eq(seinstall_new(refs_root, &refs_ctx), 0);
        ck_assert_int_eq(seinstall_settings_new(&refs_settings), 0);
        ck_assert_int_eq(seinstall_relabel_options_new(&refs_options), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_threads(refs_options, 1), 0);
}

static void refs_teardown(void)
{
        refs_options = seinstall_relabel_options_unref(refs_options);
        refs_settings = seinstall_settings_unref(refs_settings);
        refs_ctx = seinstall_unref(refs_ctx);
        tmpdir_removep(&refs_root);
}

/* The objects made without a policy. */
START_TEST(test_object_refs)
{
        struct seinstall_relabel_result *relabel = NULL;
        struct seinstall_apply_result *apply = NULL;
        struct seinstall_status_result *status = NULL;
        struct seinstall_trial_result *trial = NULL;
        struct seinstall_avc_result *avc = si_avc_report_new("audit.log");
        struct seinstall_apply_options *apply_opts = NULL;
        struct seinstall_check_options *check_opts = NULL;

        ck_assert_int_eq(si_relabel_result_new(refs_root, "default", NULL, 1, true, &relabel), 0);
        ck_assert_int_eq(apply_with(refs_ctx, SEINSTALL_MODE_DISABLED, NULL,
                                    SEINSTALL_BOOTLOADER_NONE, SEINSTALL_APPLY_DRY_RUN, &apply),
                         0);
        ck_assert_int_eq(seinstall_status_read(refs_ctx, &status), 0);
        ck_assert_int_eq(si_trial_new(SEINSTALL_TRIAL_PENDING, &trial), 0);
        ck_assert_int_eq(seinstall_apply_options_new(&apply_opts), 0);
        ck_assert_int_eq(seinstall_apply_options_set_flags(apply_opts, SEINSTALL_APPLY_RELABEL), 0);
        ck_assert_int_eq(seinstall_check_options_new(&check_opts), 0);
        ck_assert_int_eq(seinstall_check_options_set_plan_file(check_opts, "plan"), 0);

        CHECK_REFS(relabel, seinstall_relabel_result,
                   seinstall_relabel_result_get_count(relabel, SEINSTALL_RELABEL_COUNT_SEEN) == 0);
        CHECK_REFS(apply, seinstall_apply_result,
                   seinstall_apply_result_get_config_mode(apply) == SEINSTALL_MODE_DISABLED);
        CHECK_REFS(status, seinstall_status_result,
                   !seinstall_status_result_get_policy_built(status));
        CHECK_REFS(trial, seinstall_trial_result,
                   seinstall_trial_result_get_state(trial) == SEINSTALL_TRIAL_PENDING);
        CHECK_REFS(avc, seinstall_avc_result,
                   streq(seinstall_avc_result_get_source(avc), "audit.log"));
        CHECK_REFS(refs_settings, seinstall_settings,
                   seinstall_settings_get_mode(refs_settings, NULL) == SEINSTALL_MODE_ENFORCING);
        CHECK_REFS(refs_options, seinstall_relabel_options, refs_options->threads == 1);
        CHECK_REFS(apply_opts, seinstall_apply_options,
                   apply_opts->flags == SEINSTALL_APPLY_RELABEL);
        CHECK_REFS(check_opts, seinstall_check_options, streq(check_opts->plan_file, "plan"));
        CHECK_REFS(refs_ctx, seinstall, streq(seinstall_get_root(refs_ctx), refs_root));
}
END_TEST

/* The stages' results that need a policy: check, verify and a dry-run install. */
START_TEST(test_stage_result_refs)
{
        _cleanup_free_ char *pol = host_policy_path(), *plan = NULL, *fc = NULL, *dir = NULL;
        struct seinstall_check_result *check = NULL;
        struct seinstall_verify_result *verify = NULL;
        struct seinstall_install_result *install = NULL;

        plan = path_join(refs_root, "plan.fstab");
        write_file(plan, "/dev/vda2 / ext4 defaults 0 1\n");
        dir = path_join(refs_root, "etc/selinux/default/policy/policy.33");
        for (char *p = dir + strlen(refs_root) + 1; (p = strchr(p, '/')); *p++ = '/') {
                *p = '\0';
                ck_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
        }
        copy_file(pol, dir);
        fc = path_join(refs_root, "file_contexts");
        write_file(fc, "/.*\tsystem_u:object_r:default_t:s0\n");

        ck_assert_int_eq(check_with_plan(refs_ctx, refs_settings, plan, &check), 0);
        ck_assert_int_eq(seinstall_relabel_options_set_file_contexts(refs_options, fc), 0);
        ck_assert_int_ge(seinstall_verify(refs_ctx, refs_options, 0, &verify), 0);
        /* install takes the file contexts from the target */
        ck_assert_int_eq(
            seinstall_install(refs_ctx, refs_settings, NULL, SEINSTALL_INSTALL_DRY_RUN, &install),
            0);

        CHECK_REFS(check, seinstall_check_result, seinstall_check_result_get_n_mounts(check) == 1);
        CHECK_REFS(verify, seinstall_verify_result,
                   seinstall_verify_result_get_relabel(verify) != NULL);
        CHECK_REFS(install, seinstall_install_result,
                   seinstall_install_result_get_check(install) != NULL);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("util");
        TCase *tc = tcase_create("core");

        tcase_add_test(tc, test_mode_names);
        tcase_add_test(tc, test_grow);
        tcase_add_test(tc, test_lines);
        tcase_add_test(tc, test_json_escape);
        tcase_add_test(tc, test_json_writer);
        tcase_add_test(tc, test_json_hex_members);
        tcase_add_test(tc, test_json_layout);
        tcase_add_test(tc, test_shell_quote);
        tcase_add_test(tc, test_escape_display);
        tcase_add_test(tc, test_exit_status);
        tcase_add_test(tc, test_error_names);
        tcase_add_test(tc, test_write_atomic_stays_inside);
        tcase_add_test(tc, test_write_dry_run_is_a_parameter);
        tcase_add_test(tc, test_read_bounded);
        tcase_add_test(tc, test_root_list);
        tcase_add_test(tc, test_new_bad_root);
        tcase_add_test(tc, test_ref_unref_pair);
        suite_add_tcase(s, tc);
        tc = tcase_create("refs");
        tcase_add_checked_fixture(tc, refs_setup, refs_teardown);
        tcase_add_test(tc, test_object_refs);
        suite_add_tcase(s, tc);
        tc = tcase_create("stage-refs");
        tcase_add_checked_fixture(tc, refs_setup, refs_teardown);
        tcase_add_test(tc, test_stage_result_refs);
        suite_add_policy_tcase(s, tc, "stage-refs");
        return run_suite(s);
}
