/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * confine.c — a forked child giving up root's powers before it works on the target's data:
 * the policy build (policy-build.c), which runs the installer's libsemanage, setfiles and
 * sefcontext_compile, never a program of the target. Programs of the target run in the
 * sandbox of sandbox.c.
 */
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "seinstall-private.h"
#include "sandbox.h"

int si_drop_privileges(void)
{
        struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct data[2] = {};

        /* Root without capabilities: files it owns stay writable, nothing else is (no mount,
         * no chroot escape, no module, no raw I/O port, no ptrace of the installer). The
         * bounding set and no_new_privs keep an exec from getting them back. */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -errno;
        for (int cap = 0; cap < 64; cap++)
                if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
                        return -errno;
        if (syscall(SYS_capset, &hdr, data) < 0)
                return -errno;
        return 0;
}
