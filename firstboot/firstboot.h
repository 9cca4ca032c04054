/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* firstboot.h — what the parts of seinstall-firstboot (main, state, text, screen) share. */
#ifndef SEINSTALL_FIRSTBOOT_H
#define SEINSTALL_FIRSTBOOT_H

#include <stdbool.h>

#include "i18n.h"
#include "model.h"
#include "seinstall-internal.h"
#include "util.h"

/* Exit status of the command-line contract: util.h's one table (si_exit_status()). */
#define FB_EXIT_OK     SI_EXIT_OK
#define FB_EXIT_USAGE  SI_EXIT_USAGE
#define FB_EXIT_SYSTEM SI_EXIT_SYSTEM

/* Everything the screen and the printers need, gathered before the screen starts. */
struct fb_info {
        struct fb_state state;
        enum seinstall_mode mark_mode; /* mode= of the first-boot mark, INVALID when none */
        bool mark_after_install;       /* ... chosen with seinstall-firstboot, not at install */
        const char *root;              /* the target, "/" for the running system */
        const char *cmdline;           /* the boot loader's command line, or NULL */
        /* what applying each mode would write, indexed by enum seinstall_mode: the library's
         * dry run, asked before the screen starts */
        struct fb_prediction predictions[FB_N_MODES];
        /* this boot's denials, read when the system runs permissive (or a log was given);
         * fb_info_done() releases them */
        struct fb_denials denials;
};

/* Read the target's state through seinstall_status_read() into @info (strings stay owned by
 * *ret_status, which the caller unrefs), and the library's prediction for every mode (released
 * by fb_info_done()). Returns 0 or a negative errno. */
int fb_info_read(struct seinstall_ctx *ctx, struct fb_info *info,
                 struct seinstall_status_result **ret_status);
void fb_info_done(struct fb_info *info);
/* The plan of choosing @mode: fb_plan_for() on the state and the prediction gathered. */
int fb_info_plan(const struct fb_info *info, enum seinstall_mode mode, struct fb_plan *ret);
/* The choice the screen starts on: the trial while one is pending, else the mode chosen at
 * install (the mark) when there is one, else the mode the next boot gets. */
enum seinstall_mode fb_info_initial_mode(const struct fb_info *info);

/* Texts, translated, newly allocated (NULL on ENOMEM). */
char *fb_text_state(const struct fb_info *info);
char *fb_text_plan(const struct fb_info *info, const struct fb_plan *plan);
/* The line --yes and the screen print last, whatever the outcome of applying @plan: what now
 * holds and when it takes effect. */
char *fb_text_outcome(const struct fb_info *info, const struct fb_plan *plan, bool changed);
const char *fb_text_mode_name(enum seinstall_mode mode);
const char *fb_text_mode_line(enum seinstall_mode mode);
const char *fb_text_help(void);

/* The smallest terminal the screen is laid out for. */
#define FB_MIN_COLS 80
#define FB_MIN_ROWS 24

enum fb_terminal {
        FB_TERMINAL_OK,
        FB_TERMINAL_NO_TTY,    /* standard input or output is no terminal */
        FB_TERMINAL_NO_TERM,   /* TERM is unset or empty */
        FB_TERMINAL_UNUSABLE,  /* terminfo does not know TERM, or it cannot place the cursor */
        FB_TERMINAL_TOO_SMALL, /* below FB_MIN_COLS x FB_MIN_ROWS */
};

/* Whether the screen can be shown here, asked before newtInit() (which would exit(1) with a
 * message of its own, or draw off screen); the terminal's size in *ret_cols and *ret_rows when
 * known, else 0. */
enum fb_terminal fb_screen_terminal(int *ret_cols, int *ret_rows);

enum fb_screen_result {
        FB_SCREEN_OK = 0,
        FB_SCREEN_CANCEL,
        FB_SCREEN_TIMEOUT,
        FB_SCREEN_ERROR,
};

/* Relabel the files this boot's denials blame on their labels (info->denials), while the
 * screen shows that it runs; returns what it did as text (newly allocated, NULL on ENOMEM). */
typedef char *(*fb_relabel_fn)(void *userdata);

/* Show the screen (newtInit .. newtFinished) starting on @initial; on FB_SCREEN_OK the chosen
 * mode is in *ret_mode. @timeout_sec > 0 ends an untouched screen with FB_SCREEN_TIMEOUT.
 * When info->denials has files to offer, a window before the choice shows the summary and
 * offers to relabel them (through @relabel), then shows what that did. */
enum fb_screen_result fb_screen_run(const struct fb_info *info, enum seinstall_mode initial,
                                    int timeout_sec, fb_relabel_fn relabel, void *userdata,
                                    enum seinstall_mode *ret_mode);

#endif
