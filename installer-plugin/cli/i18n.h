/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* i18n.h — gettext for the words the commands print themselves (seinstall-firstboot and every
 * subcommand of `seinstall`): _(), N_() and ngettext() mark them, and so does the format of
 * cli_error() and cli_usage_error() (report.h); cli_i18n_init() binds the "seinstall" domain.
 * The library translates its own words ("libseinstall", po/libseinstall/) when cli_open() asks. */
#ifndef SEINSTALL_CLI_I18N_H
#define SEINSTALL_CLI_I18N_H

#include <libintl.h>
#include <locale.h>
#include <stdlib.h>

#define _(s)  gettext(s)
#define N_(s) s

#ifndef LOCALEDIR
#define LOCALEDIR "/usr/share/locale"
#endif

/* Messages and characters from the environment's locale (LC_ALL, LC_MESSAGES, LANG), not
 * its number formats: JSON and the kernel's files want a '.' in numbers. The catalogs are
 * under LOCALEDIR, or SEINSTALL_LOCALEDIR (a test's build tree; not for setuid use). */
static inline void cli_i18n_init(void)
{
        const char *dir = secure_getenv("SEINSTALL_LOCALEDIR");

        setlocale(LC_CTYPE, "");
        setlocale(LC_MESSAGES, "");
        bindtextdomain("seinstall", dir && *dir ? dir : LOCALEDIR);
        /* the library binds its domain where it was built to look; a test's tree is elsewhere */
        if (dir && *dir)
                bindtextdomain("libseinstall", dir);
        textdomain("seinstall");
}

#endif
