/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the file-contexts engine (fcontext.c) against libselinux: the input is up to three
 * sections separated by a line "%%": file_contexts, file_contexts.subs, and paths to look up.
 * Both load the same files (libselinux without validation); when both accept them, every path
 * (with each file type) must get the same answer from both, as setfiles would give it. */
#include <fcntl.h>
#include <selinux/label.h>
#include <selinux/selinux.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fcontext.h"

static char dir[] = "/tmp/fuzz-fcontext.XXXXXX";
static char fc_path[64], subs_path[80];

static int quiet_log(int type, const char *fmt, ...)
{
        (void) type;
        (void) fmt;
        return 0;
}

static bool write_file_at(const char *path, const uint8_t *data, size_t size)
{
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        return fd >= 0 && write_all(fd, data, size) == 0;
}

/* Next section of @data: up to a line "%%" or the end. */
static const uint8_t *section(const uint8_t **pos, const uint8_t *end, size_t *ret_len)
{
        const uint8_t *s = *pos, *p = s;

        while (p < end) {
                if ((p == s || p[-1] == '\n') && end - p >= 3 && p[0] == '%' && p[1] == '%' &&
                    p[2] == '\n') {
                        *ret_len = (size_t) (p - s);
                        *pos = p + 3;
                        return s;
                }
                p++;
        }
        *ret_len = (size_t) (end - s);
        *pos = end;
        return s;
}

/* libselinux 3.4 leaks strings of some file_contexts it rejects; not ours to chase here. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
        return "leak:libselinux.so\n";
}

static const mode_t modes[] = {0, S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFSOCK};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static bool init;
        const uint8_t *pos = data, *end = data + size, *fc, *subs, *paths;
        size_t fc_len, subs_len, paths_len;
        struct seinstall_ctx *ctx = NULL;
        struct si_fcontext *ours = NULL;
        struct si_fc_scratch *scratch = NULL;
        struct selabel_handle *theirs;
        struct selinux_opt opts[] = {{SELABEL_OPT_PATH, fc_path}, {SELABEL_OPT_VALIDATE, NULL}};
        int r;

        if (size > 16384)
                return 0;
        if (!init) {
                if (!mkdtemp(dir))
                        abort();
                snprintf(fc_path, sizeof(fc_path), "%s/file_contexts", dir);
                snprintf(subs_path, sizeof(subs_path), "%s.subs", fc_path);
                selinux_set_callback(SELINUX_CB_LOG,
                                     (union selinux_callback){.func_log = quiet_log});
                init = true;
        }
        fc = section(&pos, end, &fc_len);
        subs = section(&pos, end, &subs_len);
        paths = section(&pos, end, &paths_len);
        if (!write_file_at(fc_path, fc, fc_len))
                abort();
        if (subs_len > 0) {
                if (!write_file_at(subs_path, subs, subs_len))
                        abort();
        } else {
                unlink(subs_path);
        }
        if (seinstall_new("/", &ctx) < 0)
                abort();

        r = si_fcontext_load_path(ctx, fc_path, &ours);
        if (r < 0) {
                if (r != -EBADMSG && r != -ENOMEM)
                        abort();
                seinstall_unref(ctx);
                return 0;
        }
        if (si_fc_scratch_new(ours, &scratch) < 0)
                abort();
        theirs = selabel_open(SELABEL_CTX_FILE, opts, 2);

        for (const uint8_t *p = paths, *pe = paths + paths_len; p < pe;) {
                const uint8_t *nl = memchr(p, '\n', (size_t) (pe - p));
                size_t n = nl ? (size_t) (nl - p) : (size_t) (pe - p);
                _cleanup_free_ char *path = strndup((const char *) p, n);

                p += n + 1;
                if (!path || path[0] != '/' || strlen(path) != n)
                        continue;
                for (size_t m = 0; m < ELEMENTSOF(modes); m++) {
                        const char *con = NULL;
                        char *tcon = NULL;
                        int idx = si_fcontext_lookup(ours, scratch, path, modes[m], &con);
                        int tr;

                        if (idx < 0 && idx != -ENOENT)
                                abort();
                        if (!theirs)
                                continue;
                        tr = selabel_lookup_raw(theirs, &tcon, path, modes[m]);
                        if ((idx >= 0) != (tr == 0) || (tr == 0 && !streq(con, tcon))) {
                                fprintf(stderr, "%s (mode %o): seinstall %s, libselinux %s\n", path,
                                        (unsigned) modes[m], idx >= 0 ? con : "ENOENT",
                                        tr == 0 ? tcon : "ENOENT");
                                abort();
                        }
                        freecon(tcon);
                }
        }
        if (theirs)
                selabel_close(theirs);
        si_fc_scratch_free(scratch);
        si_fcontext_free(ours);
        seinstall_unref(ctx);
        return 0;
}
