/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-file.c — the files of a kickstart read: a host file read as a regular file within the
 * budget of the read, its text cut into lines one at a time, each named by its origin (file and
 * line), and preprocessKickstart()'s merging of the %ksappend files into the main file; the names
 * of the files read, kept for the whole read.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "kickstart-internal.h"

/* One line at a time, as str.splitlines(True) cuts them: holding every line of a file at once
 * cost 32 bytes a line, 32 times the text of a file of empty lines. Each line is named by the
 * segment (file and first line) its first byte came from. */
const struct ks_line *si_ks_next_line(struct ks_file *f)
{
        const struct ks_segment *seg = f->seg ? f->seg : &(struct ks_segment){0, f->path, 1};
        size_t nseg = f->seg ? f->nseg : 1;
        const char *p = f->text + f->pos, *end = f->text + f->len, *q;

        if (f->putback) {
                f->putback = false;
                return &f->cur;
        }
        if (f->ended)
                return NULL;
        if (p >= end) {
                /* the end marker: the line after the last one */
                f->ended = true;
                if (f->len > 0)
                        f->cur.at.line++;
                else
                        f->cur.at = (struct si_ks_origin){f->path, 1};
                f->cur.s = end;
                f->cur.len = 0;
                return &f->cur;
        }
        q = si_py_line_end(p, end);
        while (f->si + 1 < nseg && seg[f->si + 1].start <= f->pos) {
                f->si++;
                f->c = 0;
        }
        if (f->pos > seg[f->si].start)
                f->c++;
        f->cur = (struct ks_line){
            .s = p, .len = (size_t) (q - p), .at = {seg[f->si].file, seg[f->si].first_line + f->c}};
        f->pos = (size_t) (q - f->text);
        return &f->cur;
}

/* Read a host file as a regular file (open_regular(): never blocking on a FIFO or a device), at
 * most @max bytes (-EFBIG beyond). */
static int read_regular(const char *path, size_t max, char **ret, size_t *ret_len,
                        struct stat *ret_st)
{
        _cleanup_close_ int fd = open_regular(path);

        if (fd < 0)
                return fd;
        if (fstat(fd, ret_st) < 0)
                return -errno;
        return read_fd_bounded(fd, max, ret, ret_len);
}

int si_ks_read_regular(const char *path, char **ret, size_t *ret_len, struct stat *ret_st)
{
        return read_regular(path, KS_FILE_MAX, ret, ret_len, ret_st);
}

const char *si_ks_read_error(int r)
{
        return r == -EFBIG ? "larger than 4 MiB, not a kickstart file" : si_file_strerror(r);
}

/* Never more is read than what is left of the budget, so a profile costs at most
 * KS_READ_BYTES_MAX of reading whatever its files hold. */
int si_ks_read_budgeted(struct ks_reader *r, const struct si_ks_origin *at, const char *directive,
                        const char *path, char **ret, size_t *ret_len, struct stat *ret_st)
{
        size_t left = r->bytes < KS_READ_BYTES_MAX ? KS_READ_BYTES_MAX - r->bytes : 0;
        bool budget_first = left < KS_FILE_MAX;
        int k;

        if (r->files >= KS_READ_FILES_MAX)
                return si_ks_error(r->ctx, at,
                                   "%s %s: more than %d files opened for one profile (each "
                                   "%%include and %%ksappend counts, the same file each time): "
                                   "seinstall's limit; a real kickstart opens a handful, look for "
                                   "files included more than once",
                                   directive, path, KS_READ_FILES_MAX);
        r->files++;
        k = read_regular(path, budget_first ? left : KS_FILE_MAX, ret, ret_len, ret_st);
        if (k == -EFBIG && budget_first)
                return si_ks_error(r->ctx, at,
                                   "%s %s: more than %d MiB read for one profile (the file and "
                                   "each %%include and %%ksappend, the same file each time): "
                                   "seinstall's limit; a real kickstart reads a few KiB, look for "
                                   "files included more than once",
                                   directive, path, KS_READ_BYTES_MAX / (1024 * 1024));
        if (k >= 0)
                r->bytes += *ret_len;
        return k;
}

/* A line that preprocessKickstart() replaces: its stripped text starts with %ksappend. */
static bool is_ksappend(const char *p, const char *e, const char **ret_s, const char **ret_e)
{
        const char *s = si_py_lstrip(p, e);

        *ret_s = s;
        *ret_e = si_py_rstrip_end(s, e);
        return (size_t) (*ret_e - s) >= 9 && memcmp(s, "%ksappend", 9) == 0;
}

/* preprocessKickstart(): each %ksappend line of the main file is replaced by the content of the
 * file its second space-separated field names, opened as pykickstart opens it (relative to the
 * working directory). The content is not preprocessed again. */
int si_ks_preprocess(struct ks_reader *r, struct ks_file *f)
{
        _cleanup_free_ struct ks_segment *seg = NULL;
        struct sbuf out = {};
        const char *p, *end = f->text + f->len;
        size_t nseg = 0, cap = 0;
        unsigned line = 0;
        bool top_open = false;
        int ret = 0;

        for (p = f->text; p < end && ret >= 0;) {
                const char *q = si_py_line_end(p, end), *s, *e, *u, *ue;
                _cleanup_free_ char *url = NULL, *content = NULL;
                struct si_ks_origin at = {f->path, ++line};
                struct stat st;
                size_t clen;

                if (!SI_GROW(seg, cap, nseg + 2)) {
                        ret = -ENOMEM;
                        break;
                }
                if (!is_ksappend(p, q, &s, &e)) {
                        if (!top_open)
                                seg[nseg++] = (struct ks_segment){out.len, f->path, line};
                        top_open = true;
                        ret = sbuf_append(&out, p, (size_t) (q - p));
                        p = q;
                        continue;
                }
                p = q;
                top_open = false;
                /* ll.split(' ')[1] */
                u = memchr(s, ' ', (size_t) (e - s));
                if (!u) {
                        ret = si_ks_error(r->ctx, &at, "Illegal url for %%ksappend: %.*s",
                                          (int) (e - s), s);
                        break;
                }
                u++;
                ue = memchr(u, ' ', (size_t) (e - u));
                url = strndup(u, (size_t) ((ue ? ue : e) - u));
                if (!url) {
                        ret = -ENOMEM;
                        break;
                }
                if (strstr(url, "://")) {
                        ret =
                            si_ks_error(r->ctx, &at,
                                        "%%ksappend %s: seinstall reads only local files; copy it "
                                        "into the profile",
                                        url);
                        break;
                }
                ret = si_ks_read_budgeted(r, &at, "%ksappend", url, &content, &clen, &st);
                if (ret == -EBADMSG)
                        break;
                if (ret < 0) {
                        ret = si_ks_error(r->ctx, &at, "Unable to open %%ksappend file %s: %s", url,
                                          si_ks_read_error(ret));
                        break;
                }
                {
                        const char *name = si_ks_keep_name(r, TAKE_PTR(url));
                        if (!name) {
                                ret = -ENOMEM;
                                break;
                        }
                        ret = si_ks_check_text(r->ctx, name, content, clen);
                        if (ret >= 0 && clen > 0) {
                                seg[nseg++] = (struct ks_segment){out.len, name, 1};
                                ret = sbuf_append(&out, content, clen);
                        }
                }
        }
        if (ret >= 0 && out.len > KS_FILE_MAX)
                ret = si_ks_error(r->ctx, &(struct si_ks_origin){f->path, 1},
                                  "larger than 4 MiB with its %%ksappend files");
        if (ret >= 0) {
                free(f->text);
                f->len = out.len;
                f->text = sbuf_steal(&out);
                if (!f->text)
                        ret = -ENOMEM;
        }
        if (ret >= 0 && nseg > 0) {
                f->seg = TAKE_PTR(seg);
                f->nseg = nseg;
        }
        sbuf_free(&out);
        return ret;
}

/* Keep @name (taken over) alive for the whole read; NULL on ENOMEM. */
const char *si_ks_keep_name(struct ks_reader *r, char *name)
{
        if (!name)
                return NULL;
        if (!SI_GROW(r->names, r->cap_names, r->nnames + 1)) {
                free(name);
                return NULL;
        }
        r->names[r->nnames++] = name;
        return name;
}
