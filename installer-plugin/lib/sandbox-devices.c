/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox-devices.c — which block devices the sandbox's /dev gets, and their names, found in
 * the parent before the fork (the child only makes the nodes, sandbox-child.c): the devices of
 * the target's own mounts (sandbox.c adds those), what an md array or an encrypted volume of
 * them alone is made of (sysfs), the kernel's, device-mapper's and LVM's names for each, and
 * udev's /dev/disk/by-uuid and by-partuuid links, probed read-only with libblkid.
 */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "seinstall-private.h"
#include "sandbox-internal.h"

DEFINE_CLEANUP_FUNC(DIR *, closedir)

/* The kernel's name of block device @d ("sda1", "cciss/c0d0"), or false. */
static bool block_name(dev_t d, char *name, size_t size)
{
        char sys[96], link[PATH_MAX], *base;
        ssize_t l;

        snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(d), minor(d));
        l = readlink(sys, link, sizeof(link) - 1);
        if (l < 0)
                return false;
        link[l] = '\0';
        base = strrchr(link, '/');
        if ((size_t) snprintf(name, size, "%s", base ? base + 1 : link) >= size)
                return false;
        for (char *p = name; (p = strchr(p, '!'));)
                *p = '/';
        return !strstr(name, "..") && *name;
}

/* The first line of /sys/dev/block/MAJ:MIN/@what, or false. */
static bool read_sys(dev_t d, const char *what, char *buf, size_t size)
{
        char path[128];
        ssize_t n;
        int fd;

        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(d), minor(d), what);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return false;
        n = read(fd, buf, size - 1);
        close(fd);
        if (n <= 0)
                return false;
        buf[n] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        return *buf != '\0';
}

static bool plain_name(const char *name)
{
        return *name && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* A name the sandbox's /dev has of its own: a volume group named so gets no /dev/VG. */
static bool dev_name_taken(const char *name)
{
        static const char *const own[] = {"null",  "zero",   "full",   "random",  "urandom", "fd",
                                          "stdin", "stdout", "stderr", "disk",    "mapper",  "pts",
                                          "shm",   "mqueue", "ptmx",   "console", "tty"};

        for (size_t i = 0; i < ELEMENTSOF(own); i++)
                if (streq(name, own[i]))
                        return true;
        return false;
}

/* LVM's name of a volume's mapping, "VG-LV" with each '-' of VG and LV doubled, split. */
static bool lvm_split(const char *name, char *vg, char *lv, size_t size)
{
        char *out = vg;
        size_t n = 0;

        for (const char *p = name; *p; p++) {
                if (n + 1 >= size)
                        return false;
                if (p[0] == '-' && p[1] == '-')
                        p++;
                else if (*p == '-' && out == vg) {
                        vg[n] = '\0';
                        out = lv, n = 0;
                        continue;
                }
                out[n++] = *p;
        }
        out[n] = '\0';
        return out == lv && plain_name(vg) && plain_name(lv);
}

/* The names of the sandbox's block device @d, read in the parent (the child only makes the
 * nodes): its kernel name and, for a device-mapper device, udev's /dev/mapper/NAME (which
 * grub-probe looks for; it skips the kernel's dm-N) and for an LVM volume /dev/VG/LV. A name
 * the target's metadata chose (dm/name comes from LVM's) never takes one of the sandbox's own. */
bool si_sandbox_dev_names(dev_t d, struct sandbox_dev *n)
{
        char uuid[8];

        *n = (struct sandbox_dev){.dev = d};
        if (!block_name(d, n->kname, sizeof(n->kname)))
                return false;
        if (strchr(n->kname, '/') || !read_sys(d, "dm/name", n->mapper, sizeof(n->mapper)) ||
            !plain_name(n->mapper) || strlen(n->mapper) > NAME_MAX - 8) {
                n->mapper[0] = '\0';
                return true;
        }
        if (!read_sys(d, "dm/uuid", uuid, sizeof(uuid)) || strncmp(uuid, "LVM-", 4) != 0 ||
            !lvm_split(n->mapper, n->vg, n->lv, sizeof(n->vg)) || dev_name_taken(n->vg))
                n->vg[0] = n->lv[0] = '\0';
        return true;
}

/* Whether @d is listed already; if not, add it (up to SANDBOX_DEVS_MAX). */
int si_sandbox_devs_add(struct sandbox *s, dev_t d)
{
        for (size_t i = 0; i < s->n_devs; i++)
                if (s->devs[i] == d)
                        return 0;
        if (s->n_devs >= SANDBOX_DEVS_MAX)
                return -E2BIG;
        if (!SI_GROW(s->devs, s->cap_devs, s->n_devs + 1))
                return -ENOMEM;
        s->devs[s->n_devs++] = d;
        return 0;
}

/* How many devices are built on block device @d (its "holders" in sysfs): -1 unknown. */
static int count_holders(dev_t d)
{
        char path[96];
        _cleanup_(closedirp) DIR *dir = NULL;
        struct dirent *de;
        int n = 0;

        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(d), minor(d));
        dir = opendir(path);
        if (!dir)
                return -1;
        while ((de = readdir(dir)))
                n += de->d_name[0] != '.';
        return n;
}

/* The devices an md array or a device-mapper device of the target is made of (its "slaves" in
 * sysfs), and theirs: grub-probe reads a RAID's superblocks and an encrypted volume's header
 * itself. Only what holds nothing else: a device below that also holds another array or volume
 * is left out, and so is everything below an LVM volume (its physical volumes hold the group's
 * other volumes). Each entry is added to the end of the list, which this walks on. */
int si_sandbox_add_lower_devices(struct sandbox *s)
{
        for (size_t i = 0; i < s->n_devs; i++) {
                char path[96], dmuuid[8];
                _cleanup_(closedirp) DIR *dir = NULL;
                struct dirent *de;

                if (read_sys(s->devs[i], "dm/uuid", dmuuid, sizeof(dmuuid)) &&
                    startswith(dmuuid, "LVM-"))
                        continue;
                snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/slaves", major(s->devs[i]),
                         minor(s->devs[i]));
                dir = opendir(path);
                while (dir && (de = readdir(dir))) {
                        char dev[96], num[32];
                        unsigned ma, mi;
                        _cleanup_fclose_ FILE *f = NULL;
                        int r;

                        if (de->d_name[0] == '.' ||
                            (size_t) snprintf(dev, sizeof(dev), "%s/%s/dev", path, de->d_name) >=
                                sizeof(dev))
                                continue;
                        f = fopen(dev, "re");
                        if (!f || !fgets(num, sizeof(num), f) ||
                            sscanf(num, "%u:%u", &ma, &mi) != 2 ||
                            count_holders(makedev(ma, mi)) != 1)
                                continue;
                        r = si_sandbox_devs_add(s, makedev(ma, mi));
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

bool si_sandbox_link_name_ok(const char *name)
{
        size_t n = strnlen(name, SI_SANDBOX_LINK_NAME_MAX + 1);

        if (n == 0 || n > SI_SANDBOX_LINK_NAME_MAX || streq(name, ".") || strstr(name, ".."))
                return false;
        for (const char *p = name; *p; p++)
                if (!isascii((unsigned char) *p) ||
                    (!isalnum((unsigned char) *p) && !strchr("#+-.:=@_", *p)))
                        return false;
        return true;
}

/* @key of @pr as the name of a link in the sandbox's /dev/disk/@dir, or NULL (none, or one
 * refused, which is said at debug level). */
static char *link_name(struct seinstall_ctx *ctx, blkid_probe pr, const char *key, dev_t d,
                       const char *dir)
{
        const char *v = NULL;

        if (blkid_probe_lookup_value(pr, key, &v, NULL) < 0 || !v || !*v)
                return NULL;
        if (!si_sandbox_link_name_ok(v)) {
                si_debug(ctx,
                         "Block device %u:%u gets no /dev/disk/%s link in the sandbox: its %s "
                         "\"%.64s\" is not a name udev makes a link of (letters, digits, "
                         "#+-.:=@_, at most %d)",
                         major(d), minor(d), dir, key, v, SI_SANDBOX_LINK_NAME_MAX);
                return NULL;
        }
        return strdup(v);
}

static void free_probep(blkid_probe *p)
{
        if (*p)
                blkid_free_probe(*p);
}

/* The filesystem UUID and the partition UUID of block device @d as udev's 60-persistent-
 * storage.rules link them: probed read-only with libblkid (blkid_do_safeprobe, as udev's
 * builtin), the UUID only of a filesystem, swap or encrypted container, never of a RAID or LVM
 * member. An LVM volume gets no by-uuid name: outside the sandbox grub-probe sees it as LVM and
 * GRUB writes root=/dev/mapper/VG-LV; in it (no device-mapper ioctl without CAP_SYS_ADMIN) it
 * does not, and the link would turn that into root=UUID=. */
static int probe_ids(struct seinstall_ctx *ctx, dev_t d, char **ret_uuid, char **ret_partuuid)
{
        _cleanup_free_ char *path = blkid_devno_to_devname(d);
        _cleanup_(free_probep) blkid_probe pr = NULL;
        _cleanup_close_ int fd = -EBADF;
        const char *usage = NULL;
        char dmuuid[8];
        struct stat st;
        int r;

        if (!path)
                return 0;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != d)
                return 0;
        pr = blkid_new_probe();
        if (!pr)
                return -ENOMEM;
        if (blkid_probe_set_device(pr, fd, 0, 0) < 0)
                return 0;
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE |
                                                  BLKID_SUBLKS_USAGE);
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
        r = blkid_do_safeprobe(pr);
        if (r != 0)
                return 0;
        (void) blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
        if (usage &&
            (streq(usage, "filesystem") || streq(usage, "other") || streq(usage, "crypto")) &&
            !(read_sys(d, "dm/uuid", dmuuid, sizeof(dmuuid)) && startswith(dmuuid, "LVM-")))
                *ret_uuid = link_name(ctx, pr, "UUID", d, "by-uuid");
        *ret_partuuid = link_name(ctx, pr, "PART_ENTRY_UUID", d, "by-partuuid");
        return 0;
}

/* Drop @v[@i] when a device before it took that name: udev's link points to one of them (the
 * one of the highest link priority, else the one its events came last for); the sandbox's to
 * the first, the target's own mounts coming before what they are made of. */
static void drop_taken(struct seinstall_ctx *ctx, const struct sandbox *s, char **v, size_t i,
                       const char *dir)
{
        for (size_t j = 0; v[i] && j < i; j++) {
                if (!v[j] || !streq(v[j], v[i]))
                        continue;
                si_debug(ctx,
                         "Block devices %u:%u and %u:%u carry the same name %s: the sandbox's "
                         "/dev/disk/%s/%s points to the first",
                         major(s->devs[j]), minor(s->devs[j]), major(s->devs[i]), minor(s->devs[i]),
                         v[i], dir, v[i]);
                free(v[i]);
                v[i] = NULL;
        }
}

/* The names of the sandbox's /dev/disk/by-uuid and by-partuuid links: GRUB's 10_linux writes
 * root=UUID= only when /dev/disk/by-uuid/UUID exists, else the installer's kernel name of the
 * device, which may be another at the target's boot. */
int si_sandbox_disk_links(struct seinstall_ctx *ctx, struct sandbox *s)
{
        s->uuids = calloc(s->n_devs + 1, sizeof(char *));
        s->partuuids = calloc(s->n_devs + 1, sizeof(char *));
        if (!s->uuids || !s->partuuids)
                return -ENOMEM;
        for (size_t i = 0; i < s->n_devs; i++) {
                int r = probe_ids(ctx, s->devs[i], &s->uuids[i], &s->partuuids[i]);
                if (r < 0)
                        return r;
                drop_taken(ctx, s, s->uuids, i, "by-uuid");
                drop_taken(ctx, s, s->partuuids, i, "by-partuuid");
        }
        return 0;
}
