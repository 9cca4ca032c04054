/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc-parse.c — one line of a kernel or audit log as a record (struct si_avc): an AVC denial,
 * or auditd's PATH and CWD records of the same event. Owns the log formats, nothing else.
 *
 * Reads the lines the kernel and auditd write (security/selinux/avc.c avc_audit_pre/post_callback
 * and security/lsm_audit.c dump_common_audit_data, as kernel printk, /dev/kmsg, journal, or
 * auditd's log with its PATH and CWD records of the same event; userspace USER_AVC with its
 * msg='...'). Values the kernel logs as untrusted strings (comm, name, path, ...) come quoted,
 * or hex-encoded without quotes when they hold a space, a quote or a control byte.
 */
#include <ctype.h>

#include "seinstall-private.h"
#include "avc.h"

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
