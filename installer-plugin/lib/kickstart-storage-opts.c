/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-storage-opts.c — the options of the storage commands as pykickstart 3.74's newest
 * handlers declare them (F45: part/partition F41_Partition, logvol F29_LogVol, raid F43_Raid,
 * btrfs F23_BTRFS, autopart F41_AutoPart, reqpart F23_ReqPart), and argparse over one command
 * line: long options, an unambiguous prefix of one, "--opt=value" or "--opt value", anywhere
 * among the positional words, "--" ending them. What each option means to the layout is
 * kickstart-storage.c's.
 */
#include "kickstart-internal.h"

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

const struct ks_command si_ks_part_cmd = {"partition", part_opts, ELEMENTSOF(part_opts)};
const struct ks_command si_ks_logvol_cmd = {"logvol", logvol_opts, ELEMENTSOF(logvol_opts)};
const struct ks_command si_ks_raid_cmd = {"raid", raid_opts, ELEMENTSOF(raid_opts)};
const struct ks_command si_ks_btrfs_cmd = {"btrfs", btrfs_opts, ELEMENTSOF(btrfs_opts)};
const struct ks_command si_ks_autopart_cmd = {"autopart", autopart_opts, ELEMENTSOF(autopart_opts)};
const struct ks_command si_ks_reqpart_cmd = {"reqpart", reqpart_opts, ELEMENTSOF(reqpart_opts)};

void si_ks_args_done(struct ks_args *a)
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
int si_ks_storage_args(struct seinstall_ctx *ctx, const struct ks_command *c,
                       const struct si_ks_origin *o, char **argv, size_t argc, struct ks_args *ret)
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
