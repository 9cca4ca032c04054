/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-storage.c — the layout a kickstart plans, as an fstab-format plan for `seinstall
 * check`. The file is read by kickstart-lex.c as pykickstart reads it (shlex, %include, %ksappend);
 * the storage commands with the options of pykickstart 3.74's newest handlers (F45: part/partition
 * F41_Partition, logvol F29_LogVol, raid F43_Raid, btrfs F23_BTRFS, autopart F41_AutoPart,
 * reqpart F23_ReqPart): argparse's long options, an unambiguous prefix of one, "--opt=value" or
 * "--opt value", each command's positional words; a mount point starting with "/" is
 * os.path.si_py_normpath()ed. Each device's file system is the one Anaconda's custom partitioning
 * (pyanaconda/modules/storage/partitioning/custom/custom_partitioning.py) gives it: --fstype,
 * else the default (blivet's ext4, xfs on RHEL and Fedora Server: seinstall assumes xfs unless
 * told), /boot the boot loader's stage2 type, a partition at /boot/efi the EFI System
 * Partition (vfat) whatever --fstype says. Commands run in Anaconda's order (reqpart, autopart,
 * part, raid, logvol, btrfs) and a later claim of a mount point replaces an earlier one, as
 * Anaconda destroys the earlier device. Existing devices (--noformat, --useexisting) are probed
 * when they exist here, else left out with a warning.
 */
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kickstart.h"
#include "seinstall-private.h"
#include "profile.h"

/* What an option sets; KS_OPT_NONE: pykickstart takes it, the layout does not depend on it. */
enum ks_opt_dest {
        KS_OPT_NONE = 0,
        KS_OPT_FSTYPE,
        KS_OPT_ONPART,
        KS_OPT_NOFORMAT,
        KS_OPT_USEEXISTING,
        KS_OPT_FSOPTS,
        KS_OPT_NAME,
        KS_OPT_VGNAME,
        KS_OPT_DEVICE,
        KS_OPT_LEVEL,
        KS_OPT_SUBVOL,
        KS_OPT_TYPE,
        KS_OPT_NOLVM,
        KS_OPT_NOBOOT,
        KS_OPT_ADDBOOT,
        KS_OPT_THINPOOL,
        KS_OPT_SIZE,
        KS_OPT_PERCENT,
        KS_OPT_RECOMMENDED,
        KS_OPT_HIBERNATION,
        _KS_OPT_MAX,
};

struct ks_opt {
        const char *name;
        bool value; /* takes a value (argparse's store), else a flag */
        enum ks_opt_dest dest;
};

/* An option @n that takes a value (V) or a flag (F), setting KS_OPT_@d. */
/* clang-format off */
#define V(n, d) {n, true, KS_OPT_##d}
#define F(n, d) {n, false, KS_OPT_##d}
/* clang-format on */
/* The encryption options part, logvol and raid share. */
#define CRYPT_OPTS                                                                                 \
        F("--encrypted", NONE), V("--passphrase", NONE), V("--escrowcert", NONE),                  \
            F("--backuppassphrase", NONE), V("--cipher", NONE), V("--luks-version", NONE),         \
            V("--pbkdf", NONE), V("--pbkdf-memory", NONE), V("--pbkdf-time", NONE),                \
            V("--pbkdf-iterations", NONE)

static const struct ks_opt part_opts[] = {
    F("--asprimary", NONE),   V("--fstype", FSTYPE),      V("--type", FSTYPE),
    F("--grow", NONE),        V("--maxsize", NONE),       F("--noformat", NOFORMAT),
    V("--onbiosdisk", NONE),  V("--ondisk", NONE),        V("--ondrive", NONE),
    V("--onpart", ONPART),    V("--usepart", ONPART),     F("--recommended", NONE),
    V("--size", NONE),        V("--fsoptions", FSOPTS),   V("--label", NONE),
    V("--fsprofile", NONE),   F("--resize", NONE),        F("--hibernation", NONE),
    V("--mkfsoptions", NONE), V("--hw-passphrase", NONE), CRYPT_OPTS,
};
static const struct ks_opt logvol_opts[] = {
    V("--fstype", FSTYPE),
    F("--grow", NONE),
    V("--maxsize", NONE),
    V("--name", NAME),
    F("--noformat", NOFORMAT),
    V("--percent", PERCENT),
    F("--recommended", RECOMMENDED),
    V("--size", SIZE),
    F("--useexisting", USEEXISTING),
    V("--vgname", VGNAME),
    V("--fsoptions", FSOPTS),
    V("--fsprofile", NONE),
    V("--label", NONE),
    F("--resize", NONE),
    F("--hibernation", HIBERNATION),
    F("--thinpool", THINPOOL),
    F("--thin", NONE),
    V("--poolname", NONE),
    V("--chunksize", NONE),
    V("--metadatasize", NONE),
    V("--profile", NONE),
    V("--cachesize", NONE),
    V("--cachemode", NONE),
    V("--cachepvs", NONE),
    V("--mkfsoptions", NONE),
    CRYPT_OPTS,
};
static const struct ks_opt raid_opts[] = {
    V("--device", DEVICE),     V("--fstype", FSTYPE),  V("--level", LEVEL),
    F("--noformat", NOFORMAT), V("--spares", NONE),    F("--useexisting", USEEXISTING),
    V("--fsoptions", FSOPTS),  V("--fsprofile", NONE), V("--label", NONE),
    V("--mkfsoptions", NONE),  V("--chunksize", NONE), CRYPT_OPTS,
};
static const struct ks_opt btrfs_opts[] = {
    F("--noformat", NOFORMAT), F("--useexisting", USEEXISTING),
    V("--label", NONE),        V("--data", NONE),
    V("--metadata", NONE),     F("--subvol", SUBVOL),
    V("--parent", NONE),       V("--name", NAME),
    V("--mkfsoptions", NONE),
};
static const struct ks_opt autopart_opts[] = {
    F("--encrypted", NONE),   V("--passphrase", NONE),
    V("--escrowcert", NONE),  F("--backuppassphrase", NONE),
    F("--nolvm", NOLVM),      V("--type", TYPE),
    V("--cipher", NONE),      V("--fstype", FSTYPE),
    F("--nohome", NONE),      F("--noboot", NOBOOT),
    F("--noswap", NONE),      V("--luks-version", NONE),
    V("--pbkdf", NONE),       V("--pbkdf-memory", NONE),
    V("--pbkdf-time", NONE),  V("--pbkdf-iterations", NONE),
    F("--hibernation", NONE), V("--hw-passphrase", NONE),
};
static const struct ks_opt reqpart_opts[] = {F("--add-boot", ADDBOOT)};
#undef V
#undef F

struct ks_command {
        const char *name; /* as pykickstart's messages name it */
        const struct ks_opt *opts;
        size_t n_opts;
};

static const struct ks_command si_ks_part_cmd = {"partition", part_opts, ELEMENTSOF(part_opts)};
static const struct ks_command si_ks_logvol_cmd = {"logvol", logvol_opts, ELEMENTSOF(logvol_opts)};
static const struct ks_command si_ks_raid_cmd = {"raid", raid_opts, ELEMENTSOF(raid_opts)};
static const struct ks_command si_ks_btrfs_cmd = {"btrfs", btrfs_opts, ELEMENTSOF(btrfs_opts)};
static const struct ks_command si_ks_autopart_cmd = {"autopart", autopart_opts,
                                                     ELEMENTSOF(autopart_opts)};
static const struct ks_command si_ks_reqpart_cmd = {"reqpart", reqpart_opts,
                                                    ELEMENTSOF(reqpart_opts)};

/* Anaconda's order of execution (CustomPartitioning._configure_partitioning()). */
enum ks_rank {
        KS_RANK_REQPART,
        KS_RANK_AUTOPART,
        KS_RANK_PART,
        KS_RANK_RAID,
        KS_RANK_LOGVOL,
        KS_RANK_BTRFS
};

/* One line of a command, as argparse leaves it. */
struct ks_args {
        const char *val[_KS_OPT_MAX];
        bool flag[_KS_OPT_MAX];
        char **pos; /* positional words, in order */
        size_t n_pos;
};

struct ks_entry {
        char *source, *mountpoint, *fstype, *options;
        enum ks_rank rank;
        size_t seq;
        char *comment; /* "FILE:LINE: the command" */
};

/* The layout a kickstart plans: the mounts its commands claim, in the order they claim them. */
struct ks_layout {
        struct seinstall_ctx *ctx;
        const char *default_fstype;
        unsigned flags;
        struct ks_entry *v;
        size_t n, cap;
};

struct storage {
        struct ks_layout layout;
        /* autopart and reqpart are one object each: a later line changes what it gives */
        bool autopart, reqpart, add_boot, noboot;
        char *autopart_type, *autopart_fstype;
        char *autopart_text, *reqpart_text;
};

static void entry_done(struct ks_entry *e)
{
        free(e->source);
        free(e->mountpoint);
        free(e->fstype);
        free(e->options);
        free(e->comment);
}

static void si_ks_args_done(struct ks_args *a)
{
        free(a->pos);
}

static int parse_one_opt(struct seinstall_ctx *ctx, const struct ks_command *c,
                         const struct si_ks_origin *o, char **argv, size_t argc, size_t *i,
                         struct ks_args *a)
{
        const char *w = argv[*i], *eq = strchr(w, '=');
        const struct ks_opt *opt;
        int k = si_ks_option_find(&c->opts[0].name, c->n_opts, sizeof(c->opts[0]), w,
                                  eq ? (size_t) (eq - w) : strlen(w));

        if (k == -2)
                return si_ks_error(ctx, o, "%s: ambiguous option: %.*s", c->name,
                                   (int) (eq ? (size_t) (eq - w) : strlen(w)), w);
        if (k < 0)
                return si_ks_error(ctx, o, "Unexpected arguments to %s command: %s", c->name, w);
        opt = &c->opts[k];
        if (!opt->value) {
                if (eq)
                        return si_ks_error(ctx, o,
                                           "%s: argument %s: ignored explicit argument "
                                           "'%s'",
                                           c->name, opt->name, eq + 1);
                a->flag[opt->dest] = true;
                return 0;
        }
        if (!eq && (*i + 1 >= argc || si_ks_looks_like_option(argv[*i + 1])))
                return si_ks_error(ctx, o, "%s: argument %s: expected one argument", c->name,
                                   opt->name);
        a->val[opt->dest] = eq ? eq + 1 : argv[++*i];
        return 0;
}

/* argparse over @argv[1..]: options anywhere, "--" ends them, other words are positional. */
static int si_ks_storage_args(struct seinstall_ctx *ctx, const struct ks_command *c,
                              const struct si_ks_origin *o, char **argv, size_t argc,
                              struct ks_args *ret)
{
        struct ks_args a = {.pos = calloc(argc, sizeof(char *))};
        bool words_only = false;
        int k = 0;

        if (!a.pos)
                return -ENOMEM;
        for (size_t i = 1; i < argc && k >= 0; i++) {
                if (!words_only && streq(argv[i], "--"))
                        words_only = true;
                else if (!words_only && si_ks_looks_like_option(argv[i]))
                        k = parse_one_opt(ctx, c, o, argv, argc, &i, &a);
                else
                        a.pos[a.n_pos++] = argv[i];
        }
        if (k < 0) {
                si_ks_args_done(&a);
                return k;
        }
        a.val[KS_OPT_NONE] = NULL;
        *ret = a;
        return 0;
}

/* os.path.si_py_normpath() of a mount point starting with "/" (POSIX: "//x" keeps both slashes,
 * three or more become one); other mount points ("swap", "pv.01") unchanged. */
static char *si_py_normpath(const char *p)
{
        size_t n = strlen(p), len = 0, lead = 0;
        char *out;

        if (p[0] != '/')
                return strdup(p);
        out = malloc(n + 1);
        if (!out)
                return NULL;
        while (p[lead] == '/')
                lead++;
        lead = lead == 2 ? 2 : 1;
        memset(out, '/', lead);
        len = lead;
        for (const char *s = p; *s;) {
                const char *e;

                while (*s == '/')
                        s++;
                e = s;
                while (*e && *e != '/')
                        e++;
                if (e - s == 1 && s[0] == '.') {
                        /* drop */
                } else if (e - s == 2 && s[0] == '.' && s[1] == '.') {
                        if (len > lead) {
                                while (len > lead && out[len - 1] != '/')
                                        len--;
                                if (len > lead)
                                        len--;
                        }
                } else if (e > s) {
                        if (len > lead)
                                out[len++] = '/';
                        memcpy(out + len, s, (size_t) (e - s));
                        len += (size_t) (e - s);
                }
                s = e;
        }
        out[len] = '\0';
        return out;
}

/* The kernel's name of blivet's format @type: "efi" is the EFI System Partition's vfat,
 * "macefi" and "hfs+" are hfsplus. */
static const char *kernel_type(const char *type)
{
        if (streq(type, "efi"))
                return "vfat";
        if (streq(type, "macefi") || streq(type, "hfs+"))
                return "hfsplus";
        return type;
}

/* GRUB 2's stage2_format_types (not on RHEL, where xfs comes first: the same set): the
 * default file system when /boot may carry it, else ext4 (storage.default_boot_fstype). */
static const char *si_ks_boot_fstype(const char *def)
{
        static const char *const stage2[] = {"ext4", "ext3", "ext2", "btrfs", "xfs"};

        for (size_t i = 0; i < ELEMENTSOF(stage2); i++)
                if (streq(def, stage2[i]))
                        return def;
        return "ext4";
}

static char *si_ks_command_text(const struct si_ks_origin *o, char **argv, size_t argc)
{
        struct sbuf b = {};

        sbuf_printf(&b, "%s:%u:", o->file, o->line);
        for (size_t i = 0; i < argc; i++)
                sbuf_printf(&b, " %s", argv[i]);
        if (!b.s)
                return NULL;
        /* a comment line: no line break or control character inside it */
        for (char *p = b.s; *p; p++)
                if ((unsigned char) *p < 0x20 || *p == 0x7f)
                        *p = '?';
        return sbuf_steal(&b);
}

/* Plan @mountpoint on @fstype (NULL: probe @source, an existing device), or leave an existing
 * device that is not here out with a warning. */
static int si_ks_layout_add(struct ks_layout *l, enum ks_rank rank, const struct si_ks_origin *o,
                            char **argv, size_t argc, const char *source, const char *mountpoint,
                            const char *fstype, const char *options)
{
        struct ks_entry e = {.rank = rank, .seq = l->n};
        struct stat sb;

        if (!fstype && (!source || stat(source, &sb) < 0)) {
                si_warn(l->ctx,
                        "%s:%u: %s is not checked before partitioning: it keeps the file system "
                        "of the existing device %s, which is not found here (the %%pre-install "
                        "check sees it mounted)",
                        o->file, o->line, mountpoint, source ? source : "(none named)");
                return 0;
        }
        if (l->n == l->cap) {
                size_t cap = l->cap ? l->cap * 2 : 16;
                struct ks_entry *v = reallocarray(l->v, cap, sizeof(*v));
                if (!v)
                        return -ENOMEM;
                l->v = v;
                l->cap = cap;
        }
        e.source = strdup(source ? source : "planned");
        e.mountpoint = strdup(mountpoint);
        e.fstype = strdup(fstype ? kernel_type(fstype) : "auto");
        e.options = strdup(options && *options ? options : "defaults");
        e.comment = si_ks_command_text(o, argv, argc);
        if (!e.source || !e.mountpoint || !e.fstype || !e.options || !e.comment) {
                entry_done(&e);
                return -ENOMEM;
        }
        l->v[l->n++] = e;
        return 0;
}

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

/* The mounts a single-object command plans (autopart, reqpart), noted at its last line: the
 * origin's file name lives only during the read, so its text says where. */
static int si_ks_layout_add_implicit(struct ks_layout *l, enum ks_rank rank, const char *text,
                                     const char *mp, const char *fstype, const char *options)
{
        struct ks_entry e = {.rank = rank, .seq = l->n};
        struct ks_entry *v;

        v = reallocarray(l->v, l->n + 1, sizeof(*v));
        if (!v)
                return -ENOMEM;
        l->v = v;
        l->cap = l->n + 1;
        e.source = strdup("planned");
        e.mountpoint = strdup(mp);
        e.fstype = strdup(kernel_type(fstype));
        e.options = strdup(options);
        e.comment = strdup(text);
        if (!e.source || !e.mountpoint || !e.fstype || !e.options || !e.comment) {
                entry_done(&e);
                return -ENOMEM;
        }
        l->v[l->n++] = e;
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

static int by_rank(const void *a, const void *b)
{
        const struct ks_entry *x = a, *y = b;

        if (x->rank != y->rank)
                return x->rank < y->rank ? -1 : 1;
        return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An fstab field: blanks, "#", "\" and control characters as libmount's \ooo escapes. */
static void put_field(struct sbuf *b, const char *s)
{
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;
                if (c <= 0x20 || c == '\\' || c == '#' || c == 0x7f)
                        sbuf_printf(b, "\\%03o", c);
                else
                        sbuf_append(b, s, 1);
        }
}

static void si_ks_layout_done(struct ks_layout *l)
{
        for (size_t i = 0; i < l->n; i++)
                entry_done(&l->v[i]);
        free(l->v);
}

static bool replaced_later(const struct ks_layout *l, size_t i)
{
        for (size_t j = i + 1; j < l->n; j++)
                if (streq(l->v[j].mountpoint, l->v[i].mountpoint))
                        return true;
        return false;
}

static int si_ks_layout_render(struct ks_layout *l, const char *path, char **ret)
{
        struct sbuf b = {};
        int n = 0;

        if (l->n > 0)
                qsort(l->v, l->n, sizeof(*l->v), by_rank);
        sbuf_printf(&b,
                    "# The layout %s plans, read by seinstall (default file system %s, %s "
                    "firmware)\n",
                    path, l->default_fstype, l->flags & SEINSTALL_PLAN_EFI ? "EFI" : "BIOS");
        for (size_t i = 0; i < l->n; i++) {
                const struct ks_entry *e = &l->v[i];

                if (replaced_later(l, i)) {
                        /* not the mount point itself: it may hold a line break */
                        sbuf_printf(&b,
                                    "# %s\n#   (replaced by a later claim of its mount point)\n",
                                    e->comment);
                        continue;
                }
                sbuf_printf(&b, "# %s\n", e->comment);
                put_field(&b, e->source);
                sbuf_puts(&b, " ");
                put_field(&b, e->mountpoint);
                sbuf_puts(&b, " ");
                put_field(&b, e->fstype);
                sbuf_puts(&b, " ");
                put_field(&b, e->options);
                sbuf_puts(&b, "\n");
                n++;
        }
        if (!b.s)
                return -ENOMEM;
        *ret = sbuf_steal(&b);
        return n;
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
