/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Finding and reading the seinstall-calamares gettext catalog for the page. */
#include "Translations.h"

#include "utils/Logger.h"
#include "utils/Retranslator.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QtEndian>

namespace SeinstallCheck
{

static const char domain[] = "seinstall-calamares";
static const qint64 maxCatalogSize = 4 * 1024 * 1024;

/* One (length, offset) pair of a .mo string table, in the file's byte order. */
static bool stringAt(const QByteArray &mo, bool swap, quint32 table, quint32 index, QByteArray &ret)
{
        const qint64 at = qint64(table) + qint64(index) * 8;
        if (at < 0 || at + 8 > mo.size()) {
                return false;
        }
        quint32 len = qFromLittleEndian<quint32>(mo.constData() + at);
        quint32 off = qFromLittleEndian<quint32>(mo.constData() + at + 4);
        if (swap) {
                len = qbswap(len);
                off = qbswap(off);
        }
        if (qint64(off) + qint64(len) >= mo.size()) { // the NUL after the string included
                return false;
        }
        ret = QByteArray(mo.constData() + off, int(len));
        return true;
}

bool Catalog::load(const QString &path)
{
        m_messages.clear();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly) || f.size() > maxCatalogSize || f.size() < 20) {
                return false;
        }
        const QByteArray mo = f.readAll();
        const quint32 magic = qFromLittleEndian<quint32>(mo.constData());
        if (magic != 0x950412deU && magic != 0xde120495U) {
                return false;
        }
        const bool swap = magic == 0xde120495U;
        auto word = [&](int i) {
                const quint32 w = qFromLittleEndian<quint32>(mo.constData() + 4 * i);
                return swap ? qbswap(w) : w;
        };
        const quint32 count = word(2), originals = word(3), translations = word(4);
        QHash<QByteArray, QString> messages;
        for (quint32 i = 0; i < count; i++) {
                QByteArray id, str;
                if (!stringAt(mo, swap, originals, i, id) ||
                    !stringAt(mo, swap, translations, i, str)) {
                        return false;
                }
                if (id.isEmpty() || id.contains('\0') || id.contains('\x04') || str.isEmpty()) {
                        continue; // the header, plurals, contexts, untranslated
                }
                messages.insert(id, QString::fromUtf8(str));
        }
        m_messages = messages;
        return true;
}

QString Catalog::lookup(const QByteArray &msgid) const
{
        return m_messages.value(msgid);
}

QStringList languageCandidates(const QString &locale)
{
        QStringList names;
        QString name = locale;
        while (!name.isEmpty() && !names.contains(name)) {
                names << name;
                int cut = name.size() - 1;
                while (cut >= 0 && !QStringLiteral("@._").contains(name.at(cut))) {
                        cut--;
                }
                name.truncate(qMax(cut, 0));
        }
        return names;
}

QString findCatalog(const QStringList &dirs, const QStringList &languages)
{
        for (const QString &lang : languages) {
                for (const QString &dir : dirs) {
                        const QString mo =
                            QStringLiteral("%1/%2/LC_MESSAGES/%3.mo").arg(dir, lang, domain);
                        if (QFile::exists(mo)) {
                                return mo;
                        }
                }
        }
        return QString();
}

/* The catalog of the language Calamares shows now, read again when that changes. */
static const Catalog &currentCatalog()
{
        static bool loaded = false;
        static QString loadedFor;
        static Catalog catalog;
        const QString lang = CalamaresUtils::translatorLocaleName().name;
        if (loaded && lang == loadedFor) {
                return catalog;
        }
        loaded = true;
        loadedFor = lang;
        const QStringList dirs =
            QStandardPaths::locateAll(QStandardPaths::GenericDataLocation, QStringLiteral("locale"),
                                      QStandardPaths::LocateDirectory);
        const QString mo = findCatalog(dirs, languageCandidates(lang));
        if (mo.isEmpty()) {
                catalog = Catalog();
                cDebug() << "seinstallcheck: no" << domain << "translation for" << lang << "in"
                         << dirs;
        } else if (catalog.load(mo)) {
                cDebug() << "seinstallcheck: messages in" << lang << "from" << mo;
        } else {
                cWarning() << "seinstallcheck:" << mo << "is not a readable .mo file";
        }
        return catalog;
}

QString i18n(const char *msgid)
{
        const QString t = currentCatalog().lookup(QByteArray(msgid));
        return t.isNull() ? QString::fromUtf8(msgid) : t;
}

} // namespace SeinstallCheck
