/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trial-state.c — the trial's record: the object, the state file SEINSTALL_TRIAL_STATE (its
 * format, read and written only here: one key=value a line, values escaped to stay on one
 * line), and the getters and JSON callers read it through. What a trial decides is trial.c.
 */
#include <fcntl.h>
#include <time.h>

#include "seinstall-private.h"
#include "trial.h"

static const char *const state_names[] = {
    [SEINSTALL_TRIAL_NONE] = "none",
    [SEINSTALL_TRIAL_PENDING] = "pending",
    [SEINSTALL_TRIAL_ENFORCED] = "enforced",
    [SEINSTALL_TRIAL_KEPT_PERMISSIVE] = "kept-permissive",
    [SEINSTALL_TRIAL_CANCELLED] = "cancelled",
};

const char *seinstall_trial_state_to_string(enum seinstall_trial_state s)
{
        return s >= 0 && (size_t) s < ELEMENTSOF(state_names) ? state_names[s] : NULL;
}

static enum seinstall_trial_state state_from_string(const char *s)
{
        for (size_t i = SEINSTALL_TRIAL_PENDING; i < ELEMENTSOF(state_names); i++)
                if (streq(s, state_names[i]))
                        return (enum seinstall_trial_state) i;
        return SEINSTALL_TRIAL_NONE;
}

static void trial_result_free(struct seinstall_trial_result *t)
{
        free(t->policy);
        free(t->started);
        free(t->decided);
        free(t->log);
        si_strv_free(t->paths, t->n_paths);
        si_strv_free(t->fixes, t->n_paths);
        free(t->setenforce_error);
        free(t->error);
        free(t);
}

SI_DEFINE_REF_UNREF(seinstall_trial_result, seinstall_trial_result, trial_result_free);

int si_trial_new(enum seinstall_trial_state state, struct seinstall_trial_result **ret)
{
        struct seinstall_trial_result *t = calloc(1, sizeof(*t));

        if (!t)
                return -ENOMEM;
        t->state = state;
        *ret = t;
        return 0;
}

/* Append a file a label denial named; a path already listed is not listed again. */
int si_trial_add_path(struct seinstall_trial_result *t, const char *path, const char *fix)
{
        char **p, **f;

        for (size_t i = 0; i < t->n_paths; i++)
                if (streq(t->paths[i], path))
                        return 0;
        if (t->n_paths >= TRIAL_PATHS_MAX)
                return 0;
        if (!SI_GROW(t->paths, t->cap_paths, t->n_paths + 1) ||
            !SI_GROW(t->fixes, t->cap_fixes, t->n_paths + 1))
                return -ENOMEM;
        p = t->paths;
        f = t->fixes;
        p[t->n_paths] = strdup(path);
        f[t->n_paths] = fix ? strdup(fix) : NULL;
        if (!p[t->n_paths] || (fix && !f[t->n_paths])) {
                free(p[t->n_paths]);
                free(f[t->n_paths]);
                return -ENOMEM;
        }
        t->n_paths++;
        return 0;
}

int si_trial_set_str(char **to, const char *s)
{
        char *c = s ? strdup(s) : NULL;

        if (s && !c)
                return -ENOMEM;
        free(*to);
        *to = c;
        return 0;
}

/* ---- the state file ------------------------------------------------------------------------ */

/* Values are one line each: a backslash and the control bytes are written as \\ and \xNN
 * (names from a log may hold anything, a newline included). */
static int escape_value(struct sbuf *b, const char *s)
{
        int r = 0;

        for (const unsigned char *p = (const unsigned char *) s; *p && r >= 0; p++) {
                if (*p == '\\')
                        r = sbuf_puts(b, "\\\\");
                else if (*p < 0x20 || *p == 0x7f)
                        r = sbuf_printf(b, "\\x%02x", *p);
                else
                        r = sbuf_append(b, (const char *) p, 1);
        }
        return r;
}

static int hexdigit(char c)
{
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The reverse; -EBADMSG for an escape seinstall does not write (or one making a NUL). */
static int unescape_value(const char *s, size_t n, char **ret)
{
        struct sbuf b = {};
        int r = 0;

        for (size_t i = 0; i < n && r >= 0; i++) {
                char c = s[i];
                if (c == '\\') {
                        int hi, lo;
                        if (i + 1 < n && s[i + 1] == '\\') {
                                i++;
                        } else if (i + 3 < n && s[i + 1] == 'x' && (hi = hexdigit(s[i + 2])) >= 0 &&
                                   (lo = hexdigit(s[i + 3])) >= 0 && (hi || lo)) {
                                c = (char) (hi << 4 | lo);
                                i += 3;
                        } else {
                                r = -EBADMSG;
                                break;
                        }
                }
                r = sbuf_append(&b, &c, 1);
        }
        if (r >= 0 && !b.s)
                r = sbuf_puts(&b, "");
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return 0;
}

static int render_kv(struct sbuf *b, const char *key, const char *value)
{
        int r;

        if (!value)
                return 0;
        r = sbuf_printf(b, "%s=", key);
        if (r >= 0)
                r = escape_value(b, value);
        if (r >= 0)
                r = sbuf_puts(b, "\n");
        return r;
}

int si_trial_render(const struct seinstall_trial_result *t, char **ret)
{
        struct sbuf b = {};
        int r;

        if (!seinstall_trial_state_to_string(t->state) || t->state == SEINSTALL_TRIAL_NONE)
                return -EINVAL;
        r = sbuf_printf(&b,
                        "# The SELinux trial mode of seinstall: permissive until a clean boot "
                        "(seinstall(8)).\n"
                        "# Written by seinstall; 'seinstall status' shows it.\n"
                        "state=%s\n",
                        state_names[t->state]);
        if (r >= 0)
                r = render_kv(&b, "policy", t->policy);
        if (r >= 0)
                r = render_kv(&b, "started", t->started);
        if (r >= 0)
                r = render_kv(&b, "decided", t->decided);
        if (r >= 0)
                r = render_kv(&b, "log", t->log);
        if (r >= 0 && t->state != SEINSTALL_TRIAL_PENDING && t->state != SEINSTALL_TRIAL_CANCELLED)
                r = sbuf_printf(&b, "denials=%llu\nlabel_denials=%llu\nmislabeled=%llu\n",
                                t->denials, t->label_denials, t->mislabeled);
        for (size_t i = 0; r >= 0 && i < t->n_paths; i++) {
                r = render_kv(&b, "path", t->paths[i]);
                if (r >= 0)
                        r = render_kv(&b, "fix", t->fixes[i]);
        }
        if (r < 0) {
                sbuf_free(&b);
                return r;
        }
        *ret = sbuf_steal(&b);
        return 0;
}

static int parse_number(const char *v, unsigned long long *ret)
{
        char *end;

        if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 19)
                return -EBADMSG;
        *ret = strtoull(v, &end, 10);
        return 0;
}

/* Parse the state file's text (@name for messages: the path with the root). */
int si_trial_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                   struct seinstall_trial_result **ret)
{
        _cleanup_free_ char *what_to_do = shell_command(
            ctx->root, "not a trial state seinstall wrote: remove it to end the trial, or run "
                       "'seinstall apply%r --mode=trial' to start a new one");
        _cleanup_(seinstall_trial_result_unrefp) struct seinstall_trial_result *t = NULL;
        const char *pos = text, *end = text + len, *line;
        bool fix_allowed = false;
        unsigned lineno = 0;
        size_t n;

        if (!what_to_do)
                return -ENOMEM;
        int r;

        if (memchr(text, '\0', len))
                return si_error(ctx, -EBADMSG, "%s: holds a NUL byte: %s", name, what_to_do);
        r = si_trial_new(SEINSTALL_TRIAL_NONE, &t);
        if (r < 0)
                return r;
        while (next_line(&pos, end, &line, &n)) {
                _cleanup_free_ char *key = NULL, *value = NULL;
                const char *eq;

                lineno++;
                if (n == 0 || line[0] == '#')
                        continue;
                eq = memchr(line, '=', n);
                if (!eq || eq == line)
                        return si_error(ctx, -EBADMSG, "%s:%u: not a key=value line: %s", name,
                                        lineno, what_to_do);
                key = strndup(line, (size_t) (eq - line));
                if (!key)
                        return -ENOMEM;
                r = unescape_value(eq + 1, n - (size_t) (eq + 1 - line), &value);
                if (r == -EBADMSG)
                        return si_error(ctx, r, "%s:%u: a bad escape in the value of %s: %s", name,
                                        lineno, key, what_to_do);
                if (r < 0)
                        return r;
                if (streq(key, "state")) {
                        if (t->state != SEINSTALL_TRIAL_NONE)
                                return si_error(ctx, -EBADMSG, "%s:%u: a second state= line: %s",
                                                name, lineno, what_to_do);
                        t->state = state_from_string(value);
                        if (t->state == SEINSTALL_TRIAL_NONE)
                                return si_error(ctx, -EBADMSG,
                                                "%s:%u: unknown state '%.64s' (pending, enforced, "
                                                "kept-permissive or cancelled): %s",
                                                name, lineno, value, what_to_do);
                } else if (streq(key, "denials") || streq(key, "label_denials") ||
                           streq(key, "mislabeled")) {
                        if (parse_number(value, streq(key, "denials")         ? &t->denials
                                                : streq(key, "label_denials") ? &t->label_denials
                                                                              : &t->mislabeled) < 0)
                                return si_error(ctx, -EBADMSG, "%s:%u: %s= is not a number: %s",
                                                name, lineno, key, what_to_do);
                } else if (streq(key, "path")) {
                        size_t had = t->n_paths;
                        if (had >= TRIAL_PATHS_MAX)
                                return si_error(ctx, -EBADMSG,
                                                "%s:%u: more than %d path= lines: %s", name, lineno,
                                                TRIAL_PATHS_MAX, what_to_do);
                        r = si_trial_add_path(t, value, NULL);
                        if (r < 0)
                                return r;
                        fix_allowed = t->n_paths > had;
                } else if (streq(key, "fix")) {
                        if (!fix_allowed)
                                return si_error(ctx, -EBADMSG,
                                                "%s:%u: fix= without a path= line before it: %s",
                                                name, lineno, what_to_do);
                        t->fixes[t->n_paths - 1] = TAKE_PTR(value);
                        fix_allowed = false;
                } else {
                        char **to = streq(key, "policy")    ? &t->policy
                                    : streq(key, "started") ? &t->started
                                    : streq(key, "decided") ? &t->decided
                                    : streq(key, "log")     ? &t->log
                                                            : NULL;
                        if (to) { /* else a key a newer seinstall wrote: ignored */
                                free(*to);
                                *to = TAKE_PTR(value);
                        }
                }
        }
        if (t->state == SEINSTALL_TRIAL_NONE)
                return si_error(ctx, -EBADMSG, "%s: no state= line: %s", name, what_to_do);
        *ret = TAKE_PTR(t);
        return 0;
}

/* The recorded state; NONE when there is no state file. */
int si_trial_read_state(struct seinstall_ctx *ctx, struct seinstall_trial_result **ret)
{
        _cleanup_free_ char *text = NULL, *name = NULL;
        size_t len;
        int r;

        r = si_root_read_replaced(ctx, SEINSTALL_TRIAL_STATE, TRIAL_STATE_MAX, &text, &len);
        if (r == -ENOENT)
                return si_trial_new(SEINSTALL_TRIAL_NONE, ret);
        if (asprintf(&name, "%s%s", streq(ctx->root, "/") ? "" : ctx->root, SEINSTALL_TRIAL_STATE) <
            0)
                return -ENOMEM;
        if (r == -EFBIG)
                return si_error(ctx, -EBADMSG,
                                "%s is larger than %d KiB: not a trial state seinstall wrote; "
                                "remove it",
                                name, TRIAL_STATE_MAX / 1024);
        if (r < 0)
                return si_error(ctx, r, "Could not read the trial state %s: %s", name,
                                si_strerror(ctx, r));
        return si_trial_parse(ctx, name, text, len, ret);
}

int seinstall_trial_read(struct seinstall_ctx *ctx, struct seinstall_trial_result **ret)
{
        if (!ctx || !ret)
                return -EINVAL;
        return si_trial_read_state(ctx, ret);
}

int si_trial_read_for_status(struct seinstall_ctx *ctx, struct seinstall_trial_result **ret)
{
        int r = si_trial_read_state(ctx, ret);

        if (r >= 0 || r == -ENOMEM)
                return r;
        /* The rest of the state is still worth showing: the trial says why it is unknown. */
        r = si_trial_new(SEINSTALL_TRIAL_NONE, ret);
        if (r >= 0 && si_trial_set_str(&(*ret)->error, seinstall_last_error(ctx)) < 0) {
                *ret = seinstall_trial_result_unref(*ret);
                return -ENOMEM;
        }
        return r;
}

int si_trial_write_state(struct seinstall_ctx *ctx, const struct seinstall_trial_result *t,
                         unsigned wflags)
{
        _cleanup_free_ char *text = NULL;
        int r;

        r = si_trial_render(t, &text);
        if (r < 0)
                return r;
        r = si_root_write_if_changed(ctx, SEINSTALL_TRIAL_STATE, text, TRIAL_STATE_MAX, wflags);
        if (r < 0)
                return si_error(ctx, r, "Could not write the trial state %s%s: %s", ctx->root,
                                SEINSTALL_TRIAL_STATE, si_strerror(ctx, r));
        return r;
}

/* Now, as the state file records times. */
int si_trial_now_utc(char buf[static 32])
{
        struct tm tm;
        time_t now = time(NULL);

        if (!gmtime_r(&now, &tm) || strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
                return -EINVAL;
        return 0;
}

/* ---- getters, JSON ----------------------------------------------------------------------------
 */

enum seinstall_trial_state seinstall_trial_result_get_state(const struct seinstall_trial_result *t)
{
        return t ? t->state : SEINSTALL_TRIAL_NONE;
}

const char *seinstall_trial_result_get_policy(const struct seinstall_trial_result *t)
{
        return t ? t->policy : NULL;
}

const char *seinstall_trial_result_get_started(const struct seinstall_trial_result *t)
{
        return t ? t->started : NULL;
}

const char *seinstall_trial_result_get_decided(const struct seinstall_trial_result *t)
{
        return t ? t->decided : NULL;
}

const char *seinstall_trial_result_get_log(const struct seinstall_trial_result *t)
{
        return t ? t->log : NULL;
}

const char *seinstall_trial_result_get_error(const struct seinstall_trial_result *t)
{
        return t ? t->error : NULL;
}

unsigned long long seinstall_trial_result_get_n_denials(const struct seinstall_trial_result *t)
{
        return t ? t->denials : 0;
}

unsigned long long
seinstall_trial_result_get_n_label_denials(const struct seinstall_trial_result *t)
{
        return t ? t->label_denials : 0;
}

unsigned long long seinstall_trial_result_get_n_mislabeled(const struct seinstall_trial_result *t)
{
        return t ? t->mislabeled : 0;
}

size_t seinstall_trial_result_get_n_paths(const struct seinstall_trial_result *t)
{
        return t ? t->n_paths : 0;
}

const char *seinstall_trial_result_get_path(const struct seinstall_trial_result *t, size_t i)
{
        return t && i < t->n_paths ? t->paths[i] : NULL;
}

const char *seinstall_trial_result_get_fix(const struct seinstall_trial_result *t, size_t i)
{
        return t && i < t->n_paths ? t->fixes[i] : NULL;
}

bool seinstall_trial_result_get_enforcing_now(const struct seinstall_trial_result *t)
{
        return t && t->enforcing_now;
}

const char *seinstall_trial_result_get_setenforce_error(const struct seinstall_trial_result *t)
{
        return t ? t->setenforce_error : NULL;
}

int seinstall_trial_result_to_json(const struct seinstall_trial_result *t, char **ret)
{
        struct json j = {0};

        if (!t || !ret)
                return -EINVAL;
        json_object_begin(&j);
        json_kv_string(&j, "state", seinstall_trial_state_to_string(t->state));
        json_kv_string(&j, "policy", t->policy);
        json_kv_string(&j, "started", t->started);
        json_kv_string(&j, "decided", t->decided);
        json_kv_string(&j, "log", t->log);
        json_kv_uint(&j, "denials", t->denials);
        json_kv_uint(&j, "label_denials", t->label_denials);
        json_kv_uint(&j, "mislabeled", t->mislabeled);
        json_key(&j, "files");
        json_array_begin(&j);
        for (size_t i = 0; i < t->n_paths; i++) {
                json_object_begin(&j);
                json_kv_string(&j, "path", t->paths[i]);
                json_kv_string(&j, "fix", t->fixes[i]);
                json_object_end(&j);
        }
        json_array_end(&j);
        json_kv_bool(&j, "enforcing_now", t->enforcing_now);
        json_kv_string(&j, "setenforce_error", t->setenforce_error);
        if (t->error)
                json_kv_string(&j, "error", t->error);
        json_object_end(&j);
        return json_steal(&j, ret);
}
