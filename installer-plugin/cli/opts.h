/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* opts.h — option parsing shared by the front ends: the nine `seinstall` subcommands (cli/)
 * and seinstall-firstboot (firstboot/main.c) compile opts.c. One reading of each value they
 * take alike, one way to start getopt over; each caller prints its own message on -EINVAL,
 * because those words and the exit statuses are the command-line contract. */
#ifndef SEINSTALL_OPTS_H
#define SEINSTALL_OPTS_H

#include <stdbool.h>

#include "seinstall.h"

/* Start getopt_long() over on a new argument vector: optind = 0, glibc's full reset (it also
 * forgets a half-read "-abc" cluster and rescans GNU argument permutation). Every parser calls
 * it before its loop. */
void opt_reset(void);

/* The value of --mode: "enforcing", "permissive", "disabled" or "trial"
 * (seinstall_mode_from_string()). -EINVAL for anything else, with nothing written. */
int opt_parse_mode(const char *arg, enum seinstall_mode *ret_mode);

/* A decimal number from @min to @max, the whole of @arg (leading blanks allowed, as strtoul
 * allows them; no sign). -EINVAL for anything else, with nothing written. */
int opt_parse_uint(const char *arg, unsigned long min, unsigned long max, unsigned long *ret);

#endif
