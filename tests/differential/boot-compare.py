#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run seinstall on every command line of boot-table.tsv and check the table: seinstall gives
its `seinstall` column, and every row where that differs from Anaconda's meaning (the
`anaconda` column, recorded from the real Anaconda by boot-oracle.py) names a documented
deliberate difference, and no other row does. With a second argument (boot-oracle.py's output
from a live Anaconda) the `anaconda` column is checked against it too.

usage: boot-compare.py SEINSTALL boot-table.tsv [ORACLE-OUTPUT]
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

SAME = {"default": "none", "disabled": "disabled", "enforcing": "enforcing", "error": "error"}


def seinstall_mode(seinstall, d, cmdline):
    with open(os.path.join(d, "cmdline"), "w", encoding="utf-8") as f:
        f.write(cmdline)
    p = subprocess.run([seinstall, "profile", os.path.join(d, "empty.ks"), "--cmdline",
                        os.path.join(d, "cmdline"), "--json"], capture_output=True, timeout=30,
                       check=False)
    if p.returncode == 2:
        return "error"
    if p.returncode != 0:
        return "exit %d" % p.returncode
    out = json.loads(p.stdout)
    return out["mode"] if out["mode_source"] == "boot" else "none"


def main():
    seinstall, table = sys.argv[1:3]
    live = {}
    if len(sys.argv) > 3:
        with open(sys.argv[3], encoding="utf-8") as f:
            for line in f:
                c, m = line.rstrip("\n").split("\t")
                live[json.loads(c)] = m
    rows = []
    with open(table, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#") and line.strip():
                c, a, s, dlb = line.rstrip("\n").split("\t")
                rows.append((json.loads(c), a, s, dlb))
    bad = []
    classes = collections.Counter()
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "empty.ks"), "w").close()
        for cmdline, anaconda, expect, dlb in rows:
            got = seinstall_mode(seinstall, d, cmdline)
            if got != expect:
                bad.append("%r: seinstall %s, the table says %s" % (cmdline, got, expect))
            if (SAME[anaconda] != expect) != (dlb != "-"):
                bad.append("%r: Anaconda %s, seinstall %s, deliberate %s: inconsistent row" %
                           (cmdline, anaconda, expect, dlb))
            if live and live.get(cmdline) != anaconda:
                bad.append("%r: the real Anaconda says %s, the table %s" %
                           (cmdline, live.get(cmdline), anaconda))
            if dlb != "-":
                classes[dlb] += 1
    for cls, n in sorted(classes.items()):
        print("deliberate difference %s: %d command lines" % (cls, n))
    for b in bad:
        print("DISAGREE " + b)
    print("%d boot command lines: %d as the table says, %d not%s" % (
        len(rows), len(rows) - len(bad), len(bad),
        " (Anaconda's column checked against the real Anaconda)" if live else ""))
    return 1 if bad or len(rows) < 50 else 0


if __name__ == "__main__":
    sys.exit(main())
