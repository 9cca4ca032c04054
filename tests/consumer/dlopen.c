/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dlopen.c — a plugin host that loads libseinstall at run time, as an installer with optional
 * SELinux support would: no link-time dependency, calls resolved with dlvsym() at the ABI
 * version, and the library's private functions must not be reachable.
 * Usage: dlopen LIBRARY ROOT [PRIVATE_SYMBOL...]
 */
#define _GNU_SOURCE /* dlvsym */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <seinstall.h>

#define ABI "SEINSTALL_1.0"

static int failures;

static void *sym(void *h, const char *name)
{
        void *p = dlvsym(h, name, ABI);

        if (!p) {
                fprintf(stderr, "dlopen: FAIL %s@%s not found: %s\n", name, ABI, dlerror());
                failures++;
        }
        return p;
}

int main(int argc, char **argv)
{
        if (argc < 3) {
                fprintf(stderr, "usage: dlopen LIBRARY ROOT [PRIVATE_SYMBOL...]\n");
                return 2;
        }
        void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
                fprintf(stderr, "dlopen: FAIL %s: %s\n", argv[1], dlerror());
                return 1;
        }

        /* The types come from the header; the addresses from the loader. */
        __typeof__(&seinstall_new) new_ctx = (__typeof__(new_ctx)) sym(h, "seinstall_new");
        __typeof__(&seinstall_get_root) get_root =
            (__typeof__(get_root)) sym(h, "seinstall_get_root");
        __typeof__(&seinstall_unref) unref = (__typeof__(unref)) sym(h, "seinstall_unref");
        __typeof__(&seinstall_mode_to_string) mode_name =
            (__typeof__(mode_name)) sym(h, "seinstall_mode_to_string");
        __typeof__(&seinstall_mode_from_string) mode_parse =
            (__typeof__(mode_parse)) sym(h, "seinstall_mode_from_string");
        if (failures)
                return 1;

        struct seinstall_ctx *ctx = NULL;
        int r = new_ctx(argv[2], &ctx);
        if (r < 0) {
                fprintf(stderr, "dlopen: FAIL seinstall_new(%s): %s\n", argv[2], strerror(-r));
                return 1;
        }
        printf("dlopen: root %s\n", get_root(ctx));
        enum seinstall_mode m = mode_parse("Permissive");
        if (m != SEINSTALL_MODE_PERMISSIVE || strcmp(mode_name(m), "permissive") != 0) {
                fprintf(stderr, "dlopen: FAIL mode round trip gave %d\n", m);
                failures++;
        }
        unref(ctx);

        /* Private calls stay private, whatever name they have. */
        for (int i = 3; i < argc; i++) {
                if (dlsym(h, argv[i])) {
                        fprintf(stderr, "dlopen: FAIL private symbol %s is reachable\n", argv[i]);
                        failures++;
                }
        }
        printf("dlopen: %d private symbols checked unreachable\n", argc - 3);

        if (dlclose(h) != 0) {
                fprintf(stderr, "dlopen: FAIL dlclose: %s\n", dlerror());
                failures++;
        }
        printf("dlopen: %s\n", failures ? "FAILED" : "ok");
        return failures ? 1 : 0;
}
