/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-cgroup.c — the cgroup of the sandbox for the target's programs: a new cgroup of its
 * own, made before bwrap runs and joined by the forked child before anything of the target
 * runs, with pids.max (root is exempt from RLIMIT_NPROC, so this is the only bound on a fork
 * bomb) and, where the memory controller reaches it, a memory limit for the whole tree. Where
 * it goes: cgroup v2 where a cgroup at or above this process's own passes the pids controller
 * on, else cgroup v1's pids hierarchy, else (no cgroup filesystem mounted, as in an installer's
 * initramfs) a cgroup2 filesystem mounted detached, seen only through descriptors. Everything
 * after the search works on directory descriptors. Nothing here prints.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "seinstall-private.h"
#include "sandbox-cgroup.h"

#define SMALL_FILE_MAX (4U << 20) /* mountinfo of a host with many mounts */
#define REMOVE_WAIT_MS 10000

static int take_fd(int *fd)
{
        int r = *fd;

        *fd = -1;
        return r;
}

static int read_at(int dfd, const char *name, char **ret)
{
        _cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);

        if (fd < 0)
                return -errno;
        return read_fd_bounded(fd, SMALL_FILE_MAX, ret, NULL);
}

static int write_at(int dfd, const char *name, const char *text)
{
        _cleanup_close_ int fd = openat(dfd, name, O_WRONLY | O_CLOEXEC | O_NOCTTY);

        if (fd < 0)
                return -errno;
        if (write(fd, text, strlen(text)) < 0)
                return -errno;
        return 0;
}

/* @word among the words of @list separated by blanks, commas or newlines. */
static bool has_word(const char *list, const char *word)
{
        size_t n = strlen(word);

        for (const char *p = list; p && *p;) {
                size_t k = strcspn(p, " ,\n");
                if (k == n && strncmp(p, word, n) == 0)
                        return true;
                p += k + (p[k] != '\0');
        }
        return false;
}

/* The number after "@key " on a line of a keyed file (pids.events, memory.events). */
static unsigned long long key_value(const char *text, const char *key)
{
        size_t n = strlen(key);

        for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
                if (strncmp(p, key, n) == 0 && p[n] == ' ')
                        return strtoull(p + n + 1, NULL, 10);
        return 0;
}

/* What /proc/self/mountinfo and /proc/self/cgroup say: for v2, the pids and the memory
 * hierarchy the mount point, the root of the mount in its hierarchy and this process's
 * cgroup in it. */
enum { H_V2, H_PIDS, H_MEM, H_N };
struct hier {
        char *point, *mroot, *own;
};

static void hiers_done(struct hier *h)
{
        for (size_t i = 0; i < H_N; i++) {
                free(h[i].point);
                free(h[i].mroot);
                free(h[i].own);
        }
}

static int set_mount(struct hier *h, const char *root, const char *mroot, const char *point)
{
        if (h->point)
                return 0; /* the first mount of a hierarchy */
        h->mroot = strdup(mroot);
        if (asprintf(&h->point, "%s%s", root, point) < 0)
                h->point = NULL;
        return h->mroot && h->point ? 0 : -ENOMEM;
}

/* The first mount of each hierarchy in @mi: cgroup2, and cgroup v1's pids and memory (named in
 * the superblock's options). */
static int find_mounts(const struct si_mountinfo *mi, const char *root, struct hier *h)
{
        int r = 0;

        for (size_t i = 0; r >= 0 && i < mi->n; i++) {
                const struct si_mountinfo_entry *m = &mi->v[i];

                if (streq(m->fstype, "cgroup2"))
                        r = set_mount(&h[H_V2], root, m->root, m->point);
                else if (streq(m->fstype, "cgroup") && has_word(m->super, "pids"))
                        r = set_mount(&h[H_PIDS], root, m->root, m->point);
                else if (streq(m->fstype, "cgroup") && has_word(m->super, "memory"))
                        r = set_mount(&h[H_MEM], root, m->root, m->point);
        }
        return r;
}

/* "0::/PATH" for v2, "ID:CONTROLLER,...:/PATH" for v1. */
static int parse_own(char *text, struct hier *h)
{
        for (char *line = text, *next; line && *line; line = next) {
                char *c1, *c2;
                int i = -1;

                next = strchr(line, '\n');
                if (next)
                        *next++ = '\0';
                c1 = strchr(line, ':');
                c2 = c1 ? strchr(c1 + 1, ':') : NULL;
                if (!c2 || c2[1] != '/')
                        continue;
                *c2 = '\0';
                if (streq(line, "0:"))
                        i = H_V2;
                else if (has_word(c1 + 1, "pids"))
                        i = H_PIDS;
                else if (has_word(c1 + 1, "memory"))
                        i = H_MEM;
                if (i >= 0 && !h[i].own && !(h[i].own = strdup(c2 + 1)))
                        return -ENOMEM;
        }
        return 0;
}

/* This process's cgroup relative to the mount's top ("" for the top itself), or NULL when
 * the mount does not show it. */
static const char *own_rel(const struct hier *h)
{
        const char *rest;

        if (!h->own || !h->mroot)
                return NULL;
        rest = streq(h->mroot, "/") ? h->own : startswith(h->own, h->mroot);
        if (!rest || (*rest && *rest != '/'))
                return NULL;
        while (*rest == '/')
                rest++;
        return strstr(rest, "..") ? NULL : rest;
}

static int place_fill(struct si_cgroup_place *ret, int version, int *fd, bool memory,
                      const char *top, const char *rel)
{
        char *where = NULL;

        if (asprintf(&where, "%s%s%s", top, *rel ? "/" : "", rel) < 0)
                return -ENOMEM;
        *ret = (struct si_cgroup_place){.version = version,
                                        .pids_fd = take_fd(fd),
                                        .mem_fd = -1,
                                        .memory = memory,
                                        .where = where};
        return 0;
}

/* cgroup v2: the nearest cgroup at or above @rel (below the mount's top @top_fd) that passes
 * pids on to its children and may have children that hold processes: the root cgroup (it has
 * no cgroup.type; pids and memory are enabled there when they are not), or a plain "domain"
 * one with pids in cgroup.subtree_control, which then holds no process. This process's own
 * cgroup, which holds it, cannot be one: enabling pids there would make it a threaded
 * domain whose children take no processes. */
static int v2_pick(int top_fd, const char *top, const char *rel, struct si_cgroup_place *ret,
                   const char **ret_why)
{
        _cleanup_free_ char *cur = strdup(rel);

        if (!cur)
                return -ENOMEM;
        for (;;) {
                _cleanup_close_ int dfd =
                    openat(top_fd, *cur ? cur : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                _cleanup_free_ char *sub = NULL, *type = NULL, *ctl = NULL;
                bool is_root;
                char *slash;

                if (dfd < 0)
                        break;
                is_root = read_at(dfd, "cgroup.type", &type) == -ENOENT;
                (void) read_at(dfd, "cgroup.subtree_control", &sub);
                if (is_root && !has_word(sub, "pids") &&
                    read_at(dfd, "cgroup.controllers", &ctl) >= 0 && has_word(ctl, "pids")) {
                        (void) write_at(dfd, "cgroup.subtree_control", "+pids");
                        if (has_word(ctl, "memory"))
                                (void) write_at(dfd, "cgroup.subtree_control", "+memory");
                        free(sub);
                        sub = NULL;
                        (void) read_at(dfd, "cgroup.subtree_control", &sub);
                }
                if (has_word(sub, "pids") && (is_root || streq_ptr(type, "domain\n")))
                        return place_fill(ret, 2, &dfd, has_word(sub, "memory"), top, cur);
                if (!*cur)
                        break;
                slash = strrchr(cur, '/');
                *(slash ? slash : cur) = '\0';
        }
        *ret_why = "cgroup v2 has no cgroup at or above this process's own that passes the pids "
                   "controller on to its children and holds no processes itself";
        return -EOPNOTSUPP;
}

/* cgroup v1: this process's own cgroup of hierarchy @h, under which a child may go. */
static int v1_open(const struct hier *h, int *ret_fd, const char **ret_rel)
{
        const char *rel = own_rel(h);
        _cleanup_close_ int top = -EBADF;
        int fd;

        if (!h->point || !rel)
                return -ENOENT;
        top = open(h->point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0)
                return -errno;
        fd = openat(top, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (faccessat(fd, "cgroup.procs", W_OK, 0) < 0) {
                close(fd);
                return -EACCES;
        }
        *ret_fd = fd;
        *ret_rel = rel;
        return 0;
}

static int find_in(struct hier *h, struct si_cgroup_place *ret, const char **ret_why)
{
        const char *rel = own_rel(&h[H_V2]);
        int r = -ENOENT, fd = -1;

        *ret_why = "no cgroup filesystem is mounted";
        if (h[H_V2].point && rel) {
                _cleanup_close_ int top = open(h[H_V2].point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                r = top < 0 ? -EOPNOTSUPP : v2_pick(top, h[H_V2].point, rel, ret, ret_why);
                if (r >= 0)
                        return r;
        } else if (h[H_V2].point) {
                r = -EOPNOTSUPP;
                *ret_why = "this process's cgroup v2 is outside the mounted cgroup2 filesystem";
        }
        if (!h[H_PIDS].point)
                return r;
        r = v1_open(&h[H_PIDS], &fd, &rel);
        if (r < 0) {
                *ret_why = "this process's own cgroup of cgroup v1's pids hierarchy cannot be "
                           "written";
                return r == -ENOENT ? -EOPNOTSUPP : r; /* -ENOENT: nothing mounted */
        }
        r = place_fill(ret, 1, &fd, false, h[H_PIDS].point, rel);
        if (r >= 0 && v1_open(&h[H_MEM], &ret->mem_fd, &rel) >= 0)
                ret->memory = true;
        return r;
}

int si_cgroup_find(const char *root, struct si_cgroup_place *ret, const char **ret_why)
{
        _cleanup_free_ char *mi_path = NULL, *cg_path = NULL, *cg = NULL;
        _cleanup_(si_mountinfo_done) struct si_mountinfo mi = {};
        struct hier h[H_N] = {};
        int r;

        if (asprintf(&mi_path, "%s/proc/self/mountinfo", root) < 0 ||
            asprintf(&cg_path, "%s/proc/self/cgroup", root) < 0)
                return -ENOMEM;
        *ret_why = "cannot read /proc/self/mountinfo and /proc/self/cgroup";
        r = si_mountinfo_read(mi_path, &mi);
        if (r >= 0)
                r = read_file_bounded(cg_path, SMALL_FILE_MAX, &cg, NULL);
        if (r >= 0)
                r = find_mounts(&mi, root, h);
        if (r >= 0)
                r = parse_own(cg, h);
        if (r >= 0)
                r = find_in(h, ret, ret_why);
        hiers_done(h);
        return r;
}

int si_cgroup_find_detached(struct si_cgroup_place *ret, const char **ret_why)
{
        _cleanup_free_ char *cg = NULL;
        _cleanup_close_ int fs = -EBADF, mnt = -EBADF;
        struct hier h[H_N] = {};
        const char *rel;
        int r;

        *ret_why = "no cgroup filesystem is mounted and cgroup2 cannot be mounted";
        fs = fsopen("cgroup2", FSOPEN_CLOEXEC);
        if (fs < 0)
                return -errno;
        if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
                return -errno;
        mnt =
            fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
        if (mnt < 0)
                return -errno;
        r = read_file_bounded("/proc/self/cgroup", SMALL_FILE_MAX, &cg, NULL);
        if (r >= 0)
                r = parse_own(cg, h);
        /* the new mount's top is the root of this process's cgroup namespace */
        h[H_V2].mroot = strdup("/");
        rel = r >= 0 && h[H_V2].mroot ? own_rel(&h[H_V2]) : NULL;
        if (r >= 0)
                r = rel ? v2_pick(mnt, "cgroup2 (mounted by seinstall)", rel, ret, ret_why)
                        : -EOPNOTSUPP;
        hiers_done(h);
        return r;
}

void si_cgroup_place_done(struct si_cgroup_place *p)
{
        if (p->pids_fd >= 0)
                close(p->pids_fd);
        if (p->mem_fd >= 0)
                close(p->mem_fd);
        free(p->where);
        p->pids_fd = p->mem_fd = -1;
        p->where = NULL;
}

/* ---- the sandbox's cgroup -------------------------------------------------------------------- */

/* A new cgroup @name below @parent with limit @file = @value; its fd, its cgroup.procs. */
static int make_child(int parent, const char *name, const char *file, const char *value,
                      int *ret_fd, int *ret_procs)
{
        int fd, procs, r = 0;

        if (mkdirat(parent, name, 0755) < 0)
                return -errno;
        fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                r = -errno;
        if (r >= 0)
                r = write_at(fd, file, value);
        procs = r >= 0 ? openat(fd, "cgroup.procs", O_WRONLY | O_CLOEXEC) : -1;
        if (r >= 0 && procs < 0)
                r = -errno;
        if (r < 0) {
                if (fd >= 0)
                        close(fd);
                (void) unlinkat(parent, name, AT_REMOVEDIR);
                return r;
        }
        *ret_fd = fd;
        *ret_procs = procs;
        return 0;
}

int si_cgroup_new(struct si_cgroup_place *p, unsigned long long mem_max, struct si_cgroup *ret)
{
        struct si_cgroup cg = SI_CGROUP_NULL;
        char pids[32], mem[32];
        struct timespec ts;
        int r;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        snprintf(cg.name, sizeof(cg.name), "seinstall-sandbox-%d-%lld", (int) getpid(),
                 (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec);
        snprintf(pids, sizeof(pids), "%d", SI_CGROUP_PIDS_MAX);
        snprintf(mem, sizeof(mem), "%llu", mem_max);
        r = make_child(p->pids_fd, cg.name, "pids.max", pids, &cg.fd, &cg.procs_fd);
        if (r < 0)
                return r;
        cg.version = p->version;
        cg.parent_fd = take_fd(&p->pids_fd);
        if (p->version == 2 && p->memory) {
                cg.memory = write_at(cg.fd, "memory.max", mem) >= 0;
                /* without swap where the kernel counts it: else the limit only moves pages */
                (void) write_at(cg.fd, "memory.swap.max", "0");
        } else if (p->version == 1 && p->mem_fd >= 0 &&
                   make_child(p->mem_fd, cg.name, "memory.limit_in_bytes", mem, &cg.mem_fd,
                              &cg.mem_procs_fd) >= 0) {
                cg.memory = true;
                cg.mem_parent_fd = take_fd(&p->mem_fd);
                (void) write_at(cg.mem_fd, "memory.memsw.limit_in_bytes", mem);
        }
        *ret = cg;
        return 0;
}

int si_cgroup_join(const struct si_cgroup *cg)
{
        if (write(cg->procs_fd, "0", 1) < 0)
                return -errno;
        if (cg->mem_procs_fd >= 0 && write(cg->mem_procs_fd, "0", 1) < 0)
                return -errno;
        return 0;
}

int si_cgroup_tripped(const struct si_cgroup *cg)
{
        _cleanup_free_ char *pids = NULL, *mem = NULL;

        if (cg->fd < 0)
                return SI_CGROUP_WITHIN;
        if (read_at(cg->fd, "pids.events", &pids) >= 0 && key_value(pids, "max") > 0)
                return SI_CGROUP_PIDS_HIT;
        if (cg->memory &&
            (cg->version == 2 ? read_at(cg->fd, "memory.events", &mem)
                              : read_at(cg->mem_fd, "memory.oom_control", &mem)) >= 0 &&
            key_value(mem, "oom_kill") > 0)
                return SI_CGROUP_OOM_KILL;
        return SI_CGROUP_WITHIN;
}

/* SIGKILL each process listed in @fd's cgroup.procs: 1 when there was one, 0 none, -errno. */
static int kill_listed(int fd)
{
        _cleanup_free_ char *list = NULL;
        int r = read_at(fd, "cgroup.procs", &list), any = 0;

        if (r < 0)
                return r;
        for (char *p = list, *end; *p; p = end) {
                long pid = strtol(p, &end, 10);
                if (end == p)
                        break;
                if (pid > 0) {
                        (void) kill((pid_t) pid, SIGKILL);
                        any = 1;
                }
        }
        return any;
}

void si_cgroup_kill(const struct si_cgroup *cg)
{
        if (cg->fd < 0)
                return;
        if (cg->version == 2 && write_at(cg->fd, "cgroup.kill", "1") >= 0)
                return;
        (void) kill_listed(cg->fd);
}

static void sleep_ms(long ms)
{
        struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
                ;
}

/* Kill until empty, then rmdir: a dying process still holds a v2 cgroup (EBUSY). */
static int remove_one(int parent, int *fd, const char *name)
{
        int r = -EBUSY;

        if (*fd < 0)
                return 0;
        for (long waited = 0; r < 0 && waited <= REMOVE_WAIT_MS; waited += 10) {
                if (kill_listed(*fd) <= 0 &&
                    (unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT))
                        r = 0;
                else
                        sleep_ms(10);
        }
        close(*fd);
        *fd = -1;
        return r;
}

int si_cgroup_remove(struct si_cgroup *cg)
{
        int r, k;

        if (cg->procs_fd >= 0)
                close(cg->procs_fd);
        if (cg->mem_procs_fd >= 0)
                close(cg->mem_procs_fd);
        cg->procs_fd = cg->mem_procs_fd = -1;
        si_cgroup_kill(cg);
        r = remove_one(cg->parent_fd, &cg->fd, cg->name);
        k = remove_one(cg->mem_parent_fd, &cg->mem_fd, cg->name);
        if (cg->parent_fd >= 0)
                close(cg->parent_fd);
        if (cg->mem_parent_fd >= 0)
                close(cg->mem_parent_fd);
        cg->parent_fd = cg->mem_parent_fd = -1;
        return r < 0 ? r : k;
}
