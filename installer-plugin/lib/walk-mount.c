/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-mount.c — the tree walker's mount boundary: which mounts below the target's root are
 * walked (those whose filesystem keeps per-file labels, as `check` classified them or by
 * filesystem type), and which are bind mounts of files outside the target, never labeled.
 */
#include <libmount/libmount.h>
#include <sys/statfs.h>

#include "fcontext.h"
#include "walk-internal.h"
#include "check-stage.h"

/* Whether the filesystem of @fd is to be labeled; else its name and why not. */
static bool fs_labelable(int fd, const char **ret_name, const char **ret_reason)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0) {
                *ret_name = "unknown";
                *ret_reason = "cannot read its filesystem type";
                return false;
        }
        return si_fs_magic_labelable((unsigned long) sf.f_type, ret_name, ret_reason);
}

/* Whether @a is @b or below it, as paths. */
static bool path_under(const char *a, const char *b)
{
        size_t n = strlen(b);

        if (streq(b, "/"))
                return true;
        return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

static void unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}

/* Whether the mount at @path (in the target) shows a filesystem that is also mounted outside
 * the target with its content there: a bind mount of a directory of the installer's own
 * system. Labeling it would label files outside the target. Returns an allocated reason, or
 * NULL (also when the mount table cannot be read: the walk then labels as before). */
char *si_walk_mounted_outside(struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_(unref_tablep) struct libmnt_table *tb = NULL;
        _cleanup_free_ char *root = NULL, *full = NULL;
        struct libmnt_iter *it;
        struct libmnt_fs *fs, *o;
        const char *froot;
        char *reason = NULL;
        char link[64];

        snprintf(link, sizeof(link), "/proc/self/fd/%d", ctx->root_fd);
        root = realpath(link, NULL);
        tb = mnt_new_table_from_file("/proc/self/mountinfo");
        if (!root || !tb || asprintf(&full, "%s%s", streq(root, "/") ? "" : root, path) < 0)
                return NULL;
        fs = mnt_table_find_target(tb, full, MNT_ITER_BACKWARD);
        froot = fs ? mnt_fs_get_root(fs) : NULL;
        it = mnt_new_iter(MNT_ITER_FORWARD);
        if (!froot || !it) {
                mnt_free_iter(it);
                return NULL;
        }
        while (!reason && mnt_table_next_fs(tb, it, &o) == 0) {
                const char *ot = mnt_fs_get_target(o), *oroot = mnt_fs_get_root(o);
                if (o == fs || mnt_fs_get_devno(o) != mnt_fs_get_devno(fs) || !ot || !oroot ||
                    path_under(ot, root) || !path_under(froot, oroot))
                        continue;
                if (asprintf(&reason,
                             "its files are also mounted outside the target, at %s (a bind "
                             "mount of the installer's own files?): not labeled",
                             ot) < 0)
                        reason = NULL;
        }
        mnt_free_iter(it);
        return reason;
}

bool si_walk_mount_labelable(const struct seinstall_check_result *check, const char *path, int fd,
                             const char **ret_fstype, const char **ret_reason)
{
        const char *mp = *path ? path : "/";

        for (size_t i = 0; check && i < seinstall_check_result_get_n_mounts(check); i++) {
                enum seinstall_labeling l;
                if (!streq_ptr(seinstall_check_result_get_mount_mountpoint(check, i), mp))
                        continue;
                l = seinstall_check_result_get_mount_labeling(check, i);
                *ret_fstype = seinstall_check_result_get_mount_fstype(check, i);
                *ret_reason = seinstall_check_result_get_mount_reason(check, i);
                if (!*ret_fstype)
                        *ret_fstype = "unknown";
                if (!*ret_reason || !**ret_reason)
                        *ret_reason = seinstall_labeling_to_string(l);
                return l == SEINSTALL_LABELING_XATTR;
        }
        return fs_labelable(fd, ret_fstype, ret_reason);
}

unsigned long long si_walk_used_inodes(int fd)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0 || sf.f_files < sf.f_ffree)
                return 0;
        return (unsigned long long) (sf.f_files - sf.f_ffree);
}
