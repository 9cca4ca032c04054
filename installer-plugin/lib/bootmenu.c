/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootmenu.c — si_bootmenu_read(): the target's boot menu as the boot loader reads it, beside
 * the configuration it is made from, and the first SELinux argument on which they differ.
 * /etc/default/grub says what the next grub.cfg will hold; only grub.cfg (update-grub's output)
 * says what GRUB boots. /etc/kernel/cmdline says what kernel-install writes into the next BLS
 * entry; the entries say what boots.
 */
#include <fcntl.h>

#include "bootmenu.h"
#include "cmdline.h"

/* The arguments that decide SELinux at boot, in the order a lag is named. */
static const char *const selinux_args[] = {"security", "lsm", "selinux", "enforcing"};

void si_bootmenu_done(struct si_bootmenu *m)
{
        free(m->config_file);
        free(m->config_cmdline);
        free(m->file);
        free(m->entry);
        free(m->chosen);
        free(m->cmdline);
        free(m->unknown);
        free(m->lag);
        *m = (struct si_bootmenu){};
}

/* Read a text file of the target, 0 with *ret NULL when it is missing (or not a file). */
static int read_text(struct seinstall_ctx *ctx, const char *path, char **ret, size_t *ret_len)
{
        int r = si_root_read_file(ctx, path, SI_TEXT_FILE_MAX, ret, ret_len);

        if (r == -ENOENT || r == -ENOTDIR || r == -EISDIR) {
                *ret = NULL;
                return 0;
        }
        if (r < 0)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root, path,
                                si_strerror(ctx, r));
        return 1;
}

/* saved_entry= of the grubenv next to @cfg, or NULL. */
static int grubenv_saved(struct seinstall_ctx *ctx, const char *cfg, char **ret)
{
        _cleanup_free_ char *env = NULL, *dir = strdup(cfg), *text = NULL;
        const char *pos, *end, *line, *v;
        size_t len = 0, ll;
        int r;

        *ret = NULL;
        if (!dir)
                return -ENOMEM;
        *strrchr(dir, '/') = '\0';
        env = path_join(dir, "grubenv");
        if (!env)
                return -ENOMEM;
        r = read_text(ctx, env, &text, &len);
        if (r <= 0)
                return r;
        pos = text;
        end = text + len;
        while (next_line(&pos, end, &line, &ll))
                if (ll > 12 && strncmp(line, "saved_entry=", 12) == 0) {
                        v = line + 12;
                        free(*ret);
                        *ret = strndup(v, ll - 12);
                        if (!*ret)
                                return -ENOMEM;
                }
        return 0;
}

/* Parse grub.cfg @path into @m. 1 when it is a menu (entries or blscfg), 0 when it is missing
 * or holds none (an EFI stub that reads another grub.cfg). */
static int read_grubcfg(struct seinstall_ctx *ctx, const char *path, struct si_bootmenu *m)
{
        _cleanup_free_ char *text = NULL, *saved = NULL;
        struct si_grubcfg_entry e = {};
        size_t len = 0;
        int r = read_text(ctx, path, &text, &len);

        if (r <= 0)
                return r;
        r = grubenv_saved(ctx, path, &saved);
        if (r < 0)
                return r;
        r = si_grubcfg_default(text, len, saved, &e);
        if (r == -ENOENT)
                return 0;
        if (r < 0) /* -EMEDIUMTYPE: blscfg, the BLS entries are the menu */
                return r;
        m->file = strdup(path);
        if (!m->file) {
                si_grubcfg_entry_done(&e);
                return -ENOMEM;
        }
        m->entry = TAKE_PTR(e.title);
        /* (a format without %s ignores the argument) */
        m->chosen = str_printf(si_tr(ctx, e.chosen_fmt), e.chosen_arg);
        m->cmdline = TAKE_PTR(e.cmdline);
        si_grubcfg_entry_done(&e);
        if (!m->chosen)
                return -ENOMEM;
        if (!m->cmdline)
                m->unknown =
                    m->entry ? str_printf(si_tr(ctx, "%s's default entry %s has no linux line"),
                                          path, m->entry)
                             : str_printf(si_tr(ctx, "%s's default entry has no linux line"), path);
        return !m->cmdline && !m->unknown ? -ENOMEM : 1;
}

/* The grub.cfg of @dir's EFI boot loaders (dir/NAME/grub.cfg) that holds a menu. */
static int read_efi_grubcfg(struct seinstall_ctx *ctx, const char *dir, struct si_bootmenu *m)
{
        char **names = NULL;
        size_t n = 0;
        int r = si_root_list(ctx, dir, NULL, NULL, &names, &n);

        for (size_t i = 0; r == 0 && i < n; i++) {
                _cleanup_free_ char *cfg = path_join(names[i], "grub.cfg");
                r = cfg ? read_grubcfg(ctx, cfg, m) : -ENOMEM;
        }
        si_strv_free(names, n);
        return r;
}

static int read_grub(struct seinstall_ctx *ctx, struct si_bootmenu *m)
{
        static const char *const efi[] = {"/boot/efi/EFI", "/efi/EFI"};
        static const char *const bios[] = {"/boot/grub/grub.cfg", "/boot/grub2/grub.cfg"};
        int r = 0;

        m->grub = true;
        for (size_t i = 0; r == 0 && i < ELEMENTSOF(efi); i++)
                r = read_efi_grubcfg(ctx, efi[i], m);
        for (size_t i = 0; r == 0 && i < ELEMENTSOF(bios); i++)
                r = read_grubcfg(ctx, bios[i], m);
        if (r == 0)
                m->unknown = strdup(si_tr(ctx, "no grub.cfg with a menu entry "
                                               "(/boot/grub/grub.cfg): GRUB's install writes it "
                                               "from /etc/default/grub"));
        else if (r == -EMEDIUMTYPE)
                return 0; /* blscfg: the BLS entries are the menu */
        return r < 0 ? r : m->unknown || m->cmdline ? 1 : -ENOMEM;
}

/* The first SELinux argument on which @a and @b differ, or NULL. */
static const char *first_difference(const char *a, const char *b)
{
        for (size_t i = 0; i < ELEMENTSOF(selinux_args); i++) {
                _cleanup_free_ char *va = si_cmdline_get(a, selinux_args[i]);
                _cleanup_free_ char *vb = si_cmdline_get(b, selinux_args[i]);
                if (!streq_ptr(va, vb))
                        return selinux_args[i];
        }
        return NULL;
}

/* NAME=VALUE as @cmdline has it ("security=selinux", a bare "selinux" without a value), or
 * NULL when it has no NAME (*ret_absent then true) or memory ran out. */
static char *arg_text(const char *cmdline, const char *name, bool *ret_absent)
{
        _cleanup_free_ char *v = si_cmdline_get(cmdline, name);

        *ret_absent = !v;
        if (!v)
                return NULL;
        return str_printf("%s%s%s", name, *v ? "=" : "", v);
}

/* What brings the menu up to its configuration. */
static char *lag_fix(struct seinstall_ctx *ctx, const struct si_bootmenu *m)
{
        _cleanup_free_ char *regen = NULL;

        if (m->uki)
                return strdup(si_tr(ctx,
                                    "build the image again so that it takes /etc/kernel/cmdline "
                                    "(kernel-install add, or the tool that built it): its command "
                                    "line is built in"));
        if (!m->grub)
                return shell_command(
                    ctx->root,
                    si_tr(ctx, "edit its options line, or run seinstall apply%r --mode M "
                               "with the mode wanted (it edits every entry)"));
        regen = startswith(m->file, "/boot/grub/") ? strdup("update-grub")
                                                   : str_printf("grub-mkconfig -o %s", m->file);
        if (!regen)
                return NULL;
        if (streq(ctx->root, "/"))
                return shell_command(ctx->root,
                                     si_tr(ctx, "run %s, or seinstall apply --regenerate"), regen);
        return shell_command(ctx->root,
                             si_tr(ctx, "run chroot %q %s, or seinstall apply%r --regenerate"),
                             ctx->root, regen);
}

static int compute_lag(struct seinstall_ctx *ctx, struct si_bootmenu *m)
{
        /* Whole sentences for the translators, by what each side has: [grub][case], case 0 both
         * an argument, 1 the menu none, 2 the defaults none. */
        static const char *const lags[2][3] = {
            {/* TRANSLATORS: the configuration file, an argument of the kernel (name=value), the
              * boot entry's file, its argument, then what to run */
             N_("%s says %s but %s has %s: %s"),
             /* TRANSLATORS: the configuration file, an argument (name=value), the boot entry's
              * file, the argument's name, what to run */
             N_("%s says %s but %s has no %s=: %s"),
             /* TRANSLATORS: the configuration file, an argument's name, the boot entry's file,
              * its argument (name=value), what to run */
             N_("%s has no %s= but %s has %s: %s")},
            {/* TRANSLATORS: GRUB's defaults file, an argument of the kernel (name=value), the
              * boot menu's file (grub.cfg), the argument its default entry has, what to run */
             N_("%s says %s but %s's default entry has %s: %s"),
             /* TRANSLATORS: as above; the fourth is the argument's name */
             N_("%s says %s but %s's default entry has no %s=: %s"),
             /* TRANSLATORS: as above; the second is the argument's name */
             N_("%s has no %s= but %s's default entry has %s: %s")},
        };
        _cleanup_free_ char *says = NULL, *has = NULL, *fix = NULL;
        bool says_none, has_none;
        const char *name;
        int c;

        if (!m->config_cmdline || !m->cmdline || !m->config_file)
                return 0;
        name = first_difference(m->config_cmdline, m->cmdline);
        if (!name)
                return 0;
        says = arg_text(m->config_cmdline, name, &says_none);
        has = arg_text(m->cmdline, name, &has_none);
        fix = lag_fix(ctx, m);
        if ((!says && !says_none) || (!has && !has_none) || !fix)
                return -ENOMEM;
        /* they differ on @name: at most one side lacks it */
        c = says_none ? 2 : has_none ? 1 : 0;
        m->lag = str_printf(si_tr(ctx, lags[m->grub][c]), m->config_file, says ? says : name,
                            m->file, has ? has : name, fix);
        return m->lag ? 0 : -ENOMEM;
}

/* The BLS entries as the menu: the first whose options differ from the configuration's on a
 * SELinux argument, else the first. */
static int read_bls(struct seinstall_ctx *ctx, struct si_bootmenu *m)
{
        char **entries = NULL;
        size_t n = 0;
        int r = si_bls_entries(ctx, &entries, &n);

        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_free_ char *text = NULL;
                struct sbuf opts = {};
                size_t len = 0;
                bool differs;

                r = read_text(ctx, entries[i], &text, &len);
                if (r <= 0)
                        continue;
                r = si_bls_cmdline(text, len, &opts);
                if (r >= 0)
                        r = sbuf_puts(&opts, "");
                differs =
                    r >= 0 && m->config_cmdline && first_difference(m->config_cmdline, opts.s);
                if (r >= 0 && (!m->file || differs)) {
                        free(m->file);
                        free(m->cmdline);
                        m->file = strdup(entries[i]);
                        m->cmdline = sbuf_steal(&opts);
                        if (!m->file || !m->cmdline)
                                r = -ENOMEM;
                }
                sbuf_free(&opts);
                if (differs)
                        break;
        }
        si_strv_free(entries, n);
        if (r >= 0 && m->file) {
                free(m->chosen);
                m->chosen = strdup(n > 1 ? si_tr(ctx, "every entry checked")
                                         : si_tr(ctx, "the only entry"));
                r = m->chosen ? 1 : -ENOMEM;
        }
        return r < 0 ? r : m->file ? 1 : 0;
}

/* ---- unified kernel images: the command line built into them ---------------------------- */

#define PE_HEAD_MAX    65536u /* the headers and section table of any real image */
#define PE_SECTION_MAX 65536u /* a .cmdline larger than this is no kernel command line */

static uint32_t le32(const unsigned char *p)
{
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
               (uint32_t) p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
        return (uint16_t) (p[0] | p[1] << 8);
}

int si_pe_section(const unsigned char *head, size_t len, const char *name, uint64_t *ret_offset,
                  uint32_t *ret_size)
{
        size_t pe, sections, n, namelen = strlen(name);

        if (len < 64 || head[0] != 'M' || head[1] != 'Z' || namelen > 8)
                return -EBADMSG;
        pe = le32(head + 0x3c);
        if (pe > len || len - pe < 24 || memcmp(head + pe, "PE\0\0", 4) != 0)
                return -EBADMSG;
        n = le16(head + pe + 6);
        sections = pe + 24 + le16(head + pe + 20);
        if (sections > len || (len - sections) / 40 < n)
                return -EBADMSG;
        for (size_t i = 0; i < n; i++) {
                const unsigned char *sh = head + sections + i * 40;
                if (memcmp(sh, name, namelen) != 0 || (namelen < 8 && sh[namelen] != '\0'))
                        continue;
                /* VirtualSize is the content's, SizeOfRawData the file alignment's */
                *ret_size =
                    le32(sh + 8) && le32(sh + 8) < le32(sh + 16) ? le32(sh + 8) : le32(sh + 16);
                *ret_offset = le32(sh + 20);
                return 0;
        }
        return -ENOENT;
}

/* The .cmdline of the unified kernel image @path, or NULL (not one, none, unreadable). */
static int uki_cmdline(struct seinstall_ctx *ctx, const char *path, char **ret)
{
        _cleanup_close_ int fd = si_root_open_regular(ctx, path, true);
        _cleanup_free_ unsigned char *head = NULL;
        _cleanup_free_ char *text = NULL;
        uint64_t off;
        uint32_t size;
        ssize_t n;
        const char *t;
        size_t tl;

        *ret = NULL;
        if (fd < 0)
                return 0;
        head = malloc(PE_HEAD_MAX);
        if (!head)
                return -ENOMEM;
        n = pread(fd, head, PE_HEAD_MAX, 0);
        if (n <= 0 || si_pe_section(head, (size_t) n, ".cmdline", &off, &size) < 0 || size == 0 ||
            size > PE_SECTION_MAX)
                return 0;
        text = malloc((size_t) size + 1);
        if (!text)
                return -ENOMEM;
        n = pread(fd, text, size, (off_t) off);
        if (n <= 0)
                return 0;
        text[n] = '\0';
        t = text;
        tl = strip_range(&t, strnlen(text, (size_t) n));
        while (tl > 0 && (t[tl - 1] == '\n' || t[tl - 1] == '\0'))
                tl--;
        *ret = strndup(t, tl);
        return *ret ? 1 : -ENOMEM;
}

/* The unified kernel images in EFI/Linux (where systemd-boot finds them) as the menu: the
 * first whose command line differs from the configuration's on a SELinux argument, else the
 * first (by name). */
static int read_uki(struct seinstall_ctx *ctx, struct si_bootmenu *m)
{
        static const char *const dirs[] = {"/boot/efi/EFI/Linux", "/efi/EFI/Linux",
                                           "/boot/EFI/Linux"};
        int r = 0;

        for (size_t d = 0; r >= 0 && d < ELEMENTSOF(dirs); d++) {
                char **names = NULL;
                size_t n = 0;
                r = si_root_list(ctx, dirs[d], NULL, ".efi", &names, &n);
                for (size_t i = 0; r >= 0 && i < n; i++) {
                        _cleanup_free_ char *c = NULL;
                        bool differs;
                        r = uki_cmdline(ctx, names[i], &c);
                        if (r <= 0)
                                continue;
                        differs = m->config_cmdline && first_difference(m->config_cmdline, c);
                        if (!m->file || differs) {
                                free(m->file);
                                free(m->cmdline);
                                m->file = strdup(names[i]);
                                m->cmdline = TAKE_PTR(c);
                                if (!m->file)
                                        r = -ENOMEM;
                        }
                        if (differs)
                                break;
                }
                si_strv_free(names, n);
                if (r >= 0 && m->file)
                        break;
        }
        if (r >= 0 && m->file) {
                m->uki = true;
                m->chosen = strdup(si_tr(ctx, "its .cmdline; every unified kernel image checked"));
                return m->chosen ? 1 : -ENOMEM;
        }
        return r < 0 ? r : 0;
}

static const char *config_file_of(enum seinstall_bootloader bl)
{
        switch (bl) {
        case SEINSTALL_BOOTLOADER_GRUB:
                return "/etc/default/grub";
        case SEINSTALL_BOOTLOADER_KERNEL_CMDLINE:
                return "/etc/kernel/cmdline";
        default:
                return NULL;
        }
}

int si_bootmenu_read(struct seinstall_ctx *ctx, struct si_bootmenu *ret)
{
        struct si_bootmenu m = {};
        const char *cf;
        int r;

        r = si_bootcmd_read(ctx, &m.config_cmdline, &m.bl);
        cf = config_file_of(m.bl);
        if (r >= 0 && cf && !(m.config_file = strdup(cf)))
                r = -ENOMEM;
        if (r >= 0 && m.bl == SEINSTALL_BOOTLOADER_GRUB)
                r = read_grub(ctx, &m);
        /* grub.cfg with blscfg, /etc/kernel/cmdline (kernel-install), BLS alone */
        if (r == 0 && m.bl != SEINSTALL_BOOTLOADER_NONE) {
                r = read_bls(ctx, &m);
                if (r == 0 && m.bl == SEINSTALL_BOOTLOADER_KERNEL_CMDLINE)
                        r = read_uki(ctx, &m);
                if (r == 0 && m.bl == SEINSTALL_BOOTLOADER_KERNEL_CMDLINE)
                        m.unknown =
                            strdup(si_tr(ctx, "no boot loader entry in /boot/loader/entries and no "
                                              "unified kernel image in EFI/Linux: kernel-install "
                                              "reads /etc/kernel/cmdline when a kernel is "
                                              "installed"));
                else if (r == 0 && m.grub)
                        m.unknown =
                            strdup(si_tr(ctx, "grub.cfg runs blscfg but there is no boot loader "
                                              "entry in /boot/loader/entries"));
                if (r == 0 && !m.unknown)
                        r = -ENOMEM;
        }
        /* BLS entries alone are their own configuration: no other file to lag behind */
        if (r >= 0)
                r = compute_lag(ctx, &m);
        if (r < 0) {
                si_bootmenu_done(&m);
                return r;
        }
        *ret = m;
        return 0;
}
