/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of cmdline-*.c and kconfig.c: the arguments each mode needs on each kernel case,
 * and each boot loader form edited (added, removed, idempotent, others kept, quoting kept). */
#include <check.h>

#include "bootmenu.h"
#include "cmdline.h"
#include "testutil.h"
#include "config.h"

static const struct si_cmdline_goal enf_optin = {SEINSTALL_MODE_ENFORCING,
                                                 SEINSTALL_KERNEL_CASE_SELINUX_OPTIN};
static const struct si_cmdline_goal perm_optin = {SEINSTALL_MODE_PERMISSIVE,
                                                  SEINSTALL_KERNEL_CASE_SELINUX_OPTIN};
static const struct si_cmdline_goal dis_optin = {SEINSTALL_MODE_DISABLED,
                                                 SEINSTALL_KERNEL_CASE_SELINUX_OPTIN};
static const struct si_cmdline_goal enf_default = {SEINSTALL_MODE_ENFORCING,
                                                   SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT};
static const struct si_cmdline_goal dis_default = {SEINSTALL_MODE_DISABLED,
                                                   SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT};
static const struct si_cmdline_goal enf_unknown = {SEINSTALL_MODE_ENFORCING,
                                                   SEINSTALL_KERNEL_CASE_UNKNOWN};
static const struct si_cmdline_goal dis_unknown = {SEINSTALL_MODE_DISABLED,
                                                   SEINSTALL_KERNEL_CASE_UNKNOWN};

/* The kernel command line file edited for @goal; "=" when unchanged. */
static char *kcmd(const char *in, const struct si_cmdline_goal *goal)
{
        char *out = NULL;
        ck_assert_int_eq(si_kernel_cmdline_edit(in, strlen(in), goal, &out, NULL, NULL), 0);
        return out ? out : strdup("=");
}

#define ck_edit(fn, in, goal, want)                                                                \
        do {                                                                                       \
                _cleanup_free_ char *_o = fn(in, goal);                                            \
                ck_assert_str_eq(_o, want);                                                        \
        } while (0)

START_TEST(test_kernel_cases)
{
        bool bp;
        const char debian[] = "CONFIG_SECURITY_SELINUX=y\n"
                              "# CONFIG_SECURITY_SELINUX_BOOTPARAM is not set\n"
                              "CONFIG_LSM=\"landlock,lockdown,yama,loadpin,safesetid,integrity,"
                              "apparmor,selinux,smack,tomoyo,bpf\"\n";
        const char fedora[] = "CONFIG_SECURITY_SELINUX=y\nCONFIG_SECURITY_SELINUX_BOOTPARAM=y\n"
                              "CONFIG_LSM=\"lockdown,yama,integrity,selinux,bpf,landlock\"\n";
        const char old[] = "CONFIG_SECURITY_SELINUX=y\nCONFIG_DEFAULT_SECURITY=\"selinux\"\n";
        const char none[] = "# CONFIG_SECURITY_SELINUX is not set\nCONFIG_LSM=\"selinux\"\n";

        ck_assert_int_eq(si_kconfig_case_of(debian, strlen(debian), &bp),
                         SEINSTALL_KERNEL_CASE_SELINUX_OPTIN);
        ck_assert(!bp);
        ck_assert_int_eq(si_kconfig_case_of(fedora, strlen(fedora), &bp),
                         SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT);
        ck_assert(bp);
        ck_assert_int_eq(si_kconfig_case_of(old, strlen(old), NULL),
                         SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT);
        ck_assert_int_eq(si_kconfig_case_of(none, strlen(none), NULL),
                         SEINSTALL_KERNEL_CASE_NO_SELINUX);
}
END_TEST

START_TEST(test_cmdline_modes)
{
        /* opt-in kernel (Debian): on needs security=selinux, off removes it and adds nothing */
        ck_edit(kcmd, "root=/dev/vda1 ro quiet\n", &enf_optin,
                "root=/dev/vda1 ro quiet security=selinux\n");
        ck_edit(kcmd, "root=/dev/vda1 ro security=selinux quiet\n", &enf_optin, "=");
        ck_edit(kcmd, "root=/dev/vda1 security=selinux ro\n", &dis_optin, "root=/dev/vda1 ro\n");
        ck_edit(kcmd, "root=/dev/vda1 ro\n", &dis_optin, "=");
        /* another major LSM named in security= would keep SELinux off */
        ck_edit(kcmd, "security=apparmor ro\n", &enf_optin, "security=selinux ro\n");
        /* enforcing=0 overrides the config: gone for enforcing, kept for permissive */
        ck_edit(kcmd, "ro enforcing=0 security=selinux\n", &enf_optin, "ro security=selinux\n");
        ck_edit(kcmd, "ro enforcing=0 security=selinux\n", &perm_optin, "=");
        ck_edit(kcmd, "ro enforcing=1 security=selinux\n", &perm_optin, "ro security=selinux\n");
        /* SELinux-default kernel (Fedora): off needs selinux=0, on removes it */
        ck_edit(kcmd, "ro quiet\n", &dis_default, "ro quiet selinux=0\n");
        ck_edit(kcmd, "ro selinux=0 quiet\n", &enf_default, "ro quiet\n");
        ck_edit(kcmd, "ro quiet\n", &enf_default, "=");
        /* unknown kernel: both */
        ck_edit(kcmd, "ro\n", &enf_unknown, "ro security=selinux\n");
        ck_edit(kcmd, "ro security=selinux\n", &dis_unknown, "ro selinux=0\n");
        /* lsm= makes security= ignored: selinux goes into the list, before apparmor */
        ck_edit(kcmd, "ro lsm=landlock,lockdown,yama,apparmor,bpf\n", &enf_optin,
                "ro lsm=landlock,lockdown,yama,selinux,apparmor,bpf\n");
        ck_edit(kcmd, "ro lsm=landlock,yama,selinux,apparmor\n", &enf_optin, "=");
        ck_edit(kcmd, "ro lsm=apparmor,selinux\n", &enf_optin, "ro lsm=selinux,apparmor\n");
        ck_edit(kcmd, "ro lsm=yama,selinux,bpf\n", &dis_optin, "ro lsm=yama,bpf\n");
        ck_edit(kcmd, "ro lsm=selinux\n", &dis_optin, "ro\n");
        ck_edit(kcmd, "lsm=yama security=apparmor\n", &enf_optin,
                "lsm=yama,selinux security=apparmor\n");
        /* names that only start like ours are other arguments */
        ck_edit(kcmd, "selinuxfoo=0 enforcing_x=0 securityx=1\n", &enf_default, "=");
}
END_TEST

START_TEST(test_cmdline_spacing)
{
        /* other arguments, their order and spacing stay; leading blanks too */
        ck_edit(kcmd, "  a=1\tenforcing=0   b=\"x y\"  selinux=0 c\n", &enf_default,
                "  a=1   b=\"x y\" c\n");
        ck_edit(kcmd, "enforcing=0 a", &enf_default, "a");
        ck_edit(kcmd, "", &enf_optin, "security=selinux");
        ck_edit(kcmd, "a\nb\n", &enf_optin, "a\nb security=selinux\n");
}
END_TEST

static char *grub(const char *in, const struct si_cmdline_goal *goal)
{
        _cleanup_free_ char *fixed = NULL, *add = NULL;
        struct sbuf all = {}, fall = {};
        char *out = NULL;
        unsigned line = 0;

        /* as bootloader.c does: fix, then add what the fixed whole lacks */
        ck_assert_int_eq(si_grub_cmdline(in, strlen(in), &all, NULL), 0);
        ck_assert_int_eq(sbuf_puts(&all, ""), 0);
        ck_assert_int_eq(si_grub_edit(in, strlen(in), goal, all.s, NULL, &fixed, &line, NULL), 0);
        if (!fixed)
                fixed = strdup(in);
        ck_assert_int_eq(si_grub_cmdline(fixed, strlen(fixed), &fall, NULL), 0);
        ck_assert_int_eq(sbuf_puts(&fall, ""), 0);
        ck_assert_int_eq(si_cmdline_missing(fall.s, goal, &add), 0);
        ck_assert_int_eq(si_grub_edit(fixed, strlen(fixed), goal, fall.s, add, &out, &line, NULL),
                         0);
        sbuf_free(&all);
        sbuf_free(&fall);
        if (!out)
                return streq(fixed, in) ? strdup("=") : TAKE_PTR(fixed);
        return out;
}

START_TEST(test_grub)
{
        ck_edit(grub, "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"\"\n", &enf_optin,
                "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"security=selinux\"\n");
        /* quoting kept: single quotes, double quotes, unquoted becomes quoted when needed */
        ck_edit(grub, "GRUB_CMDLINE_LINUX='console=ttyS0'\n", &enf_optin,
                "GRUB_CMDLINE_LINUX='console=ttyS0 security=selinux'\n");
        ck_edit(grub, "GRUB_CMDLINE_LINUX=console=ttyS0\n", &enf_optin,
                "GRUB_CMDLINE_LINUX=\"console=ttyS0 security=selinux\"\n");
        ck_edit(grub, "GRUB_CMDLINE_LINUX=\n", &enf_optin, "GRUB_CMDLINE_LINUX=security=selinux\n");
        /* comments after the value, export, indentation */
        ck_edit(grub, "  export GRUB_CMDLINE_LINUX=\"a \\\"b\\\"\" # note\n", &enf_optin,
                "  export GRUB_CMDLINE_LINUX=\"a \\\"b\\\" security=selinux\" # note\n");
        /* removed from _DEFAULT too, added only to GRUB_CMDLINE_LINUX */
        ck_edit(grub, "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet enforcing=0\"\nGRUB_CMDLINE_LINUX=\"\"\n",
                &enf_optin,
                "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"security=selinux\"\n");
        /* already right: unchanged */
        ck_edit(grub, "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet security=selinux\"\n", &enf_optin, "=");
        /* no assignment at all: one is appended */
        ck_edit(grub, "GRUB_TIMEOUT=5", &enf_optin,
                "GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX=\"security=selinux\"\n");
        /* the last assignment is the effective one */
        ck_edit(grub, "GRUB_CMDLINE_LINUX=\"a\"\nGRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX b\"\n",
                &enf_optin,
                "GRUB_CMDLINE_LINUX=\"a\"\nGRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX b "
                "security=selinux\"\n");
        ck_edit(grub, "GRUB_CMDLINE_LINUX=\"security=selinux quiet\"\n", &dis_optin,
                "GRUB_CMDLINE_LINUX=\"quiet\"\n");
        ck_edit(grub, "GRUB_CMDLINE_LINUX=\"quiet\"\r\n", &dis_default,
                "GRUB_CMDLINE_LINUX=\"quiet selinux=0\"\r\n");
        /* commented lines are not assignments */
        ck_edit(grub,
                "#GRUB_CMDLINE_LINUX=\"enforcing=0\"\nGRUB_CMDLINE_LINUX=\"security=selinux\"\n",
                &enf_optin, "=");
}
END_TEST

START_TEST(test_grub_refused)
{
        const char *bad[] = {
            "GRUB_CMDLINE_LINUX=\"a\nb\"\n",
            "GRUB_CMDLINE_LINUX=\"a\"'b'\n",
            "GRUB_CMDLINE_LINUX=$(cat /x)\n",
            "GRUB_CMDLINE_LINUX='a\n",
            /* a quote inside an unquoted word (found by fuzz-grub) */
            "GRUB_CMDLINE_LINUX=a\"b c\"\n",
            "GRUB_CMDLINE_LINUX=a'b'\n",
            /* an odd '"', which would take in what is added (found by fuzz-grub) */
            "GRUB_CMDLINE_LINUX='a=\"b c'\n",
            "GRUB_CMDLINE_LINUX=\"a=\\\"b c\"\n",
            /* a SELinux argument that keeps a '"' in its value: lsm=""n reads as lsm="n, and
             * its rewrite could not say that (found by fuzz-grub) */
            "GRUB_CMDLINE_LINUX='lsm=\"\"n'\n",
            "GRUB_CMDLINE_LINUX='quiet security=a\"\"b'\n",
        };
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char *out = NULL;
                unsigned line = 0;
                ck_assert_int_eq(
                    si_grub_edit(bad[i], strlen(bad[i]), &enf_optin, "", "x", &out, &line, NULL),
                    -EBADMSG);
                ck_assert_uint_eq(line, 1);
                ck_assert_ptr_null(out);
        }
}
END_TEST

/* An odd '"' in a BLS options line or /etc/kernel/cmdline: the kernel would read what is added
 * as part of the quoted argument (found by fuzz-bls), so the edit is refused. */
START_TEST(test_unbalanced_quote_refused)
{
        const char *bad[] = {"\"", "quiet \"", "root=/dev/vda1 a=\"b c\n", "a=\"b\" \"c",
                             /* balanced, but a SELinux value keeps a '"' (as fuzz-grub found) */
                             "lsm=\"\"n", "quiet selinux=1\"\"0"};
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                char *out = NULL, *opts = NULL;
                unsigned line = 99;
                ck_assert(!si_cmdline_quotes_balanced(bad[i], strlen(bad[i])) ||
                          !si_cmdline_selinux_args_plain(bad[i], strlen(bad[i])));
                ck_assert_int_eq(
                    si_kernel_cmdline_edit(bad[i], strlen(bad[i]), &enf_optin, &out, &line, NULL),
                    -EBADMSG);
                ck_assert_ptr_null(out);
                ck_assert_uint_eq(line, 0); /* the whole file */
                /* refused with the options line's number, also when the goal keeps it as is */
                ck_assert_int_ge(asprintf(&opts, "title x\noptions ro\n\noptions %s\n", bad[i]), 0);
                for (size_t g = 0; g < 2; g++) {
                        line = 0;
                        ck_assert_int_eq(si_bls_edit(opts, strlen(opts),
                                                     g ? &perm_optin : &enf_optin, &out, &line,
                                                     NULL),
                                         -EBADMSG);
                        ck_assert_ptr_null(out);
                        ck_assert_uint_eq(line, 4);
                }
                free(opts);
        }
        ck_assert(si_cmdline_quotes_balanced("a=\"b c\" d", 9));
}
END_TEST

static char *bls(const char *in, const struct si_cmdline_goal *goal)
{
        char *out = NULL;
        ck_assert_int_eq(si_bls_edit(in, strlen(in), goal, &out, NULL, NULL), 0);
        return out ? out : strdup("=");
}

START_TEST(test_bls)
{
        ck_edit(bls, "title Debian\nlinux /vmlinuz\noptions root=UUID=1 ro quiet\n", &enf_optin,
                "title Debian\nlinux /vmlinuz\noptions root=UUID=1 ro quiet security=selinux\n");
        ck_edit(bls, "title Debian\noptions root=UUID=1 ro security=selinux\n", &enf_optin, "=");
        ck_edit(bls, "title Fedora\noptions  root=x  selinux=0 rhgb\n", &enf_default,
                "title Fedora\noptions  root=x rhgb\n");
        /* two options lines: removals in both, the addition in the last */
        ck_edit(bls, "options enforcing=0 a\noptions b\n", &enf_optin,
                "options a\noptions b security=selinux\n");
        /* no options line: one is added */
        ck_edit(bls, "title x\nlinux /vmlinuz", &dis_default,
                "title x\nlinux /vmlinuz\noptions selinux=0\n");
        /* "optionsfoo" is not the options key */
        ck_edit(bls, "optionsfoo enforcing=0\noptions a\n", &enf_default, "=");
        /* an options line without a value (found by fuzz-bls): "options selinux=0", not
         * "optionsselinux=0" */
        ck_edit(bls, "title x\noptions\n", &dis_default, "title x\noptions selinux=0\n");
        ck_edit(bls, "options", &enf_optin, "options security=selinux");
}
END_TEST

START_TEST(test_boot_mode)
{
        ck_assert_int_eq(si_cmdline_boot_mode("ro", SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(si_cmdline_boot_mode("security=selinux",
                                              SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_ENFORCING);
        ck_assert_int_eq(si_cmdline_boot_mode("security=selinux enforcing=0",
                                              SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(si_cmdline_boot_mode("lsm=apparmor,selinux",
                                              SEINSTALL_KERNEL_CASE_SELINUX_OPTIN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(si_cmdline_boot_mode("", SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT, true,
                                              SEINSTALL_MODE_PERMISSIVE),
                         SEINSTALL_MODE_PERMISSIVE);
        ck_assert_int_eq(si_cmdline_boot_mode("selinux=0", SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT,
                                              true, SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(si_cmdline_boot_mode("", SEINSTALL_KERNEL_CASE_SELINUX_DEFAULT, true,
                                              SEINSTALL_MODE_DISABLED),
                         SEINSTALL_MODE_DISABLED);
        ck_assert_int_eq(si_cmdline_boot_mode("", SEINSTALL_KERNEL_CASE_UNKNOWN, false,
                                              SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_INVALID);
        ck_assert_int_eq(si_cmdline_boot_mode("security=selinux", SEINSTALL_KERNEL_CASE_NO_SELINUX,
                                              false, SEINSTALL_MODE_ENFORCING),
                         SEINSTALL_MODE_DISABLED);
}
END_TEST

/* grubcfg(TEXT, SAVED): si_grubcfg_default()'s result, the entry in e. */
static int grubcfg(const char *text, const char *saved, struct si_grubcfg_entry *e)
{
        *e = (struct si_grubcfg_entry){};
        return si_grubcfg_default(text, strlen(text), saved, e);
}

START_TEST(test_grubcfg)
{
        struct si_grubcfg_entry e;

        /* one-line entries, ';' ending the linux command, the next entry at the top again */
        ck_assert_int_eq(grubcfg("set default=1\n"
                                 "menuentry 'a' { linux /k one; initrd /i }\n"
                                 "menuentry \"b c\" --id bee { linux /k two 'x;y' }\n",
                                 NULL, &e),
                         0);
        ck_assert_str_eq(e.title, "b c");
        ck_assert_str_eq(e.cmdline, "two 'x;y'");
        ck_assert_str_eq(e.chosen_fmt, "set default=\"%s\"");
        ck_assert_str_eq(e.chosen_arg, "1");
        si_grubcfg_entry_done(&e);
        ck_assert_int_eq(grubcfg("set default=bee\nmenuentry a {\nlinux /k one; initrd /i\n}\n"
                                 "menuentry b --id bee {\n}\n",
                                 NULL, &e),
                         0);
        ck_assert_str_eq(e.title, "b");
        ck_assert_ptr_null(e.cmdline); /* an entry without a linux line */
        si_grubcfg_entry_done(&e);
        /* a submenu as the default: its first entry boots */
        ck_assert_int_eq(grubcfg("set default=\"${saved_entry}\"\nmenuentry a {\n}\n"
                                 "submenu s {\n menuentry s1 {\n  linux /k s1\n }\n}\n",
                                 "s", &e),
                         0);
        ck_assert_str_eq(e.cmdline, "s1");
        si_grubcfg_entry_done(&e);
        /* a one-time next_entry is not the default */
        ck_assert_int_eq(
            grubcfg("set default=\"${next_entry}\"\nmenuentry a {\nlinux /k a\n}\n", NULL, &e), 0);
        ck_assert_str_eq(e.chosen_fmt, "the first menuentry");
        si_grubcfg_entry_done(&e);
        ck_assert_int_eq(grubcfg("insmod blscfg\nblscfg\n", NULL, &e), -EMEDIUMTYPE);
        ck_assert_int_eq(grubcfg("configfile $prefix/grub.cfg\n", NULL, &e), -ENOENT);
        ck_assert_ptr_null(e.chosen_fmt);
        ck_assert_ptr_null(e.chosen_arg);
        /* a menu of submenus without entries: nothing boots */
        ck_assert_int_eq(grubcfg("submenu 'x' {\n}\n", NULL, &e), -ENOENT);
}
END_TEST

START_TEST(test_grubcfg_too_deep)
{
        struct si_grubcfg_entry e;
        struct sbuf b = {};

        /* 32 blocks may be open at once (GRUBCFG_DEPTH_MAX), not 33 */
        for (int i = 0; i < 33; i++)
                ck_assert_int_eq(sbuf_puts(&b, "submenu 'x' {\n"), 0);
        ck_assert_int_eq(grubcfg(b.s, NULL, &e), -EBADMSG);
        ck_assert_ptr_null(e.title);
        sbuf_free(&b);
}
END_TEST

START_TEST(test_pe_section)
{
        unsigned char h[512] = {'M', 'Z'};
        uint64_t off = 0;
        uint32_t size = 0;

        ck_assert_int_eq(si_pe_section(h, 63, ".cmdline", &off, &size), -EBADMSG);
        h[0x3c] = 0xff; /* the PE header beyond what was read */
        h[0x3d] = 0xff;
        ck_assert_int_eq(si_pe_section(h, sizeof(h), ".cmdline", &off, &size), -EBADMSG);
        h[0x3c] = 0x40;
        h[0x3d] = 0;
        memcpy(h + 0x40, "PE\0\0", 4);
        h[0x40 + 6] = 0xff; /* 255 sections: the table would run past the buffer */
        ck_assert_int_eq(si_pe_section(h, sizeof(h), ".cmdline", &off, &size), -EBADMSG);
        h[0x40 + 6] = 1;
        memcpy(h + 0x40 + 24, ".cmdlinX", 8);
        ck_assert_int_eq(si_pe_section(h, sizeof(h), ".cmdline", &off, &size), -ENOENT);
        memcpy(h + 0x40 + 24, ".cmdline", 8);
        h[0x40 + 24 + 8] = 5;    /* VirtualSize */
        h[0x40 + 24 + 17] = 2;   /* SizeOfRawData 512 */
        h[0x40 + 24 + 21] = 0x1; /* PointerToRawData 256 */
        ck_assert_int_eq(si_pe_section(h, sizeof(h), ".cmdline", &off, &size), 0);
        ck_assert_uint_eq(off, 256);
        ck_assert_uint_eq(size, 5);
}
END_TEST

int main(void)
{
        Suite *suite = suite_create("bootcmd");
        TCase *tc = tcase_create("cmdline");

        tcase_add_test(tc, test_kernel_cases);
        tcase_add_test(tc, test_cmdline_modes);
        tcase_add_test(tc, test_cmdline_spacing);
        tcase_add_test(tc, test_grub);
        tcase_add_test(tc, test_grub_refused);
        tcase_add_test(tc, test_bls);
        tcase_add_test(tc, test_unbalanced_quote_refused);
        tcase_add_test(tc, test_boot_mode);
        tcase_add_test(tc, test_grubcfg);
        tcase_add_test(tc, test_grubcfg_too_deep);
        tcase_add_test(tc, test_pe_section);
        suite_add_tcase(suite, tc);
        return run_suite(suite);
}
