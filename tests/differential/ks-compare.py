#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run seinstall on every case of the kickstart corpus and compare its verdict with the one
pykickstart gives (ks-verdicts.tsv, recorded by ks-oracle.py from the real pykickstart).

A verdict is the mode the profile chose (enforcing, permissive, disabled; none when it chose
nothing) or error. seinstall must give the `expected` column on every case; where pykickstart
as shipped (`real`) says otherwise, the case is one of seinstall's documented deliberate
differences and is listed under its name.

usage: ks-compare.py SEINSTALL CORPUSDIR VERDICTS DIGEST
"""
import collections
import json
import os
import subprocess
import sys


def seinstall_verdict(seinstall, case):
    try:
        p = subprocess.run([seinstall, "profile", "main.ks", "--no-cmdline", "--json"], cwd=case,
                           capture_output=True, timeout=30, check=False)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = p.stderr.decode(errors="replace").strip().splitlines()
    why = err[-1] if err else ""
    if p.returncode == 2:
        return "error", why
    if p.returncode != 0:
        return "exit %d" % p.returncode, why
    d = json.loads(p.stdout)
    return (d["mode"] if d["mode_source"] == "profile" else "none"), why


def main():
    seinstall, corpus, verdicts, digest = sys.argv[1:5]
    header = {}
    rows = []
    with open(verdicts, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                key, _, val = line[1:].strip().partition(" ")
                header[key] = val
                continue
            rows.append(line.rstrip("\n").split("\t"))
    if header.get("corpus") != digest:
        print("FAIL: the corpus (%s) is not the one the verdicts were recorded for (%s): "
              "rerun tests/differential/ks-oracle.py with pykickstart" % (digest, header.get("corpus")))
        return 1
    print("oracle: %s" % header.get("oracle", "?"))
    cases = set(os.listdir(corpus))
    if cases != {r[0] for r in rows}:
        print("FAIL: corpus and verdicts list different cases")
        return 1
    agree = 0
    deliberate = collections.defaultdict(list)
    bad = []
    for case, real, expected, cls in rows:
        got, why = seinstall_verdict(seinstall, os.path.join(corpus, case))
        if got != expected:
            bad.append("%s: pykickstart %s (as seinstall reads it: %s), seinstall %s  [%s]" %
                       (case, real, expected, got, why))
            continue
        agree += 1
        if cls != "-":
            deliberate[cls].append(case)
    for cls in sorted(deliberate):
        print("deliberate difference %s: %d cases (%s%s)" % (
            cls, len(deliberate[cls]), " ".join(deliberate[cls][:8]),
            " ..." if len(deliberate[cls]) > 8 else ""))
    for b in bad:
        print("DISAGREE " + b)
    print("%d cases: %d agree with pykickstart (%d of them through a deliberate difference), "
          "%d disagree" % (len(rows), agree, sum(len(v) for v in deliberate.values()), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
