/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The page's messages in the installer's language, from the gettext domain of the python job
 * module (seinstall-calamares): one template (po/seinstall-calamares.pot) and one .mo per
 * language for both modules. */
#ifndef SEINSTALLCHECK_TRANSLATIONS_H
#define SEINSTALLCHECK_TRANSLATIONS_H

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace SeinstallCheck
{

/* The messages of one .mo file. Read here rather than through dgettext(): that needs the
 * language's locale to be generated in the live system and the process locale set to it. */
class Catalog
{
      public:
        /* Reads the .mo at @p path (at most 4 MiB); false, and an empty catalog, when it is
         * missing or malformed. Plural and context entries are left out (the page has none). */
        bool load(const QString &path);
        /* The translation of @p msgid, or a null QString. */
        QString lookup(const QByteArray &msgid) const;

      private:
        QHash<QByteArray, QString> m_messages;
};

/* The candidate names for @p locale ("de_DE.UTF-8@euro" -> de_DE.UTF-8@euro, de_DE, de), most
 * specific first, as gettext_languages() makes them for python modules. */
QStringList languageCandidates(const QString &locale);

/* The .mo of domain seinstall-calamares for the first of @p languages found in one of @p dirs
 * (each a locale directory: DIR/LANG/LC_MESSAGES/seinstall-calamares.mo); empty if none. */
QString findCatalog(const QStringList &dirs, const QStringList &languages);

/* @p msgid in the language Calamares shows (the welcome page's choice), from a .mo in the
 * locale directories Calamares searches for python modules' translations (the XDG data
 * directories' locale/); @p msgid itself when there is none. */
QString i18n(const char *msgid);

} // namespace SeinstallCheck

#endif
