/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* marks.h — the marks a boot acts on: the relabel mark /.autorelabel (autorelabel.c) and the
 * first-boot mark (firstbootmark.c). Not installed. */
#ifndef SEINSTALL_MARKS_H
#define SEINSTALL_MARKS_H

#include "seinstall-private.h"

/* ---- the relabel mark (autorelabel.c) and the first-boot mark (firstbootmark.c) -------- */

/* Whether a relabel is scheduled in the target. */
bool si_autorelabel_pending(struct seinstall_ctx *ctx);
/* Write "-F" into /.autorelabel, or /etc/selinux/.autorelabel on a read-only root. Returns 1
 * written, 0 already there, -errno; *ret_path names the file used (static). */
int si_autorelabel_schedule(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path);

struct si_firstboot_mark {
        bool present;
        enum seinstall_mode mode; /* INVALID for mode=trial */
        bool trial;               /* mode=trial */
        bool relabel;
        bool chosen_after_install; /* chosen=after-install: the mode was
                                    * chosen on the first boot, not at install */
};
int si_firstboot_mark_read(struct seinstall_ctx *ctx, struct si_firstboot_mark *ret);
/* 1 written, 0 already so, -errno. */
int si_firstboot_mark_write(struct seinstall_ctx *ctx, enum seinstall_mode mode, bool trial,
                            const char *policy, bool relabel, unsigned wflags);

#endif
