/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * profile.c — unattended profiles: what a kickstart file (read by kickstart-lex.c as pykickstart
 * reads it) says to seinstall. The `selinux` command with pykickstart's selinux.py and argparse
 * grammar: --enforcing, --permissive, --disabled and their unambiguous prefixes, case-sensitive,
 * the last one wins, a value or any other word is an error, and a repeated command changes only
 * what it gives (one command object, set_to_self() skips what is unset, so a bare `selinux`
 * keeps an earlier mode). And seinstall's own `%addon org_seinstall` section, whose --trial
 * makes the profile's mode the trial (permissive until a clean boot, then enforcing): it takes
 * the place of `selinux --enforcing` or `--permissive` (where a trial ends, where it starts)
 * and contradicts `selinux --disabled`, an error naming both lines. Of the other
 * sections only what makes pykickstart refuse a file structurally is checked (an empty
 * %certificate); their header options are not (seinstall.ks(5)). Every value is
 * fed into the settings as source "profile" with the file and line that decided it.
 */
#include "seinstall-private.h"
#include "profile.h"
#include "settings.h"
#include "kickstart.h"

struct origin {
        char *file;
        unsigned line;
        char *text;
};

struct profile {
        struct seinstall_ctx *ctx;
        enum seinstall_mode mode; /* INVALID: unset */
        char *policy;
        int unsupported_warn; /* -1 unset */
        int relabel;          /* -1 unset, else enum seinstall_relabel_when */
        bool trial;           /* --trial */
        struct origin origins[_SI_SETTING_MAX];
        struct origin trial_origin; /* the %addon line that said --trial */
        bool in_ours;               /* the last %addon header was ours */
        bool cert_text;             /* the open %certificate has a line that is not blank */
};

static void origin_done(struct origin *o)
{
        free(o->file);
        free(o->text);
        *o = (struct origin){};
}

static int note_at(struct origin *to, const struct si_ks_origin *o, char **argv, size_t argc)
{
        struct origin n = {.file = strdup(o->file), .line = o->line};
        struct sbuf b = {};

        for (size_t i = 0; i < argc; i++)
                if (sbuf_printf(&b, "%s%s", i ? " " : "", argv[i]) < 0)
                        break;
        n.text = sbuf_steal(&b);
        if (!n.file || !n.text) {
                origin_done(&n);
                return -ENOMEM;
        }
        origin_done(to);
        *to = n;
        return 0;
}

static int note(struct profile *pf, enum si_setting which, const struct si_ks_origin *o,
                char **argv, size_t argc)
{
        return note_at(&pf->origins[which], o, argv, argc);
}

/* `selinux [--enforcing|--permissive|--disabled]...` */
static int parse_selinux(struct profile *pf, const struct si_ks_origin *o, char **argv, size_t argc)
{
        static const char *const names[] = {"disabled", "enforcing", "permissive"};
        static const enum seinstall_mode modes[] = {
            SEINSTALL_MODE_DISABLED, SEINSTALL_MODE_ENFORCING, SEINSTALL_MODE_PERMISSIVE};
        enum seinstall_mode mode = SEINSTALL_MODE_INVALID;

        for (size_t i = 1; i < argc; i++) {
                const char *a = argv[i], *eq;
                int m;

                /* "--" ends the options and only words follow, which selinux does not take;
                 * a single dash or a bare word is a word too */
                if (!startswith(a, "--") || streq(a, "--"))
                        return si_ks_error(
                            pf->ctx, o,
                            "selinux does not take arguments: '%s' (use --enforcing, "
                            "--permissive or --disabled)",
                            a);
                eq = strchr(a, '=');
                m = si_ks_option_find(names, ELEMENTSOF(names), sizeof(names[0]), a + 2,
                                      eq ? (size_t) (eq - a - 2) : strlen(a + 2));
                if (m == -2 || (m >= 0 && eq == a + 2))
                        return si_ks_error(pf->ctx, o, "selinux: ambiguous option '%s'", a);
                if (m < 0)
                        return si_ks_error(pf->ctx, o,
                                           "selinux: unknown option '%s' (options are --enforcing, "
                                           "--permissive and --disabled, lower case)",
                                           a);
                if (eq)
                        return si_ks_error(pf->ctx, o, "selinux: option --%s takes no value: '%s'",
                                           names[m], a);
                mode = modes[m];
        }
        if (mode == SEINSTALL_MODE_INVALID)
                return 0; /* pykickstart keeps what an earlier selinux line chose */
        pf->mode = mode;
        return note(pf, SI_SETTING_MODE, o, argv, argc);
}

/* `%addon org_seinstall --policy=TYPE --unsupported=refuse|warn --relabel=install|firstboot
 * --trial` */
static int parse_addon(struct profile *pf, const struct si_ks_origin *o, char **argv, size_t argc)
{
        static const char *const names[] = {"policy", "unsupported", "relabel", "trial"};
        static const enum si_setting which[] = {SI_SETTING_POLICY, SI_SETTING_UNSUPPORTED,
                                                SI_SETTING_RELABEL};
        int r = 0;

        for (size_t i = 2; i < argc && r >= 0; i++) {
                const char *a = argv[i], *eq, *v;
                int m;

                if (!startswith(a, "--"))
                        return si_ks_error(pf->ctx, o,
                                           "%%addon org_seinstall: unexpected argument '%s'", a);
                eq = strchr(a, '=');
                m = si_ks_option_find(names, ELEMENTSOF(names), sizeof(names[0]), a + 2,
                                      eq ? (size_t) (eq - a - 2) : strlen(a + 2));
                if (m < 0 || (eq == a + 2))
                        return si_ks_error(
                            pf->ctx, o,
                            "%%addon org_seinstall: unknown option '%s' (options are "
                            "--policy, --unsupported, --relabel and --trial)",
                            a);
                if (m == 3) {
                        /* a flag, as pykickstart's store_true options: no value */
                        if (eq)
                                return si_ks_error(pf->ctx, o,
                                                   "%%addon org_seinstall: --trial takes no value: "
                                                   "'%s'",
                                                   a);
                        pf->trial = true;
                        r = note_at(&pf->trial_origin, o, argv, argc);
                        continue;
                }
                /* argparse takes the next word as the value unless it looks like an option:
                 * "--policy --trial" is a missing value, not the policy "--trial" */
                if (eq)
                        v = eq + 1;
                else if (i + 1 < argc && !si_ks_looks_like_option(argv[i + 1]))
                        v = argv[++i];
                else
                        return si_ks_error(pf->ctx, o, "%%addon org_seinstall: --%s needs a value",
                                           names[m]);
                if (m == 0) {
                        if (!si_policy_type_valid(v))
                                return si_ks_error(
                                    pf->ctx, o,
                                    "%%addon org_seinstall: --policy=%s is not a policy "
                                    "type (a directory name under /etc/selinux)",
                                    v);
                        free(pf->policy);
                        pf->policy = strdup(v);
                        if (!pf->policy)
                                return -ENOMEM;
                } else if (m == 1) {
                        if (!streq(v, "refuse") && !streq(v, "warn"))
                                return si_ks_error(
                                    pf->ctx, o,
                                    "%%addon org_seinstall: --unsupported=%s: use refuse "
                                    "or warn",
                                    v);
                        pf->unsupported_warn = streq(v, "warn");
                } else {
                        enum seinstall_relabel_when rl = seinstall_relabel_when_from_string(v);
                        if (rl == SEINSTALL_RELABEL_WHEN_INVALID)
                                return si_ks_error(
                                    pf->ctx, o,
                                    "%%addon org_seinstall: --relabel=%s: use install or "
                                    "firstboot",
                                    v);
                        pf->relabel = rl;
                }
                r = note(pf, which[m], o, argv, argc);
        }
        return r;
}

static int on_command(void *userdata, const struct si_ks_origin *o, char **argv, size_t argc)
{
        /* Other commands are Anaconda's: seinstall does not check them (seinstall.ks(5)). */
        return streq(argv[0], "selinux") ? parse_selinux(userdata, o, argv, argc) : 0;
}

static int on_header(void *userdata, const struct si_ks_origin *o, char **argv, size_t argc)
{
        struct profile *pf = userdata;

        if (!streq(argv[0], "%addon"))
                return 0;
        pf->in_ours = argc > 1 && streq(argv[1], "org_seinstall");
        return pf->in_ours ? parse_addon(pf, o, argv, argc) : 0;
}

static int on_line(void *userdata, const struct si_ks_origin *o, const char *section,
                   const char *text, size_t len)
{
        struct profile *pf = userdata;
        size_t i = 0;

        if (streq(section, "%certificate") && si_py_lstrip(text, text + len) < text + len)
                pf->cert_text = true;
        if (!pf->in_ours || !streq(section, "%addon"))
                return 0;
        while (i < len && strchr(" \t\r\n\v\f", text[i]))
                i++;
        if (i == len || text[i] == '#')
                return 0;
        return si_ks_error(pf->ctx, o,
                           "%%addon org_seinstall takes its options on the %%addon line, not in "
                           "its body");
}

static int on_end(void *userdata, const struct si_ks_origin *o, const char *section)
{
        struct profile *pf = userdata;

        if (streq(section, "%addon"))
                pf->in_ours = false;
        /* CertificateSection.finalize(): a certificate must have a body */
        if (streq(section, "%certificate")) {
                if (!pf->cert_text)
                        return si_ks_error(pf->ctx, o, "The %%certificate section is empty");
                pf->cert_text = false;
        }
        return 0;
}

/* The trial and `selinux --disabled` in one profile: which one the person meant cannot be told,
 * so neither is applied. */
static int check_trial(struct profile *pf)
{
        const struct origin *m = &pf->origins[SI_SETTING_MODE], *t = &pf->trial_origin;

        if (!pf->trial || pf->mode != SEINSTALL_MODE_DISABLED)
                return 0;
        return si_error(pf->ctx, -EBADMSG,
                        "%s:%u: %%addon org_seinstall --trial contradicts '%s' at %s:%u: a trial "
                        "boots permissive and ends enforcing, disabled turns SELinux off. Remove "
                        "--trial, or use 'selinux --enforcing' (or no selinux line) with it",
                        t->file, t->line, m->text, m->file, m->line);
}

static int apply(struct profile *pf, struct seinstall_settings *s)
{
        const struct origin *mo = pf->trial ? &pf->trial_origin : &pf->origins[SI_SETTING_MODE];
        int r = 0;

        if (pf->trial)
                r = seinstall_settings_set_mode(s, SEINSTALL_MODE_TRIAL, SEINSTALL_SOURCE_PROFILE);
        else if (pf->mode != SEINSTALL_MODE_INVALID)
                r = seinstall_settings_set_mode(s, pf->mode, SEINSTALL_SOURCE_PROFILE);
        if (r > 0)
                r = si_settings_set_origin(s, SI_SETTING_MODE, mo->file, mo->line, mo->text);
        if (r >= 0 && pf->policy) {
                r = seinstall_settings_set_policy(s, pf->policy, SEINSTALL_SOURCE_PROFILE);
                if (r > 0)
                        r = si_settings_set_origin(s, SI_SETTING_POLICY, pf->origins[1].file,
                                                   pf->origins[1].line, pf->origins[1].text);
        }
        if (r >= 0 && pf->unsupported_warn >= 0) {
                r = seinstall_settings_set_unsupported_warn(s, pf->unsupported_warn,
                                                            SEINSTALL_SOURCE_PROFILE);
                if (r > 0)
                        r = si_settings_set_origin(s, SI_SETTING_UNSUPPORTED, pf->origins[2].file,
                                                   pf->origins[2].line, pf->origins[2].text);
        }
        if (r >= 0 && pf->relabel >= 0) {
                r = seinstall_settings_set_relabel_when(
                    s, (enum seinstall_relabel_when) pf->relabel, SEINSTALL_SOURCE_PROFILE);
                if (r > 0)
                        r = si_settings_set_origin(s, SI_SETTING_RELABEL, pf->origins[3].file,
                                                   pf->origins[3].line, pf->origins[3].text);
        }
        return r;
}

/* Read @path (or @text when not NULL) and, only when all of it is good, apply it to @s. */
static int profile_read(struct seinstall_ctx *ctx, const char *path, const char *text, size_t len,
                        struct seinstall_settings *s)
{
        static const struct si_ks_ops ops = {
            .command = on_command, .header = on_header, .line = on_line, .end = on_end};
        struct profile pf = {
            .ctx = ctx, .mode = SEINSTALL_MODE_INVALID, .unsupported_warn = -1, .relabel = -1};
        int r;

        r = si_ks_read(ctx, path, text, len, &ops, &pf);
        if (r >= 0)
                r = check_trial(&pf);
        if (r >= 0)
                r = apply(&pf, s);
        for (size_t i = 0; i < ELEMENTSOF(pf.origins); i++)
                origin_done(&pf.origins[i]);
        origin_done(&pf.trial_origin);
        free(pf.policy);
        return r < 0 ? r : 0;
}

int si_profile_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                     struct seinstall_settings *s)
{
        return profile_read(ctx, name, text, len, s);
}

int seinstall_settings_load_profile(struct seinstall_settings *s, struct seinstall_ctx *ctx,
                                    const char *path)
{
        if (!s || !ctx || !path)
                return -EINVAL;
        return profile_read(ctx, path, NULL, 0, s);
}
