/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc-locate.c — finding the file of a denial the kernel logged only by name, device and inode
 * (name=, dev=, ino=), on the running system (struct si_avc_locator): the mount point of the
 * device, read once from mountinfo; then one walk of that filesystem, done once for the whole
 * log, into an index of inode and name. All walks of one log share one budget of entries: a
 * log of any size costs at most that walk and one hash lookup per denial, and a denial whose
 * file the budget left unsearched is counted as skipped.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "avc.h"

/* One entry met by a walk: its inode, name and the entry of its directory. */
struct fs_entry {
        uint64_t ino;
        size_t parent; /* SIZE_MAX: the mount point */
        size_t next;   /* the next entry of the same hash chain, SIZE_MAX: none */
        char *name;
        unsigned depth; /* 1: in the mount point */
        bool is_dir;    /* a directory of the same filesystem, to be read */
};

/* A filesystem the log names, walked once. */
struct fs_index {
        unsigned maj, min;
        char *top;
        bool walked, complete; /* complete: the walk saw every entry within the budget */
        struct fs_entry *e;
        size_t n, cap;
        size_t *heads; /* hash of inode -> first entry */
        size_t n_heads;
};

/* A dev= name of the log and the filesystem it names (SIZE_MAX: none). */
struct dev_name {
        char *dev;
        size_t fs;
};

struct mount_line {
        unsigned maj, min;
        char *mp, *fstype, *src_base;
};

struct si_avc_locator {
        size_t budget; /* entries the walks may still visit */
        size_t skipped;
        bool mounts_read;
        struct mount_line *mounts;
        size_t n_mounts;
        struct dev_name *devs;
        size_t n_devs, cap_devs;
        size_t *dev_heads; /* open addressing over devs, SIZE_MAX empty */
        size_t n_dev_heads;
        struct fs_index *fs;
        size_t n_fs, cap_fs;
};

static uint64_t str_hash(const char *s)
{
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 1099511628211ull;
        return h;
}

static size_t ino_hash(uint64_t ino, size_t n)
{
        return (size_t) ((ino * 0x9e3779b97f4a7c15ull) >> 17) & (n - 1);
}

struct si_avc_locator *si_avc_locator_new(size_t budget)
{
        struct si_avc_locator *l = calloc(1, sizeof(*l));

        if (l)
                l->budget = budget;
        return l;
}

static void fs_index_done(struct fs_index *f)
{
        for (size_t i = 0; i < f->n; i++)
                free(f->e[i].name);
        free(f->e);
        free(f->heads);
        free(f->top);
}

void si_avc_locator_free(struct si_avc_locator *l)
{
        if (!l)
                return;
        for (size_t i = 0; i < l->n_mounts; i++) {
                free(l->mounts[i].mp);
                free(l->mounts[i].fstype);
                free(l->mounts[i].src_base);
        }
        free(l->mounts);
        for (size_t i = 0; i < l->n_devs; i++)
                free(l->devs[i].dev);
        free(l->devs);
        free(l->dev_heads);
        for (size_t i = 0; i < l->n_fs; i++)
                fs_index_done(&l->fs[i]);
        free(l->fs);
        free(l);
}

size_t si_avc_locator_skipped(const struct si_avc_locator *l)
{
        return l ? l->skipped : 0;
}

size_t si_avc_locator_budget(const struct si_avc_locator *l)
{
        return l ? l->budget : 0;
}

/* ---- mount points ------------------------------------------------------------------------ */

static int read_mounts(struct si_avc_locator *l)
{
        _cleanup_(si_mountinfo_done) struct si_mountinfo mi = {};

        l->mounts_read = true;
        if (si_mountinfo_read("/proc/self/mountinfo", &mi) < 0)
                return 0; /* no mounts known: every search finds nothing */
        l->mounts = calloc(mi.n + 1, sizeof(*l->mounts));
        if (!l->mounts)
                return -ENOMEM;
        for (size_t i = 0; i < mi.n; i++) {
                const struct si_mountinfo_entry *e = &mi.v[i];
                const char *base = strrchr(e->source, '/');
                struct mount_line *m = &l->mounts[l->n_mounts++];

                *m = (struct mount_line){.maj = major(e->dev), .min = minor(e->dev)};
                m->mp = strdup(e->point);
                m->fstype = strdup(e->fstype);
                m->src_base = strdup(base ? base + 1 : e->source);
                if (!m->mp || !m->fstype || !m->src_base)
                        return -ENOMEM;
        }
        return 0;
}

/* The filesystem index for the mount @m (created, not yet walked, on first use). */
static int fs_for_mount(struct si_avc_locator *l, const struct mount_line *m, size_t *ret)
{
        for (size_t i = 0; i < l->n_fs; i++)
                if (l->fs[i].maj == m->maj && l->fs[i].min == m->min) {
                        *ret = i;
                        return 0;
                }
        if (!SI_GROW(l->fs, l->cap_fs, l->n_fs + 1))
                return -ENOMEM;
        l->fs[l->n_fs] = (struct fs_index){.maj = m->maj, .min = m->min, .top = strdup(m->mp)};
        if (!l->fs[l->n_fs].top)
                return -ENOMEM;
        *ret = l->n_fs++;
        return 0;
}

/* The filesystem the kernel calls @dev (a block device name like sda1, or a filesystem type
 * for those without a device), SIZE_MAX when none is mounted. */
static int resolve_dev(struct si_avc_locator *l, const char *dev, size_t *ret)
{
        _cleanup_free_ char *sysdev = NULL, *p = NULL;
        unsigned maj = 0, min = 0;
        bool have_num = false;
        size_t len;
        int r;

        *ret = SIZE_MAX;
        if (strchr(dev, '/') || streq(dev, ".") || streq(dev, ".."))
                return 0;
        if (!l->mounts_read && (r = read_mounts(l)) < 0)
                return r;
        if (asprintf(&p, "/sys/class/block/%s/dev", dev) >= 0 &&
            read_file_bounded(p, 64, &sysdev, &len) == 0 &&
            sscanf(sysdev, "%u:%u", &maj, &min) == 2)
                have_num = true;
        for (size_t i = 0; i < l->n_mounts; i++) {
                const struct mount_line *m = &l->mounts[i];
                if ((have_num && m->maj == maj && m->min == min) ||
                    (!have_num && (streq(m->src_base, dev) || streq(m->fstype, dev))))
                        return fs_for_mount(l, m, ret);
        }
        return 0;
}

static size_t *dev_slot(size_t *heads, size_t n, const struct dev_name *devs, const char *dev)
{
        size_t h = str_hash(dev) & (n - 1);

        while (heads[h] != SIZE_MAX && !streq(devs[heads[h]].dev, dev))
                h = (h + 1) & (n - 1);
        return &heads[h];
}

/* Room for one more dev= name: the arrays and the hash (at most half full) grown. */
static int devs_reserve(struct si_avc_locator *l)
{
        if (!SI_GROW(l->devs, l->cap_devs, l->n_devs + 1))
                return -ENOMEM;
        if (2 * (l->n_devs + 1) > l->n_dev_heads) {
                size_t n = l->n_dev_heads ? 2 * l->n_dev_heads : 64;
                size_t *heads = malloc(n * sizeof(*heads));
                if (!heads)
                        return -ENOMEM;
                memset(heads, 0xff, n * sizeof(*heads));
                for (size_t i = 0; i < l->n_devs; i++)
                        *dev_slot(heads, n, l->devs, l->devs[i].dev) = i;
                free(l->dev_heads);
                l->dev_heads = heads;
                l->n_dev_heads = n;
        }
        return 0;
}

/* resolve_dev() once per distinct dev= name of the log. */
static int lookup_dev(struct si_avc_locator *l, const char *dev, size_t *ret)
{
        size_t *slot;
        int r = devs_reserve(l);

        if (r < 0)
                return r;
        slot = dev_slot(l->dev_heads, l->n_dev_heads, l->devs, dev);
        if (*slot != SIZE_MAX) {
                *ret = l->devs[*slot].fs;
                return 0;
        }
        r = resolve_dev(l, dev, ret);
        if (r < 0)
                return r;
        l->devs[l->n_devs] = (struct dev_name){.dev = strdup(dev), .fs = *ret};
        if (!l->devs[l->n_devs].dev)
                return -ENOMEM;
        *slot = l->n_devs++;
        return 0;
}

/* ---- the walk ---------------------------------------------------------------------------- */

static int fs_add(struct fs_index *f, uint64_t ino, size_t parent, const char *name)
{
        if (!SI_GROW(f->e, f->cap, f->n + 1))
                return -ENOMEM;
        f->e[f->n] = (struct fs_entry){.ino = ino,
                                       .parent = parent,
                                       .next = SIZE_MAX,
                                       .name = strdup(name),
                                       .depth = parent == SIZE_MAX ? 1 : f->e[parent].depth + 1};
        if (!f->e[f->n].name)
                return -ENOMEM;
        f->n++;
        return 0;
}

/* The path of entry @i below the mount point. */
static char *fs_path(const struct fs_index *f, size_t i)
{
        bool root = streq(f->top, "/");
        size_t top = root ? 0 : strlen(f->top), len = top;
        char *p, *end;

        for (size_t k = i; k != SIZE_MAX; k = f->e[k].parent)
                len += 1 + strlen(f->e[k].name);
        p = malloc(len + 1);
        if (!p)
                return NULL;
        end = p + len;
        *end = '\0';
        for (size_t k = i; k != SIZE_MAX; k = f->e[k].parent) {
                size_t n = strlen(f->e[k].name);
                end -= n;
                memcpy(end, f->e[k].name, n);
                *--end = '/';
        }
        memcpy(p, f->top, top);
        return p;
}

/* Open directory entry @i (or the mount point: SIZE_MAX) one component at a time from the
 * mount point, each below the last one's fd: no path is ever longer than a name. */
static int fs_open_dir(const struct fs_index *f, size_t i, dev_t dev)
{
        _cleanup_free_ size_t *chain = NULL;
        size_t depth = 0;
        int fd = open(f->top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (i == SIZE_MAX || fd < 0)
                return fd;
        chain = malloc(f->e[i].depth * sizeof(*chain));
        if (!chain) {
                close(fd);
                return -1;
        }
        for (size_t k = i; k != SIZE_MAX; k = f->e[k].parent)
                chain[depth++] = k;
        while (fd >= 0 && depth > 0) {
                struct stat st;
                int next = openat(fd, f->e[chain[--depth]].name,
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                close(fd);
                fd = next;
                if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != dev)) {
                        close(fd);
                        fd = -1;
                }
        }
        return fd;
}

/* Read directory @dir of @f (SIZE_MAX: the mount point) into the index. 0, or 1 when the
 * budget ran out. */
static int fs_read_dir(struct si_avc_locator *l, struct fs_index *f, size_t dir, dev_t dev)
{
        size_t cost = dir == SIZE_MAX ? 1 : f->e[dir].depth + 1;
        struct dirent *de;
        DIR *d;
        int fd, r = 0;

        /* opening costs one unit per component: deep trees use the budget up, never more */
        if (l->budget < cost)
                return 1;
        l->budget -= cost;
        fd = fs_open_dir(f, dir, dev);
        if (fd < 0)
                return 0;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return 0;
        }
        while (r == 0 && (de = readdir(d))) {
                struct stat st;

                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                if (l->budget == 0) {
                        r = 1;
                        break;
                }
                l->budget--;
                r = fs_add(f, de->d_ino, dir, de->d_name);
                if (r < 0 || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
                        continue;
                f->e[f->n - 1].is_dir =
                    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISDIR(st.st_mode) && st.st_dev == dev;
        }
        closedir(d);
        return r;
}

/* Walk @f's filesystem breadth-first (its own device only) into its index, within the
 * budget; complete when it saw every entry. */
static int fs_walk(struct si_avc_locator *l, struct fs_index *f)
{
        struct stat st;
        int r;

        f->walked = true;
        if (lstat(f->top, &st) < 0 || !S_ISDIR(st.st_mode))
                return 0;
        r = fs_read_dir(l, f, SIZE_MAX, st.st_dev);
        /* entries appended while reading are read in turn: the array is the BFS queue */
        for (size_t i = 0; r == 0 && i < f->n; i++)
                if (f->e[i].is_dir)
                        r = fs_read_dir(l, f, i, st.st_dev);
        if (r < 0)
                return r;
        f->complete = r == 0;
        return 0;
}

/* Hash the walked entries by inode. */
static int fs_hash(struct fs_index *f)
{
        size_t n = 64;

        while (n < 2 * f->n)
                n *= 2;
        f->heads = malloc(n * sizeof(*f->heads));
        if (!f->heads)
                return -ENOMEM;
        memset(f->heads, 0xff, n * sizeof(*f->heads));
        f->n_heads = n;
        for (size_t i = 0; i < f->n; i++) {
                size_t h = ino_hash(f->e[i].ino, n);
                f->e[i].next = f->heads[h];
                f->heads[h] = i;
        }
        return 0;
}

int si_avc_locate_in(struct si_avc_locator *l, size_t fs, const char *name, uint64_t ino,
                     char **ret)
{
        struct fs_index *f = &l->fs[fs];
        int r;

        *ret = NULL;
        if (!f->walked) {
                r = fs_walk(l, f);
                if (r >= 0)
                        r = fs_hash(f);
                if (r < 0)
                        return r;
        }
        for (size_t i = f->n_heads ? f->heads[ino_hash(ino, f->n_heads)] : SIZE_MAX; i != SIZE_MAX;
             i = f->e[i].next)
                if (f->e[i].ino == ino && streq(f->e[i].name, name)) {
                        *ret = fs_path(f, i);
                        return *ret ? 1 : -ENOMEM;
                }
        if (!f->complete) {
                l->skipped++;
                return -EAGAIN;
        }
        return 0;
}

int si_avc_locator_add_top(struct si_avc_locator *l, const char *top, size_t *ret)
{
        struct stat st;
        struct mount_line m = {.mp = (char *) top};

        if (stat(top, &st) < 0)
                return -errno;
        m.maj = major(st.st_dev);
        m.min = minor(st.st_dev);
        return fs_for_mount(l, &m, ret);
}

int si_avc_locate(struct si_avc_locator *l, const char *dev, const char *name, uint64_t ino,
                  char **ret)
{
        size_t fs;
        int r;

        *ret = NULL;
        r = lookup_dev(l, dev, &fs);
        if (r < 0 || fs == SIZE_MAX)
                return r;
        if (name[0] == '/' && name[1] == '\0') {
                *ret = strdup(l->fs[fs].top);
                return *ret ? 1 : -ENOMEM;
        }
        return si_avc_locate_in(l, fs, name, ino, ret);
}
