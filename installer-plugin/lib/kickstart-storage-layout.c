/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-storage-layout.c — the layout a kickstart plans, as the storage commands
 * (kickstart-storage.c) claim its mount points: one entry per claim with the command line that
 * made it, kept in Anaconda's order of execution (reqpart, autopart, part, raid, logvol, btrfs;
 * a later claim of a mount point replaces an earlier one, as Anaconda destroys the earlier
 * device), and written out as the fstab-format plan `seinstall check --plan` reads.
 */
#include <sys/stat.h>

#include "kickstart-internal.h"

struct ks_entry {
        char *source, *mountpoint, *fstype, *options;
        enum ks_rank rank;
        size_t seq;
        char *comment; /* "FILE:LINE: the command" */
};

static void entry_done(struct ks_entry *e)
{
        free(e->source);
        free(e->mountpoint);
        free(e->fstype);
        free(e->options);
        free(e->comment);
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
const char *si_ks_boot_fstype(const char *def)
{
        static const char *const stage2[] = {"ext4", "ext3", "ext2", "btrfs", "xfs"};

        for (size_t i = 0; i < ELEMENTSOF(stage2); i++)
                if (streq(def, stage2[i]))
                        return def;
        return "ext4";
}

char *si_ks_command_text(const struct si_ks_origin *o, char **argv, size_t argc)
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
int si_ks_layout_add(struct ks_layout *l, enum ks_rank rank, const struct si_ks_origin *o,
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
        if (!SI_GROW(l->v, l->cap, l->n + 1))
                return -ENOMEM;
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

/* The mounts a single-object command plans (autopart, reqpart), noted at its last line: the
 * origin's file name lives only during the read, so its text says where. */
int si_ks_layout_add_implicit(struct ks_layout *l, enum ks_rank rank, const char *text,
                              const char *mp, const char *fstype, const char *options)
{
        struct ks_entry e = {.rank = rank, .seq = l->n};

        if (!SI_GROW(l->v, l->cap, l->n + 1))
                return -ENOMEM;
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

void si_ks_layout_done(struct ks_layout *l)
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

int si_ks_layout_render(struct ks_layout *l, const char *path, char **ret)
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
