/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * screen.c — the one newt screen of seinstall-firstboot: the state, a radio list of the three
 * modes and the trial with a line under each, what the selected choice will do, OK / Cancel, F1
 * help. It only chooses; applying happens in main.c after the screen is gone. Fits 80x24. Before
 * it, on a system that ran permissive with denials a wrong label caused, a window shows them and
 * offers to relabel those files (main.c's callback does it) and then what that did.
 */
#include <newt.h>
#include <stdio.h>
#include <stdlib.h>

#include "firstboot.h"

#define WIDTH       70 /* text width inside the window: 80 columns minus frame and shadow */
#define STATE_LINES 4
#define PLAN_LINES  4
#define HELP_LINES  12
#define ASK_LINES   14 /* a window's text beyond this scrolls */

/* The trial last: the keys that reach the other three stay as they were. */
static const enum seinstall_mode modes[FB_N_MODES] = {
    SEINSTALL_MODE_ENFORCING,
    SEINSTALL_MODE_PERMISSIVE,
    SEINSTALL_MODE_DISABLED,
    FB_MODE_TRIAL,
};

struct screen {
        const struct fb_info *info;
        fb_relabel_fn relabel;
        void *userdata;
        newtComponent radio[FB_N_MODES];
        newtComponent plan_box;
        int timeout;   /* seconds, 0: none */
        int remaining; /* seconds left before the timeout */
};

static enum seinstall_mode selected(const struct screen *s)
{
        newtComponent cur = newtRadioGetCurrent(s->radio[0]);

        for (size_t i = 0; i < FB_N_MODES; i++)
                if (cur == s->radio[i])
                        return modes[i];
        return SEINSTALL_MODE_INVALID;
}

static void show_plan(struct screen *s)
{
        struct fb_plan plan;
        char *text;

        if (fb_info_plan(s->info, selected(s), &plan) < 0)
                return;
        text = fb_text_plan(s->info, &plan);
        newtTextboxSetText(s->plan_box, text ? text : "");
        free(text);
}

/* F1: the help text in a scrolling box (newtWinMessage would cut it at the screen's end). */
static void show_help(void)
{
        newtComponent form, text, ok;
        struct newtExitStruct es;
        newtGrid grid, buttons;

        text = newtTextbox(-1, -1, WIDTH - 4, HELP_LINES, NEWT_FLAG_WRAP | NEWT_FLAG_SCROLL);
        newtTextboxSetText(text, fb_text_help());
        buttons = newtButtonBar(_("OK"), &ok, NULL);
        grid = newtCreateGrid(1, 2);
        newtGridSetField(grid, 0, 0, NEWT_GRID_COMPONENT, text, 0, 0, 0, 1, 0, 0);
        newtGridSetField(grid, 0, 1, NEWT_GRID_SUBGRID, buttons, 0, 0, 0, 0, 0,
                         NEWT_GRID_FLAG_GROWX);
        newtGridWrappedWindow(grid, _("Help"));
        form = newtForm(NULL, NULL, 0);
        newtGridAddComponentsToForm(grid, form, 1);
        newtGridFree(grid, 1);
        newtFormSetCurrent(form, text);
        /* Enter and F1 close it too, also while the text has the focus for scrolling. */
        newtFormAddHotKey(form, NEWT_KEY_ENTER);
        newtFormAddHotKey(form, NEWT_KEY_F1);
        newtFormRun(form, &es);
        newtFormDestroy(form);
        newtPopWindow();
}

static void show_help_line(const struct screen *s)
{
        char *line = NULL;

        if (s->timeout > 0 &&
            asprintf(&line, _("F1 help  Space select  Tab move  F12 accept  (%d s left)"),
                     s->remaining) < 0)
                line = NULL;
        newtPopHelpLine();
        newtPushHelpLine(line ? line : _("F1 help  Space select  Tab move  F12 accept"));
        free(line);
        newtRefresh();
}

/* Called when a radio button is selected: show what it does; a person is there, so the
 * timeout starts over. */
static void radio_changed(newtComponent co, void *data)
{
        struct screen *s = data;

        (void) co;
        s->remaining = s->timeout;
        show_plan(s);
        show_help_line(s);
}

/* A window with @text (scrolled when long) and one or two buttons. Returns the index of the
 * button pressed (F12: the last one), -1 when the timeout ran out, -2 on a terminal error. */
static int ask(struct screen *s, const char *title, const char *text, const char *b0,
               const char *b1)
{
        newtComponent form, box, btn[2] = {NULL, NULL};
        struct newtExitStruct es;
        newtGrid grid, buttons;
        int width = 0, height = 0, result = -2;
        char *flowed = newtReflowText((char *) text, WIDTH - 4, 0, 0, &width, &height);

        box = newtTextbox(-1, -1, width, height > ASK_LINES ? ASK_LINES : height,
                          height > ASK_LINES ? NEWT_FLAG_SCROLL : 0);
        newtTextboxSetText(box, flowed ? flowed : text);
        free(flowed);
        buttons = b1 ? newtButtonBar((char *) b0, &btn[0], (char *) b1, &btn[1], NULL)
                     : newtButtonBar((char *) b0, &btn[0], NULL);
        grid = newtCreateGrid(1, 2);
        newtGridSetField(grid, 0, 0, NEWT_GRID_COMPONENT, box, 0, 0, 0, 1, NEWT_ANCHOR_LEFT, 0);
        newtGridSetField(grid, 0, 1, NEWT_GRID_SUBGRID, buttons, 0, 0, 0, 0, 0,
                         NEWT_GRID_FLAG_GROWX);
        newtGridWrappedWindow(grid, (char *) title);
        form = newtForm(NULL, NULL, 0);
        newtGridAddComponentsToForm(grid, form, 1);
        newtGridFree(grid, 1);
        newtFormSetCurrent(form, btn[0]);
        if (s->timeout > 0)
                newtFormSetTimer(form, 1000);
        s->remaining = s->timeout;
        show_help_line(s);
        for (;;) {
                newtFormRun(form, &es);
                if (es.reason == NEWT_EXIT_TIMER) {
                        if (--s->remaining <= 0) {
                                result = -1;
                                break;
                        }
                        show_help_line(s);
                } else if (es.reason == NEWT_EXIT_COMPONENT) {
                        result = es.u.co == btn[0] ? 0 : 1;
                        break;
                } else if (es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_F12) {
                        result = b1 ? 1 : 0;
                        break;
                } else if (es.reason == NEWT_EXIT_ERROR) {
                        break;
                }
        }
        newtFormDestroy(form);
        newtPopWindow();
        return result;
}

/* Before the choice: this boot's denials, and the offer to relabel the files they blame on
 * their labels. Returns 0 to go on to the choice, -1 on timeout, -2 on a terminal error. */
static int offer_relabel(struct screen *s)
{
        const struct fb_denials *d = &s->info->denials;
        newtComponent form;
        char *summary, *msg = NULL, *done;
        int r;

        if (!fb_denials_offer(d) || !s->relabel)
                return 0;
        summary = fb_denials_text(d, FB_DENIAL_PATHS);
        r = ask(s, _("SELinux denials on this boot"), summary ? summary : "",
                _("Relabel these files"), _("Continue"));
        free(summary);
        if (r != 0)
                return r < 0 ? r : 0;

        if (asprintf(&msg,
                     ngettext("Relabeling %zu file...", "Relabeling %zu files...", d->n_paths),
                     d->n_paths) < 0)
                msg = NULL;
        newtCenteredWindow(WIDTH - 20, 1, _("Relabeling"));
        form = newtForm(NULL, NULL, 0);
        newtFormAddComponent(form, newtLabel(1, 0, msg ? msg : ""));
        newtDrawForm(form);
        newtRefresh();
        done = s->relabel(s->userdata);
        newtFormDestroy(form);
        newtPopWindow();
        free(msg);
        r = ask(s, _("Relabeled"), done ? done : _("Out of memory."), _("Continue"), NULL);
        free(done);
        return r < 0 ? r : 0;
}

/* Say what needs saying before a choice with lasting consequences is applied. Returns true
 * when the person confirms (or nothing needs confirming). */
static bool confirm(const struct screen *s, enum seinstall_mode mode)
{
        const struct fb_state *st = &s->info->state;
        bool from_disabled = fb_state_off(st);
        const char *text;
        struct fb_plan p;

        if (fb_info_plan(s->info, mode, &p) < 0)
                return false;
        if (!p.possible) {
                newtWinMessage(_("Not possible"), _("Back"), "%s",
                               _("This kernel was built without SELinux. Install a kernel "
                                 "with SELinux, or choose Disabled."));
                return false;
        }
        if (p.relabel && from_disabled)
                text = _("SELinux is disabled now. To enable it, every file must first get its "
                         "label: files created while SELinux was off have none.\n\n"
                         "At the next boot the system relabels every file in permissive mode, "
                         "showing its progress on the console, then reboots once more. After "
                         "that, Enforcing is switched on from this screen.\n\n"
                         "Apply, and reboot when convenient?");
        else if (p.relabel)
                text = _("Files on this system may lack their labels, so every file is "
                         "relabeled at the next boot, in permissive mode, showing its progress "
                         "on the console, and the system reboots once more.\n\n"
                         "Apply, and reboot when convenient?");
        else if (mode == SEINSTALL_MODE_DISABLED && !from_disabled)
                text = _("With SELinux disabled, files created from now on get no labels. "
                         "Enabling it again later needs a full relabel of every file and a "
                         "reboot.\n\nDisable SELinux?");
        else
                return true;
        return newtWinChoice(_("Before applying"), _("Apply"), _("Back"), "%s", text) == 1;
}

/* Build the window and its form; the form owns the components. */
static newtComponent build(struct screen *s, enum seinstall_mode initial, newtComponent *ok,
                           newtComponent *cancel)
{
        newtGrid grid, radios, buttons;
        newtComponent form, state_box, prev = NULL;
        char *state = fb_text_state(s->info);

        state_box = newtTextbox(-1, -1, WIDTH, STATE_LINES, NEWT_FLAG_WRAP);
        newtTextboxSetText(state_box, state ? state : "");
        free(state);

        radios = newtCreateGrid(1, 2 * FB_N_MODES);
        for (size_t i = 0; i < FB_N_MODES; i++) {
                s->radio[i] = prev =
                    newtRadiobutton(-1, -1, fb_text_mode_name(modes[i]), modes[i] == initial, prev);
                newtComponentAddCallback(s->radio[i], radio_changed, s);
                newtGridSetField(radios, 0, 2 * i, NEWT_GRID_COMPONENT, s->radio[i], 0, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
                newtGridSetField(radios, 0, 2 * i + 1, NEWT_GRID_COMPONENT,
                                 newtLabel(-1, -1, fb_text_mode_line(modes[i])), 4, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
        }
        s->plan_box = newtTextbox(-1, -1, WIDTH, PLAN_LINES, NEWT_FLAG_WRAP);
        /* one-line buttons: with four choices, framed ones would not leave 24 rows enough */
        *ok = newtCompactButton(-1, -1, _("OK"));
        *cancel = newtCompactButton(-1, -1, _("Cancel"));
        buttons = newtCreateGrid(2, 1);
        newtGridSetField(buttons, 0, 0, NEWT_GRID_COMPONENT, *ok, 0, 0, 0, 0, 0, 0);
        newtGridSetField(buttons, 1, 0, NEWT_GRID_COMPONENT, *cancel, 4, 0, 0, 0, 0, 0);

        grid = newtCreateGrid(1, 4);
        /* 24 rows: frame and margins 4, state 4 (3 lines, the fourth for this boot's denials),
         * four choices 8 and a blank, the plan 4, a blank, the buttons 1, the help line 1 */
        newtGridSetField(grid, 0, 0, NEWT_GRID_COMPONENT, state_box, 0, 0, 0, 0, NEWT_ANCHOR_LEFT,
                         0);
        newtGridSetField(grid, 0, 1, NEWT_GRID_SUBGRID, radios, 0, 0, 0, 1, NEWT_ANCHOR_LEFT, 0);
        newtGridSetField(grid, 0, 2, NEWT_GRID_COMPONENT, s->plan_box, 0, 0, 0, 0, NEWT_ANCHOR_LEFT,
                         0);
        newtGridSetField(grid, 0, 3, NEWT_GRID_SUBGRID, buttons, 0, 1, 0, 0, 0,
                         NEWT_GRID_FLAG_GROWX);
        newtGridWrappedWindow(grid, _("SELinux on this system"));

        form = newtForm(NULL, NULL, 0);
        newtGridAddComponentsToForm(grid, form, 1);
        newtGridFree(grid, 1);
        newtFormAddHotKey(form, NEWT_KEY_F1);
        for (size_t i = 0; i < FB_N_MODES; i++)
                if (modes[i] == initial)
                        newtFormSetCurrent(form, s->radio[i]);
        if (s->timeout > 0)
                newtFormSetTimer(form, 1000);
        return form;
}

enum fb_screen_result fb_screen_run(const struct fb_info *info, enum seinstall_mode initial,
                                    int timeout_sec, fb_relabel_fn relabel, void *userdata,
                                    enum seinstall_mode *ret_mode)
{
        struct screen s = {.info = info,
                           .relabel = relabel,
                           .userdata = userdata,
                           .timeout = timeout_sec,
                           .remaining = timeout_sec};
        enum fb_screen_result result = FB_SCREEN_ERROR;
        enum seinstall_mode chosen = SEINSTALL_MODE_INVALID;
        newtComponent form, ok, cancel;
        struct newtExitStruct es;

        if (initial == SEINSTALL_MODE_INVALID)
                initial = SEINSTALL_MODE_DISABLED;
        if (newtInit() < 0)
                return FB_SCREEN_ERROR;
        newtCls();
        newtPushHelpLine(NULL);
        switch (offer_relabel(&s)) {
        case -1:
                newtFinished();
                return FB_SCREEN_TIMEOUT;
        case -2:
                newtFinished();
                return FB_SCREEN_ERROR;
        default:
                break;
        }
        s.remaining = s.timeout;
        form = build(&s, initial, &ok, &cancel);
        show_plan(&s);
        show_help_line(&s);

        for (;;) {
                newtFormRun(form, &es);
                if (es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_F1) {
                        show_help();
                        s.remaining = s.timeout;
                        show_help_line(&s);
                } else if (es.reason == NEWT_EXIT_TIMER) {
                        if (--s.remaining <= 0) {
                                result = FB_SCREEN_TIMEOUT;
                                break;
                        }
                        show_help_line(&s);
                } else if (es.reason == NEWT_EXIT_ERROR) {
                        break;
                } else if (es.reason == NEWT_EXIT_COMPONENT && es.u.co == cancel) {
                        result = FB_SCREEN_CANCEL;
                        break;
                } else if ((es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_F12) ||
                           (es.reason == NEWT_EXIT_COMPONENT && es.u.co == ok)) {
                        chosen = selected(&s);
                        s.remaining = s.timeout;
                        if (confirm(&s, chosen)) {
                                result = FB_SCREEN_OK;
                                break;
                        }
                        show_help_line(&s);
                }
        }
        newtFormDestroy(form);
        newtPopWindow();
        newtFinished();
        if (result == FB_SCREEN_OK)
                *ret_mode = chosen;
        return result;
}
