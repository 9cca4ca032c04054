/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state.c — fill the model's input from the library's status of the target
 * (seinstall_status_read()), so the screen sees exactly what `seinstall status` reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "firstboot.h"

static enum fb_kernel kernel_from_case(enum seinstall_kernel_case k)
{
        switch (k) {
        case SEINSTALL_KERNEL_SELINUX_DEFAULT:
                return FB_KERNEL_DEFAULT;
        case SEINSTALL_KERNEL_SELINUX_OPTIN:
                return FB_KERNEL_OPT_IN;
        case SEINSTALL_KERNEL_NO_SELINUX:
                return FB_KERNEL_NO_SELINUX;
        case SEINSTALL_KERNEL_UNKNOWN:
        default:
                return FB_KERNEL_UNKNOWN;
        }
}

/* A numeric kernel argument ("0", "1"); -1 when absent, 1 for anything non-zero as the
 * kernel's kstrtoint-and-test would take it, 0 for a bare or unparsable value. */
static int int_arg(const struct seinstall_status *status, const char *name)
{
        const char *v = seinstall_status_get_kernel_arg(status, name);
        char *end;
        long n;

        if (!v)
                return -1;
        errno = 0;
        n = strtol(v, &end, 0);
        if (errno || end == v)
                return 0;
        return n != 0;
}

/* Whether selinux comes in the lsm= list before apparmor and smack, the exclusive LSMs that
 * would take its place (the library's rule in kconfig.c). */
static bool lsm_selinux_first(const char *list)
{
        for (const char *p = list; p && *p;) {
                size_t n = strcspn(p, ",");

                if (n == 7 && strncmp(p, "selinux", 7) == 0)
                        return true;
                if ((n == 8 && strncmp(p, "apparmor", 8) == 0) ||
                    (n == 5 && strncmp(p, "smack", 5) == 0))
                        return false;
                p += n + (p[n] == ',');
        }
        return false;
}

/* Whether the comma-separated list @list names @item. */
static bool list_has(const char *list, const char *item)
{
        size_t n = strlen(item);

        for (const char *p = list; p && *p;) {
                const char *comma = strchr(p, ',');
                size_t len = comma ? (size_t) (comma - p) : strlen(p);

                if (len == n && strncmp(p, item, n) == 0)
                        return true;
                p = comma ? comma + 1 : NULL;
        }
        return false;
}

int fb_info_read(struct seinstall_ctx *ctx, struct fb_info *info,
                 struct seinstall_status **ret_status)
{
        struct seinstall_status *status = NULL;
        struct fb_state *st = &info->state;
        const char *security, *lsm;
        enum seinstall_mode active;
        int r;

        r = seinstall_status_read(ctx, &status);
        if (r < 0)
                return r;

        memset(info, 0, sizeof(*info));
        info->root = seinstall_get_root(ctx);
        info->cmdline = seinstall_status_get_cmdline(status);
        info->mark_mode = seinstall_status_get_firstboot_pending(status)
                              ? seinstall_status_get_firstboot_mode(status)
                              : SEINSTALL_MODE_INVALID;

        st->config_mode = seinstall_status_get_config_mode(status);
        st->policy_type = seinstall_status_get_config_policy(status);
        st->kernel = kernel_from_case(seinstall_status_get_kernel_case(status));

        st->cmdline.selinux = int_arg(status, "selinux");
        st->cmdline.enforcing = int_arg(status, "enforcing");
        security = seinstall_status_get_kernel_arg(status, "security");
        st->cmdline.security_selinux = security && strcmp(security, "selinux") == 0;
        st->cmdline.security_other = security && !st->cmdline.security_selinux;
        lsm = seinstall_status_get_kernel_arg(status, "lsm");
        st->cmdline.lsm = lsm != NULL;
        st->cmdline.lsm_selinux = lsm_selinux_first(lsm);
        st->cmdline.lsm_has_selinux = list_has(lsm, "selinux");
        st->boot_mode = seinstall_status_get_boot_mode(status);

        /* INVALID: the root is not "/", the running system is another one. */
        active = seinstall_status_get_active(status);
        st->running = active != SEINSTALL_MODE_INVALID;
        st->active = active == SEINSTALL_MODE_ENFORCING || active == SEINSTALL_MODE_PERMISSIVE;
        st->enforce_now = active == SEINSTALL_MODE_ENFORCING;
        st->relabel_pending = seinstall_status_get_relabel_pending(status);
        st->firstboot_mark = seinstall_status_get_firstboot_pending(status);

        *ret_status = status;
        return 0;
}

enum seinstall_mode fb_info_initial_mode(const struct fb_info *info)
{
        if (info->mark_mode != SEINSTALL_MODE_INVALID)
                return info->mark_mode;
        if (info->state.boot_mode != SEINSTALL_MODE_INVALID)
                return info->state.boot_mode;
        if (info->state.config_mode != SEINSTALL_MODE_INVALID)
                return info->state.config_mode;
        return SEINSTALL_MODE_DISABLED;
}
