/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* avc.h — private interface between the parts of `seinstall avc`: the group a denial is
 * explained into (avc-classify.c), the report that gathers the groups (avc-report.c), and the
 * search for a file logged by device and inode (avc-locate.c). */
#ifndef SEINSTALL_AVC_H
#define SEINSTALL_AVC_H

#include "seinstall-private.h"

/* One explained denial, or a group of like ones in a report. */
struct si_avc_group {
        enum seinstall_avc_cause cause;
        char *domain, *type, *tclass, *perms, *scontext, *tcontext;
        char *path, *name, *comm, *expected, *fix;
        bool permissive;
        unsigned count;
};
void si_avc_group_done(struct si_avc_group *g);

/* Count denial @a in @rep and add its explanation @g (taken over, emptied; NULL: counted only)
 * to the group of like denials, or as a new group. 0 or -ENOMEM. */
int si_avc_report_add(struct seinstall_avc_report *rep, const struct si_avc *a,
                      struct si_avc_group *g);

/* The mount point (in the host's namespace) of the filesystem the kernel calls @dev, or NULL. */
char *si_avc_mount_of_dev(const char *dev);
/* Breadth-first search below @top (same filesystem, bounded) for @name with inode @ino; the
 * path or NULL. */
char *si_avc_search_ino(const char *top, const char *name, unsigned long long ino);

#endif
