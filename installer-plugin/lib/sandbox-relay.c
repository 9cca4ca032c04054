/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-relay.c — the output of a program of the target (update-grub in its sandbox, the
 * policy build's helper) on its way to the log: line by line, escaped by the front end, each
 * line and the whole bounded, what is left out counted and said at the end.
 */
#include "seinstall-private.h"
#include "sandbox.h"

/* One line of the program's output, through the log as it came (NULs aside): the front end
 * escapes it for its terminal (seinstall's cli_esc(): \e, \x07, a backslash as \\) or its
 * JSON exactly once, as it does every other message naming something of the target. */
static void relay_line(struct seinstall_ctx *ctx, struct si_relay *r)
{
        if (r->shown >= SI_RELAY_MAX || r->lines >= SI_RELAY_LINES) {
                r->hidden += r->line.len + r->line_cut + 1;
        } else {
                const char *text = r->line.s ? r->line.s : "";
                char *last = strdup(text);

                r->lines++;
                si_log(ctx, SEINSTALL_LOG_NOTICE, "%s: %s%s", r->name, text,
                       r->line_cut ? " [line cut]" : "");
                if (last) {
                        free(r->last);
                        r->last = last;
                }
                r->shown += r->line.len + 1;
                r->hidden += r->line_cut;
        }
        sbuf_free(&r->line);
        r->line_cut = 0;
}

void si_relay_feed(struct seinstall_ctx *ctx, struct si_relay *r, const char *buf, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                if (buf[i] == '\n') {
                        relay_line(ctx, r);
                        continue;
                }
                if (r->line.len >= SI_RELAY_LINE_MAX || r->shown >= SI_RELAY_MAX ||
                    r->lines >= SI_RELAY_LINES) {
                        r->line_cut++;
                        continue;
                }
                /* A NUL would end the line early: U+FFFD, as for a byte that is not text. */
                if (buf[i] == '\0' ? sbuf_puts(&r->line, "\xef\xbf\xbd") < 0
                                   : sbuf_append(&r->line, buf + i, 1) < 0)
                        r->line_cut++;
        }
}

void si_relay_end(struct seinstall_ctx *ctx, struct si_relay *r)
{
        if (r->line.len || r->line_cut)
                relay_line(ctx, r);
        if (r->hidden)
                si_log(ctx, SEINSTALL_LOG_NOTICE,
                       "%s: %zu more bytes of output not shown (seinstall shows the first %u lines "
                       "or %u bytes)",
                       r->name, r->hidden, SI_RELAY_LINES, SI_RELAY_MAX);
        sbuf_free(&r->line);
}
