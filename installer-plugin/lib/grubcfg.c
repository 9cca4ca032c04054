/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * grubcfg.c — the default entry of a grub.cfg and the kernel arguments its `linux` line passes:
 * what GRUB boots, as opposed to what /etc/default/grub says it should. A small bounded reader
 * of what grub-mkconfig writes, not a GRUB script interpreter: menuentry and submenu blocks
 * (braces on their own lines or at the end of the opening line), `set default=` outside them,
 * and the saved_entry of grubenv. Variables are not expanded.
 */
#include <limits.h>

#include "bootmenu.h"

#define GRUBCFG_ENTRIES_MAX 4096
#define GRUBCFG_DEPTH_MAX   32

struct node {
        char *title;
        char *id;
        char *cmdline; /* the arguments of its first linux line; NULL: none (or a submenu) */
        int parent;    /* index of the submenu holding it, -1 at the top */
        bool submenu;
};

struct parse {
        struct node *nodes;
        size_t n, cap;
        int stack[GRUBCFG_DEPTH_MAX]; /* node index of each open block, -1 for other blocks */
        size_t depth;
        char *dflt; /* the last `set default=` at the top, unquoted */
        bool blscfg;
};

static void parse_done(struct parse *p)
{
        for (size_t i = 0; i < p->n; i++) {
                free(p->nodes[i].title);
                free(p->nodes[i].id);
                free(p->nodes[i].cmdline);
        }
        free(p->nodes);
        free(p->dflt);
}

/* The next word of [*pos, end) unquoted into @out (GRUB's quoting: '...' literal, "..." with
 * backslash escapes, a backslash outside quotes escapes the next byte). False at the end. */
static bool next_word(const char **pos, const char *end, struct sbuf *out, int *r)
{
        const char *p = *pos;
        char q = 0;

        sbuf_free(out);
        while (p < end && (*p == ' ' || *p == '\t'))
                p++;
        if (p >= end) {
                *pos = p;
                return false;
        }
        *r = sbuf_puts(out, "");
        for (; *r >= 0 && p < end && (q || (*p != ' ' && *p != '\t')); p++) {
                if (!q && (*p == '\'' || *p == '"')) {
                        q = *p;
                        continue;
                }
                if (q && *p == q) {
                        q = 0;
                        continue;
                }
                if (*p == '\\' && q != '\'' && p + 1 < end)
                        p++;
                *r = sbuf_append(out, p, 1);
        }
        *pos = p;
        return *r >= 0;
}

static int add_node(struct parse *p, const char *line, const char *end, bool submenu)
{
        struct sbuf w = {};
        struct node *n;
        int r = 0;

        if (p->n >= GRUBCFG_ENTRIES_MAX)
                return -E2BIG;
        if (!SI_GROW(p->nodes, p->cap, p->n + 1))
                return -ENOMEM;
        n = &p->nodes[p->n];
        *n = (struct node){.parent = -1, .submenu = submenu};
        for (size_t d = p->depth; d > 0; d--)
                if (p->stack[d - 1] >= 0) {
                        n->parent = p->stack[d - 1];
                        break;
                }
        p->n++;
        /* menuentry TITLE [--class C]... [--id ID | $menuentry_id_option ID] { */
        if (next_word(&line, end, &w, &r))
                n->title = sbuf_steal(&w);
        while (r >= 0 && next_word(&line, end, &w, &r)) {
                if (!streq(w.s, "--id") && !streq(w.s, "$menuentry_id_option"))
                        continue;
                if (next_word(&line, end, &w, &r) && !n->id)
                        n->id = sbuf_steal(&w);
        }
        sbuf_free(&w);
        return r; /* an entry without a title is matched by number only */
}

/* The innermost open menuentry (not a submenu), or -1. */
static int open_entry(const struct parse *p)
{
        for (size_t d = p->depth; d > 0; d--)
                if (p->stack[d - 1] >= 0)
                        return p->nodes[p->stack[d - 1]].submenu ? -1 : p->stack[d - 1];
        return -1;
}

static int push(struct parse *p, int node)
{
        if (p->depth >= GRUBCFG_DEPTH_MAX)
                return -EBADMSG;
        p->stack[p->depth++] = node;
        return 0;
}

static bool ends_with_brace(const char *s, size_t n)
{
        n = strip_range(&s, n);
        return n > 0 && s[n - 1] == '{';
}

/* The length of the command at @s: up to an unquoted ';' (GRUB's separator) or @end. */
static size_t command_len(const char *s, const char *end)
{
        char q = 0;

        for (const char *c = s; c < end; c++) {
                if (q ? *c == q : *c == '\'' || *c == '"')
                        q = q ? 0 : *c;
                else if (!q && *c == ';')
                        return strip_range(&s, (size_t) (c - s));
        }
        return (size_t) (end - s);
}

static int parse_line(struct parse *p, const char *line, size_t len)
{
        _cleanup_(sbuf_free) struct sbuf cmd = {};
        const char *end, *rest;
        int r = 0, e;

        len = strip_range(&line, len);
        end = line + len;
        rest = line;
        if (line == end || *line == '#')
                return 0;
        if (!next_word(&rest, end, &cmd, &r))
                return r;
        if (streq(cmd.s, "}")) {
                if (p->depth > 0)
                        p->depth--;
                return 0;
        }
        if (streq(cmd.s, "menuentry") || streq(cmd.s, "submenu")) {
                const char *brace = memchr(rest, '{', (size_t) (end - rest));
                r = add_node(p, rest, end, streq(cmd.s, "submenu"));
                if (r >= 0)
                        r = push(p, (int) p->n - 1);
                /* a whole entry on one line: "menuentry 'T' { linux /vmlinuz ARGS }" */
                if (r >= 0 && brace && end[-1] == '}' && end - 1 > brace) {
                        r = parse_line(p, brace + 1, (size_t) (end - 1 - (brace + 1)));
                        p->depth--;
                }
                return r;
        }
        if (streq(cmd.s, "blscfg")) {
                p->blscfg = true;
                return 0;
        }
        e = open_entry(p);
        if (e >= 0 && !p->nodes[e].cmdline &&
            (streq(cmd.s, "linux") || streq(cmd.s, "linuxefi") || streq(cmd.s, "linux16"))) {
                _cleanup_(sbuf_free) struct sbuf kernel = {};
                if (!next_word(&rest, end, &kernel, &r))
                        return r;
                while (rest < end && (*rest == ' ' || *rest == '\t'))
                        rest++;
                p->nodes[e].cmdline = strndup(rest, command_len(rest, end));
                return p->nodes[e].cmdline ? 0 : -ENOMEM;
        }
        if (p->depth == 0 && streq(cmd.s, "set")) {
                _cleanup_(sbuf_free) struct sbuf a = {};
                const char *v;
                if (!next_word(&rest, end, &a, &r) || !(v = startswith(a.s, "default=")))
                        return r;
                /* a one-time next_entry is not what the next normal boot gets */
                if (streq(v, "${next_entry}") || streq(v, "$next_entry"))
                        return 0;
                free(p->dflt);
                p->dflt = strdup(v);
                return p->dflt ? 0 : -ENOMEM;
        }
        /* another block (function, if with braces): its braces count, its lines do not */
        if (ends_with_brace(line, (size_t) (end - line)))
                return push(p, -1);
        return 0;
}

static bool all_digits(const char *s)
{
        if (!*s)
                return false;
        for (; *s; s++)
                if (*s < '0' || *s > '9')
                        return false;
        return true;
}

/* The child of @parent named by @part (a number, a title or an id), or -1. */
static int find_child(const struct parse *p, int parent, const char *part)
{
        unsigned long want = all_digits(part) ? strtoul(part, NULL, 10) : ULONG_MAX;
        unsigned long k = 0;

        for (size_t i = 0; i < p->n; i++) {
                if (p->nodes[i].parent != parent)
                        continue;
                if (want != ULONG_MAX
                        ? k == want
                        : streq_ptr(p->nodes[i].title, part) || streq_ptr(p->nodes[i].id, part))
                        return (int) i;
                k++;
        }
        return -1;
}

/* Resolve "A>B>C" from the top. -1 when a part names nothing. */
static int resolve(const struct parse *p, const char *spec)
{
        _cleanup_free_ char *s = strdup(spec);
        int node = -1;

        if (!s)
                return -2;
        for (char *part = s, *next; part; part = next) {
                next = strchr(part, '>');
                if (next)
                        *next++ = '\0';
                node = find_child(p, node, part);
                if (node < 0)
                        return -1;
        }
        return node;
}

void si_grubcfg_entry_done(struct si_grubcfg_entry *e)
{
        free(e->title);
        free(e->cmdline);
        free(e->chosen_arg);
        *e = (struct si_grubcfg_entry){};
}

static int choose(const struct parse *p, const char *saved, struct si_grubcfg_entry *ret)
{
        const char *spec = p->dflt && *p->dflt ? p->dflt : "0";
        int node;

        if (streq(spec, "${saved_entry}") || streq(spec, "$saved_entry")) {
                spec = saved && *saved ? saved : "0";
                ret->chosen_fmt = saved && *saved
                                      ? N_("saved_entry '%s' of grubenv")
                                      : N_("the first menuentry (no saved_entry in grubenv)");
        } else if (streq(spec, "0")) {
                ret->chosen_fmt = N_("the first menuentry");
        } else {
                ret->chosen_fmt = N_("set default=\"%s\"");
        }
        ret->chosen_arg = strdup(spec);
        if (!ret->chosen_arg)
                return -ENOMEM;
        node = resolve(p, spec);
        if (node == -2)
                return -ENOMEM;
        if (node < 0) {
                /* GRUB falls back to the first entry when its default names none */
                ret->chosen_fmt = N_("the first menuentry ('%s' names no entry)");
                node = find_child(p, -1, "0");
        }
        /* a submenu as the default: GRUB opens it; its first entry is what boots */
        while (node >= 0 && p->nodes[node].submenu)
                node = find_child(p, node, "0");
        if (node < 0)
                return -ENOENT;
        if (p->nodes[node].title && !(ret->title = strdup(p->nodes[node].title)))
                return -ENOMEM;
        if (p->nodes[node].cmdline && !(ret->cmdline = strdup(p->nodes[node].cmdline)))
                return -ENOMEM;
        return 0;
}

int si_grubcfg_default(const char *text, size_t len, const char *saved,
                       struct si_grubcfg_entry *ret)
{
        const char *pos = text, *end = text + len, *line;
        struct parse p = {};
        struct si_grubcfg_entry e = {};
        size_t ll;
        int r = 0;

        while (r >= 0 && next_line(&pos, end, &line, &ll))
                r = parse_line(&p, line, ll);
        if (r >= 0 && p.n == 0)
                r = p.blscfg ? -EMEDIUMTYPE : -ENOENT;
        if (r >= 0)
                r = choose(&p, saved, &e);
        parse_done(&p);
        if (r < 0) {
                si_grubcfg_entry_done(&e);
                return r;
        }
        *ret = e;
        return 0;
}
