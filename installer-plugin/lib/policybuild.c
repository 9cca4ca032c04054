/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policybuild.c — making sure the target has a built policy of the chosen type: whether
 * /etc/selinux/TYPE/policy/policy.N exists, which package provides it, and (when the modules
 * are installed in /var/lib/selinux/TYPE but nothing is built) building it with libsemanage
 * for the alternate root, as `semodule -p ROOT -B` does.
 */
#include <fcntl.h>
#include <semanage/handle.h>
#include <semanage/debug.h>
#include <sys/stat.h>

#include "configure.h"

bool si_policy_built(struct seinstall_ctx *ctx, const char *type)
{
        _cleanup_free_ char *dir = NULL;
        char **names = NULL;
        size_t n = 0;
        bool found = false;

        if (!si_policy_type_valid(type) || asprintf(&dir, "/etc/selinux/%s/policy", type) < 0)
                return false;
        if (si_root_list(ctx, dir, "policy.", NULL, &names, &n) < 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                const char *v = strrchr(names[i], '.') + 1;
                found = found || (*v && strspn(v, "0123456789") == strlen(v));
        }
        si_strv_free(names, n);
        return found;
}

const char *si_policy_package(const char *type)
{
        if (streq_ptr(type, "default"))
                return "selinux-policy-default";
        if (streq_ptr(type, "mls"))
                return "selinux-policy-mls";
        return NULL;
}

/* libsemanage works on paths below the root it is given, not through our root fd: refuse a
 * target where a directory it writes is a symlink (it could lead out of the target). */
static int check_no_symlinks(struct seinstall_ctx *ctx, const char *type)
{
        const char *fixed[] = {"etc", "etc/selinux", "var", "var/lib", "var/lib/selinux"};
        _cleanup_free_ char *a = NULL, *b = NULL;
        const char *typed[2];

        if (asprintf(&a, "etc/selinux/%s", type) < 0 ||
            asprintf(&b, "var/lib/selinux/%s", type) < 0)
                return -ENOMEM;
        typed[0] = a, typed[1] = b;
        for (size_t i = 0; i < ELEMENTSOF(fixed) + ELEMENTSOF(typed); i++) {
                const char *p = i < ELEMENTSOF(fixed) ? fixed[i] : typed[i - ELEMENTSOF(fixed)];
                struct stat st;
                if (fstatat(ctx->root_fd, p, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno == ENOENT)
                                continue;
                        return si_error(ctx, -errno, "Could not inspect %s/%s: %m", ctx->root, p);
                }
                if (!S_ISDIR(st.st_mode))
                        return si_error(ctx, -ENOTDIR,
                                        "%s/%s is not a directory (a symlink?): refusing to build "
                                        "the policy through it; make it a real directory",
                                        ctx->root, p);
        }
        return 0;
}

static void semanage_log(void *varg, semanage_handle_t *sh, const char *fmt, ...)
{
        struct seinstall_ctx *ctx = varg;
        _cleanup_free_ char *msg = NULL;
        va_list ap;
        int level = semanage_msg_get_level(sh);

        va_start(ap, fmt);
        if (vasprintf(&msg, fmt, ap) < 0)
                msg = NULL;
        va_end(ap);
        if (msg)
                si_log(ctx, level == SEMANAGE_MSG_ERR ? SEINSTALL_LOG_WARNING : SEINSTALL_LOG_DEBUG,
                       "libsemanage: %s", msg);
}

int si_policy_build(struct seinstall_ctx *ctx, const char *type)
{
        _cleanup_free_ char *modules = NULL;
        _cleanup_close_ int fd = -EBADF;
        semanage_handle_t *sh;
        const char *pkg = si_policy_package(type);
        int r;

        if (!si_policy_type_valid(type))
                return -EINVAL;
        if (si_policy_built(ctx, type))
                return 0;
        if (asprintf(&modules, "/var/lib/selinux/%s/active/modules", type) < 0)
                return -ENOMEM;
        fd = root_open(ctx, modules, O_PATH | O_DIRECTORY, 0);
        if (fd < 0)
                return si_error(ctx, -ENOPKG,
                                "The target has no SELinux policy '%s' (neither %s/etc/selinux/%s/"
                                "policy nor modules in %s%s): install %s in the target",
                                type, ctx->root, type, ctx->root, modules,
                                pkg ? pkg : "the package that provides it");
        r = check_no_symlinks(ctx, type);
        if (r < 0)
                return r;

        /* As `semodule -p ROOT -n -B`: rebuild from the installed modules, never load the
         * result into the running kernel (it is the installer's, not the target's). The root
         * is process-wide state in libsemanage: set it only for this build. */
        r = semanage_set_root(ctx->root);
        if (r < 0)
                return si_error(ctx, -ENOMEM, "libsemanage: cannot set the root %s", ctx->root);
        sh = semanage_handle_create();
        if (!sh) {
                (void) semanage_set_root("");
                return si_error(ctx, -ENOMEM, "libsemanage: cannot create a handle");
        }
        semanage_msg_set_callback(sh, semanage_log, ctx);
        semanage_select_store(sh, (char *) type, SEMANAGE_CON_DIRECT);
        semanage_set_create_store(sh, 0);
        semanage_set_reload(sh, 0);
        semanage_set_rebuild(sh, 1);
        r = semanage_connect(sh);
        if (r >= 0)
                r = semanage_begin_transaction(sh);
        if (r >= 0)
                r = semanage_commit(sh);
        if (semanage_is_connected(sh))
                (void) semanage_disconnect(sh);
        semanage_handle_destroy(sh);
        (void) semanage_set_root("");
        if (r < 0 || !si_policy_built(ctx, type))
                return si_error(ctx, -EIO,
                                "Building the '%s' policy from the modules in %s%s failed (see "
                                "the libsemanage messages above): run 'semodule -p %s -n -B' to "
                                "see why",
                                type, ctx->root, modules, ctx->root);
        return 1;
}

SEINSTALL_EXPORT int seinstall_policy_ensure(struct seinstall_ctx *ctx, const char *type)
{
        if (!ctx)
                return -EINVAL;
        return si_policy_build(ctx, type ? type : "default");
}
