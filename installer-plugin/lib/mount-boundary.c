/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount-boundary.c — the one mount-boundary rule: which mounts are the target's own. Writes
 * (rootfs.c), the policy build's store and the relabel walk all ask it, by mount ID (statx
 * STATX_MNT_ID, the first field of /proc/self/mountinfo), for directories and files alike.
 *
 * The target's own mounts are the mount holding the root, and every mount below the root that
 * is neither a kernel pseudo filesystem (proc, sysfs, devtmpfs, ...) nor a filesystem that is
 * also mounted outside the target: that is what an installer's binds look like (its /run, /dev,
 * a package cache of its own filesystem, a single file such as resolv.conf). RESOLVE_IN_ROOT
 * keeps a path inside the root's tree, not inside its filesystems; this rule does the rest.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "seinstall-private.h"

struct si_mountset {
        pthread_mutex_t lock;
        uint64_t *own; /* sorted mount IDs */
        size_t n_own;
        uint64_t *seen; /* every mount ID of the last read: an ID not here is a new mount */
        size_t n_seen;
};

static bool pseudo_fs(const char *fstype)
{
        static const char *const names[] = {
            "proc",     "sysfs",      "devtmpfs", "devpts",    "securityfs",  "selinuxfs",
            "cgroup",   "cgroup2",    "debugfs",  "tracefs",   "bpf",         "efivarfs",
            "configfs", "pstore",     "mqueue",   "fusectl",   "binfmt_misc", "autofs",
            "nsfs",     "rpc_pipefs", "nfsd",     "hugetlbfs",
        };
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (streq(fstype, names[i]))
                        return true;
        return false;
}

/* Whether @point is @root or below it. */
static bool path_below(const char *point, const char *root, bool or_equal)
{
        size_t n = strlen(root);

        if (streq(root, "/"))
                return or_equal || !streq(point, "/");
        if (strncmp(point, root, n) != 0)
                return false;
        return point[n] == '/' || (or_equal && point[n] == '\0');
}

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
        return x < y ? -1 : x > y;
}

static bool has_id(const uint64_t *v, size_t n, uint64_t id)
{
        return n && bsearch(&id, v, n, sizeof(*v), cmp_u64);
}

int si_fd_mount_id(int dfd, const char *name, int flags, uint64_t *ret)
{
        struct statx sx;

        if (statx(dfd, name, flags | AT_STATX_DONT_SYNC, STATX_MNT_ID, &sx) < 0)
                return -errno;
        if (!(sx.stx_mask & STATX_MNT_ID))
                return -EOPNOTSUPP;
        *ret = sx.stx_mnt_id;
        return 0;
}

/* The target root as this process's mountinfo names it, and the mountinfo read. */
static int read_mountinfo(struct seinstall_ctx *ctx, char **ret_rootpath, struct si_mountinfo *ret)
{
        _cleanup_free_ char *rootpath = NULL;
        char proc[64];
        ssize_t l;
        int r;

        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", ctx->root_fd);
        rootpath = malloc(4096);
        if (!rootpath)
                return -ENOMEM;
        l = readlink(proc, rootpath, 4095);
        if (l < 0)
                return -errno;
        rootpath[l] = '\0';
        r = si_mountinfo_read("/proc/self/mountinfo", ret);
        if (r < 0)
                return r;
        *ret_rootpath = TAKE_PTR(rootpath);
        return 0;
}

/* Read /proc/self/mountinfo and decide which mounts are the target's own. */
static int mountset_read(struct seinstall_ctx *ctx, struct si_mountset *ms)
{
        _cleanup_free_ char *rootpath = NULL;
        _cleanup_(si_mountinfo_done) struct si_mountinfo mi = {};
        _cleanup_free_ uint64_t *own = NULL, *seen = NULL;
        const struct si_mountinfo_entry *v;
        size_t n, n_own = 0;
        uint64_t root_id = 0;
        int r;

        r = si_fd_mount_id(ctx->root_fd, "", AT_EMPTY_PATH, &root_id);
        if (r < 0)
                return r;
        r = read_mountinfo(ctx, &rootpath, &mi);
        if (r < 0)
                return r;
        v = mi.v;
        n = mi.n;
        own = calloc(n + 1, sizeof(*own));
        seen = calloc(n + 1, sizeof(*seen));
        if (!own || !seen)
                return -ENOMEM;
        own[n_own++] = root_id;
        for (size_t i = 0; i < n; i++) {
                bool shared = false;

                seen[i] = v[i].id;
                if (v[i].id == root_id || !path_below(v[i].point, rootpath, false) ||
                    pseudo_fs(v[i].fstype))
                        continue;
                /* The same filesystem mounted outside the target: the installer's files. */
                for (size_t j = 0; j < n && !shared; j++)
                        shared = v[j].dev == v[i].dev && !path_below(v[j].point, rootpath, true);
                if (!shared)
                        own[n_own++] = v[i].id;
        }
        qsort(own, n_own, sizeof(*own), cmp_u64);
        qsort(seen, n, sizeof(*seen), cmp_u64);
        free(ms->own);
        free(ms->seen);
        ms->own = TAKE_PTR(own);
        ms->n_own = n_own;
        ms->seen = TAKE_PTR(seen);
        ms->n_seen = n;
        si_debug(ctx, "%zu of %zu mounts are the target's own (root %s)", n_own, n, rootpath);
        return 0;
}

void si_mountset_free(struct si_mountset *ms)
{
        if (!ms)
                return;
        pthread_mutex_destroy(&ms->lock);
        free(ms->own);
        free(ms->seen);
        free(ms);
}

int si_mount_is_own(struct seinstall_ctx *ctx, uint64_t mnt_id)
{
        struct si_mountset *ms;
        int r = 0;

        /* Created with the context (ctx.c), so threads of one walk share it. */
        ms = ctx->mounts;
        if (!ms)
                return -EINVAL;
        pthread_mutex_lock(&ms->lock);
        /* Read on first use, and again when a mount appeared since the last read. */
        if (!ms->own || !has_id(ms->seen, ms->n_seen, mnt_id))
                r = mountset_read(ctx, ms);
        if (r >= 0)
                r = has_id(ms->own, ms->n_own, mnt_id);
        pthread_mutex_unlock(&ms->lock);
        return r;
}

int si_mountset_new(struct si_mountset **ret)
{
        struct si_mountset *ms = calloc(1, sizeof(*ms));

        if (!ms)
                return -ENOMEM;
        pthread_mutex_init(&ms->lock, NULL);
        *ret = ms;
        return 0;
}

int si_fd_on_own_mount(struct seinstall_ctx *ctx, int fd)
{
        uint64_t id;
        int r = si_fd_mount_id(fd, "", AT_EMPTY_PATH, &id);

        if (r < 0)
                return r;
        return si_mount_is_own(ctx, id);
}

void si_own_mounts_free(struct si_own_mount *v, size_t n)
{
        for (size_t i = 0; v && i < n; i++) {
                free(v[i].rel);
                free(v[i].fstype);
        }
        free(v);
}

static int cmp_own(const void *a, const void *b)
{
        return strcmp(((const struct si_own_mount *) a)->rel,
                      ((const struct si_own_mount *) b)->rel);
}

/* One entry of si_mounts_own_list() for mountinfo line @m of an own mount. */
static int own_entry(const struct si_mountinfo_entry *m, const char *rootpath,
                     struct si_own_mount *e)
{
        size_t skip = streq(rootpath, "/") ? 0 : strlen(rootpath);
        bool at_root = !path_below(m->point, rootpath, false);

        *e = (struct si_own_mount){.id = m->id, .dev = m->dev};
        /* The mount holding the root may lie above it (a directory target): its whole
         * filesystem then holds files outside the target. So does a bind of a directory
         * (ROOT is not "/"), a btrfs subvolume among others included. */
        e->whole = streq(m->root, "/") && (at_root ? streq(m->point, rootpath) : true);
        e->rel = strdup(at_root ? "/" : m->point + skip);
        e->fstype = strdup(m->fstype);
        return e->rel && e->fstype ? 0 : -ENOMEM;
}

int si_mounts_own_list(struct seinstall_ctx *ctx, struct si_own_mount **ret, size_t *ret_n)
{
        _cleanup_free_ char *rootpath = NULL;
        _cleanup_(si_mountinfo_done) struct si_mountinfo mi = {};
        struct si_own_mount *v = NULL;
        size_t n = 0, cap = 0;
        int r;

        r = read_mountinfo(ctx, &rootpath, &mi);
        if (r < 0)
                return r;
        for (size_t i = 0; r >= 0 && i < mi.n; i++) {
                const struct si_mountinfo_entry m = mi.v[i];

                if (pseudo_fs(m.fstype) ||
                    !(path_below(m.point, rootpath, true) || path_below(rootpath, m.point, false)))
                        continue;
                r = si_mount_is_own(ctx, m.id);
                if (r <= 0)
                        continue;
                if (!SI_GROW(v, cap, n + 1)) {
                        r = -ENOMEM;
                        break;
                }
                r = own_entry(&m, rootpath, &v[n]);
                n++;
        }
        if (r < 0) {
                si_own_mounts_free(v, n);
                return r;
        }
        if (n > 1)
                qsort(v, n, sizeof(*v), cmp_own);
        *ret = v;
        *ret_n = n;
        return 0;
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

int si_mounts_on(struct seinstall_ctx *ctx, uint64_t parent_id, char ***ret, size_t *ret_n)
{
        _cleanup_free_ char *rootpath = NULL;
        _cleanup_(si_mountinfo_done) struct si_mountinfo mi = {};
        char **v = NULL;
        size_t n = 0, cap = 0, kept = 0, skip;
        int r;

        r = read_mountinfo(ctx, &rootpath, &mi);
        if (r < 0)
                return r;
        skip = streq(rootpath, "/") ? 0 : strlen(rootpath);
        for (size_t i = 0; i < mi.n; i++) {
                const struct si_mountinfo_entry m = mi.v[i];

                if (m.parent != parent_id || !path_below(m.point, rootpath, false))
                        continue;
                if (!SI_GROW(v, cap, n + 1) || !(v[n] = strdup(m.point + skip))) {
                        si_strv_free(v, n);
                        return -ENOMEM;
                }
                n++;
        }
        /* Sorted (an upper point before the ones below it), a point below another or the
         * same twice dropped: walking the upper one covers it. */
        if (n > 0)
                qsort(v, n, sizeof(*v), cmp_str);
        for (size_t i = 0; i < n; i++) {
                bool covered = false;
                for (size_t k = 0; k < kept && !covered; k++)
                        covered = path_below(v[i], v[k], true);
                if (covered)
                        free(v[i]);
                else
                        v[kept++] = v[i];
        }
        *ret = v;
        *ret_n = kept;
        return 0;
}
