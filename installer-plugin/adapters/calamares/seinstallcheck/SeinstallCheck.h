/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the seinstallcheck page knows without a screen: the layout the partition page planned,
 * as the fstab lines `seinstall check --plan` reads, and seinstall's verdict on it. */
#ifndef SEINSTALLCHECK_H
#define SEINSTALLCHECK_H

#include <QString>
#include <QStringList>
#include <QVariantList>

namespace SeinstallCheck
{

/* The settings of the module's .conf: the seinstall program, an optional profile, and how
 * long one run of it may take. */
struct Settings {
        QString command = QStringLiteral("seinstall");
        QString profile;
        int timeoutSeconds = 120;
};

/* One mount seinstall refuses, with its reason and the fix, as `check --json` gives them. */
struct Refusal {
        QString mountPoint;
        QString fsType;
        QString reason;
        QString fix;
};

enum class Verdict {
        Ok,      // every planned mount keeps labels
        Refused, // at least one does not: refusals holds them
        Failed,  // seinstall could not judge: error says why
};

struct Result {
        Verdict verdict = Verdict::Failed;
        QList<Refusal> refusals;
        QString error;
};

/* The fstab lines for global storage "partitions" as the partition module's
 * FillGlobalStorageJob writes it (device, fs, mountPoint): mounted file systems only, the
 * kernel's names for the types, fields escaped as libmount reads them. A new partition has no
 * device yet: its source is "none". */
QStringList planLines(const QVariantList &partitions);

/* Runs `seinstall check --plan` on @p lines against an empty root (the live system's policy,
 * which the install copies), with the mode and unsupported-file-system policy the boot
 * options and the profile choose, as the exec-phase check does. */
Result checkPlan(const Settings &settings, const QStringList &lines);

} // namespace SeinstallCheck

#endif
