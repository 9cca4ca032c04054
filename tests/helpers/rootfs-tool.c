/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rootfs-tool — drive the private rootfs.c calls from shell tests, so faults (strace syscall
 * injection, a full or read-only filesystem) and hostile targets can be arranged around one
 * call at a time:
 *   rootfs-tool write ROOT PATH SRC   replace PATH in ROOT with the content of host file SRC
 *   rootfs-tool mkdir ROOT PATH       create PATH and its parents in ROOT
 *   rootfs-tool read ROOT PATH        print PATH of ROOT
 *   rootfs-tool unlink ROOT PATH
 * Exit status as the CLI's (cli_exit_status): 0 ok, 2 bad input, 3 the system failed; the error
 * on stderr. */
#include "report.h"
#include "seinstall-private.h"

int main(int argc, char **argv)
{
        struct seinstall_ctx *ctx = NULL;
        _cleanup_free_ char *data = NULL;
        size_t len = 0;
        int r;

        if (argc < 4) {
                fprintf(stderr, "usage: rootfs-tool write|mkdir|read|unlink ROOT PATH [SRC]\n");
                return 2;
        }
        r = seinstall_new(argv[2], &ctx);
        if (r < 0) {
                fprintf(stderr, "rootfs-tool: root %s: %s\n", argv[2], strerror(-r));
                return cli_exit_status(r);
        }
        if (streq(argv[1], "write") && argc == 5) {
                r = read_file_bounded(argv[4], 64 << 20, &data, &len);
                if (r >= 0)
                        r = si_root_write_atomic(ctx, argv[3], data, len, 0644, 0);
        } else if (streq(argv[1], "mkdir")) {
                r = si_root_mkdir_p(ctx, argv[3], 0755, 0);
        } else if (streq(argv[1], "read")) {
                r = si_root_read_file(ctx, argv[3], 64 << 20, &data, &len);
                if (r >= 0)
                        r = write_all(STDOUT_FILENO, data, len);
        } else if (streq(argv[1], "unlink")) {
                r = si_root_unlink(ctx, argv[3], 0);
        } else {
                r = -EINVAL;
        }
        if (r < 0)
                fprintf(stderr, "rootfs-tool: %s %s: %s\n", argv[1], argv[3], strerror(-r));
        seinstall_unref(ctx);
        return cli_exit_status(r);
}
