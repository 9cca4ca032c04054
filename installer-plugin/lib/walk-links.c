/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-links.c — files with several names (hard links) in the tree walker: each is labeled
 * once, after the walk, through one of its names (see si_walk_links_add).
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "walk-internal.h"

struct si_walk_link {
        dev_t dev;
        ino_t ino;
        mode_t mode;
        char *path; /* the name that sorts first so far; NULL: free slot */
};

static size_t link_hash(dev_t dev, ino_t ino, size_t cap)
{
        return (size_t) (ino * 31 + dev) & (cap - 1);
}

/* Double the table (the lock held). */
static int links_grow(struct si_walk *j)
{
        size_t cap = j->links_cap ? j->links_cap * 2 : 1024;
        struct si_walk_link *n = calloc(cap, sizeof(*n));

        if (!n)
                return -ENOMEM;
        for (size_t i = 0; i < j->links_cap; i++) {
                size_t h;
                if (!j->links[i].path)
                        continue;
                h = link_hash(j->links[i].dev, j->links[i].ino, cap);
                while (n[h].path)
                        h = (h + 1) & (cap - 1);
                n[h] = j->links[i];
        }
        free(j->links);
        j->links = n;
        j->links_cap = cap;
        return 0;
}

/* Remember @path for the file (@dev, @ino), or keep the name already there when it sorts
 * first (the lock held). Returns 1 for a file not met before, 0 for another name of one. */
static int links_add_locked(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        size_t h;
        int r;

        if (j->nlinks * 2 >= j->links_cap) {
                r = links_grow(j);
                if (r < 0)
                        return r;
        }
        for (h = link_hash(dev, ino, j->links_cap);; h = (h + 1) & (j->links_cap - 1)) {
                struct si_walk_link *l = &j->links[h];
                if (!l->path) {
                        l->path = strdup(path);
                        if (!l->path)
                                return -ENOMEM;
                        l->dev = dev;
                        l->ino = ino;
                        l->mode = mode;
                        j->nlinks++;
                        return 1;
                }
                if (l->dev == dev && l->ino == ino) {
                        if (strcmp(path, l->path) < 0) {
                                char *p = strdup(path);
                                if (!p)
                                        return -ENOMEM;
                                free(l->path);
                                l->path = p;
                        }
                        return 0;
                }
        }
}

/* Files with several names (hard links): whichever name the walk meets first, the file gets
 * the label of its name that sorts first, so that the result does not depend on the order of
 * the walk and a second run changes nothing. The table holds only such files. */
int si_walk_links_add(struct si_walk *j, dev_t dev, ino_t ino, const char *path, mode_t mode)
{
        int r;

        pthread_mutex_lock(&j->lock);
        r = links_add_locked(j, dev, ino, path, mode);
        pthread_mutex_unlock(&j->lock);
        return r;
}

/* Label the files with several names, each through the name that sorts first. */
void si_walk_links_label(struct si_walk *j, struct si_walker *w)
{
        for (size_t i = 0; i < j->links_cap; i++) {
                struct si_walk_link *l = &j->links[i];
                struct open_how how = {
                    .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
                    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
                };
                struct stat st;
                int fd;

                if (!l->path || atomic_load(&j->abort))
                        continue;
                fd = (int) syscall(SYS_openat2, j->ctx->root_fd, l->path + 1, &how, sizeof(how));
                if (fd < 0) {
                        if (errno != ENOENT)
                                si_walk_error(j, w, "Could not open %s: %m", l->path);
                        continue;
                }
                if (fstat(fd, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
                        j->visit(w, fd, -1, "", l->path, l->mode);
                close(fd);
        }
}

void si_walk_links_free(struct si_walk *j)
{
        for (size_t i = 0; i < j->links_cap; i++)
                free(j->links[i].path);
        free(j->links);
        j->links = NULL;
}
