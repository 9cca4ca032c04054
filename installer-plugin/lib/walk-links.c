/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-links.c — files with several names (hard links) in the tree walker. Whichever name the
 * walk meets first, such a file gets the label of its name that sorts first, so that the result
 * does not depend on the order of the walk and a second run changes nothing: the walk only
 * remembers the file and its best name so far, and the file is labeled once, after the walk.
 *
 * Memory, bounded by construction: a slot is 16 bytes (inode, the offset of its name, its
 * device), in an open-addressing table of at most links_max * 2 slots; the names lie one after
 * another in one arena of at most names_max bytes, compacted when names replaced by better ones
 * leave too much of it unused. With the defaults (SI_WALK_LINKS_MAX files, SI_WALK_NAMES_MAX
 * bytes) that is at most 16 MiB + 48 MiB, whatever the tree holds, on any number of
 * filesystems (a slot holds the device itself). Both are mapped on their own (mmap, mremap),
 * not taken from the heap: what a growing table or arena leaves behind goes back to the system
 * at once, so a walk's peak memory is its live table, not a heap that kept every size it ever
 * had.
 *
 * When the table or the arena is full, nothing is labeled through a name that may not be the
 * first: the files are split by a hash of (device, inode) into parts, and each walk of the tree
 * (a pass) handles one part. A pass starts with the part of every file; when it fills, the
 * part is halved (one more bit of the hash), the files of the other half leave the table, and
 * they and the files of that half met later wait for a pass of their own, which walks the tree
 * again looking at files with several names only. Each part is walked once; a pass that
 * overflows halves its own part again. More passes cost time, never a wrong label; past
 * LINK_BITS_MAX halvings (parts of one file, in effect) a file that still does not fit is an
 * error.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/openat2.h>

#include "walk-internal.h"

struct si_walk_link {
        uint64_t ino;
        uint32_t name; /* offset of its name that sorts first so far in j->names; 0: free slot */
        uint32_t dev;  /* the device, as the kernel encodes it (12 bits major, 20 minor) */
};
_Static_assert(sizeof(struct si_walk_link) == 16, "a slot is 16 bytes");

/* The most bits of the hash a pass's part is chosen by. */
#define LINK_BITS_MAX 24

/* @dev in 32 bits, as the kernel's own dev_t holds it; -EOVERFLOW for a device no Linux
 * kernel makes. */
static int64_t dev_encode(dev_t dev)
{
        unsigned long long maj = major(dev), min = minor(dev);

        if (maj > 0xfff || min > 0xfffff)
                return -EOVERFLOW;
        return (int64_t) ((maj << 20) | min);
}

/* A 64-bit mix of (device, inode): its low bits choose the part, its high bits the slot. */
static uint64_t link_mix(uint32_t dev, uint64_t ino)
{
        uint64_t x = ino ^ ((uint64_t) dev << 40 | (uint64_t) dev >> 24) ^ 0x9e3779b97f4a7c15ULL;

        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
}

static size_t link_slot(uint64_t mix, size_t cap)
{
        return (size_t) (mix >> 32) & (cap - 1);
}

/* Whether the file of hash @mix belongs to this pass's part. */
static bool in_part(const struct si_walk *j, uint64_t mix)
{
        uint64_t mask = ((uint64_t) 1 << j->links_bits) - 1;

        return (mix & mask) == j->links_part;
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

/* Move the slots of this pass's part into a new table of @cap slots; the names of the others
 * become dead space of the arena (the lock held). */
static int links_rehash(struct si_walk *j, size_t cap)
{
        struct si_walk_link *n = map_zeroed(cap * sizeof(*n));

        if (!n)
                return -ENOMEM;
        j->nlinks = 0;
        for (size_t i = 0; i < j->links_cap; i++) {
                const struct si_walk_link *l = &j->links[i];
                uint64_t mix;
                size_t h;
                if (!l->name)
                        continue;
                mix = link_mix(l->dev, l->ino);
                if (!in_part(j, mix)) {
                        j->names_dead += strlen(j->names + l->name) + 1;
                        continue;
                }
                for (h = link_slot(mix, cap); n[h].name; h = (h + 1) & (cap - 1))
                        ;
                n[h] = *l;
                j->nlinks++;
        }
        unmap(j->links, j->links_cap * sizeof(*n));
        j->links = n;
        j->links_cap = cap;
        return 0;
}

/* Double the table (the lock held). */
static int links_grow(struct si_walk *j)
{
        size_t cap = j->links_cap ? j->links_cap * 2 : 1024;

        return links_rehash(j, cap < slots_max(j) ? cap : slots_max(j));
}

/* The table or the arena is full: halve this pass's part and let the files of the other half
 * go, for a later pass (the lock held). -ENOSPC when the part cannot be halved any more. */
static int links_split(struct si_walk *j)
{
        if (j->links_bits >= LINK_BITS_MAX)
                return -ENOSPC;
        j->links_bits++;
        return links_rehash(j, j->links_cap);
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

/* Remember @path for the file (@dev, @ino) of hash @mix, or keep the name already there when
 * it sorts first; -ENOSPC when the table or the arena is full (the lock held). */
static int links_put(struct si_walk *j, uint32_t dev, uint64_t ino, uint64_t mix, const char *path,
                     size_t len)
{
        size_t h;
        int r;

        if (j->nlinks * 4 >= j->links_cap * 3 && j->links_cap < slots_max(j)) {
                r = links_grow(j);
                if (r < 0)
                        return r;
        }
        for (h = link_slot(mix, j->links_cap);; h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->name) {
                        uint32_t off;
                        if (j->nlinks >= links_max(j) || !(off = names_put(j, path, len)))
                                return -ENOSPC;
                        *l = (struct si_walk_link){.ino = ino, .name = off, .dev = dev};
                        j->nlinks++;
                        return 1;
                }
                if (l->dev == dev && l->ino == ino) {
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
                        if (!off)
                                return -ENOSPC;
                        l->name = off;
                        j->names_dead += oldlen;
                        return 0;
                }
        }
}

static int links_add_locked(struct si_walk *j, dev_t sdev, ino_t ino, const char *path)
{
        int64_t dev = dev_encode(sdev);
        size_t len = strlen(path) + 1;
        uint64_t mix;

        if (dev < 0)
                return (int) dev;
        mix = link_mix((uint32_t) dev, ino);
        for (;;) {
                int r;
                if (!in_part(j, mix)) {
                        j->links_later = true;
                        return SI_WALK_LINK_LATER;
                }
                r = links_put(j, (uint32_t) dev, ino, mix, path, len);
                if (r != -ENOSPC)
                        return r;
                r = links_split(j);
                if (r < 0)
                        return r;
                j->links_later = true;
        }
}

int si_walk_links_add(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        int r;

        (void) mode;
        pthread_mutex_lock(&j->lock);
        r = links_add_locked(j, dev, ino, path);
        pthread_mutex_unlock(&j->lock);
        return r;
}

const char *si_walk_links_find(struct si_walk *j, dev_t sdev, ino_t ino)
{
        int64_t dev = dev_encode(sdev);
        uint64_t mix;

        if (dev < 0 || !j->links_cap)
                return NULL;
        mix = link_mix((uint32_t) dev, ino);
        for (size_t h = link_slot(mix, j->links_cap);; h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->name)
                        return NULL;
                if (l->dev == (uint32_t) dev && l->ino == ino)
                        return j->names + l->name;
        }
}

bool si_walk_links_next_pass(struct si_walk *j)
{
        unsigned i;

        if (!j->links_later)
                return false;
        /* the parts form a binary tree, walked depth first: the deepest level where this part
         * took the 0 branch takes the 1 branch next */
        for (i = j->links_bits; i > 0; i--)
                if (!(j->links_part & ((uint64_t) 1 << (i - 1))))
                        break;
        if (i == 0)
                return false;
        j->links_part =
            (j->links_part & (((uint64_t) 1 << (i - 1)) - 1)) | ((uint64_t) 1 << (i - 1));
        j->links_bits = i;
        j->links_passes++;
        si_walk_links_free(j);
        return true;
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
                /* the file type as it is now: the name was met as this very file */
                if (fstat(fd, &st) == 0 && dev_encode(st.st_dev) == (int64_t) l->dev &&
                    st.st_ino == l->ino)
                        j->ops->visit(w, fd, -1, "", path, st.st_mode & S_IFMT);
                close(fd);
        }
}

void si_walk_links_free(struct si_walk *j)
{
        unmap(j->links, j->links_cap * sizeof(*j->links));
        j->links = NULL;
        j->links_cap = j->nlinks = 0;
        unmap(j->names, j->names_cap);
        j->names = NULL;
        j->names_len = j->names_cap = j->names_dead = 0;
}
