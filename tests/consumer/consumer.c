/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * consumer.c — an installer's view of libseinstall: built against an installed tree with
 * `pkg-config --cflags --libs seinstall` only (tests/integration/consumer-pkgconfig.sh), it
 * uses nothing but the public header. Usage: consumer ROOT
 *
 * It opens a context on the target, routes the library's messages to its own log function,
 * decides settings with sources as an installer does, and checks the error convention on a
 * root that does not exist. Prints what it did; exit 0 when every call behaved as documented.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <seinstall.h>

static int failures;

#define expect(cond, ...)                                                                          \
        do {                                                                                       \
                if (!(cond)) {                                                                     \
                        fprintf(stderr, "consumer: FAIL %s:%d: ", __FILE__, __LINE__);             \
                        fprintf(stderr, __VA_ARGS__);                                              \
                        fputc('\n', stderr);                                                       \
                        failures++;                                                                \
                }                                                                                  \
        } while (0)

static void log_to_installer(void *userdata, int priority, const char *message)
{
        unsigned *count = userdata;

        (*count)++;
        printf("consumer: library says <%d> %s\n", priority, message);
}

static void settings_like_an_installer(void)
{
        struct seinstall_settings *s = NULL;
        enum seinstall_source src;
        int r = seinstall_settings_new(&s);

        expect(r == 0 && s, "seinstall_settings_new: %d", r);
        if (r < 0)
                return;
        /* The installer's boot option beats the profile, whatever the order they come in. */
        r = seinstall_settings_set_mode(s, seinstall_mode_from_string("permissive"),
                                        SEINSTALL_SOURCE_BOOT);
        expect(r == 1, "set_mode(boot) returned %d, expected 1", r);
        r = seinstall_settings_set_mode(s, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE);
        expect(r == 0, "set_mode(profile) after boot returned %d, expected 0", r);
        enum seinstall_mode m = seinstall_settings_get_mode(s, &src);
        expect(m == SEINSTALL_MODE_PERMISSIVE && src == SEINSTALL_SOURCE_BOOT,
               "mode %s from %s, expected permissive from boot", seinstall_mode_to_string(m),
               seinstall_source_to_string(src));
        r = seinstall_settings_set_policy(s, "../etc", SEINSTALL_SOURCE_PROFILE);
        expect(r == -EINVAL, "set_policy(\"../etc\") returned %d, expected -EINVAL", r);
        printf("consumer: settings mode=%s source=%s\n", seinstall_mode_to_string(m),
               seinstall_source_to_string(src));
        expect(seinstall_settings_unref(s) == NULL, "settings_unref did not return NULL");
}

int main(int argc, char **argv)
{
        struct seinstall_ctx *ctx = NULL, *bad = NULL;
        unsigned messages = 0;
        int r;

        if (argc != 2) {
                fprintf(stderr, "usage: consumer ROOT\n");
                return 2;
        }
        r = seinstall_new(argv[1], &ctx);
        expect(r == 0 && ctx, "seinstall_new(%s): %s", argv[1], strerror(-r));
        if (r < 0)
                return 1;
        seinstall_set_log_fn(ctx, log_to_installer, &messages);
        seinstall_set_log_priority(ctx, SEINSTALL_LOG_DEBUG);
        printf("consumer: target root %s\n", seinstall_get_root(ctx));
        expect(seinstall_last_error(ctx) == NULL, "a fresh context has a last error");

        /* Documented: a root that does not exist is -ENOENT, and *ret_ctx is left alone. */
        r = seinstall_new("/nonexistent/seinstall-consumer", &bad);
        expect(r == -ENOENT && bad == NULL, "seinstall_new(nonexistent) = %d, ctx %p", r,
               (void *) bad);

        settings_like_an_installer();

        expect(seinstall_ref(ctx) == ctx, "seinstall_ref did not return its argument");
        seinstall_unref(ctx);
        expect(seinstall_unref(ctx) == NULL, "seinstall_unref did not return NULL");
        expect(seinstall_unref(NULL) == NULL, "seinstall_unref(NULL) did not return NULL");

        printf("consumer: %s (%u library messages)\n", failures ? "FAILED" : "ok", messages);
        return failures ? 1 : 0;
}
