#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Validate a seinstall --json document the way a strict consumer reads it.

Usage: json-validate.py SCHEMA_DIR KIND FILE
       json-validate.py --check FILE [NAME=VALUE ...] -- EXPR ...

FILE must be strict UTF-8 holding exactly one JSON object: no duplicate key, no NaN or
Infinity, no lone surrogate in any string (strict parsers such as jq, Go's encoding/json and
Rust's serde reject or mangle those). The first form then validates it against
SCHEMA_DIR/KIND.json (JSON Schema 2020-12, resolving the other files of SCHEMA_DIR). The
second asserts each Python expression EXPR with the document as d, its bytes as raw, each
NAME as the bytes of its VALUE (a file name, say), and B(o, k) giving the original bytes of
the member k of object o: bytes.fromhex(o[k + "_hex"]) when that member is there, after
checking that o[k] is those bytes decoded with U+FFFD for each byte that is not UTF-8. Exit
0 when the document passes, 1 with the reason on stderr when it does not.
"""
import json
import os
import sys


def strict_load(raw):
    def pairs(kv):
        keys = [k for k, _ in kv]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key in %r" % keys)
        return dict(kv)

    def constant(c):
        raise ValueError("non-standard number %s" % c)

    doc = json.loads(raw.decode("utf-8", "strict"), object_pairs_hook=pairs,
                     parse_constant=constant)
    stack = [doc]
    while stack:
        v = stack.pop()
        items = list(v.items()) if isinstance(v, dict) else (v if isinstance(v, list) else [v])
        for x in items:
            if isinstance(x, tuple):
                stack.extend(x)
            elif isinstance(x, (dict, list)):
                stack.append(x)
            elif isinstance(x, str):
                x.encode("utf-8", "strict")  # raises on a lone surrogate
    if not isinstance(doc, dict):
        raise ValueError("the document is not an object")
    return doc


def validator(schema_dir, kind):
    import jsonschema  # only the schema form needs it

    schemas = {}
    for name in os.listdir(schema_dir):
        if name.endswith(".json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                s = json.load(f)
            schemas[s["$id"]] = s
    main = next(s for i, s in schemas.items() if i.endswith("/" + kind + ".json"))
    cls = jsonschema.validators.validator_for(main)
    cls.check_schema(main)
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (i, Resource.from_contents(s)) for i, s in schemas.items())
        return cls(main, registry=reg)
    except ImportError:  # Debian 12's jsonschema 4.10
        resolver = jsonschema.RefResolver.from_schema(main, store=schemas)
        return cls(main, resolver=resolver)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return raw, strict_load(raw)
    except (ValueError, UnicodeError) as e:
        print("%s: not strict JSON: %s" % (path, e), file=sys.stderr)
        return raw, None


def original_bytes(o, k):
    if k + "_hex" not in o:
        return o[k].encode("utf-8")
    raw = bytes.fromhex(o[k + "_hex"])
    if o[k] != raw.decode("utf-8", "replace"):
        raise AssertionError("%s %r is not %s_hex %r shown" % (k, o[k], k, raw))
    return raw


def check(args):
    path, rest = args[0], args[1:]
    if "--" not in rest:
        print("json-validate.py --check: no -- before the expressions", file=sys.stderr)
        return 2
    sep = rest.index("--")
    raw, doc = load(path)
    if doc is None:
        return 1
    names = {"d": doc, "raw": raw, "B": original_bytes}
    for a in rest[:sep]:
        k, v = a.split("=", 1)
        names[k] = os.fsencode(v)
    for expr in rest[sep + 1:]:
        try:
            ok = eval(expr, names)
        except Exception as e:  # a missing member is a failed assertion, not a crash
            ok, expr = False, "%s (%s: %s)" % (expr, type(e).__name__, e)
        if not ok:
            print("%s: assertion failed: %s" % (path, expr), file=sys.stderr)
            return 1
    return 0


def main():
    if sys.argv[1:2] == ["--check"]:
        return check(sys.argv[2:])
    schema_dir, kind, path = sys.argv[1:4]
    raw, doc = load(path)
    if doc is None:
        return 1
    errors = sorted(validator(schema_dir, kind).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print("%s: /%s: %s" % (path, "/".join(map(str, e.absolute_path)), e.message),
              file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
