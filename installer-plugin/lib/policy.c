/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.c — finding and reading the target's SELinux policy: the newest policy.N of a type,
 * from the target, else the host, else a built-in table modelled on Debian's default policy,
 * read with libsepol into a struct si_policy. What the policy says is looked up in policy-fs.c
 * (filesystems) and policy-context.c (contexts).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sepol/debug.h>

#include "policy-internal.h"
#include "policy.h"

/* Binary policies are a few MB (Debian ~3 MB, Fedora ~10 MB); anything above is not one. */
#define POLICY_MAX (256u * 1024 * 1024)

/* libsepol prints to stderr unless told otherwise; a library must not. */
static void sepol_quiet(void *arg, sepol_handle_t *h, const char *fmt, ...)
{
        (void) arg;
        (void) h;
        (void) fmt;
}

struct si_policy *si_policy_free(struct si_policy *p)
{
        if (!p)
                return NULL;
        if (p->db)
                sepol_policydb_free(p->db);
        if (p->handle)
                sepol_handle_destroy(p->handle);
        free(p->path);
        free(p->type);
        free(p);
        return NULL;
}

static struct si_policy *policy_new(const char *type, enum seinstall_source source)
{
        struct si_policy *p = calloc(1, sizeof(*p));

        if (!p)
                return NULL;
        p->type = strdup(type);
        p->source = source;
        if (!p->type)
                return si_policy_free(p);
        return p;
}

/* Parse the binary policy in @data into @p; @what names it in messages. */
static int policy_parse(struct seinstall_ctx *ctx, struct si_policy *p, char *data, size_t len,
                        const char *what)
{
        sepol_policy_file_t *pf = NULL;
        int r;

        p->handle = sepol_handle_create();
        if (!p->handle)
                return -ENOMEM;
        sepol_msg_set_callback(p->handle, sepol_quiet, NULL);
        if (sepol_policydb_create(&p->db) < 0)
                return -ENOMEM;
        if (sepol_policy_file_create(&pf) < 0)
                return -ENOMEM;
        sepol_policy_file_set_mem(pf, data, len);
        sepol_policy_file_set_handle(pf, p->handle);
        r = sepol_policydb_read(p->db, pf);
        sepol_policy_file_free(pf);
        if (r < 0)
                return si_error_run(ctx, -EBADMSG, si_semodule_command(ctx->root),
                                    "%s is not a binary SELinux policy libsepol can read; "
                                    "reinstall the policy package, or rebuild it: ",
                                    what);
        return 0;
}

static int load_fd(struct seinstall_ctx *ctx, int fd, const char *path, const char *type,
                   enum seinstall_source source, struct si_policy **ret)
{
        _cleanup_(si_policy_freep) struct si_policy *p = NULL;
        _cleanup_free_ char *data = NULL;
        size_t len;
        int r;

        r = read_fd_bounded(fd, POLICY_MAX, &data, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read the policy %s: %s", path,
                                si_file_strerror(r));
        p = policy_new(type, source);
        if (!p)
                return -ENOMEM;
        p->path = strdup(path);
        if (!p->path)
                return -ENOMEM;
        r = policy_parse(ctx, p, data, len, path);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}

int si_policy_load_file(struct seinstall_ctx *ctx, const char *path, const char *type,
                        enum seinstall_source source, struct si_policy **ret)
{
        _cleanup_close_ int fd = open_regular(path);

        if (fd < 0)
                return si_error(ctx, fd, "Could not open the policy %s: %s", path,
                                si_file_strerror(fd));
        return load_fd(ctx, fd, path, type, source, ret);
}

int si_policy_load_builtin(const char *type, struct si_policy **ret)
{
        struct si_policy *p;

        if (!streq(type, "default"))
                return -ENOENT;
        p = policy_new(type, SEINSTALL_SOURCE_BUILTIN);
        if (!p)
                return -ENOMEM;
        *ret = p;
        return 0;
}

/* The number N of a "policy.N" name, or -1. */
static long policy_version(const char *name)
{
        const char *v = startswith(name, "policy.");
        char *end;
        long n;

        if (!v || !isdigit((unsigned char) *v))
                return -1;
        errno = 0;
        n = strtol(v, &end, 10);
        if (*end || errno || n > 100000)
                return -1;
        return n;
}

/* The newest policy.N in the directory @dfd (consumed). Returns 0 and the name, -ENOENT. */
static int newest_policy(int dfd, char **ret_name)
{
        DIR *d = fdopendir(dfd);
        _cleanup_free_ char *name = NULL;
        struct dirent *de;
        long best = -1;

        if (!d) {
                int r = -errno;
                close(dfd);
                return r;
        }
        while ((de = readdir(d))) {
                long v = policy_version(de->d_name);
                if (v <= best)
                        continue;
                free(name);
                name = strdup(de->d_name);
                if (!name) {
                        closedir(d);
                        return -ENOMEM;
                }
                best = v;
        }
        closedir(d);
        if (!name)
                return -ENOENT;
        *ret_name = TAKE_PTR(name);
        return 0;
}

/* The newest policy.N of @type: under the target's /etc/selinux when @host_dir is NULL (resolved
 * inside the target root, so a symlink in the target cannot lead out of it), else under the
 * host's @host_dir. -ENOENT when there is none. */
static int load_newest(struct seinstall_ctx *ctx, const char *host_dir, const char *type,
                       struct si_policy **ret)
{
        _cleanup_free_ char *dir = NULL, *name = NULL, *rel = NULL, *shown = NULL;
        _cleanup_close_ int fd = -EBADF;
        bool in_target = !host_dir;
        int dfd, r;

        if (asprintf(&dir, "%s/%s/policy", in_target ? "/etc/selinux" : host_dir, type) < 0)
                return -ENOMEM;
        dfd = in_target ? si_root_open(ctx, dir, O_RDONLY | O_DIRECTORY, 0)
                        : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 && !in_target)
                dfd = -errno;
        if (dfd == -ENOTDIR)
                return -ENOENT;
        if (dfd < 0)
                return dfd;
        r = newest_policy(dfd, &name);
        if (r < 0)
                return r;
        rel = path_join(dir, name);
        if (!rel)
                return -ENOMEM;
        shown = in_target && !streq(ctx->root, "/") ? path_join(ctx->root, rel) : strdup(rel);
        if (!shown)
                return -ENOMEM;
        /* A FIFO or a device named policy.N must never block check, relabel or install. */
        fd = in_target ? si_root_open_regular(ctx, rel, true) : open_regular(rel);
        if (fd < 0)
                return si_error(ctx, fd, "Could not open the policy %s: %s", shown,
                                si_file_strerror(fd));
        return load_fd(ctx, fd, shown, type,
                       in_target ? SEINSTALL_SOURCE_TARGET : SEINSTALL_SOURCE_HOST, ret);
}

int si_policy_load_at(struct seinstall_ctx *ctx, const char *type, const char *host_dir,
                      struct si_policy **ret)
{
        int r;

        if (!type || !si_policy_type_valid(type))
                return si_error(ctx, -EINVAL,
                                "Invalid SELinux policy type '%s': give a directory name under "
                                "/etc/selinux such as default or mls",
                                type ? type : "");
        ctx->counters.policy_loads++;
        r = load_newest(ctx, NULL, type, ret);
        if (r != -ENOENT)
                return r;
        si_debug(ctx, "The target %s has no built %s policy", ctx->root, type);
        if (!streq(ctx->root, "/")) {
                r = load_newest(ctx, host_dir, type, ret);
                if (r != -ENOENT)
                        return r;
                si_debug(ctx, "This system has no built %s policy in %s either", type, host_dir);
        }
        r = si_policy_load_builtin(type, ret);
        /* Not bad input but a missing piece of the system: -ENOPKG, exit status 3. */
        if (r == -ENOENT)
                return si_error(ctx, -ENOPKG,
                                "No SELinux policy of type '%s': neither the target %s nor this "
                                "system has /etc/selinux/%s/policy/policy.N, and seinstall only "
                                "knows the default policy by itself; install %s in the target, "
                                "or choose --policy default",
                                type, ctx->root, type, si_policy_package_hint(ctx, type));
        if (r >= 0)
                si_info(ctx,
                        "No built %s policy in the target or on this system: using "
                        "seinstall's built-in table of Debian's default policy",
                        type);
        return r;
}

int si_policy_load_own(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret)
{
        if (!si_policy_type_valid(type))
                return -EINVAL;
        ctx->counters.policy_loads++;
        return load_newest(ctx, NULL, type, ret);
}

int si_policy_load(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret)
{
        return si_policy_load_at(ctx, type, "/etc/selinux", ret);
}

int si_policy_require_target(struct seinstall_ctx *ctx, const struct si_policy *p, const char *type)
{
        if (p && si_policy_source(p) == SEINSTALL_SOURCE_TARGET)
                return 0;
        /* a missing piece of the system, not bad input: exit 3 (seinstall(8), EXIT STATUS) */
        return si_error_run(ctx, -ENOPKG, si_semodule_command(ctx->root),
                            "No binary policy of type %s in the target %s (no "
                            "/etc/selinux/%s/policy/policy.N), so its labels cannot be "
                            "checked: install %s in the target, or build its policy there "
                            "from installed modules: ",
                            type, ctx->root, type, si_policy_package_hint(ctx, type));
}

int si_policy_load_target(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret)
{
        _cleanup_(si_policy_freep) struct si_policy *p = NULL;
        int r = si_policy_load(ctx, type, &p);

        if (r == -EBADMSG)
                return si_error_run(ctx, r, si_semodule_command(ctx->root),
                                    "The binary policy of type %s in the target is not one "
                                    "libsepol can read; reinstall the policy package, or rebuild "
                                    "it: ",
                                    type);
        /* an unreadable policy.N (a FIFO, a device): si_policy_load() named it */
        if (r < 0 && r != -ENOENT && r != -ENOPKG)
                return r;
        r = si_policy_require_target(ctx, r < 0 ? NULL : p, type);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}

const char *si_policy_type(const struct si_policy *p)
{
        return p->type;
}

enum seinstall_source si_policy_source(const struct si_policy *p)
{
        return p->source;
}

const char *si_policy_path(const struct si_policy *p)
{
        return p->path;
}

void *si_policy_sepol(const struct si_policy *p)
{
        return p->db;
}
