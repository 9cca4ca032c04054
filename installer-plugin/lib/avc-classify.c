/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc-classify.c — each denial of a log explained by its cause: a file whose label is not the one
 * the target's file contexts give it ("label", fixed by relabeling that file), or the policy
 * itself ("policy": the label is right, the domain lacks the permission). Owns the walk over the
 * log text (a denial waits for auditd's PATH and CWD records of its event) and the verdict and
 * fix of each denial; the report groups them (avc-report.c).
 */
#include <sys/stat.h>

#include "avc.h"
#include "fcontext.h"

/* The type field of a context user:role:type[:range], or NULL. */
static char *context_type(const char *con)
{
        const char *a = strchr(con, ':'), *b, *c;

        if (!a || !(b = strchr(a + 1, ':')))
                return NULL;
        c = strchr(b + 1, ':');
        return c ? strndup(b + 1, (size_t) (c - b - 1)) : strdup(b + 1);
}

static mode_t class_mode(const char *tclass)
{
        static const struct {
                const char *name;
                mode_t mode;
        } t[] = {{"file", S_IFREG},     {"dir", S_IFDIR},      {"lnk_file", S_IFLNK},
                 {"chr_file", S_IFCHR}, {"blk_file", S_IFBLK}, {"sock_file", S_IFSOCK},
                 {"fifo_file", S_IFIFO}};
        for (size_t i = 0; i < ELEMENTSOF(t); i++)
                if (streq(tclass, t[i].name))
                        return t[i].mode;
        return 0;
}

/* Types a file has only when it was never labeled or its label means nothing to the policy. */
static bool unlabeled_type(const char *type)
{
        return type && (streq(type, "unlabeled_t") || streq(type, "file_t"));
}

/* ---- classification --------------------------------------------------------------------- */

struct classifier {
        struct seinstall_ctx *ctx;
        struct si_fcontext *fc;
        struct si_fc_scratch *scratch;
        struct si_avc_locator *locator;
        bool live; /* the log is this system's: names may be searched by device and inode */
};

static int classify(struct classifier *c, const struct si_avc *a, struct si_avc_group *g)
{
        _cleanup_free_ char *path = NULL;
        mode_t mode = class_mode(a->tclass);
        const char *want = NULL;
        int r;

        g->cause = SEINSTALL_AVC_CAUSE_POLICY;
        if (!(g->domain = context_type(a->scontext)) || !(g->type = context_type(a->tcontext)))
                return -EBADMSG;
        if (a->path)
                path = strdup(a->path);
        else if (mode && a->name && a->dev && a->has_ino && c->locator) {
                r = si_avc_locate(c->locator, a->dev, a->name, a->ino, &path);
                if (r == -ENOMEM)
                        return r;
        }
        if (mode && path && c->fc) {
                r = si_fcontext_lookup(c->fc, c->scratch, path, mode, &want);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 && r != -EPROTO)
                        want = NULL;
        }
        if (want) {
                _cleanup_free_ char *wtype = context_type(want);
                if (wtype && !streq(wtype, g->type)) {
                        g->cause = SEINSTALL_AVC_CAUSE_LABEL;
                        if (!(g->expected = strdup(want)))
                                return -ENOMEM;
                }
        } else if (unlabeled_type(g->type)) {
                g->cause = SEINSTALL_AVC_CAUSE_LABEL;
        }
        /* commands for the tree the labels were judged by: the same --root */
        if (g->cause == SEINSTALL_AVC_CAUSE_LABEL) {
                g->fix = path ? shell_relabel_command(c->ctx->root, path)
                              : shell_command(c->ctx->root, "seinstall verify%r --fix");
                if (!g->fix)
                        return -ENOMEM;
        }
        g->path = TAKE_PTR(path);
        return 0;
}

/* Add denial @a to the report (avc-report.c groups it). */
static int report_add(struct classifier *c, struct seinstall_avc_result *rep,
                      const struct si_avc *a)
{
        struct si_avc_group g = {0};
        int r = classify(c, a, &g);

        if (r < 0) {
                si_avc_group_done(&g);
                /* a context without a type: not a denial we can explain, counted only */
                return r == -EBADMSG ? si_avc_report_add(rep, a, NULL) : r;
        }
        return si_avc_report_add(rep, a, &g);
}

/* An auditd CWD or PATH record @x of the same event as the waiting denial @a: a name= denial
 * becomes a path when a PATH item names the same inode. */
static int merge_aux(struct si_avc *a, struct si_avc *x)
{
        if (x->kind == SI_AVC_CWD) {
                free(a->cwd);
                a->cwd = TAKE_PTR(x->cwd);
                return 0;
        }
        if (a->path || !x->path || !a->has_ino || !x->has_ino || x->ino != a->ino)
                return 0;
        if (x->path[0] == '/') {
                a->path = TAKE_PTR(x->path);
        } else if (a->cwd && a->cwd[0] == '/') {
                a->path = path_join(a->cwd, x->path);
                if (!a->path)
                        return -ENOMEM;
        }
        return 0;
}

int si_avc_classify_text(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *text,
                         size_t len, unsigned long long since, bool live,
                         struct seinstall_avc_result *rep)
{
        struct classifier c = {.ctx = ctx, .fc = fc, .live = live};
        struct si_avc pending = {0};
        const char *pos = text, *line;
        size_t n;
        int r = 0;

        if (fc && (r = si_fc_scratch_new(fc, &c.scratch)) < 0)
                return r;
        if (live && !(c.locator = si_avc_locator_new(SI_AVC_SEARCH_BUDGET))) {
                si_fc_scratch_free(c.scratch);
                return -ENOMEM;
        }
        /* auditd writes an event's AVC records before its SYSCALL, CWD and PATH records: a
         * denial waits for them until the next denial or the end */
        while (r >= 0 && next_line(&pos, text + len, &line, &n)) {
                struct si_avc a = {0};

                r = si_avc_parse_line(line, n, &a);
                if (r <= 0)
                        continue;
                if (since && a.stamp && strtoull(a.stamp, NULL, 10) < since) {
                        si_avc_done(&a);
                        continue;
                }
                if (a.kind != SI_AVC_DENIAL) {
                        if (pending.tcontext && a.stamp && streq_ptr(a.stamp, pending.stamp))
                                r = merge_aux(&pending, &a);
                        si_avc_done(&a);
                        continue;
                }
                if (pending.tcontext)
                        r = report_add(&c, rep, &pending);
                si_avc_done(&pending);
                pending = a;
        }
        if (r >= 0 && pending.tcontext)
                r = report_add(&c, rep, &pending);
        si_avc_done(&pending);
        si_avc_report_set_skipped(rep, si_avc_locator_skipped(c.locator));
        si_avc_locator_free(c.locator);
        si_fc_scratch_free(c.scratch);
        return r < 0 ? r : 0;
}
