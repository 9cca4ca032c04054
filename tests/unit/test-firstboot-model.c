/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of firstboot/model.c and model-predict.c: for every from/to pair of modes, with
 * SELinux active or not and a relabel pending or not, every consequence of the choice, from a
 * table written out by hand (not recomputed by the rules under test). The files a choice
 * writes come from the library's dry run on a real target tree in a temporary directory, so
 * the kernel cases (docs/design.md) are checked here as the screen will show them.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"
#include "testutil.h"

#define E SEINSTALL_MODE_ENFORCING
#define P SEINSTALL_MODE_PERMISSIVE
#define D SEINSTALL_MODE_DISABLED
/* what the library notes when it adds or removes security=selinux in /etc/default/grub */
#define SEC "security=selinux"

static const char *const kconfig_opt_in = "CONFIG_SECURITY_SELINUX=y\n"
                                          "CONFIG_LSM=\"landlock,lockdown,yama,apparmor\"\n";
static const char *const kconfig_default = "CONFIG_SECURITY_SELINUX=y\n"
                                           "CONFIG_SECURITY_SELINUX_BOOTPARAM=y\n"
                                           "CONFIG_LSM=\"lockdown,yama,selinux,bpf\"\n";
static const char *const kconfig_none = "# CONFIG_SECURITY_SELINUX is not set\n";

/* A target tree, the model's state for it and the library's prediction of one choice. */
struct target {
        char *root;
        struct seinstall_ctx *ctx;
        struct fb_state st;
        struct fb_prediction pred;
        struct fb_plan plan;
};

static void put(const char *root, const char *rel, const char *content)
{
        char *path;

        ck_assert_int_ge(asprintf(&path, "%s/%s", root, rel), 0);
        for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                mkdir(path, 0755);
                *p = '/';
        }
        write_file(path, content);
        free(path);
}

/* A system with kernel config @kconfig (NULL: none in /boot), GRUB's command line @cmdline and
 * SELinux configured as @from (INVALID: no config), and a built policy; the model's state as
 * the library's status tells it, except running/active/enforcing now, which only the running
 * system knows (here: @active, SELinux running as @from). */
static void target(struct target *t, const char *kconfig, const char *cmdline,
                   enum seinstall_mode from, bool active, bool pending)
{
        struct seinstall_status_result *status = NULL;
        char *grub;

        *t = (struct target){.root = make_tmpdir()};
        put(t->root, "etc/selinux/default/policy/policy.33", "x");
        if (kconfig)
                put(t->root, "boot/config-6.1.0-13-amd64", kconfig);
        if (from != SEINSTALL_MODE_INVALID) {
                char *cfg;
                ck_assert_int_ge(asprintf(&cfg, "SELINUX=%s\nSELINUXTYPE=default\n",
                                          seinstall_mode_to_string(from)),
                                 0);
                put(t->root, "etc/selinux/config", cfg);
                free(cfg);
        }
        if (pending)
                put(t->root, ".autorelabel", "-F\n");
        ck_assert_int_ge(asprintf(&grub, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"%s\"\n", cmdline),
                         0);
        put(t->root, "etc/default/grub", grub);
        free(grub);
        ck_assert_int_eq(seinstall_new(t->root, &t->ctx), 0);
        ck_assert_int_eq(seinstall_status_read(t->ctx, &status), 0);
        t->st = (struct fb_state){
            .config_mode = seinstall_status_result_get_config_mode(status),
            .boot_mode = seinstall_status_result_get_boot_mode(status),
            .policy_type = "default",
            .running = true,
            .active = active,
            .enforce_now = active && from != P, /* disabled, not rebooted: still enforcing */
            .relabel_pending = seinstall_status_result_get_relabel_pending(status),
            .firstboot_mark = false,
        };
        seinstall_status_result_unref(status);
}

/* Predict and plan @to on @t. */
static void choose(struct target *t, enum seinstall_mode to)
{
        fb_prediction_done(&t->pred);
        ck_assert_int_eq(fb_predict(t->ctx, &t->st, to, &t->pred), 0);
        ck_assert_int_eq(fb_plan_for(&t->st, to, &t->pred, &t->plan), 0);
}

static void target_done(struct target *t)
{
        fb_prediction_done(&t->pred);
        seinstall_unref(t->ctx);
        tmpdir_removep(&t->root);
}

/* What the library says it changes in /etc/default/grub ("" when nothing). */
static const char *grub_change(const struct fb_plan *p)
{
        for (size_t i = 0; i < seinstall_apply_result_get_n_changes(p->changes); i++)
                if (strcmp(seinstall_apply_result_get_change_file(p->changes, i),
                           "/etc/default/grub") == 0)
                        return seinstall_apply_result_get_change_what(p->changes, i);
        return "";
}

static void assert_grub(const struct fb_plan *p, const char *want)
{
        ck_assert_msg(strcmp(grub_change(p), want) == 0, "grub change '%s', expected '%s'",
                      grub_change(p), want);
}

static const struct row {
        enum seinstall_mode from, to;
        bool active, pending;
        bool config;
        const char *add, *remove; /* security=selinux added / removed, else 0 */
        bool relabel, reboot, switch_now;
} matrix[] = {
    /* from to active pending | config add remove relabel reboot switch */
    /* SELinux not active this boot: files are being made without labels. Enforcing then
     * waits for the relabel: the config says permissive until it is done. */
    {E, E, 0, 0, 1, 0, 0, 1, 1, 0},
    {E, P, 0, 0, 1, 0, 0, 1, 1, 0},
    {E, D, 0, 0, 1, 0, SEC, 0, 0, 0},
    {P, E, 0, 0, 0, 0, 0, 1, 1, 0},
    {P, P, 0, 0, 0, 0, 0, 1, 1, 0},
    {P, D, 0, 0, 1, 0, SEC, 0, 0, 0},
    {D, E, 0, 0, 1, SEC, 0, 1, 1, 0},
    {D, P, 0, 0, 1, SEC, 0, 1, 1, 0},
    {D, D, 0, 0, 0, 0, 0, 0, 0, 0},
    {E, E, 0, 1, 1, 0, 0, 1, 1, 0},
    {E, P, 0, 1, 1, 0, 0, 1, 1, 0},
    {E, D, 0, 1, 1, 0, SEC, 0, 0, 0},
    {P, E, 0, 1, 0, 0, 0, 1, 1, 0},
    {P, P, 0, 1, 0, 0, 0, 1, 1, 0},
    {P, D, 0, 1, 1, 0, SEC, 0, 0, 0},
    {D, E, 0, 1, 1, SEC, 0, 1, 1, 0},
    {D, P, 0, 1, 1, SEC, 0, 1, 1, 0},
    {D, D, 0, 1, 0, 0, 0, 0, 0, 0},
    /* Active, nothing pending: enforcing <-> permissive switches at once. */
    {E, E, 1, 0, 0, 0, 0, 0, 0, 0},
    {E, P, 1, 0, 1, 0, 0, 0, 0, 1},
    {E, D, 1, 0, 1, 0, SEC, 0, 1, 0},
    {P, E, 1, 0, 1, 0, 0, 0, 0, 1},
    {P, P, 1, 0, 0, 0, 0, 0, 0, 0},
    {P, D, 1, 0, 1, 0, SEC, 0, 1, 0},
    {D, E, 1, 0, 1, SEC, 0, 1, 1, 0},
    {D, P, 1, 0, 1, SEC, 0, 1, 1, 1},
    {D, D, 1, 0, 0, 0, 0, 0, 1, 0},
    /* Active with a relabel pending: never enforce at once, relabel at the next boot. */
    {E, E, 1, 1, 1, 0, 0, 1, 1, 0},
    {E, P, 1, 1, 1, 0, 0, 1, 1, 1},
    {E, D, 1, 1, 1, 0, SEC, 0, 1, 0},
    {P, E, 1, 1, 0, 0, 0, 1, 1, 0},
    {P, P, 1, 1, 0, 0, 0, 1, 1, 0},
    {P, D, 1, 1, 1, 0, SEC, 0, 1, 0},
    {D, E, 1, 1, 1, SEC, 0, 1, 1, 0},
    {D, P, 1, 1, 1, SEC, 0, 1, 1, 1},
    {D, D, 1, 1, 0, 0, 0, 0, 1, 0},
};

START_TEST(test_matrix)
{
        const struct row *r = &matrix[_i];
        struct target t;
        const char *what = seinstall_mode_to_string(r->to);
        char *want = NULL;

        /* Debian 12 (SELinux opt-in kernel) with the command line that goes with @from. */
        target(&t, kconfig_opt_in, r->from == D ? "quiet" : "quiet security=selinux", r->from,
               r->active, r->pending);
        choose(&t, r->to);
        ck_assert_int_eq(t.plan.mode, r->to);
        /* Enforcing waits in permissive for a relabel; otherwise the config says the choice. */
        ck_assert_int_eq(t.plan.config_mode, (r->to == E && r->relabel ? P : r->to));
        ck_assert_msg(t.plan.possible && !t.plan.error, "%s", what);
        ck_assert_int_eq(t.plan.config_change, r->config);
        if (r->add)
                ck_assert_int_ge(asprintf(&want, "added %s", r->add), 0);
        else if (r->remove)
                ck_assert_int_ge(asprintf(&want, "removed %s", r->remove), 0);
        assert_grub(&t.plan, want ? want : "");
        free(want);
        ck_assert_int_eq(t.plan.relabel, r->relabel);
        ck_assert_int_eq(t.plan.reboot, r->reboot);
        ck_assert_int_eq(t.plan.switch_now, r->switch_now);
        ck_assert_int_eq(t.plan.warn_enable_later, r->to == D);
        /* Staying where one is, with nothing pending, changes nothing. */
        ck_assert_int_eq(fb_plan_changes(&t.plan),
                         r->config || r->add || r->remove || r->relabel || r->switch_now);
        target_done(&t);
}
END_TEST

START_TEST(test_matrix_complete)
{
        /* Every combination appears exactly once. */
        int seen[3][3][2][2] = {0};

        for (size_t i = 0; i < sizeof(matrix) / sizeof(matrix[0]); i++)
                seen[matrix[i].from][matrix[i].to][matrix[i].active][matrix[i].pending]++;
        for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                        for (int c = 0; c < 2; c++)
                                for (int d = 0; d < 2; d++)
                                        ck_assert_int_eq(seen[a][b][c][d], 1);
}
END_TEST

/* A target tree (--root, an installer's chroot): the running system's state says nothing
 * about it; there is no reboot and no immediate switch, only what its first boot will do. */
START_TEST(test_target_tree)
{
        struct target t;

        target(&t, kconfig_opt_in, "quiet security=selinux", E, false, false);
        t.st.running = false;
        t.st.active = true; /* the host's SELinux, which must not count */
        t.st.enforce_now = true;
        ck_assert_int_eq(fb_state_running_mode(&t.st), D);
        choose(&t, P);
        ck_assert(t.plan.config_change);
        ck_assert(!t.plan.relabel);
        ck_assert(!t.plan.reboot);
        ck_assert(!t.plan.switch_now);
        target_done(&t);

        target(&t, kconfig_opt_in, "quiet", D, false, false);
        t.st.running = false;
        choose(&t, E);
        ck_assert(t.plan.relabel);
        ck_assert_int_eq(t.plan.config_mode, P);
        ck_assert(!t.plan.reboot);
        assert_grub(&t.plan, "added " SEC);
        target_done(&t);

        target(&t, kconfig_opt_in, "quiet security=selinux", P, false, true);
        t.st.running = false;
        choose(&t, E);
        ck_assert(t.plan.relabel);
        ck_assert(!t.plan.config_change); /* stays permissive until the relabel is done */
        ck_assert(!t.plan.reboot);
        ck_assert(fb_plan_changes(&t.plan));
        target_done(&t);
}
END_TEST

/* Fedora-like: SELinux is the default LSM, selinux=0 disables it. */
START_TEST(test_kernel_default)
{
        struct target t;

        target(&t, kconfig_default, "quiet", E, true, false);
        choose(&t, D);
        assert_grub(&t.plan, "added selinux=0");
        target_done(&t);
        /* A security=selinux there goes too. */
        target(&t, kconfig_default, "quiet security=selinux", E, true, false);
        choose(&t, D);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "removed " SEC));
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "added selinux=0"));
        target_done(&t);

        target(&t, kconfig_default, "quiet selinux=0", D, false, false);
        choose(&t, D);
        assert_grub(&t.plan, "");
        ck_assert(!fb_plan_changes(&t.plan));
        choose(&t, E);
        assert_grub(&t.plan, "removed selinux=0");
        ck_assert(t.plan.relabel);
        target_done(&t);

        /* security=apparmor on a SELinux-default kernel still picks AppArmor: replaced. */
        target(&t, kconfig_default, "quiet security=apparmor", D, false, false);
        choose(&t, E);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), SEC));
        target_done(&t);
}
END_TEST

/* Debian 12: selinux=0 is ignored, so it is never added; security=selinux is the switch. */
START_TEST(test_kernel_opt_in)
{
        struct target t;

        target(&t, kconfig_opt_in, "quiet security=selinux", E, false, false);
        choose(&t, D);
        assert_grub(&t.plan, "removed " SEC);
        target_done(&t);

        /* With an lsm= list, security= is ignored and selinux must come before apparmor. */
        target(&t, kconfig_opt_in, "quiet lsm=landlock,apparmor,selinux", E, false, false);
        ck_assert_int_eq(t.st.boot_mode, D); /* AppArmor wins: the library says off */
        choose(&t, E);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "lsm="));
        ck_assert(t.plan.relabel);
        target_done(&t);
        target(&t, kconfig_opt_in, "quiet lsm=selinux,landlock", E, true, false);
        choose(&t, E);
        /* selinux already leads: no security= (the library may reorder the others) */
        ck_assert_ptr_null(strstr(grub_change(&t.plan), SEC));
        ck_assert(!t.plan.relabel);
        choose(&t, D);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "lsm="));
        ck_assert_ptr_null(strstr(grub_change(&t.plan), "selinux=0"));
        target_done(&t);
}
END_TEST

/* No /boot/config-*: do both. The library cannot tell the boot mode without an explicit
 * argument; that counts as off, so enabling relabels. */
START_TEST(test_kernel_unknown)
{
        struct target t;

        target(&t, NULL, "quiet selinux=0", D, false, false);
        choose(&t, P);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "added " SEC));
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "removed selinux=0"));
        target_done(&t);

        target(&t, NULL, "quiet security=selinux", P, true, false);
        choose(&t, D);
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "removed " SEC));
        ck_assert_ptr_nonnull(strstr(grub_change(&t.plan), "added selinux=0"));
        target_done(&t);

        target(&t, NULL, "quiet", E, false, false);
        t.st.running = false;
        ck_assert(fb_state_off(&t.st));
        choose(&t, E);
        ck_assert(t.plan.relabel);
        assert_grub(&t.plan, "added " SEC);
        ck_assert_int_eq(t.plan.config_mode, P);
        target_done(&t);
}
END_TEST

/* enforcing= overrides the config: a contrary one is removed. */
START_TEST(test_enforcing_arg)
{
        struct target t;

        target(&t, kconfig_opt_in, "quiet security=selinux enforcing=0", E, true, false);
        t.st.enforce_now = false;
        choose(&t, E);
        ck_assert(!t.plan.config_change);
        assert_grub(&t.plan, "removed enforcing=0");
        ck_assert(t.plan.switch_now);
        ck_assert(!t.plan.reboot);
        choose(&t, P);
        ck_assert(t.plan.config_change);
        assert_grub(&t.plan, "");
        ck_assert(!t.plan.switch_now);
        target_done(&t);

        target(&t, kconfig_opt_in, "quiet security=selinux enforcing=1", P, true, false);
        choose(&t, P);
        assert_grub(&t.plan, "removed enforcing=1");
        target_done(&t);
}
END_TEST

START_TEST(test_no_selinux_kernel_and_invalid)
{
        struct target t;
        struct fb_plan p = {.mode = P};

        target(&t, kconfig_none, "quiet security=selinux", E, false, false);
        choose(&t, E);
        ck_assert(!t.plan.possible);
        ck_assert(!fb_plan_changes(&t.plan));
        choose(&t, D);
        ck_assert(t.plan.possible);
        assert_grub(&t.plan, "removed " SEC); /* a leftover, removed */

        ck_assert_int_eq(fb_plan_for(&t.st, SEINSTALL_MODE_INVALID, &t.pred, &p), -EINVAL);
        ck_assert_int_eq(p.mode, P); /* untouched on failure */
        target_done(&t);

        /* No config at all: choosing any mode writes one. */
        target(&t, kconfig_opt_in, "quiet", SEINSTALL_MODE_INVALID, false, false);
        choose(&t, D);
        ck_assert(t.plan.config_change);
        target_done(&t);

        /* A failure other than the kernel's is the library's message, not "impossible". */
        target(&t, kconfig_opt_in, "quiet", D, false, false);
        put(t.root, "etc/default/grub", "GRUB_CMDLINE_LINUX=\"$(cat /x)\"'y'\n");
        choose(&t, P);
        ck_assert(t.plan.possible);
        ck_assert_int_eq(t.plan.error, -EBADMSG);
        ck_assert_ptr_nonnull(strstr(t.pred.message, "/etc/default/grub:1:"));
        ck_assert(!fb_plan_changes(&t.plan));
        target_done(&t);
}
END_TEST

/* The trial, the fourth choice: the library's apply of SEINSTALL_MODE_TRIAL.
 * The config says permissive, the trial state and its unit are the library's changes (told by
 * the plan's sentence, not listed as boot loader edits), nothing switches now, and it needs a
 * reboot on the running system; from Disabled it relabels first as enforcing would. */
START_TEST(test_trial)
{
        struct target t;
        bool state = false, unit = false;

        ck_assert_int_eq(fb_apply_mode(SEINSTALL_MODE_TRIAL), E);
        ck_assert_int_eq(fb_apply_mode(P), P);

        /* enforcing now, active: the next boot starts the trial */
        target(&t, kconfig_opt_in, "quiet security=selinux", E, true, false);
        ck_assert(!(fb_apply_flags(&t.st, SEINSTALL_MODE_TRIAL) & SEINSTALL_APPLY_RELABEL));
        choose(&t, SEINSTALL_MODE_TRIAL);
        ck_assert(t.plan.possible);
        ck_assert_int_eq(t.plan.error, 0);
        ck_assert(t.plan.trial);
        ck_assert_int_eq(t.plan.mode, SEINSTALL_MODE_TRIAL);
        ck_assert_int_eq(t.plan.config_mode, P);
        ck_assert(t.plan.config_change);
        ck_assert(!t.plan.switch_now);
        ck_assert(t.plan.reboot);
        ck_assert(!t.plan.relabel);
        ck_assert(fb_plan_changes(&t.plan));
        assert_grub(&t.plan, ""); /* security=selinux stays */
        for (size_t i = 0; i < seinstall_apply_result_get_n_changes(t.plan.changes); i++) {
                const char *f = seinstall_apply_result_get_change_file(t.plan.changes, i);
                if (strcmp(f, SEINSTALL_TRIAL_STATE) == 0) {
                        state = true;
                        ck_assert(fb_plan_change_told(&t.plan, i));
                } else if (strstr(f, "/" SEINSTALL_TRIAL_UNIT)) {
                        unit = true;
                        ck_assert(fb_plan_change_told(&t.plan, i));
                }
        }
        ck_assert(state && unit);
        /* the same unit link is no sentence of another choice's */
        choose(&t, E);
        ck_assert(!t.plan.trial);
        ck_assert(!t.plan.cancels_trial); /* no trial is pending yet */

        /* once the trial is pending, a mode chosen by hand cancels it, the trial does not */
        {
                struct seinstall_apply_result *res = NULL;
                ck_assert_int_eq(apply_with(t.ctx, SEINSTALL_MODE_TRIAL, "default",
                                            SEINSTALL_BOOTLOADER_AUTO, 0, &res),
                                 0);
                seinstall_apply_result_unref(res);
        }
        t.st.trial_pending = true;
        t.st.config_mode = P;
        for (enum seinstall_mode m = E; m <= D; m++) {
                choose(&t, m);
                ck_assert_msg(t.plan.cancels_trial, "choosing %s keeps the pending trial",
                              seinstall_mode_to_string(m));
        }
        choose(&t, SEINSTALL_MODE_TRIAL);
        ck_assert(!t.plan.cancels_trial);
        target_done(&t);

        /* from Disabled: files lack labels, so a relabel comes first, as for enforcing */
        target(&t, kconfig_opt_in, "quiet", D, false, false);
        ck_assert(fb_apply_flags(&t.st, SEINSTALL_MODE_TRIAL) & SEINSTALL_APPLY_RELABEL);
        choose(&t, SEINSTALL_MODE_TRIAL);
        ck_assert(t.plan.trial);
        ck_assert(t.plan.relabel);
        ck_assert_int_eq(t.plan.config_mode, P);
        assert_grub(&t.plan, "added " SEC);
        target_done(&t);

        /* a kernel without SELinux: not possible, as enforcing */
        target(&t, kconfig_none, "quiet", D, false, false);
        choose(&t, SEINSTALL_MODE_TRIAL);
        ck_assert(!t.plan.possible);
        target_done(&t);
}
END_TEST

/* ---- this boot's denials (model-denials.c) ------------------------------------------------ */

static const char denial_fc[] = "/.*\tsystem_u:object_r:default_t:s0\n"
                                "/etc(/.*)?\tsystem_u:object_r:etc_t:s0\n"
                                "/etc/shadow.*\t--\tsystem_u:object_r:shadow_t:s0\n"
                                "/var/lib(/.*)?\tsystem_u:object_r:var_lib_t:s0\n";
#define ETC_T "system_u:object_r:etc_t:s0"

/* A target with file contexts, and a log being written into it. */
struct denial_log {
        char *root, *log;
        FILE *f;
        unsigned serial;
        struct seinstall_ctx *ctx;
        struct fb_denials d;
};

static void log_open(struct denial_log *l)
{
        *l = (struct denial_log){.root = make_tmpdir()};
        put(l->root, "etc/selinux/config", "SELINUX=permissive\nSELINUXTYPE=default\n");
        put(l->root, "etc/selinux/default/contexts/files/file_contexts", denial_fc);
        ck_assert_int_ge(asprintf(&l->log, "%s/audit.log", l->root), 0);
        l->f = fopen(l->log, "we");
        ck_assert_ptr_nonnull(l->f);
}

/* One denial in the kernel's form, reading @path (NULL: a capability) labeled @tcontext. The
 * kernel writes a name hex-encoded when it has a space, a quote or a byte outside 0x21..0x7e. */
static void log_denial(struct denial_log *l, const char *path, const char *tcontext)
{
        bool hex = false;

        l->serial++;
        if (!path) {
                fprintf(l->f,
                        "[    9.1] audit: type=1400 audit(1733270001.000:%u): avc:  denied  "
                        "{ sys_admin } for  pid=500 comm=\"foo\" capability=21  "
                        "scontext=system_u:system_r:foo_t:s0 "
                        "tcontext=system_u:system_r:foo_t:s0 tclass=capability permissive=1\n",
                        l->serial);
                return;
        }
        for (const unsigned char *c = (const unsigned char *) path; *c; c++)
                hex |= *c <= 0x20 || *c >= 0x7f || *c == '"';
        fprintf(l->f,
                "[    9.2] audit: type=1400 audit(1733270002.000:%u): avc:  denied  { read } "
                "for  pid=9 comm=\"cat\" path=",
                l->serial);
        if (hex)
                for (const unsigned char *c = (const unsigned char *) path; *c; c++)
                        fprintf(l->f, "%02X", *c);
        else
                fprintf(l->f, "\"%s\"", path);
        fprintf(l->f,
                " dev=\"vda1\" ino=5 scontext=system_u:system_r:foo_t:s0 tcontext=%s "
                "tclass=file permissive=1\n",
                tcontext);
}

/* Classify the log with the library, into l->d. */
static void log_read(struct denial_log *l)
{
        ck_assert_int_eq(fclose(l->f), 0);
        l->f = NULL;
        ck_assert_int_eq(seinstall_new(l->root, &l->ctx), 0);
        ck_assert_int_eq(fb_denials_read(l->ctx, l->log, &l->d), 0);
        ck_assert(l->d.read);
}

static void log_done(struct denial_log *l)
{
        if (l->f)
                fclose(l->f);
        fb_denials_done(&l->d);
        seinstall_unref(l->ctx);
        free(l->log);
        tmpdir_removep(&l->root);
}

static void assert_text(char *text, const char *want)
{
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(strcmp(text, want) == 0, "text:\n%s\nexpected:\n%s", text, want);
        free(text);
}

/* Counts, paths in the order first seen, each once, the first five then "and N more". */
START_TEST(test_denials_counts_and_truncation)
{
        struct denial_log l;
        char p[64];

        log_open(&l);
        log_denial(&l, "/etc/shadow", ETC_T); /* label: shadow_t expected */
        log_denial(&l, "/etc/passwd", ETC_T); /* right label: the policy's */
        for (int i = 1; i <= 7; i++) {
                snprintf(p, sizeof(p), "/var/lib/f%d", i);
                log_denial(&l, p, ETC_T);
        }
        log_denial(&l, "/etc/shadow", ETC_T); /* again: counted, listed once */
        log_denial(&l, NULL, NULL);
        log_denial(&l, NULL, NULL);
        log_read(&l);

        ck_assert_int_eq(l.d.error, 0);
        ck_assert_uint_eq(l.d.n_denials, 12);
        ck_assert_uint_eq(l.d.n_label, 9);
        ck_assert_uint_eq(l.d.n_paths, 8);
        ck_assert_str_eq(l.d.paths[0], "/etc/shadow");
        ck_assert_str_eq(l.d.paths[7], "/var/lib/f7");
        ck_assert(fb_denials_offer(&l.d));
        assert_text(fb_denials_line(&l.d), "This boot: 12 SELinux denials, 9 caused by labels.");
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS),
                    "This boot logged 12 SELinux denials, 9 caused by labels.\n"
                    "The files with a wrong label:\n"
                    "  /etc/shadow\n"
                    "  /var/lib/f1\n"
                    "  /var/lib/f2\n"
                    "  /var/lib/f3\n"
                    "  /var/lib/f4\n"
                    "  and 3 more\n"
                    "Relabeling them gives each the label the policy's file contexts assign; "
                    "nothing else changes.");
        /* all of them when they fit: no "more" */
        assert_text(fb_denials_text(&l.d, 8),
                    "This boot logged 12 SELinux denials, 9 caused by labels.\n"
                    "The files with a wrong label:\n"
                    "  /etc/shadow\n  /var/lib/f1\n  /var/lib/f2\n  /var/lib/f3\n"
                    "  /var/lib/f4\n  /var/lib/f5\n  /var/lib/f6\n  /var/lib/f7\n"
                    "Relabeling them gives each the label the policy's file contexts assign; "
                    "nothing else changes.");
        l.d.relabeled = true;
        assert_text(fb_denials_line(&l.d),
                    "This boot: 12 SELinux denials, 9 caused by labels (relabeled).");
        log_done(&l);
}
END_TEST

/* Names with spaces and UTF-8 come whole; a newline in a name is shown escaped, so a name can
 * never make a line of its own on the screen. One file: singular. */
START_TEST(test_denials_names)
{
        struct denial_log l;

        log_open(&l);
        log_denial(&l, "/var/lib/sp ace \xc3\xbc\xe2\x82\xac", ETC_T);
        log_read(&l);
        ck_assert_uint_eq(l.d.n_denials, 1);
        ck_assert_uint_eq(l.d.n_label, 1);
        assert_text(fb_denials_line(&l.d), "This boot: 1 SELinux denial, 1 caused by a label.");
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS),
                    "This boot logged 1 SELinux denial, 1 caused by a label.\n"
                    "The file with a wrong label:\n"
                    "  /var/lib/sp ace \xc3\xbc\xe2\x82\xac\n"
                    "Relabeling it gives it the label the policy's file contexts assign; "
                    "nothing else changes.");
        log_done(&l);

        log_open(&l);
        log_denial(&l, "/var/lib/new\nline", ETC_T);
        log_denial(&l, "/var/lib/\x1b[2Jclear", ETC_T);
        log_read(&l);
        ck_assert_uint_eq(l.d.n_paths, 2);
        ck_assert_str_eq(l.d.paths[0], "/var/lib/new\nline"); /* relabeled by its real name */
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS),
                    "This boot logged 2 SELinux denials, 2 caused by labels.\n"
                    "The files with a wrong label:\n"
                    "  /var/lib/new\\nline\n"
                    "  /var/lib/\\e[2Jclear\n"
                    "Relabeling them gives each the label the policy's file contexts assign; "
                    "nothing else changes.");
        log_done(&l);
}
END_TEST

/* Nothing to relabel: no denial at all, or only the policy's. One line, no offer. */
START_TEST(test_denials_none)
{
        struct denial_log l;
        struct fb_denials unread = {};

        log_open(&l);
        fputs("[    1.0] Linux version 6.1.0-13-amd64\n"
              "[    2.0] audit: type=1403 audit(1733270000.000:2): auid=4294967295 "
              "ses=4294967295 lsm=selinux res=1\n",
              l.f);
        log_read(&l);
        ck_assert_int_eq(l.d.error, 0);
        ck_assert_uint_eq(l.d.n_denials, 0);
        ck_assert(!fb_denials_offer(&l.d));
        assert_text(fb_denials_line(&l.d), "This boot: no SELinux denials.");
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS), "This boot: no SELinux denials.");
        log_done(&l);

        log_open(&l);
        log_denial(&l, "/etc/passwd", ETC_T);
        log_denial(&l, NULL, NULL);
        log_read(&l);
        ck_assert_uint_eq(l.d.n_denials, 2);
        ck_assert_uint_eq(l.d.n_label, 0);
        ck_assert(!fb_denials_offer(&l.d));
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS),
                    "This boot: 2 SELinux denials, none caused by a label.");
        log_done(&l);

        /* not asked for (the system is enforcing): nothing at all */
        assert_text(fb_denials_line(&unread), "");
        ck_assert(!fb_denials_offer(&unread));
}
END_TEST

/* A log that cannot be read is a line saying so, with the library's message kept. */
START_TEST(test_denials_read_error)
{
        struct denial_log l;

        log_open(&l);
        fclose(l.f);
        l.f = NULL;
        unlink(l.log);
        ck_assert_int_eq(seinstall_new(l.root, &l.ctx), 0);
        ck_assert_int_eq(fb_denials_read(l.ctx, l.log, &l.d), 0);
        ck_assert(l.d.read);
        ck_assert_int_eq(l.d.error, -ENOENT);
        ck_assert_ptr_nonnull(l.d.message);
        ck_assert_ptr_nonnull(strstr(l.d.message, l.log));
        ck_assert(!fb_denials_offer(&l.d));
        assert_text(fb_denials_line(&l.d),
                    "This boot: SELinux denials not readable (No such file or directory).");
        fb_denials_done(&l.d);

        /* a binary file (a journal) is not a log */
        l.f = fopen(l.log, "we");
        ck_assert_ptr_nonnull(l.f);
        ck_assert_uint_eq(fwrite("LPKSHHRH\0\0\0\0", 1, 12, l.f), 12);
        ck_assert_int_eq(fclose(l.f), 0);
        l.f = NULL;
        ck_assert_int_eq(fb_denials_read(l.ctx, l.log, &l.d), 0);
        ck_assert_int_eq(l.d.error, -EBADMSG);
        assert_text(fb_denials_text(&l.d, FB_DENIAL_PATHS),
                    "This boot: SELinux denials not readable (Bad message).");
        log_done(&l);
}
END_TEST

/* The result of a relabel that could not start: the library's message, escaped. */
START_TEST(test_denials_relabel_failed)
{
        struct fb_denials d = {.read = true, .n_paths = 2};

        assert_text(fb_denials_relabel_text(&d, -ENOENT, NULL, "/etc/selinux/x:\nmissing"),
                    "The files could not be relabeled: /etc/selinux/x:\\nmissing");
        assert_text(fb_denials_relabel_text(&d, -ENOENT, NULL, NULL),
                    "The files could not be relabeled: No such file or directory");
}
END_TEST

START_TEST(test_permissive_now)
{
        struct fb_state st = {.running = true, .active = true};

        ck_assert(fb_state_permissive_now(&st));
        st.enforce_now = true;
        ck_assert(!fb_state_permissive_now(&st));
        st = (struct fb_state){.running = true};
        ck_assert(!fb_state_permissive_now(&st)); /* not active: no denials logged */
        st = (struct fb_state){.active = true};
        ck_assert(!fb_state_permissive_now(&st)); /* another system's tree */
}
END_TEST

static Suite *model_suite(void)
{
        Suite *s = suite_create("firstboot-model");
        TCase *tc = tcase_create("matrix");

        tcase_add_loop_test(tc, test_matrix, 0, (int) (sizeof(matrix) / sizeof(matrix[0])));
        tcase_add_test(tc, test_matrix_complete);
        suite_add_tcase(s, tc);

        tc = tcase_create("kernels");
        tcase_add_test(tc, test_target_tree);
        tcase_add_test(tc, test_kernel_default);
        tcase_add_test(tc, test_kernel_opt_in);
        tcase_add_test(tc, test_kernel_unknown);
        tcase_add_test(tc, test_enforcing_arg);
        tcase_add_test(tc, test_no_selinux_kernel_and_invalid);
        tcase_add_test(tc, test_trial);
        suite_add_tcase(s, tc);

        tc = tcase_create("denials");
        tcase_add_test(tc, test_denials_counts_and_truncation);
        tcase_add_test(tc, test_denials_names);
        tcase_add_test(tc, test_denials_none);
        tcase_add_test(tc, test_denials_read_error);
        tcase_add_test(tc, test_denials_relabel_failed);
        tcase_add_test(tc, test_permissive_now);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(model_suite());
}
