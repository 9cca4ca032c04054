/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * config-write.c — writing the target's /etc/selinux/config: the text config.c renders,
 * replaced atomically and labeled (rootfs-write.c) only when it differs, with what changed
 * said key by key.
 */
#include "seinstall-private.h"
#include "config.h"

/* What rewriting a config that said @old changes, naming only the keys whose value changes:
 * "SELINUX=permissive (was enforcing)"; a key kept as it was is no change. A file rewritten
 * with the same values (a second assignment dropped) says that. */
static int config_change_text(const struct seinstall_ctx *ctx, const struct si_config *old,
                              enum seinstall_mode mode, const char *type, struct sbuf *what)
{
        bool mode_changes = old->mode != mode, type_changes = !old->type || !streq(old->type, type);
        int r = 0;

        if (mode_changes)
                r = sbuf_printf(
                    what, si_tr(ctx, "SELINUX=%s (was %s)"), seinstall_mode_to_string(mode),
                    old->mode == SEINSTALL_MODE_INVALID ? si_tr(ctx, "unset")
                                                        : seinstall_mode_to_string(old->mode));
        if (r >= 0 && type_changes)
                r = sbuf_printf(what, "%s", mode_changes ? ", " : "");
        if (r >= 0 && type_changes)
                r = sbuf_printf(what, si_tr(ctx, "SELINUXTYPE=%s (was %s)"), type,
                                old->type ? old->type : si_tr(ctx, "unset"));
        if (r >= 0 && !mode_changes && !type_changes)
                r = sbuf_printf(what,
                                si_tr(ctx, "rewritten, keeping SELINUX=%s and SELINUXTYPE=%s"),
                                seinstall_mode_to_string(mode), type);
        return r;
}

int si_config_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *type,
                    unsigned wflags, struct sbuf *what)
{
        _cleanup_free_ char *old = NULL, *new = NULL;
        struct si_config c = {};
        size_t len = 0;
        int r;

        r = si_root_read_replaced(ctx, SI_CONFIG_PATH, SI_TEXT_FILE_MAX, &old, &len);
        if (r < 0 && r != -ENOENT)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root, SI_CONFIG_PATH,
                                si_strerror(ctx, r));
        /* Strings end at a NUL: rendering such a file would compare or write only its first
         * part (apply then reported a mode the file did not say). */
        if (old && memchr(old, '\0', len)) {
                const char *nul = memchr(old, '\0', len);
                unsigned line = 1;
                for (const char *p = old; p < nul; p++)
                        line += *p == '\n';
                return si_error(ctx, -EBADMSG,
                                "%s%s:%u: not a text file (NUL byte): leaving it alone; "
                                "remove the NUL bytes and run again",
                                ctx->root, SI_CONFIG_PATH, line);
        }
        r = si_config_render(old, len, mode, type, &new);
        if (r < 0)
                return r;
        if (old && streq(old, new))
                return 0;
        if (old) {
                r = si_config_parse(old, len, &c);
                if (r < 0)
                        return r;
        }
        r = si_root_mkdir_p(ctx, "/etc/selinux", 0755, wflags);
        if (r >= 0)
                r = si_root_write_atomic(ctx, SI_CONFIG_PATH, new, strlen(new), 0644, wflags);
        if (r < 0) {
                si_config_done(&c);
                return si_error(ctx, r, "Could not write %s%s: %s", ctx->root, SI_CONFIG_PATH,
                                si_strerror(ctx, r));
        }
        if (!old)
                r = sbuf_printf(what, si_tr(ctx, "created: SELINUX=%s SELINUXTYPE=%s"),
                                seinstall_mode_to_string(mode), type);
        else
                r = config_change_text(ctx, &c, mode, type, what);
        si_config_done(&c);
        return r < 0 ? r : 1;
}
