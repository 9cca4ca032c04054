/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* walk-internal.h — what the parts of the tree walker share among themselves (walk.c the
 * per-directory descent, walk-pool.c the threads and their queue, walk-msg.c errors and
 * messages, walk-links.c the files with several names, walk-mount.c the mount boundary). The
 * relabel engine sees only walk.h. */
#ifndef SEINSTALL_WALK_INTERNAL_H
#define SEINSTALL_WALK_INTERNAL_H

#include "walk.h"

/* A directory waiting in the queue for a worker thread. */
struct si_walk_work {
        int fd; /* open directory, O_RDONLY */
        char *path;
        size_t len;
        dev_t dev;
        uint64_t mnt; /* mount ID of the directory (statx STATX_MNT_ID) */
};

/* walk.c: depth-first walk of one directory (already visited) with an explicit stack; takes
 * over @start->fd. */
void si_walk_dir(struct si_walker *w, struct si_walk_work *start);

/* walk-msg.c: record a mount that is not labeled, with why (takes the lock). */
int si_walk_add_skipped(struct si_walk *j, const char *path, const char *fstype,
                        const char *reason);
/* si_walk_error() also in a later pass of the files with several names (which says nothing
 * else: the first pass said it). */
void si_walk_links_error(struct si_walk *j, struct si_walker *w, const char *fmt, ...)
    _printf_(3, 4);
/* Hand the queued messages to the context's log callback. Only the thread that runs the walk
 * calls this, without the lock held (the callback may take its time). */
void si_walk_msgs_flush(struct si_walk *j);

/* walk-links.c: the default bound of the table of files with several names: 524,288 files
 * (16-byte slots, at most 16 MiB) and 48 MiB of their names. */
#define SI_WALK_LINKS_MAX ((size_t) 1 << 19)
#define SI_WALK_NAMES_MAX ((size_t) 48 << 20)
/* A file with several names met at @path: remember it and its name that sorts first so far.
 * Returns 1 for a file not met before, 0 for another name of one, SI_WALK_LINK_LATER for a file
 * a later pass handles (nothing to do with it now), or a negative errno: -ENOSPC when even a
 * part of one file cannot fit, -EOVERFLOW for a device number no kernel makes, -ENOMEM (the
 * file is not labeled; the caller reports it). @mode is not used. */
#define SI_WALK_LINK_LATER 2
int si_walk_links_add(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode);
/* After a pass and its si_walk_links_label(): move to the next part of the files with several
 * names and empty the table; false when every part has had its pass. */
bool si_walk_links_next_pass(struct si_walk *j);
/* The name remembered for the file (@dev, @ino), or NULL (for tests). */
const char *si_walk_links_find(struct si_walk *j, dev_t dev, ino_t ino);
/* Label each file with several names once, after the walk, from the caller's thread. */
void si_walk_links_label(struct si_walk *j, struct si_walker *w);
void si_walk_links_free(struct si_walk *j);

/* walk-mount.c: the used inodes of @fd's filesystem (0 when unknown), for the progress total. */
unsigned long long si_walk_used_inodes(int fd);
/* Whether the mount at @path (in the target) shows a filesystem that is also mounted outside
 * the target with its content there; an allocated reason, or NULL. */
char *si_walk_mounted_outside(struct seinstall_ctx *ctx, const char *path);

#endif
