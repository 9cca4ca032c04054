/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * text.c — every sentence seinstall-firstboot shows a person, marked for translation, shared
 * by the screen and by --status / --yes, so both say the same thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firstboot.h"

const char *fb_text_mode_name(enum seinstall_mode mode)
{
        switch (mode) {
        case SEINSTALL_MODE_ENFORCING:
                return _("Enforcing");
        case SEINSTALL_MODE_PERMISSIVE:
                return _("Permissive");
        case SEINSTALL_MODE_DISABLED:
                return _("Disabled");
        case SEINSTALL_MODE_TRIAL:
                return _("Enforcing after a clean boot (trial)");
        default:
                return _("not configured");
        }
}

const char *fb_text_mode_line(enum seinstall_mode mode)
{
        switch (mode) {
        case SEINSTALL_MODE_ENFORCING:
                return _("The policy is enforced: what it does not allow is denied and logged.");
        case SEINSTALL_MODE_PERMISSIVE:
                return _("Nothing is denied; what the policy would deny is only logged.");
        case SEINSTALL_MODE_DISABLED:
                return _("No SELinux protection at all, and new files get no labels.");
        case SEINSTALL_MODE_TRIAL:
                return _("Permissive; enforcing on its own once a boot logs no label denial.");
        default:
                return "";
        }
}

const char *fb_text_help(void)
{
        return _("SELinux confines each program to what the system's policy allows.\n"
                 "Enforcing: what the policy does not allow is denied and logged. This is the "
                 "protected setting.\n"
                 "Permissive: nothing is denied; what the policy would deny is logged. Use it "
                 "to find problems before enforcing.\n"
                 "Disabled: SELinux does not run and new files get no labels, so enabling it "
                 "again later needs a full relabel.\n"
                 "Relabel: gives every file the label the policy assigns. It runs at the next "
                 "boot, in permissive mode, with its progress on the console, then reboots.\n"
                 "Enforcing after a clean boot (trial): boots permissive; once a boot has "
                 "settled with no denial caused by a wrong label, seinstall-trial.service makes "
                 "it enforcing. Otherwise it stays permissive and names the files. It decides "
                 "once; 'seinstall status' shows the outcome.\n"
                 "Keys: arrows move, Space selects, Tab moves between widgets, Enter presses "
                 "the focused button, F12 accepts, F1 shows this help.");
}

char *fb_text_state(const struct fb_info *info)
{
        const struct fb_state *st = &info->state;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return NULL;
        if (!st->running)
                fprintf(f, _("Target: %s (not the running system)."), info->root);
        else if (!st->active)
                fputs(_("Now: SELinux is not active."), f);
        else
                fprintf(f, _("Now: SELinux is active, %s."),
                        fb_text_mode_name(fb_state_running_mode(st)));
        fputc('\n', f);
        fprintf(f, _("Next boot: %s (config: %s, policy: %s)."),
                st->boot_mode == SEINSTALL_MODE_INVALID ? _("unknown (no kernel config in /boot)")
                                                        : fb_text_mode_name(st->boot_mode),
                fb_text_mode_name(st->config_mode), st->policy_type ? st->policy_type : _("none"));
        fputc('\n', f);
        if (info->mark_mode != SEINSTALL_MODE_INVALID)
                fprintf(f, _("Chosen at install: %s. "), fb_text_mode_name(info->mark_mode));
        fputs(st->relabel_pending ? _("A full relabel is pending.") : _("No relabel is pending."),
              f);
        if (info->denials.read) {
                _cleanup_free_ char *line = fb_denials_line(&info->denials);
                fprintf(f, "\n%s", line ? line : "");
        }
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

/* The boot loader's files the choice edits, as the library will edit them:
 * "/etc/default/grub: added security=selinux. " */
static void print_changes(FILE *f, const struct fb_plan *p)
{
        for (size_t i = 0; i < seinstall_apply_result_get_n_changes(p->changes); i++)
                if (!fb_plan_change_told(p, i))
                        fprintf(f, "%s: %s. ",
                                seinstall_apply_result_get_change_file(p->changes, i),
                                seinstall_apply_result_get_change_what(p->changes, i));
}

char *fb_text_plan(const struct fb_info *info, const struct fb_plan *p)
{
        const struct fb_prediction *pred = &info->predictions[p->mode];
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return NULL;
        if (!p->possible)
                fputs(_("This kernel cannot run SELinux: only Disabled is possible. "), f);
        else if (p->error)
                fprintf(f, _("Cannot be applied: %s "),
                        pred->message ? pred->message : strerror(-p->error));
        else if (!fb_plan_changes(p))
                fputs(_("This is the current setting: nothing changes. "), f);
        else {
                if (p->trial)
                        fprintf(f,
                                _("SELINUX=%s in /etc/selinux/config; after a boot with no "
                                  "denial caused by a label, seinstall-trial.service makes it "
                                  "enforcing. "),
                                seinstall_mode_to_string(p->config_mode));
                else if (p->config_mode != p->mode)
                        fprintf(f,
                                _("SELINUX=%s in /etc/selinux/config until the relabel is "
                                  "done, then %s from this screen. "),
                                seinstall_mode_to_string(p->config_mode),
                                fb_text_mode_name(p->mode));
                else if (p->config_change)
                        fprintf(f, _("SELINUX=%s in /etc/selinux/config. "),
                                seinstall_mode_to_string(p->config_mode));
                print_changes(f, p);
                if (p->switch_now)
                        fprintf(f, _("Switches to %s at once. "), fb_text_mode_name(p->mode));
                if (p->relabel)
                        fputs(_("Every file is relabeled at the next boot, in permissive mode. "),
                              f);
                if (p->reboot)
                        fputs(_("Needs a reboot. "), f);
                else if (!info->state.running)
                        fputs(_("Takes effect when the target boots. "), f);
        }
        if (p->possible && !p->error && p->warn_enable_later && !fb_state_off(&info->state))
                fputs(_("Enabling SELinux again later needs a full relabel."), f);
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        /* Drop the trailing blank the sentences leave. */
        if (len > 0 && buf[len - 1] == ' ')
                buf[len - 1] = '\0';
        return buf;
}
