/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * setfiles-driver — `make bench`'s stand-in for upstream setfiles, built against the newest
 * libselinux Debian's source archive serves (tests/bench/upstream.sh), because the archive
 * does not serve policycoreutils' tarball. setfiles is a thin front of libselinux; this makes
 * the same calls as policycoreutils/setfiles/setfiles.c and restore.c (upstream main, read
 * 2026-12-04) do for
 *
 *   setfiles [-A] [-n] -F -T N -r ROOT SPEC_FILE PATH...
 *
 * selabel_open(SELABEL_CTX_FILE) with VALIDATE=1 and PATH=SPEC_FILE (no DIGEST), the
 * validate callback canonicalising through the running kernel when SELinux is on (ENOENT when
 * it is off is not an error), selinux_restorecon_set_sehandle(),
 * selinux_restorecon_set_alt_rootpath(ROOT), then for each PATH (glob()bed as setfiles does)
 * selinux_restorecon_parallel(PATH, RECURSE | ADD_ASSOC | XDEV | SET_SPECFILE_CTX, N) — -A
 * drops ADD_ASSOC as setfiles 3.10's -A does, -n adds NOCHANGE as setfiles -n does;
 * MASS_RELABEL when a PATH is "/".
 *
 * A test tool, not project code.
 */
#include <errno.h>
#include <glob.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int canoncon(char **contextp)
{
        char *tmpcon;

        if (security_canonicalize_context_raw(*contextp, &tmpcon) == 0) {
                free(*contextp);
                *contextp = tmpcon;
        } else if (errno != ENOENT) {
                return -1;
        }
        return 0;
}

static int __attribute__((format(printf, 2, 3))) log_callback(int type, const char *fmt, ...)
{
        FILE *out = type == SELINUX_INFO ? stdout : stderr;
        va_list ap;
        int rc;

        if (out == stderr)
                fputs("setfiles-driver: ", stderr);
        va_start(ap, fmt);
        rc = vfprintf(out, fmt, ap);
        va_end(ap);
        return rc;
}

static void usage(void)
{
        fprintf(stderr, "usage: setfiles-driver [-A] [-n] -F [-T N] -r ROOT SPEC_FILE PATH...\n");
        exit(2);
}

int main(int argc, char **argv)
{
        unsigned int flags =
            SELINUX_RESTORECON_RECURSE | SELINUX_RESTORECON_ADD_ASSOC | SELINUX_RESTORECON_XDEV;
        const char *root = NULL;
        size_t nthreads = 1;
        union selinux_callback cb;
        struct selabel_handle *hnd;
        struct stat sb;
        int opt, errors = 0;

        while ((opt = getopt(argc, argv, "AFT:nr:")) > 0) {
                switch (opt) {
                case 'A':
                        flags &= ~SELINUX_RESTORECON_ADD_ASSOC;
                        break;
                case 'F':
                        flags |= SELINUX_RESTORECON_SET_SPECFILE_CTX;
                        break;
                case 'n': /* setfiles -n: compare, change nothing */
                        flags |= SELINUX_RESTORECON_NOCHANGE;
                        break;
                case 'T':
                        nthreads = strtoull(optarg, NULL, 10);
                        break;
                case 'r':
                        root = optarg;
                        break;
                default:
                        usage();
                }
        }
        if (optind > argc - 2)
                usage();
        for (int i = optind + 1; i < argc; i++)
                if (!strcmp(argv[i], "/"))
                        flags |= SELINUX_RESTORECON_MASS_RELABEL;

        cb.func_log = log_callback;
        selinux_set_callback(SELINUX_CB_LOG, cb);
        cb.func_validate = canoncon;
        selinux_set_callback(SELINUX_CB_VALIDATE, cb);

        if (stat(argv[optind], &sb) < 0 || !S_ISREG(sb.st_mode)) {
                fprintf(stderr, "setfiles-driver: %s is not a regular file\n", argv[optind]);
                return 255;
        }
        struct selinux_opt selinux_opts[] = {
            {SELABEL_OPT_VALIDATE, (char *) 1},
            {SELABEL_OPT_PATH, argv[optind]},
            {SELABEL_OPT_DIGEST, NULL},
        };
        hnd = selabel_open(SELABEL_CTX_FILE, selinux_opts, 3);
        if (!hnd) {
                perror(argv[optind]);
                return 1;
        }
        selinux_restorecon_set_sehandle(hnd);
        if (root && selinux_restorecon_set_alt_rootpath(root)) {
                fprintf(stderr, "selinux_restorecon_set_alt_rootpath error: %s.\n",
                        strerror(errno));
                return 255;
        }
        for (int i = optind + 1; i < argc; i++) {
                glob_t g;

                memset(&g, 0, sizeof(g));
                if (glob(argv[i], GLOB_TILDE | GLOB_PERIOD | GLOB_NOCHECK | GLOB_BRACE, NULL, &g)) {
                        errors = 1;
                        continue;
                }
                for (size_t k = 0; k < g.gl_pathc; k++) {
                        size_t len = strlen(g.gl_pathv[k]);

                        if ((len > 2 && !strcmp(g.gl_pathv[k] + len - 2, "/.")) ||
                            (len > 3 && !strcmp(g.gl_pathv[k] + len - 3, "/..")))
                                continue;
                        if (selinux_restorecon_parallel(g.gl_pathv[k], flags, nthreads) < 0)
                                errors = 1;
                }
                globfree(&g);
        }
        selabel_close(hnd);
        return errors;
}
