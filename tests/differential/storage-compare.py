#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compare `seinstall profile --plan` with pykickstart's recorded verdicts on storage lines.

For each row of storage-verdicts.tsv: seinstall accepts the line (exit 0) exactly when
pykickstart does (else exit 2, with the file and line in the message), and plans the mount
points pykickstart gives a device, but for an existing device (--noformat, --useexisting),
which seinstall probes only when it exists here (none does in this test).
Usage: storage-compare.py SEINSTALL VERDICTS SCRATCH_DIR
"""
import re
import subprocess
import sys


def unescape(field):
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def main():
    seinstall, verdicts, scratch = sys.argv[1:4]
    rows = [l.rstrip("\n").split("\t", 2) for l in open(verdicts, encoding="utf-8")
            if not l.startswith("#")]
    bad = 0
    ks = scratch + "/case.ks"
    for verdict, mounts, line in rows:
        with open(ks, "w", encoding="utf-8") as f:
            f.write(line + "\n")
        r = subprocess.run([seinstall, "profile", ks, "--plan", "--firmware", "bios"],
                           capture_output=True, text=True)
        mine = {0: "ok", 2: "err"}.get(r.returncode, "exit %d" % r.returncode)
        planned = [unescape(l.split()[1]) for l in r.stdout.splitlines()
                   if l and not l.startswith("#")]
        want = [] if mounts == "-" or re.search(r"--(noformat|useexisting)\b", line) \
            else mounts.split(",")
        problem = None
        if mine != verdict:
            problem = "pykickstart: %s, seinstall: %s %s" % (verdict, mine, r.stderr.strip())
        elif verdict == "err" and ks + ":1: " not in r.stderr:
            problem = "the message does not name %s:1: %s" % (ks, r.stderr.strip())
        elif verdict == "ok" and not line.startswith(("autopart", "reqpart")) \
                and planned != want:
            problem = "pykickstart's mount points %s, planned %s" % (want, planned)
        if problem:
            bad += 1
            print("DISAGREE: %s\n  %s" % (line, problem))
    print("%d storage lines, %d disagreements" % (len(rows), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
