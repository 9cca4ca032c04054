/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c — the planned layout: an fstab-format file naming device, mount point, type and
 * options of filesystems that may not exist yet. Parsed with libmount; a type of "auto", or no
 * type at all, is found by probing the device (a disk image is fine) with libblkid.
 */
#include <blkid/blkid.h>
#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <libmount/libmount.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "check-stage.h"

#define PLAN_MAX (1024u * 1024)

struct parse_state {
        const char *file;
        unsigned bad_line;
};

static int parser_error(struct libmnt_table *tb, const char *filename, int line)
{
        struct parse_state *st = mnt_table_get_userdata(tb);

        (void) filename;
        if (st && !st->bad_line)
                st->bad_line = line > 0 ? (unsigned) line : 1;
        return -1; /* stop: a plan with a bad line is not half-checked */
}

/* Number of blank-separated fields in a line. */
static size_t count_fields(const char *line, size_t len)
{
        size_t n = 0;
        bool in = false;

        for (size_t i = 0; i < len; i++) {
                bool blank = line[i] == ' ' || line[i] == '\t';
                if (!blank && !in)
                        n++;
                in = !blank;
        }
        return n;
}

/* libmount wants a type in every fstab line; the plan may leave it out ("probe it"). Copy
 * @data, appending " auto" to each entry of two fields, and note the line of each entry so
 * messages can name it. Comments and blank lines are kept, so line numbers stay the same. */
static int prepare(const char *data, size_t len, struct sbuf *out, unsigned **ret_lines,
                   size_t *ret_n)
{
        const char *pos = data, *end = data + len, *line;
        _cleanup_free_ unsigned *lines = NULL;
        size_t n = 0, cap = 0, ll;
        unsigned no = 0;
        int r;

        while (next_line(&pos, end, &line, &ll)) {
                const char *s = line;
                size_t sl = strip_range(&s, ll);

                no++;
                r = sbuf_append(out, line, ll);
                if (r >= 0 && sl > 0 && *s != '#' && count_fields(s, sl) == 2)
                        r = sbuf_puts(out, " auto");
                if (r >= 0)
                        r = sbuf_puts(out, "\n");
                if (r < 0)
                        return r;
                if (sl == 0 || *s == '#')
                        continue;
                if (!SI_GROW(lines, cap, n + 1))
                        return -ENOMEM;
                lines[n++] = no;
        }
        *ret_lines = TAKE_PTR(lines);
        *ret_n = n;
        return 0;
}

/* The device a plan line names: a path, or a tag (UUID=, LABEL=, ...) libblkid resolves. */
static int resolve_device(struct seinstall_ctx *ctx, const char *file, unsigned line,
                          struct libmnt_fs *fs, char **ret)
{
        const char *tag, *value, *source = mnt_fs_get_source(fs);
        struct stat st;

        if (mnt_fs_get_tag(fs, &tag, &value) == 0) {
                char *dev = blkid_evaluate_tag(tag, value, NULL);
                if (!dev)
                        return si_error(ctx, -ENOENT,
                                        "%s:%u: no device has %s=%s, so its filesystem type "
                                        "cannot be probed; give the type in the plan",
                                        file, line, tag, value);
                *ret = dev;
                return 0;
        }
        if (!source || !*source)
                return si_error(ctx, -EBADMSG, "%s:%u: no device given", file, line);
        if (stat(source, &st) < 0)
                return si_error(ctx, errno == ENOENT || errno == ENOTDIR ? -ENOENT : -errno,
                                "%s:%u: cannot probe the type of %s: %m; create it first or "
                                "give the type in the plan",
                                file, line, source);
        if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
                return si_error(ctx, -EINVAL,
                                "%s:%u: %s is neither a block device nor a disk image", file, line,
                                source);
        *ret = strdup(source);
        return *ret ? 0 : -ENOMEM;
}

static void free_probep(blkid_probe *p)
{
        if (*p)
                blkid_free_probe(*p);
}

/* The filesystem type on @dev, as libblkid finds it. */
static int probe_type(struct seinstall_ctx *ctx, const char *file, unsigned line, const char *dev,
                      char **ret)
{
        _cleanup_(free_probep) blkid_probe pr = NULL;
        const char *type = NULL;
        int r;

        errno = 0;
        pr = blkid_new_probe_from_filename(dev);
        if (!pr) {
                r = errno > 0 ? -errno : -EIO;
                return si_error(ctx, r, "%s:%u: cannot read %s to probe its filesystem: %s", file,
                                line, dev, strerror(-r));
        }
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
        r = blkid_do_safeprobe(pr);
        if (r == -2)
                return si_error(ctx, -EINVAL,
                                "%s:%u: %s carries more than one filesystem signature; wipe the "
                                "stale one (wipefs) or give the type in the plan",
                                file, line, dev);
        if (r < 0)
                return si_error(ctx, -EIO, "%s:%u: probing %s failed; give the type in the plan",
                                file, line, dev);
        if (r == 1 || blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0 || !type)
                return si_error(ctx, -EINVAL,
                                "%s:%u: no filesystem found on %s; format it first or give the "
                                "type in the plan",
                                file, line, dev);
        *ret = strdup(type);
        return *ret ? 0 : -ENOMEM;
}

static void unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}
static void free_iterp(struct libmnt_iter **i)
{
        mnt_free_iter(*i);
}

static int add_entry(struct seinstall_ctx *ctx, const char *file, unsigned line,
                     struct libmnt_fs *fs, struct si_mount_list *l)
{
        _cleanup_free_ char *dev = NULL, *probed = NULL;
        const char *target = mnt_fs_get_target(fs), *type = mnt_fs_get_fstype(fs);
        int r;

        if ((type && streq(type, "swap")) || !target || streq(target, "none") ||
            streq(target, "swap"))
                return 0;
        if (target[0] != '/')
                return si_error(ctx, -EBADMSG,
                                "%s:%u: the mount point '%s' is not an absolute path", file, line,
                                target);
        if (strlen(target) >= PATH_MAX)
                return si_error(ctx, -EBADMSG,
                                "%s:%u: the mount point is longer than %d bytes: no directory "
                                "can be mounted there",
                                file, line, PATH_MAX);
        /* Two filesystems planned on one mount point: the first would be hidden, never what
         * an installer means. */
        for (size_t i = 0; i < l->n; i++)
                if (streq(l->v[i].mountpoint, target))
                        return si_error(ctx, -EBADMSG,
                                        "%s:%u: %s is already planned on line %u; keep one of them",
                                        file, line, target, l->v[i].line);
        if (!type || streq(type, "auto")) {
                r = resolve_device(ctx, file, line, fs, &dev);
                if (r < 0)
                        return r;
                r = probe_type(ctx, file, line, dev, &probed);
                if (r < 0)
                        return r;
                type = probed;
        }
        return si_mount_list_add(l, target, NULL, mnt_fs_get_source(fs), type,
                                 mnt_fs_get_options(fs), line);
}

/* Standard input read whole (a pipe), at most @max bytes: -EFBIG beyond. */
static int read_stdin_bounded(size_t max, char **ret, size_t *ret_len)
{
        struct sbuf b = {};
        char buf[65536];
        int r = sbuf_puts(&b, "");

        while (r >= 0) {
                ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        r = -errno;
                else if (n == 0)
                        break;
                else if (b.len + (size_t) n > max)
                        r = -EFBIG;
                else
                        r = sbuf_append(&b, buf, (size_t) n);
        }
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret_len = b.len;
        *ret = sbuf_steal(&b);
        return 0;
}

int si_plan_read(struct seinstall_ctx *ctx, const char *file, struct si_mount_list *ret)
{
        _cleanup_free_ char *data = NULL;
        const char *name = streq(file, "-") ? "standard input" : file;
        size_t len = 0;
        int r;

        r = streq(file, "-") ? read_stdin_bounded(PLAN_MAX, &data, &len)
                             : read_file_bounded(file, PLAN_MAX, &data, &len);
        if (r == -EFBIG)
                return si_error(ctx, -EFBIG, "The plan %s is larger than %u bytes: not an fstab",
                                name, PLAN_MAX);
        if (r < 0)
                return si_error(ctx, r, "Could not read the plan %s: %s", name,
                                si_file_strerror(r));
        return si_plan_parse(ctx, name, data, len, ret);
}

int si_plan_parse(struct seinstall_ctx *ctx, const char *file, const char *data, size_t len,
                  struct si_mount_list *ret)
{
        _cleanup_(unref_tablep) struct libmnt_table *tb = NULL;
        _cleanup_(free_iterp) struct libmnt_iter *it = NULL;
        _cleanup_free_ unsigned *lines = NULL;
        _cleanup_fclose_ FILE *f = NULL;
        struct parse_state st = {.file = file};
        struct si_mount_list l = {0};
        struct sbuf text = {0};
        struct libmnt_fs *fs;
        size_t n_lines = 0, i = 0;
        int r;

        if (memchr(data, '\0', len))
                return si_error(ctx, -EBADMSG, "The plan %s is not text (it holds NUL bytes)",
                                file);
        r = prepare(data, len, &text, &lines, &n_lines);
        if (r < 0)
                return r;

        tb = mnt_new_table();
        it = mnt_new_iter(MNT_ITER_FORWARD);
        f = text.s ? fmemopen(text.s, text.len, "r") : NULL;
        if (!tb || !it || (text.s && !f)) {
                sbuf_free(&text);
                return -ENOMEM;
        }
        if (f) {
                mnt_table_set_userdata(tb, &st);
                mnt_table_set_parser_errcb(tb, parser_error);
                r = mnt_table_parse_stream(tb, f, file);
                fclose(TAKE_PTR(f));
        }
        if (text.s && (r < 0 || st.bad_line)) {
                sbuf_free(&text);
                return si_error(ctx, -EBADMSG,
                                "%s:%u: not an fstab line; write DEVICE MOUNTPOINT [TYPE "
                                "[OPTIONS [DUMP [PASS]]]]",
                                file, st.bad_line ? st.bad_line : 1);
        }

        while (mnt_table_next_fs(tb, it, &fs) == 0) {
                r = add_entry(ctx, file, i < n_lines ? lines[i] : 0, fs, &l);
                i++;
                if (r < 0)
                        goto fail;
        }
        sbuf_free(&text);
        if (l.n == 0)
                return si_error(ctx, -EBADMSG,
                                "The plan %s names no filesystem to mount; "
                                "give one line per mount: DEVICE MOUNTPOINT TYPE OPTIONS",
                                file);
        *ret = l;
        return 0;
fail:
        sbuf_free(&text);
        si_mount_list_free(&l);
        return r;
}
