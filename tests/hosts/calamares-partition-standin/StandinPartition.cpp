/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in for Calamares' partition page (which finds no disk on a test machine), with the
 * same two jobs the page queues in 3.2.61 that matter to seinstall, under their class names:
 * FormatPartitionJob formats the partitions marked for formatting ("claimed"), and
 * FillGlobalStorageJob puts the layout into global storage "partitions". As in the real page,
 * a new partition has no device path until the exec phase created it. The layout is read from
 * the file in the module's .conf ("layoutFile") whenever the jobs are asked for: a test
 * rewrites it while the page is shown, as a person would choose again. */
#include "DllMacro.h"
#include "GlobalStorage.h"
#include "Job.h"
#include "JobQueue.h"
#include "utils/Logger.h"
#include "utils/PluginFactory.h"
#include "utils/Variant.h"
#include "viewpages/ViewStep.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSharedPointer>

namespace
{
/* JSON, which Qt reads: libcalamares' YAML loader changed its name in 3.3. */
QVariantList readLayout(const QString &file)
{
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
                return {};
        }
        return QJsonDocument::fromJson(f.readAll())
            .object()
            .value("partitions")
            .toArray()
            .toVariantList();
}
} // namespace

class FormatPartitionJob : public Calamares::Job
{
        Q_OBJECT
      public:
        FormatPartitionJob(const QVariantList &layout, QSharedPointer<bool> created)
            : m_layout(layout), m_created(created)
        {
        }
        QString prettyName() const override
        {
                return QStringLiteral("Stand-in: format the new partitions");
        }
        Calamares::JobResult exec() override
        {
                for (const QVariant &v : m_layout) {
                        const QVariantMap p = v.toMap();
                        if (!p.value("claimed").toBool()) {
                                continue;
                        }
                        const QString fs = p.value("fs").toString();
                        const QStringList force = fs == "reiserfs" ? QStringList{"-q", "-f", "-f"}
                                                                   : QStringList{"-F", "-q"};
                        const int rc = QProcess::execute(
                            "mkfs." + fs, force + QStringList{p.value("device").toString()});
                        cDebug() << "standinpartition: formatted" << p.value("device").toString()
                                 << "as" << fs << "exit" << rc;
                        if (rc != 0) {
                                return Calamares::JobResult::error("mkfs." + fs + " failed");
                        }
                }
                *m_created = true;
                return Calamares::JobResult::ok();
        }

      private:
        QVariantList m_layout;
        QSharedPointer<bool> m_created;
};

class FillGlobalStorageJob : public Calamares::Job
{
        Q_OBJECT
      public:
        FillGlobalStorageJob(const QVariantList &layout, QSharedPointer<bool> created)
            : m_layout(layout), m_created(created)
        {
        }
        QString prettyName() const override
        {
                return QStringLiteral("Set partition information");
        }
        Calamares::JobResult exec() override
        {
                QVariantList partitions;
                for (const QVariant &v : m_layout) {
                        QVariantMap p = v.toMap();
                        if (p.value("claimed").toBool() && !*m_created) {
                                p.insert("device", QString());
                        }
                        partitions << p;
                }
                auto *gs = Calamares::JobQueue::instance()->globalStorage();
                gs->insert("partitions", partitions);
                gs->insert("firmwareType", QStringLiteral("bios"));
                return Calamares::JobResult::ok();
        }

      private:
        QVariantList m_layout;
        QSharedPointer<bool> m_created;
};

class PLUGINDLLEXPORT StandinPartitionViewStep : public Calamares::ViewStep
{
        Q_OBJECT
      public:
        explicit StandinPartitionViewStep(QObject *parent = nullptr)
            : Calamares::ViewStep(parent), m_label(new QLabel)
        {
                m_label->setTextFormat(Qt::PlainText);
        }
        QString prettyName() const override
        {
                return QStringLiteral("Partitions (stand-in)");
        }
        QWidget *widget() override
        {
                return m_label;
        }
        bool isNextEnabled() const override
        {
                return true;
        }
        bool isBackEnabled() const override
        {
                return true;
        }
        bool isAtBeginning() const override
        {
                return true;
        }
        bool isAtEnd() const override
        {
                return true;
        }
        void onActivate() override
        {
                QFile f(m_layoutFile);
                f.open(QIODevice::ReadOnly);
                m_label->setText("Stand-in partition page, layout " + m_layoutFile + ":\n\n" +
                                 QString::fromUtf8(f.readAll()));
                cDebug() << "standinpartition: page shown";
        }
        Calamares::JobList jobs() const override
        {
                const QVariantList layout = readLayout(m_layoutFile);
                QSharedPointer<bool> created(new bool(false));
                return {Calamares::job_ptr(new FormatPartitionJob(layout, created)),
                        Calamares::job_ptr(new FillGlobalStorageJob(layout, created))};
        }
        void setConfigurationMap(const QVariantMap &map) override
        {
                m_layoutFile = CALAMARES_UTILS_NAMESPACE::getString(map, "layoutFile");
        }

      private:
        QLabel *m_label;
        QString m_layoutFile;
};

CALAMARES_PLUGIN_FACTORY_DECLARATION(StandinPartitionViewStepFactory)
CALAMARES_PLUGIN_FACTORY_DEFINITION(StandinPartitionViewStepFactory,
                                    registerPlugin<StandinPartitionViewStep>();)

#include "StandinPartition.moc"
