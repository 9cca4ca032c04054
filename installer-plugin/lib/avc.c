/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc.c — this boot's AVC denials, each explained by its cause: a file whose label is not the
 * one the target's file contexts give it ("label", fixed by relabeling that file), or the
 * policy itself ("policy": the label is right, the domain lacks the permission).
 *
 * Reads the lines the kernel and auditd write (security/selinux/avc.c avc_audit_pre/post_callback
 * and security/lsm_audit.c dump_common_audit_data, as kernel printk, /dev/kmsg, journal, or
 * auditd's log with its PATH and CWD records of the same event; userspace USER_AVC with its
 * msg='...'). Values the kernel logs as untrusted strings (comm, name, path, ...) come quoted,
 * or hex-encoded without quotes when they hold a space, a quote or a control byte.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "configure.h"
#include "fcontext.h"
#include "seinstall-private.h"

#define AVC_LOG_MAX     (256u << 20) /* a saved log or audit.log: auditd rotates at 8 MiB */
#define AVC_SEARCH_MAX  200000u      /* entries a dev/ino search may visit */
#define AVC_MAX_DENIALS 100000u      /* distinct groups kept; more are counted only */

void si_avc_done(struct si_avc *a)
{
        free(a->perms);
        free(a->comm);
        free(a->name);
        free(a->path);
        free(a->dev);
        free(a->scontext);
        free(a->tcontext);
        free(a->tclass);
        free(a->stamp);
        free(a->cwd);
        *a = (struct si_avc){0};
}

static bool is_hex(const char *s, size_t n)
{
        if (n == 0 || n % 2)
                return false;
        for (size_t i = 0; i < n; i++)
                if (!isxdigit((unsigned char) s[i]))
                        return false;
        return true;
}

static int hexval(char c)
{
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* A value as the kernel logs an untrusted string: "quoted", or hex when it needed escaping. */
static char *untrusted_value(const char *v, size_t n, bool quoted)
{
        char *s;

        if (quoted || !is_hex(v, n))
                return strndup(v, n);
        s = malloc(n / 2 + 1);
        if (!s)
                return NULL;
        for (size_t i = 0; i < n / 2; i++)
                s[i] = (char) (hexval(v[2 * i]) << 4 | hexval(v[2 * i + 1]));
        s[n / 2] = '\0';
        if (memchr(s, '\0', n / 2)) { /* not text: keep what was logged */
                free(s);
                return strndup(v, n);
        }
        return s;
}

/* Find @word in [s, end) as a token start (at s or after a blank, ';', '\'' or '('). */
static const char *find_token(const char *s, const char *end, const char *word)
{
        size_t n = strlen(word);

        for (const char *p = s; p + n <= end; p++) {
                if (memcmp(p, word, n) != 0)
                        continue;
                if (p == s || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ';' || p[-1] == '\'' ||
                    p[-1] == ':')
                        return p;
        }
        return NULL;
}

/* The audit(SECONDS.MILLIS:SERIAL) stamp of the record, if any. */
static char *find_stamp(const char *s, const char *end)
{
        const char *p = find_token(s, end, "audit("), *q;

        if (!p) {
                p = find_token(s, end, "msg=audit(");
                if (!p)
                        return NULL;
                p += 4;
        }
        p += 6;
        for (q = p; q < end && *q != ')'; q++)
                if (!isdigit((unsigned char) *q) && *q != '.' && *q != ':')
                        return NULL;
        if (q == end || q == p)
                return NULL;
        return strndup(p, (size_t) (q - p));
}

struct kv {
        const char *key, *val;
        size_t klen, vlen;
        bool quoted;
};

/* Next key=value of a record from *pos; false at the end. Unquoted values end at a blank;
 * quoted ones at the closing quote. Words without '=' are skipped. */
static bool next_kv(const char **pos, const char *end, struct kv *kv)
{
        const char *p = *pos;

        for (;;) {
                while (p < end && (*p == ' ' || *p == '\t'))
                        p++;
                if (p >= end)
                        return false;
                const char *k = p;
                while (p < end && *p != '=' && *p != ' ' && *p != '\t')
                        p++;
                if (p >= end || *p != '=') {
                        continue; /* a bare word */
                }
                kv->key = k;
                kv->klen = (size_t) (p - k);
                p++;
                if (p < end && (*p == '"' || *p == '\'')) {
                        char q = *p++;
                        kv->val = p;
                        while (p < end && *p != q)
                                p++;
                        kv->vlen = (size_t) (p - kv->val);
                        kv->quoted = true;
                        if (p < end)
                                p++;
                } else {
                        kv->val = p;
                        while (p < end && *p != ' ' && *p != '\t')
                                p++;
                        kv->vlen = (size_t) (p - kv->val);
                        kv->quoted = false;
                }
                *pos = p;
                return true;
        }
}

static bool key_is(const struct kv *kv, const char *key)
{
        return kv->klen == strlen(key) && memcmp(kv->key, key, kv->klen) == 0;
}

static int set_str(char **dst, const struct kv *kv, bool untrusted)
{
        char *s =
            untrusted ? untrusted_value(kv->val, kv->vlen, kv->quoted) : strndup(kv->val, kv->vlen);
        if (!s)
                return -ENOMEM;
        free(*dst);
        *dst = s;
        return 0;
}

/* auditd PATH and CWD records: what a name= denial of the same event needs to be a path. */
static int parse_aux(const char *p, const char *end, bool cwd, struct si_avc *a)
{
        struct kv kv;
        int r;

        while (next_kv(&p, end, &kv)) {
                if (cwd && key_is(&kv, "cwd")) {
                        if ((r = set_str(&a->cwd, &kv, true)) < 0)
                                return r;
                } else if (!cwd && key_is(&kv, "name")) {
                        if ((r = set_str(&a->path, &kv, true)) < 0)
                                return r;
                } else if (!cwd && key_is(&kv, "inode")) {
                        a->ino = strtoull(kv.val, NULL, 10);
                        a->has_ino = true;
                }
        }
        return 0;
}

int si_avc_parse_line(const char *line, size_t len, struct si_avc *ret)
{
        const char *end = line + len, *p, *q;
        struct si_avc a = {0};
        struct kv kv;
        int r = -ENOMEM;

        if (memchr(line, '\0', len))
                return 0; /* not text (the log readers refuse such files anyway) */
        /* auditd's enriched format appends interpreted fields after a GS byte */
        q = memchr(line, 0x1d, len);
        if (q)
                end = q;
        while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
                end--;

        p = find_token(line, end, "avc:");
        if (!p) {
                bool cwd = find_token(line, end, "type=CWD") != NULL;
                if (!cwd && !find_token(line, end, "type=PATH"))
                        return 0;
                a.kind = cwd ? SI_AVC_CWD : SI_AVC_PATH;
                a.stamp = find_stamp(line, end);
                if (!a.stamp)
                        return 0;
                p = memmem(line, (size_t) (end - line), "audit(", 6);
                p = p ? memchr(p, ')', (size_t) (end - p)) : NULL;
                if (!p)
                        goto not_avc;
                r = parse_aux(p + 1, end, cwd, &a);
                if (r < 0)
                        goto fail;
                *ret = a;
                return 1;
        }
        a.kind = SI_AVC_DENIAL;
        a.stamp = find_stamp(line, p);
        p += 4;
        while (p < end && *p == ' ')
                p++;
        if (end - p >= 6 && memcmp(p, "denied", 6) == 0)
                p += 6;
        else
                goto not_avc; /* "granted" (auditallow) and anything else */
        while (p < end && *p == ' ')
                p++;
        if (p >= end || *p != '{')
                goto not_avc;
        q = memchr(p, '}', (size_t) (end - p));
        if (!q)
                goto not_avc;
        {
                const char *s = p + 1, *e = q;
                while (s < e && *s == ' ')
                        s++;
                while (e > s && e[-1] == ' ')
                        e--;
                if (s == e)
                        goto not_avc;
                a.perms = strndup(s, (size_t) (e - s));
                if (!a.perms)
                        goto fail;
        }
        p = q + 1;
        a.permissive = -1;
        while (next_kv(&p, end, &kv)) {
                if (key_is(&kv, "comm"))
                        r = set_str(&a.comm, &kv, true);
                else if (key_is(&kv, "name"))
                        r = set_str(&a.name, &kv, true);
                else if (key_is(&kv, "path"))
                        r = set_str(&a.path, &kv, true);
                else if (key_is(&kv, "dev"))
                        r = set_str(&a.dev, &kv, true);
                else if (key_is(&kv, "scontext"))
                        r = set_str(&a.scontext, &kv, false);
                else if (key_is(&kv, "tcontext"))
                        r = set_str(&a.tcontext, &kv, false);
                else if (key_is(&kv, "tclass"))
                        r = set_str(&a.tclass, &kv, false);
                else {
                        if (key_is(&kv, "ino")) {
                                a.ino = strtoull(kv.val, NULL, 10);
                                a.has_ino = true;
                        } else if (key_is(&kv, "permissive")) {
                                a.permissive = kv.vlen == 1 && kv.val[0] == '1'   ? 1
                                               : kv.vlen == 1 && kv.val[0] == '0' ? 0
                                                                                  : -1;
                        } else if (key_is(&kv, "pid")) {
                                a.pid = strtoul(kv.val, NULL, 10);
                        }
                        r = 0;
                }
                if (r < 0)
                        goto fail;
                /* USER_AVC: the message ends with the closing quote of msg='...' */
                if (kv.vlen && kv.val[kv.vlen - 1] == '\'' && !kv.quoted)
                        break;
        }
        if (!a.scontext || !a.tcontext || !a.tclass)
                goto not_avc;
        /* a path the kernel could not print in full ("(null)", "/" only for anon inodes) is no
         * path; a path of a process in another mount namespace is still one: keep it */
        if (a.path && a.path[0] != '/') {
                free(a.path);
                a.path = NULL;
        }
        *ret = a;
        return 1;
not_avc:
        si_avc_done(&a);
        return 0;
fail:
        si_avc_done(&a);
        return r;
}

/* ---- the report ------------------------------------------------------------------------- */

struct avc_group {
        enum seinstall_avc_cause cause;
        char *domain, *type, *tclass, *perms, *scontext, *tcontext;
        char *path, *name, *comm, *expected, *fix;
        bool permissive;
        unsigned count;
};

struct seinstall_avc_report {
        char *source;
        size_t n_denials;
        size_t n_label;
        struct avc_group *groups;
        size_t n_groups, cap;
};

static void group_free(struct avc_group *g)
{
        free(g->domain);
        free(g->type);
        free(g->tclass);
        free(g->perms);
        free(g->scontext);
        free(g->tcontext);
        free(g->path);
        free(g->name);
        free(g->comm);
        free(g->expected);
        free(g->fix);
}

SEINSTALL_EXPORT struct seinstall_avc_report *
seinstall_avc_report_free(struct seinstall_avc_report *rep)
{
        if (!rep)
                return NULL;
        for (size_t i = 0; i < rep->n_groups; i++)
                group_free(&rep->groups[i]);
        free(rep->groups);
        free(rep->source);
        free(rep);
        return NULL;
}

struct seinstall_avc_report *si_avc_report_new(const char *source)
{
        struct seinstall_avc_report *rep = calloc(1, sizeof(*rep));

        if (rep && !(rep->source = strdup(source)))
                rep = seinstall_avc_report_free(rep);
        return rep;
}

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

/* A shell word for @s: as is when it is safe, else in single quotes. */
static int shell_word(struct sbuf *b, const char *s)
{
        int r;

        if (*s &&
            strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:@,%") ==
                strlen(s))
                return sbuf_puts(b, s);
        if ((r = sbuf_puts(b, "'")) < 0)
                return r;
        for (const char *p = s; *p; p++)
                if ((r = *p == '\'' ? sbuf_puts(b, "'\\''") : sbuf_append(b, p, 1)) < 0)
                        return r;
        return sbuf_puts(b, "'");
}

/* ---- finding a name= denial's file by device and inode (bounded) --------------------------- */

/* The mount point (in the host's namespace) of the filesystem the kernel calls @dev. */
static char *mount_of_dev(const char *dev)
{
        _cleanup_free_ char *text = NULL, *sysdev = NULL, *p = NULL;
        unsigned maj = 0, min = 0;
        bool have_num = false;
        size_t len;

        if (strchr(dev, '/') || streq(dev, ".") || streq(dev, ".."))
                return NULL;
        if (asprintf(&p, "/sys/class/block/%s/dev", dev) >= 0 &&
            read_file_bounded(p, 64, &sysdev, &len) == 0 &&
            sscanf(sysdev, "%u:%u", &maj, &min) == 2)
                have_num = true;
        if (read_file_bounded("/proc/self/mountinfo", 16u << 20, &text, &len) < 0)
                return NULL;
        const char *pos = text, *l;
        size_t n;
        while (next_line(&pos, text + len, &l, &n)) {
                _cleanup_free_ char *line = strndup(l, n);
                char mp[4096], fstype[256], src[4096];
                unsigned a, b;
                if (!line)
                        return NULL;
                if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &a, &b, mp) != 3)
                        continue;
                const char *sep = strstr(line, " - ");
                if (!sep || sscanf(sep + 3, "%255s %4095s", fstype, src) != 2)
                        continue;
                const char *base = strrchr(src, '/');
                base = base ? base + 1 : src;
                if ((have_num && a == maj && b == min) || (!have_num && streq(base, dev)) ||
                    (!have_num && streq(fstype, dev)))
                        return strdup(mp); /* octal escapes (\040) are rare on roots: kept */
        }
        return NULL;
}

/* Breadth-first search below @top (same filesystem) for @name with inode @ino. */
static char *search_ino(const char *top, const char *name, unsigned long long ino)
{
        char **queue = NULL, *found = NULL;
        size_t head = 0, tail = 0, cap = 0, visited = 0;
        struct stat st;

        if (lstat(top, &st) < 0 || !S_ISDIR(st.st_mode))
                return NULL;
        dev_t dev = st.st_dev;
        if (st.st_ino == ino)
                return strdup(top);
        queue = malloc(sizeof(*queue) * (cap = 256));
        if (!queue || !(queue[tail++] = strdup(top)))
                goto out;
        while (head < tail && !found && visited < AVC_SEARCH_MAX) {
                _cleanup_free_ char *dir = queue[head++];
                DIR *d = opendir(dir);
                struct dirent *de;
                if (!d)
                        continue;
                while ((de = readdir(d)) && visited++ < AVC_SEARCH_MAX) {
                        if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                                continue;
                        if (de->d_ino == ino && streq(de->d_name, name)) {
                                found = path_join(dir, de->d_name);
                                break;
                        }
                        if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
                                continue;
                        char *sub = path_join(dir, de->d_name);
                        if (!sub || lstat(sub, &st) < 0 || !S_ISDIR(st.st_mode) ||
                            st.st_dev != dev) {
                                free(sub);
                                continue;
                        }
                        if (tail == cap) {
                                char **nq;
                                memmove(queue, queue + head, (tail - head) * sizeof(*queue));
                                tail -= head;
                                head = 0;
                                if (tail == cap) {
                                        nq = realloc(queue, sizeof(*queue) * cap * 2);
                                        if (!nq) {
                                                free(sub);
                                                break;
                                        }
                                        queue = nq;
                                        cap *= 2;
                                }
                        }
                        queue[tail++] = sub;
                }
                closedir(d);
        }
out:
        if (queue)
                for (size_t i = head; i < tail; i++)
                        free(queue[i]);
        free(queue);
        return found;
}

/* ---- classification --------------------------------------------------------------------- */

struct classifier {
        struct seinstall_ctx *ctx;
        struct si_fcontext *fc;
        struct si_fc_scratch *scratch;
        bool live; /* the log is this system's: names may be searched by device and inode */
};

static int classify(struct classifier *c, const struct si_avc *a, struct avc_group *g)
{
        _cleanup_free_ char *path = NULL;
        mode_t mode = class_mode(a->tclass);
        const char *want = NULL;
        struct sbuf fix = {0};
        int r;

        g->cause = SEINSTALL_AVC_CAUSE_POLICY;
        if (!(g->domain = context_type(a->scontext)) || !(g->type = context_type(a->tcontext)))
                return -EBADMSG;
        if (a->path)
                path = strdup(a->path);
        else if (mode && a->name && a->dev && a->has_ino && c->live) {
                _cleanup_free_ char *mp = mount_of_dev(a->dev);
                if (mp && a->name[0] == '/' && a->name[1] == '\0')
                        path = strdup(mp);
                else if (mp)
                        path = search_ino(mp, a->name, a->ino);
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
        if (g->cause == SEINSTALL_AVC_CAUSE_LABEL) {
                if (path)
                        r = (r = sbuf_puts(&fix, "restorecon -F ")) < 0 ? r
                                                                        : shell_word(&fix, path);
                else
                        r = sbuf_puts(&fix, "seinstall verify --fix");
                if (r < 0) {
                        sbuf_free(&fix);
                        return r;
                }
                g->fix = sbuf_steal(&fix);
        }
        g->path = TAKE_PTR(path);
        return 0;
}

/* Add denial @a to the report: a group per cause, domain, type, class, permissions and (label
 * causes) file. */
static int report_add(struct classifier *c, struct seinstall_avc_report *rep,
                      const struct si_avc *a)
{
        struct avc_group g = {0};
        int r;

        rep->n_denials++;
        r = classify(c, a, &g);
        if (r == -EBADMSG) {
                group_free(&g);
                return 0; /* a context without a type: not a denial we can explain */
        }
        if (r < 0)
                goto fail;
        if (g.cause == SEINSTALL_AVC_CAUSE_LABEL)
                rep->n_label++;
        for (size_t i = 0; i < rep->n_groups; i++) {
                struct avc_group *o = &rep->groups[i];
                if (o->cause == g.cause && streq(o->domain, g.domain) && streq(o->type, g.type) &&
                    streq(o->tclass, a->tclass) && streq(o->perms, a->perms) &&
                    (g.cause == SEINSTALL_AVC_CAUSE_POLICY || streq_ptr(o->path, g.path))) {
                        o->count++;
                        o->permissive = o->permissive && a->permissive == 1;
                        group_free(&g);
                        return 0;
                }
        }
        if (rep->n_groups >= AVC_MAX_DENIALS) {
                group_free(&g);
                return 0;
        }
        if (rep->n_groups == rep->cap) {
                size_t cap = rep->cap ? rep->cap * 2 : 16;
                struct avc_group *n = realloc(rep->groups, cap * sizeof(*n));
                if (!n) {
                        r = -ENOMEM;
                        goto fail;
                }
                rep->groups = n;
                rep->cap = cap;
        }
        g.count = 1;
        g.permissive = a->permissive == 1;
        if (!(g.tclass = strdup(a->tclass)) || !(g.perms = strdup(a->perms)) ||
            !(g.scontext = strdup(a->scontext)) || !(g.tcontext = strdup(a->tcontext)) ||
            (a->name && !(g.name = strdup(a->name))) || (a->comm && !(g.comm = strdup(a->comm)))) {
                r = -ENOMEM;
                goto fail;
        }
        rep->groups[rep->n_groups++] = g;
        return 0;
fail:
        group_free(&g);
        return r;
}

/* Seconds since the epoch at which this boot began (btime of /proc/stat), or 0. */
static unsigned long long boot_time(void)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        const char *p;

        if (read_file_bounded("/proc/stat", 1u << 20, &text, &len) < 0)
                return 0;
        p = strstr(text, "\nbtime ");
        return p ? strtoull(p + 7, NULL, 10) : 0;
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
                         struct seinstall_avc_report *rep)
{
        struct classifier c = {.ctx = ctx, .fc = fc, .live = live};
        struct si_avc pending = {0};
        const char *pos = text, *line;
        size_t n;
        int r = 0;

        if (fc && (r = si_fc_scratch_new(fc, &c.scratch)) < 0)
                return r;
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
        si_fc_scratch_free(c.scratch);
        return r < 0 ? r : 0;
}

/* ---- reading this boot's log -------------------------------------------------------------- */

/* Whether auditd runs: its pid file names a live process. */
static bool auditd_runs(void)
{
        static const char *const pidfiles[] = {"/run/auditd.pid", "/var/run/auditd.pid"};

        for (size_t i = 0; i < ELEMENTSOF(pidfiles); i++) {
                _cleanup_free_ char *text = NULL;
                size_t len;
                long pid;

                if (read_file_bounded(pidfiles[i], 64, &text, &len) < 0)
                        continue;
                pid = strtol(text, NULL, 10);
                if (pid > 0 && (kill((pid_t) pid, 0) == 0 || errno == EPERM))
                        return true;
        }
        return false;
}

/* The kernel's log records since boot, one message per line (the text after "PRI,SEQ,TS,;"). */
static int read_kmsg(struct seinstall_ctx *ctx, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        struct sbuf b = {0};
        char rec[8192 + 1];
        int r;

        if (fd < 0)
                return si_error(ctx, -errno,
                                "Cannot read the kernel log /dev/kmsg: %m. Run as root, or save "
                                "the log ('journalctl -k -b > FILE' or 'dmesg > FILE') and run "
                                "'seinstall avc --log FILE'.");
        for (;;) {
                ssize_t n = read(fd, rec, sizeof(rec) - 1);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EPIPE)
                        continue; /* overwritten while we read: the next one follows */
                if (n < 0 && errno == EAGAIN)
                        break;
                if (n < 0) {
                        sbuf_free(&b);
                        return si_error(ctx, -errno, "Cannot read the kernel log /dev/kmsg: %m");
                }
                if (n == 0)
                        break;
                rec[n] = '\0';
                const char *msg = memchr(rec, ';', (size_t) n), *e;
                if (!msg)
                        continue;
                msg++;
                e = memchr(msg, '\n', (size_t) (rec + n - msg));
                if ((r = sbuf_append(&b, msg, e ? (size_t) (e - msg) : strlen(msg))) < 0 ||
                    (r = sbuf_puts(&b, "\n")) < 0) {
                        sbuf_free(&b);
                        return r;
                }
        }
        *ret_len = b.len;
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}

static int read_log(struct seinstall_ctx *ctx, const char *log, char **ret, size_t *ret_len)
{
        int r = read_file_bounded(log, AVC_LOG_MAX, ret, ret_len);

        if (r == -ENOENT)
                return si_error(ctx, r,
                                "%s: no such file. Give a saved audit or kernel log (audit.log, "
                                "'journalctl -k -b', dmesg).",
                                log);
        if (r == -EISDIR || r == -EBADFD)
                return si_error(ctx, -EBADMSG, "%s is not a log file (not a regular file).", log);
        if (r == -EFBIG)
                return si_error(ctx, -EBADMSG, "%s is larger than %u MiB: give this boot's part.",
                                log, AVC_LOG_MAX >> 20);
        if (r < 0)
                return si_error(ctx, r, "Cannot read %s: %s", log, strerror(-r));
        if (memchr(*ret, '\0', *ret_len)) {
                free(*ret);
                *ret = NULL;
                return si_error(ctx, -EBADMSG,
                                "%s is not a text log: it holds NUL bytes (a binary journal? save "
                                "it with 'journalctl -k -b > FILE').",
                                log);
        }
        return 0;
}

SEINSTALL_EXPORT int seinstall_avc_read(struct seinstall_ctx *ctx, const char *log,
                                        struct seinstall_avc_report **ret)
{
        _cleanup_free_ char *text = NULL, *type = NULL;
        struct seinstall_avc_report *rep;
        struct si_fcontext *fc = NULL;
        struct si_config conf = {0};
        unsigned long long since = 0;
        const char *source = log;
        size_t len = 0;
        int r;

        if (!ctx || !ret)
                return -EINVAL;
        if (log) {
                r = read_log(ctx, log, &text, &len);
        } else if (auditd_runs() && access("/var/log/audit/audit.log", F_OK) == 0) {
                source = "/var/log/audit/audit.log";
                r = read_log(ctx, source, &text, &len);
                since = boot_time();
        } else {
                source = "/dev/kmsg";
                r = read_kmsg(ctx, &text, &len);
        }
        if (r < 0)
                return r;

        r = si_config_read(ctx, &conf);
        if (r < 0)
                return r;
        type = strdup(conf.type ? conf.type : "default");
        si_config_done(&conf);
        if (!type)
                return -ENOMEM;
        r = si_fcontext_load_target(ctx, type, &fc);
        if (r < 0)
                return r;

        rep = si_avc_report_new(source);
        if (!rep) {
                si_fcontext_free(fc);
                return -ENOMEM;
        }
        r = si_avc_classify_text(ctx, fc, text, len, since, streq(ctx->root, "/"), rep);
        si_fcontext_free(fc);
        if (r < 0) {
                seinstall_avc_report_free(rep);
                return r;
        }
        *ret = rep;
        return 0;
}

SEINSTALL_EXPORT const char *seinstall_avc_report_get_source(const struct seinstall_avc_report *rep)
{
        return rep ? rep->source : NULL;
}

SEINSTALL_EXPORT size_t seinstall_avc_report_get_n_denials(const struct seinstall_avc_report *rep)
{
        return rep ? rep->n_denials : 0;
}

SEINSTALL_EXPORT size_t seinstall_avc_report_get_n_label(const struct seinstall_avc_report *rep)
{
        return rep ? rep->n_label : 0;
}

SEINSTALL_EXPORT size_t seinstall_avc_report_get_n_groups(const struct seinstall_avc_report *rep)
{
        return rep ? rep->n_groups : 0;
}

static const struct avc_group *group(const struct seinstall_avc_report *rep, size_t i)
{
        return rep && i < rep->n_groups ? &rep->groups[i] : NULL;
}

SEINSTALL_EXPORT enum seinstall_avc_cause
seinstall_avc_report_get_group_cause(const struct seinstall_avc_report *rep, size_t i)
{
        const struct avc_group *g = group(rep, i);
        return g ? g->cause : SEINSTALL_AVC_CAUSE_POLICY;
}

SEINSTALL_EXPORT unsigned
seinstall_avc_report_get_group_count(const struct seinstall_avc_report *rep, size_t i)
{
        const struct avc_group *g = group(rep, i);
        return g ? g->count : 0;
}

SEINSTALL_EXPORT bool
seinstall_avc_report_get_group_permissive(const struct seinstall_avc_report *rep, size_t i)
{
        const struct avc_group *g = group(rep, i);
        return g && g->permissive;
}

SEINSTALL_EXPORT const char *
seinstall_avc_report_get_group_field(const struct seinstall_avc_report *rep, size_t i,
                                     const char *field)
{
        const struct avc_group *g = group(rep, i);
        const struct {
                const char *name;
                const char *value;
        } f[] = {{"domain", g ? g->domain : NULL},
                 {"type", g ? g->type : NULL},
                 {"tclass", g ? g->tclass : NULL},
                 {"perms", g ? g->perms : NULL},
                 {"scontext", g ? g->scontext : NULL},
                 {"tcontext", g ? g->tcontext : NULL},
                 {"path", g ? g->path : NULL},
                 {"name", g ? g->name : NULL},
                 {"comm", g ? g->comm : NULL},
                 {"expected", g ? g->expected : NULL},
                 {"fix", g ? g->fix : NULL}};

        if (!g || !field)
                return NULL;
        for (size_t k = 0; k < ELEMENTSOF(f); k++)
                if (streq(field, f[k].name))
                        return f[k].value;
        return NULL;
}

SEINSTALL_EXPORT int seinstall_avc_report_to_json(const struct seinstall_avc_report *rep,
                                                  char **ret)
{
        static const char *const fields[] = {"domain",   "type",     "tclass", "perms",
                                             "scontext", "tcontext", "path",   "name",
                                             "comm",     "expected", "fix"};
        struct json j = {0};

        if (!rep || !ret)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "source", rep->source);
        json_kv_uint(&j, "denials", rep->n_denials);
        json_kv_uint(&j, "caused_by_label", rep->n_label);
        json_kv_uint(&j, "caused_by_policy", rep->n_denials - rep->n_label);
        for (int pass = 0; pass < 2; pass++) {
                enum seinstall_avc_cause want =
                    pass ? SEINSTALL_AVC_CAUSE_POLICY : SEINSTALL_AVC_CAUSE_LABEL;

                json_key(&j, pass ? "policy" : "label");
                json_array_begin(&j);
                for (size_t i = 0; i < rep->n_groups; i++) {
                        if (rep->groups[i].cause != want)
                                continue;
                        json_object_begin(&j);
                        json_kv_uint(&j, "count", rep->groups[i].count);
                        json_kv_bool(&j, "permissive", rep->groups[i].permissive);
                        for (size_t k = 0; k < ELEMENTSOF(fields); k++)
                                json_kv_string(
                                    &j, fields[k],
                                    seinstall_avc_report_get_group_field(rep, i, fields[k]));
                        json_object_end(&j);
                }
                json_array_end(&j);
        }
        json_object_end(&j);
        return json_steal(&j, ret);
}
