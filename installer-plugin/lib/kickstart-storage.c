/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-storage.c — the layout a kickstart plans, as an fstab-format plan for `seinstall
 * check`: what the storage commands (part/partition, logvol, raid, btrfs, autopart, reqpart)
 * plan. The file is read by kickstart-lex.c as pykickstart reads it (shlex, %include, %ksappend),
 * each command line by argparse with pykickstart's options (kickstart-storage-opts.c); here, the
 * checks pykickstart makes on what it parsed, and the device and file system Anaconda's custom
 * partitioning (pyanaconda/modules/storage/partitioning/custom/custom_partitioning.py) gives
 * each mount point, claimed in the layout (kickstart-storage-layout.c): --fstype, else the
 * default (blivet's ext4, xfs on RHEL and Fedora Server: seinstall assumes xfs unless told),
 * /boot the boot loader's stage2 type, a partition at /boot/efi the EFI System Partition (vfat)
 * whatever --fstype says; a mount point starting with "/" is os.path.normpath()ed
 * (kickstart-path.c). Existing devices (--noformat, --useexisting) are probed when they exist
 * here, else left out with a warning.
 */
#include <strings.h>

#include "kickstart-internal.h"
#include "profile.h"

struct storage {
        struct ks_layout layout;
        /* autopart and reqpart are one object each: a later line changes what it gives */
        bool autopart, reqpart, add_boot, noboot;
        char *autopart_type, *autopart_fstype;
        char *autopart_text, *reqpart_text;
};

static const char *given(const char *v)
{
        return v && *v ? v : NULL;
}

/* The default file system, or for /boot the boot loader's choice from it. */
static const char *fstype_for(const struct storage *st, const char *fstype, const char *mp,
                              bool boot_special)
{
        if (given(fstype))
                return fstype;
        return boot_special && streq(mp, "/boot") ? si_ks_boot_fstype(st->layout.default_fstype)
                                                  : st->layout.default_fstype;
}

static char *dev_path(const char *prefix, const char *name)
{
        char *p = NULL;

        if (name[0] == '/' || strchr(name, '='))
                return strdup(name);
        return asprintf(&p, "%s%s", prefix, name) < 0 ? NULL : p;
}

/* Plan the device of part, logvol or raid at @mp: an existing one (@existing) probed from @dev, a
 * new one on its --fstype or the default (a partition at /boot/efi the EFI System Partition
 * whatever it says); swap is no mount. */
static int add_device(struct storage *st, enum ks_rank rank, const struct si_ks_origin *o,
                      char **argv, size_t argc, const struct ks_args *a, const char *dev,
                      const char *mp, bool existing)
{
        const char *fsopts = a->val[KS_OPT_FSOPTS], *fstype;

        if (existing)
                return si_ks_layout_add(&st->layout, rank, o, argv, argc, dev, mp, NULL, fsopts);
        /* Anaconda gives /boot the boot loader's type on partitions and RAID, not on LVM */
        fstype = fstype_for(st, a->val[KS_OPT_FSTYPE], mp, rank != KS_RANK_LOGVOL);
        if (rank == KS_RANK_PART && streq(mp, "/boot/efi")) {
                fstype = "vfat";
                fsopts = "defaults,uid=0,gid=0,umask=077,shortname=winnt";
        }
        if (streq(fstype, "swap"))
                return 0;
        return si_ks_layout_add(&st->layout, rank, o, argv, argc, dev, mp, fstype, fsopts);
}

/* part|partition MNTPOINT: one positional word (pykickstart), its device as Anaconda makes it. */
static int on_part(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                   const struct ks_args *a)
{
        _cleanup_free_ char *mp = NULL, *dev = NULL;
        const char *onpart = given(a->val[KS_OPT_ONPART]);

        if (a->n_pos != 1)
                return si_ks_error(st->layout.ctx, o, "%s",
                                   a->n_pos ? "Unexpected arguments to partition command"
                                            : "partition: the following arguments are required: "
                                              "<mntpoint>");
        mp = si_py_normpath(a->pos[0]);
        if (!mp)
                return -ENOMEM;
        if (mp[0] != '/')
                return 0; /* swap, raid./pv./btrfs. members, biosboot, None: not a mount */
        if (onpart) {
                /* part_cb() drops "/dev/"; Anaconda resolves the name under /dev */
                dev = dev_path("/dev/", startswith(onpart, "/dev/") ? onpart + 5 : onpart);
                if (!dev)
                        return -ENOMEM;
        }
        return add_device(st, KS_RANK_PART, o, argv, argc, a, dev, mp, a->flag[KS_OPT_NOFORMAT]);
}

/* argparse's type=int: an optional sign and decimal digits, blanks around (int() also takes
 * "_" between digits: left to Anaconda). 0 when @v is not given or not such a number. */
static long int_value(const char *v)
{
        char *end;
        long n;

        if (!v)
                return 0;
        errno = 0;
        n = strtol(v, &end, 10);
        while (*end == ' ' || *end == '\t')
                end++;
        return errno || end == v || *end ? 0 : n;
}

/* F20_LogVol.parse(): a new logical volume needs a size. */
static int logvol_size(struct storage *st, const struct si_ks_origin *o, const struct ks_args *a)
{
        long percent = int_value(a->val[KS_OPT_PERCENT]);

        if (!a->flag[KS_OPT_NOFORMAT] && !a->flag[KS_OPT_USEEXISTING] && !percent &&
            !int_value(a->val[KS_OPT_SIZE]) && !a->flag[KS_OPT_RECOMMENDED] &&
            !a->flag[KS_OPT_HIBERNATION])
                return si_ks_error(st->layout.ctx, o,
                                   "No size given for logical volume. Use one of --useexisting, "
                                   "--noformat, --size, --percent, or --hibernation.");
        if (percent < 0 || percent > 100)
                return si_ks_error(st->layout.ctx, o, "Percentage must be between 0 and 100.");
        return 0;
}

static int on_logvol(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                     const struct ks_args *a)
{
        _cleanup_free_ char *mp = NULL, *dev = NULL;
        const char *vg = given(a->val[KS_OPT_VGNAME]), *name = given(a->val[KS_OPT_NAME]);
        int k;

        if (a->n_pos != 1)
                return si_ks_error(st->layout.ctx, o, "%s",
                                   a->n_pos ? "Unexpected arguments to logvol command"
                                            : "logvol: the following arguments are required: "
                                              "<mntpoint>");
        if (!a->val[KS_OPT_NAME] || !a->val[KS_OPT_VGNAME])
                return si_ks_error(st->layout.ctx, o,
                                   "logvol: the following arguments are required: %s",
                                   !a->val[KS_OPT_NAME] ? "--name" : "--vgname");
        k = logvol_size(st, o, a);
        if (k < 0)
                return k;
        mp = si_py_normpath(a->pos[0]);
        if (!mp)
                return -ENOMEM;
        if (mp[0] != '/' || a->flag[KS_OPT_THINPOOL])
                return 0;
        if (vg && name && asprintf(&dev, "/dev/%s/%s", vg, name) < 0)
                return -ENOMEM;
        return add_device(st, KS_RANK_LOGVOL, o, argv, argc, a, dev, mp,
                          a->flag[KS_OPT_NOFORMAT] || a->flag[KS_OPT_USEEXISTING]);
}

/* raid MNTPOINT [PARTITIONS...] */
static int on_raid(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                   const struct ks_args *a)
{
        _cleanup_free_ char *mp = NULL, *dev = NULL;
        bool existing = a->flag[KS_OPT_NOFORMAT] || a->flag[KS_OPT_USEEXISTING];
        const char *device = given(a->val[KS_OPT_DEVICE]);

        static const char *const levels[] = {"0",     "1",     "4",     "5",     "6",     "10",
                                             "RAID0", "RAID1", "RAID4", "RAID5", "RAID6", "RAID10"};
        const char *level = a->val[KS_OPT_LEVEL];
        bool level_ok = !level;

        if (a->n_pos == 0)
                return si_ks_error(st->layout.ctx, o,
                                   "raid: the following arguments are required: <mntpoint>");
        if (!a->val[KS_OPT_DEVICE])
                return si_ks_error(st->layout.ctx, o,
                                   "raid: the following arguments are required: --device");
        /* _level_cb(): value.upper() in levelMap */
        for (size_t i = 0; level && i < ELEMENTSOF(levels); i++)
                level_ok = level_ok || strcasecmp(level, levels[i]) == 0;
        if (!level_ok)
                return si_ks_error(st->layout.ctx, o, "Invalid raid level: %s", level);
        if (a->n_pos == 1 && !existing)
                return si_ks_error(st->layout.ctx, o, "Partitions required for raid");
        if (a->n_pos > 1 && existing)
                return si_ks_error(st->layout.ctx, o,
                                   "Members may not be specified for preexisting RAID device");
        if (!existing && !given(a->val[KS_OPT_LEVEL]))
                return si_ks_error(st->layout.ctx, o, "RAID Partition defined without RAID level");
        if (existing && !device)
                return si_ks_error(st->layout.ctx, o,
                                   "Device required for preexisting RAID device");
        mp = si_py_normpath(a->pos[0]);
        if (!mp)
                return -ENOMEM;
        if (mp[0] != '/')
                return 0;
        if (device && !(dev = dev_path("/dev/md/", device)))
                return -ENOMEM;
        return add_device(st, KS_RANK_RAID, o, argv, argc, a, dev, mp, existing);
}

/* btrfs MNTPOINT [--subvol --name=N] DEVICES...: a volume or a subvolume, btrfs either way. */
static int on_btrfs(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                    const struct ks_args *a)
{
        _cleanup_free_ char *mp = NULL;

        if (a->n_pos == 0)
                return si_ks_error(st->layout.ctx, o, "btrfs must be given a mountpoint");
        if (a->n_pos == 1)
                return si_ks_error(st->layout.ctx, o,
                                   a->flag[KS_OPT_SUBVOL]
                                       ? "btrfs subvol requires specification of parent volume"
                                       : "btrfs must be given a list of partitions");
        if (a->flag[KS_OPT_SUBVOL] && !given(a->val[KS_OPT_NAME]))
                return si_ks_error(st->layout.ctx, o, "btrfs subvolume requires a name");
        mp = si_py_normpath(a->pos[0]);
        if (!mp)
                return -ENOMEM;
        if (mp[0] != '/')
                return 0; /* "none": a volume that is not mounted */
        return si_ks_layout_add(&st->layout, KS_RANK_BTRFS, o, argv, argc, NULL, mp, "btrfs", NULL);
}

static int keep(char **to, const char *v)
{
        char *n;

        if (!v)
                return 0;
        n = strdup(v);
        if (!n)
                return -ENOMEM;
        free(*to);
        *to = n;
        return 0;
}

/* autopart: one object; a later line keeps the values it does not give (set_to_self()) and
 * sets every flag anew. --type lvm|btrfs|plain|partition|thinp, case-insensitive; --nolvm is
 * plain. */
static int on_autopart(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                       const struct ks_args *a)
{
        static const char *const types[] = {"lvm", "btrfs", "plain", "partition", "thinp"};
        const char *type = a->flag[KS_OPT_NOLVM] ? "plain" : a->val[KS_OPT_TYPE];
        _cleanup_free_ char *lower = NULL;
        bool known = false;
        int k;

        if (a->n_pos > 0)
                return si_ks_error(st->layout.ctx, o,
                                   "Unexpected arguments to autopart command: %s", a->pos[0]);
        if (type) {
                lower = strdup(type);
                if (!lower)
                        return -ENOMEM;
                for (char *p = lower; *p; p++)
                        if (*p >= 'A' && *p <= 'Z')
                                *p = (char) (*p - 'A' + 'a');
                for (size_t i = 0; i < ELEMENTSOF(types); i++)
                        known = known || streq(lower, types[i]);
                if (!known)
                        return si_ks_error(st->layout.ctx, o, "Invalid autopart type: %s", type);
        }
        if ((k = keep(&st->autopart_type, lower)) < 0 ||
            (k = keep(&st->autopart_fstype, a->val[KS_OPT_FSTYPE])) < 0)
                return k;
        if (st->autopart_fstype && streq(st->autopart_fstype, "btrfs"))
                return si_ks_error(st->layout.ctx, o,
                                   "autopart --fstype=btrfs is not valid fstype, use --type=btrfs "
                                   "instead");
        if (given(st->autopart_fstype) && st->autopart_type && streq(st->autopart_type, "btrfs"))
                return si_ks_error(st->layout.ctx, o,
                                   "autopart --fstype cannot be used with --type=btrfs");
        st->autopart = true;
        st->noboot = a->flag[KS_OPT_NOBOOT];
        free(st->autopart_text);
        st->autopart_text = si_ks_command_text(o, argv, argc);
        return st->autopart_text ? 0 : -ENOMEM;
}

static int on_reqpart(struct storage *st, const struct si_ks_origin *o, char **argv, size_t argc,
                      const struct ks_args *a)
{
        if (a->n_pos > 0)
                return si_ks_error(st->layout.ctx, o, "Unexpected arguments to reqpart command: %s",
                                   a->pos[0]);
        st->reqpart = true;
        st->add_boot = a->flag[KS_OPT_ADDBOOT];
        free(st->reqpart_text);
        st->reqpart_text = si_ks_command_text(o, argv, argc);
        return st->reqpart_text ? 0 : -ENOMEM;
}

static int on_command(void *userdata, const struct si_ks_origin *o, char **argv, size_t argc)
{
        static const struct {
                const char *word;
                const struct ks_command *cmd;
                int (*fn)(struct storage *, const struct si_ks_origin *, char **, size_t,
                          const struct ks_args *);
        } table[] = {
            {"part", &si_ks_part_cmd, on_part},
            {"partition", &si_ks_part_cmd, on_part},
            {"logvol", &si_ks_logvol_cmd, on_logvol},
            {"raid", &si_ks_raid_cmd, on_raid},
            {"btrfs", &si_ks_btrfs_cmd, on_btrfs},
            {"autopart", &si_ks_autopart_cmd, on_autopart},
            {"reqpart", &si_ks_reqpart_cmd, on_reqpart},
        };
        struct storage *st = userdata;

        for (size_t i = 0; i < ELEMENTSOF(table); i++) {
                struct ks_args a;
                int k;

                if (!streq(argv[0], table[i].word))
                        continue;
                k = si_ks_storage_args(st->layout.ctx, table[i].cmd, o, argv, argc, &a);
                if (k < 0)
                        return k;
                k = table[i].fn(st, o, argv, argc, &a);
                si_ks_args_done(&a);
                return k;
        }
        return 0;
}

/* reqpart: the platform's partitions (EFI: /boot/efi; BIOS: biosboot, not a mount), /boot with
 * --add-boot. autopart: / on its type (btrfs) or --fstype or the default, /boot unless
 * --noboot, and the platform's /boot/efi. */
static int add_single_objects(struct storage *st)
{
        static const char efi_opts[] = "defaults,uid=0,gid=0,umask=077,shortname=winnt";
        bool efi = st->layout.flags & SEINSTALL_PLAN_EFI;
        int k = 0;

        if (st->reqpart && efi)
                k = si_ks_layout_add_implicit(&st->layout, KS_RANK_REQPART, st->reqpart_text,
                                              "/boot/efi", "vfat", efi_opts);
        if (k >= 0 && st->reqpart && st->add_boot)
                k = si_ks_layout_add_implicit(&st->layout, KS_RANK_REQPART, st->reqpart_text,
                                              "/boot", si_ks_boot_fstype(st->layout.default_fstype),
                                              "defaults");
        if (k >= 0 && st->autopart) {
                const char *def =
                    given(st->autopart_fstype) ? st->autopart_fstype : st->layout.default_fstype;
                bool btrfs = st->autopart_type && streq(st->autopart_type, "btrfs");

                if (efi)
                        k = si_ks_layout_add_implicit(&st->layout, KS_RANK_AUTOPART,
                                                      st->autopart_text, "/boot/efi", "vfat",
                                                      efi_opts);
                if (k >= 0 && !st->noboot)
                        k = si_ks_layout_add_implicit(&st->layout, KS_RANK_AUTOPART,
                                                      st->autopart_text, "/boot",
                                                      si_ks_boot_fstype(def), "defaults");
                if (k >= 0)
                        k = si_ks_layout_add_implicit(&st->layout, KS_RANK_AUTOPART,
                                                      st->autopart_text, "/", btrfs ? "btrfs" : def,
                                                      "defaults");
        }
        return k;
}

/* A default file system type: a word of letters, digits, "+", "." and "_" (ext4, hfs+). */
static bool fstype_valid(const char *t)
{
        if (!t || !*t || strlen(t) > 64)
                return false;
        for (; *t; t++)
                if (!((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || strchr("+._", *t)))
                        return false;
        return true;
}

int si_ks_plan(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
               const char *default_fstype, unsigned flags, char **ret)
{
        static const struct si_ks_ops ops = {.command = on_command};
        struct storage st = {.layout = {.ctx = ctx,
                                        .default_fstype = default_fstype ? default_fstype : "xfs",
                                        .flags = flags}};
        int k;

        if (!fstype_valid(st.layout.default_fstype))
                return si_error(ctx, -EINVAL,
                                "'%s' is not a file system type (a word such as xfs or ext4)",
                                st.layout.default_fstype);
        k = si_ks_read(ctx, path, text, len, &ops, &st);
        if (k >= 0)
                k = add_single_objects(&st);
        if (k >= 0)
                k = si_ks_layout_render(&st.layout, path, ret);
        si_ks_layout_done(&st.layout);
        free(st.autopart_type);
        free(st.autopart_fstype);
        free(st.autopart_text);
        free(st.reqpart_text);
        return k;
}

int seinstall_profile_plan(struct seinstall_ctx *ctx, const char *path, const char *default_fstype,
                           unsigned flags, char **ret)
{
        if (!ctx || !path || !ret || (flags & ~(unsigned) SEINSTALL_PLAN_EFI))
                return -EINVAL;
        return si_ks_plan(ctx, path, NULL, 0, default_fstype, flags, ret);
}
