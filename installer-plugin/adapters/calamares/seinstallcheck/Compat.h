/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libcalamares' helpers (getString, loadTranslator, Retranslator, ...) under the namespace this
 * Calamares keeps them in: CMakeLists.txt defines SEINSTALLCHECK_CALAMARES_UTILS as
 * CalamaresUtils before Calamares 3.3 and as Calamares since. */
#ifndef SEINSTALLCHECK_COMPAT_H
#define SEINSTALLCHECK_COMPAT_H

namespace SEINSTALLCHECK_CALAMARES_UTILS
{
}
namespace CalamaresHelpers = SEINSTALLCHECK_CALAMARES_UTILS;

#endif
