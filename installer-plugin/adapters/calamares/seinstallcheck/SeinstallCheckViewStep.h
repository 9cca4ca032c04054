/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Calamares view module seinstallcheck: placed right after the partition page, it checks the
 * layout chosen there with seinstall before anything is written to a disk, and when a file
 * system cannot keep SELinux labels it shows why and the fix and keeps Next disabled: the
 * person goes Back and chooses again. */
#ifndef SEINSTALLCHECKVIEWSTEP_H
#define SEINSTALLCHECKVIEWSTEP_H

#include "SeinstallCheck.h"

#include "DllMacro.h"
#include "utils/PluginFactory.h"
#include "viewpages/ViewStep.h"

#include <QVariantList>

class QLabel;

class PLUGINDLLEXPORT SeinstallCheckViewStep : public Calamares::ViewStep
{
        Q_OBJECT

      public:
        explicit SeinstallCheckViewStep(QObject *parent = nullptr);
        ~SeinstallCheckViewStep() override;

        QString prettyName() const override;
        QWidget *widget() override;

        bool isNextEnabled() const override;
        bool isBackEnabled() const override;
        bool isAtBeginning() const override;
        bool isAtEnd() const override;

        Calamares::JobList jobs() const override;

        void onActivate() override;
        void setConfigurationMap(const QVariantMap &configurationMap) override;

      private:
        bool plannedPartitions(QVariantList &partitions) const;
        void show(const QString &title, const QString &text, bool nextEnabled);
        void showResult(const SeinstallCheck::Result &result);

        SeinstallCheck::Settings m_settings;
        QWidget *m_widget = nullptr;
        QLabel *m_title = nullptr;
        QLabel *m_text = nullptr;
        bool m_nextEnabled = false;
};

CALAMARES_PLUGIN_FACTORY_DECLARATION(SeinstallCheckViewStepFactory)

#endif
