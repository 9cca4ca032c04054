/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-lex.c — the kickstart reader's state machine: walks a kickstart file, the %ksappend
 * files merged into it and the %include files it pulls in, and hands commands, section headers,
 * section lines and section ends to a caller (profile.c gives them a meaning). It follows
 * pykickstart 3.74's parser.py (KickstartParser._stateMachine, _readSection, _handleInclude,
 * readKickstart, and preprocessKickstart as ksvalidator and Anaconda's initramfs run it) step by
 * step, because the verdict on odd files comes from those exact steps: lines end where Python's
 * str.splitlines() ends them (the break stays part of the line), every line outside a section is
 * split with shlex before its command is known, a line inside a section only when its first word is
 * %end, %include or a section name. Deliberate differences (seinstall.ks(5)): NUL bytes are
 * refused; a missing %include file is a warning; an include cycle, or more than KS_DEPTH_MAX
 * levels, is an error naming the chain; a read past its budget (KS_READ_FILES_MAX files,
 * KS_READ_BYTES_MAX bytes in all, kickstart-file.c) is an error naming the line that spends it.
 * The reader's other parts: kickstart-text.c (Python's text rules), kickstart-shlex.c (shlex),
 * kickstart-file.c (files, lines and %ksappend), kickstart-path.c (where an %include file is).
 */
#include <sys/stat.h>

#include "kickstart-internal.h"

/* The sections pykickstart's KickstartParser.setupSections() registers. */
static const char *const ks_sections[] = {
    "%certificate", "%pre",      "%pre-install", "%post",     "%onerror",
    "%traceback",   "%packages", "%addon",       "%anaconda",
};

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
        k = si_ks_resolve(r, arg, &path);
        if (k < 0)
                goto out;
        if (strstr(path, "://")) {
                si_warn(r->ctx,
                        "%s:%u: %%include %s not followed: seinstall reads only local files "
                        "(Anaconda fetches it)",
                        l->at.file, l->at.line, path);
                goto out;
        }
        k = si_ks_read_budgeted(r, &l->at, "%include", path, &text, &len, &st);
        if (k == -EBADMSG)
                goto out;
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
                                si_ks_read_error(k));
                goto out;
        }
        for (const struct ks_file *p = f; p; p = p->parent)
                if (p->dev == st.st_dev && p->ino == st.st_ino) {
                        c = chain(f, &l->at, path);
                        k = si_ks_error(r->ctx, &l->at, "%%include cycle: %s", c ? c : path);
                        goto out;
                }
        name = si_ks_keep_name(r, TAKE_PTR(path));
        k = name ? si_ks_check_text(r->ctx, name, text, len) : -ENOMEM;
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
        k = state_machine(r, nf);
        free(nf->text);
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

        while (k >= 0 && (l = si_ks_next_line(f))) {
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
                we = si_py_word_end(p, end);
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

        while (k >= 0 && (l = si_ks_next_line(f)) && l->len > 0) {
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
                        f->putback = true; /* l is f's line returned last */
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

        f.path = si_ks_keep_name(&r, strdup(path));
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
                k = si_ks_read_regular(path, &f.text, &f.len, &st);
                if (k < 0)
                        k = si_error(ctx, k, "Could not read the profile %s: %s", path,
                                     si_ks_read_error(k));
        }
        f.dev = st.st_dev;
        f.ino = st.st_ino;
        /* the main file is the budget's first charge */
        r.files = 1;
        r.bytes = f.len;
        if (k >= 0) {
                char *dir = si_ks_dir_abs(path);
                r.currentdir[0] = dir;
                k = dir ? si_ks_check_text(ctx, f.path, f.text, f.len) : -ENOMEM;
        }
        if (k >= 0)
                k = si_ks_preprocess(&r, &f);
        if (k >= 0)
                k = state_machine(&r, &f);
        free(f.text);
        free(f.seg);
        for (size_t i = 0; i < ELEMENTSOF(r.currentdir); i++)
                free(r.currentdir[i]);
        for (size_t i = 0; i < r.nnames; i++)
                free(r.names[i]);
        free(r.names);
        return k;
}
