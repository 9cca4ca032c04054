/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.c — the one reader of a mountinfo file (/proc/self/mountinfo), through libmount:
 * its fields split and unescaped ("\040" is a blank) as util-linux reads them, for the mount
 * boundary (mount-boundary.c), the sandbox's cgroup (sandbox-cgroup.c) and the denials'
 * file lookup (avc-locate.c). The forked sandbox child reads it on its own, with system
 * calls only (sandbox-child.c).
 */
#include <libmount/libmount.h>

#include "seinstall-private.h"

void si_mountinfo_done(struct si_mountinfo *mi)
{
        free(mi->v);
        mnt_unref_table(mi->tb);
        *mi = (struct si_mountinfo){};
}

/* A line libmount cannot parse is left out, as the hand-written readers before it did. */
static int skip_line(struct libmnt_table *tb, const char *file, int line)
{
        (void) tb;
        (void) file;
        (void) line;
        return 1;
}

int si_mountinfo_read(const char *path, struct si_mountinfo *ret)
{
        struct si_mountinfo mi = {.tb = mnt_new_table()};
        struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        int r;

        if (!mi.tb || !it) {
                r = -ENOMEM;
                goto out;
        }
        mnt_table_set_parser_errcb(mi.tb, skip_line);
        r = mnt_table_parse_file(mi.tb, path);
        if (r < 0) {
                r = r == -ENOMEM ? r : -EIO;
                goto out;
        }
        mi.v = calloc((size_t) mnt_table_get_nents(mi.tb) + 1, sizeof(*mi.v));
        if (!mi.v) {
                r = -ENOMEM;
                goto out;
        }
        while (mnt_table_next_fs(mi.tb, it, &fs) == 0) {
                struct si_mountinfo_entry *e = &mi.v[mi.n];
                const char *root = mnt_fs_get_root(fs), *point = mnt_fs_get_target(fs);
                const char *fstype = mnt_fs_get_fstype(fs);

                if (!root || !point || !fstype || mnt_fs_get_id(fs) < 0)
                        continue;
                *e = (struct si_mountinfo_entry){
                    .id = (uint64_t) mnt_fs_get_id(fs),
                    .parent = (uint64_t) mnt_fs_get_parent_id(fs),
                    .dev = mnt_fs_get_devno(fs),
                    .root = root,
                    .point = point,
                    .fstype = fstype,
                    .source = mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "",
                    .super = mnt_fs_get_fs_options(fs) ? mnt_fs_get_fs_options(fs) : "",
                };
                mi.n++;
        }
        *ret = mi;
        mi = (struct si_mountinfo){};
        r = 0;
out:
        mnt_free_iter(it);
        si_mountinfo_done(&mi);
        return r;
}
