/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The page: find the planned layout, ask seinstall, show the verdict, gate Next. */
#include "SeinstallCheckViewStep.h"
#include "Compat.h"
#include "Translations.h"

#include "GlobalStorage.h"
#include "JobQueue.h"
#include "ViewManager.h"
#include "utils/Logger.h"
#include "utils/Variant.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

CALAMARES_PLUGIN_FACTORY_DEFINITION(SeinstallCheckViewStepFactory,
                                    registerPlugin<SeinstallCheckViewStep>();)

SeinstallCheckViewStep::SeinstallCheckViewStep(QObject *parent)
    : Calamares::ViewStep(parent), m_widget(new QWidget), m_title(new QLabel), m_text(new QLabel)
{
        SeinstallCheck::installTranslator(this);
        m_title->setWordWrap(true);
        QFont bold = m_title->font();
        bold.setBold(true);
        m_title->setFont(bold);
        // Paths and seinstall's reasons are shown as they are, never as markup.
        m_text->setTextFormat(Qt::PlainText);
        m_text->setWordWrap(true);
        m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(m_text);
        auto *layout = new QVBoxLayout(m_widget);
        layout->addWidget(m_title);
        layout->addWidget(scroll, 1);
}

SeinstallCheckViewStep::~SeinstallCheckViewStep()
{
        if (m_widget && m_widget->parent() == nullptr) {
                m_widget->deleteLater();
        }
}

QString SeinstallCheckViewStep::prettyName() const
{
        return tr("SELinux");
}

QWidget *SeinstallCheckViewStep::widget()
{
        return m_widget;
}

bool SeinstallCheckViewStep::isNextEnabled() const
{
        return m_nextEnabled;
}

bool SeinstallCheckViewStep::isBackEnabled() const
{
        return true;
}

bool SeinstallCheckViewStep::isAtBeginning() const
{
        return true;
}

bool SeinstallCheckViewStep::isAtEnd() const
{
        return true;
}

Calamares::JobList SeinstallCheckViewStep::jobs() const
{
        return {};
}

void SeinstallCheckViewStep::setConfigurationMap(const QVariantMap &configurationMap)
{
        const QString command = CalamaresHelpers::getString(configurationMap, "command");
        if (!command.isEmpty()) {
                m_settings.command = command;
        }
        m_settings.profile = CalamaresHelpers::getString(configurationMap, "profile");
        const qint64 timeout =
            CalamaresHelpers::getInteger(configurationMap, "timeout", m_settings.timeoutSeconds);
        if (timeout > 0 && timeout < 24 * 3600) {
                m_settings.timeoutSeconds = static_cast<int>(timeout);
        }
}

/* The partition page writes its plan to global storage only in the exec phase, through its
 * FillGlobalStorageJob. That job reads the page's planned devices and only fills global
 * storage (it touches no disk), so it is run here on the jobs an earlier page would queue,
 * and global storage is put back as it was: the exec phase runs the job again. False when
 * no earlier page plans partitions. */
bool SeinstallCheckViewStep::plannedPartitions(QVariantList &partitions) const
{
        Calamares::GlobalStorage *gs = Calamares::JobQueue::instance()->globalStorage();
        const auto steps = Calamares::ViewManager::instance()->viewSteps();
        for (const Calamares::ViewStep *step : steps) {
                if (step == this) {
                        break;
                }
                for (const Calamares::job_ptr &job : step->jobs()) {
                        if (qstrcmp(job->metaObject()->className(), "FillGlobalStorageJob") != 0) {
                                continue;
                        }
                        const QVariantMap before = gs->data();
                        const Calamares::JobResult r = job->exec();
                        partitions = gs->value("partitions").toList();
                        const QVariantMap after = gs->data();
                        for (auto it = after.cbegin(); it != after.cend(); ++it) {
                                if (!before.contains(it.key())) {
                                        gs->remove(it.key());
                                } else if (before.value(it.key()) != it.value()) {
                                        gs->insert(it.key(), before.value(it.key()));
                                }
                        }
                        cDebug() << "seinstallcheck: the layout planned on page"
                                 << step->moduleInstanceKey().toString() << (r ? "" : r.message());
                        return true;
                }
        }
        return false;
}

void SeinstallCheckViewStep::show(const QString &title, const QString &text, bool nextEnabled)
{
        m_title->setText(title);
        m_text->setText(text);
        m_nextEnabled = nextEnabled;
        cDebug() << "seinstallcheck:" << title
                 << (nextEnabled ? "(Next enabled)" : "(Next disabled)");
        // What the person reads, for the log a bug report carries.
        cDebug() << "seinstallcheck: the page says:" << text;
        emit nextStatusChanged(nextEnabled);
}

void SeinstallCheckViewStep::showResult(const SeinstallCheck::Result &result)
{
        using SeinstallCheck::Verdict;
        if (result.verdict == Verdict::Ok) {
                show(tr("The file systems chosen can carry SELinux labels."),
                     tr("Every planned mount point keeps a label per file: SELinux will be set up "
                        "on the "
                        "installed system."),
                     true);
                return;
        }
        if (result.verdict == Verdict::Failed) {
                show(tr("SELinux: the planned file systems could not be checked"), result.error,
                     false);
                return;
        }
        QStringList lines;
        for (const auto &r : result.refusals) {
                cDebug() << "seinstallcheck: refused" << r.mountPoint << r.fsType;
                lines << QStringLiteral("%1 (%2): %3").arg(r.mountPoint, r.fsType, r.reason);
                if (!r.fix.isEmpty()) {
                        lines << tr("Fix: %1").arg(r.fix);
                }
                lines << QString();
        }
        lines << tr(
            "Nothing has been written to any disk. Press Back and, on the partitioning page, "
            "choose file systems that keep per-file labels (ext4, xfs, btrfs) for the mount "
            "points named above.");
        show(tr("SELinux cannot work on the file systems chosen"), lines.join('\n'), false);
}

void SeinstallCheckViewStep::onActivate()
{
        QVariantList partitions;
        if (!plannedPartitions(partitions)) {
                show(tr("SELinux: no partitioning page before this one"),
                     tr("The file systems are checked during the installation instead: put "
                        "seinstallcheck "
                        "right after partition in the show sequence of settings.conf to check them "
                        "here."),
                     true);
                return;
        }
        const QStringList lines = SeinstallCheck::planLines(partitions);
        if (lines.isEmpty()) {
                show(tr("SELinux: no file system planned"),
                     tr("The partitioning page planned no mounted file system: press Back and "
                        "choose a root "
                        "partition."),
                     false);
                return;
        }
        cDebug() << "seinstallcheck: the planned layout:" << lines;
        showResult(SeinstallCheck::checkPlan(m_settings, lines));
}
