/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz the parsers of unattended input: kickstart profiles (kickstart-lex.c, profile.c), the layout
 * a kickstart plans (kickstart-storage*.c) and installer kernel command lines (bootopts.c). The
 * first byte picks the parser: bit 1 the layout, else bit 0 the command line, else the profile. A
 * profile is read as the file fz-main.ks of a scratch directory that also holds files to %include
 * (fz-a.ks sets a mode, fz-b.ks includes it, fz-loop.ks includes itself, fz-open.ks opens a
 * section, fz-end.ks closes one, fz-bad.ks is not UTF-8, fz-fan.ks includes fz-b.ks 16 times), so
 * includes, cycles, sections across files and the read's budget of files are reached. Whatever the
 * input, parsing returns 0 or -EBADMSG/-ENOMEM, and on success the settings hold a valid mode and
 * policy. */
#include <stdint.h>
#include <sys/stat.h>

#include "seinstall-private.h"
#include "profile.h"
#include "settings.h"

static const struct {
        const char *name, *text;
} files[] = {
    {"fz-a.ks", "selinux --permissive\n"},
    {"fz-b.ks", "# b\n%include fz-a.ks\n"},
    {"fz-loop.ks", "%include fz-loop.ks\n"},
    {"fz-open.ks", "%post\necho \"it's\"\n"},
    {"fz-end.ks", "%end\nselinux --disabled\n"},
    {"fz-bad.ks", "# caf\xe9\n"},
    {"fz-part.ks", "part / --fstype=ext4\nbtrfs /home --subvol --name=h LABEL=f\n"},
    {"fz-fan.ks", "%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n"
                  "%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n"
                  "%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n"
                  "%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n%include fz-b.ks\n"},
};
static char dir[] = "/tmp/seinstall-fuzz-profile.XXXXXX";

static void fixture_remove(void)
{
        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                _cleanup_free_ char *p = path_join(dir, files[i].name);
                if (p)
                        unlink(p);
        }
        rmdir(dir);
}

static char *fixture(void)
{
        static bool done;

        if (done)
                return dir;
        if (!mkdtemp(dir))
                abort();
        atexit(fixture_remove);
        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                _cleanup_free_ char *p = path_join(dir, files[i].name);
                FILE *f = p ? fopen(p, "we") : NULL;
                if (!f || fputs(files[i].text, f) < 0 || fclose(f) != 0)
                        abort();
        }
        done = true;
        return dir;
}

/* A plan is fstab lines of 4 fields without blanks inside, each after its comment, mount points
 * absolute: what plan.c reads back. */
static void check_plan(const char *plan, int n)
{
        int lines = 0;

        for (const char *l = plan; *l;) {
                const char *e = strchr(l, '\n');
                int fields = 1;

                if (!e)
                        abort();
                if (*l != '#') {
                        for (const char *p = l; p < e; p++)
                                fields += *p == ' ';
                        if (fields != 4 || l[0] == ' ' || !memmem(l, (size_t) (e - l), " /", 2) ||
                            memmem(l, (size_t) (e - l), "  ", 2) || e[-1] == ' ')
                                abort();
                        lines++;
                }
                l = e + 1;
        }
        if (lines != n)
                abort();
}

static int plan_parse(struct seinstall_ctx *ctx, const char *name, const char *text, size_t len,
                      uint8_t how)
{
        _cleanup_free_ char *plan = NULL;
        int r = si_ks_plan(ctx, name, text, len, how & 4 ? "vfat" : NULL,
                           how & 8 ? SEINSTALL_PLAN_EFI : 0, &plan);

        if (r >= 0)
                check_plan(plan, r);
        else if (plan)
                abort();
        return r < 0 ? r : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct seinstall_settings *s = NULL;
        struct seinstall_ctx *ctx = NULL;
        _cleanup_free_ char *text = NULL, *profile = NULL, *name = NULL;
        int r;

        if (size < 1 || size > 65536)
                return 0;
        if (seinstall_new("/", &ctx) < 0 || seinstall_settings_new(&s) < 0)
                abort();
        text = malloc(size);
        name = path_join(fixture(), "fz-main.ks");
        if (!text || !name)
                abort();
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        if (data[0] & 2)
                r = plan_parse(ctx, name, text, size - 1, data[0]);
        else if (data[0] & 1)
                r = si_bootopts_parse(ctx, "fuzz", text, s, &profile);
        else
                r = si_profile_parse(ctx, name, text, size - 1, s);
        if (r > 0)
                abort();
        if (r == 0 && (!seinstall_mode_to_string(seinstall_settings_get_mode(s, NULL)) ||
                       (seinstall_settings_get_policy(s, NULL) &&
                        !si_policy_type_valid(seinstall_settings_get_policy(s, NULL))) ||
                       (profile && profile[0] != '/')))
                abort();
        if (r < 0 && r != -EBADMSG && r != -ENOMEM)
                abort();
        seinstall_settings_unref(s);
        seinstall_unref(ctx);
        return 0;
}
