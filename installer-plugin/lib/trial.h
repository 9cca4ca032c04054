/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trial.h — what the trial's record (trial-state.c) and its decision (trial.c) share. */
#ifndef SEINSTALL_TRIAL_H
#define SEINSTALL_TRIAL_H

#include "seinstall-private.h"

/* ---- the trial mode (trial.c) --------------------------------------------------------- */

/* One file a label denial named (or a boot-critical file found mislabeled), and the command
 * that fixes it (may be NULL). */
struct si_trial_file {
        const char *path;
        const char *fix;
};
/* What a boot showed: the classified denials (avc.c) the decision rests on. */
struct si_trial_evidence {
        unsigned long long denials;       /* every denial read */
        unsigned long long label_denials; /* of those, caused by a label */
        unsigned long long mislabeled;    /* boot-critical files whose label is wrong now */
        const struct si_trial_file *files;
        size_t n_files;
        const char *log; /* the log read */
};
/* The decision, without I/O: a pending @cur with @ev, at @now, gives the new state in *ret
 * (enforced when no denial was caused by a label and no boot-critical file is mislabeled, else
 * kept-permissive with the files) and 1;
 * any other @cur decides nothing: 0 and *ret NULL. */
int si_trial_decide_from(const struct seinstall_trial_result *cur,
                         const struct si_trial_evidence *ev, const char *now,
                         struct seinstall_trial_result **ret);
/* A new, empty state; a file appended to one (listed once, at most 100). */
int si_trial_new(enum seinstall_trial_state state, struct seinstall_trial_result **ret);
int si_trial_add_path(struct seinstall_trial_result *t, const char *path, const char *fix);
/* The state file's text of @t, and back (@name, the file, for messages; -EBADMSG). */
int si_trial_render(const struct seinstall_trial_result *t, char **ret);
int si_trial_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                   struct seinstall_trial_result **ret);
/* seinstall_trial_read(), but a state file that cannot be read or parsed gives state NONE with
 * the reason in the "error" field (status shows the rest of the state anyway). */
int si_trial_read_for_status(struct seinstall_ctx *ctx, struct seinstall_trial_result **ret);
/* Record a pending trial for @policy: 1 written, 0 already pending for it, -errno. */
int si_trial_start(struct seinstall_ctx *ctx, const char *policy, unsigned wflags);
/* A pending trial ends as "cancelled" (a mode chosen by hand): 1 written, 0 none pending. */
int si_trial_cancel(struct seinstall_ctx *ctx, unsigned wflags);
/* Enable seinstall-trial.service in the target (its multi-user.target.wants link); 1 made,
 * 0 already, -errno; *ret_path names the link. */
int si_trial_enable_unit(struct seinstall_ctx *ctx, unsigned wflags, const char **ret_path);
/* Whether the unit file is installed in the target (/etc, /usr/lib or /lib systemd/system). */
bool si_trial_unit_installed(struct seinstall_ctx *ctx);

#define TRIAL_STATE_MAX (64 * 1024)
#define TRIAL_PATHS_MAX 100
#define TRIAL_WANTS     "/etc/systemd/system/multi-user.target.wants/" SEINSTALL_TRIAL_UNIT
#define TRIAL_UNIT_LINK "/lib/systemd/system/" SEINSTALL_TRIAL_UNIT

struct seinstall_trial_result {
        unsigned extra_refs; /* references beyond the maker's: 0 as made (calloc) */
        enum seinstall_trial_state state;
        char *policy, *started, *decided, *log;
        unsigned long long denials, label_denials, mislabeled;
        char **paths, **fixes; /* as many */
        size_t n_paths, cap_paths, cap_fixes;
        bool enforcing_now;
        char *setenforce_error;
        char *error; /* status only: why the state file could not be read */
};

DEFINE_CLEANUP_FUNC(struct seinstall_trial_result *, seinstall_trial_result_unref)

/* Replace *@to with a copy of @s (may be NULL). */
int si_trial_set_str(char **to, const char *s);
/* The recorded state; NONE when there is no state file. */
int si_trial_read_state(struct seinstall_ctx *ctx, struct seinstall_trial_result **ret);
/* Write @t as the state file (atomically); 0 when it already says that, 1 when written. */
int si_trial_write_state(struct seinstall_ctx *ctx, const struct seinstall_trial_result *t,
                         unsigned wflags);
/* Now, as the state file records times (UTC, ISO 8601). */
int si_trial_now_utc(char buf[static 32]);

#endif
