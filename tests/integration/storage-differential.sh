#!/bin/bash
# The layout `seinstall profile KS --plan` reads from a kickstart's storage commands (part,
# logvol, raid, btrfs, autopart, reqpart) against the REAL pykickstart 3.74's newest handlers:
# 74 lines (option prefixes, --opt value and --opt=value, required options, positional words,
# normpath'd mount points, quoting), each with the verdict and mount points pykickstart gives
# it (tests/differential/storage-verdicts.tsv, recorded by storage-oracle.py from
# tests/differential/storage-cases.txt). seinstall accepts exactly what pykickstart accepts,
# names the file and line of what it refuses, and plans the mount points pykickstart reads.
# Debian 12 has no pykickstart: given SEINSTALL_PYKICKSTART (a directory holding the package)
# the oracle runs live and must give the recorded verdicts.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed (make deps)"
DIFF=$TOP/tests/differential
D=$(scratch_dir)

python3 "$DIFF/storage-compare.py" "$SEINSTALL" "$DIFF/storage-verdicts.tsv" "$D" ||
        fail "seinstall and pykickstart disagree on storage commands"
echo "ok: seinstall reads the storage lines as pykickstart does"

if [ -n "${SEINSTALL_PYKICKSTART:-}" ]; then
        PYTHONPATH=$SEINSTALL_PYKICKSTART python3 "$DIFF/storage-oracle.py" \
                "$DIFF/storage-cases.txt" >"$D/live.tsv" || fail "storage-oracle.py failed"
        diff "$DIFF/storage-verdicts.tsv" "$D/live.tsv" ||
                fail "the live pykickstart disagrees with the recorded verdicts"
        echo "ok: the live pykickstart ($(head -1 "$D/live.tsv")) gives the recorded verdicts"
else
        echo "note: SEINSTALL_PYKICKSTART not set: recorded pykickstart verdicts used"
fi
