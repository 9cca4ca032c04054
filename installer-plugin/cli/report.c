/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report.c — what both front ends print alike (report.h): escaping names for people, the
 * library's log, errors as text and JSON, usage errors, and the JSON documents of `seinstall`.
 * The test helpers link it too, to exit as the commands do. Words a person reads are marked for
 * gettext and shown in the locale's language (both commands call setlocale(), i18n.h); the JSON
 * error document keeps the English message of cli_error() and cli_usage_error(), the words a
 * program may match. */
#include <errno.h>
#include <libintl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

#define _(s) gettext(s)

/* Whether errors are also printed as a JSON document on stdout (--json). */
static bool json_errors;

/* The warnings the library logged in this run, for the document's "warnings" member: a
 * program reading --json sees them without parsing stderr. */
static char **warnings;
static size_t n_warnings, cap_warnings;
static bool warnings_lost; /* one could not be kept (no memory, or too many) */
#define CLI_MAX_WARNINGS 1000

static void warning_keep(const char *message)
{
        char *m = NULL;

        if (n_warnings < CLI_MAX_WARNINGS && SI_GROW(warnings, cap_warnings, n_warnings + 1))
                m = strdup(message);
        if (!m) {
                warnings_lost = true;
                return;
        }
        warnings[n_warnings++] = m;
}

/* Start a document: {"schema": "seinstall.KIND/1" (seinstall(8), JSON OUTPUT). */
static void json_document_begin(struct json *j, const char *kind)
{
        _cleanup_free_ char *schema = NULL;

        json_object_begin(j);
        if (asprintf(&schema, "seinstall.%s/%d", kind, CLI_JSON_SCHEMA_VERSION) < 0)
                schema = NULL;
        json_kv_string(j, "schema", schema ? schema : "seinstall.unknown/1");
}

/* End it: "warnings": [{"message": M}, ...]}. */
static void json_document_end(struct json *j)
{
        json_key(j, "warnings");
        json_array_begin(j);
        for (size_t i = 0; i < n_warnings; i++) {
                json_object_begin(j);
                json_kv_string(j, "message", warnings[i]);
                json_object_end(j);
        }
        if (warnings_lost) {
                json_object_begin(j);
                json_kv_string(j, "message", "more warnings were printed on standard error");
                json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
}

void cli_set_json(bool on)
{
        json_errors = on;
}

const char *cli_esc(const char *s)
{
        static char *ring[16];
        static size_t next;
        char *e;

        if (!s)
                return "(none)";
        if (!str_needs_escape(s))
                return s;
        e = str_escape_display(s);
        if (!e)
                return "(not shown: out of memory)";
        free(ring[next]);
        ring[next] = e;
        next = (next + 1) % ELEMENTSOF(ring);
        return e;
}

const char *cli_cmd(const char *s)
{
        return s && str_display_safe(s) ? s : cli_esc(s);
}

const char *cli_command(const char *root, const char *fmt)
{
        static char *ring[4];
        static size_t next;
        char *c = shell_command(root, fmt);

        if (!c)
                return "(not shown: out of memory)";
        free(ring[next]);
        ring[next] = c;
        next = (next + 1) % ELEMENTSOF(ring);
        return c;
}

void cli_log(void *userdata, int priority, const char *message)
{
        (void) userdata;
        /* Errors are printed once by cli_fail(); everything else is shown as it comes. */
        if (priority <= SEINSTALL_LOG_ERR)
                return;
        if (priority == SEINSTALL_LOG_WARNING && json_errors)
                warning_keep(message);
        cli_progress_break();
        fprintf(stderr, "%s: %s%s\n", cli_program(),
                priority == SEINSTALL_LOG_WARNING ? _("warning: ") : "", cli_esc(message));
}

/* The error document: {"schema": "seinstall.error/1", "error": {"message": M,
 * "errno": NAME|null, "exit": N}[, KEY: V], "warnings": [...]}. */
static void print_error_json(const char *message, int r, int status, const char *key,
                             const char *value_json)
{
        struct json j = {0};
        _cleanup_free_ char *doc = NULL;

        json_document_begin(&j, "error");
        json_key(&j, "error");
        json_object_begin(&j);
        json_kv_string(&j, "message", message);
        json_kv_string(&j, "errno", seinstall_error_name(r));
        json_kv_uint(&j, "exit", (unsigned) status);
        json_object_end(&j);
        if (key) {
                json_key(&j, key);
                json_raw(&j, value_json);
        }
        json_document_end(&j);
        if (json_steal(&j, &doc) < 0) {
                /* no memory for the document: the smallest one that still says it */
                printf("{\"schema\": \"seinstall.error/%d\", \"error\": {\"message\": \"out of "
                       "memory\", \"errno\": \"ENOMEM\", \"exit\": %d}, \"warnings\": []}\n",
                       CLI_JSON_SCHEMA_VERSION, status);
                return;
        }
        printf("%s\n", doc);
}

/* Print @message for errno @r (0: a usage error) as text and, with --json, as the document
 * (there @message_json, the untranslated words, when not NULL). When @message ends with
 * @command (a quoted command for a person to run), the text before it is escaped and the
 * command printed as it is, so that it can be pasted. */
static int report(const char *prefix, const char *message, const char *message_json,
                  const char *command, int r, int status, const char *key, const char *value_json)
{
        size_t n = str_command_tail(message, command);

        cli_progress_break();
        if (n != (size_t) -1) {
                _cleanup_free_ char *text = strndup(message, n);
                fprintf(stderr, "%s: %s%s\n", prefix, text ? cli_esc(text) : "", command);
        } else {
                fprintf(stderr, "%s: %s\n", prefix, cli_esc(message));
        }
        if (json_errors)
                print_error_json(message_json ? message_json : message, r, status, key, value_json);
        return status;
}

/* The limits the library takes from the commands' environment (seinstall(8), ENVIRONMENT):
 * it reads none itself. */
static int limits_from_env(struct seinstall_ctx *ctx)
{
        const char *v = secure_getenv("SEINSTALL_SANDBOX_TIMEOUT");
        unsigned seconds;
        unsigned long long n;
        char *end;

        if (seinstall_sandbox_timeout_parse(v, &seconds) < 0 ||
            seinstall_set_sandbox_timeout(ctx, seconds) < 0)
                return cli_error(-EINVAL,
                                 "SEINSTALL_SANDBOX_TIMEOUT=%s is not a number of seconds "
                                 "from 1 to %u",
                                 v, SEINSTALL_SANDBOX_TIMEOUT_MAX);
        v = secure_getenv("SEINSTALL_LINKS_MAX");
        if (!v)
                return 0;
        errno = 0;
        n = strtoull(v, &end, 10);
        if (errno || end == v || *end || *v < '0' || *v > '9' || n < 1 ||
            n > SEINSTALL_LINKS_MAX_LIMIT || seinstall_set_links_max(ctx, (size_t) n) < 0)
                return cli_error(-EINVAL,
                                 "SEINSTALL_LINKS_MAX=%s is not a number of files from 1 to %zu", v,
                                 SEINSTALL_LINKS_MAX_LIMIT);
        return 0;
}

int cli_open(const struct opts *o, struct seinstall_ctx **ret_ctx)
{
        const char *root = o->root ? o->root : "/";
        int r = seinstall_new(root, ret_ctx);

        if (r < 0)
                return cli_error(r, "target root %s: %s", root, strerror(-r));
        seinstall_set_log_fn(*ret_ctx, cli_log, NULL);
        /* The library's words in the person's language too, but English in what --json prints:
         * the document, and the errors beside it, which then say what the document says. */
        seinstall_set_translate(*ret_ctx, !o->json);
        r = limits_from_env(*ret_ctx);
        if (r != 0)
                *ret_ctx = seinstall_unref(*ret_ctx);
        return r;
}

int cli_exit_status(int r)
{
        return si_exit_status(r);
}

int cli_fail_with(struct seinstall_ctx *ctx, int r, const char *what, const char *key,
                  const char *value_json)
{
        const char *msg = ctx ? seinstall_last_error(ctx) : NULL;
        _cleanup_free_ char *s = NULL;

        if (!msg) {
                if (asprintf(&s, "%s: %s", what, seinstall_strerror(r)) < 0)
                        s = NULL;
                msg = s ? s : what;
        }
        return report(cli_program(), msg, NULL, s ? NULL : seinstall_last_error_command(ctx), r,
                      cli_exit_status(r), key, value_json);
}

int cli_fail(struct seinstall_ctx *ctx, int r, const char *what)
{
        return cli_fail_with(ctx, r, what, NULL, NULL);
}

/* @fmt formatted twice: in the locale's language for the text, as written for the JSON. */
static void format_both(const char *fmt, va_list ap, char **ret_text, char **ret_json)
{
        va_list aq;

        va_copy(aq, ap);
        *ret_text = str_vprintf(gettext(fmt), ap);
        *ret_json = json_errors ? str_vprintf(fmt, aq) : NULL;
        va_end(aq);
}

int cli_error(int r, const char *fmt, ...)
{
        _cleanup_free_ char *msg = NULL, *msg_json = NULL;
        va_list ap;

        va_start(ap, fmt);
        format_both(fmt, ap, &msg, &msg_json);
        va_end(ap);
        return report(cli_program(), msg ? msg : seinstall_strerror(r), msg_json, NULL, r,
                      cli_exit_status(r), NULL, NULL);
}

int cli_error_status(int r, int status, const char *message, const char *message_json,
                     const char *command)
{
        return report(cli_program(), message, message_json, command, r, status, NULL, NULL);
}

static int usage_error(const char *cmd, const char *msg, const char *msg_json)
{
        _cleanup_free_ char *prefix = NULL;
        const char *who = cli_program();

        if (cmd && asprintf(&prefix, "%s %s", cli_program(), cmd) >= 0)
                who = prefix;
        else
                prefix = NULL;
        report(who, msg ? msg : _("bad usage"), msg_json, NULL, 0, EXIT_USAGE, NULL, NULL);
        fprintf(stderr, _("Try '%s --help'.\n"), who);
        return EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
        _cleanup_free_ char *msg = NULL, *msg_json = NULL;
        va_list ap;

        va_start(ap, fmt);
        format_both(fmt, ap, &msg, &msg_json);
        va_end(ap);
        return usage_error(cmd, msg, msg_json);
}

int cli_usage_error_text(const char *cmd, const char *message, const char *message_json)
{
        return usage_error(cmd, message, message_json);
}

int cli_print_json(struct json *j, const char *kind)
{
        _cleanup_free_ char *body = NULL, *doc = NULL;
        struct json d = {0};
        int r = json_steal(j, &body);

        if (r >= 0) {
                json_document_begin(&d, kind);
                json_raw_members(&d, body);
                json_document_end(&d);
                r = json_steal(&d, &doc);
        }
        if (r < 0)
                return cli_error(r, "writing the JSON document: %s", strerror(-r));
        printf("%s\n", doc);
        return 0;
}
