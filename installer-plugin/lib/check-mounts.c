/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check-mounts.c — the mounted target: the mounts at and below the target root, read with libmount
 * (source, type, options), and the live probe that asks the kernel whether it can store
 * security.selinux on one of them. Also owns the mount list both this file and plan.c fill.
 */
#include <fcntl.h>
#include <libmount/libmount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "seinstall-private.h"
#include "check-stage.h"

#define XATTR_SELINUX "security.selinux"
/* Written when the scratch file has no label yet; any value proves the kernel stores it. */
#define PROBE_LABEL "system_u:object_r:unlabeled_t:s0"

/* ---- the list ------------------------------------------------------------------------------ */

void si_mount_clear(struct si_mount *m)
{
        free(m->mountpoint);
        free(m->path);
        free(m->source);
        free(m->fstype);
        free(m->options);
        free(m->label);
        free(m->reason);
        free(m->fix);
        memset(m, 0, sizeof(*m));
}

void si_mount_list_free(struct si_mount_list *l)
{
        for (size_t i = 0; i < l->n; i++)
                si_mount_clear(&l->v[i]);
        free(l->v);
        *l = (struct si_mount_list){};
}

static int dup_or_null(const char *s, char **ret)
{
        *ret = NULL;
        if (!s)
                return 0;
        *ret = strdup(s);
        return *ret ? 0 : -ENOMEM;
}

static int mount_init(struct si_mount *m, const char *mountpoint, const char *path,
                      const char *source, const char *fstype, const char *options, unsigned line)
{
        *m = (struct si_mount){.line = line};
        if (dup_or_null(mountpoint, &m->mountpoint) < 0 || dup_or_null(path, &m->path) < 0 ||
            dup_or_null(source, &m->source) < 0 ||
            dup_or_null(fstype ? fstype : "unknown", &m->fstype) < 0 ||
            dup_or_null(options, &m->options) < 0) {
                si_mount_clear(m);
                return -ENOMEM;
        }
        return 0;
}

int si_mount_list_add(struct si_mount_list *l, const char *mountpoint, const char *path,
                      const char *source, const char *fstype, const char *options, unsigned line)
{
        if (!SI_GROW(l->v, l->cap, l->n + 1))
                return -ENOMEM;
        if (mount_init(&l->v[l->n], mountpoint, path, source, fstype, options, line) < 0)
                return -ENOMEM;
        l->n++;
        return 0;
}

/* ---- reading the mounts ------------------------------------------------------------------ */

static void unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}
static void free_iterp(struct libmnt_iter **i)
{
        mnt_free_iter(*i);
}

/* The target's name for the host path @target, or NULL when it is not at or below @root. */
static const char *target_mountpoint(const char *root, const char *target)
{
        const char *rest;

        if (streq(root, "/"))
                return target;
        rest = startswith(target, root);
        if (!rest || (*rest && *rest != '/'))
                return NULL;
        return *rest ? rest : "/";
}

static int add_fs(struct si_mount_list *l, const char *mountpoint, const char *path,
                  struct libmnt_fs *fs)
{
        /* A later mount on the same point hides the earlier one: keep what a reader sees. */
        for (size_t i = 0; i < l->n; i++) {
                struct si_mount m;

                if (!streq(l->v[i].mountpoint, mountpoint))
                        continue;
                if (mount_init(&m, mountpoint, path, mnt_fs_get_source(fs), mnt_fs_get_fstype(fs),
                               mnt_fs_get_options(fs), 0) < 0)
                        return -ENOMEM;
                si_mount_clear(&l->v[i]);
                l->v[i] = m;
                return 0;
        }
        return si_mount_list_add(l, mountpoint, path, mnt_fs_get_source(fs), mnt_fs_get_fstype(fs),
                                 mnt_fs_get_options(fs), 0);
}

static int mount_cmp(const void *a, const void *b)
{
        return strcmp(((const struct si_mount *) a)->mountpoint,
                      ((const struct si_mount *) b)->mountpoint);
}

int si_mounts_read(struct seinstall_ctx *ctx, struct si_mount_list *ret)
{
        _cleanup_(unref_tablep) struct libmnt_table *tb = mnt_new_table();
        _cleanup_(free_iterp) struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        _cleanup_free_ char *root = NULL;
        struct si_mount_list l = {0};
        struct libmnt_fs *fs;
        bool have_root = false;
        int r;

        if (!tb || !it)
                return -ENOMEM;
        /* The mount table names absolute, resolved paths; the root may be given otherwise. */
        root = realpath(ctx->root, NULL);
        if (!root)
                return si_error(ctx, -errno, "Could not resolve the target root %s: %m", ctx->root);
        r = mnt_table_parse_file(tb, "/proc/self/mountinfo");
        if (r < 0)
                return si_error(ctx, r,
                                "Could not read the mount table /proc/self/mountinfo: "
                                "%s; is /proc mounted?",
                                strerror(-r));

        while (mnt_table_next_fs(tb, it, &fs) == 0) {
                const char *target = mnt_fs_get_target(fs);
                const char *mp = target ? target_mountpoint(root, target) : NULL;

                if (!mp)
                        continue;
                r = add_fs(&l, mp, target, fs);
                if (r < 0)
                        goto fail;
                have_root = have_root || streq(mp, "/");
        }

        /* Parents before children, the root first, whatever order they were mounted in. */
        if (l.n > 1)
                qsort(l.v, l.n, sizeof(l.v[0]), mount_cmp);

        if (!have_root) {
                /* The root is a directory on some mount, not a mount point itself: that
                 * filesystem is the target's "/", and the probe runs in the root directory. */
                fs = mnt_table_find_mountpoint(tb, root, MNT_ITER_BACKWARD);
                if (!fs) {
                        r = si_error(ctx, -ENOENT, "No mount holds the target root %s", root);
                        goto fail;
                }
                r = add_fs(&l, "/", root, fs);
                if (r < 0)
                        goto fail;
                /* Move it to the front: the root comes first. */
                struct si_mount first = l.v[l.n - 1];
                memmove(&l.v[1], &l.v[0], (l.n - 1) * sizeof(l.v[0]));
                l.v[0] = first;
        }
        *ret = l;
        return 0;
fail:
        si_mount_list_free(&l);
        return r;
}

/* ---- the probe ----------------------------------------------------------------------------- */

/* A scratch file in @dfd that has no name by the time this returns: O_TMPFILE where the
 * filesystem has it, else a file created with a random name and unlinked at once. */
static int scratch_file(int dfd)
{
        int fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

        if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
                return fd < 0 ? -errno : fd;
        for (int tries = 0; tries < 16; tries++) {
                unsigned long long rnd = 0;
                char name[64];

                if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd))
                        rnd = (unsigned long long) getpid() * 1000003ULL + (unsigned) tries;
                snprintf(name, sizeof(name), ".seinstall-probe-%016llx", rnd);
                fd = openat(dfd, name, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0 && errno == EEXIST)
                        continue;
                if (fd < 0)
                        return -errno;
                if (unlinkat(dfd, name, 0) < 0) {
                        int r = -errno;
                        close(fd);
                        return r;
                }
                return fd;
        }
        return -EEXIST;
}

/* Where nothing can be created (read-only, no permission): a filesystem without security
 * xattrs fails reading one with EOPNOTSUPP; one that has them answers ENODATA or a value. */
static enum si_probe probe_read_only(int dfd, int *ret_errno)
{
        if (fgetxattr(dfd, XATTR_SELINUX, NULL, 0) >= 0 || errno == ENODATA)
                return SI_PROBE_YES;
        *ret_errno = errno;
        return errno == EOPNOTSUPP ? SI_PROBE_NO : SI_PROBE_UNKNOWN;
}

enum si_probe si_probe_xattr(const char *path, int *ret_errno)
{
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        _cleanup_free_ char *value = NULL;
        ssize_t n;

        *ret_errno = 0;
        dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0) {
                *ret_errno = errno;
                return SI_PROBE_UNKNOWN;
        }
        fd = scratch_file(dfd);
        if (fd < 0) {
                if (fd == -EROFS || fd == -EACCES || fd == -EPERM)
                        return probe_read_only(dfd, ret_errno);
                *ret_errno = -fd;
                return SI_PROBE_UNKNOWN;
        }

        /* Write back the label the file got (SELinux active: one the running policy accepts),
         * else a fixed one. */
        n = fgetxattr(fd, XATTR_SELINUX, NULL, 0);
        if (n > 0 && n < 4096) {
                value = malloc((size_t) n + 1);
                if (value) {
                        n = fgetxattr(fd, XATTR_SELINUX, value, (size_t) n);
                        if (n > 0)
                                value[n] = '\0';
                        else {
                                free(value);
                                value = NULL;
                        }
                }
        } else if (n < 0 && errno == EOPNOTSUPP) {
                *ret_errno = EOPNOTSUPP;
                return SI_PROBE_NO;
        }
        if (fsetxattr(fd, XATTR_SELINUX, value ? value : PROBE_LABEL,
                      strlen(value ? value : PROBE_LABEL) + 1, 0) == 0)
                return SI_PROBE_YES;
        *ret_errno = errno;
        return errno == EOPNOTSUPP ? SI_PROBE_NO : SI_PROBE_UNKNOWN;
}
