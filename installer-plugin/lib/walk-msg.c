/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk-msg.c — errors and messages of the tree walker. Worker threads never call the context's
 * log callback (seinstall.h promises the caller's thread): they record errors in the result
 * and queue messages, which the thread that runs the walk hands on (si_walk_msgs_flush) while
 * it waits and when the walk ends. The queue is bounded: beyond MAX_QUEUED_MSGS messages are
 * only counted, and reported as dropped.
 */
#include "walk-internal.h"

/* A message queued for the caller's thread; @err != 0 makes it the context's last error. */
struct si_walk_msg {
        struct si_walk_msg *next;
        int priority;
        int err;
        char text[];
};

/* Messages beyond this many wait in no queue: they are counted and reported as dropped. */
#define MAX_QUEUED_MSGS 1000

static void walk_error_v(struct si_walk *j, struct si_walker *w, const char *fmt, va_list ap)
{
        char *msg = NULL;

        if (w)
                atomic_fetch_add_explicit(&w->counts[SEINSTALL_RELABEL_COUNT_ERRORS], 1,
                                          memory_order_relaxed);
        if (vasprintf(&msg, si_tr(j->ctx, fmt), ap) < 0)
                msg = NULL;
        pthread_mutex_lock(&j->lock);
        j->ops->error(j->data, msg);
        pthread_mutex_unlock(&j->lock);
}

void si_walk_error(struct si_walk *j, struct si_walker *w, const char *fmt, ...)
{
        va_list ap;

        if (j->rewalk)
                return; /* the first pass met the same entry and said it */
        va_start(ap, fmt);
        walk_error_v(j, w, fmt, ap);
        va_end(ap);
}

void si_walk_links_error(struct si_walk *j, struct si_walker *w, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        walk_error_v(j, w, fmt, ap);
        va_end(ap);
}

void si_walk_fatal(struct si_walk *j, int err)
{
        pthread_mutex_lock(&j->lock);
        if (!j->fatal)
                j->fatal = err;
        atomic_store(&j->abort, true);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

/* Queue a message (the lock held). */
static void msg_queue_locked(struct si_walk *j, int priority, int err, const char *fmt, va_list ap)
{
        struct si_walk_msg *m;
        char *text = NULL;

        if (j->nmsgs >= MAX_QUEUED_MSGS || vasprintf(&text, si_tr(j->ctx, fmt), ap) < 0) {
                j->msgs_dropped++;
                return;
        }
        m = malloc(sizeof(*m) + strlen(text) + 1);
        if (!m) {
                free(text);
                j->msgs_dropped++;
                return;
        }
        *m = (struct si_walk_msg){.priority = priority, .err = err};
        strcpy(m->text, text);
        free(text);
        if (!j->msgs_tail)
                j->msgs_tail = &j->msgs;
        *j->msgs_tail = m;
        j->msgs_tail = &m->next;
        j->nmsgs++;
}

void si_walk_log(struct si_walk *j, int priority, const char *fmt, ...)
{
        va_list ap;

        pthread_mutex_lock(&j->lock);
        va_start(ap, fmt);
        msg_queue_locked(j, priority, 0, fmt, ap);
        va_end(ap);
        /* wake the caller's thread, which waits on the same condition as idle workers */
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

void si_walk_fail(struct si_walk *j, int err, const char *fmt, ...)
{
        va_list ap;

        pthread_mutex_lock(&j->lock);
        if (!j->fatal) {
                va_start(ap, fmt);
                msg_queue_locked(j, SEINSTALL_LOG_ERR, err, fmt, ap);
                va_end(ap);
                j->fatal = err;
        }
        atomic_store(&j->abort, true);
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
}

void si_walk_msgs_flush(struct si_walk *j)
{
        struct si_walk_msg *m;
        size_t dropped;

        pthread_mutex_lock(&j->lock);
        m = TAKE_PTR(j->msgs);
        j->msgs_tail = &j->msgs;
        j->nmsgs = 0;
        dropped = j->msgs_dropped;
        j->msgs_dropped = 0;
        pthread_mutex_unlock(&j->lock);
        while (m) {
                struct si_walk_msg *next = m->next;
                if (m->err)
                        (void) si_error(j->ctx, m->err, "%s", m->text);
                else
                        si_log(j->ctx, m->priority, "%s", m->text);
                free(m);
                m = next;
        }
        if (dropped > 0)
                si_warn(j->ctx, "%zu more messages of the relabel walk were dropped", dropped);
}

int si_walk_add_skipped(struct si_walk *j, const char *path, const char *fstype, const char *reason)
{
        int r;

        if (j->rewalk)
                return 0; /* listed by the first pass */
        pthread_mutex_lock(&j->lock);
        r = j->ops->skipped(j->data, path, fstype, reason);
        pthread_mutex_unlock(&j->lock);
        return r;
}
