/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seinstall-policy-build — what the policy build runs once its confinement stands
 * (policy-build.c): a fresh program, not the forked copy of a caller that may have threads,
 * so libsemanage's allocations and files never meet a lock another thread held. It rebuilds
 * the store TYPE as `semodule -n -B` does (from the installed modules, never loading the
 * result), in the chroot and without the capabilities its parent set up, and writes one line
 * per libsemanage message to descriptor 3: a level letter (E error, D other) and the text.
 *
 * Usage (by policy-build.c only): seinstall-policy-build TYPE
 */
#include <semanage/debug.h>
#include <semanage/handle.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSG_FD 3

static void on_message(void *arg, semanage_handle_t *sh, const char *fmt, ...)
{
        char msg[1024];
        va_list ap;

        (void) arg;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        for (char *p = msg; *p; p++)
                if ((unsigned char) *p < 0x20 || *p == 0x7f)
                        *p = ' ';
        dprintf(MSG_FD, "%c%s\n", semanage_msg_get_level(sh) == SEMANAGE_MSG_ERR ? 'E' : 'D', msg);
}

int main(int argc, char **argv)
{
        semanage_handle_t *sh;
        int r;

        if (argc != 2 || !*argv[1] || strchr(argv[1], '/')) {
                dprintf(MSG_FD, "Xusage: seinstall-policy-build TYPE (run by seinstall only)\n");
                return 2;
        }
        sh = semanage_handle_create();
        if (!sh) {
                dprintf(MSG_FD, "Xlibsemanage: cannot create a handle\n");
                return 2;
        }
        semanage_msg_set_callback(sh, on_message, NULL);
        semanage_select_store(sh, argv[1], SEMANAGE_CON_DIRECT);
        semanage_set_create_store(sh, 0);
        semanage_set_reload(sh, 0);
        semanage_set_rebuild(sh, 1);
        r = semanage_connect(sh);
        if (r >= 0)
                r = semanage_begin_transaction(sh);
        if (r >= 0)
                r = semanage_commit(sh);
        if (semanage_is_connected(sh))
                (void) semanage_disconnect(sh);
        semanage_handle_destroy(sh);
        return r < 0 ? 1 : 0;
}
