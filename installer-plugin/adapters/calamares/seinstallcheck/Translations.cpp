/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The page's translator: which .qm, for which language, and when to load it again. */
#include "Translations.h"
#include "Compat.h"

#include "utils/Logger.h"
#include "utils/Retranslator.h"

#include <QCoreApplication>
#include <QTranslator>

namespace SeinstallCheck
{

static QTranslator *s_translator = nullptr;
static QString s_loadedFor;

/* Installing a translator makes Qt send every widget a LanguageChange, which Calamares'
 * Retranslator turns into languageChanged(): Calamares' own texts and the page's are then
 * translated again, this time with the page's new messages, and this function, called once
 * more, finds the language unchanged and stops there. */
static void load()
{
        const auto language = CalamaresHelpers::translatorLocaleName();
        if (s_translator && language.name == s_loadedFor) {
                return;
        }
        s_loadedFor = language.name;
        if (!s_translator) {
                s_translator = new QTranslator(QCoreApplication::instance());
        } else {
                QCoreApplication::removeTranslator(s_translator);
        }
        if (CalamaresHelpers::loadTranslator(language, QStringLiteral("seinstallcheck_"),
                                             s_translator)) {
                cDebug() << "seinstallcheck: messages in" << language.name << "from"
                         << s_translator->filePath();
        } else {
                cDebug() << "seinstallcheck: no translation for" << language.name
                         << "(seinstallcheck_" + language.name +
                                ".qm): the messages stay in "
                                "English";
        }
        QCoreApplication::installTranslator(s_translator);
}

void installTranslator(QObject *owner)
{
        static bool attached = false;
        if (attached) {
                return;
        }
        attached = true;
        QObject::connect(CalamaresHelpers::Retranslator::instance(),
                         &CalamaresHelpers::Retranslator::languageChanged, owner, &load);
        load();
}

} // namespace SeinstallCheck
