/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * avc.c — `seinstall avc`'s entry point: reads this boot's log (auditd's audit.log when auditd
 * runs, else the kernel's /dev/kmsg, or a saved log the caller names) and the target's file
 * contexts, and has each denial explained (avc-parse.c reads the records, avc-classify.c
 * explains them, avc-report.c groups them).
 */
#include <fcntl.h>
#include <signal.h>

#include "fcontext.h"
#include "seinstall-private.h"
#include "avc.h"
#include "config.h"
#include "policy.h"

#define AVC_LOG_MAX (256u << 20) /* a saved log or audit.log: auditd rotates at 8 MiB */

/* ---- reading this boot's log -------------------------------------------------------------- */

/* Seconds since the epoch at which this boot began (btime of /proc/stat), or 0. */
static unsigned long long boot_time(void)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        const char *p;

        if (read_file_bounded("/proc/stat", 1u << 20, &text, &len) < 0)
                return 0;
        p = strstr(text, "\nbtime ");
        return p ? strtoull(p + 7, NULL, 10) : 0;
}

/* Whether auditd runs: its pid file names a live process. */
static bool auditd_runs(void)
{
        static const char *const pidfiles[] = {"/run/auditd.pid", "/var/run/auditd.pid"};

        for (size_t i = 0; i < ELEMENTSOF(pidfiles); i++) {
                _cleanup_free_ char *text = NULL;
                size_t len;
                long pid;

                if (read_file_bounded(pidfiles[i], 64, &text, &len) < 0)
                        continue;
                pid = strtol(text, NULL, 10);
                if (pid > 0 && (kill((pid_t) pid, 0) == 0 || errno == EPERM))
                        return true;
        }
        return false;
}

/* The kernel's log records since boot, one message per line (the text after "PRI,SEQ,TS,;"). */
static int read_kmsg(struct seinstall_ctx *ctx, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        struct sbuf b = {0};
        char rec[8192 + 1];
        int r;

        if (fd < 0) {
                int e = errno;
                return si_error_run(
                    ctx, -e, shell_command(ctx->root, si_tr(ctx, "seinstall avc%r --log FILE")),
                    "Cannot read the kernel log /dev/kmsg: %s. Run as root, or "
                    "save the log ('journalctl -k -b > FILE' or 'dmesg > FILE') "
                    "and run: ",
                    strerror(e));
        }
        for (;;) {
                ssize_t n = read(fd, rec, sizeof(rec) - 1);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EPIPE)
                        continue; /* overwritten while we read: the next one follows */
                if (n < 0 && errno == EAGAIN)
                        break;
                if (n < 0) {
                        sbuf_free(&b);
                        return si_error(ctx, -errno, "Cannot read the kernel log /dev/kmsg: %m");
                }
                if (n == 0)
                        break;
                rec[n] = '\0';
                const char *msg = memchr(rec, ';', (size_t) n), *e;
                if (!msg)
                        continue;
                msg++;
                e = memchr(msg, '\n', (size_t) (rec + n - msg));
                if ((r = sbuf_append(&b, msg, e ? (size_t) (e - msg) : strlen(msg))) < 0 ||
                    (r = sbuf_puts(&b, "\n")) < 0) {
                        sbuf_free(&b);
                        return r;
                }
        }
        *ret_len = b.len;
        *ret = sbuf_steal(&b);
        return *ret ? 0 : -ENOMEM;
}

/* Whether a line looks like a log's: an audit record ("type=", "audit(STAMP)", "avc:"), a
 * kernel log line ("[    1.234567] ", dmesg), a syslog or journal line ("HOST kernel: "). */
static bool log_line(const char *line, size_t n)
{
        size_t i = 0;

        if (memmem(line, n, "audit(", 6) || memmem(line, n, "avc:", 4) ||
            memmem(line, n, " kernel: ", 9) || (n > 5 && strncmp(line, "type=", 5) == 0))
                return true;
        if (n == 0 || line[0] != '[')
                return false;
        for (i = 1; i < n && line[i] == ' '; i++)
                ;
        while (i < n && line[i] >= '0' && line[i] <= '9')
                i++;
        return i + 1 < n && line[i] == '.' && line[i + 1] >= '0' && line[i + 1] <= '9';
}

/* A saved log with lines but none of a log's ("0 denials" would be a lie about a wrong file). */
static int check_log_like(struct seinstall_ctx *ctx, const char *log, const char *text, size_t len)
{
        const char *pos = text, *line;
        size_t n;
        bool any = false;

        while (next_line(&pos, text + len, &line, &n)) {
                if (log_line(line, n))
                        return 0;
                any = any || strip_range(&line, n) > 0;
        }
        if (!any)
                return 0; /* an empty log: no denial, truly */
        return si_error(ctx, -EBADMSG,
                        "%s is not an audit or kernel log (no line is an audit record or a "
                        "kernel message): give /var/log/audit/audit.log, or a kernel log saved "
                        "with 'journalctl -k -b > FILE' or 'dmesg > FILE'",
                        log);
}

static int read_log(struct seinstall_ctx *ctx, const char *log, char **ret, size_t *ret_len)
{
        int r = read_file_bounded(log, AVC_LOG_MAX, ret, ret_len);

        if (r == -ENOENT)
                return si_error(ctx, r,
                                "%s: no such file. Give a saved audit or kernel log (audit.log, "
                                "'journalctl -k -b', dmesg).",
                                log);
        if (r == -EISDIR || r == -EBADFD)
                return si_error(ctx, -EBADMSG, "%s is not a log file (not a regular file).", log);
        if (r == -EFBIG)
                return si_error(ctx, -EBADMSG, "%s is larger than %u MiB: give this boot's part.",
                                log, AVC_LOG_MAX >> 20);
        if (r < 0)
                return si_error(ctx, r, "Cannot read %s: %s", log, strerror(-r));
        if (memchr(*ret, '\0', *ret_len)) {
                free(*ret);
                *ret = NULL;
                return si_error(ctx, -EBADMSG,
                                "%s is not a text log: it holds NUL bytes (a binary journal? save "
                                "it with 'journalctl -k -b > FILE').",
                                log);
        }
        r = check_log_like(ctx, log, *ret, *ret_len);
        if (r < 0) {
                free(*ret);
                *ret = NULL;
        }
        return r;
}

/* The file contexts against the target's own policy, when it has one (a saved log judged
 * without a built policy still gets its label causes). */
static int validate(struct seinstall_ctx *ctx, struct si_fcontext *fc, const char *type)
{
        _cleanup_(si_policy_freep) struct si_policy *policy = NULL;
        int r = si_policy_load_own(ctx, type, &policy);

        if (r == -ENOENT)
                return 0;
        return r < 0 ? r : si_fcontext_validate(ctx, fc, policy, type);
}

int seinstall_avc_read(struct seinstall_ctx *ctx, const char *log,
                       struct seinstall_avc_result **ret)
{
        _cleanup_free_ char *text = NULL, *type = NULL;
        struct seinstall_avc_result *rep;
        struct si_fcontext *fc = NULL;
        unsigned long long since = 0;
        const char *source = log;
        size_t len = 0;
        int r;

        if (!ctx || !ret)
                return -EINVAL;
        if (log) {
                r = read_log(ctx, log, &text, &len);
        } else if (auditd_runs() && access("/var/log/audit/audit.log", F_OK) == 0) {
                source = "/var/log/audit/audit.log";
                r = read_log(ctx, source, &text, &len);
                since = boot_time();
        } else {
                source = "/dev/kmsg";
                r = read_kmsg(ctx, &text, &len);
        }
        if (r < 0)
                return r;

        r = si_config_policy_type(ctx, &type);
        if (r < 0)
                return r;
        /* a lookup per denial: the interpreter (fcontext.h) */
        r = si_fcontext_load_target(ctx, type, SI_FC_NO_JIT, &fc);
        if (r < 0)
                return r;
        r = validate(ctx, fc, type);
        if (r < 0) {
                si_fcontext_free(fc);
                return r;
        }

        rep = si_avc_report_new(source);
        if (!rep) {
                si_fcontext_free(fc);
                return -ENOMEM;
        }
        r = si_avc_classify_text(ctx, fc, text, len, since, streq(ctx->root, "/"), rep);
        si_fcontext_free(fc);
        if (r < 0) {
                seinstall_avc_result_unref(rep);
                return r;
        }
        *ret = rep;
        return 0;
}
