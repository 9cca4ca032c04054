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
                 "Keys: arrows move, Space selects, Tab moves between the choices, a text "
                 "that scrolls and the buttons, Enter on a choice or OK applies the selected "
                 "one, Esc cancels, F1 shows this help.");
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
                ; /* the target's path, which may be long, comes last */
        else if (!st->active)
                fputs(_("Now: SELinux is not active.\n"), f);
        else
                fprintf(f, _("Now: SELinux is active, %s.\n"),
                        fb_text_mode_name(fb_state_running_mode(st)));
        fprintf(f, _("Next boot: %s (config: %s, policy: %s)."),
                st->boot_mode == SEINSTALL_MODE_INVALID ? _("unknown (no kernel config in /boot)")
                                                        : fb_text_mode_name(st->boot_mode),
                fb_text_mode_name(st->config_mode), st->policy_type ? st->policy_type : _("none"));
        fputc('\n', f);
        if (st->trial_pending)
                fputs(_("A trial is pending: permissive until a boot logs no label denial, then "
                        "enforcing. "),
                      f);
        else if (info->mark_mode != SEINSTALL_MODE_INVALID && info->mark_after_install)
                fprintf(f, _("Chosen after install: %s. "), fb_text_mode_name(info->mark_mode));
        else if (info->mark_mode != SEINSTALL_MODE_INVALID)
                fprintf(f, _("Chosen at install: %s. "), fb_text_mode_name(info->mark_mode));
        fputs(st->relabel_pending ? _("A full relabel is pending.") : _("No relabel is pending."),
              f);
        if (info->denials.read) {
                _cleanup_free_ char *line = fb_denials_line(&info->denials);
                fprintf(f, "\n%s", line ? line : "");
        }
        if (!st->running)
                fprintf(f, _("\nTarget: %s (not the running system)."), info->root);
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
                        pred->message ? pred->message : seinstall_strerror(p->error));
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
                                _("SELINUX=%s in /etc/selinux/config while every file is "
                                  "relabeled at the next boot; then this screen comes back, "
                                  "set on %s, to switch it on. "),
                                seinstall_mode_to_string(p->config_mode),
                                fb_text_mode_name(p->mode));
                else if (p->config_change)
                        fprintf(f, _("SELINUX=%s in /etc/selinux/config. "),
                                seinstall_mode_to_string(p->config_mode));
                if (p->cancels_trial)
                        fputs(_("Cancels the pending trial. "), f);
                print_changes(f, p);
                if (p->switch_now)
                        fprintf(f, _("Switches to %s at once. "), fb_text_mode_name(p->mode));
                /* the deferred enforcing's sentence above already says so */
                if (p->relabel && (p->trial || p->config_mode == p->mode))
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

char *fb_text_outcome(const struct fb_info *info, const struct fb_plan *p, bool changed)
{
        const char *name = fb_text_mode_name(p->mode);
        char *line = NULL;
        int r;

        if (!changed)
                r = asprintf(&line, _("Nothing to change: the system is already set to %s."), name);
        else if (p->trial)
                r = asprintf(&line, "%s",
                             _("Chosen: the trial. It boots permissive; after a boot with no "
                               "denial caused by a label, seinstall-trial.service makes it "
                               "enforcing."));
        else if (p->config_mode != p->mode)
                r = asprintf(&line,
                             _("Chosen: %s. SELinux stays permissive until every file is "
                               "relabeled; then this screen comes back, set on %s, to switch it "
                               "on."),
                             name, name);
        else if (p->switch_now)
                r = asprintf(&line, _("Chosen: %s, in effect now and at every boot."), name);
        else if (info->state.running)
                r = asprintf(&line, _("Chosen: %s, from the next boot."), name);
        else
                r = asprintf(&line, _("Chosen: %s, from when the target boots."), name);
        return r < 0 ? NULL : line;
}
