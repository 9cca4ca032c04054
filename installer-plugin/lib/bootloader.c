/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootloader.c — the boot loader forms of a target and their files: which exist (for
 * --bootloader auto), reading the command line they give the kernel, and writing the edits
 * cmdline-files.c computes. GRUB's defaults are /etc/default/grub followed by the
 * /etc/default/grub.d/ *.cfg it sources; BLS entries live in /boot, /efi or /boot/efi.
 */
#include <fcntl.h>

#include "cmdline.h"

static const char *const bls_dirs[] = {"/boot/loader/entries", "/efi/loader/entries",
                                       "/boot/efi/loader/entries"};

/* A file of the target read whole; text NULL when it does not exist. */
struct tfile {
        char *path;
        char *text;
        size_t len;
        char *new; /* edited text, NULL when unchanged */
};

static void tfiles_free(struct tfile *f, size_t n)
{
        for (size_t i = 0; f && i < n; i++) {
                free(f[i].path);
                free(f[i].text);
                free(f[i].new);
        }
        free(f);
}

/* Read @f; @edit: it may be replaced, so a symlink there is refused rather than read through
 * (reading only, the link is followed inside the target as the boot loader's tools do). */
static int read_tfile(struct seinstall_ctx *ctx, struct tfile *f, bool edit)
{
        int r = edit ? si_root_read_replaced(ctx, f->path, SI_TEXT_FILE_MAX, &f->text, &f->len)
                     : si_root_read_file(ctx, f->path, SI_TEXT_FILE_MAX, &f->text, &f->len);

        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return si_error(ctx, r, "Could not read %s%s: %s", ctx->root, f->path,
                                si_strerror(ctx, r));
        if (memchr(f->text, '\0', f->len)) {
                free(f->text); /* the caller frees only the files it keeps */
                f->text = NULL;
                return si_error(ctx, -EBADMSG, "%s%s is not a text file: leaving it alone",
                                ctx->root, f->path);
        }
        return 1;
}

/* GRUB's defaults files that exist, /etc/default/grub first. */
static int grub_files(struct seinstall_ctx *ctx, struct tfile **ret, size_t *ret_n, bool edit)
{
        char **cfgs = NULL;
        size_t ncfg = 0, n = 0;
        struct tfile *files;
        int r;

        r = si_root_list(ctx, "/etc/default/grub.d", NULL, ".cfg", &cfgs, &ncfg);
        if (r < 0)
                return si_error(ctx, r, "Could not list %s/etc/default/grub.d: %s", ctx->root,
                                si_strerror(ctx, r));
        files = calloc(ncfg + 1, sizeof(*files));
        if (!files) {
                si_strv_free(cfgs, ncfg);
                return -ENOMEM;
        }
        for (size_t i = 0; r >= 0 && i <= ncfg; i++) {
                files[n].path = i == 0 ? strdup("/etc/default/grub") : TAKE_PTR(cfgs[i - 1]);
                if (!files[n].path) {
                        r = -ENOMEM;
                        break;
                }
                r = read_tfile(ctx, &files[n], edit);
                if (r > 0)
                        n++;
                else {
                        free(files[n].path);
                        files[n].path = NULL;
                }
        }
        si_strv_free(cfgs, ncfg);
        /* grub.d snippets without /etc/default/grub: not a GRUB target */
        if (r >= 0 && n > 0 && !streq(files[0].path, "/etc/default/grub")) {
                tfiles_free(files, n);
                files = NULL;
                n = 0;
        }
        if (r < 0) {
                tfiles_free(files, n);
                return r;
        }
        *ret = files;
        *ret_n = n;
        return 0;
}

static int write_reported(struct seinstall_ctx *ctx, const char *path, const char *text,
                          unsigned wflags, struct sbuf *what, si_report_fn report, void *userdata)
{
        int r = si_root_write_atomic(ctx, path, text, strlen(text), 0644, wflags);

        if (r < 0)
                return si_error(ctx, r, "Could not write %s%s: %s", ctx->root, path,
                                si_strerror(ctx, r));
        return report ? report(userdata, path, what->s ? what->s : "rewritten") : 0;
}

static int grub_bad(struct seinstall_ctx *ctx, const char *path, unsigned line)
{
        return si_error(ctx, -EBADMSG,
                        "%s%s:%u: cannot edit this GRUB_CMDLINE_LINUX safely (a value spanning "
                        "lines, built from other shell words, with an unbalanced '\"', or with a "
                        "SELinux argument whose value keeps a '\"'): put the kernel arguments "
                        "there by hand, or use --bootloader none",
                        ctx->root, path, line);
}

/* A BLS entry's options line (@line from 1) or /etc/kernel/cmdline (@line 0: the whole file). */
static int cmdline_bad(struct seinstall_ctx *ctx, const char *path, unsigned line)
{
        if (line == 0)
                return si_error(ctx, -EBADMSG,
                                "%s%s: cannot edit this kernel command line safely (an "
                                "unbalanced '\"', or a SELinux argument whose value keeps a "
                                "'\"'): put the kernel arguments there by hand, or use "
                                "--bootloader none",
                                ctx->root, path);
        return si_error(ctx, -EBADMSG,
                        "%s%s:%u: cannot edit this kernel command line safely (an unbalanced "
                        "'\"', or a SELinux argument whose value keeps a '\"'): put the kernel "
                        "arguments there by hand, or use --bootloader none",
                        ctx->root, path, line);
}

static int grub_join(struct seinstall_ctx *ctx, struct tfile *f, size_t n, bool edited,
                     struct sbuf *out)
{
        int r = 0;

        for (size_t i = 0; r >= 0 && i < n; i++) {
                const char *t = edited && f[i].new ? f[i].new : f[i].text;
                struct sbuf one = {};
                unsigned line = 0;
                r = si_grub_cmdline(t, strlen(t), &one, &line);
                if (r == -EBADMSG)
                        r = grub_bad(ctx, f[i].path, line);
                if (r >= 0 && one.len)
                        r = sbuf_printf(out, "%s%s", out->len ? " " : "", one.s);
                sbuf_free(&one);
        }
        if (r >= 0)
                r = sbuf_puts(out, "");
        return r;
}

static int apply_grub(struct seinstall_ctx *ctx, const struct si_cmdline_goal *goal,
                      unsigned wflags, si_report_fn report, void *userdata, bool *ret_found,
                      bool *ret_changed)
{
        struct tfile *f = NULL;
        struct sbuf all = {}, fixed_all = {}, *what = NULL;
        _cleanup_free_ char *add = NULL;
        size_t n = 0, primary = 0;
        unsigned line = 0;
        int r;

        r = grub_files(ctx, &f, &n, true);
        if (r < 0)
                return r;
        *ret_found = n > 0;
        what = calloc(n ? n : 1, sizeof(*what));
        if (!what)
                r = -ENOMEM;
        if (r >= 0)
                r = grub_join(ctx, f, n, false, &all);
        /* Pass 1: removals and fixes in every file; pass 2: additions where the effective
         * GRUB_CMDLINE_LINUX is assigned (the last file that assigns it). */
        for (size_t i = 0; r >= 0 && i < n; i++) {
                r = si_grub_edit(f[i].text, f[i].len, goal, all.s, NULL, &f[i].new, &line,
                                 &what[i]);
                if (r == -EBADMSG)
                        r = grub_bad(ctx, f[i].path, line);
        }
        if (r >= 0)
                r = grub_join(ctx, f, n, true, &fixed_all);
        if (r >= 0)
                r = si_cmdline_missing(fixed_all.s, goal, &add);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                const char *t = f[i].new ? f[i].new : f[i].text;
                if (si_grub_has_cmdline_linux(t, strlen(t)))
                        primary = i;
        }
        if (r >= 0 && n > 0 && *add) {
                const char *t = f[primary].new ? f[primary].new : f[primary].text;
                char *again = NULL;
                r = si_grub_edit(t, strlen(t), goal, fixed_all.s, add, &again, &line,
                                 &what[primary]);
                if (r == -EBADMSG)
                        r = grub_bad(ctx, f[primary].path, line);
                if (again) {
                        free(f[primary].new);
                        f[primary].new = again;
                }
        }
        for (size_t i = 0; r >= 0 && i < n; i++)
                if (f[i].new) {
                        r = write_reported(ctx, f[i].path, f[i].new, wflags, &what[i], report,
                                           userdata);
                        *ret_changed = true;
                }
        for (size_t i = 0; what && i < n; i++)
                sbuf_free(&what[i]);
        free(what);
        sbuf_free(&all);
        sbuf_free(&fixed_all);
        tfiles_free(f, n);
        return r;
}

/* Every BLS entry of the target, in its directories' order. */
int si_bls_entries(struct seinstall_ctx *ctx, char ***ret, size_t *ret_n)
{
        char **all = NULL;
        size_t n = 0, cap = 0;
        int r = 0;

        for (size_t d = 0; r >= 0 && d < ELEMENTSOF(bls_dirs); d++) {
                char **names = NULL;
                size_t k = 0;
                r = si_root_list(ctx, bls_dirs[d], NULL, ".conf", &names, &k);
                if (r < 0) {
                        r = si_error(ctx, r, "Could not list %s%s: %s", ctx->root, bls_dirs[d],
                                     si_strerror(ctx, r));
                        break;
                }
                if (k == 0)
                        continue;
                if (!SI_GROW(all, cap, n + k)) {
                        si_strv_free(names, k);
                        r = -ENOMEM;
                        break;
                }
                memcpy(all + n, names, k * sizeof(*names));
                free(names);
                n += k;
        }
        if (r < 0) {
                si_strv_free(all, n);
                return r;
        }
        *ret = all;
        *ret_n = n;
        return 0;
}

/* Edit one self-contained file (a BLS entry or /etc/kernel/cmdline). 0 when it is missing. */
static int apply_one(struct seinstall_ctx *ctx, const char *path, bool bls,
                     const struct si_cmdline_goal *goal, unsigned wflags, si_report_fn report,
                     void *userdata, bool *ret_found)
{
        struct tfile f = {.path = (char *) path};
        struct sbuf what = {};
        unsigned line = 0;
        int r;

        r = read_tfile(ctx, &f, true);
        if (r <= 0)
                return r;
        *ret_found = true;
        r = bls ? si_bls_edit(f.text, f.len, goal, &f.new, &line, &what)
                : si_kernel_cmdline_edit(f.text, f.len, goal, &f.new, &line, &what);
        if (r == -EBADMSG)
                r = cmdline_bad(ctx, path, line);
        if (r >= 0 && f.new)
                r = write_reported(ctx, path, f.new, wflags, &what, report, userdata);
        sbuf_free(&what);
        free(f.text);
        free(f.new);
        return r;
}

int si_bootcmd_apply(struct seinstall_ctx *ctx, enum seinstall_bootloader bl,
                     const struct si_cmdline_goal *goal, unsigned wflags, si_report_fn report,
                     void *userdata, unsigned *ret_found, bool *ret_grub_changed)
{
        unsigned found = 0;
        bool any, grub_changed = false;
        int r = 0;

        if (bl == SEINSTALL_BOOTLOADER_NONE) {
                *ret_found = 0;
                *ret_grub_changed = false;
                return 0;
        }
        if (bl == SEINSTALL_BOOTLOADER_AUTO || bl == SEINSTALL_BOOTLOADER_GRUB) {
                any = false;
                r = apply_grub(ctx, goal, wflags, report, userdata, &any, &grub_changed);
                if (r < 0)
                        return r;
                if (any)
                        found |= 1u << SEINSTALL_BOOTLOADER_GRUB;
                else if (bl == SEINSTALL_BOOTLOADER_GRUB)
                        return si_error(ctx, -ENOENT,
                                        "%s/etc/default/grub does not exist: is GRUB installed "
                                        "in the target? (--bootloader auto finds what is there)",
                                        ctx->root);
        }
        if (bl == SEINSTALL_BOOTLOADER_AUTO || bl == SEINSTALL_BOOTLOADER_BLS) {
                char **entries = NULL;
                size_t n = 0;
                r = si_bls_entries(ctx, &entries, &n);
                for (size_t i = 0; r >= 0 && i < n; i++) {
                        any = false;
                        r = apply_one(ctx, entries[i], true, goal, wflags, report, userdata, &any);
                        if (any)
                                found |= 1u << SEINSTALL_BOOTLOADER_BLS;
                }
                si_strv_free(entries, n);
                if (r < 0)
                        return r;
                if (bl == SEINSTALL_BOOTLOADER_BLS && !(found & (1u << SEINSTALL_BOOTLOADER_BLS)))
                        return si_error(ctx, -ENOENT,
                                        "No boot loader entries in %s/boot/loader/entries (nor "
                                        "/efi, /boot/efi): is a BLS boot loader installed?",
                                        ctx->root);
        }
        if (bl == SEINSTALL_BOOTLOADER_AUTO || bl == SEINSTALL_BOOTLOADER_KERNEL_CMDLINE) {
                any = false;
                r = apply_one(ctx, "/etc/kernel/cmdline", false, goal, wflags, report, userdata,
                              &any);
                if (r < 0)
                        return r;
                if (any)
                        found |= 1u << SEINSTALL_BOOTLOADER_KERNEL_CMDLINE;
                else if (bl == SEINSTALL_BOOTLOADER_KERNEL_CMDLINE)
                        return si_error(ctx, -ENOENT,
                                        "%s/etc/kernel/cmdline does not exist: create it with "
                                        "the target's kernel arguments first",
                                        ctx->root);
        }
        *ret_found = found;
        *ret_grub_changed = grub_changed;
        return 0;
}

int si_bootcmd_read(struct seinstall_ctx *ctx, char **ret, enum seinstall_bootloader *ret_bl)
{
        struct tfile *f = NULL;
        size_t n = 0;
        struct sbuf out = {};
        int r;

        *ret = NULL;
        *ret_bl = SEINSTALL_BOOTLOADER_NONE;
        r = grub_files(ctx, &f, &n, false);
        if (r >= 0 && n > 0) {
                r = grub_join(ctx, f, n, false, &out);
                if (r >= 0)
                        *ret_bl = SEINSTALL_BOOTLOADER_GRUB;
        }
        tfiles_free(f, n);
        if (r >= 0 && *ret_bl == SEINSTALL_BOOTLOADER_NONE) {
                struct tfile k = {.path = (char *) "/etc/kernel/cmdline"};
                r = read_tfile(ctx, &k, false);
                if (r > 0) {
                        r = sbuf_puts(&out, k.text);
                        *ret_bl = SEINSTALL_BOOTLOADER_KERNEL_CMDLINE;
                }
                free(k.text);
        }
        if (r >= 0 && *ret_bl == SEINSTALL_BOOTLOADER_NONE) {
                char **entries = NULL;
                size_t ne = 0;
                r = si_bls_entries(ctx, &entries, &ne);
                if (r >= 0 && ne > 0) {
                        struct tfile e = {.path = entries[0]};
                        r = read_tfile(ctx, &e, false);
                        if (r > 0) {
                                r = si_bls_cmdline(e.text, e.len, &out);
                                *ret_bl = SEINSTALL_BOOTLOADER_BLS;
                        }
                        free(e.text);
                }
                si_strv_free(entries, ne);
        }
        if (r < 0) {
                sbuf_free(&out);
                *ret_bl = SEINSTALL_BOOTLOADER_NONE;
                return r;
        }
        if (*ret_bl != SEINSTALL_BOOTLOADER_NONE) {
                *ret = sbuf_steal(&out);
                if (!*ret)
                        return -ENOMEM;
        }
        return 0;
}
