/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * autorelabel.c — scheduling a relabel at the target's next boot. Distributions' autorelabel
 * machinery relabels when /.autorelabel exists and passes its content to fixfiles as flags, so
 * it gets "-F" (reset every label, user and customizable types too). A root mounted read-only
 * at boot cannot hold it: there /etc/selinux/.autorelabel is used.
 */
#include <fcntl.h>

#include "seinstall-private.h"
#include "marks.h"

#define AUTORELABEL    "/.autorelabel"
#define AUTORELABEL_RO "/etc/selinux/.autorelabel"

bool si_autorelabel_pending(struct seinstall_ctx *ctx)
{
        _cleanup_close_ int a = si_root_open(ctx, AUTORELABEL, O_PATH | O_NOFOLLOW, 0);
        _cleanup_close_ int b = si_root_open(ctx, AUTORELABEL_RO, O_PATH | O_NOFOLLOW, 0);

        return a >= 0 || b >= 0;
}

/* Whether the target's fstab mounts / read-only. */
static bool root_mounted_ro(struct seinstall_ctx *ctx)
{
        _cleanup_free_ char *text = NULL;
        const char *pos, *end, *line;
        size_t len, n;

        if (si_root_read_file(ctx, "/etc/fstab", SI_TEXT_FILE_MAX, &text, &len) < 0)
                return false;
        pos = text, end = text + len;
        while (next_line(&pos, end, &line, &n)) {
                _cleanup_free_ char *copy = strndup(line, n);
                char *save = NULL, *f[4] = {};
                if (!copy)
                        return false;
                f[0] = strtok_r(copy, " \t", &save);
                for (int i = 1; f[0] && f[0][0] != '#' && i < 4; i++)
                        f[i] = strtok_r(NULL, " \t", &save);
                if (!f[3] || !streq(f[1], "/"))
                        continue;
                for (char *o = strtok_r(f[3], ",", &save); o; o = strtok_r(NULL, ",", &save))
                        if (streq(o, "ro"))
                                return true;
        }
        return false;
}

int si_autorelabel_schedule(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path)
{
        const char *path = root_mounted_ro(ctx) ? AUTORELABEL_RO : AUTORELABEL;
        int r;

        r = si_root_write_if_changed(ctx, path, "-F\n", 4096, wflags);
        if (r == -EROFS && streq(path, AUTORELABEL)) {
                path = AUTORELABEL_RO;
                r = si_root_write_if_changed(ctx, path, "-F\n", 4096, wflags);
        }
        if (r < 0)
                return si_error(ctx, r, "Could not schedule a relabel: writing %s%s: %s", ctx->root,
                                path, si_strerror(ctx, r));
        *ret_path = path;
        return r;
}
