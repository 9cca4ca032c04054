#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Record what pykickstart (PYTHONPATH) makes of each storage line of storage-cases.txt.

Prints one tab-separated row per case: the verdict (ok, or err when pykickstart refuses the
line), the mount points the line gives a device (part, logvol, raid, btrfs: pykickstart's own
normalised mountpoint when it starts with "/"; "-" for none) and the line itself. The first
line names the pykickstart version.
Usage: storage-oracle.py CASES
"""
import sys
import warnings

import pykickstart
from pykickstart.errors import KickstartError
from pykickstart.parser import KickstartParser
from pykickstart.version import makeVersion


def mounts(handler):
    out = []
    for cmd in ("partition", "raid", "logvol", "btrfs"):
        for d in handler.commands[cmd].dataList():
            if d.mountpoint.startswith("/"):
                out.append(d.mountpoint)
    return ",".join(out) or "-"


def main():
    warnings.simplefilter("ignore")
    print("# pykickstart %s" % pykickstart.__version__)
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in cases:
        handler = makeVersion()
        try:
            KickstartParser(handler).readKickstartFromString(line + "\n")
            print("ok\t%s\t%s" % (mounts(handler), line))
        except KickstartError:
            print("err\t-\t%s" % line)


if __name__ == "__main__":
    main()
