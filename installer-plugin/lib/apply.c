/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply.c — seinstall_apply(): make a target boot in a chosen mode. Ties the configure stage
 * together in a safe order: a pending relabel first, the kernel command line, the first-boot
 * mark, the boot loader's regeneration, and the config that enables SELinux last (first when
 * it lowers the mode), so a failure part way never leaves a target that boots more enforcing
 * than either the old or the new state on files it has not labeled. A dry run
 * (SEINSTALL_APPLY_DRY_RUN) is the same run with the writes skipped where they happen
 * (rootfs-write.c, told by SI_WRITE_DRY_RUN), so what it reports and what a real run writes cannot
 * differ. The trial mode (SEINSTALL_MODE_TRIAL, SI_APPLY_TRIAL here) is enforcing deferred like a
 * pending relabel defers it: the config says permissive, the trial state (trial.c) and its unit
 * take it from there.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include "cmdline.h"
#include "apply.h"
#include "stage-options.h"
#include "bootmenu.h"
#include "config.h"
#include "marks.h"
#include "policy.h"
#include "sandbox.h"
#include "settings.h"
#include "trial.h"

struct change {
        char *file;
        char *what;
};

struct seinstall_apply_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        struct change *changes;
        size_t n_changes, cap_changes;
        char **todo;
        size_t n_todo, cap_todo;
        enum seinstall_mode config_mode;
        char *policy;
        enum seinstall_kernel_case kcase;
        bool relabel;
        bool trial;
        bool dry_run;         /* nothing was written: the changes are what a run would make */
        unsigned bootloaders; /* 1 << enum seinstall_bootloader */
};

static void apply_result_free(struct seinstall_apply_result *r)
{
        for (size_t i = 0; i < r->n_changes; i++) {
                free(r->changes[i].file);
                free(r->changes[i].what);
        }
        free(r->changes);
        si_strv_free(r->todo, r->n_todo);
        free(r->policy);
        free(r);
}

SI_DEFINE_PUBLIC_REF_UNREF(seinstall_apply_result, seinstall_apply_result, apply_result_free);

static int add_change(void *userdata, const char *file, const char *what)
{
        struct seinstall_apply_result *res = userdata;
        struct change *c;

        if (!SI_GROW(res->changes, res->cap_changes, res->n_changes + 1))
                return -ENOMEM;
        c = &res->changes[res->n_changes];
        c->file = strdup(file);
        c->what = strdup(what);
        if (!c->file || !c->what) {
                free(c->file);
                free(c->what);
                return -ENOMEM;
        }
        res->n_changes++;
        return 0;
}

/* A to-do in the language @ctx asks for (si_tr()). */
static int add_todo(const struct seinstall_ctx *ctx, struct seinstall_apply_result *res,
                    const char *fmt, ...) _printf_(3, 4);
static int add_todo(const struct seinstall_ctx *ctx, struct seinstall_apply_result *res,
                    const char *fmt, ...)
{
        va_list ap;

        if (!SI_GROW(res->todo, res->cap_todo, res->n_todo + 1))
                return -ENOMEM;
        va_start(ap, fmt);
        res->todo[res->n_todo] = str_vprintf(si_tr(ctx, fmt), ap);
        va_end(ap);
        if (!res->todo[res->n_todo])
                return -ENOMEM;
        res->n_todo++;
        return 0;
}

/* add_todo() of @text (taken over; NULL: out of memory), a shell_command() naming the root. */
static int add_todo_text(struct seinstall_apply_result *res, char *text)
{
        _cleanup_free_ char *t = text;

        return t ? add_todo(NULL, res, "%s", t) : -ENOMEM;
}

static int mode_rank(enum seinstall_mode m)
{
        return m == SEINSTALL_MODE_ENFORCING ? 2 : m == SEINSTALL_MODE_PERMISSIVE ? 1 : 0;
}

static int write_config(struct seinstall_ctx *ctx, struct seinstall_apply_result *res,
                        unsigned wflags)
{
        struct sbuf what = {};
        int r = si_config_write(ctx, res->config_mode, res->policy, wflags, &what);

        if (r > 0)
                r = add_change(res, SI_CONFIG_PATH, what.s);
        sbuf_free(&what);
        return r;
}

/* The file grub.cfg a regeneration command writes: update-grub writes /boot/grub/grub.cfg,
 * the others name it. */
static const char *grub_cfg_of(const char *const *cmd)
{
        return cmd[1] ? cmd[2] : "/boot/grub/grub.cfg";
}

/* The distribution's command that turns GRUB's defaults into grub.cfg, if the target has one.
 * *ret_installed says whether GRUB is installed: the directory of its grub.cfg exists
 * (grub-install makes it). Without it the defaults are there (grub2-common) but no boot
 * menu reads them, and update-grub would only fail for want of the directory. */
static const char *const *grub_regen_command(struct seinstall_ctx *ctx, bool *ret_installed)
{
        static const char *const update_grub[] = {"/usr/sbin/update-grub", NULL};
        static const char *const grub2[] = {"/usr/sbin/grub2-mkconfig", "-o",
                                            "/boot/grub2/grub.cfg", NULL};
        static const char *const grub[] = {"/usr/sbin/grub-mkconfig", "-o", "/boot/grub/grub.cfg",
                                           NULL};
        static const char *const *const all[] = {update_grub, grub2, grub};

        *ret_installed = false;
        for (size_t i = 0; i < ELEMENTSOF(all); i++) {
                _cleanup_close_ int fd = si_root_open(ctx, all[i][0], O_PATH, 0);
                _cleanup_free_ char *dir = NULL;
                if (fd < 0)
                        continue;
                dir = strdup(grub_cfg_of(all[i]));
                if (!dir)
                        return NULL;
                *strrchr(dir, '/') = '\0';
                _cleanup_close_ int dfd = si_root_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
                *ret_installed = dfd >= 0;
                return all[i];
        }
        return NULL;
}

static int regenerate(struct seinstall_ctx *ctx, unsigned flags, struct seinstall_apply_result *res)
{
        bool installed;
        const char *const *cmd = grub_regen_command(ctx, &installed);
        struct sbuf line = {};
        int r = 0;

        for (size_t i = 0; cmd && cmd[i] && r >= 0; i++)
                r = sbuf_printf(&line, "%s%s", i ? " " : "", cmd[i]);
        if (r < 0)
                return r;
        if (cmd && !installed) {
                /* Nothing boots through GRUB yet: its install runs update-grub itself. */
                r = add_todo(ctx, res,
                             "GRUB is not installed (no directory for %s): the new kernel "
                             "command line takes effect when its install runs %s",
                             grub_cfg_of(cmd), line.s);
        } else if ((flags & SEINSTALL_APPLY_REGENERATE) && cmd) {
                /* update-grub replaces it: kept, so that a failure after puts it back */
                r = si_undo_note(ctx, grub_cfg_of(cmd));
                if (r >= 0)
                        r = flags & SEINSTALL_APPLY_DRY_RUN ? 0 : si_run_in_target(ctx, cmd);
                /* the program of the target wrote it unlabeled: label it as rootfs-write.c
                 * would */
                if (r >= 0 && !(flags & SEINSTALL_APPLY_DRY_RUN))
                        r = si_label_path(ctx, grub_cfg_of(cmd));
                if (r >= 0) {
                        _cleanup_free_ char *what = NULL;
                        if (asprintf(&what, si_tr(ctx, "regenerated by %s"), line.s) < 0)
                                r = -ENOMEM;
                        else
                                r = add_change(res, grub_cfg_of(cmd), what);
                }
        } else if (flags & SEINSTALL_APPLY_REGENERATE) {
                r = add_todo(ctx, res,
                             "No update-grub, grub2-mkconfig or grub-mkconfig in the target: "
                             "regenerate its grub.cfg with the tool its GRUB came with");
        } else if (streq(ctx->root, "/")) {
                r = add_todo(ctx, res,
                             "Run %s (or seinstall apply --regenerate) so the boot menu gets "
                             "the new kernel command line",
                             line.s ? line.s : "update-grub (or grub2-mkconfig -o FILE)");
        } else {
                _cleanup_free_ char *run = shell_command(
                    ctx->root, si_tr(ctx, "chroot %q %s, or seinstall apply%r --regenerate"),
                    ctx->root, line.s ? line.s : "update-grub");
                r = !run ? -ENOMEM
                         : add_todo(ctx, res,
                                    "So that the boot menu gets the new kernel command line, "
                                    "run: %s",
                                    run);
        }
        sbuf_free(&line);
        return r;
}

/* Whether the target's grub.cfg lacks what /etc/default/grub says on a SELinux argument: then
 * it must be regenerated even when apply changed none of GRUB's defaults (an earlier apply
 * without --regenerate, an edit by hand). A menu that cannot be read is not called lagging. */
static bool grub_menu_lags(struct seinstall_ctx *ctx)
{
        struct si_bootmenu m = {};
        bool lags = si_bootmenu_read(ctx, &m) >= 0 && m.grub && m.lag;

        si_bootmenu_done(&m);
        return lags;
}

/* Before anything is written: with --regenerate, whether the boot loader's command can run in
 * its sandbox. Where it cannot (no bubblewrap, as in debian-installer's initrd; no user
 * namespaces; a root the kernel cannot idmap), apply writes nothing: GRUB's defaults without
 * the menu made from them would be half an install. */
static int check_regenerate(struct seinstall_ctx *ctx, unsigned flags)
{
        bool installed;
        const char *const *cmd;
        _cleanup_free_ char *why = NULL;
        int r;

        if (!(flags & SEINSTALL_APPLY_REGENERATE) || streq(ctx->root, "/"))
                return 0;
        cmd = grub_regen_command(ctx, &installed);
        if (!cmd || !installed)
                return 0;
        r = si_sandbox_probe(ctx, cmd);
        if (r >= 0)
                return 0;
        why = strdup(seinstall_last_error(ctx) ? seinstall_last_error(ctx) : strerror(-r));
        return si_error(ctx, r,
                        "%s. Nothing was changed. Without --regenerate, seinstall writes the "
                        "configuration and GRUB's defaults and leaves %s to the installer (its "
                        "boot loader step runs it in the target, as debian-installer's "
                        "grub-installer does) or to you: chroot %s %s",
                        why ? why : si_tr(ctx, "the sandbox cannot be made"), cmd[0], ctx->root,
                        cmd[0]);
}

/* The directory @path would be written in (the nearest that exists, in the target) and the
 * mount point above it (the highest directory on the same mount: a mount ID, not st_dev,
 * which a read-only bind of the same filesystem shares), as in-target paths. */
static int nearest_dir(struct seinstall_ctx *ctx, const char *path, int *ret_fd, char **ret_mnt)
{
        _cleanup_free_ char *dir = strdup(path), *mnt = NULL;
        uint64_t id, up;
        char *slash;
        int fd = -ENOENT;

        if (!dir)
                return -ENOMEM;
        while (fd == -ENOENT && (slash = strrchr(dir, '/'))) {
                slash[slash == dir] = '\0';
                fd = si_root_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
        }
        if (fd < 0)
                return fd;
        if (si_fd_mount_id(fd, "", AT_EMPTY_PATH, &id) < 0) {
                close(fd);
                return -EIO;
        }
        mnt = strdup(dir);
        while (mnt && !streq(mnt, "/")) {
                _cleanup_free_ char *parent = strdup(mnt);
                _cleanup_close_ int pfd = -EBADF;

                if (!parent)
                        break;
                slash = strrchr(parent, '/');
                slash[slash == parent] = '\0';
                pfd = si_root_open(ctx, parent, O_PATH | O_DIRECTORY, 0);
                if (pfd < 0 || si_fd_mount_id(pfd, "", AT_EMPTY_PATH, &up) < 0 || up != id)
                        break;
                free(mnt);
                mnt = TAKE_PTR(parent);
        }
        if (!mnt) {
                close(fd);
                return -ENOMEM;
        }
        *ret_fd = fd;
        *ret_mnt = TAKE_PTR(mnt);
        return 0;
}

/* -EROFS, said once, when @path in the target would be written on a read-only mount. */
static int refuse_read_only(struct seinstall_ctx *ctx, const char *path)
{
        _cleanup_free_ char *mnt = NULL, *host = NULL, *fix = NULL;
        _cleanup_close_ int fd = -EBADF;
        struct statvfs sv;
        int r = nearest_dir(ctx, path, &fd, &mnt);

        if (r < 0)
                return r == -ENOENT ? 0 : r;
        if (fstatvfs(fd, &sv) < 0)
                return -errno;
        if (!(sv.f_flag & ST_RDONLY))
                return 0;
        host = streq(mnt, "/") ? strdup(ctx->root) : path_join(ctx->root, mnt);
        fix = host ? shell_command(NULL, "mount -o remount,rw %q", host) : NULL;
        if (!fix)
                return -ENOMEM;
        return si_error(ctx, -EROFS,
                        "%s (in %s) is mounted read-only: seinstall cannot write %s there. "
                        "Nothing was changed. Remount it read-write: %s",
                        mnt, ctx->root, path, fix);
}

/* Before anything is written: every file the run would change must be on a mount that can be
 * written, or nothing is. What it would change is what the same run as a dry run reports (an
 * apply with nothing to change runs on a read-only target); with --regenerate, the boot menu
 * that update-grub would write too (the dry run leaves the sandbox, checked apart, out). */
static int check_writable(struct seinstall_ctx *ctx, const struct si_config *config,
                          enum seinstall_mode mode, const char *policy_type,
                          enum seinstall_bootloader bootloader, unsigned flags)
{
        struct seinstall_apply_result *dry = NULL;
        bool installed;
        const char *const *cmd;
        int r;

        if (flags & SEINSTALL_APPLY_DRY_RUN)
                return 0;
        r = si_apply_run(ctx, config, mode, policy_type, bootloader,
                         (flags & ~SEINSTALL_APPLY_REGENERATE) | SEINSTALL_APPLY_DRY_RUN, &dry);
        for (size_t i = 0; r >= 0 && i < dry->n_changes; i++)
                r = refuse_read_only(ctx, dry->changes[i].file);
        seinstall_apply_result_unref(dry);
        if (r < 0 || !(flags & SEINSTALL_APPLY_REGENERATE))
                return r;
        cmd = grub_regen_command(ctx, &installed);
        return cmd && installed ? refuse_read_only(ctx, grub_cfg_of(cmd)) : 0;
}

/* A failure after the first write: put back every file this apply changed (rootfs-undo.c),
 * and say so after the failure's own message. */
static int roll_back(struct seinstall_ctx *ctx, int err)
{
        _cleanup_free_ char *why =
            seinstall_last_error(ctx) ? strdup(seinstall_last_error(ctx)) : NULL;
        _cleanup_free_ char *failed = NULL;
        int r = si_undo_rollback(ctx, &failed);

        if (r == 0)
                return si_error(ctx, err,
                                "%s. Nothing was changed: every file this apply wrote in %s is "
                                "back as it was",
                                why ? why : strerror(-err), ctx->root);
        return si_error(ctx, err,
                        "%s. Putting the target back failed too (%s%s%s): check %s%s by hand",
                        why ? why : strerror(-err), failed ? failed : "", failed ? ": " : "",
                        strerror(-r), ctx->root, failed ? failed : "/etc/default/grub");
}

static int check_enable(struct seinstall_ctx *ctx, const struct si_kconfig *k, const char *type,
                        unsigned flags)
{
        if (k->kcase == SEINSTALL_KERNEL_CASE_NO_SELINUX)
                return si_error(ctx, -EOPNOTSUPP,
                                "The target's kernel (%s%s) is built without SELinux "
                                "(CONFIG_SECURITY_SELINUX is not set): install a kernel with "
                                "SELinux in the target, or choose disabled",
                                ctx->root, k->file);
        if (!(flags & SI_APPLY_POLICY_PENDING) && !si_policy_built(ctx, type)) {
                return si_error(ctx, -ENOPKG,
                                "No built SELinux policy of type '%s' in %s/etc/selinux/%s/policy: "
                                "install %s in the target (seinstall install also builds it from "
                                "installed modules)",
                                type, streq(ctx->root, "/") ? "" : ctx->root, type,
                                si_policy_package_hint(ctx, type));
        }
        return 0;
}

int si_apply_run(struct seinstall_ctx *ctx, const struct si_config *config,
                 enum seinstall_mode mode, const char *policy_type,
                 enum seinstall_bootloader bootloader, unsigned flags,
                 struct seinstall_apply_result **ret_result)
{
        const struct si_config old = *config;
        struct seinstall_apply_result *res = NULL;
        struct si_kconfig k = {};
        struct si_cmdline_goal goal;
        _cleanup_free_ char *cmdline = NULL, *needed = NULL;
        enum seinstall_bootloader old_bl;
        enum seinstall_mode was;
        bool enable = mode != SEINSTALL_MODE_DISABLED, lowering, grub_changed = false, deferred;
        bool trial = flags & SI_APPLY_TRIAL;
        const unsigned wflags = flags & SEINSTALL_APPLY_DRY_RUN ? SI_WRITE_DRY_RUN : 0;
        const char *relabel_path = NULL, *link = NULL;
        int r;

        res = calloc(1, sizeof(*res));
        if (!res)
                return -ENOMEM;
        res->dry_run = wflags & SI_WRITE_DRY_RUN;
        res->policy = strdup(policy_type                      ? policy_type
                             : si_policy_type_valid(old.type) ? old.type
                                                              : "default");
        r = res->policy ? si_kconfig_read(ctx, &k) : -ENOMEM;
        res->kcase = k.kcase;
        if (r >= 0 && enable)
                r = check_enable(ctx, &k, res->policy, flags);
        if (r >= 0)
                r = si_bootcmd_read(ctx, &cmdline, &old_bl);
        if (r >= 0)
                r = check_regenerate(ctx, flags);
        /* from the first write on, a failure puts every file back */
        if (r >= 0 && !(wflags & SI_WRITE_DRY_RUN))
                r = si_undo_begin(ctx);
        if (r < 0)
                goto out;

        /* Coming from "SELinux off" (whatever the config said, the kernel may not have run it),
         * files were created without labels: relabel at first boot unless the tree was just
         * labeled. While one is pending, boot permissive: enforcing on unlabeled files fails. */
        was = si_cmdline_boot_mode(cmdline ? cmdline : "", k.kcase, k.bootparam, old.mode);
        res->relabel = enable && !(flags & SEINSTALL_APPLY_LABELED) &&
                       ((flags & SEINSTALL_APPLY_RELABEL) || mode_rank(was) == 0);
        deferred =
            mode == SEINSTALL_MODE_ENFORCING && !trial &&
            (res->relabel || (!(flags & SEINSTALL_APPLY_LABELED) && si_autorelabel_pending(ctx)));
        res->trial = trial;
        res->config_mode = deferred || trial ? SEINSTALL_MODE_PERMISSIVE : mode;
        lowering = mode_rank(res->config_mode) <
                   mode_rank(old.present ? old.mode : SEINSTALL_MODE_DISABLED);
        /* The trial boots permissive (no enforcing=1) and its decision to enforce writes only
         * the config, so the command line must already suit enforcing (no enforcing=0): the
         * trial's goal asks both of one edit, so each file changes once. */
        goal = (struct si_cmdline_goal){.mode = trial ? SEINSTALL_MODE_TRIAL : res->config_mode,
                                        .kcase = k.kcase};

        if (lowering)
                r = write_config(ctx, res, wflags);
        if (r >= 0 && res->relabel) {
                r = si_autorelabel_schedule(ctx, wflags, &relabel_path);
                if (r > 0)
                        r = add_change(res, relabel_path,
                                       si_tr(ctx, "relabel at next boot scheduled (-F)"));
        }
        if (r >= 0)
                r = si_bootcmd_apply(ctx, bootloader, &goal, wflags, add_change, res,
                                     &res->bootloaders, &grub_changed);
        if (r >= 0 && ((flags & SEINSTALL_APPLY_FIRSTBOOT) || deferred)) {
                r = si_firstboot_mark_write(ctx, mode, trial, res->policy,
                                            res->relabel || si_autorelabel_pending(ctx), wflags);
                if (r > 0)
                        r = add_change(res, SEINSTALL_FIRSTBOOT_MARK,
                                       si_tr(ctx, deferred ? N_("first-boot mark: enforcing "
                                                                "once relabeled")
                                                  : trial  ? N_("first-boot mark written "
                                                                 "(mode=trial)")
                                                           : N_("first-boot mark written")));
        }
        if (r >= 0 && trial) {
                r = si_trial_start(ctx, res->policy, wflags);
                if (r > 0)
                        r = add_change(
                            res, SEINSTALL_TRIAL_STATE,
                            si_tr(ctx, "trial pending: enforcing after a boot without denials "
                                       "caused by labels"));
                if (r >= 0)
                        r = si_trial_enable_unit(ctx, wflags, &link);
                if (r > 0) {
                        _cleanup_free_ char *what =
                            str_printf(si_tr(ctx, "%s enabled"), SEINSTALL_TRIAL_UNIT);
                        r = what ? add_change(res, link, what) : -ENOMEM;
                }
        } else if (r >= 0) {
                /* A mode chosen by hand ends a pending trial: it must not change it later. */
                r = si_trial_cancel(ctx, wflags);
                if (r > 0)
                        r = add_change(
                            res, SEINSTALL_TRIAL_STATE,
                            si_tr(ctx, "pending trial cancelled: a mode was chosen by hand"));
        }
        if (r >= 0 && (grub_changed || grub_menu_lags(ctx)))
                r = regenerate(ctx, flags, res);
        if (r >= 0 && !lowering)
                r = write_config(ctx, res, wflags);
        if (r < 0)
                goto out;

        /* What the person still has to do. */
        r = si_cmdline_missing("", &goal, &needed);
        if (r >= 0 && res->bootloaders == 0 && bootloader == SEINSTALL_BOOTLOADER_AUTO && *needed)
                r = add_todo(ctx, res,
                             "No boot loader configuration found in the target (/etc/default/grub, "
                             "loader entries, /etc/kernel/cmdline): add '%s' to its kernel command "
                             "line",
                             needed);
        if (r >= 0 && deferred)
                r = add_todo_text(
                    res, shell_command(ctx->root,
                                       si_tr(ctx, "SELinux boots permissive until the "
                                                  "first-boot relabel is done; then choose "
                                                  "enforcing on the first-boot screen (or run "
                                                  "'seinstall apply%r --mode enforcing')")));
        if (r >= 0 && trial)
                r = add_todo_text(
                    res,
                    shell_command(ctx->root, si_tr(ctx, "SELinux boots permissive; once a boot has "
                                                        "settled, seinstall-trial.service makes it "
                                                        "enforcing if no denial was caused by a "
                                                        "label, else names the files ('seinstall "
                                                        "status%r' shows the outcome)")));
        if (r >= 0 && trial && !si_trial_unit_installed(ctx))
                r = add_todo(ctx, res,
                             "Install seinstall in the target: %s is not there, and without it "
                             "the trial never decides (or run 'seinstall trial' on the "
                             "installed system)",
                             SEINSTALL_TRIAL_UNIT);
        if (r >= 0 && !enable && k.kcase == SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT && !k.bootparam)
                r = add_todo(ctx, res,
                             "The target's kernel ignores selinux=0 "
                             "(CONFIG_SECURITY_SELINUX_BOOTPARAM is not set): SELinux stays "
                             "on without a policy loaded");
out:
        si_kconfig_done(&k);
        if (r < 0 && ctx->undo)
                r = roll_back(ctx, r);
        si_undo_end(ctx);
        if (r < 0) {
                seinstall_apply_result_unref(res);
                return r;
        }
        if (ret_result)
                *ret_result = res;
        else
                seinstall_apply_result_unref(res);
        return 0;
}

/* apply --regenerate without a mode: the boot menu brought up to the configuration as it is,
 * and nothing else written. */
static int regenerate_menu(struct seinstall_ctx *ctx, const struct si_config *config,
                           unsigned flags, struct seinstall_apply_result **ret_result)
{
        struct seinstall_apply_result *res = calloc(1, sizeof(*res));
        struct si_kconfig k = {};
        int r;

        if (!res)
                return -ENOMEM;
        res->dry_run = flags & SEINSTALL_APPLY_DRY_RUN;
        res->config_mode = config->present ? config->mode : SEINSTALL_MODE_INVALID;
        res->policy = strdup(si_policy_type_valid(config->type) ? config->type : "default");
        r = res->policy ? si_kconfig_read(ctx, &k) : -ENOMEM;
        res->kcase = k.kcase;
        si_kconfig_done(&k);
        if (r >= 0 && grub_menu_lags(ctx)) {
                res->bootloaders = 1u << SEINSTALL_BOOTLOADER_GRUB;
                r = regenerate(ctx, flags, res);
        }
        if (r < 0 || !ret_result)
                res = seinstall_apply_result_unref(res);
        if (r >= 0 && ret_result)
                *ret_result = res;
        return r < 0 ? r : 0;
}

/* seinstall_apply() on its arguments unpacked: @mode SEINSTALL_MODE_INVALID for no settings. */
static int apply_mode(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *policy_type,
                      enum seinstall_bootloader bootloader, unsigned flags,
                      struct seinstall_apply_result **ret_result)
{
        _cleanup_(si_config_done) struct si_config config = {.mode = SEINSTALL_MODE_INVALID};
        int r;

        /* The trial is enforcing deferred: the run below writes for enforcing, the flag defers. */
        if (mode == SEINSTALL_MODE_TRIAL) {
                mode = SEINSTALL_MODE_ENFORCING;
                flags |= SI_APPLY_TRIAL;
        }
        r = si_config_read(ctx, &config);
        if (r >= 0)
                /* the files written are labeled for the policy the config will name */
                r = si_labels_for_type(ctx, policy_type                         ? policy_type
                                            : si_policy_type_valid(config.type) ? config.type
                                                                                : "default");
        if (r < 0)
                return r;
        if (mode == SEINSTALL_MODE_INVALID)
                return regenerate_menu(ctx, &config, flags, ret_result);
        r = check_writable(ctx, &config, mode, policy_type, bootloader, flags);
        if (r < 0)
                return r;
        /* The same run either way; only the writes at the bottom (rootfs-write.c) are skipped. */
        return si_apply_run(ctx, &config, mode, policy_type, bootloader, flags, ret_result);
}

SEINSTALL_EXPORT int seinstall_apply(struct seinstall_ctx *ctx,
                                     const struct seinstall_settings *settings,
                                     const struct seinstall_apply_options *options,
                                     struct seinstall_apply_result **ret_result)
{
        static const struct seinstall_apply_options defaults = {.bootloader =
                                                                    SEINSTALL_BOOTLOADER_AUTO};
        const struct seinstall_apply_options *o = options ? options : &defaults;

        /* Without settings there is no config to write: only the boot menu to bring in line. */
        if (!ctx || (!settings && !(o->flags & SEINSTALL_APPLY_REGENERATE)))
                return -EINVAL;
        /* (the settings' setters took only a valid mode and policy type) */
        return apply_mode(ctx, seinstall_settings_get_mode(settings, NULL),
                          seinstall_settings_get_policy(settings, NULL), o->bootloader, o->flags,
                          ret_result);
}

SEINSTALL_EXPORT size_t seinstall_apply_result_get_n_changes(const struct seinstall_apply_result *r)
{
        return r ? r->n_changes : 0;
}

SEINSTALL_EXPORT const char *
seinstall_apply_result_get_change_file(const struct seinstall_apply_result *r, size_t i)
{
        return r && i < r->n_changes ? r->changes[i].file : NULL;
}

SEINSTALL_EXPORT const char *
seinstall_apply_result_get_change_what(const struct seinstall_apply_result *r, size_t i)
{
        return r && i < r->n_changes ? r->changes[i].what : NULL;
}

SEINSTALL_EXPORT size_t seinstall_apply_result_get_n_todo(const struct seinstall_apply_result *r)
{
        return r ? r->n_todo : 0;
}

SEINSTALL_EXPORT const char *seinstall_apply_result_get_todo(const struct seinstall_apply_result *r,
                                                             size_t i)
{
        return r && i < r->n_todo ? r->todo[i] : NULL;
}

SEINSTALL_EXPORT enum seinstall_mode
seinstall_apply_result_get_config_mode(const struct seinstall_apply_result *r)
{
        return r ? r->config_mode : SEINSTALL_MODE_INVALID;
}

SEINSTALL_EXPORT const char *
seinstall_apply_result_get_policy(const struct seinstall_apply_result *r)
{
        return r ? r->policy : NULL;
}

SEINSTALL_EXPORT enum seinstall_kernel_case
seinstall_apply_result_get_kernel_case(const struct seinstall_apply_result *r)
{
        return r ? r->kcase : SEINSTALL_KERNEL_CASE_UNKNOWN;
}

SEINSTALL_EXPORT bool seinstall_apply_result_get_relabel(const struct seinstall_apply_result *r)
{
        return r && r->relabel;
}

SEINSTALL_EXPORT bool seinstall_apply_result_has_bootloader(const struct seinstall_apply_result *r,
                                                            enum seinstall_bootloader b)
{
        return r && b > SEINSTALL_BOOTLOADER_AUTO && b < SEINSTALL_BOOTLOADER_NONE &&
               (r->bootloaders & (1u << b));
}

SEINSTALL_EXPORT int seinstall_apply_result_to_json(const struct seinstall_apply_result *r,
                                                    char **ret)
{
        static const enum seinstall_bootloader forms[] = {
            SEINSTALL_BOOTLOADER_GRUB,
            SEINSTALL_BOOTLOADER_BLS,
            SEINSTALL_BOOTLOADER_KERNEL_CMDLINE,
        };
        struct json j = {0};

        if (!r || !ret)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "config_mode", seinstall_mode_to_string(r->config_mode));
        json_kv_string(&j, "policy", r->policy);
        json_kv_string(&j, "kernel", seinstall_kernel_case_to_string(r->kcase));
        json_kv_bool(&j, "relabel_scheduled", r->relabel);
        json_kv_bool(&j, "trial", r->trial);
        json_kv_bool(&j, "dry_run", r->dry_run);
        json_key(&j, "bootloaders");
        json_array_begin(&j);
        for (size_t i = 0; i < ELEMENTSOF(forms); i++)
                if (r->bootloaders & (1u << forms[i]))
                        json_string(&j, seinstall_bootloader_to_string(forms[i]));
        json_array_end(&j);
        json_key(&j, "changes");
        json_array_begin(&j);
        for (size_t i = 0; i < r->n_changes; i++) {
                json_object_begin(&j);
                json_kv_string(&j, "file", r->changes[i].file);
                json_kv_string(&j, "change", r->changes[i].what);
                json_object_end(&j);
        }
        json_array_end(&j);
        json_key(&j, "todo");
        json_array_begin(&j);
        for (size_t i = 0; i < r->n_todo; i++)
                json_string(&j, r->todo[i]);
        json_array_end(&j);
        json_object_end(&j);
        return json_steal(&j, ret);
}
