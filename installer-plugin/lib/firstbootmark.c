/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * firstbootmark.c — the first-boot mark (SEINSTALL_FIRSTBOOT_MARK): written by an install so
 * that seinstall-firstboot shows its screen on the installed system's first boot, with the
 * mode chosen at install time and whether a relabel was scheduled; removed by that screen.
 * A trial install writes mode=trial: the mode is then decided by seinstall-trial.service, and
 * a screen left untouched must not choose one (readers that know no "trial" see no mode).
 * A mode chosen on the screen itself and kept for the boot after a relabel is noted with
 * chosen=after-install, so that the screen does not call it the install's choice when it comes
 * back.
 */
#include "seinstall-private.h"
#include "config.h"
#include "marks.h"

int si_firstboot_mark_read(struct seinstall_ctx *ctx, struct si_firstboot_mark *ret)
{
        _cleanup_free_ char *text = NULL;
        const char *pos, *end, *line;
        struct si_firstboot_mark m = {.mode = SEINSTALL_MODE_INVALID};
        size_t len, n;
        int r;

        r = si_root_read_replaced(ctx, SEINSTALL_FIRSTBOOT_MARK, 64 * 1024, &text, &len);
        if (r == -ENOENT) {
                *ret = m;
                return 0;
        }
        if (r < 0)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root,
                                SEINSTALL_FIRSTBOOT_MARK, si_strerror(ctx, r));
        m.present = true;
        pos = text, end = text + len;
        while (next_line(&pos, end, &line, &n)) {
                _cleanup_free_ char *l = strndup(line, n);
                const char *v;
                if (!l)
                        return -ENOMEM;
                if ((v = startswith(l, "mode="))) {
                        m.mode = si_config_mode_from_string(v);
                        m.trial = streq(v, "trial");
                } else if ((v = startswith(l, "relabel=")))
                        m.relabel = streq(v, "pending");
                else if ((v = startswith(l, "chosen=")))
                        m.chosen_after_install = streq(v, "after-install");
        }
        *ret = m;
        return 0;
}

int si_firstboot_mark_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, bool trial,
                            const char *policy, bool relabel, unsigned wflags)
{
        _cleanup_free_ char *text = NULL;
        int r;

        if (asprintf(&text, "mode=%s\npolicy=%s\nrelabel=%s\n",
                     trial ? "trial" : seinstall_mode_to_string(mode), policy,
                     relabel ? "pending" : "done") < 0)
                return -ENOMEM;
        r = si_root_write_if_changed(ctx, SEINSTALL_FIRSTBOOT_MARK, text, 64 * 1024, wflags);
        if (r < 0)
                return si_error(ctx, r, "Could not write the first-boot mark %s%s: %s", ctx->root,
                                SEINSTALL_FIRSTBOOT_MARK, si_strerror(ctx, r));
        return r;
}

int seinstall_firstboot_mark_set_chosen_after_install(struct seinstall_ctx *ctx)
{
        _cleanup_free_ char *text = NULL, *noted = NULL;
        struct si_firstboot_mark m;
        size_t len;
        int r;

        if (!ctx)
                return -EINVAL;
        r = si_firstboot_mark_read(ctx, &m);
        if (r < 0)
                return r;
        if (!m.present)
                return -ENOENT;
        if (m.chosen_after_install)
                return 0;
        r = si_root_read_replaced(ctx, SEINSTALL_FIRSTBOOT_MARK, 64 * 1024, &text, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root,
                                SEINSTALL_FIRSTBOOT_MARK, si_strerror(ctx, r));
        if (asprintf(&noted, "%s%schosen=after-install\n", text,
                     len > 0 && text[len - 1] != '\n' ? "\n" : "") < 0)
                return -ENOMEM;
        r = si_root_write_if_changed(ctx, SEINSTALL_FIRSTBOOT_MARK, noted, 64 * 1024, 0);
        if (r < 0)
                return si_error(ctx, r, "Could not write the first-boot mark %s%s: %s", ctx->root,
                                SEINSTALL_FIRSTBOOT_MARK, si_strerror(ctx, r));
        return r;
}

int seinstall_firstboot_mark_remove(struct seinstall_ctx *ctx)
{
        int r;

        if (!ctx)
                return -EINVAL;
        r = si_root_unlink(ctx, SEINSTALL_FIRSTBOOT_MARK, 0);
        if (r < 0)
                return si_error(ctx, r, "Could not remove %s%s: %s", ctx->root,
                                SEINSTALL_FIRSTBOOT_MARK, si_strerror(ctx, r));
        return 0;
}
