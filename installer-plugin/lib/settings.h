/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* settings.h — the settings of an install and the decision made from them (settings.c). Not
 * installed. */
#ifndef SEINSTALL_SETTINGS_H
#define SEINSTALL_SETTINGS_H

#include "seinstall-private.h"
#include "config.h"

/* ---- settings (settings.c) ------------------------------------------------------------- */

/* The settings whose deciding line is tracked. */
/* (the public enum seinstall_setting) */
#define si_setting             seinstall_setting
#define SI_SETTING_MODE        SEINSTALL_SETTING_MODE
#define SI_SETTING_POLICY      SEINSTALL_SETTING_POLICY
#define SI_SETTING_UNSUPPORTED SEINSTALL_SETTING_UNSUPPORTED
#define SI_SETTING_RELABEL     SEINSTALL_SETTING_RELABEL_WHEN
#define _SI_SETTING_MAX        (SEINSTALL_SETTING_RELABEL_WHEN + 1)
/* Record that @file:@line (@text: the line or option, may be NULL) decided @which; call it
 * right after the setter applied the value (a setter that applies clears the origin). */
int si_settings_set_origin(struct seinstall_settings *s, enum si_setting which, const char *file,
                           unsigned line, const char *text);

struct si_config;

/* The plan of an install (and of a check): the mode and the policy type, each with the source
 * that decided it, by precedence: @settings (boot, profile; may be NULL) over the target's
 * config @config (read once by the caller) over the defaults (enforcing, "default"). */
struct si_decision {
        enum seinstall_mode mode;
        enum seinstall_source mode_source;
        char *policy;                        /* policy type, owned */
        enum seinstall_source policy_source; /* boot, profile, target or default */
        bool trial; /* the trial mode: @mode is enforcing, the mode it aims at */
};
int si_settings_decide(const struct seinstall_settings *settings, const struct si_config *config,
                       struct si_decision *ret);
void si_decision_done(struct si_decision *d);

#endif
