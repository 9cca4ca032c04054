#!/usr/bin/env python3
"""enum-prefixes.py HEADER: one prefix per enum in the public header. The values of enum
seinstall_NAME start with SEINSTALL_NAME_ (NAME in capitals); a flags enum, seinstall_NAME_flags,
with SEINSTALL_NAME_ and no value of it may start with another enum's prefix (so a flag never
reads as a count: SEINSTALL_RELABEL_DRY_RUN against SEINSTALL_RELABEL_COUNT_CHANGED). Prints
each value that breaks the rule; exits 1 when one does (tests/integration/abi.sh)."""
import re, sys

text = re.sub(r"/\*.*?\*/", "", open(sys.argv[1], encoding="utf-8").read(), flags=re.S)
enums = {m.group(1): re.findall(r"^\s*(SEINSTALL_\w+)", m.group(2), re.M)
         for m in re.finditer(r"^enum (seinstall_\w+) \{(.*?)^\};", text, re.S | re.M)}
if not enums:
    sys.exit(f"enum-prefixes: no enum seinstall_* in {sys.argv[1]}")


def prefix(name):
    return (name[:-len("_flags")] if name.endswith("_flags") else name).upper() + "_"


bad = 0
for name, values in sorted(enums.items()):
    own = prefix(name)
    others = [prefix(o) for o in enums if o != name and len(prefix(o)) > len(own)]
    for v in values:
        if not v.startswith(own):
            bad += 1
            print(f"enum {name}: {v} does not start with {own}")
        for o in others:
            if v.startswith(o):
                bad += 1
                print(f"enum {name}: {v} starts with {o}, the prefix of another enum")
print(f"enum-prefixes: {len(enums)} enums, {sum(map(len, enums.values()))} values, {bad} off "
      "their prefix")
sys.exit(1 if bad else 0)
