/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-shlex.c — one line split into words as Python's shlex.split(line, comments) splits it
 * (POSIX mode): pykickstart splits every command line this way before it knows the command, and
 * Anaconda splits the boot options so.
 */
#include "kickstart-internal.h"

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
        if (w->n >= KS_WORDS_MAX)
                return -E2BIG;
        if (!SI_GROW(w->off, w->cap_off, w->n + 1) || !SI_GROW(w->pos, w->cap_pos, w->n + 1))
                return -ENOMEM;
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
