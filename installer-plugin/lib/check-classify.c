/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check-classify.c — can one mount carry SELinux labels? Owns the classification of a mount (xattr,
 * trans, genfs, mount-context, none) from the policy's statements, its mount options and the
 * live probe, and the verdict rules (docs/design.md), with the reason and the fix a person reads;
 * and the one table of filesystem types by statfs magic, for the relabel walk's mounts that
 * `check` did not classify. Pure functions over data: reading the policy, plans and mounts
 * lives elsewhere.
 */
#include <libmount/libmount.h>

#include "seinstall-private.h"
#include "check-stage.h"
#include "policy.h"

/* ---- mount options ------------------------------------------------------------------------ */

int si_mount_option(const char *options, const char *name, char **ret)
{
        char *value = NULL;
        size_t len = 0;
        char *s;

        if (!options)
                return 0;
        /* libmount matches whole option names ("context" never matches "fscontext") and
         * understands quoted values such as context="u:r:t:s0:c0,c1". */
        if (mnt_optstr_get_option(options, name, &value, &len) != 0)
                return 0;
        if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
                value++;
                len -= 2;
        }
        s = strndup(value ? value : "", len);
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 1;
}

/* ---- roles and rules ---------------------------------------------------------------------- */

/* @mountpoint is @dir or below it. */
static bool path_below(const char *mountpoint, const char *dir)
{
        const char *rest = startswith(mountpoint, dir);

        return rest && (*rest == '\0' || *rest == '/');
}

enum si_role si_mount_role(const char *mountpoint)
{
        static const char *const efi[] = {"/boot/efi", "/efi"};
        static const char *const volatile_dirs[] = {"/tmp", "/run", "/dev/shm"};
        static const char *const system[] = {"/usr",  "/etc", "/var", "/home",
                                             "/root", "/opt", "/srv", "/boot"};

        if (streq(mountpoint, "/"))
                return SI_ROLE_SYSTEM;
        for (size_t i = 0; i < ELEMENTSOF(efi); i++)
                if (path_below(mountpoint, efi[i]))
                        return SI_ROLE_EFI;
        for (size_t i = 0; i < ELEMENTSOF(volatile_dirs); i++)
                if (path_below(mountpoint, volatile_dirs[i]))
                        return SI_ROLE_VOLATILE;
        for (size_t i = 0; i < ELEMENTSOF(system); i++)
                if (path_below(mountpoint, system[i]))
                        return SI_ROLE_SYSTEM;
        return SI_ROLE_OTHER;
}

/* Whether @labeling is what a mount of @role is meant to have. */
static bool labeling_fits(enum seinstall_labeling labeling, enum si_role role)
{
        switch (role) {
        case SI_ROLE_SYSTEM:
                return labeling == SEINSTALL_LABELING_XATTR;
        case SI_ROLE_EFI:
                return labeling == SEINSTALL_LABELING_XATTR ||
                       labeling == SEINSTALL_LABELING_GENFS ||
                       labeling == SEINSTALL_LABELING_MOUNT_CONTEXT;
        case SI_ROLE_VOLATILE:
                return labeling == SEINSTALL_LABELING_XATTR || labeling == SEINSTALL_LABELING_TRANS;
        case SI_ROLE_OTHER:
        default:
                return labeling != SEINSTALL_LABELING_NONE;
        }
}

enum seinstall_verdict si_verdict_rule(enum seinstall_labeling labeling, enum si_role role,
                                       enum seinstall_mode mode)
{
        if (labeling_fits(labeling, role))
                return SEINSTALL_VERDICT_OK;
        if (mode == SEINSTALL_MODE_DISABLED)
                return SEINSTALL_VERDICT_NOTE;
        /* Elsewhere (a data disk under /mnt, say) an unlabeled mount only hurts the programs
         * that use it: worth a warning, not a refusal of the whole install. */
        if (role == SI_ROLE_OTHER || mode == SEINSTALL_MODE_PERMISSIVE)
                return SEINSTALL_VERDICT_WARN;
        return SEINSTALL_VERDICT_REFUSE;
}

/* ---- filesystems by magic number ------------------------------------------------------------ */

/* The one table of filesystem types by their statfs magic: which keep per-file labels and, for
 * the others, why not. Used where only an open directory is known (the relabel walk meets a
 * mount `check` did not classify). */
static const struct {
        unsigned long magic;
        const char *name;
        bool xattr;
        const char *reason;
} fs_magic[] = {
    {0xEF53, "ext4", true, NULL},
    {0x58465342, "xfs", true, NULL},
    {0x9123683E, "btrfs", true, NULL},
    {0xF2F52010, "f2fs", true, NULL},
    {0x3153464a, "jfs", true, NULL},
    {0x01021994, "tmpfs", false, "labels of tmpfs are set when files are created (trans)"},
    {0x858458f6, "ramfs", false, "ramfs cannot keep labels"},
    {0x9fa0, "proc", false, "pseudo filesystem"},
    {0x62656572, "sysfs", false, "pseudo filesystem"},
    {0x1cd1, "devpts", false, "pseudo filesystem"},
    {0x73636673, "securityfs", false, "pseudo filesystem"},
    {0xf97cff8c, "selinuxfs", false, "pseudo filesystem"},
    {0x63677270, "cgroup2", false, "pseudo filesystem"},
    {0x27e0eb, "cgroup", false, "pseudo filesystem"},
    {0x64626720, "debugfs", false, "pseudo filesystem"},
    {0x74726163, "tracefs", false, "pseudo filesystem"},
    {0x6e736673, "nsfs", false, "pseudo filesystem"},
    {0xcafe4a11, "bpf", false, "pseudo filesystem"},
    {0x4d44, "vfat", false, "one label for every file, from the policy (genfs)"},
    {0x2011BAB0, "exfat", false, "one label for every file, from the policy (genfs)"},
    {0x52654973, "reiserfs", false, "one label for every file, from the policy (genfs)"},
    {0x3434, "nilfs2", false, "the policy does not name nilfs2"},
    {0x6969, "nfs", false, "network filesystem"},
    {0xFF534D42, "cifs", false, "network filesystem"},
    {0x794c7630, "overlay", false, "overlay filesystem"},
    {0x9660, "iso9660", false, "read-only filesystem labeled by the policy (genfs)"},
    {0x73717368, "squashfs", false, "read-only filesystem labeled by the policy (genfs)"},
};

bool si_fs_magic_labelable(unsigned long magic, const char **ret_name, const char **ret_reason)
{
        *ret_name = "unknown";
        *ret_reason = "filesystem type not known to keep per-file labels";
        for (size_t i = 0; i < ELEMENTSOF(fs_magic); i++)
                if (magic == fs_magic[i].magic) {
                        *ret_name = fs_magic[i].name;
                        *ret_reason = fs_magic[i].reason;
                        return fs_magic[i].xattr;
                }
        return false;
}

/* ---- classification ----------------------------------------------------------------------- */

/* The filesystem type the kernel and the policy know: "fuse.sshfs" is "fuse" to both. */
static const char *kernel_fstype(const char *fstype)
{
        if (startswith(fstype, "fuse."))
                return "fuse";
        return fstype;
}

struct why {
        const char *statement; /* "fs_use_xattr", "genfscon", ... or NULL */
        bool bad_context;      /* context= names a context the policy does not define */
        bool kernel_cannot;    /* the policy wants xattrs, the kernel cannot store them */
        bool bad_defcontext;   /* defcontext= where files carry no labels of their own */
};

static int classify_statements(const struct si_policy *policy, struct si_mount *m, struct why *why)
{
        _cleanup_free_ char *context = NULL;
        const char *fstype = kernel_fstype(m->fstype);
        enum si_fs_use use = SI_FS_USE_NONE;
        int r;

        r = si_mount_option(m->options, "context", &context);
        if (r < 0)
                return r;
        if (r > 0) {
                why->statement = "context=";
                if (si_policy_context_valid(policy, context) > 0) {
                        m->labeling = SEINSTALL_LABELING_MOUNT_CONTEXT;
                        m->label = TAKE_PTR(context);
                        return 0;
                }
                why->bad_context = true;
                m->labeling = SEINSTALL_LABELING_NONE;
                m->label = TAKE_PTR(context);
                return 0;
        }

        r = si_policy_fs_use(policy, fstype, &use, NULL);
        if (r < 0)
                return r;
        if (r > 0 && use == SI_FS_USE_XATTR) {
                why->statement = "fs_use_xattr";
                if (m->probe != SI_PROBE_NO) {
                        m->labeling = SEINSTALL_LABELING_XATTR;
                        return 0;
                }
                why->kernel_cannot = true;
                m->labeling = SEINSTALL_LABELING_NONE;
                m->label = si_policy_unlabeled_context(policy);
                return 0;
        }
        if (r > 0) {
                why->statement = use == SI_FS_USE_TASK ? "fs_use_task" : "fs_use_trans";
                m->labeling = SEINSTALL_LABELING_TRANS;
                return 0;
        }

        r = si_policy_genfs(policy, fstype, "/", &m->label);
        if (r < 0)
                return r;
        if (r > 0) {
                why->statement = "genfscon";
                m->labeling = SEINSTALL_LABELING_GENFS;
                return 0;
        }
        m->labeling = SEINSTALL_LABELING_NONE;
        m->label = si_policy_unlabeled_context(policy);
        return 0;
}

/* The statements and context= decide; defcontext= can still make the mount itself fail: the
 * kernel accepts it only where files keep their own labels (EINVAL, "defcontext option is
 * invalid for this filesystem type"). fscontext= and rootcontext= never change the class. */
static int classify(const struct si_policy *policy, struct si_mount *m, struct why *why)
{
        _cleanup_free_ char *defcontext = NULL;
        int r;

        r = classify_statements(policy, m, why);
        if (r < 0)
                return r;
        r = si_mount_option(m->options, "defcontext", &defcontext);
        if (r <= 0 || m->labeling == SEINSTALL_LABELING_XATTR)
                return r;
        why->bad_defcontext = true;
        /* With context= too, the label stays its value: the fix names it. */
        if (m->labeling != SEINSTALL_LABELING_MOUNT_CONTEXT && !why->bad_context) {
                free(m->label);
                m->label = si_policy_unlabeled_context(policy);
        }
        if (m->labeling == SEINSTALL_LABELING_MOUNT_CONTEXT)
                why->bad_context = true; /* so the fix also says to remove it */
        m->labeling = SEINSTALL_LABELING_NONE;
        return 0;
}

/* ---- reason and fix ------------------------------------------------------------------------ */

/* A device, an image or a tag (UUID=...), rather than the "none", "proc" or "tmpfs" a pseudo
 * filesystem is mounted from. Every source of a plan is a device, unless it is such a name. */
static bool is_device(const struct si_mount *m)
{
        if (!m->source || !*m->source || streq(m->source, "none") || streq(m->source, m->fstype))
                return false;
        return !m->path || strchr(m->source, '/') || strchr(m->source, '=');
}

static const char *role_need(enum si_role role)
{
        switch (role) {
        case SI_ROLE_SYSTEM:
                return N_("it holds the system or people's data, which needs a label per file");
        case SI_ROLE_EFI:
                return N_("an EFI system partition is meant to carry the one label the policy "
                          "gives FAT");
        case SI_ROLE_VOLATILE:
                return N_("a volatile directory needs labels computed per file (tmpfs) or kept "
                          "per file");
        default:
                return N_("files there cannot be told apart by label");
        }
}

static const char *mode_effect(enum seinstall_verdict v, enum si_role role)
{
        if (v == SEINSTALL_VERDICT_NOTE)
                return N_("SELinux is disabled, so this matters only once it is enabled");
        if (role == SI_ROLE_OTHER)
                return N_("programs confined by the policy are denied access there in enforcing "
                          "mode");
        if (v == SEINSTALL_VERDICT_REFUSE)
                return N_("in enforcing mode services are denied access to these files and the "
                          "system may not boot");
        return N_("the system boots, but logs denials there and can never be made enforcing");
}

/* "ext4, xfs or btrfs" from the policy's fs_use_xattr statements. */
static int xattr_choice(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                        struct sbuf *b)
{
        const char *names[3];
        size_t n = si_policy_xattr_fstypes(policy, names, ELEMENTSOF(names));
        int r = 0;

        if (n == 0)
                return sbuf_puts(b, si_tr(ctx, "a filesystem the policy labels with fs_use_xattr"));
        for (size_t i = 0; i < n && r >= 0; i++)
                r = sbuf_printf(b, "%s%s",
                                i == 0 ? ""
                                /* TRANSLATORS: joins the last two of "ext4, xfs or btrfs" */
                                : i + 1 == n ? si_tr(ctx, " or ")
                                             : si_tr(ctx, ", "),
                                names[i]);
        return r;
}

static int write_reason(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                        const struct si_mount *m, const struct why *why, enum si_role role,
                        struct sbuf *b)
{
        const char *src = m->source && *m->source ? m->source : m->fstype;
        const char *pol = si_policy_type(policy);
        int r;

        /* "/dev/vda2 on / is reiserfs", but "proc on /proc" for a source that is no device. */
        if (is_device(m))
                r = sbuf_printf(b, si_tr(ctx, "%s on %s is %s: "), src, m->mountpoint, m->fstype);
        else
                r = sbuf_printf(b, si_tr(ctx, "%s on %s: "), m->fstype, m->mountpoint);
        if (r < 0)
                return r;
        switch (m->labeling) {
        case SEINSTALL_LABELING_XATTR:
                r = sbuf_printf(
                    b, si_tr(ctx, "the %s policy keeps a label per file on it (fs_use_xattr)"),
                    pol);
                break;
        case SEINSTALL_LABELING_TRANS:
                r = sbuf_printf(b,
                                si_tr(ctx,
                                      "the %s policy labels its files when they are created and "
                                      "keeps the labels in memory (%s)"),
                                pol, why->statement);
                break;
        case SEINSTALL_LABELING_GENFS:
                r = sbuf_printf(b,
                                m->probe == SI_PROBE_YES
                                    ? si_tr(ctx, "the %s policy gives every file on %s the one "
                                                 "label %s (genfscon), even though the kernel "
                                                 "can store security.selinux there")
                                    : si_tr(ctx, "the %s policy gives every file on %s the one "
                                                 "label %s (genfscon)"),
                                pol, m->fstype, m->label);
                break;
        case SEINSTALL_LABELING_MOUNT_CONTEXT:
                r = sbuf_printf(
                    b, si_tr(ctx, "the mount option context=%s gives every file the one label"),
                    m->label);
                break;
        case SEINSTALL_LABELING_NONE:
        default:
                if (why->bad_defcontext)
                        r = sbuf_printf(
                            b, si_tr(ctx, "the mount option defcontext= is only valid where files "
                                          "keep labels of their own (fs_use_xattr), so once "
                                          "SELinux is on the kernel refuses to mount it"));
                else if (why->bad_context)
                        r = sbuf_printf(b,
                                        si_tr(ctx,
                                              "the mount option context=%s names a context the %s "
                                              "policy does not define, so its files are unlabeled"),
                                        m->label, pol);
                else if (why->kernel_cannot)
                        r = sbuf_printf(b,
                                        si_tr(ctx,
                                              "the %s policy wants a label per file "
                                              "(fs_use_xattr), but the kernel cannot store "
                                              "security.selinux on this mount (%s), so its files "
                                              "read %s"),
                                        pol, strerror(m->probe_errno ? m->probe_errno : EOPNOTSUPP),
                                        m->label ? m->label : "unlabeled_t");
                else
                        r = sbuf_printf(b,
                                        si_tr(ctx, "the %s policy does not name %s (no fs_use or "
                                                   "genfscon statement), so every file reads %s"),
                                        pol, m->fstype, m->label ? m->label : "unlabeled_t");
                break;
        }
        if (r < 0)
                return r;
        if (m->verdict != SEINSTALL_VERDICT_OK)
                /* TRANSLATORS: the reason above, then what the mount must hold, then
                 * what the mode does there */
                r = sbuf_printf(b, si_tr(ctx, "; %s; %s"), si_tr(ctx, role_need(role)),
                                si_tr(ctx, mode_effect(m->verdict, role)));
        return r;
}

static int write_fix(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                     const struct si_mount *m, const struct why *why, enum si_role role,
                     struct sbuf *b)
{
        const char *src = m->source && *m->source ? m->source : m->fstype;
        int r;

        if (m->verdict == SEINSTALL_VERDICT_OK)
                return 0;
        if (why->bad_defcontext) {
                r = sbuf_printf(b, si_tr(ctx, "remove defcontext= from the options of %s; "),
                                m->mountpoint);
                if (r < 0)
                        return r;
        }
        if (m->labeling == SEINSTALL_LABELING_MOUNT_CONTEXT || why->bad_context) {
                r = sbuf_printf(b, si_tr(ctx, "remove context=%s from the options of %s; "),
                                m->label, m->mountpoint);
                if (r < 0)
                        return r;
        }
        switch (role) {
        case SI_ROLE_EFI:
                r = sbuf_printf(b,
                                si_tr(ctx,
                                      "format %s for %s as vfat (an EFI system partition is FAT; "
                                      "the policy labels it dosfs_t)"),
                                src, m->mountpoint);
                break;
        case SI_ROLE_VOLATILE:
                if (is_device(m))
                        r = sbuf_printf(b, si_tr(ctx, "mount tmpfs on %s, or format %s as "),
                                        m->mountpoint, src);
                else
                        r = sbuf_printf(
                            b, si_tr(ctx, "mount tmpfs on %s, or a partition formatted as "),
                            m->mountpoint);
                if (r >= 0)
                        r = xattr_choice(ctx, policy, b);
                break;
        default:
                if (why->kernel_cannot) {
                        r = sbuf_printf(b,
                                        si_tr(ctx,
                                              "mount %s with security xattr support (a kernel "
                                              "built with the filesystem's security labels), or "
                                              "format it as "),
                                        src);
                } else if (is_device(m)) {
                        r = sbuf_printf(b, si_tr(ctx, "format %s for %s as "), src, m->mountpoint);
                } else {
                        r = sbuf_printf(b, si_tr(ctx, "put %s on a partition formatted as "),
                                        m->mountpoint);
                }
                if (r >= 0)
                        r = xattr_choice(ctx, policy, b);
                if (r >= 0 && !why->kernel_cannot &&
                    m->labeling != SEINSTALL_LABELING_MOUNT_CONTEXT)
                        r = sbuf_printf(b, si_tr(ctx, " instead of %s"), m->fstype);
                if (r >= 0 && role == SI_ROLE_OTHER)
                        r = sbuf_printf(
                            b, si_tr(ctx, ", or mount it with context= to give its files one "
                                          "label the policy knows"));
                break;
        }
        if (r >= 0 && m->verdict == SEINSTALL_VERDICT_REFUSE)
                r = sbuf_puts(
                    b, si_tr(ctx, "; to install anyway, choose permissive mode (--unsupported "
                                  "warn, or the boot option seinstall.unsupported=warn), knowing "
                                  "it can never enforce"));
        return r;
}

int si_fscheck_mount(const struct seinstall_ctx *ctx, const struct si_policy *policy,
                     enum seinstall_mode mode, struct si_mount *m)
{
        struct sbuf reason = {0}, fix = {0};
        struct why why = {0};
        enum si_role role = si_mount_role(m->mountpoint);
        int r;

        free(m->label);
        m->label = NULL;
        r = classify(policy, m, &why);
        if (r < 0)
                return r;
        m->verdict = si_verdict_rule(m->labeling, role, mode);
        r = write_reason(ctx, policy, m, &why, role, &reason);
        if (r >= 0)
                r = write_fix(ctx, policy, m, &why, role, &fix);
        if (r < 0) {
                sbuf_free(&reason);
                sbuf_free(&fix);
                return r;
        }
        free(m->reason);
        free(m->fix);
        m->reason = sbuf_steal(&reason);
        m->fix = sbuf_steal(&fix);
        return m->reason && m->fix ? 0 : -ENOMEM;
}
