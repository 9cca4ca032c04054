/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootopts.c — the installer's own kernel command line (/proc/cmdline, or a file): the choices
 * a person made at the boot prompt, which rank above everything else. Understands the kernel's
 * selinux=0 and enforcing=0/1, Anaconda's inst.selinux=0, noselinux and inst.ks=file:PATH, and
 * seinstall.mode=, seinstall.policy=, seinstall.unsupported=.
 */
#include "configure.h"

#define CMDLINE_MAX (256 * 1024)

/* Next argument of a kernel command line: blanks separate, double quotes group (the kernel's
 * next_arg()); the quotes are removed from the result. */
static char *next_arg(const char **pos)
{
        const char *p = *pos;
        struct sbuf b = {};
        bool quoted = false;

        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                p++;
        if (!*p)
                return NULL;
        for (; *p && (quoted || !strchr(" \t\n\r", *p)); p++) {
                if (*p == '"')
                        quoted = !quoted;
                else if (sbuf_append(&b, p, 1) < 0) {
                        sbuf_free(&b);
                        return NULL;
                }
        }
        *pos = p;
        return sbuf_steal(&b);
}

int si_bootopts_parse(struct seinstall_ctx *ctx, const char *name, const char *text,
                      struct seinstall_settings *s, char **ret_profile)
{
        _cleanup_free_ char *policy = NULL, *profile = NULL;
        enum seinstall_mode explicit_mode = SEINSTALL_MODE_INVALID;
        bool disabled = false;
        int enforcing = -1, unsupported = -1, r = 0;
        const char *pos = text;
        char *arg;

        while (r >= 0 && (arg = next_arg(&pos))) {
                _cleanup_free_ char *a = arg;
                const char *v;

                if (streq(a, "selinux=0") || streq(a, "inst.selinux=0") || streq(a, "noselinux"))
                        disabled = true;
                else if (streq(a, "enforcing=0"))
                        enforcing = 0;
                else if (streq(a, "enforcing=1"))
                        enforcing = 1;
                else if ((v = startswith(a, "seinstall.mode="))) {
                        explicit_mode = seinstall_mode_from_string(v);
                        if (explicit_mode == SEINSTALL_MODE_INVALID)
                                r = si_error(ctx, -EBADMSG,
                                             "%s: seinstall.mode=%s: use enforcing, permissive "
                                             "or disabled",
                                             name, v);
                } else if ((v = startswith(a, "seinstall.policy="))) {
                        if (!si_policy_type_valid(v))
                                r = si_error(ctx, -EBADMSG,
                                             "%s: seinstall.policy=%s is not a policy type", name,
                                             v);
                        else if (!(policy = (free(policy), strdup(v))))
                                r = -ENOMEM;
                } else if ((v = startswith(a, "seinstall.unsupported="))) {
                        if (streq(v, "refuse") || streq(v, "warn"))
                                unsupported = streq(v, "warn");
                        else
                                r = si_error(ctx, -EBADMSG,
                                             "%s: seinstall.unsupported=%s: use refuse or warn",
                                             name, v);
                } else if ((v = startswith(a, "inst.ks="))) {
                        const char *path = startswith(v, "file:");
                        if (!path || path[0] != '/')
                                si_warn(ctx,
                                        "%s: inst.ks=%s ignored: seinstall reads only local "
                                        "profiles (inst.ks=file:/PATH)",
                                        name, v);
                        else if (!(profile = (free(profile), strdup(path))))
                                r = -ENOMEM;
                }
        }
        if (r < 0)
                return r;
        /* The explicit seinstall.mode= wins; then "off" (whichever way it was said) over
         * permissive, since selinux=0 enforcing=0 boots without SELinux. */
        if (explicit_mode != SEINSTALL_MODE_INVALID)
                r = seinstall_settings_set_mode(s, explicit_mode, SEINSTALL_SOURCE_BOOT);
        else if (disabled)
                r = seinstall_settings_set_mode(s, SEINSTALL_MODE_DISABLED, SEINSTALL_SOURCE_BOOT);
        else if (enforcing >= 0)
                r = seinstall_settings_set_mode(
                    s, enforcing ? SEINSTALL_MODE_ENFORCING : SEINSTALL_MODE_PERMISSIVE,
                    SEINSTALL_SOURCE_BOOT);
        if (r >= 0 && policy)
                r = seinstall_settings_set_policy(s, policy, SEINSTALL_SOURCE_BOOT);
        if (r >= 0 && unsupported >= 0)
                r = seinstall_settings_set_unsupported_warn(s, unsupported, SEINSTALL_SOURCE_BOOT);
        if (r < 0)
                return r;
        if (ret_profile)
                *ret_profile = TAKE_PTR(profile);
        return 0;
}

SEINSTALL_EXPORT int seinstall_settings_load_boot_options(struct seinstall_settings *s,
                                                          struct seinstall_ctx *ctx,
                                                          const char *cmdline_file,
                                                          char **ret_profile)
{
        const char *path = cmdline_file ? cmdline_file : "/proc/cmdline";
        _cleanup_free_ char *text = NULL;
        size_t len;
        int r;

        if (!s || !ctx)
                return -EINVAL;
        r = read_file_bounded(path, CMDLINE_MAX, &text, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read the kernel command line %s: %s", path,
                                si_file_strerror(r));
        if (memchr(text, '\0', len))
                return si_error(ctx, -EBADMSG, "%s: not a kernel command line (NUL byte)", path);
        return si_bootopts_parse(ctx, path, text, s, ret_profile);
}
