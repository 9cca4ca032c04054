/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.c — what the target's SELinux policy says about filesystems. Owns finding and reading
 * the binary policy (the newest policy.N of a type, from the target, else the host, else a
 * built-in table modelled on Debian's default policy) with libsepol, and the lookups other
 * stages need: fs_use_* and genfscon statements by filesystem type, and context validity.
 *
 * `seinfo --fs_use` lists nothing for Debian's policy on this machine (a setools quirk); the
 * statements are read here straight from the policydb's ocontexts and genfs lists.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sepol/context.h>
#include <sepol/context_record.h>
#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>

#include "seinstall-private.h"

/* Binary policies are a few MB (Debian ~3 MB, Fedora ~10 MB); anything above is not one. */
#define POLICY_MAX  (256u * 1024 * 1024)
#define CONTEXT_MAX 4096

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

struct si_policy {
        char *type;
        enum seinstall_source source;
        char *path;             /* NULL for the built-in table */
        sepol_handle_t *handle; /* NULL for the built-in table */
        sepol_policydb_t *db;   /* NULL for the built-in table */
};

/* libsepol prints to stderr unless told otherwise; a library must not. */
static void sepol_quiet(void *arg, sepol_handle_t *h, const char *fmt, ...)
{
        (void) arg;
        (void) h;
        (void) fmt;
}

struct si_policy *si_policy_free(struct si_policy *p)
{
        if (!p)
                return NULL;
        if (p->db)
                sepol_policydb_free(p->db);
        if (p->handle)
                sepol_handle_destroy(p->handle);
        free(p->path);
        free(p->type);
        free(p);
        return NULL;
}

static struct si_policy *policy_new(const char *type, enum seinstall_source source)
{
        struct si_policy *p = calloc(1, sizeof(*p));

        if (!p)
                return NULL;
        p->type = strdup(type);
        p->source = source;
        if (!p->type)
                return si_policy_free(p);
        return p;
}

/* Parse the binary policy in @data into @p; @what names it in messages. */
static int policy_parse(struct seinstall_ctx *ctx, struct si_policy *p, char *data, size_t len,
                        const char *what)
{
        sepol_policy_file_t *pf = NULL;
        int r;

        p->handle = sepol_handle_create();
        if (!p->handle)
                return -ENOMEM;
        sepol_msg_set_callback(p->handle, sepol_quiet, NULL);
        if (sepol_policydb_create(&p->db) < 0)
                return -ENOMEM;
        if (sepol_policy_file_create(&pf) < 0)
                return -ENOMEM;
        sepol_policy_file_set_mem(pf, data, len);
        sepol_policy_file_set_handle(pf, p->handle);
        r = sepol_policydb_read(p->db, pf);
        sepol_policy_file_free(pf);
        if (r < 0)
                return si_error(ctx, -EBADMSG,
                                "%s is not a binary SELinux policy libsepol can read; reinstall "
                                "the policy package or rebuild it (semodule -B)",
                                what);
        return 0;
}

static int load_fd(struct seinstall_ctx *ctx, int fd, const char *path, const char *type,
                   enum seinstall_source source, struct si_policy **ret)
{
        _cleanup_(si_policy_freep) struct si_policy *p = NULL;
        _cleanup_free_ char *data = NULL;
        size_t len;
        int r;

        r = read_fd_bounded(fd, POLICY_MAX, &data, &len);
        if (r < 0)
                return si_error(ctx, r, "Could not read the policy %s: %s", path,
                                si_file_strerror(r));
        p = policy_new(type, source);
        if (!p)
                return -ENOMEM;
        p->path = strdup(path);
        if (!p->path)
                return -ENOMEM;
        r = policy_parse(ctx, p, data, len, path);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}

int si_policy_load_file(struct seinstall_ctx *ctx, const char *path, const char *type,
                        enum seinstall_source source, struct si_policy **ret)
{
        _cleanup_close_ int fd = open_regular(path);

        if (fd < 0)
                return si_error(ctx, fd, "Could not open the policy %s: %s", path,
                                si_file_strerror(fd));
        return load_fd(ctx, fd, path, type, source, ret);
}

int si_policy_load_builtin(const char *type, struct si_policy **ret)
{
        struct si_policy *p;

        if (!streq(type, "default"))
                return -ENOENT;
        p = policy_new(type, SEINSTALL_SOURCE_BUILTIN);
        if (!p)
                return -ENOMEM;
        *ret = p;
        return 0;
}

/* The number N of a "policy.N" name, or -1. */
static long policy_version(const char *name)
{
        const char *v = startswith(name, "policy.");
        char *end;
        long n;

        if (!v || !isdigit((unsigned char) *v))
                return -1;
        errno = 0;
        n = strtol(v, &end, 10);
        if (*end || errno || n > 100000)
                return -1;
        return n;
}

/* The newest policy.N in the directory @dfd (consumed). Returns 0 and the name, -ENOENT. */
static int newest_policy(int dfd, char **ret_name)
{
        DIR *d = fdopendir(dfd);
        _cleanup_free_ char *name = NULL;
        struct dirent *de;
        long best = -1;

        if (!d) {
                int r = -errno;
                close(dfd);
                return r;
        }
        while ((de = readdir(d))) {
                long v = policy_version(de->d_name);
                if (v <= best)
                        continue;
                free(name);
                name = strdup(de->d_name);
                if (!name) {
                        closedir(d);
                        return -ENOMEM;
                }
                best = v;
        }
        closedir(d);
        if (!name)
                return -ENOENT;
        *ret_name = TAKE_PTR(name);
        return 0;
}

/* The newest policy.N of @type: under the target's /etc/selinux when @host_dir is NULL (resolved
 * inside the target root, so a symlink in the target cannot lead out of it), else under the
 * host's @host_dir. -ENOENT when there is none. */
static int load_newest(struct seinstall_ctx *ctx, const char *host_dir, const char *type,
                       struct si_policy **ret)
{
        _cleanup_free_ char *dir = NULL, *name = NULL, *rel = NULL, *shown = NULL;
        _cleanup_close_ int fd = -EBADF;
        bool in_target = !host_dir;
        int dfd, r;

        if (asprintf(&dir, "%s/%s/policy", in_target ? "/etc/selinux" : host_dir, type) < 0)
                return -ENOMEM;
        dfd = in_target ? root_open(ctx, dir, O_RDONLY | O_DIRECTORY, 0)
                        : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 && !in_target)
                dfd = -errno;
        if (dfd == -ENOTDIR)
                return -ENOENT;
        if (dfd < 0)
                return dfd;
        r = newest_policy(dfd, &name);
        if (r < 0)
                return r;
        rel = path_join(dir, name);
        if (!rel)
                return -ENOMEM;
        shown = in_target && !streq(ctx->root, "/") ? path_join(ctx->root, rel) : strdup(rel);
        if (!shown)
                return -ENOMEM;
        /* A FIFO or a device named policy.N must never block check, relabel or install. */
        fd = in_target ? root_open_regular(ctx, rel, true) : open_regular(rel);
        if (fd < 0)
                return si_error(ctx, fd, "Could not open the policy %s: %s", shown,
                                si_file_strerror(fd));
        return load_fd(ctx, fd, shown, type,
                       in_target ? SEINSTALL_SOURCE_TARGET : SEINSTALL_SOURCE_HOST, ret);
}

int si_policy_load_at(struct seinstall_ctx *ctx, const char *type, const char *host_dir,
                      struct si_policy **ret)
{
        int r;

        if (!type || !si_policy_type_valid(type))
                return si_error(ctx, -EINVAL,
                                "Invalid SELinux policy type '%s': give a directory name under "
                                "/etc/selinux such as default or mls",
                                type ? type : "");
        ctx->counters.policy_loads++;
        r = load_newest(ctx, NULL, type, ret);
        if (r != -ENOENT)
                return r;
        si_debug(ctx, "The target %s has no built %s policy", ctx->root, type);
        if (!streq(ctx->root, "/")) {
                r = load_newest(ctx, host_dir, type, ret);
                if (r != -ENOENT)
                        return r;
                si_debug(ctx, "This system has no built %s policy in %s either", type, host_dir);
        }
        r = si_policy_load_builtin(type, ret);
        /* Not bad input but a missing piece of the system: -ENOPKG, exit status 3. */
        if (r == -ENOENT)
                return si_error(ctx, -ENOPKG,
                                "No SELinux policy of type '%s': neither the target %s nor this "
                                "system has /etc/selinux/%s/policy/policy.N, and seinstall only "
                                "knows the default policy by itself; install the policy package "
                                "into the target or choose --policy default",
                                type, ctx->root, type);
        if (r >= 0)
                si_info(ctx,
                        "No built %s policy in the target or on this system: using "
                        "seinstall's built-in table of Debian's default policy",
                        type);
        return r;
}

int si_policy_load(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret)
{
        return si_policy_load_at(ctx, type, "/etc/selinux", ret);
}

int si_policy_require_target(struct seinstall_ctx *ctx, const struct si_policy *p, const char *type)
{
        if (p && si_policy_source(p) == SEINSTALL_SOURCE_TARGET)
                return 0;
        /* a missing piece of the system, not bad input: exit 3 as DESIGN.md says */
        return si_error(ctx, -ENOPKG,
                        "No binary policy of type %s in the target %s (no "
                        "/etc/selinux/%s/policy/policy.N), so its labels cannot be "
                        "checked: install the policy package %s in the target, or "
                        "build its policy there (semodule -B)",
                        type, ctx->root, type, si_policy_package(type));
}

int si_policy_load_target(struct seinstall_ctx *ctx, const char *type, struct si_policy **ret)
{
        _cleanup_(si_policy_freep) struct si_policy *p = NULL;
        int r = si_policy_load(ctx, type, &p);

        if (r == -EBADMSG)
                return si_error(ctx, r,
                                "The binary policy of type %s in the target is not one libsepol "
                                "can read; reinstall the policy package or rebuild it "
                                "(semodule -B)",
                                type);
        /* an unreadable policy.N (a FIFO, a device): si_policy_load() named it */
        if (r < 0 && r != -ENOENT && r != -ENOPKG)
                return r;
        r = si_policy_require_target(ctx, r < 0 ? NULL : p, type);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}

const char *si_policy_type(const struct si_policy *p)
{
        return p->type;
}

enum seinstall_source si_policy_source(const struct si_policy *p)
{
        return p->source;
}

const char *si_policy_path(const struct si_policy *p)
{
        return p->path;
}

void *si_policy_sepol(const struct si_policy *p)
{
        return p->db;
}

/* ---- contexts as strings ---------------------------------------------------------------- */

/* Append ":c0.c3,c7" for a category set; runs of consecutive categories are written with ".",
 * as the kernel writes them. */
static int format_cats(struct sbuf *b, const policydb_t *db, const ebitmap_t *cats)
{
        ebitmap_node_t *node;
        unsigned int bit;
        long start = -1, prev = -1;
        int r = 0;

        ebitmap_for_each_positive_bit(cats, node, bit)
        {
                if (prev >= 0 && (long) bit == prev + 1) {
                        prev = bit;
                        continue;
                }
                if (start >= 0 && start != prev) {
                        r = sbuf_printf(b, ".%s", db->p_cat_val_to_name[prev]);
                        if (r < 0)
                                return r;
                }
                r = sbuf_printf(b, "%s%s", start >= 0 ? "," : ":", db->p_cat_val_to_name[bit]);
                if (r < 0)
                        return r;
                start = prev = bit;
        }
        if (start >= 0 && start != prev)
                r = sbuf_printf(b, ".%s", db->p_cat_val_to_name[prev]);
        return r;
}

/* ebitmap_get_bit() is not exported by libsepol.so. */
static bool cat_has(const ebitmap_t *e, unsigned int bit)
{
        for (const ebitmap_node_t *n = e->node; n; n = n->next)
                if (bit >= n->startbit && bit < n->startbit + MAPSIZE)
                        return ebitmap_node_get_bit(n, bit);
        return false;
}

static bool cats_subset(const ebitmap_t *a, const ebitmap_t *b)
{
        ebitmap_node_t *node;
        unsigned int bit;

        ebitmap_for_each_positive_bit(a, node, bit)
        {
                if (!cat_has(b, bit))
                        return false;
        }
        return true;
}

static bool level_eq(const mls_level_t *a, const mls_level_t *b)
{
        return a->sens == b->sens && cats_subset(&a->cat, &b->cat) && cats_subset(&b->cat, &a->cat);
}

static char *context_to_str(const policydb_t *db, const context_struct_t *c)
{
        struct sbuf b = {0};
        int r;

        if (c->user < 1 || c->user > db->p_users.nprim || c->role < 1 ||
            c->role > db->p_roles.nprim || c->type < 1 || c->type > db->p_types.nprim)
                return NULL;
        r = sbuf_printf(&b, "%s:%s:%s", db->p_user_val_to_name[c->user - 1],
                        db->p_role_val_to_name[c->role - 1], db->p_type_val_to_name[c->type - 1]);
        for (int l = 0; db->mls && l < 2 && r >= 0; l++) {
                const mls_level_t *lv = &c->range.level[l];

                /* "s0-s0" is written "s0", as the kernel shows it. */
                if (l == 1 && level_eq(&c->range.level[0], lv))
                        break;
                if (lv->sens < 1 || lv->sens > db->p_levels.nprim) {
                        r = -EINVAL;
                        break;
                }
                r = sbuf_printf(&b, "%s%s", l ? "-" : ":", db->p_sens_val_to_name[lv->sens - 1]);
                if (r >= 0)
                        r = format_cats(&b, db, &lv->cat);
        }
        if (r < 0) {
                sbuf_free(&b);
                return NULL;
        }
        return sbuf_steal(&b);
}

/* ---- lookups ------------------------------------------------------------------------------ */

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
                if (ret_context && !(*ret_context = context_to_str(db, &o->context[0])))
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
                        *ret_context = context_to_str(db, &o->context[0]);
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

/* user:role:type[:range]: printable, no empty user, role or type. */
static bool context_syntax_ok(const char *context)
{
        const char *s = context;
        int colons = 0;

        if (!*s || strlen(s) >= CONTEXT_MAX)
                return false;
        for (; *s; s++) {
                if (!isgraph((unsigned char) *s))
                        return false;
                if (*s != ':')
                        continue;
                if (colons < 3 && (s == context || s[-1] == ':' || !s[1]))
                        return false;
                colons++;
        }
        return colons >= 2;
}

int si_policy_context_valid(const struct si_policy *p, const char *context)
{
        sepol_context_t *con = NULL;
        int r;

        if (!context || !context_syntax_ok(context))
                return 0;
        if (!p->db)
                return 1;
        if (sepol_context_from_string(p->handle, context, &con) < 0)
                return 0;
        r = sepol_context_check(p->handle, p->db, con) < 0 ? 0 : 1;
        sepol_context_free(con);
        return r;
}

char *si_policy_unlabeled_context(const struct si_policy *p)
{
        if (!p->db)
                return strdup(BUILTIN_UNLABELED);
        /* Initial SIDs keep no names in a binary policy, only their numbers. */
        for (const ocontext_t *o = p->db->p.ocontexts[OCON_ISID]; o; o = o->next)
                if (o->sid[0] == SECINITSID_UNLABELED)
                        return context_to_str(&p->db->p, &o->context[0]);
        return NULL;
}
