/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-links.c — files with several names (hard links) in the tree walker. Whichever name the
 * walk meets first, such a file gets the label of its name that sorts first, so that the result
 * does not depend on the order of the walk and a second run changes nothing: the walk only
 * remembers the file and its best name so far, and the file is labeled once, after the walk.
 *
 * Memory, bounded by construction: a slot is 16 bytes (inode, the offset of its name, the index
 * of its device in a small table, its mode), in an open-addressing table of at most
 * links_max * 2 slots; the names lie one after another in one arena of at most names_max bytes,
 * compacted when names replaced by better ones leave too much of it unused. With the defaults
 * (SI_WALK_LINKS_MAX files, SI_WALK_NAMES_MAX bytes) that is at most 16 MiB + 48 MiB, whatever
 * the tree holds. Both are mapped on their own (mmap, mremap), not taken from the heap: what a
 * growing table or arena leaves behind goes back to the system at once, so a walk's peak memory
 * is its live table, not a heap that kept every size it ever had. A file met when the table or
 * the arena is full, or on a filesystem beyond the
 * first SI_WALK_LINK_DEVS that hold such files, is not remembered: it is labeled at once, through
 * each of its names as the walk meets them (as setfiles -A does), and the walk says how many such
 * files it met. Those files keep the right label whenever their names agree on it, which is the
 * usual case; where they disagree, the name labeled last decides.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "walk-internal.h"

struct si_walk_link {
        uint64_t ino;
        uint32_t name; /* offset of its name that sorts first so far in j->names; 0: free slot */
        uint16_t dev;  /* index in j->link_devs */
        uint16_t mode; /* st_mode: the type and permission bits fit in 16 */
};
_Static_assert(sizeof(struct si_walk_link) == 16, "a slot is 16 bytes");
_Static_assert((S_IFMT | 07777) <= UINT16_MAX, "a mode fits in 16 bits");

/* The index of @dev in the walk's device table, added when @add; -ENOSPC when it is not there
 * (or full). */
static int dev_index(struct si_walk *j, dev_t dev, bool add)
{
        for (size_t i = 0; i < j->n_link_devs; i++)
                if (j->link_devs[i] == dev)
                        return (int) i;
        if (!add || j->n_link_devs >= SI_WALK_LINK_DEVS)
                return -ENOSPC;
        j->link_devs[j->n_link_devs] = dev;
        return (int) j->n_link_devs++;
}

static size_t links_max(const struct si_walk *j)
{
        return j->links_max ? j->links_max : SI_WALK_LINKS_MAX;
}

static size_t names_max(const struct si_walk *j)
{
        size_t m = j->names_max ? j->names_max : SI_WALK_NAMES_MAX;

        return m < UINT32_MAX ? m : UINT32_MAX;
}

/* The most slots the table ever has: a power of two, at least twice links_max. */
static size_t slots_max(const struct si_walk *j)
{
        size_t cap = 8;

        while (cap < links_max(j) * 2)
                cap *= 2;
        return cap;
}

static size_t link_hash(unsigned dev, uint64_t ino, size_t cap)
{
        return (size_t) (ino * 31 + dev) & (cap - 1);
}

/* @size bytes of zeroed memory of their own, or NULL. */
static void *map_zeroed(size_t size)
{
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        return p == MAP_FAILED ? NULL : p;
}

static void unmap(void *p, size_t size)
{
        if (p)
                (void) munmap(p, size);
}

/* Double the table (the lock held). */
static int links_grow(struct si_walk *j)
{
        size_t cap = j->links_cap ? j->links_cap * 2 : 1024;
        struct si_walk_link *n;

        if (cap > slots_max(j))
                cap = slots_max(j);
        n = map_zeroed(cap * sizeof(*n));
        if (!n)
                return -ENOMEM;
        for (size_t i = 0; i < j->links_cap; i++) {
                size_t h;
                if (!j->links[i].name)
                        continue;
                h = link_hash(j->links[i].dev, j->links[i].ino, cap);
                while (n[h].name)
                        h = (h + 1) & (cap - 1);
                n[h] = j->links[i];
        }
        unmap(j->links, j->links_cap * sizeof(*n));
        j->links = n;
        j->links_cap = cap;
        return 0;
}

/* Copy the names still referenced into a new arena of the same size (the lock held). */
static int names_compact(struct si_walk *j)
{
        char *n = map_zeroed(j->names_cap);
        size_t len = 1;

        if (!n)
                return -ENOMEM;
        n[0] = '\0';
        for (size_t i = 0; i < j->links_cap; i++) {
                struct si_walk_link *l = &j->links[i];
                size_t k;
                if (!l->name)
                        continue;
                k = strlen(j->names + l->name) + 1;
                memcpy(n + len, j->names + l->name, k);
                l->name = (uint32_t) len;
                len += k;
        }
        unmap(j->names, j->names_cap);
        j->names = n;
        j->names_len = len;
        j->names_dead = 0;
        return 0;
}

/* Put @path (@len bytes with its NUL) into the arena; its offset, or 0 when the arena is full
 * (the lock held). */
static uint32_t names_put(struct si_walk *j, const char *path, size_t len)
{
        uint32_t off;

        if (j->names_len + len > j->names_cap && j->names_dead > j->names_len / 4 &&
            names_compact(j) < 0)
                return 0;
        if (j->names_len + len > j->names_cap) {
                size_t cap = j->names_cap ? j->names_cap * 2 : 64 * 1024;
                char *n;
                while (cap < j->names_len + len)
                        cap *= 2;
                if (cap > names_max(j))
                        cap = names_max(j);
                if (j->names_len + len > cap)
                        return 0;
                n = j->names ? mremap(j->names, j->names_cap, cap, MREMAP_MAYMOVE)
                             : map_zeroed(cap);
                if (!n || n == MAP_FAILED)
                        return 0;
                j->names = n;
                j->names_cap = cap;
                if (j->names_len == 0)
                        j->names_len = 1; /* offset 0 marks a free slot */
                if (j->names_len + len > cap)
                        return 0;
        }
        off = (uint32_t) j->names_len;
        memcpy(j->names + off, path, len);
        j->names_len += len;
        return off;
}

/* Remember @path for the file (@dev, @ino), or keep the name already there when it sorts
 * first (the lock held). */
static int links_add_locked(struct si_walk *j, dev_t sdev, ino_t ino, const char *path, mode_t mode)
{
        size_t h, len = strlen(path) + 1;
        int dev = dev_index(j, sdev, true), r;

        if (dev < 0) {
                j->links_spilled++;
                return dev;
        }
        if (j->nlinks * 4 >= j->links_cap * 3 && j->links_cap < slots_max(j)) {
                r = links_grow(j);
                if (r < 0)
                        return r;
        }
        for (h = link_hash(dev, ino, j->links_cap);; h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->name) {
                        uint32_t off;
                        if (j->nlinks >= links_max(j) || !(off = names_put(j, path, len))) {
                                j->links_spilled++;
                                return -ENOSPC;
                        }
                        *l = (struct si_walk_link){.ino = ino,
                                                   .name = off,
                                                   .dev = (uint16_t) dev,
                                                   .mode = (uint16_t) mode};
                        j->nlinks++;
                        return 1;
                }
                if (l->dev == (unsigned) dev && l->ino == ino) {
                        char *old = j->names + l->name;
                        size_t oldlen;
                        uint32_t off;
                        if (strcmp(path, old) >= 0)
                                return 0;
                        oldlen = strlen(old) + 1;
                        if (len <= oldlen) {
                                memcpy(old, path, len);
                                j->names_dead += oldlen - len;
                                return 0;
                        }
                        off = names_put(j, path, len); /* may move the arena: no @old below */
                        if (!off) {
                                /* keeps the name it has: one file whose label may come from
                                 * another of its names than the one that sorts first */
                                j->links_spilled++;
                                return 0;
                        }
                        l->name = off;
                        j->names_dead += oldlen;
                        return 0;
                }
        }
}

int si_walk_links_add(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        int r;

        pthread_mutex_lock(&j->lock);
        r = links_add_locked(j, dev, ino, path, mode);
        pthread_mutex_unlock(&j->lock);
        return r;
}

const char *si_walk_links_find(struct si_walk *j, dev_t sdev, ino_t ino)
{
        int dev = dev_index(j, sdev, false);

        if (dev < 0)
                return NULL;
        for (size_t h = j->links_cap ? link_hash(dev, ino, j->links_cap) : 0; j->links_cap;
             h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->name)
                        return NULL;
                if (l->dev == (unsigned) dev && l->ino == ino)
                        return j->names + l->name;
        }
        return NULL;
}

/* Open @path (absolute in the target, never through a symlink, never out of it) as O_PATH: in
 * pieces below PATH_MAX, each resolved beneath the directory the last one opened, so that a
 * name of any length opens. */
static int open_beneath(int root_fd, const char *path)
{
        struct open_how how = {.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS};
        _cleanup_free_ char *piece = NULL;
        const char *p = path + 1;
        int fd = -EBADF;

        if (!(piece = malloc(PATH_MAX)))
                return -ENOMEM;
        for (;;) {
                size_t n = strlen(p);
                bool last = n < PATH_MAX;
                int next;

                if (!last) { /* the longest run of whole components below PATH_MAX */
                        n = PATH_MAX - 1;
                        while (n > 0 && p[n] != '/')
                                n--;
                        if (n == 0) {
                                if (fd >= 0)
                                        close(fd);
                                return -ENAMETOOLONG;
                        }
                }
                memcpy(piece, p, n);
                piece[n] = '\0';
                how.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC | (last ? 0 : O_DIRECTORY);
                next = (int) syscall(SYS_openat2, fd >= 0 ? fd : root_fd, piece, &how, sizeof(how));
                if (fd >= 0)
                        close(fd);
                if (next < 0)
                        return -errno;
                fd = next;
                if (last)
                        return fd;
                p += n + 1;
        }
}

/* Label the files with several names, each through the name that sorts first. */
void si_walk_links_label(struct si_walk *j, struct si_walker *w)
{
        for (size_t i = 0; i < j->links_cap; i++) {
                struct si_walk_link *l = &j->links[i];
                const char *path;
                struct stat st;
                int fd;

                if (!l->name || atomic_load(&j->abort))
                        continue;
                path = j->names + l->name;
                fd = open_beneath(j->ctx->root_fd, path);
                if (fd < 0) {
                        if (fd != -ENOENT)
                                si_walk_error(j, w, "Could not open %s: %s", path, strerror(-fd));
                        continue;
                }
                if (fstat(fd, &st) == 0 && st.st_dev == j->link_devs[l->dev] && st.st_ino == l->ino)
                        j->ops->visit(w, fd, -1, "", path, (mode_t) l->mode);
                close(fd);
        }
        if (j->links_spilled > 0)
                si_walk_log(j, SEINSTALL_LOG_WARNING,
                            "%zu files with several names did not fit in the table of such "
                            "files (%zu files, %zu bytes of names): they were labeled through "
                            "the names the walk met them by, which gives the same label unless "
                            "their names call for different ones",
                            j->links_spilled, j->nlinks, j->names_len);
}

void si_walk_links_free(struct si_walk *j)
{
        unmap(j->links, j->links_cap * sizeof(*j->links));
        j->links = NULL;
        j->links_cap = j->nlinks = j->n_link_devs = 0;
        unmap(j->names, j->names_cap);
        j->names = NULL;
        j->names_len = j->names_cap = j->names_dead = 0;
}
