/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox.h — running the target's programs: confined (confine.c), under bubblewrap
 * (sandbox.c and the files it names) with their output relayed (sandbox-relay.c). Not
 * installed. */
#ifndef SEINSTALL_SANDBOX_H
#define SEINSTALL_SANDBOX_H

#include "seinstall-private.h"

/* ---- running the target's code confined (confine.c) --------------------------------------- */

/* Drop every capability and the bounding set, set no_new_privs (in a forked child). */
int si_drop_privileges(void);

/* ---- the ids the target's programs run as (sandbox-userns.c) ------------------------------ */

/* How many ids the user namespace maps: 0..65535 inside, a range of the host's outside. */
#define SI_USERNS_IDS 65536U
struct si_uidrange {
        uid_t base;  /* the host id that is root inside */
        int lock_fd; /* held while the range is in use */
};
#define SI_UIDRANGE_NULL ((struct si_uidrange){.lock_fd = -1})
/* Reserve a range of SI_USERNS_IDS host ids that no account names, no process runs as and no
 * other seinstall holds. -EBUSY when none was found, -errno. */
int si_uidrange_reserve(struct si_uidrange *ret);
void si_uidrange_release(struct si_uidrange *u);
/* A new user namespace mapping uid and gid 0..SI_USERNS_IDS-1 to @base...: its fd in *ret_fd.
 * -EPERM when the kernel allows none (user.max_user_namespaces is 0, or a security module
 * refuses), -errno. */
int si_userns_make(uid_t base, int *ret_fd);

/* ---- the sandbox for the target's programs (sandbox.c) ----------------------------------- */

/* Run @argv (a program of the target, by its path inside the target) the one way seinstall
 * runs one: under bubblewrap (sandbox.c says how), its output relayed line by line through the
 * log, escaped and bounded, within the wall-clock limit and the process and memory limits of
 * its cgroup (sandbox-cgroup.h). 0 when it exited 0; -ETIME when it was killed at the
 * wall-clock limit, -EAGAIN at the process limit, -ENOMEM at the memory limit,
 * -SEINSTALL_ERROR_PROGRAM_FAILED when it failed, -ENOPKG, -EOPNOTSUPP (no cgroup),
 * -SEINSTALL_ERROR_NOT_CONFINED or -EPERM (the kernel's) when no sandbox could be set up (then
 * nothing ran), each with the message set. The root "/" runs it unconfined (the
 * running system's own program) but with the same output handling and limit. */
int si_run_in_target(struct seinstall_ctx *ctx, const char *const *argv);
/* Whether si_run_in_target() could run @argv: everything it sets up but the run, each failure
 * with the message it would give (then nothing ran, and nothing of the target changed but the
 * mount points /dev, /proc, /sys and /run made where missing). */
int si_sandbox_probe(struct seinstall_ctx *ctx, const char *const *argv);
/* Whether @name, a UUID or partition UUID read from a device of the target, may name a link
 * in the sandbox's /dev/disk/by-uuid or by-partuuid: 1 to SI_SANDBOX_LINK_NAME_MAX of the
 * characters udev leaves as they are (ASCII letters, digits, #+-.:=@_), not "." and no "..";
 * never a '/', a control character or a byte above 0x7f. */
#define SI_SANDBOX_LINK_NAME_MAX 128
bool si_sandbox_link_name_ok(const char *name);

/* Whether the sandbox's ioctl filter lets @request through (the read-only queries of a
 * terminal, a block device or a filesystem). */
bool si_sandbox_ioctl_allowed(unsigned long request);

/* Output of a program of the target on its way to the log (sandbox-relay.c): each line escaped
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
