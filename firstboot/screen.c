/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * screen.c — the one newt screen of seinstall-firstboot: the state, a radio list of the three
 * modes and the trial with a line under each, what the selected choice will do, OK / Cancel, F1
 * help. It only chooses; applying happens in main.c after the screen is gone. Before it, on a
 * system that ran permissive with denials a wrong label caused, a window shows them and offers
 * to relabel those files (main.c's callback does it) and then what that did.
 *
 * Every text is sized to the terminal (80x24 at least, fb_screen_terminal() refuses less): it
 * fits, or its box scrolls and a line under that box says so. Nothing is ever cut silently.
 * When the terminal is resized (SIGWINCH: newt's NEWT_KEY_RESIZE) every window is built again
 * for the new size, and below 80x24 a notice says how large it must be until it is again.
 *
 * Keys as whiptail's radio list has them: the choices are one stop for Tab (a subform; arrows
 * move inside it), Enter on a choice is OK on the selected one, Esc is Cancel (in a window
 * over the choice: its button that changes nothing).
 */
#include <newt.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <slang.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "firstboot.h"

#define WIDTH 70 /* text width inside the window: 80 columns minus frame and shadow */
/* Rows of the choice's window besides the state and the plan: the help line, frame and
 * margins 4, four choices 8 with a blank above and below, the hint under the plan, the
 * buttons. 24 rows leave 7. */
#define CHOICE_ROWS 17
/* Rows of a text window besides its text: the help line, frame and margins 4, a blank and
 * framed buttons 4 (three and their shadow). */
#define TEXT_ROWS 10

/* The trial last: the keys that reach the other three stay as they were. */
static const enum seinstall_mode modes[FB_N_MODES] = {
    SEINSTALL_MODE_ENFORCING,
    SEINSTALL_MODE_PERMISSIVE,
    SEINSTALL_MODE_DISABLED,
    SEINSTALL_MODE_TRIAL,
};

struct screen {
        const struct fb_info *info;
        fb_relabel_fn relabel;
        void *userdata;
        newtComponent form, choices, ok, cancel; /* the choice's window, while it is up */
        newtComponent radio[FB_N_MODES];
        newtComponent plan_box, hint;
        int plan_lines;           /* the plan box's height */
        enum seinstall_mode mode; /* the selected choice, kept when the window is rebuilt */
        int timeout;              /* seconds, 0: none */
        int remaining;            /* seconds left before the timeout */
};

/* What a window's run ended with, besides the index of a button pressed (>= 0). */
enum {
        RUN_TIMEOUT = -1,
        RUN_ERROR = -2,
        RUN_RESIZED = -3, /* the terminal's size changed: build the windows again */
        RUN_ESCAPE = -4,  /* Esc on the choice: Cancel */
};

/* newt's SIGWINCH handler, which makes a form end with NEWT_KEY_RESIZE. Debian's newt leaves
 * every newtFormRun() through gpm's cleanup, which puts back the handler gpm found, SIG_DFL
 * when no gpm runs: after the first form ended, resizes went unseen (the screen was never
 * redrawn). It is put back after each run. */
static struct sigaction newt_winch;
static bool have_newt_winch;

static void run_form(newtComponent form, struct newtExitStruct *es)
{
        struct winsize ws;

        newtFormRun(form, es);
        if (!have_newt_winch)
                return;
        (void) sigaction(SIGWINCH, &newt_winch, NULL);
        /* a resize while the handler was away: let the next run see it */
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0 &&
            (ws.ws_col != SLtt_Screen_Cols || ws.ws_row != SLtt_Screen_Rows))
                (void) raise(SIGWINCH);
}

static enum seinstall_mode selected(const struct screen *s)
{
        newtComponent cur = newtRadioGetCurrent(s->radio[0]);

        for (size_t i = 0; i < FB_N_MODES; i++)
                if (cur == s->radio[i])
                        return modes[i];
        return SEINSTALL_MODE_INVALID;
}

static int screen_rows(void)
{
        int cols, rows;

        newtGetScreenSize(&cols, &rows);
        return rows;
}

/* How many lines @text takes in a box @width columns wide, as newt wraps it. */
static int text_lines(const char *text, int width)
{
        newtComponent box = newtTextbox(-1, -1, width, 1, NEWT_FLAG_WRAP);
        int n;

        newtTextboxSetText(box, text);
        n = newtTextboxGetNumLines(box);
        newtComponentDestroy(box);
        return n;
}

/* A box @width columns wide for texts up to @need lines, at most @max_lines high: as high as
 * the text when it fits, else @max_lines and scrolling (newt then adds a focus stop and a
 * scroll bar, which a monochrome terminal does not show: the caller says so in words).
 * *ret_lines is its height. */
static newtComponent text_box(int need, int width, int max_lines, int *ret_lines)
{
        if (need > max_lines) {
                *ret_lines = max_lines;
                /* the scroll bar takes two more columns */
                return newtTextbox(-1, -1, width - 2, max_lines, NEWT_FLAG_WRAP | NEWT_FLAG_SCROLL);
        }
        *ret_lines = need > 0 ? need : 1;
        return newtTextbox(-1, -1, width, *ret_lines, NEWT_FLAG_WRAP);
}

/* Set @text in a box @lines high, padded with empty lines to its height: newt draws only the
 * lines a text has, so a shorter text would leave the end of the previous one on screen.
 * Returns true when the text is longer than the box (it scrolls). */
static bool box_set_text(newtComponent box, int lines, const char *text)
{
        _cleanup_free_ char *padded = NULL;
        int n;

        newtTextboxSetText(box, text);
        n = newtTextboxGetNumLines(box);
        if (n >= lines)
                return n > lines;
        /* "text\n" is one line, each further '\n' one empty line */
        if (asprintf(&padded, "%s%*s", text, lines - n + 1, "") < 0)
                return false;
        memset(padded + strlen(text), '\n', (size_t) (lines - n + 1));
        newtTextboxSetText(box, padded);
        return false;
}

static const char *more_hint(void)
{
        return _("The text above scrolls: Tab to it, then Down or PgDn.");
}

static char *plan_text(const struct screen *s, enum seinstall_mode mode)
{
        struct fb_plan plan;

        if (fb_info_plan(s->info, mode, &plan) < 0)
                return NULL;
        return fb_text_plan(s->info, &plan);
}

static void show_plan(struct screen *s)
{
        _cleanup_free_ char *text = plan_text(s, selected(s));
        bool more = box_set_text(s->plan_box, s->plan_lines, text ? text : "");

        box_set_text(s->hint, 1, more ? more_hint() : "");
}

/* A form that also ends on a resize and on Esc, and ticks each second with a timeout. */
static newtComponent new_form(const struct screen *s)
{
        newtComponent form = newtForm(NULL, NULL, 0);

        newtFormAddHotKey(form, NEWT_KEY_RESIZE);
        newtFormAddHotKey(form, NEWT_KEY_ESCAPE);
        if (s && s->timeout > 0)
                newtFormSetTimer(form, 1000);
        return form;
}

/* A window titled @title with @text and the buttons @b0 and @b1 (NULL: one button); the text
 * fits the terminal or scrolls with @hint under it. Returns the form (the focus on the last
 * button); the buttons in @btn, the text's box in *ret_box, whether it scrolls in
 * *ret_scrolls. */
static newtComponent text_window(const struct screen *s, const char *title, const char *text,
                                 const char *b0, const char *b1, const char *hint,
                                 newtComponent btn[2], newtComponent *ret_box, bool *ret_scrolls)
{
        int max_lines = screen_rows() - TEXT_ROWS, need = text_lines(text, WIDTH - 4), lines;
        newtComponent form, box, hint_box = NULL;
        newtGrid grid, buttons;

        *ret_scrolls = need > max_lines;
        /* a scrolling text gives a row to the line saying so */
        box = text_box(need, WIDTH - 4, *ret_scrolls ? max_lines - 1 : max_lines, &lines);
        newtTextboxSetText(box, text);
        btn[0] = btn[1] = NULL;
        buttons = b1 ? newtButtonBar((char *) b0, &btn[0], (char *) b1, &btn[1], NULL)
                     : newtButtonBar((char *) b0, &btn[0], NULL);
        grid = newtCreateGrid(1, 3);
        newtGridSetField(grid, 0, 0, NEWT_GRID_COMPONENT, box, 0, 0, 0, 0, NEWT_ANCHOR_LEFT, 0);
        if (*ret_scrolls) {
                hint_box = newtTextbox(-1, -1, WIDTH - 4, 1, 0);
                newtTextboxSetText(hint_box, hint);
                newtGridSetField(grid, 0, 1, NEWT_GRID_COMPONENT, hint_box, 0, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
        }
        newtGridSetField(grid, 0, 2, NEWT_GRID_SUBGRID, buttons, 0, 1, 0, 0, 0,
                         NEWT_GRID_FLAG_GROWX);
        newtGridWrappedWindow(grid, (char *) title);
        form = new_form(s);
        newtGridAddComponentsToForm(grid, form, 1);
        newtGridFree(grid, 1);
        newtFormSetCurrent(form, btn[1] ? btn[1] : btn[0]);
        *ret_box = box;
        return form;
}

/* F1: the help text, whole or scrolling (newtWinMessage would cut it at the screen's end).
 * Returns 0 when closed, RUN_RESIZED, or RUN_ERROR. */
static int show_help(void)
{
        newtComponent form, box, btn[2];
        struct newtExitStruct es;
        bool scrolls;
        int result = 0;

        form = text_window(NULL, _("Help"), fb_text_help(), _("OK"), NULL,
                           _("The text above scrolls: Down or PgDn; Enter closes."), btn, &box,
                           &scrolls);
        if (scrolls)
                newtFormSetCurrent(form, box);
        newtPushHelpLine(_("Down/PgDn scroll  Enter, Esc or F1 close"));
        /* Enter and F1 close it too, also while the text has the focus for scrolling. */
        newtFormAddHotKey(form, NEWT_KEY_ENTER);
        newtFormAddHotKey(form, NEWT_KEY_F1);
        run_form(form, &es);
        if (es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_RESIZE)
                result = RUN_RESIZED;
        else if (es.reason == NEWT_EXIT_ERROR)
                result = RUN_ERROR;
        newtFormDestroy(form);
        newtPopWindow();
        newtPopHelpLine();
        return result;
}

static void show_help_line(const struct screen *s, const char *keys)
{
        char *line = NULL;

        if (s->timeout > 0 && asprintf(&line, _("%s  (%d s left)"), keys, s->remaining) < 0)
                line = NULL;
        newtPopHelpLine();
        newtPushHelpLine(line ? line : keys);
        free(line);
        newtRefresh();
}

static const char *choice_keys(void)
{
        return _("F1 help  Space select  Enter OK  Esc cancel  Tab move");
}

/* Called when a radio button is selected: show what it does; a person is there, so the
 * timeout starts over. */
static void radio_changed(newtComponent co, void *data)
{
        struct screen *s = data;

        (void) co;
        s->remaining = s->timeout;
        show_plan(s);
        show_help_line(s, choice_keys());
}

/* A window with @text (scrolled when long) and one or two buttons, the focus on the last one
 * (the one that changes nothing; Esc presses it too). Returns the index of the button pressed
 * (F12: the last one), RUN_TIMEOUT, RUN_RESIZED (the window is gone: show it again once the
 * screen is rebuilt) or RUN_ERROR. */
static int ask(struct screen *s, const char *title, const char *text, const char *b0,
               const char *b1)
{
        const char *keys = _("Tab move  Enter press the button  Esc back  F12 continue");
        newtComponent form, box, btn[2];
        struct newtExitStruct es;
        int result = RUN_ERROR;
        bool scrolls;

        form = text_window(s, title, text, b0, b1, more_hint(), btn, &box, &scrolls);
        s->remaining = s->timeout;
        show_help_line(s, keys);
        for (;;) {
                run_form(form, &es);
                if (es.reason == NEWT_EXIT_TIMER) {
                        if (--s->remaining <= 0) {
                                result = RUN_TIMEOUT;
                                break;
                        }
                        show_help_line(s, keys);
                } else if (es.reason == NEWT_EXIT_COMPONENT && es.u.co != box) {
                        result = es.u.co == btn[0] ? 0 : 1;
                        break;
                } else if (es.reason == NEWT_EXIT_HOTKEY &&
                           (es.u.key == NEWT_KEY_F12 || es.u.key == NEWT_KEY_ESCAPE)) {
                        result = b1 ? 1 : 0;
                        break;
                } else if (es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_RESIZE) {
                        result = RUN_RESIZED;
                        break;
                } else if (es.reason == NEWT_EXIT_ERROR) {
                        break;
                }
        }
        newtFormDestroy(form);
        newtPopWindow();
        return result;
}

/* The terminal's size changed: give slang a screen of the new size and clear it; while it is
 * below FB_MIN_COLS x FB_MIN_ROWS, say so until it is large again. Returns 0 when the screen
 * fits again, RUN_ESCAPE, RUN_TIMEOUT or RUN_ERROR. */
static int resized(struct screen *s)
{
        for (;;) {
                _cleanup_free_ char *msg = NULL;
                newtComponent form, box;
                struct newtExitStruct es;
                int cols, rows;

                SLsmg_reinit_smg();
                newtCls();
                newtGetScreenSize(&cols, &rows);
                if (cols >= FB_MIN_COLS && rows >= FB_MIN_ROWS)
                        return 0;
                if (asprintf(&msg,
                             _("The terminal is %dx%d; this screen needs at least %dx%d. "
                               "Enlarge it to go on, or press Esc to leave without choosing."),
                             cols, rows, FB_MIN_COLS, FB_MIN_ROWS) < 0)
                        return RUN_ERROR;
                /* no window: whatever the size, the words start at the top left */
                box = newtTextbox(0, 0, cols > 1 ? cols - 1 : 1, rows > 1 ? rows - 1 : 1,
                                  NEWT_FLAG_WRAP);
                newtTextboxSetText(box, msg);
                form = new_form(s);
                newtFormAddComponent(form, box);
                for (;;) {
                        run_form(form, &es);
                        if (es.reason != NEWT_EXIT_TIMER || --s->remaining <= 0)
                                break;
                }
                newtFormDestroy(form);
                if (es.reason == NEWT_EXIT_TIMER)
                        return RUN_TIMEOUT;
                if (es.reason == NEWT_EXIT_HOTKEY && es.u.key == NEWT_KEY_ESCAPE)
                        return RUN_ESCAPE;
                if (es.reason != NEWT_EXIT_HOTKEY || es.u.key != NEWT_KEY_RESIZE)
                        return RUN_ERROR;
        }
}

/* ask() again as long as the terminal is resized under it (no window below it). */
static int ask_alone(struct screen *s, const char *title, const char *text, const char *b0,
                     const char *b1)
{
        int r;

        while ((r = ask(s, title, text, b0, b1)) == RUN_RESIZED) {
                r = resized(s);
                if (r == RUN_ESCAPE)
                        return b1 ? 1 : 0;
                if (r < 0)
                        return r;
        }
        return r;
}
/* Before the choice: this boot's denials, and the offer to relabel the files they blame on
 * their labels. Returns 0 to go on to the choice, RUN_TIMEOUT or RUN_ERROR. */
static int offer_relabel(struct screen *s)
{
        const struct fb_denials *d = &s->info->denials;
        newtComponent form;
        char *summary, *msg = NULL, *done;
        int r;

        if (!fb_denials_offer(d) || !s->relabel)
                return 0;
        summary = fb_denials_text(d, FB_DENIAL_PATHS);
        r = ask_alone(s, _("SELinux denials on this boot"), summary ? summary : "",
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
        r = ask_alone(s, _("Relabeled"), done ? done : _("Out of memory."), _("Continue"), NULL);
        free(done);
        return r < 0 ? r : 0;
}

/* Say what needs saying before a choice with lasting consequences is applied, the focus on
 * Back. Returns 1 when the person confirms (or nothing needs confirming), 0 for Back, or
 * RUN_TIMEOUT, RUN_RESIZED (ask again once rebuilt), RUN_ERROR. */
static int confirm(struct screen *s, enum seinstall_mode mode)
{
        const struct fb_state *st = &s->info->state;
        bool from_disabled = fb_state_off(st);
        const char *text;
        struct fb_plan p;
        int r;

        if (fb_info_plan(s->info, mode, &p) < 0)
                return RUN_ERROR;
        if (!p.possible) {
                r = ask(s, _("Not possible"),
                        _("This kernel was built without SELinux. Install a kernel with SELinux, "
                          "or choose Disabled."),
                        _("Back"), NULL);
                return r < 0 ? r : 0;
        }
        if (p.relabel && from_disabled)
                text = _("SELinux is disabled now. To enable it, every file must first get its "
                         "label: files created while SELinux was off have none.\n\n"
                         "At the next boot the system relabels every file in permissive mode, "
                         "showing its progress on the console, then reboots once more. This "
                         "screen then comes back, set on your choice, to switch it on.\n\n"
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
                return 1;
        /* the focus on the last button: Back, the one that changes nothing */
        r = ask(s, _("Before applying"), text, _("Apply"), _("Back"));
        return r < 0 ? r : r == 0;
}

/* The lines the longest of the four plans takes: the plan box is sized for it once. */
static int plan_max_lines(const struct screen *s)
{
        int max = 1;

        for (size_t i = 0; i < FB_N_MODES; i++) {
                _cleanup_free_ char *text = plan_text(s, modes[i]);
                int n = text ? text_lines(text, WIDTH) : 1;
                if (n > max)
                        max = n;
        }
        return max;
}

/* The four choices and the line under each, in a subform: one stop for Tab, arrows move
 * inside it, Enter on a choice leaves the form (OK), as whiptail's radio list. */
static newtComponent build_choices(struct screen *s)
{
        newtGrid radios = newtCreateGrid(1, 2 * FB_N_MODES);
        newtComponent sub = newtForm(NULL, NULL, NEWT_FLAG_NOF12), prev = NULL;

        for (size_t i = 0; i < FB_N_MODES; i++) {
                s->radio[i] = prev =
                    newtRadiobutton(-1, -1, fb_text_mode_name(modes[i]), modes[i] == s->mode, prev);
                newtCheckboxSetFlags(s->radio[i], NEWT_FLAG_RETURNEXIT, NEWT_FLAGS_SET);
                newtComponentAddCallback(s->radio[i], radio_changed, s);
                newtGridSetField(radios, 0, 2 * i, NEWT_GRID_COMPONENT, s->radio[i], 0, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
                newtGridSetField(radios, 0, 2 * i + 1, NEWT_GRID_COMPONENT,
                                 newtLabel(-1, -1, fb_text_mode_line(modes[i])), 4, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
        }
        /* placed once so that the subform knows its size; the window's grid moves it */
        newtGridPlace(radios, 0, 0);
        newtGridAddComponentsToForm(radios, sub, 1);
        newtGridFree(radios, 1);
        for (size_t i = 0; i < FB_N_MODES; i++)
                if (modes[i] == s->mode)
                        newtFormSetCurrent(sub, s->radio[i]);
        return sub;
}

/* Build the choice's window for the terminal's size now, starting on s->mode; the form owns
 * the components. The state and the plan share the rows the four choices leave: each as high
 * as its text, or scrolling with a line right under it saying so. */
static void build(struct screen *s)
{
        _cleanup_free_ char *state = fb_text_state(s->info);
        int spare = screen_rows() - CHOICE_ROWS, state_need, state_lines, state_max;
        newtComponent state_box, state_hint = NULL;
        newtGrid grid, buttons;
        bool state_scrolls;

        /* the state leaves three rows to the plan; scrolling, one of its rows says so */
        state_need = text_lines(state ? state : "", WIDTH);
        state_max = spare - 3;
        state_scrolls = state_need > state_max;
        state_box =
            text_box(state_need, WIDTH, state_scrolls ? state_max - 1 : state_max, &state_lines);
        newtTextboxSetText(state_box, state ? state : "");
        if (state_scrolls) {
                state_hint = newtTextbox(-1, -1, WIDTH, 1, 0);
                newtTextboxSetText(state_hint, more_hint());
                state_lines++;
        }

        s->choices = build_choices(s);
        s->plan_box = text_box(plan_max_lines(s), WIDTH, spare - state_lines, &s->plan_lines);
        /* empty unless the plan is longer than its box */
        s->hint = newtTextbox(-1, -1, WIDTH, 1, 0);
        /* one-line buttons: with four choices, framed ones would not leave 24 rows enough */
        s->ok = newtCompactButton(-1, -1, _("OK"));
        s->cancel = newtCompactButton(-1, -1, _("Cancel"));
        buttons = newtCreateGrid(2, 1);
        newtGridSetField(buttons, 0, 0, NEWT_GRID_COMPONENT, s->ok, 0, 0, 0, 0, 0, 0);
        newtGridSetField(buttons, 1, 0, NEWT_GRID_COMPONENT, s->cancel, 4, 0, 0, 0, 0, 0);

        grid = newtCreateGrid(1, 6);
        newtGridSetField(grid, 0, 0, NEWT_GRID_COMPONENT, state_box, 0, 0, 0, 0, NEWT_ANCHOR_LEFT,
                         0);
        if (state_hint)
                newtGridSetField(grid, 0, 1, NEWT_GRID_COMPONENT, state_hint, 0, 0, 0, 0,
                                 NEWT_ANCHOR_LEFT, 0);
        newtGridSetField(grid, 0, 2, NEWT_GRID_COMPONENT, s->choices, 0, 1, 0, 1, NEWT_ANCHOR_LEFT,
                         0);
        newtGridSetField(grid, 0, 3, NEWT_GRID_COMPONENT, s->plan_box, 0, 0, 0, 0, NEWT_ANCHOR_LEFT,
                         0);
        newtGridSetField(grid, 0, 4, NEWT_GRID_COMPONENT, s->hint, 0, 0, 0, 0, NEWT_ANCHOR_LEFT, 0);
        newtGridSetField(grid, 0, 5, NEWT_GRID_SUBGRID, buttons, 0, 0, 0, 0, 0,
                         NEWT_GRID_FLAG_GROWX);
        newtGridWrappedWindow(grid, _("SELinux on this system"));

        s->form = new_form(s);
        newtGridAddComponentsToForm(grid, s->form, 1);
        newtGridFree(grid, 1);
        newtFormAddHotKey(s->form, NEWT_KEY_F1);
        newtFormSetCurrent(s->form, s->choices);
        show_plan(s);
        /* drawn now: a window shown again over it after a resize must not hide a blank one */
        newtDrawForm(s->form);
        show_help_line(s, choice_keys());
}

static void unbuild(struct screen *s)
{
        s->mode = selected(s);
        newtFormDestroy(s->form);
        newtPopWindow();
        s->form = NULL;
}

/* The choice's window is rebuilt for the terminal's new size. Returns 0, or RUN_ESCAPE,
 * RUN_TIMEOUT, RUN_ERROR from the wait for a size that fits. */
static int rebuild(struct screen *s)
{
        int r;

        unbuild(s);
        r = resized(s);
        if (r == 0)
                build(s);
        return r;
}

enum fb_terminal fb_screen_terminal(int *ret_cols, int *ret_rows)
{
        const char *term = getenv("TERM");

        *ret_cols = *ret_rows = 0;
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
                return FB_TERMINAL_NO_TTY;
        if (!term || !*term)
                return FB_TERMINAL_NO_TERM;
        /* What newtInit() asks of the terminal, answered without its exit(1) on failure:
         * terminfo knows TERM and it can clear the screen and place the cursor (dumb cannot). */
        if (SLtt_initialize((char *) term) != 0)
                return FB_TERMINAL_UNUSABLE;
        /* the window's size, else the LINES and COLUMNS of the environment, else terminfo's
         * (a serial console reports no size: vt100 and vt220 say 80x24) */
        SLtt_get_screen_size();
        *ret_cols = SLtt_Screen_Cols;
        *ret_rows = SLtt_Screen_Rows;
        if (*ret_cols < FB_MIN_COLS || *ret_rows < FB_MIN_ROWS)
                return FB_TERMINAL_TOO_SMALL;
        return FB_TERMINAL_OK;
}

/* What the choice's window was left with. */
enum action { NONE, HELP, CONFIRM, TICK, RESIZE, CANCEL, ERROR };

static enum action action_of(const struct screen *s, const struct newtExitStruct *es)
{
        if (es->reason == NEWT_EXIT_TIMER)
                return TICK;
        if (es->reason == NEWT_EXIT_ERROR)
                return ERROR;
        if (es->reason == NEWT_EXIT_COMPONENT)
                return es->u.co == s->cancel                         ? CANCEL
                       : es->u.co == s->ok || es->u.co == s->choices ? CONFIRM
                                                                     : NONE;
        if (es->reason != NEWT_EXIT_HOTKEY)
                return NONE;
        switch (es->u.key) {
        case NEWT_KEY_F1:
                return HELP;
        case NEWT_KEY_F12:
                return CONFIRM;
        case NEWT_KEY_RESIZE:
                return RESIZE;
        case NEWT_KEY_ESCAPE:
                return CANCEL;
        default:
                return NONE;
        }
}

enum fb_screen_result fb_screen_run(const struct fb_info *info, enum seinstall_mode initial,
                                    int timeout_sec, fb_relabel_fn relabel, void *userdata,
                                    enum seinstall_mode *ret_mode)
{
        struct screen s = {.info = info,
                           .relabel = relabel,
                           .userdata = userdata,
                           .mode = initial == SEINSTALL_MODE_INVALID ? SEINSTALL_MODE_DISABLED
                                                                     : initial,
                           .timeout = timeout_sec,
                           .remaining = timeout_sec};
        enum fb_screen_result result;
        /* a window over the choice to show again once it is rebuilt after a resize */
        enum action next = NONE;
        int r;

        if (newtInit() < 0)
                return FB_SCREEN_ERROR;
        have_newt_winch = sigaction(SIGWINCH, NULL, &newt_winch) == 0;
        newtCls();
        newtPushHelpLine(NULL);
        r = offer_relabel(&s);
        if (r < 0) {
                newtFinished();
                return r == RUN_TIMEOUT ? FB_SCREEN_TIMEOUT : FB_SCREEN_ERROR;
        }
        s.remaining = s.timeout;
        build(&s);

        for (;;) {
                enum action a = next, again = NONE;

                next = NONE;
                if (a == NONE) {
                        struct newtExitStruct es;
                        run_form(s.form, &es);
                        a = action_of(&s, &es);
                }
                switch (a) {
                case HELP:
                        s.remaining = s.timeout;
                        r = show_help();
                        again = HELP;
                        break;
                case CONFIRM:
                        s.remaining = s.timeout;
                        r = confirm(&s, selected(&s));
                        again = CONFIRM;
                        break;
                case TICK:
                        r = --s.remaining <= 0 ? RUN_TIMEOUT : 0;
                        break;
                case RESIZE:
                        r = RUN_RESIZED;
                        break;
                case CANCEL:
                        r = RUN_ESCAPE;
                        break;
                case ERROR:
                        r = RUN_ERROR;
                        break;
                default:
                        continue;
                }
                if (r == 1 && a == CONFIRM)
                        break;
                if (r == 0) {
                        show_help_line(&s, choice_keys());
                        continue;
                }
                if (r == RUN_RESIZED) {
                        r = rebuild(&s);
                        if (r == 0) {
                                next = again;
                                continue;
                        }
                }
                break;
        }
        if (r == 1) {
                result = FB_SCREEN_OK;
                *ret_mode = selected(&s);
        } else
                result = r == RUN_TIMEOUT  ? FB_SCREEN_TIMEOUT
                         : r == RUN_ESCAPE ? FB_SCREEN_CANCEL
                                           : FB_SCREEN_ERROR;
        if (s.form) {
                newtFormDestroy(s.form);
                newtPopWindow();
        }
        newtFinished();
        return result;
}
