/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kslex.c — the kickstart reader: walks a kickstart file, the %ksappend files merged into it and
 * the %include files it pulls in, and hands commands, section headers, section lines and section
 * ends to a caller (profile.c gives them a meaning). It follows pykickstart 3.74's parser.py
 * (KickstartParser._stateMachine, _readSection, _handleInclude, readKickstart, and
 * preprocessKickstart as ksvalidator and Anaconda's initramfs run it) step by step, because the
 * verdict on odd files comes from those exact steps: lines end where Python's str.splitlines()
 * ends them (the break stays part of the line), every line outside a section is split with
 * shlex before its command is known, a line inside a section only when its first word is %end,
 * %include or a section name.
 * Deliberate differences (seinstall.ks(5)): NUL bytes are refused; a missing %include file is a
 * warning; an include cycle, or more than KS_DEPTH_MAX levels, is an error naming the chain.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kslex.h"

#define KS_FILE_MAX (4 * 1024 * 1024)
/* pykickstart has no limit of its own: Python's recursion limit stops it near 240 levels */
#define KS_DEPTH_MAX 200
#define KS_OPEN_MAX  (64 * 1024 * 1024) /* text of the files open at once */
#define KS_WORDS_MAX 65536

/* The sections pykickstart's KickstartParser.setupSections() registers. */
static const char *const ks_sections[] = {
    "%certificate", "%pre",      "%pre-install", "%post",     "%onerror",
    "%traceback",   "%packages", "%addon",       "%anaconda",
};

struct ks_line {
        const char *s;
        size_t len; /* with its line break; 0 only for the end-of-file marker */
        struct si_ks_origin at;
};

struct ks_file {
        const char *path; /* kept in the reader's names */
        char *text;
        size_t len;
        struct ks_line *lines;
        size_t n, next; /* n counts the end-of-file marker */
        const struct ks_line *putback;
        dev_t dev;
        ino_t ino;
        struct ks_file *parent;
        struct si_ks_origin from; /* the %include line in the parent */
};

struct ks_reader {
        struct seinstall_ctx *ctx;
        const struct si_ks_ops *ops;
        void *userdata;
        const char *state; /* NULL: commands; else the open section */
        struct si_ks_origin section_at;
        unsigned depth;
        size_t open_bytes;
        char *currentdir[KS_DEPTH_MAX + 2];
        char **names; /* every file name an origin points at, freed at the end */
        size_t nnames;
};

int si_ks_error(struct seinstall_ctx *ctx, const struct si_ks_origin *o, const char *fmt, ...)
{
        _cleanup_free_ char *what = NULL;
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vasprintf(&what, fmt, ap);
        va_end(ap);
        if (n < 0)
                return -ENOMEM;
        return si_error(ctx, -EBADMSG, "%s:%u: %s", o->file, o->line, what);
}

/* Keep @name (taken over) alive for the whole read; NULL on ENOMEM. */
static const char *keep_name(struct ks_reader *r, char *name)
{
        char **v;

        if (!name)
                return NULL;
        v = realloc(r->names, (r->nnames + 1) * sizeof(*v));
        if (!v) {
                free(name);
                return NULL;
        }
        r->names = v;
        r->names[r->nnames++] = name;
        return name;
}

/* ---- text: UTF-8, Python's whitespace and line breaks ------------------------------------- */

/* Length of the valid UTF-8 sequence at @p (strict, as Python's decoder is), or 0. */
static size_t u8_valid(const unsigned char *p, const unsigned char *end)
{
        size_t n;
        uint32_t c;

        if (p[0] < 0x80)
                return 1;
        if (p[0] >= 0xc2 && p[0] <= 0xdf)
                n = 2, c = p[0] & 0x1f;
        else if (p[0] >= 0xe0 && p[0] <= 0xef)
                n = 3, c = p[0] & 0x0f;
        else if (p[0] >= 0xf0 && p[0] <= 0xf4)
                n = 4, c = p[0] & 0x07;
        else
                return 0;
        if ((size_t) (end - p) < n)
                return 0;
        for (size_t i = 1; i < n; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                c = c << 6 | (p[i] & 0x3f);
        }
        if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
            (n == 4 && (c < 0x10000 || c > 0x10ffff)))
                return 0;
        return n;
}

bool si_text_utf8(const char *s, size_t len, size_t *ret_bad)
{
        const unsigned char *p = (const unsigned char *) s, *end = p + len;

        while (p < end) {
                size_t n = u8_valid(p, end);
                if (n == 0) {
                        *ret_bad = (size_t) (p - (const unsigned char *) s);
                        return false;
                }
                p += n;
        }
        return true;
}

/* Decode the character at @p of text already checked. */
static size_t u8_decode(const char *p, const char *end, uint32_t *ret)
{
        const unsigned char *u = (const unsigned char *) p;
        size_t n = u8_valid(u, (const unsigned char *) end);

        if (n <= 1) {
                *ret = u[0];
                return 1;
        }
        *ret = u[0] & (0xffu >> (n + 1));
        for (size_t i = 1; i < n; i++)
                *ret = *ret << 6 | (u[i] & 0x3f);
        return n;
}

/* Python's str.isspace() for one character. */
static bool py_isspace(uint32_t c)
{
        return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 ||
               c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
               c == 0x202f || c == 0x205f || c == 0x3000;
}

/* str.lstrip(): the first character that is not whitespace. */
const char *si_py_lstrip(const char *p, const char *end)
{
        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                if (!py_isspace(c))
                        break;
                p += n;
        }
        return p;
}

/* The end of str.rstrip(). */
const char *si_py_rstrip_end(const char *p, const char *end)
{
        const char *last = p;

        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                p += n;
                if (!py_isspace(c))
                        last = p;
        }
        return last;
}

/* The end of the whitespace-separated word at @p (str.split()[0] of stripped text). */
static const char *py_word_end(const char *p, const char *end)
{
        while (p < end) {
                uint32_t c;
                size_t n = u8_decode(p, end, &c);
                if (py_isspace(c))
                        break;
                p += n;
        }
        return p;
}

/* Length of the line break str.splitlines() sees at @p, or 0. */
static size_t line_break(const char *p, const char *end)
{
        const unsigned char *u = (const unsigned char *) p;

        switch (u[0]) {
        case '\n':
        case '\v':
        case '\f':
        case 0x1c:
        case 0x1d:
        case 0x1e:
                return 1;
        case '\r':
                return end - p > 1 && p[1] == '\n' ? 2 : 1;
        case 0xc2:
                return end - p > 1 && u[1] == 0x85 ? 2 : 0;
        case 0xe2:
                return end - p > 2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9) ? 3 : 0;
        default:
                return 0;
        }
}

/* The end of the line at @p, break included. */
static const char *line_end(const char *p, const char *end)
{
        while (p < end) {
                size_t b = line_break(p, end);
                if (b)
                        return p + b;
                p++;
        }
        return end;
}

static bool word_is(const char *p, const char *e, const char *w)
{
        return (size_t) (e - p) == strlen(w) && memcmp(p, w, (size_t) (e - p)) == 0;
}

/* The registered section named by [p, e), or NULL. */
static const char *section_of(const char *p, const char *e)
{
        for (size_t i = 0; i < ELEMENTSOF(ks_sections); i++)
                if (word_is(p, e, ks_sections[i]))
                        return ks_sections[i];
        return NULL;
}

/* _isBlankOrComment(): whitespace only, the end marker, or a comment. */
static bool blank_or_comment(const struct ks_line *l)
{
        const char *p = si_py_lstrip(l->s, l->s + l->len);
        return p == l->s + l->len || *p == '#';
}

/* ---- shlex.split(line, comments) ----------------------------------------------------------- */

void si_ks_words_free(struct si_ks_words *w)
{
        free(w->argv);
        sbuf_free(&w->buf);
        free(w->off);
        free(w->pos);
        *w = (struct si_ks_words){};
}

static int words_end(struct si_ks_words *w, size_t at)
{
        size_t *off, *pos;

        if (w->n >= KS_WORDS_MAX)
                return -E2BIG;
        if (w->n == w->cap) {
                /* doubling: a line of 65536 words must not cost 65536 copies */
                size_t cap = w->cap ? w->cap * 2 : 16;
                off = realloc(w->off, cap * sizeof(*off));
                if (!off)
                        return -ENOMEM;
                w->off = off;
                pos = realloc(w->pos, cap * sizeof(*pos));
                if (!pos)
                        return -ENOMEM;
                w->pos = pos;
                w->cap = cap;
        }
        w->pos[w->n] = at;
        w->off[w->n++] = w->start;
        if (sbuf_append(&w->buf, "", 1) < 0) /* each word ends with its NUL */
                return -ENOMEM;
        w->start = w->buf.len;
        return 0;
}

int si_ks_split(const char *s, size_t len, bool comments, struct si_ks_words *ret,
                const char **ret_why)
{
        struct si_ks_words w = {};
        char state = ' ', escaped = ' ';
        size_t at = 0;
        int r = 0;

        for (size_t i = 0; r >= 0; i++) {
                bool eof = i >= len;
                char c = eof ? 0 : s[i];

                if (state == ' ' || state == 'a') {
                        if (eof || strchr(" \t\r\n", c) || (comments && c == '#')) {
                                if (state == 'a')
                                        r = words_end(&w, at);
                                state = ' ';
                                if (eof || c == '#')
                                        break; /* a comment runs to the end of the line */
                        } else {
                                if (state == ' ')
                                        at = i; /* a word starts */
                                if (c == '\\') {
                                        escaped = 'a';
                                        state = '\\';
                                } else if (c == '\'' || c == '"') {
                                        state = c;
                                } else {
                                        state = 'a';
                                        r = sbuf_append(&w.buf, &c, 1);
                                }
                        }
                } else if (state == '\'' || state == '"') {
                        if (eof) {
                                *ret_why = "No closing quotation";
                                r = -EBADMSG;
                        } else if (c == state) {
                                state = 'a'; /* even "" makes a word */
                        } else if (state == '"' && c == '\\') {
                                escaped = '"';
                                state = '\\';
                        } else {
                                r = sbuf_append(&w.buf, &c, 1);
                        }
                } else { /* after a backslash */
                        if (eof) {
                                *ret_why = "No escaped character";
                                r = -EBADMSG;
                                break;
                        }
                        /* inside double quotes only \\ and \" are escapes */
                        if (escaped == '"' && c != '\\' && c != '"')
                                r = sbuf_append(&w.buf, "\\", 1);
                        if (r >= 0)
                                r = sbuf_append(&w.buf, &c, 1);
                        state = escaped;
                }
        }
        if (r >= 0) {
                w.argv = calloc(w.n + 1, sizeof(char *));
                if (!w.argv)
                        r = -ENOMEM;
        }
        if (r < 0) {
                si_ks_words_free(&w);
                return r;
        }
        for (size_t i = 0; i < w.n; i++)
                w.argv[i] = w.buf.s + w.off[i];
        *ret = w;
        return 0;
}

/* Split line @l; errors name it. */
static int split_line(struct ks_reader *r, const struct ks_line *l, bool comments,
                      struct si_ks_words *ret)
{
        const char *why = NULL;
        int k = si_ks_split(l->s, l->len, comments, ret, &why);

        if (k == -EBADMSG)
                return si_ks_error(r->ctx, &l->at,
                                   "%s: a quote is not closed or the line ends in a backslash "
                                   "(pykickstart splits every line with shlex)",
                                   why);
        if (k == -E2BIG)
                return si_ks_error(r->ctx, &l->at, "more than %d words on one line", KS_WORDS_MAX);
        return k;
}

/* ---- files and lines ----------------------------------------------------------------------- */

struct segment {
        size_t start;
        const char *file;
        unsigned first_line;
};

/* Refuse text pykickstart cannot decode (and NUL bytes, which seinstall refuses on purpose),
 * naming the line. */
static int check_text(struct ks_reader *r, const char *file, const char *text, size_t len)
{
        const unsigned char *p = (const unsigned char *) text, *end = p + len;
        struct si_ks_origin at = {file, 1};

        while (p < end) {
                size_t n = line_break((const char *) p, (const char *) end);
                if (n) {
                        at.line++;
                        p += n;
                        continue;
                }
                if (*p == 0)
                        return si_ks_error(r->ctx, &at,
                                           "NUL byte: not a text file, not a kickstart "
                                           "profile");
                n = u8_valid(p, end);
                if (n == 0)
                        return si_ks_error(r->ctx, &at,
                                           "not valid UTF-8 (byte 0x%02x): pykickstart reads "
                                           "kickstart files as UTF-8; convert the file",
                                           *p);
                p += n;
        }
        return 0;
}

/* Split @f->text into lines as str.splitlines(True) does, plus the end marker; each line is
 * named by the segment (file and first line) its first byte came from. */
static int split_lines(struct ks_file *f, const struct segment *seg, size_t nseg)
{
        const char *p = f->text, *end = f->text + f->len;
        size_t cap = 16, si = 0;
        unsigned c = 0;

        f->lines = malloc(cap * sizeof(*f->lines));
        if (!f->lines)
                return -ENOMEM;
        f->n = 0;
        for (;;) {
                const char *q;
                size_t off = (size_t) (p - f->text);

                if (f->n + 1 >= cap) {
                        struct ks_line *v = realloc(f->lines, cap * 2 * sizeof(*v));
                        if (!v)
                                return -ENOMEM;
                        f->lines = v;
                        cap *= 2;
                }
                if (p >= end)
                        break;
                q = line_end(p, end);
                while (si + 1 < nseg && seg[si + 1].start <= off) {
                        si++;
                        c = 0;
                }
                if (off > seg[si].start)
                        c++;
                f->lines[f->n++] = (struct ks_line){
                    .s = p, .len = (size_t) (q - p), .at = {seg[si].file, seg[si].first_line + c}};
                p = q;
        }
        f->lines[f->n] = (struct ks_line){.s = end, .at = {f->path, 1}};
        if (f->n > 0) {
                f->lines[f->n].at = f->lines[f->n - 1].at;
                f->lines[f->n].at.line++;
        }
        f->n++;
        return 0;
}

/* Read a host file as a regular file (open_regular(): never blocking on a FIFO or a device). */
static int read_regular(const char *path, char **ret, size_t *ret_len, struct stat *ret_st)
{
        _cleanup_close_ int fd = open_regular(path);

        if (fd < 0)
                return fd;
        if (fstat(fd, ret_st) < 0)
                return -errno;
        return read_fd_bounded(fd, KS_FILE_MAX, ret, ret_len);
}

static const char *read_error(int r)
{
        return r == -EFBIG ? "larger than 4 MiB, not a kickstart file" : si_file_strerror(r);
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
static int ks_preprocess(struct ks_reader *r, struct ks_file *f)
{
        _cleanup_free_ struct segment *seg = NULL;
        struct sbuf out = {};
        const char *p, *end = f->text + f->len;
        size_t nseg = 0, cap = 0;
        unsigned line = 0;
        bool top_open = false;
        int ret = 0;

        for (p = f->text; p < end && ret >= 0;) {
                const char *q = line_end(p, end), *s, *e, *u, *ue;
                _cleanup_free_ char *url = NULL, *content = NULL;
                struct si_ks_origin at = {f->path, ++line};
                struct stat st;
                size_t clen;

                if (nseg + 2 > cap) {
                        struct segment *v = realloc(seg, (cap = cap * 2 + 8) * sizeof(*seg));
                        if (!v) {
                                ret = -ENOMEM;
                                break;
                        }
                        seg = v;
                }
                if (!is_ksappend(p, q, &s, &e)) {
                        if (!top_open)
                                seg[nseg++] = (struct segment){out.len, f->path, line};
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
                ret = read_regular(url, &content, &clen, &st);
                if (ret < 0) {
                        ret = si_ks_error(r->ctx, &at, "Unable to open %%ksappend file %s: %s", url,
                                          read_error(ret));
                        break;
                }
                {
                        const char *name = keep_name(r, TAKE_PTR(url));
                        if (!name) {
                                ret = -ENOMEM;
                                break;
                        }
                        ret = check_text(r, name, content, clen);
                        if (ret >= 0 && clen > 0) {
                                seg[nseg++] = (struct segment){out.len, name, 1};
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
        if (ret >= 0)
                ret = nseg ? split_lines(f, seg, nseg)
                           : split_lines(f, &(struct segment){0, f->path, 1}, 1);
        sbuf_free(&out);
        return ret;
}

/* ---- paths as Python's posixpath makes them ------------------------------------------------ */

static bool exists(const char *path)
{
        struct stat st;
        return stat(path, &st) == 0;
}

static char *py_join(const char *a, const char *b)
{
        char *s;

        if (b[0] == '/' || !a[0])
                return strdup(b);
        if (asprintf(&s, "%s%s%s", a, a[strlen(a) - 1] == '/' ? "" : "/", b) < 0)
                return NULL;
        return s;
}

static char *py_dirname(const char *p)
{
        const char *slash = strrchr(p, '/');
        size_t n = slash ? (size_t) (slash - p) + 1 : 0, all = 0;

        while (all < n && p[all] == '/')
                all++;
        if (all < n)
                while (n > 0 && p[n - 1] == '/')
                        n--;
        return strndup(p, n);
}

/* os.path.abspath(): joined to the working directory and normalized by text alone. */
static char *py_abspath(const char *p)
{
        _cleanup_free_ char *cwd = NULL, *full = NULL;
        struct sbuf out = {};
        char *save = NULL;

        if (p[0] != '/') {
                cwd = getcwd(NULL, 0);
                if (!cwd)
                        return NULL;
                full = py_join(cwd, p);
        } else {
                full = strdup(p);
        }
        if (!full)
                return NULL;
        for (char *c = strtok_r(full, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
                if (streq(c, "."))
                        continue;
                if (streq(c, "..")) {
                        char *last = out.s ? strrchr(out.s, '/') : NULL;
                        if (last) {
                                out.len = (size_t) (last - out.s);
                                out.s[out.len] = '\0';
                        }
                        continue;
                }
                if (sbuf_printf(&out, "/%s", c) < 0) {
                        sbuf_free(&out);
                        return NULL;
                }
        }
        if (out.len == 0 && sbuf_puts(&out, "/") < 0) {
                sbuf_free(&out);
                return NULL;
        }
        return sbuf_steal(&out);
}

/* readKickstart()'s lookup: the path as given when it exists, else relative to the directory of
 * the including file; and the directory of the result for the files it includes. */
static int resolve(struct ks_reader *r, const char *arg, char **ret)
{
        _cleanup_free_ char *path = strdup(arg), *dir = NULL;

        if (!path)
                return -ENOMEM;
        if (!exists(path) && r->depth > 0 && r->currentdir[r->depth - 1]) {
                _cleanup_free_ char *cand = py_join(r->currentdir[r->depth - 1], arg);
                if (!cand)
                        return -ENOMEM;
                if (exists(cand)) {
                        free(path);
                        path = TAKE_PTR(cand);
                }
        }
        dir = py_dirname(path);
        if (dir && dir[0] != '/') {
                char *abs = py_abspath(dir);
                free(dir);
                dir = abs;
        }
        if (!dir)
                return -ENOMEM;
        free(r->currentdir[r->depth]);
        r->currentdir[r->depth] = TAKE_PTR(dir);
        *ret = TAKE_PTR(path);
        return 0;
}

/* "main.ks:3 -> a.ks:1 -> @last": each file of the chain with its %include line. */
static char *chain(const struct ks_file *f, const struct si_ks_origin *at, const char *last)
{
        const struct ks_file *v[KS_DEPTH_MAX + 2];
        struct sbuf b = {};
        size_t n = 0;

        for (; f && n < ELEMENTSOF(v); f = f->parent)
                v[n++] = f;
        while (n-- > 0)
                sbuf_printf(&b, "%s:%u -> ", v[n]->path, n ? v[n - 1]->from.line : at->line);
        sbuf_puts(&b, last);
        return b.s ? sbuf_steal(&b) : NULL;
}

/* ---- pykickstart's state machine ----------------------------------------------------------- */

static const struct ks_line *ks_next(struct ks_file *f)
{
        const struct ks_line *l = f->putback;

        if (l) {
                f->putback = NULL;
                return l;
        }
        return f->next < f->n ? &f->lines[f->next++] : NULL;
}

static int state_machine(struct ks_reader *r, struct ks_file *f);

/* _handleInclude() and readKickstart(reset=False) */
static int include(struct ks_reader *r, struct ks_file *f, const struct ks_line *l, const char *arg)
{
        _cleanup_free_ char *path = NULL, *text = NULL, *c = NULL;
        struct ks_file *nf;
        const char *name;
        struct stat st;
        size_t len;
        int k;

        if (r->depth >= KS_DEPTH_MAX) {
                c = chain(f, &l->at, arg);
                return si_ks_error(r->ctx, &l->at, "%%include nested more than %d levels deep: %s",
                                   KS_DEPTH_MAX, c ? c : arg);
        }
        r->depth++;
        k = resolve(r, arg, &path);
        if (k < 0)
                goto out;
        if (strstr(path, "://")) {
                si_warn(r->ctx,
                        "%s:%u: %%include %s not followed: seinstall reads only local files "
                        "(Anaconda fetches it)",
                        l->at.file, l->at.line, path);
                goto out;
        }
        k = read_regular(path, &text, &len, &st);
        if (k == -ENOENT) {
                si_warn(r->ctx,
                        "%s:%u: %%include %s: no such file, not followed (Anaconda's %%pre "
                        "may create it; pykickstart alone would stop here)",
                        l->at.file, l->at.line, path);
                k = 0;
                goto out;
        }
        if (k < 0) {
                k = si_ks_error(r->ctx, &l->at, "Unable to open input kickstart file %s: %s", path,
                                read_error(k));
                goto out;
        }
        for (const struct ks_file *p = f; p; p = p->parent)
                if (p->dev == st.st_dev && p->ino == st.st_ino) {
                        c = chain(f, &l->at, path);
                        k = si_ks_error(r->ctx, &l->at, "%%include cycle: %s", c ? c : path);
                        goto out;
                }
        if (r->open_bytes + len > KS_OPEN_MAX) {
                k = si_ks_error(r->ctx, &l->at, "%%include %s: more than 64 MiB of included text",
                                path);
                goto out;
        }
        name = keep_name(r, TAKE_PTR(path));
        k = name ? check_text(r, name, text, len) : -ENOMEM;
        if (k < 0)
                goto out;
        nf = calloc(1, sizeof(*nf));
        if (!nf) {
                k = -ENOMEM;
                goto out;
        }
        *nf = (struct ks_file){.path = name,
                               .text = TAKE_PTR(text),
                               .len = len,
                               .dev = st.st_dev,
                               .ino = st.st_ino,
                               .parent = f,
                               .from = l->at};
        k = split_lines(nf, &(struct segment){0, name, 1}, 1);
        r->open_bytes += len;
        if (k >= 0)
                k = state_machine(r, nf);
        r->open_bytes -= len;
        free(nf->text);
        free(nf->lines);
        free(nf);
out:
        r->depth--;
        return k;
}

/* _readSection(): the body of the open section, up to its %end. */
static int read_section(struct ks_reader *r, struct ks_file *f)
{
        const char *obj = r->state;
        bool all_lines = !streq(obj, "%packages");
        const struct ks_line *l;
        int k = 0;

        while (k >= 0 && (l = ks_next(f))) {
                struct si_ks_words w = {};
                const char *end = l->s + l->len, *p, *we;

                if (l->len == 0 && r->depth == 0)
                        return si_ks_error(r->ctx, &r->section_at,
                                           "section %s does not end with %%end (the file ends at "
                                           "line %u)",
                                           obj, l->at.line - 1);
                if (blank_or_comment(l) && !all_lines)
                        continue;
                p = si_py_lstrip(l->s, end);
                if (p == end || *p != '%') {
                        k = r->ops->line ? r->ops->line(r->userdata, &l->at, obj, l->s, l->len) : 0;
                        continue;
                }
                we = py_word_end(p, end);
                if (!section_of(p, we) && !word_is(p, we, "%end") && !word_is(p, we, "%include")) {
                        k = r->ops->line ? r->ops->line(r->userdata, &l->at, obj, l->s, l->len) : 0;
                        continue;
                }
                k = split_line(r, l, false, &w);
                if (k < 0)
                        break;
                if (w.n > 0 && streq(w.argv[0], "%end")) {
                        k = r->ops->end ? r->ops->end(r->userdata, &l->at, obj) : 0;
                        r->state = NULL;
                        si_ks_words_free(&w);
                        break;
                } else if (w.n > 0 && streq(w.argv[0], "%include")) {
                        if (w.n == 1 || !w.argv[1][0])
                                k = si_ks_error(r->ctx, &l->at, "%%include needs a file name");
                        else
                                k = include(r, f, l, w.argv[1]);
                } else if (w.n > 0 && section_of(w.argv[0], w.argv[0] + strlen(w.argv[0]))) {
                        k = si_ks_error(r->ctx, &l->at,
                                        "section %s does not end with %%end before %s (the section "
                                        "opened at %s:%u)",
                                        obj, w.argv[0], r->section_at.file, r->section_at.line);
                }
                /* anything else (say "%end" glued to a non-ASCII blank) is dropped, as there */
                si_ks_words_free(&w);
        }
        return k;
}

/* _stateMachine() over one file. */
static int state_machine(struct ks_reader *r, struct ks_file *f)
{
        const struct ks_line *l;
        bool told = false;
        int k = 0;

        while (k >= 0 && (l = ks_next(f)) && l->len > 0) {
                struct si_ks_words w = {};

                if (blank_or_comment(l))
                        continue;
                k = split_line(r, l, true, &w);
                if (k < 0)
                        break;
                if (w.n == 0) {
                        /* cannot happen: a line that is not blank has a word */
                } else if (streq(w.argv[0], "%include")) {
                        if (w.n == 1 || !w.argv[1][0])
                                k = si_ks_error(r->ctx, &l->at, "%%include needs a file name");
                        else
                                k = include(r, f, l, w.argv[1]);
                } else if (!r->state) {
                        const char *sec = section_of(w.argv[0], w.argv[0] + strlen(w.argv[0]));
                        if (streq(w.argv[0], "%ksappend")) {
                                if (f->parent)
                                        si_warn(r->ctx,
                                                "%s:%u: %%ksappend in an included file is "
                                                "ignored (only the main file's are merged)",
                                                l->at.file, l->at.line);
                        } else if (w.argv[0][0] == '%' && !sec) {
                                k = si_ks_error(r->ctx, &l->at,
                                                "Unknown kickstart section: %s (sections are "
                                                "%%pre, %%pre-install, %%post, %%onerror, "
                                                "%%traceback, %%packages, %%addon, %%anaconda, "
                                                "%%certificate%s)",
                                                w.argv[0],
                                                streq(w.argv[0], "%end") ? "; this %end closes no "
                                                                           "section"
                                                                         : "");
                        } else if (sec) {
                                r->state = sec;
                                r->section_at = l->at;
                                k = r->ops->header
                                        ? r->ops->header(r->userdata, &l->at, w.argv, w.n)
                                        : 0;
                                if (k >= 0)
                                        k = read_section(r, f);
                        } else if (!w.argv[0][0]) {
                                k = si_ks_error(r->ctx, &l->at, "empty command name");
                        } else if (r->ops->command) {
                                k = r->ops->command(r->userdata, &l->at, w.argv, w.n);
                        }
                } else if (r->depth > 0) {
                        f->putback = l;
                        k = read_section(r, f);
                } else if (!told) {
                        /* an included file left a section open: pykickstart reads the rest of
                         * this file without using it */
                        si_warn(r->ctx,
                                "%s:%u: ignored up to the end of the file: section %s opened at "
                                "%s:%u in an included file has no %%end there",
                                l->at.file, l->at.line, r->state, r->section_at.file,
                                r->section_at.line);
                        told = true;
                }
                si_ks_words_free(&w);
        }
        return k;
}

int si_ks_read(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
               const struct si_ks_ops *ops, void *userdata)
{
        struct ks_reader r = {.ctx = ctx, .ops = ops, .userdata = userdata};
        struct ks_file f = {};
        struct stat st = {};
        int k;

        f.path = keep_name(&r, strdup(path));
        if (!f.path)
                return -ENOMEM;
        if (text) {
                f.text = malloc(len + 1);
                if (f.text) {
                        memcpy(f.text, text, len);
                        f.text[len] = '\0';
                }
                f.len = len;
                k = f.text ? 0 : -ENOMEM;
        } else {
                k = read_regular(path, &f.text, &f.len, &st);
                if (k < 0)
                        k = si_error(ctx, k, "Could not read the profile %s: %s", path,
                                     read_error(k));
        }
        f.dev = st.st_dev;
        f.ino = st.st_ino;
        if (k >= 0) {
                char *dir = py_dirname(path);
                if (dir && dir[0] != '/') {
                        char *abs = py_abspath(dir);
                        free(dir);
                        dir = abs;
                }
                r.currentdir[0] = dir;
                k = dir ? check_text(&r, f.path, f.text, f.len) : -ENOMEM;
        }
        if (k >= 0)
                k = ks_preprocess(&r, &f);
        if (k >= 0)
                k = state_machine(&r, &f);
        free(f.text);
        free(f.lines);
        for (size_t i = 0; i < ELEMENTSOF(r.currentdir); i++)
                free(r.currentdir[i]);
        for (size_t i = 0; i < r.nnames; i++)
                free(r.names[i]);
        free(r.names);
        return k;
}
