/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kickstart-argparse.c — the two rules of Python's argparse that every kickstart command and
 * seinstall's %addon section are read by (pykickstart's KSOptionParser is an argparse parser):
 * how a long option is found from what was typed ("--fst" is --fstype), and which words are
 * options at all ("-1" and "-.5" are words, a negative number, while no option looks like
 * one). One place, so that the storage commands and the profile's commands cannot differ.
 */
#include "kickstart.h"

int si_ks_option_find(const void *names, size_t count, size_t stride, const char *arg, size_t n)
{
        const char *base = names;
        int found = -1;

        for (size_t i = 0; i < count; i++) {
                const char *name = *(const char *const *) (const void *) (base + i * stride);
                if (strlen(name) == n && strncmp(name, arg, n) == 0)
                        return (int) i;
        }
        for (size_t i = 0; i < count; i++) {
                const char *name = *(const char *const *) (const void *) (base + i * stride);
                if (strlen(name) > n && strncmp(name, arg, n) == 0)
                        found = found == -1 ? (int) i : -2;
        }
        return found;
}

/* argparse's "-1" and "-.5": negative numbers are words while no option looks like one. */
static bool negative_number(const char *s)
{
        bool digits = false, dot = false;

        if (s[0] != '-' || !s[1])
                return false;
        for (s++; *s; s++) {
                if (*s == '.' && !dot)
                        dot = true;
                else if (*s >= '0' && *s <= '9')
                        digits = true;
                else
                        return false;
        }
        return digits;
}

bool si_ks_looks_like_option(const char *s)
{
        return s[0] == '-' && s[1] && !negative_number(s);
}
