/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* opts.h — option parsing shared by the front ends: the nine `seinstall` subcommands (cli/)
 * and seinstall-firstboot (firstboot/main.c) compile opts.c. One getopt_long() loop for all of
 * them; the options several of them take (--root, --json, --mode, --policy, --threads, ...) are
 * defined, read and checked here once, with one wording for a bad value and one for options
 * that exclude each other. A front end adds its own options through a callback and prints the
 * one-line error this file words (no output here, getopt_long()'s own included: the error names
 * the option and says whether it is unknown, ambiguous, missing its value or given one it does
 * not take). */
#ifndef SEINSTALL_OPTS_H
#define SEINSTALL_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "seinstall.h"

/* The codes getopt_long() returns for the shared options: above every character, so a
 * command's own codes ('p', 'x', ...) never meet them. --help is 'h', so that -h works too. */
enum {
        OPT_ROOT = 0x100, /* --root DIR */
        OPT_JSON,         /* --json */
        OPT_MODE,         /* --mode M */
        OPT_POLICY,       /* --policy TYPE */
        OPT_THREADS,      /* --threads N */
        OPT_PROGRESS,     /* --progress */
        OPT_NO_PROGRESS,  /* --no-progress */
        OPT_DRY_RUN,      /* --dry-run */
        OPT_UNSUPPORTED,  /* --unsupported refuse|warn */
        OPT_CMDLINE,      /* --cmdline FILE */
        OPT_NO_CMDLINE,   /* --no-cmdline */
        OPT_LOG,          /* --log FILE */
        OPT_VERSION,      /* --version */
        OPT_SHARED_END,
        OPT_HELP = 'h', /* --help, -h: taken by every front end */
};

/* A shared option's bit in struct opts_spec's @shared. */
#define OPT_BIT(code) (1u << (code - OPT_ROOT))
/* What every `seinstall` subcommand takes (seinstall(8)). */
#define OPTS_COMMON   (OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_JSON))
#define OPTS_PROGRESS (OPT_BIT(OPT_PROGRESS) | OPT_BIT(OPT_NO_PROGRESS))
#define OPTS_CMDLINE  (OPT_BIT(OPT_CMDLINE) | OPT_BIT(OPT_NO_CMDLINE))

/* The values of the shared options, and what the parse found. Start from OPTS_INIT; release
 * with opts_done(). */
struct opts {
        const char *root;         /* --root DIR; NULL: not given */
        bool json;                /* --json */
        enum seinstall_mode mode; /* --mode; SEINSTALL_MODE_INVALID: not given */
        const char *policy;       /* --policy TYPE, a valid policy type name; NULL: not given */
        unsigned threads;         /* --threads N, 1 to 1024; 0: not given */
        int progress;             /* --progress 1, --no-progress 0 (the last one given); -1 */
        bool dry_run;             /* --dry-run */
        int unsupported_warn;     /* --unsupported warn 1, refuse 0; -1: not given */
        const char *cmdline;      /* --cmdline FILE */
        bool no_cmdline;          /* --no-cmdline */
        const char *log;          /* --log FILE */
        bool help;                /* --help or -h: the parse stopped there */
        bool version;             /* --version: the parse stopped there */
        char **args;              /* the arguments that are not options, in order */
        size_t n_args;
        char *error;               /* after -EINVAL: what was wrong, one line without the name
                                    * of the program, in the locale's language */
        char *error_untranslated;  /* the same in English, for a JSON error document */
        bool seen[OPT_SHARED_END]; /* options given, by code: for opts_spec's exclusive */
};

#define OPTS_INIT                                                                                  \
        {                                                                                          \
                .mode = SEINSTALL_MODE_INVALID, .progress = -1, .unsupported_warn = -1             \
        }

/* Free what a parse allocated (the error); @o stays usable. */
void opts_done(struct opts *o);

/* What one front end takes. */
struct opts_spec {
        unsigned shared;          /* OPT_BIT()s of the shared options taken (--help always) */
        const struct option *own; /* the command's own options, ending with {}; or NULL */
        /* Called for each of them: 0 to go on, or opts_invalid()'s -EINVAL. */
        int (*own_option)(struct opts *o, int opt, const char *arg, void *userdata);
        void *userdata;
        const int (*exclusive)[2]; /* pairs of codes that exclude each other, ending {0, 0} */
        size_t max_args;           /* arguments that are not options allowed */
};

/* Parse @argv (argv[0] is the program's or command's name) by @spec from the start, options
 * and arguments in any order, up to "--". Returns 1 when the command goes on; 0 when --help or
 * --version stopped the parse (o->help, o->version); -EINVAL for bad usage with o->error set
 * (an unknown option, a bad value, an extra argument, two options that exclude each other);
 * -ENOMEM. */
int opts_parse(struct opts *o, const struct opts_spec *spec, int argc, char **argv);

/* The error of a bad value, for every option alike: "invalid --@name '@value': use @use".
 * @use is English, marked N_(): o->error shows its translation. Returns -EINVAL (or
 * -ENOMEM). */
int opts_invalid(struct opts *o, const char *name, const char *value, const char *use);

/* Start getopt_long() over on a new argument vector: optind = 0, glibc's full reset (it also
 * forgets a half-read "-abc" cluster and rescans GNU argument permutation). */
void opt_reset(void);

/* The value of --mode: "enforcing", "permissive", "disabled" or "trial"
 * (seinstall_mode_from_string()). -EINVAL for anything else, with nothing written. */
int opt_parse_mode(const char *arg, enum seinstall_mode *ret_mode);

/* A decimal number from @min to @max, the whole of @arg (leading blanks allowed, as strtoul
 * allows them; no sign). -EINVAL for anything else, with nothing written. */
int opt_parse_uint(const char *arg, unsigned long min, unsigned long max, unsigned long *ret);

#endif
