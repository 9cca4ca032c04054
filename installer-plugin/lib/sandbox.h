/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox.h — running the target's programs: confined (confine.c), under bubblewrap with their
 * output relayed (sandbox.c). Not installed. */
#ifndef SEINSTALL_SANDBOX_H
#define SEINSTALL_SANDBOX_H

#include "seinstall-private.h"

/* ---- running the target's code confined (confine.c) --------------------------------------- */

/* Drop every capability and the bounding set, set no_new_privs (in a forked child). */
int si_drop_privileges(void);

/* ---- the sandbox for the target's programs (sandbox.c) ----------------------------------- */

/* Run @argv (a program of the target, by its path inside the target) the one way seinstall
 * runs one: under bubblewrap (sandbox.c says how), its output relayed line by line through the
 * log, escaped and bounded, within the wall-clock limit and the process and memory limits of
 * its cgroup (sandbox-cgroup.h). 0 when it exited 0; -ETIME when it was killed at the
 * wall-clock limit, -EAGAIN at the process limit, -ENOMEM at the memory limit, -EIO when it
 * failed, -ENOPKG, -EOPNOTSUPP (no cgroup) or -EPERM when no sandbox could be set up (then
 * nothing ran), each with the message set. The root "/" runs it unconfined (the
 * running system's own program) but with the same output handling and limit. */
int si_run_in_target(struct seinstall_ctx *ctx, const char *const *argv);
/* The wall-clock limit in seconds from @text (SEINSTALL_SANDBOX_TIMEOUT; NULL or empty: the
 * default of 300): 1..86400, else -EINVAL. */
int si_sandbox_timeout(const char *text, unsigned *ret);
/* Whether @name, a UUID or partition UUID read from a device of the target, may name a link
 * in the sandbox's /dev/disk/by-uuid or by-partuuid: 1 to SI_SANDBOX_LINK_NAME_MAX of the
 * characters udev leaves as they are (ASCII letters, digits, #+-.:=@_), not "." and no "..";
 * never a '/', a control character or a byte above 0x7f. */
#define SI_SANDBOX_LINK_NAME_MAX 128
bool si_sandbox_link_name_ok(const char *name);

/* Output of a program of the target on its way to the log: each line escaped
 * (str_escape_display()), cut at SI_RELAY_LINE_MAX bytes, prefixed with @name, at most
 * SI_RELAY_LINES lines and SI_RELAY_MAX bytes shown in all; what is left out is counted and
 * said at the end. */
#define SI_RELAY_LINE_MAX 512
#define SI_RELAY_LINES    400
#define SI_RELAY_MAX      (32 * 1024)
struct si_relay {
        const char *name;
        struct sbuf line;
        size_t lines;    /* lines shown */
        size_t line_cut; /* bytes of the current line past SI_RELAY_LINE_MAX */
        size_t shown;    /* bytes of output shown */
        size_t hidden;   /* bytes of output not shown */
        char *last;      /* the last line shown, escaped (for an error message) */
};
void si_relay_feed(struct seinstall_ctx *ctx, struct si_relay *r, const char *buf, size_t n);
/* Show the unfinished last line and what was left out; free what @r holds but .last. */
void si_relay_end(struct seinstall_ctx *ctx, struct si_relay *r);

#endif
