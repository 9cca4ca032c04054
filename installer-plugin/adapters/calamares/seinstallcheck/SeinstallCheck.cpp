/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The planned layout as seinstall's plan, and seinstall's verdict on it (no widgets here). */
#include "SeinstallCheck.h"

#include "utils/Logger.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace SeinstallCheck
{

/* The partition module's names (KPMcore's, through untranslatedFS()) that the kernel and
 * seinstall spell differently. */
static QString kernelFsName(const QString &fs)
{
        if (fs == QLatin1String("fat12") || fs == QLatin1String("fat16") ||
            fs == QLatin1String("fat32")) {
                return QStringLiteral("vfat");
        }
        if (fs == QLatin1String("ntfs")) {
                return QStringLiteral("ntfs3");
        }
        if (fs == QLatin1String("reiser")) {
                return QStringLiteral("reiserfs");
        }
        return fs;
}

/* Entries of "partitions" that carry no mounted file system. */
static bool isMounted(const QString &fs)
{
        static const QStringList notMounted{
            "",     "unformatted", "linuxswap",       "swap",    "unknown", "lvm2 pv",
            "luks", "luks2",       "linuxraidmember", "extended"};
        return !notMounted.contains(fs);
}

static QString fstabField(QString s)
{
        return s.replace('\\', QLatin1String("\\134"))
            .replace(' ', QLatin1String("\\040"))
            .replace('\t', QLatin1String("\\011"));
}

QStringList planLines(const QVariantList &partitions)
{
        QStringList lines;
        for (const QVariant &v : partitions) {
                const QVariantMap p = v.toMap();
                const QString mountPoint = p.value("mountPoint").toString();
                const QString fs = p.value("fs").toString().toLower();
                if (!mountPoint.startsWith('/') || !isMounted(fs)) {
                        continue;
                }
                QString device = p.value("device").toString();
                if (device.isEmpty()) {
                        device = QStringLiteral("none");
                }
                lines << QStringLiteral("%1 %2 %3 defaults 0 0")
                             .arg(fstabField(device), fstabField(mountPoint), kernelFsName(fs));
        }
        return lines;
}

/* Runs @p args; 0 or more is the exit status, -1 it did not start or finish (@p output says
 * why). stdout only: seinstall's --json documents go there. */
static int run(const Settings &settings, const QStringList &args, QByteArray &output)
{
        QProcess p;
        cDebug() << "seinstallcheck: running" << settings.command << args;
        p.start(settings.command, args);
        if (!p.waitForStarted(10000)) {
                output = QCoreApplication::translate(
                             "SeinstallCheck",
                             "%1 could not be started (%2): install seinstall in the live system.")
                             .arg(settings.command, p.errorString())
                             .toUtf8();
                return -1;
        }
        if (!p.waitForFinished(settings.timeoutSeconds * 1000)) {
                p.kill();
                p.waitForFinished(1000);
                output = QCoreApplication::translate(
                             "SeinstallCheck",
                             "%1 did not finish within %2 s (timeout in seinstallcheck.conf).")
                             .arg(settings.command)
                             .arg(settings.timeoutSeconds)
                             .toUtf8();
                return -1;
        }
        output = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError().trimmed();
        if (!err.isEmpty()) {
                cDebug() << "seinstallcheck:" << settings.command << "said:" << err;
        }
        if (p.exitStatus() != QProcess::NormalExit) {
                output = QCoreApplication::translate("SeinstallCheck", "%1 crashed.")
                             .arg(settings.command)
                             .toUtf8();
                return -1;
        }
        if (p.exitCode() > 1 && output.isEmpty()) {
                output = err;
        }
        return p.exitCode();
}

/* check's --mode and --unsupported as `seinstall profile` reads them from the boot options and
 * the profile; what nobody chose is left to check. */
static bool checkOptions(const Settings &settings, const QString &emptyProfile,
                         QStringList &options, QString &error)
{
        QByteArray out;
        const QString profile = settings.profile.isEmpty() ? emptyProfile : settings.profile;
        const int rc = run(settings, {"profile", profile, "--json"}, out);
        const QJsonObject doc = QJsonDocument::fromJson(out).object();
        if (rc != 0 || doc.isEmpty()) {
                error = QString::fromUtf8(out).trimmed();
                return false;
        }
        for (const char *key : {"mode", "unsupported"}) {
                const QString k = QString::fromLatin1(key);
                if (doc.value(k + "_source").toString("default") != QLatin1String("default")) {
                        options << "--" + k << doc.value(k).toString();
                }
        }
        return true;
}

static QList<Refusal> refusals(const QJsonObject &doc)
{
        QList<Refusal> list;
        for (const QJsonValue &v : doc.value("mounts").toArray()) {
                const QJsonObject m = v.toObject();
                if (m.value("verdict").toString() == QLatin1String("refuse")) {
                        list << Refusal{m.value("mountpoint").toString(),
                                        m.value("fstype").toString(), m.value("reason").toString(),
                                        m.value("fix").toString()};
                }
        }
        return list;
}

Result checkPlan(const Settings &settings, const QStringList &lines)
{
        Result result;
        QTemporaryDir root;
        const QString planPath = root.filePath("plan.fstab");
        const QString emptyProfile = root.filePath("empty.ks");
        QFile plan(planPath);
        QFile empty(emptyProfile);
        if (!root.isValid() || !plan.open(QIODevice::WriteOnly) ||
            !empty.open(QIODevice::WriteOnly)) {
                result.error =
                    QCoreApplication::translate(
                        "SeinstallCheck",
                        "Could not write the plan for seinstall in a temporary directory: %1.")
                        .arg(root.errorString());
                return result;
        }
        plan.write((lines.join('\n') + '\n').toUtf8());
        plan.close();
        empty.close();

        QStringList options;
        if (!checkOptions(settings, emptyProfile, options, result.error)) {
                return result;
        }
        QByteArray out;
        const int rc =
            run(settings,
                QStringList{"check", "--root", root.path(), "--plan", planPath, "--json"} + options,
                out);
        const QJsonObject doc = QJsonDocument::fromJson(out).object();
        if (rc == 0) {
                result.verdict = Verdict::Ok;
        } else if (rc == 1 && !doc.isEmpty()) {
                result.verdict = Verdict::Refused;
                result.refusals = refusals(doc);
        } else {
                result.error =
                    QCoreApplication::translate("SeinstallCheck", "seinstall check exited %1: %2")
                        .arg(rc)
                        .arg(QString::fromUtf8(out).trimmed());
        }
        return result;
}

} // namespace SeinstallCheck
