/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-package.c — what a target has of a policy and what provides it: whether
 * /etc/selinux/TYPE/policy/policy.N exists, the Debian package of a policy type and the words
 * that name it in a message, the semodule command that builds it.
 */
#include "seinstall-private.h"
#include "policy.h"

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

char *si_semodule_command(const char *root)
{
        if (!root || streq(root, "/"))
                return shell_command(NULL, "semodule -B");
        return shell_command(NULL, "semodule -p %q -n -B", root);
}

const char *si_policy_package_hint(struct seinstall_ctx *ctx, const char *type)
{
        if (streq_ptr(type, "default"))
                return si_tr(ctx, "the policy package selinux-policy-default");
        if (streq_ptr(type, "mls"))
                return si_tr(ctx, "the policy package selinux-policy-mls");
        return si_tr(ctx, "the policy package that provides this policy type (Debian's are "
                          "selinux-policy-default and selinux-policy-mls)");
}
