/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* opts.c — option parsing shared by `seinstall` and seinstall-firstboot (opts.h): the values
 * both take alike, read one way. No output: the callers word their own errors. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

void opt_reset(void)
{
        optind = 0;
}

int opt_parse_mode(const char *arg, enum seinstall_mode *ret_mode)
{
        enum seinstall_mode m = arg ? seinstall_mode_from_string(arg) : SEINSTALL_MODE_INVALID;

        if (m == SEINSTALL_MODE_INVALID)
                return -EINVAL;
        *ret_mode = m;
        return 0;
}

int opt_parse_uint(const char *arg, unsigned long min, unsigned long max, unsigned long *ret)
{
        const char *p = arg;
        char *end;
        unsigned long n;

        if (!arg)
                return -EINVAL;
        while (isspace((unsigned char) *p))
                p++;
        if (!isdigit((unsigned char) *p))
                return -EINVAL;
        errno = 0;
        n = strtoul(p, &end, 10);
        if (errno || *end || n < min || n > max)
                return -EINVAL;
        *ret = n;
        return 0;
}
