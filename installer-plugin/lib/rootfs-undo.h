/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rootfs-undo.h — the journal of a stage's writes, shared by the journal (rootfs-undo.c) and
 * its rollback (rootfs-rollback.c). Not installed. */
#ifndef SEINSTALL_ROOTFS_UNDO_H
#define SEINSTALL_ROOTFS_UNDO_H

#include "seinstall-private.h"

/* The most one noted file may hold: what a stage writes is configuration. */
#define UNDO_FILE_MAX (1024 * 1024)
#define UNDO_MAX      256

enum undo_kind { UNDO_ABSENT, UNDO_FILE, UNDO_LINK, UNDO_MADE_DIR };

struct undo_entry {
        char *path;
        enum undo_kind kind;
        char *data; /* the file's bytes or the link's target */
        size_t len;
};

struct si_undo {
        struct undo_entry v[UNDO_MAX];
        size_t n;
        bool failed; /* a change could not be noted: a rollback cannot be complete */
};

/* The parent directory of @path, opened inside the root (O_PATH), and @path's last component
 * in *ret_base. */
int si_undo_open_dir_of(struct seinstall_ctx *ctx, const char *path, const char **ret_base);

#endif
