/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor — the syscall floor of a relabel, for `make bench`: walk a tree (never following
 * symlinks, staying on its filesystem), read each entry's security.selinux and write one
 * constant label. No lookup at all: what any relabel must at least spend.
 *
 *   floor [-j N] ROOT LABEL     read each label, write LABEL (the floor of a tree to be labeled)
 *   floor [-j N] ROOT --read    read each label only (the floor of a tree already labeled)
 *   floor [-j N] ROOT --remove  remove each label (how the bench makes an unlabeled tree)
 *
 * -j N: N threads (default 1) making the same calls. Each walks depth first in a directory
 * of its own; when another thread is idle and the queue is empty, it hands the next
 * subdirectory it meets to the queue instead of descending into it. Each thread has its own
 * working directory (unshare(CLONE_FS)), so every entry is still reached by its bare name.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define QUEUE_MAX 64

static int mode; /* 0 write the label, 1 read only, 2 remove */
static const char *label;
static dev_t dev;

/* the directories handed from one thread to another */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int queue[QUEUE_MAX];
static unsigned qlen, nthreads, idle;
static atomic_uint idle_hint;
static atomic_int failed;

struct walker {
        pthread_t thread;
        unsigned long n;
};

/* Hand @fd to an idle thread, if one waits and the queue has room; true when handed on. */
static bool hand_on(int fd)
{
        bool done = false;

        if (nthreads < 2 || atomic_load_explicit(&idle_hint, memory_order_relaxed) == 0)
                return false;
        pthread_mutex_lock(&lock);
        if (idle > qlen && qlen < QUEUE_MAX) {
                queue[qlen++] = fd;
                pthread_cond_signal(&cond);
                done = true;
        }
        pthread_mutex_unlock(&lock);
        return done;
}

/* Walk the tree below the directory @fd (taken over; the directory itself already done). */
static int walk(struct walker *w, int fd)
{
        DIR **stack = NULL;
        size_t depth = 0, cap = 0;
        char buf[4096], proc[64 + 256];
        struct stat st;
        int cwd = -1;

        for (;;) {
                struct dirent *de;
                if (fd >= 0) {
                        if (depth == cap) {
                                cap = cap ? cap * 2 : 64;
                                stack = realloc(stack, cap * sizeof(*stack));
                                if (!stack)
                                        return 2;
                        }
                        stack[depth++] = fdopendir(fd);
                        fd = -1;
                }
                if (!depth)
                        break;
                de = readdir(stack[depth - 1]);
                if (!de) {
                        if (dirfd(stack[depth - 1]) == cwd)
                                cwd = -1;
                        closedir(stack[--depth]);
                        continue;
                }
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                int dfd = dirfd(stack[depth - 1]);
                if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != dev)
                        continue;
                /* bare names relative to the directory we are in: the cheapest lookup */
                if (dfd != cwd) {
                        if (fchdir(dfd) < 0)
                                return 2;
                        cwd = dfd;
                }
                snprintf(proc, sizeof(proc), "%s", de->d_name);
                if (mode == 2) {
                        if (lremovexattr(proc, "security.selinux") < 0 && errno != ENODATA) {
                                perror(proc);
                                return 1;
                        }
                } else {
                        (void) lgetxattr(proc, "security.selinux", buf, sizeof(buf));
                }
                if (mode == 0 &&
                    lsetxattr(proc, "security.selinux", label, strlen(label) + 1, 0) < 0) {
                        perror(proc);
                        return 1;
                }
                w->n++;
                if (S_ISDIR(st.st_mode)) {
                        fd = openat(dfd, de->d_name,
                                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (fd >= 0 && hand_on(fd))
                                fd = -1;
                }
        }
        free(stack);
        return 0;
}

static void *worker_main(void *arg)
{
        struct walker *w = arg;

        if (unshare(CLONE_FS) < 0) {
                perror("unshare");
                atomic_store(&failed, 2);
        }
        for (;;) {
                int fd;

                pthread_mutex_lock(&lock);
                idle++;
                atomic_store_explicit(&idle_hint, idle, memory_order_relaxed);
                while (qlen == 0 && idle < nthreads && !atomic_load(&failed))
                        pthread_cond_wait(&cond, &lock);
                if (qlen == 0 || atomic_load(&failed)) {
                        /* everyone idle and nothing queued: the walk is over */
                        pthread_cond_broadcast(&cond);
                        pthread_mutex_unlock(&lock);
                        return NULL;
                }
                fd = queue[--qlen];
                idle--;
                atomic_store_explicit(&idle_hint, idle, memory_order_relaxed);
                pthread_mutex_unlock(&lock);
                int r = walk(w, fd);
                if (r)
                        atomic_store(&failed, r);
        }
}

int main(int argc, char **argv)
{
        struct walker *w;
        unsigned long n = 0;
        char buf[4096];
        struct stat st;
        int fd, r = 0;

        nthreads = 1;
        if (argc == 5 && !strcmp(argv[1], "-j")) {
                nthreads = (unsigned) atoi(argv[2]);
                argv += 2;
                argc -= 2;
        }
        if (argc != 3 || nthreads < 1 || nthreads > QUEUE_MAX) {
                fprintf(stderr, "usage: floor [-j N] ROOT LABEL|--read|--remove\n");
                return 2;
        }
        mode = !strcmp(argv[2], "--read") ? 1 : !strcmp(argv[2], "--remove") ? 2 : 0;
        label = argv[2];
        fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                perror(argv[1]);
                return 2;
        }
        dev = st.st_dev;
        if (mode == 2)
                (void) fremovexattr(fd, "security.selinux");
        else
                (void) fgetxattr(fd, "security.selinux", buf, sizeof(buf));
        if (mode == 0)
                (void) fsetxattr(fd, "security.selinux", label, strlen(label) + 1, 0);
        w = calloc(nthreads, sizeof(*w));
        if (!w)
                return 2;
        w[0].n = 1;
        if (nthreads == 1) {
                /* the one-thread floor: this thread, no queue */
                r = walk(&w[0], fd);
        } else {
                unsigned started = 0;
                queue[qlen++] = fd;
                for (; started < nthreads; started++)
                        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]))
                                break;
                if (started < nthreads) {
                        /* the threads that did start must not wait for the others */
                        pthread_mutex_lock(&lock);
                        nthreads = started;
                        atomic_store(&failed, 2);
                        pthread_cond_broadcast(&cond);
                        pthread_mutex_unlock(&lock);
                }
                for (unsigned i = 0; i < started; i++)
                        pthread_join(w[i].thread, NULL);
                r = atomic_load(&failed);
        }
        for (unsigned i = 0; i < nthreads; i++)
                n += w[i].n;
        printf("floor: %lu entries, %u thread%s:", n, nthreads, nthreads == 1 ? "" : "s");
        for (unsigned i = 0; i < nthreads; i++)
                printf(" %lu", w[i].n);
        printf("\n");
        free(w);
        return r;
}
