/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-fs.c — what the policy says about filesystems: the fs_use_* and genfscon statements by
 * filesystem type, and the context of files the kernel cannot label; from the binary policy, or
 * from the built-in table of Debian's default policy when there is none.
 *
 * `seinfo --fs_use` lists nothing for Debian's policy on this machine (a setools quirk); the
 * statements are read here straight from the policydb's ocontexts and genfs lists.
 */
#include <sepol/policydb/services.h>

#include "policy-internal.h"
#include "policy.h"

/* The initial SID the kernel gives files it cannot label (SECINITSID_UNLABELED). */
#define SECINITSID_UNLABELED 3

struct builtin_fs_use {
        const char *fstype;
        enum si_fs_use use;
        const char *context;
};
struct builtin_genfs {
        const char *fstype;
        const char *context; /* for "/" */
};

/* Dumped from Debian 12's selinux-policy-default (2:2.20221101-2, policy.33) with libsepol. */
static const struct builtin_fs_use builtin_fs_use[] = {
    {"btrfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"encfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"erofs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"ext2", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"ext3", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"ext4", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"ext4dev", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"f2fs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"gfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"gfs2", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"gpfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"jffs2", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"jfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"lustre", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"overlay", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"squashfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"ubifs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"xfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"zfs", SI_FS_USE_XATTR, "system_u:object_r:fs_t:s0"},
    {"devpts", SI_FS_USE_TRANS, "system_u:object_r:devpts_t:s0"},
    {"devtmpfs", SI_FS_USE_TRANS, "system_u:object_r:device_t:s0"},
    {"hugetlbfs", SI_FS_USE_TRANS, "system_u:object_r:hugetlbfs_t:s0"},
    {"mqueue", SI_FS_USE_TRANS, "system_u:object_r:tmpfs_t:s0"},
    {"ramfs", SI_FS_USE_TRANS, "system_u:object_r:ramfs_t:s0"},
    {"shm", SI_FS_USE_TRANS, "system_u:object_r:tmpfs_t:s0"},
    {"tmpfs", SI_FS_USE_TRANS, "system_u:object_r:tmpfs_t:s0"},
    {"eventpollfs", SI_FS_USE_TASK, "system_u:object_r:fs_t:s0"},
    {"pipefs", SI_FS_USE_TASK, "system_u:object_r:fs_t:s0"},
    {"sockfs", SI_FS_USE_TASK, "system_u:object_r:fs_t:s0"},
};

static const struct builtin_genfs builtin_genfs[] = {
    {"afs", "system_u:object_r:nfs_t:s0"},
    {"anon_inodefs", "system_u:object_r:anon_inodefs_t:s0"},
    {"autofs", "system_u:object_r:autofs_t:s0"},
    {"automount", "system_u:object_r:autofs_t:s0"},
    {"bdev", "system_u:object_r:bdev_t:s0"},
    {"binfmt_misc", "system_u:object_r:binfmt_misc_fs_t:s0"},
    {"bpf", "system_u:object_r:bpf_t:s0"},
    {"capifs", "system_u:object_r:capifs_t:s0"},
    {"cgroup", "system_u:object_r:cgroup_t:s0"},
    {"cgroup2", "system_u:object_r:cgroup_t:s0"},
    {"cifs", "system_u:object_r:cifs_t:s0"},
    {"coda", "system_u:object_r:nfs_t:s0"},
    {"configfs", "system_u:object_r:configfs_t:s0"},
    {"cpuset", "system_u:object_r:cpusetfs_t:s0"},
    {"cramfs", "system_u:object_r:romfs_t:s0"},
    {"dazukofs", "system_u:object_r:nfs_t:s0"},
    {"debugfs", "system_u:object_r:debugfs_t:s0"},
    {"ecryptfs", "system_u:object_r:ecryptfs_t:s0"},
    {"efivarfs", "system_u:object_r:efivarfs_t:s0"},
    {"fat", "system_u:object_r:dosfs_t:s0"},
    {"fuse", "system_u:object_r:fusefs_t:s0"},
    {"fuseblk", "system_u:object_r:fusefs_t:s0"},
    {"fusectl", "system_u:object_r:fusefs_t:s0"},
    {"futexfs", "system_u:object_r:futexfs_t:s0"},
    {"gadgetfs", "system_u:object_r:nfs_t:s0"},
    {"hfs", "system_u:object_r:dosfs_t:s0"},
    {"hfsplus", "system_u:object_r:dosfs_t:s0"},
    {"ibmasmfs", "system_u:object_r:ibmasmfs_t:s0"},
    {"infinibandeventfs", "system_u:object_r:infinibandeventfs_t:s0"},
    {"inotifyfs", "system_u:object_r:inotifyfs_t:s0"},
    {"iso9660", "system_u:object_r:iso9660_t:s0"},
    {"kvmfs", "system_u:object_r:kvmfs_t:s0"},
    {"lustre", "system_u:object_r:nfs_t:s0"},
    {"msdos", "system_u:object_r:dosfs_t:s0"},
    {"mvfs", "system_u:object_r:mvfs_t:s0"},
    {"ncpfs", "system_u:object_r:nfs_t:s0"},
    {"nfs", "system_u:object_r:nfs_t:s0"},
    {"nfs4", "system_u:object_r:nfs_t:s0"},
    {"nfsd", "system_u:object_r:nfsd_fs_t:s0"},
    {"nsfs", "system_u:object_r:nsfs_t:s0"},
    {"ntfs", "system_u:object_r:dosfs_t:s0"},
    {"ntfs-3g", "system_u:object_r:dosfs_t:s0"},
    {"oprofilefs", "system_u:object_r:oprofilefs_t:s0"},
    {"panfs", "system_u:object_r:nfs_t:s0"},
    {"proc", "system_u:object_r:proc_t:s0"},
    {"pstore", "system_u:object_r:pstore_t:s0"},
    {"reiserfs", "system_u:object_r:nfs_t:s0"},
    {"romfs", "system_u:object_r:romfs_t:s0"},
    {"rootfs", "system_u:object_r:root_t:s0"},
    {"rpc_pipefs", "system_u:object_r:rpc_pipefs_t:s0"},
    {"securityfs", "system_u:object_r:security_t:s0"},
    {"selinuxfs", "system_u:object_r:security_t:s0"},
    {"smbfs", "system_u:object_r:cifs_t:s0"},
    {"spufs", "system_u:object_r:spufs_t:s0"},
    {"sysfs", "system_u:object_r:sysfs_t:s0"},
    {"sysv", "system_u:object_r:sysv_t:s0"},
    {"tracefs", "system_u:object_r:tracefs_t:s0"},
    {"udf", "system_u:object_r:iso9660_t:s0"},
    {"usbdevfs", "system_u:object_r:usbfs_t:s0"},
    {"usbfs", "system_u:object_r:usbfs_t:s0"},
    {"v7", "system_u:object_r:sysv_t:s0"},
    {"vboxsf", "system_u:object_r:vmblock_t:s0"},
    {"vfat", "system_u:object_r:dosfs_t:s0"},
    {"vmblock", "system_u:object_r:vmblock_t:s0"},
    {"vmhgfs", "system_u:object_r:vmblock_t:s0"},
    {"vxfs", "system_u:object_r:vxfs_t:s0"},
    {"xenfs", "system_u:object_r:xenfs_t:s0"},
};

#define BUILTIN_UNLABELED "system_u:object_r:unlabeled_t:s0"

static enum si_fs_use fs_use_from_behavior(uint32_t behavior)
{
        switch (behavior) {
        case SECURITY_FS_USE_XATTR:
                return SI_FS_USE_XATTR;
        case SECURITY_FS_USE_TRANS:
                return SI_FS_USE_TRANS;
        case SECURITY_FS_USE_TASK:
                return SI_FS_USE_TASK;
        default:
                return SI_FS_USE_NONE;
        }
}

int si_policy_fs_use(const struct si_policy *p, const char *fstype, enum si_fs_use *ret_use,
                     char **ret_context)
{
        if (!p->db) {
                for (size_t i = 0; i < ELEMENTSOF(builtin_fs_use); i++) {
                        if (!streq(builtin_fs_use[i].fstype, fstype))
                                continue;
                        if (ret_context && !(*ret_context = strdup(builtin_fs_use[i].context)))
                                return -ENOMEM;
                        *ret_use = builtin_fs_use[i].use;
                        return 1;
                }
                return 0;
        }

        const policydb_t *db = &p->db->p;
        for (const ocontext_t *o = db->ocontexts[OCON_FSUSE]; o; o = o->next) {
                enum si_fs_use use = fs_use_from_behavior(o->v.behavior);

                if (!o->u.name || !streq(o->u.name, fstype) || use == SI_FS_USE_NONE)
                        continue;
                if (ret_context && !(*ret_context = si_policy_context_str(db, &o->context[0])))
                        return -ENOMEM;
                *ret_use = use;
                return 1;
        }
        return 0;
}

int si_policy_genfs(const struct si_policy *p, const char *fstype, const char *path,
                    char **ret_context)
{
        if (!p->db) {
                for (size_t i = 0; i < ELEMENTSOF(builtin_genfs); i++) {
                        if (!streq(builtin_genfs[i].fstype, fstype))
                                continue;
                        /* The table holds the "/" entries, which cover every path. */
                        *ret_context = strdup(builtin_genfs[i].context);
                        return *ret_context ? 1 : -ENOMEM;
                }
                return 0;
        }

        const policydb_t *db = &p->db->p;
        for (const genfs_t *g = db->genfs; g; g = g->next) {
                if (!streq(g->fstype, fstype))
                        continue;
                /* The compiler sorts each list longest path first; the kernel takes the first
                 * entry that is a prefix of the path. */
                for (const ocontext_t *o = g->head; o; o = o->next) {
                        if (!o->u.name || !startswith(path, o->u.name))
                                continue;
                        *ret_context = si_policy_context_str(db, &o->context[0]);
                        return *ret_context ? 1 : -ENOMEM;
                }
                return 0;
        }
        return 0;
}

size_t si_policy_xattr_fstypes(const struct si_policy *p, const char **ret, size_t max)
{
        static const char *const preferred[] = {"ext4", "xfs", "btrfs"};
        size_t n = 0;

        for (size_t i = 0; i < ELEMENTSOF(preferred) && n < max; i++) {
                enum si_fs_use use;
                if (si_policy_fs_use(p, preferred[i], &use, NULL) > 0 && use == SI_FS_USE_XATTR)
                        ret[n++] = preferred[i];
        }
        return n;
}

char *si_policy_unlabeled_context(const struct si_policy *p)
{
        if (!p->db)
                return strdup(BUILTIN_UNLABELED);
        /* Initial SIDs keep no names in a binary policy, only their numbers. */
        for (const ocontext_t *o = p->db->p.ocontexts[OCON_ISID]; o; o = o->next)
                if (o->sid[0] == SECINITSID_UNLABELED)
                        return si_policy_context_str(&p->db->p, &o->context[0]);
        return NULL;
}
