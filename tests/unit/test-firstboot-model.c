/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of firstboot/model.c: for every from/to pair of modes, with SELinux active or not
 * and a relabel pending or not, every consequence of the choice, from a table written out by
 * hand (not recomputed by the rules under test). Then the kernel cases of DESIGN.md.
 */
#include <check.h>
#include <errno.h>

#include "model.h"
#include "testutil.h"

#define E   SEINSTALL_MODE_ENFORCING
#define P   SEINSTALL_MODE_PERMISSIVE
#define D   SEINSTALL_MODE_DISABLED
#define SEC FB_KARG_SECURITY_SELINUX

/* A running Debian 12 system (SELinux opt-in kernel) configured as @from, with the kernel
 * command line that goes with it; the library says it boots as configured. Active means a
 * policy is loaded; a system configured disabled but still active is one where disabled was
 * chosen and no reboot happened yet, still enforcing. */
static struct fb_state debian(enum seinstall_mode from, bool active, bool pending)
{
        struct fb_state st = {
            .config_mode = from,
            .boot_mode = from,
            .policy_type = "default",
            .cmdline = {.selinux = -1, .enforcing = -1, .security_selinux = from != D},
            .kernel = FB_KERNEL_OPT_IN,
            .running = true,
            .active = active,
            .enforce_now = active && from != P,
            .relabel_pending = pending,
            .firstboot_mark = true,
        };
        return st;
}

static const struct row {
        enum seinstall_mode from, to;
        bool active, pending;
        bool config;
        unsigned add, remove;
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
        struct fb_state st = debian(r->from, r->active, r->pending);
        struct fb_plan p;
        const char *what = seinstall_mode_to_string(r->to);

        ck_assert_int_eq(fb_plan_for(&st, r->to, &p), 0);
        ck_assert_int_eq(p.mode, r->to);
        /* Enforcing waits in permissive for a relabel; otherwise the config says the choice. */
        ck_assert_int_eq(p.config_mode, (r->to == E && r->relabel ? P : r->to));
        ck_assert_msg(p.possible, "%s", what);
        ck_assert_int_eq(p.config_change, r->config);
        ck_assert_uint_eq(p.kargs_add, r->add);
        ck_assert_uint_eq(p.kargs_remove, r->remove);
        ck_assert_int_eq(p.relabel, r->relabel);
        ck_assert_int_eq(p.reboot, r->reboot);
        ck_assert_int_eq(p.switch_now, r->switch_now);
        ck_assert_int_eq(p.warn_enable_later, r->to == D);
        /* Staying where one is, with nothing pending, changes nothing. */
        ck_assert_int_eq(fb_plan_changes(&p),
                         r->config || r->add || r->remove || r->relabel || r->switch_now);
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
        struct fb_state st = debian(E, false, false);
        struct fb_plan p;

        st.running = false;
        st.active = true; /* the host's SELinux, which must not count */
        st.enforce_now = true;
        ck_assert_int_eq(fb_state_running_mode(&st), D);

        ck_assert_int_eq(fb_plan_for(&st, P, &p), 0);
        ck_assert(p.config_change);
        ck_assert(!p.relabel);
        ck_assert(!p.reboot);
        ck_assert(!p.switch_now);

        st = debian(D, false, false);
        st.running = false;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert(p.relabel);
        ck_assert_int_eq(p.config_mode, P);
        ck_assert(!p.reboot);
        ck_assert_uint_eq(p.kargs_add, SEC);

        st = debian(P, false, true);
        st.running = false;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert(p.relabel);
        ck_assert(!p.config_change); /* stays permissive until the relabel is done */
        ck_assert(!p.reboot);
        ck_assert(fb_plan_changes(&p));
}
END_TEST

/* Fedora-like: SELinux is the default LSM, selinux=0 disables it. */
START_TEST(test_kernel_default)
{
        struct fb_state st = debian(E, true, false);
        struct fb_plan p;

        st.kernel = FB_KERNEL_DEFAULT;
        st.cmdline.security_selinux = false;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_add, FB_KARG_SELINUX_0);
        ck_assert_uint_eq(p.kargs_remove, 0);
        /* A security=selinux there goes too, as the library removes it. */
        st.cmdline.security_selinux = true;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_remove, SEC);

        st = debian(D, false, false);
        st.kernel = FB_KERNEL_DEFAULT;
        st.cmdline.selinux = 0;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_add, 0);
        ck_assert(!fb_plan_changes(&p));

        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert_uint_eq(p.kargs_add, 0);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_SELINUX_0);
        ck_assert(p.relabel);

        /* security=apparmor on a SELinux-default kernel still picks AppArmor: replaced. */
        st.cmdline.selinux = -1;
        st.cmdline.security_other = true;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert_uint_eq(p.kargs_add, SEC);

        /* selinux=1 goes when disabling. */
        st = debian(E, false, false);
        st.kernel = FB_KERNEL_DEFAULT;
        st.cmdline.security_selinux = false;
        st.cmdline.selinux = 1;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_add, FB_KARG_SELINUX_0);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_SELINUX_1);
}
END_TEST

/* Debian 12: selinux=0 is ignored, so it is never added; security=selinux is the switch. */
START_TEST(test_kernel_opt_in)
{
        struct fb_state st = debian(E, false, false);
        struct fb_plan p;

        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_add, 0);
        ck_assert_uint_eq(p.kargs_remove, SEC);

        /* With an lsm= list, security= is ignored and selinux must come before apparmor. */
        st.cmdline.security_selinux = false;
        st.cmdline.lsm = true;
        st.cmdline.lsm_has_selinux = true; /* lsm=...,apparmor,selinux: AppArmor wins */
        st.boot_mode = D;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert_uint_eq(p.kargs_add, FB_KARG_LSM_SELINUX);
        ck_assert(p.relabel);
        st.cmdline.lsm_selinux = true;
        st.boot_mode = E;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert_uint_eq(p.kargs_add | p.kargs_remove, 0);
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_LSM_SELINUX);
        ck_assert_uint_eq(p.kargs_add, 0);
}
END_TEST

/* No /boot/config-*: do both. The library cannot tell the boot mode without an explicit
 * argument; that counts as off, so enabling relabels. */
START_TEST(test_kernel_unknown)
{
        struct fb_state st = debian(D, false, false);
        struct fb_plan p;

        st.kernel = FB_KERNEL_UNKNOWN;
        st.cmdline.selinux = 0;
        ck_assert_int_eq(fb_plan_for(&st, P, &p), 0);
        ck_assert_uint_eq(p.kargs_add, SEC);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_SELINUX_0);

        st = debian(P, true, false);
        st.kernel = FB_KERNEL_UNKNOWN;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert_uint_eq(p.kargs_add, FB_KARG_SELINUX_0);
        ck_assert_uint_eq(p.kargs_remove, SEC);

        st = debian(E, false, false);
        st.running = false;
        st.kernel = FB_KERNEL_UNKNOWN;
        st.cmdline.security_selinux = false;
        st.boot_mode = SEINSTALL_MODE_INVALID;
        ck_assert(fb_state_off(&st));
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert(p.relabel);
        ck_assert_uint_eq(p.kargs_add, SEC);
        ck_assert_int_eq(p.config_mode, P);
}
END_TEST

/* enforcing= overrides the config: a contrary one is removed. */
START_TEST(test_enforcing_arg)
{
        struct fb_state st = debian(E, true, false);
        struct fb_plan p;

        st.cmdline.enforcing = 0;
        st.enforce_now = false;
        st.boot_mode = P;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert(!p.config_change);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_ENFORCING_0);
        ck_assert(p.switch_now);
        ck_assert(!p.reboot);
        ck_assert_int_eq(fb_plan_for(&st, P, &p), 0);
        ck_assert(p.config_change);
        ck_assert_uint_eq(p.kargs_remove, 0);
        ck_assert(!p.switch_now);

        st = debian(P, true, false);
        st.cmdline.enforcing = 1;
        st.boot_mode = E;
        ck_assert_int_eq(fb_plan_for(&st, P, &p), 0);
        ck_assert_uint_eq(p.kargs_remove, FB_KARG_ENFORCING_1);
        ck_assert_str_eq(fb_karg_to_string(FB_KARG_ENFORCING_1), "enforcing=1");
}
END_TEST

START_TEST(test_no_selinux_kernel_and_invalid)
{
        struct fb_state st = debian(E, false, false);
        struct fb_plan p = {.possible = true};

        st.kernel = FB_KERNEL_NO_SELINUX;
        st.boot_mode = D;
        ck_assert_int_eq(fb_plan_for(&st, E, &p), 0);
        ck_assert(!p.possible);
        ck_assert(!fb_plan_changes(&p));
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert(p.possible);
        ck_assert_uint_eq(p.kargs_add, 0);
        ck_assert_uint_eq(p.kargs_remove, SEC); /* a leftover, removed as the library does */

        p.mode = P;
        ck_assert_int_eq(fb_plan_for(&st, SEINSTALL_MODE_INVALID, &p), -EINVAL);
        ck_assert_int_eq(p.mode, P); /* untouched on failure */

        /* No config at all: choosing any mode writes one. */
        st = debian(D, false, false);
        st.config_mode = SEINSTALL_MODE_INVALID;
        ck_assert_int_eq(fb_plan_for(&st, D, &p), 0);
        ck_assert(p.config_change);
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
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return run_suite(model_suite());
}
