/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kconfig.c — which kernel case (docs/design.md) the target's kernel is, read from its
 * /boot/config-*: SELinux the default LSM (off needs selinux=0), built in but opt-in (on needs
 * security=selinux or selinux in lsm=), not built, or unknown (no config, or kernels disagree).
 */
#include "seinstall-private.h"
#include "config.h"

#define SI_KCONFIG_MAX (8 * 1024 * 1024) /* a kernel config is a few hundred KiB */

void si_kconfig_done(struct si_kconfig *k)
{
        free(k->file);
        k->file = NULL;
}

/* The value of CONFIG_@name in a kernel config ("y", a quoted string without its quotes),
 * NULL when it is not set. Allocated. */
static char *kconfig_get(const char *text, size_t len, const char *name)
{
        const char *pos = text, *end = text + len, *line;
        size_t n, nlen = strlen(name);

        while (next_line(&pos, end, &line, &n)) {
                if (n <= nlen + 1 || strncmp(line, name, nlen) != 0 || line[nlen] != '=')
                        continue;
                line += nlen + 1, n -= nlen + 1;
                if (n >= 2 && line[0] == '"' && line[n - 1] == '"')
                        line++, n -= 2;
                return strndup(line, n);
        }
        return NULL;
}

bool si_lsm_list_selinux_first(const char *list)
{
        const char *p = list;

        while (*p) {
                size_t n = strcspn(p, ",");
                if (n == 7 && strncmp(p, "selinux", 7) == 0)
                        return true;
                if ((n == 8 && strncmp(p, "apparmor", 8) == 0) ||
                    (n == 5 && strncmp(p, "smack", 5) == 0))
                        return false;
                p += n;
                if (*p == ',')
                        p++;
        }
        return false;
}

enum seinstall_kernel_case si_kconfig_case_of(const char *text, size_t len, bool *ret_bootparam)
{
        _cleanup_free_ char *selinux = kconfig_get(text, len, "CONFIG_SECURITY_SELINUX");
        _cleanup_free_ char *bootparam =
            kconfig_get(text, len, "CONFIG_SECURITY_SELINUX_BOOTPARAM");
        _cleanup_free_ char *lsm = kconfig_get(text, len, "CONFIG_LSM");
        _cleanup_free_ char *dflt = kconfig_get(text, len, "CONFIG_DEFAULT_SECURITY");
        _cleanup_free_ char *dflt_selinux =
            kconfig_get(text, len, "CONFIG_DEFAULT_SECURITY_SELINUX");

        if (ret_bootparam)
                *ret_bootparam = bootparam && streq(bootparam, "y");
        if (!selinux || !streq(selinux, "y"))
                return SEINSTALL_KERNEL_CASE_NO_SELINUX;
        /* Since 5.1 CONFIG_LSM orders the LSMs and the first exclusive one wins; before it,
         * CONFIG_DEFAULT_SECURITY named the one major LSM. */
        if (lsm)
                return si_lsm_list_selinux_first(lsm) ? SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT
                                                      : SEINSTALL_KERNEL_CASE_SELINUX_OPTIN;
        if ((dflt && streq(dflt, "selinux")) || (dflt_selinux && streq(dflt_selinux, "y")))
                return SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT;
        return SEINSTALL_KERNEL_CASE_SELINUX_OPTIN;
}

int si_kconfig_read(struct seinstall_ctx *ctx, struct si_kconfig *ret)
{
        struct si_kconfig k = {.kcase = SEINSTALL_KERNEL_CASE_UNKNOWN};
        bool disagree = false;
        char **paths = NULL;
        size_t n = 0;
        int r;

        r = si_root_list(ctx, "/boot", "config-", NULL, &paths, &n);
        if (r < 0)
                return si_error(ctx, r, "Could not list %s/boot: %s", ctx->root,
                                si_file_strerror(r));
        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_free_ char *text = NULL;
                enum seinstall_kernel_case c;
                bool bootparam;
                size_t len;

                r = si_root_read_file(ctx, paths[i], SI_KCONFIG_MAX, &text, &len);
                if (r < 0) {
                        r = si_error(ctx, r, "Could not read %s%s: %s", ctx->root, paths[i],
                                     si_file_strerror(r));
                        break;
                }
                c = si_kconfig_case_of(text, len, &bootparam);
                if (i == 0) {
                        k.kcase = c;
                        k.bootparam = bootparam;
                } else if (c != k.kcase && !disagree) {
                        /* Kernels that disagree: write what works for all of them. */
                        si_warn(ctx, "%s%s and %s%s turn SELinux on differently: doing both",
                                ctx->root, k.file, ctx->root, paths[i]);
                        disagree = true;
                }
                k.bootparam = k.bootparam || bootparam;
                /* Keep the last (highest sorted) config's name: the newest kernel, usually. */
                free(k.file);
                k.file = TAKE_PTR(paths[i]);
        }
        si_strv_free(paths, n);
        if (r < 0) {
                si_kconfig_done(&k);
                return r;
        }
        if (disagree)
                k.kcase = SEINSTALL_KERNEL_CASE_UNKNOWN;
        *ret = k;
        return 0;
}
