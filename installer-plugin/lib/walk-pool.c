/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-pool.c — the tree walker's threads: a queue with room for one directory per thread, the
 * worker threads that take directories from it and descend into them (walk.c), and the
 * caller's thread, which starts them, reports progress and hands on their messages while it
 * waits, then labels the files with several names (walk-links.c).
 */
#include <fcntl.h>
#include <sched.h>
#include <time.h>

#include "fcontext.h"
#include "walk-internal.h"

static void *worker_main(void *arg)
{
        struct si_walker *w = arg;
        struct si_walk *j = w->walk;

        /* Our own working directory, so that fchdir() here does not move the other threads. */
        w->own_cwd = unshare(CLONE_FS) == 0;
        w->cwd = -1;
        for (;;) {
                struct si_walk_work item;

                pthread_mutex_lock(&j->lock);
                j->idle++;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                while (j->qlen == 0 && !j->done && !atomic_load(&j->abort)) {
                        if (j->idle == j->nthreads) {
                                j->done = true;
                                pthread_cond_broadcast(&j->cond);
                                break;
                        }
                        pthread_cond_wait(&j->cond, &j->lock);
                }
                if (j->qlen == 0 || atomic_load(&j->abort)) {
                        pthread_cond_broadcast(&j->cond);
                        pthread_mutex_unlock(&j->lock);
                        break;
                }
                item = j->queue[--j->qlen];
                atomic_store_explicit(&j->qlen_hint, (unsigned) j->qlen, memory_order_relaxed);
                j->idle--;
                atomic_store_explicit(&j->idle_hint, j->idle, memory_order_relaxed);
                pthread_mutex_unlock(&j->lock);

                si_walk_dir(w, &item);
                free(item.path);
        }
        pthread_mutex_lock(&j->lock);
        j->running--;
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
        return NULL;
}

unsigned long long si_walk_count_total(struct si_walk *j, enum seinstall_relabel_count which)
{
        unsigned long long n = 0;

        for (unsigned i = 0; j->workers && i < j->nthreads; i++)
                n += atomic_load_explicit(&j->workers[i].counts[which], memory_order_relaxed);
        return n;
}

double si_walk_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int si_walk_init(struct si_walk *j)
{
        j->msgs_tail = &j->msgs;
        if (pthread_mutex_init(&j->lock, NULL) != 0)
                return -ENOMEM;
        if (pthread_cond_init(&j->cond, NULL) != 0) {
                pthread_mutex_destroy(&j->lock);
                return -ENOMEM;
        }
        return 0;
}

void si_walk_done(struct si_walk *j)
{
        for (unsigned i = 0; j->workers && i < j->nthreads; i++) {
                si_fc_scratch_free(j->workers[i].scratch);
                sbuf_free(&j->workers[i].path);
        }
        free(j->workers);
        j->workers = NULL;
        for (size_t i = 0; i < j->qlen; i++) {
                close(j->queue[i].fd);
                free(j->queue[i].path);
        }
        free(j->queue);
        j->queue = NULL;
        si_walk_links_free(j);
        si_walk_msgs_flush(j);
        pthread_mutex_destroy(&j->lock);
        pthread_cond_destroy(&j->cond);
}

/* The threads' state, each with its own lookup space, and a queue with room for one
 * directory per thread. */
static int workers_new(struct si_walk *j)
{
        int r;

        j->workers = calloc(j->nthreads, sizeof(*j->workers));
        j->queue = calloc(j->nthreads + 1, sizeof(*j->queue));
        if (!j->workers || !j->queue)
                return -ENOMEM;
        for (unsigned i = 0; i < j->nthreads; i++) {
                struct si_walker *w = &j->workers[i];
                w->walk = j;
                w->cwd = -1;
                r = si_fc_scratch_new(j->fc, &w->scratch);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Start the threads on the queue and wait for them, reporting progress. */
static int threads_run(struct si_walk *j, seinstall_relabel_progress_fn progress, void *userdata,
                       double start)
{
        unsigned started = 0;

        pthread_mutex_lock(&j->lock);
        for (; started < j->nthreads; started++) {
                if (pthread_create(&j->workers[started].thread, NULL, worker_main,
                                   &j->workers[started]) != 0)
                        break;
                j->running++;
        }
        if (started < j->nthreads) {
                /* The threads that did start must not wait for the others: stop them. */
                if (!j->fatal)
                        j->fatal = -EAGAIN;
                atomic_store(&j->abort, true);
                pthread_cond_broadcast(&j->cond);
        }
        while (j->running > 0) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 250 * 1000 * 1000;
                if (ts.tv_nsec >= 1000000000) {
                        ts.tv_sec++;
                        ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&j->cond, &j->lock, &ts);
                if (si_interrupted(j->ctx) && !j->fatal) {
                        /* asked to stop: the workers finish the entry they are at */
                        j->fatal = -EINTR;
                        atomic_store(&j->abort, true);
                        pthread_cond_broadcast(&j->cond);
                }
                if (j->msgs || (progress && j->running > 0)) {
                        unsigned long long total = j->total_estimate;
                        bool report = progress && j->running > 0; /* read under the lock */
                        pthread_mutex_unlock(&j->lock);
                        si_walk_msgs_flush(j);
                        if (report)
                                progress(userdata,
                                         si_walk_count_total(j, SEINSTALL_RELABEL_COUNT_SEEN),
                                         total, si_walk_now() - start);
                        pthread_mutex_lock(&j->lock);
                }
        }
        pthread_mutex_unlock(&j->lock);
        for (unsigned i = 0; i < started; i++)
                pthread_join(j->workers[i].thread, NULL);
        si_walk_msgs_flush(j);
        if (progress)
                progress(userdata, si_walk_count_total(j, SEINSTALL_RELABEL_COUNT_SEEN),
                         j->total_estimate, si_walk_now() - start);
        return j->fatal;
}

/* Queue the root (@fd, taken over) for the threads and run them. */
static int walk_pass(struct si_walk *j, int fd, dev_t dev, uint64_t mnt,
                     seinstall_relabel_progress_fn progress, void *userdata, double start)
{
        j->queue[0] =
            (struct si_walk_work){.fd = fd, .path = strdup(""), .len = 0, .dev = dev, .mnt = mnt};
        if (!j->queue[0].path) {
                close(fd);
                return -ENOMEM;
        }
        j->qlen = 1;
        j->idle = 0;
        j->done = false;
        atomic_store(&j->qlen_hint, 1);
        atomic_store(&j->idle_hint, 0);
        return threads_run(j, progress, userdata, start);
}

/* When the table of files with several names was full, walk again for each part of them that
 * waited (walk-links.c), looking at those files only. */
static int walk_later_passes(struct si_walk *j, int base, dev_t dev, uint64_t mnt,
                             seinstall_relabel_progress_fn progress, void *userdata, double start)
{
        int r = 0;

        while (!j->fatal && si_walk_links_next_pass(j)) {
                int fd = openat(base, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (fd < 0)
                        return -errno;
                j->rewalk = true;
                r = walk_pass(j, fd, dev, mnt, progress, userdata, start);
                j->rewalk = false;
                if (r < 0)
                        return r;
                si_walk_links_label(j, &j->workers[0]);
        }
        if (j->links_passes > 0)
                si_walk_log(j, SEINSTALL_LOG_NOTICE,
                            "The files with several names did not fit in one table (%zu files, "
                            "%zu MiB of names at most): the tree was walked %u more times to "
                            "give each the label of its name that sorts first",
                            j->links_max ? j->links_max : SI_WALK_LINKS_MAX,
                            (j->names_max ? j->names_max : SI_WALK_NAMES_MAX) >> 20,
                            j->links_passes);
        return j->fatal;
}

static int walk_run(struct si_walk *j, int root_fd, seinstall_relabel_progress_fn progress,
                    void *userdata, double start)
{
        _cleanup_close_ int fd = root_fd, base = -EBADF;
        struct stat st;
        int r;

        uint64_t mnt;

        if (fstat(fd, &st) < 0)
                return -errno;
        r = si_fd_mount_id(fd, "", AT_EMPTY_PATH, &mnt);
        if (r < 0)
                return r;
        /* for the later passes, if any */
        base = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (base < 0)
                return -errno;
        j->total_estimate = si_walk_used_inodes(fd);
        r = workers_new(j);
        if (r < 0)
                return r;
        /* The root itself, from this thread, then everything below it. */
        j->ops->visit(&j->workers[0], fd, -1, NULL, "", S_IFDIR);
        if (j->fatal)
                return j->fatal;
        r = walk_pass(j, TAKE_FD(fd), st.st_dev, mnt, progress, userdata, start);
        if (r < 0)
                return r;
        si_walk_links_label(j, &j->workers[0]);
        if (j->fatal)
                return j->fatal;
        return walk_later_passes(j, base, st.st_dev, mnt, progress, userdata, start);
}

int si_walk_run(struct si_walk *j, int root_fd, seinstall_relabel_progress_fn progress,
                void *userdata, double start)
{
        int r = walk_run(j, root_fd, progress, userdata, start);

        /* what the root, the hard links or a failed start left to say */
        si_walk_msgs_flush(j);
        return r;
}
