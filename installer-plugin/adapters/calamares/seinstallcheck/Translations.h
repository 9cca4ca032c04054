/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The page's messages in the language Calamares shows, through Qt's translation system as
 * Calamares' own modules have them: tr() in the page's code, one lang/seinstallcheck_LANG.ts per
 * language, compiled into the plugin's resources (:/lang/seinstallcheck_LANG.qm). */
#ifndef SEINSTALLCHECK_TRANSLATIONS_H
#define SEINSTALLCHECK_TRANSLATIONS_H

class QObject;

namespace SeinstallCheck
{

/* Loads seinstallcheck_LANG.qm for the language Calamares shows with Calamares'
 * loadTranslator() (the data directory's lang/, then the plugin's resources) into a translator
 * installed in the application, and loads it again each time that language changes, for as long
 * as @p owner lives. Calling it again does nothing. */
void installTranslator(QObject *owner);

} // namespace SeinstallCheck

#endif
