/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * consumer.c — an installer's view of libseinstall: built against an installed tree with
 * `pkg-config --cflags --libs seinstall` only (tests/integration/consumer-pkgconfig.sh), it
 * uses nothing but the public header. Usage: consumer ROOT [PLAN | --install], or
 * consumer --version (prints SEINSTALL_VERSION, MAJOR.MINOR and seinstall_version())
 *
 * It opens a context on the target, routes the library's messages to its own log function,
 * decides settings with sources as an installer does, checks the error convention on a root
 * that does not exist, and, given a planned layout (fstab format), checks it in enforcing mode
 * as the installer's profile asks and prints every mount's verdict, reason and fix; with
 * --install it installs SELinux into the target (enforcing, policy "default", as a profile
 * would choose) and prints the result. Exit 0 when every call behaved as documented (whatever
 * the check's verdict).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static void check_plan(struct seinstall_ctx *ctx, const char *plan)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_check_result *c = NULL;
        struct seinstall_check_options *co = NULL;
        enum seinstall_source src;
        char *json = NULL;
        int r;

        r = seinstall_settings_new(&s);
        expect(r == 0, "seinstall_settings_new: %d", r);
        if (r < 0)
                return;
        r = seinstall_settings_set_mode(s, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE);
        expect(r == 1, "set_mode(profile) returned %d", r);
        r = seinstall_check_options_new(&co);
        expect(r == 0, "seinstall_check_options_new: %d", r);
        r = seinstall_check_options_set_plan_file(co, plan);
        expect(r == 0, "seinstall_check_options_set_plan_file: %d", r);
        r = seinstall_check_run(ctx, s, co, &c);
        seinstall_check_options_unref(co);
        expect(r == 0 && c, "seinstall_check_run(%s): %s: %s", plan, strerror(-r),
               seinstall_last_error(ctx) ? seinstall_last_error(ctx) : "no message");
        if (r < 0) {
                seinstall_settings_unref(s);
                return;
        }
        enum seinstall_mode m = seinstall_check_result_get_mode(c, &src);
        expect(m == SEINSTALL_MODE_ENFORCING && src == SEINSTALL_SOURCE_PROFILE,
               "check mode %s from %s, expected enforcing from profile",
               seinstall_mode_to_string(m), seinstall_source_to_string(src));
        printf("consumer: check verdict=%s mode=%s mode_source=%s policy=%s\n",
               seinstall_verdict_to_string(seinstall_check_result_get_verdict(c)),
               seinstall_mode_to_string(m), seinstall_source_to_string(src),
               seinstall_check_result_get_policy(c, NULL));
        size_t n = seinstall_check_result_get_n_mounts(c);
        expect(n > 0, "the check has no mounts");
        for (size_t i = 0; i < n; i++) {
                const char *label = seinstall_check_result_get_mount_label(c, i);

                printf(
                    "consumer: mount %s %s labeling=%s label=%s verdict=%s\n"
                    "consumer:   reason: %s\nconsumer:   fix: %s\n",
                    seinstall_check_result_get_mount_mountpoint(c, i),
                    seinstall_check_result_get_mount_fstype(c, i),
                    seinstall_labeling_to_string(seinstall_check_result_get_mount_labeling(c, i)),
                    label ? label : "-",
                    seinstall_verdict_to_string(seinstall_check_result_get_mount_verdict(c, i)),
                    seinstall_check_result_get_mount_reason(c, i),
                    seinstall_check_result_get_mount_fix(c, i));
        }
        expect(seinstall_check_result_get_mount_mountpoint(c, n) == NULL,
               "mount index %zu out of range", n);
        r = seinstall_check_result_to_json(c, &json);
        expect(r == 0 && json && json[0] == '{', "seinstall_check_result_to_json: %d", r);
        if (json)
                printf("consumer: check as JSON, %zu bytes\n", strlen(json));
        free(json);
        expect(seinstall_check_result_unref(c) == NULL, "check_unref did not return NULL");
        seinstall_settings_unref(s);
}

static void install_target(struct seinstall_ctx *ctx)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_install_result *res = NULL;
        enum seinstall_source src;
        int r;

        r = seinstall_settings_new(&s);
        expect(r == 0, "seinstall_settings_new: %d", r);
        if (r < 0)
                return;
        r = seinstall_settings_set_mode(s, SEINSTALL_MODE_ENFORCING, SEINSTALL_SOURCE_PROFILE);
        expect(r == 1, "set_mode(profile) returned %d", r);
        r = seinstall_settings_set_policy(s, "default", SEINSTALL_SOURCE_PROFILE);
        expect(r == 1, "set_policy(profile) returned %d", r);
        r = seinstall_install(ctx, s, NULL, 0, &res);
        expect(r == 0 && res, "seinstall_install: %s: %s", strerror(-r),
               seinstall_last_error(ctx) ? seinstall_last_error(ctx) : "no message");
        if (r == 0) {
                enum seinstall_mode m = seinstall_install_result_get_mode(res, &src);
                const char *err = seinstall_install_result_get_relabel_error(res);

                printf("consumer: install refused=%s mode=%s mode_source=%s policy=%s "
                       "relabel=%s\n",
                       seinstall_install_result_get_refused(res) ? "yes" : "no",
                       seinstall_mode_to_string(m), seinstall_source_to_string(src),
                       seinstall_install_result_get_policy(res), err ? err : "done");
                expect(seinstall_install_result_get_check(res) != NULL,
                       "the install result has no check");
                expect(seinstall_install_result_ref(res) == res, "install_result_ref");
                expect(seinstall_install_result_unref(res) == NULL, "install_result_unref");
                expect(seinstall_install_result_get_check(res) != NULL,
                       "a second reference did not keep the install result");
                expect(seinstall_install_result_unref(res) == NULL,
                       "install_result_free did not return NULL");
        }
        seinstall_settings_unref(s);
}

int main(int argc, char **argv)
{
        struct seinstall_ctx *ctx = NULL, *bad = NULL;
        unsigned messages = 0;
        int r;

        /* The version: the macros it was built with and the library it runs with agree. */
        if (argc == 2 && strcmp(argv[1], "--version") == 0) {
                char built[32];

                snprintf(built, sizeof(built), "%d.%d", SEINSTALL_VERSION_MAJOR,
                         SEINSTALL_VERSION_MINOR);
                printf("%s %s %s\n", SEINSTALL_VERSION, built, seinstall_version());
                return strcmp(SEINSTALL_VERSION, seinstall_version()) == 0 &&
                               strcmp(built, seinstall_version()) == 0
                           ? 0
                           : 1;
        }
        if (argc != 2 && argc != 3) {
                fprintf(stderr, "usage: consumer ROOT [PLAN | --install]\n");
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
        if (argc == 3 && strcmp(argv[2], "--install") == 0)
                install_target(ctx);
        else if (argc == 3)
                check_plan(ctx, argv[2]);

        expect(seinstall_ref(ctx) == ctx, "seinstall_ref did not return its argument");
        seinstall_unref(ctx);
        expect(seinstall_unref(ctx) == NULL, "seinstall_unref did not return NULL");
        expect(seinstall_unref(NULL) == NULL, "seinstall_unref(NULL) did not return NULL");

        printf("consumer: %s (%u library messages)\n", failures ? "FAILED" : "ok", messages);
        return failures ? 1 : 0;
}
