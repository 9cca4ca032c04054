/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the Check unit tests. */
#ifndef SEINSTALL_TESTUTIL_H
#define SEINSTALL_TESTUTIL_H

#include <check.h>

#include "seinstall.h"

/* A fresh directory under $TMPDIR (or /tmp); aborts the test on failure. */
char *make_tmpdir(void);
/* Remove a directory tree made by make_tmpdir() and free the name. For _cleanup_(). */
void tmpdir_removep(char **dir);
/* Write @content to @path, creating or truncating it; aborts the test on failure. */
void write_file(const char *path, const char *content);
/* Copy the file @from to @to (at most 64 MiB); aborts the test on failure. */
void copy_file(const char *from, const char *to);
/* The newest policy.N of the host's default policy (/etc/selinux/default/policy), or NULL. */
char *host_policy_path(void);
/* Add @tc (named @name) to @s when the host has Debian's default policy (policy.N under
 * /etc/selinux/default/policy, from selinux-policy-default); otherwise leave it out, and
 * run_suite() reports the binary SKIPPED, naming it, once everything else passed. */
void suite_add_policy_tcase(Suite *s, TCase *tc, const char *name);
/* Run @s with CK_FORK and a TAP-free normal report; returns the process exit status: 0, 1 when
 * a test failed, 77 (SKIPPED, said on stdout) when a test case needing the policy was left out. */
int run_suite(Suite *s);
/* seinstall_apply() with its settings and options made from an argument list, as the tests
 * ask for it: the mode and @policy_type (NULL: unset) as the settings, SEINSTALL_MODE_INVALID
 * for none (the boot menu alone); @bootloader and @flags as the options. A value the settings
 * or options refuse gives their -EINVAL. */
int apply_with(struct seinstall_ctx *ctx, enum seinstall_mode mode, const char *policy_type,
               enum seinstall_bootloader bootloader, unsigned flags,
               struct seinstall_apply_result **ret);
/* seinstall_check_run() of the planned layout in the file @plan (NULL: the mounts). */
int check_with_plan(struct seinstall_ctx *ctx, const struct seinstall_settings *settings,
                    const char *plan, struct seinstall_check_result **ret);

#endif
