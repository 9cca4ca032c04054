/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policybuild.c — making sure the target has a built policy of the chosen type: whether
 * /etc/selinux/TYPE/policy/policy.N exists, which package provides it, and (when the modules
 * are installed in /var/lib/selinux/TYPE but nothing is built) building it with libsemanage
 * for the alternate root, as `semodule -p ROOT -B` does.
 */
#include <fcntl.h>

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
