/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model-denials.c — this boot's SELinux denials as the first-boot screen tells them before the
 * person picks a mode: how many, how many a wrong label caused and on which files, and what
 * relabeling those files did. The judging is the library's (seinstall_avc_read(), the same
 * classifier as `seinstall avc`); the relabel is the library's too (seinstall_verify_paths()
 * with SEINSTALL_VERIFY_FIX, called by main.c). Here only the texts are made, so the unit
 * tests check them without a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firstboot.h"

bool fb_state_permissive_now(const struct fb_state *st)
{
        return st->running && st->active && !st->enforce_now;
}

void fb_denials_done(struct fb_denials *d)
{
        for (size_t i = 0; i < d->n_paths; i++)
                free(d->paths[i]);
        free(d->paths);
        free(d->message);
        free(d->relabel_text);
        *d = (struct fb_denials){};
}

static bool has_path(const struct fb_denials *d, const char *path)
{
        for (size_t i = 0; i < d->n_paths; i++)
                if (strcmp(d->paths[i], path) == 0)
                        return true;
        return false;
}

int fb_denials_from_report(const struct seinstall_avc_result *rep, struct fb_denials *ret)
{
        _cleanup_(fb_denials_done) struct fb_denials d = {.read = true};
        size_t n = seinstall_avc_result_get_n_groups(rep), cap = 0;

        d.n_denials = seinstall_avc_result_get_n_denials(rep);
        d.n_label = seinstall_avc_result_get_n_label(rep);
        for (size_t i = 0; i < n; i++) {
                const char *path =
                    seinstall_avc_result_get_group_field(rep, i, SEINSTALL_AVC_FIELD_PATH);

                /* only a file named by its full path can be relabeled */
                if (seinstall_avc_result_get_group_cause(rep, i) != SEINSTALL_AVC_CAUSE_LABEL ||
                    !path || path[0] != '/' || has_path(&d, path))
                        continue;
                if (!SI_GROW(d.paths, cap, d.n_paths + 1))
                        return -ENOMEM;
                d.paths[d.n_paths] = strdup(path);
                if (!d.paths[d.n_paths])
                        return -ENOMEM;
                d.n_paths++;
        }
        *ret = d;
        d = (struct fb_denials){};
        return 0;
}

DEFINE_CLEANUP_FUNC(struct seinstall_avc_result *, seinstall_avc_result_unref)

int fb_denials_read(struct seinstall_ctx *ctx, const char *log, struct fb_denials *ret)
{
        _cleanup_(seinstall_avc_result_unrefp) struct seinstall_avc_result *rep = NULL;
        const char *msg;
        int r;

        r = seinstall_avc_read(ctx, log, &rep);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                struct fb_denials d = {.read = true, .error = r};
                msg = seinstall_last_error(ctx);
                if (msg && !(d.message = strdup(msg)))
                        return -ENOMEM;
                *ret = d;
                return 0;
        }
        return fb_denials_from_report(rep, ret);
}

bool fb_denials_offer(const struct fb_denials *d)
{
        return d->read && !d->error && d->n_paths > 0;
}

/* The text of the memstream @f, or NULL (on ENOMEM) when it cannot be closed. */
static char *stream_done(FILE *f, char **buf)
{
        if (fclose(f) != 0) {
                free(*buf);
                return NULL;
        }
        return *buf;
}

/* "12 SELinux denials, 3 caused by labels" */
static void print_counts(FILE *f, const struct fb_denials *d)
{
        fprintf(f, ngettext("%zu SELinux denial, ", "%zu SELinux denials, ", d->n_denials),
                d->n_denials);
        if (d->n_label == 0)
                fputs(_("none caused by a label"), f);
        else
                fprintf(f, ngettext("%zu caused by a label", "%zu caused by labels", d->n_label),
                        d->n_label);
}

char *fb_denials_line(const struct fb_denials *d)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f;

        if (!d->read)
                return strdup("");
        f = open_memstream(&buf, &len);
        if (!f)
                return NULL;
        /* each fits the 70 columns of the screen's state line */
        if (d->error)
                fprintf(f, _("This boot: SELinux denials not readable (%s)."), strerror(-d->error));
        else if (d->n_denials == 0)
                fputs(_("This boot: no SELinux denials."), f);
        else {
                fputs(_("This boot: "), f);
                print_counts(f, d);
                fputs(d->relabeled ? _(" (relabeled).") : ".", f);
        }
        return stream_done(f, &buf);
}

char *fb_denials_text(const struct fb_denials *d, size_t max_paths)
{
        size_t shown = d->n_paths < max_paths ? d->n_paths : max_paths;
        char *buf = NULL;
        size_t len = 0;
        FILE *f;

        if (!fb_denials_offer(d))
                return fb_denials_line(d);
        f = open_memstream(&buf, &len);
        if (!f)
                return NULL;
        fputs(_("This boot logged "), f);
        print_counts(f, d);
        fputs(".\n", f);
        fputs(ngettext("The file with a wrong label:\n", "The files with a wrong label:\n",
                       d->n_paths),
              f);
        for (size_t i = 0; i < shown; i++) {
                _cleanup_free_ char *esc = str_escape_display(d->paths[i]);
                fprintf(f, "  %s\n", esc ? esc : "?");
        }
        if (shown < d->n_paths)
                fprintf(f, _("  and %zu more\n"), d->n_paths - shown);
        fputs(ngettext("Relabeling it gives it the label the policy's file contexts assign; "
                       "nothing else changes.",
                       "Relabeling them gives each the label the policy's file contexts "
                       "assign; nothing else changes.",
                       d->n_paths),
              f);
        return stream_done(f, &buf);
}

char *fb_denials_relabel_text(const struct fb_denials *d, int r,
                              const struct seinstall_verify_result *vr, const char *message)
{
        const struct seinstall_relabel_result *rr = seinstall_verify_result_get_relabel(vr);
        unsigned long long checked, mismatched, fixed, errors, same;
        size_t skipped = seinstall_relabel_result_get_n_skipped(rr);
        const char *first = seinstall_relabel_result_get_error(rr, 0);
        _cleanup_free_ char *esc = NULL;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return NULL;
        if (!vr) {
                esc = message ? str_escape_display(message) : NULL;
                fprintf(f, _("The files could not be relabeled: %s"),
                        esc ? esc : strerror(r < 0 ? -r : EINVAL));
                return stream_done(f, &buf);
        }
        checked = seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_CHECKED);
        mismatched = seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_MISMATCHED);
        fixed = seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_FIXED);
        errors = seinstall_verify_result_get_count(vr, SEINSTALL_VERIFY_COUNT_ERRORS);
        same = checked > mismatched ? checked - mismatched : 0;
        if (fixed > 0)
                fprintf(f, _("Relabeled %llu of the %zu files."), fixed, d->n_paths);
        else
                fputs(_("No file was relabeled."), f);
        if (same > 0)
                fprintf(f,
                        ngettext(" %llu already had its label.", " %llu already had their labels.",
                                 same),
                        same);
        if (errors > 0) {
                esc = first ? str_escape_display(first) : NULL;
                fprintf(f,
                        ngettext(" %llu could not be relabeled: %s.",
                                 " %llu could not be relabeled; the first: %s.", errors),
                        errors, esc ? esc : "?");
        }
        if (skipped > 0) {
                /* the first one, and why the engine would not write there */
                const char *mp = seinstall_relabel_result_get_skipped_mountpoint(rr, 0);
                const char *reason = seinstall_relabel_result_get_skipped_reason(rr, 0);
                _cleanup_free_ char *where = str_escape_display(mp ? mp : "?");
                _cleanup_free_ char *why = str_escape_display(reason ? reason : "?");
                fprintf(f,
                        ngettext(" %zu left alone: %s: %s.", " %zu left alone; the first: %s: %s.",
                                 skipped),
                        skipped, where ? where : "?", why ? why : "?");
        }
        return stream_done(f, &buf);
}
