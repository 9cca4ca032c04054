#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The oracle of the boot-option table: the REAL Anaconda parses each command line of
boot-table.tsv and prints what it decides for SELinux (its `anaconda` column).

Needs an Anaconda source tree (ANACONDA=DIR, the directory holding pyanaconda/ and
data/anaconda_options.txt) and pykickstart importable. Anaconda's argument_parsing.py imports
blivet only for blivet.arch.is_s390(); that one function is given here (False), nothing of the
parsing is.

usage: ANACONDA=DIR boot-oracle.py boot-table.tsv
"""
import contextlib
import io
import json
import os
import sys
import tempfile

src = os.environ["ANACONDA"]
stub = tempfile.mkdtemp()
os.makedirs(os.path.join(stub, "blivet"))
with open(os.path.join(stub, "blivet", "__init__.py"), "w") as f:
    f.write("")
with open(os.path.join(stub, "blivet", "arch.py"), "w") as f:
    f.write("def is_s390():\n    return False\n")
sys.path[:0] = [src, stub]
os.environ["ANACONDA_DATADIR"] = os.path.join(src, "data")

import logging  # noqa: E402

logging.disable(logging.CRITICAL)
from pyanaconda.argument_parsing import getArgumentParser  # noqa: E402

NAMES = {-1: "default", 0: "disabled", 1: "enforcing"}


def meaning(cmdline):
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # its note on the terminal size
            ns = getArgumentParser("seinstall-oracle").parse_args([], boot_cmdline=cmdline)
    except ValueError:
        return "error"
    return NAMES[ns.selinux]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cmdline = json.loads(line.split("\t")[0])
            print("%s\t%s" % (json.dumps(cmdline), meaning(cmdline)))


if __name__ == "__main__":
    main()
