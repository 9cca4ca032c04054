/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the planned layout reader (plan.c, through libmount): any text gives a list of mounts
 * with absolute mount points and a type, or an error whose "FILE:LINE:" names a line of the
 * file. Entries without a type are probed with libblkid: tags are looked up through udev's
 * symlinks only (BLKID_CONF), so fuzzing never scans the host's disks. */
#include <stdint.h>
#include <sys/mman.h>

#include "seinstall-private.h"
#include "check-stage.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        static char conf[] = "/tmp/fuzz-plan-blkid.XXXXXX";
        int fd = mkstemp(conf);

        if (fd >= 0) {
                (void) write_all(fd, "EVALUATE=udev\nCACHE_FILE=/dev/null\n", 35);
                close(fd);
                setenv("BLKID_CONF", conf, 1);
        }
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static bool init;
        struct seinstall_ctx *ctx = NULL;
        struct si_mount_list l = {};
        _cleanup_close_ int fd = -EBADF;
        char path[64];
        unsigned lines = 1;
        int r;

        if (size > 65536)
                return 0;
        if (!init) {
                LLVMFuzzerInitialize(NULL, NULL); /* replay-main.c does not call it */
                init = true;
        }
        fd = memfd_create("plan", MFD_CLOEXEC);
        if (fd < 0 || write_all(fd, data, size) < 0 || seinstall_new("/", &ctx) < 0)
                abort();
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        for (size_t i = 0; i < size; i++)
                lines += data[i] == '\n';

        r = si_plan_read(ctx, path, &l);
        if (r == 0) {
                if (l.n == 0)
                        abort();
                for (size_t i = 0; i < l.n; i++)
                        if (!l.v[i].mountpoint || l.v[i].mountpoint[0] != '/' || !l.v[i].fstype ||
                            l.v[i].line < 1 || l.v[i].line > lines)
                                abort();
                si_mount_list_free(&l);
        } else {
                const char *msg = seinstall_last_error(ctx), *p;

                if (r == -EBADMSG && !msg)
                        abort(); /* bad input must say where */
                if (msg && (p = startswith(msg, path)) && *p == ':') {
                        unsigned long line = strtoul(p + 1, NULL, 10);
                        if (line < 1 || line > lines)
                                abort();
                }
        }
        seinstall_unref(ctx);
        return 0;
}
