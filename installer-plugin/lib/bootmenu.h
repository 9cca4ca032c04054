/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bootmenu.h — the boot menu as the boot loader reads it (bootmenu.c) and the default entry of
 * a grub.cfg (grubcfg.c): what the next boot really gets, beside what the boot loader's
 * configuration says it should get. Not installed. */
#ifndef SEINSTALL_BOOTMENU_H
#define SEINSTALL_BOOTMENU_H

#include "seinstall-private.h"

/* The default entry of a grub.cfg. */
struct si_grubcfg_entry {
        char *title;   /* its title, NULL when it has none */
        char *cmdline; /* the arguments after the kernel on its linux line; NULL: no linux line */
        /* how it was chosen, for people: a format (static, marked for translation, in
         * English) with one %s for @chosen_arg or none: "the first menuentry", "saved_entry
         * '%s' of grubenv", "set default=\"%s\"" */
        const char *chosen_fmt;
        char *chosen_arg; /* the format's argument (the saved or default entry), or NULL */
};
/* Find the default entry of the grub.cfg text @text: the last `set default=` outside the menu
 * entries (a one-time next_entry aside), ${saved_entry} read from @saved (grubenv's
 * saved_entry, NULL when none), an index, title or id per submenu level ("1>2"); the first entry
 * when it names none, as GRUB does. Returns 0 and *ret (free with si_grubcfg_entry_done()),
 * -ENOENT when the text has no menu entry, -EMEDIUMTYPE when it has none but runs blscfg (the
 * entries are the BLS ones), -EBADMSG for braces nested too deep, -E2BIG, -ENOMEM. */
int si_grubcfg_default(const char *text, size_t len, const char *saved,
                       struct si_grubcfg_entry *ret);
void si_grubcfg_entry_done(struct si_grubcfg_entry *e);

/* The section @name (".cmdline") of the PE image whose first @len bytes are @head (a unified
 * kernel image): 0 with its file offset and size, -ENOENT when it has none, -EBADMSG when @head
 * is no PE image or its section table lies beyond @len. */
int si_pe_section(const unsigned char *head, size_t len, const char *name, uint64_t *ret_offset,
                  uint32_t *ret_size);

/* The target's boot menu beside its configuration. */
struct si_bootmenu {
        enum seinstall_bootloader bl; /* the configuration's form (si_bootcmd_read()) */
        char *config_file;            /* the file that configuration is read from, or NULL */
        char *config_cmdline;         /* and its command line, or NULL */
        char *file;                   /* the menu file read (target path), NULL: none found */
        char *entry;                  /* the default entry (a grub.cfg title, a BLS file) */
        char *chosen;                 /* how that entry was chosen, or NULL */
        char *cmdline; /* what that entry gives the kernel; NULL: cannot tell (see @unknown) */
        char *unknown; /* why the menu says nothing of the next boot, a sentence; or NULL */
        char *lag;     /* the first SELinux argument on which menu and configuration differ,
                        * and what to run, a sentence; NULL when they agree or cannot tell */
        bool grub;     /* the menu is a grub.cfg that update-grub (or grub-mkconfig) writes */
        bool uki;      /* the menu is unified kernel images, their command line built in */
};
/* Read the configuration (si_bootcmd_read()), then the menu made from it: GRUB's grub.cfg (an
 * EFI one under /boot/efi/EFI/ or /efi/EFI/ when it holds the menu itself, else
 * /boot/grub/grub.cfg, /boot/grub2/grub.cfg) and its grubenv, the BLS entries when grub.cfg
 * runs blscfg or when the configuration is /etc/kernel/cmdline (else, for it, the .cmdline of
 * the unified kernel images in EFI/Linux); the BLS entries are their own menu. Every file is read
 * inside the target, bounded. Returns 0 with *ret filled (free with si_bootmenu_done()), -errno as
 * si_bootcmd_read(). */
int si_bootmenu_read(struct seinstall_ctx *ctx, struct si_bootmenu *ret);
void si_bootmenu_done(struct si_bootmenu *m);

#endif
