/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* opts.c — option parsing shared by `seinstall` and seinstall-firstboot (opts.h): one loop,
 * one table of the shared options, one check of each shared value and one wording of each
 * error. No output of its own (getopt_long()'s messages are turned off). The words are
 * marked for gettext: both commands show them in the locale's language (i18n.h). */
#include <ctype.h>
#include <errno.h>
#include <libintl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "util.h"

#define _(s)  gettext(s)
#define N_(s) s

/* Every shared option, once; a front end picks some by OPT_BIT(). */
static const struct option shared_options[] = {
    {"root", required_argument, NULL, OPT_ROOT},
    {"json", no_argument, NULL, OPT_JSON},
    {"mode", required_argument, NULL, OPT_MODE},
    {"policy", required_argument, NULL, OPT_POLICY},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"unsupported", required_argument, NULL, OPT_UNSUPPORTED},
    {"cmdline", required_argument, NULL, OPT_CMDLINE},
    {"no-cmdline", no_argument, NULL, OPT_NO_CMDLINE},
    {"log", required_argument, NULL, OPT_LOG},
    {"version", no_argument, NULL, OPT_VERSION},
};
static const struct option help_option = {"help", no_argument, NULL, OPT_HELP};

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

void opts_done(struct opts *o)
{
        free(o->error);
        o->error = NULL;
        free(o->error_untranslated);
        o->error_untranslated = NULL;
}

/* o->error from the English @fmt (xgettext collects it, --keyword=opts_error:2): in the
 * locale's language, and as written in o->error_untranslated. */
static int opts_verror(struct opts *o, const char *fmt, va_list ap) _printf_(2, 0);
static int opts_verror(struct opts *o, const char *fmt, va_list ap)
{
        va_list aq;

        opts_done(o);
        va_copy(aq, ap);
        o->error = str_vprintf(gettext(fmt), ap);
        o->error_untranslated = str_vprintf(fmt, aq);
        va_end(aq);
        return o->error && o->error_untranslated ? -EINVAL : -ENOMEM;
}

static int opts_error(struct opts *o, const char *fmt, ...) _printf_(2, 3);
static int opts_error(struct opts *o, const char *fmt, ...)
{
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = opts_verror(o, fmt, ap);
        va_end(ap);
        return r;
}

int opts_invalid(struct opts *o, const char *name, const char *value, const char *use)
{
        /* TRANSLATORS: the last %s is one of the lists of values below ("refuse or warn") */
        static const char *const fmt = N_("invalid --%s '%s': use %s");

        opts_done(o);
        o->error = str_printf(_(fmt), name, value, _(use));
        o->error_untranslated = str_printf(fmt, name, value, use);
        return o->error && o->error_untranslated ? -EINVAL : -ENOMEM;
}

/* What the library accepts as a policy type (a directory name under /etc/selinux), asked of
 * the library itself so that the rule lives in one place. */
static int policy_type_valid(const char *type)
{
        struct seinstall_settings *s = NULL;
        int r = seinstall_settings_new(&s);

        if (r < 0)
                return r;
        r = seinstall_settings_set_policy(s, type, SEINSTALL_SOURCE_OPTION) >= 0;
        seinstall_settings_unref(s);
        return r;
}

static int take_shared(struct opts *o, int opt, const char *arg)
{
        unsigned long n;
        int r;

        switch (opt) {
        case OPT_ROOT:
                o->root = arg;
                return 0;
        case OPT_JSON:
                o->json = true;
                return 0;
        case OPT_MODE:
                if (opt_parse_mode(arg, &o->mode) < 0)
                        return opts_invalid(o, "mode", arg,
                                            N_("enforcing, permissive, disabled or trial"));
                return 0;
        case OPT_POLICY:
                r = policy_type_valid(arg);
                if (r < 0)
                        return r;
                if (r == 0)
                        return opts_invalid(o, "policy", arg,
                                            N_("a policy type, a directory name under "
                                               "/etc/selinux"));
                o->policy = arg;
                return 0;
        case OPT_THREADS:
                if (opt_parse_uint(arg, 1, 1024, &n) < 0)
                        return opts_invalid(o, "threads", arg, N_("a number from 1 to 1024"));
                o->threads = (unsigned) n;
                return 0;
        case OPT_PROGRESS:
        case OPT_NO_PROGRESS:
                o->progress = opt == OPT_PROGRESS;
                return 0;
        case OPT_DRY_RUN:
                o->dry_run = true;
                return 0;
        case OPT_UNSUPPORTED:
                if (!streq(arg, "warn") && !streq(arg, "refuse"))
                        return opts_invalid(o, "unsupported", arg, N_("refuse or warn"));
                o->unsupported_warn = streq(arg, "warn");
                return 0;
        case OPT_CMDLINE:
                o->cmdline = arg;
                return 0;
        case OPT_NO_CMDLINE:
                o->no_cmdline = true;
                return 0;
        case OPT_LOG:
                o->log = arg;
                return 0;
        default:
                return -EINVAL; /* not reached: only codes of the table come here */
        }
}

static size_t count_options(const struct option *t)
{
        size_t n = 0;

        while (t && t[n].name)
                n++;
        return n;
}

/* The table getopt_long() reads: --help, the shared options @spec picks, its own ones. */
static struct option *build_table(const struct opts_spec *spec)
{
        size_t n_own = count_options(spec->own), n = 0;
        struct option *t = calloc(1 + ELEMENTSOF(shared_options) + n_own + 1, sizeof(*t));

        if (!t)
                return NULL;
        t[n++] = help_option;
        for (size_t i = 0; i < ELEMENTSOF(shared_options); i++)
                if (spec->shared & OPT_BIT(shared_options[i].val))
                        t[n++] = shared_options[i];
        for (size_t i = 0; i < n_own; i++)
                t[n++] = spec->own[i];
        return t;
}

static const char *option_name(const struct option *t, int code)
{
        for (; t->name; t++)
                if (t->val == code)
                        return t->name;
        return "?";
}

/* The first pair of @spec's exclusive that were both given, as an error. */
static int check_exclusive(struct opts *o, const struct opts_spec *spec, const struct option *t)
{
        for (size_t i = 0; spec->exclusive && spec->exclusive[i][0]; i++) {
                int a = spec->exclusive[i][0], b = spec->exclusive[i][1];

                if (o->seen[a] && o->seen[b])
                        return opts_error(o, "--%s and --%s exclude each other", option_name(t, a),
                                          option_name(t, b));
        }
        return 0;
}

/* How many of the table's names start with the @len bytes of @name. */
static size_t count_prefixed(const struct option *t, const char *name, size_t len)
{
        size_t n = 0;

        for (; t->name; t++)
                if (strncmp(t->name, name, len) == 0)
                        n++;
        return n;
}

/* What getopt_long() refused, named in one line (its own message is off: opterr = 0). glibc
 * has stepped past the element it read (argv[optind - 1]) and left in optopt the code of a long
 * option whose value was wrong, 0 for a long option it did not know, the character of a short
 * one; a code of the table counts only when that element names its option. */
static int getopt_refused(struct opts *o, const struct option *t, char **argv)
{
        const char *el = optind > 0 ? argv[optind - 1] : NULL;
        const char *name = el ? startswith(el, "--") : NULL;
        size_t len = name ? strcspn(name, "=") : 0;
        int n = (int) len + 2; /* "--" and the name, without "=VALUE" */

        if (len > 0 && optopt == 0)
                return count_prefixed(t, name, len) > 1
                           ? opts_error(o, "option '%.*s' is ambiguous", n, el)
                           : opts_error(o, "unknown option '%.*s'", n, el);
        for (const struct option *opt = t; len > 0 && opt->name; opt++) {
                if (opt->val != optopt || strncmp(opt->name, name, len) != 0)
                        continue;
                if (name[len] == '\0' && opt->has_arg == required_argument)
                        return opts_error(o, "option --%s needs a value", opt->name);
                if (name[len] == '=' && opt->has_arg == no_argument)
                        return opts_error(o, "option --%s takes no value", opt->name);
        }
        if (optopt > 0 && optopt < 0x100)
                return opts_error(o, "unknown option '-%c'", optopt);
        return opts_error(o, "unknown option");
}

static int parse_loop(struct opts *o, const struct opts_spec *spec, const struct option *t,
                      int argc, char **argv)
{
        int opt, r;

        opt_reset();
        opterr = 0; /* one line of ours, not getopt's beside it */
        while ((opt = getopt_long(argc, argv, "h", t, NULL)) != -1) {
                if (opt == '?')
                        return getopt_refused(o, t, argv);
                if (opt >= 0 && (size_t) opt < ELEMENTSOF(o->seen))
                        o->seen[opt] = true;
                if (opt == OPT_HELP || opt == OPT_VERSION) {
                        o->help = opt == OPT_HELP;
                        o->version = opt == OPT_VERSION;
                        return 0;
                }
                if (opt >= OPT_ROOT && opt < OPT_SHARED_END)
                        r = take_shared(o, opt, optarg);
                else
                        r = spec->own_option ? spec->own_option(o, opt, optarg, spec->userdata)
                                             : -EINVAL;
                if (r < 0)
                        return r;
        }
        o->args = argv + optind;
        o->n_args = (size_t) (argc - optind);
        if (o->n_args > spec->max_args)
                return opts_error(o, "unexpected argument '%s'", o->args[spec->max_args]);
        r = check_exclusive(o, spec, t);
        return r < 0 ? r : 1;
}

int opts_parse(struct opts *o, const struct opts_spec *spec, int argc, char **argv)
{
        _cleanup_free_ struct option *t = build_table(spec);

        if (!t)
                return -ENOMEM;
        return parse_loop(o, spec, t, argc, argv);
}
