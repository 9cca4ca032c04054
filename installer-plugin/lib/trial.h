/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trial.h — what the trial's record (trial-state.c) and its decision (trial.c) share. */
#ifndef SEINSTALL_TRIAL_H
#define SEINSTALL_TRIAL_H

#include "seinstall-private.h"

#define TRIAL_STATE_MAX (64 * 1024)
#define TRIAL_PATHS_MAX 100
#define TRIAL_WANTS     "/etc/systemd/system/multi-user.target.wants/" SEINSTALL_TRIAL_UNIT
#define TRIAL_UNIT_LINK "/lib/systemd/system/" SEINSTALL_TRIAL_UNIT

struct seinstall_trial {
        enum seinstall_trial_state state;
        char *policy, *started, *decided, *log;
        unsigned long long denials, label_denials, mislabeled;
        char **paths, **fixes;
        size_t n_paths;
        bool enforcing_now;
        char *setenforce_error;
        char *error; /* status only: why the state file could not be read */
};

DEFINE_CLEANUP_FUNC(struct seinstall_trial *, seinstall_trial_free)

/* Replace *@to with a copy of @s (may be NULL). */
int si_trial_set_str(char **to, const char *s);
/* The recorded state; NONE when there is no state file. */
int si_trial_read_state(struct seinstall_ctx *ctx, struct seinstall_trial **ret);
/* Write @t as the state file (atomically); 0 when it already says that, 1 when written. */
int si_trial_write_state(struct seinstall_ctx *ctx, const struct seinstall_trial *t,
                         unsigned wflags);
/* Now, as the state file records times (UTC, ISO 8601). */
int si_trial_now_utc(char buf[static 32]);

#endif
