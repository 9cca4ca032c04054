/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-path.c — where an %include file is: readKickstart()'s lookup (the path as given, else
 * relative to the including file's directory), with paths joined and normalized by text as
 * Python's posixpath does; and os.path.normpath() of a storage command's mount point
 * (kickstart-storage.c).
 */
#include <sys/stat.h>
#include <unistd.h>

#include "kickstart-internal.h"

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

/* os.path.abspath(os.path.dirname(@path)): the directory the includes of @path are looked up in. */
char *si_ks_dir_abs(const char *path)
{
        char *dir = py_dirname(path);

        if (dir && dir[0] != '/') {
                char *abs = py_abspath(dir);
                free(dir);
                dir = abs;
        }
        return dir;
}

/* readKickstart()'s lookup: the path as given when it exists, else relative to the directory of
 * the including file; and the directory of the result for the files it includes. */
int si_ks_resolve(struct ks_reader *r, const char *arg, char **ret)
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
        dir = si_ks_dir_abs(path);
        if (!dir)
                return -ENOMEM;
        free(r->currentdir[r->depth]);
        r->currentdir[r->depth] = TAKE_PTR(dir);
        *ret = TAKE_PTR(path);
        return 0;
}

/* os.path.normpath() of a mount point starting with "/" (POSIX: "//x" keeps both slashes,
 * three or more become one); other mount points ("swap", "pv.01") unchanged. */
char *si_py_normpath(const char *p)
{
        size_t n = strlen(p), len = 0, lead = 0;
        char *out;

        if (p[0] != '/')
                return strdup(p);
        out = malloc(n + 1);
        if (!out)
                return NULL;
        while (p[lead] == '/')
                lead++;
        lead = lead == 2 ? 2 : 1;
        memset(out, '/', lead);
        len = lead;
        for (const char *s = p; *s;) {
                const char *e;

                while (*s == '/')
                        s++;
                e = s;
                while (*e && *e != '/')
                        e++;
                if (e - s == 1 && s[0] == '.') {
                        /* drop */
                } else if (e - s == 2 && s[0] == '.' && s[1] == '.') {
                        if (len > lead) {
                                while (len > lead && out[len - 1] != '/')
                                        len--;
                                if (len > lead)
                                        len--;
                        }
                } else if (e > s) {
                        if (len > lead)
                                out[len++] = '/';
                        memcpy(out + len, s, (size_t) (e - s));
                        len += (size_t) (e - s);
                }
                s = e;
        }
        out[len] = '\0';
        return out;
}
