#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The oracle of the kickstart differential test: the REAL pykickstart reads every case of the
corpus (ks-gen.py) and says what it decides. Needs pykickstart importable (PYTHONPATH); run
by hand to record ks-verdicts.tsv, and by tests/integration/profile-differential.sh when
SEINSTALL_PYKICKSTART names a pykickstart source tree.

Each case is read the way ksvalidator and Anaconda's initramfs read a kickstart: the main file
through pykickstart.parser.preprocessKickstartToString() (%ksappend), then
KickstartParser(makeVersion()).readKickstart() with the working directory at the case.

Two verdicts per case:
  real      pykickstart exactly as shipped;
  expected  the same parser with seinstall's documented deliberate differences applied
            (seinstall.ks(5)): commands other than selinux, section header options and
            %packages lines are not checked; a missing or remote %include file reads as empty;
            more than 200 nested includes, and NUL bytes, are errors.
Where they differ the case is a deliberate difference and its class is named. seinstall must
give `expected` on every case.

usage: ks-oracle.py CORPUSDIR > ks-verdicts.tsv
"""
import os
import sys
import traceback

import pykickstart
import pykickstart.parser as ksparser
from pykickstart.errors import KickstartError
from pykickstart.sections import NullSection, Section
from pykickstart.version import makeVersion

MODES = {None: "none", 0: "disabled", 1: "enforcing", 2: "permissive"}
DEPTH_MAX = 200
real_load = ksparser.load_to_str


class State:
    adjusted = False
    in_include = False
    missing = False
    nul = False


def load(location):
    """pykickstart's own loader; with the adjustments, a missing or remote include is empty
    and NUL bytes are an error."""
    if State.adjusted and State.in_include:
        if "://" in location:
            State.missing = True
            return ""
        try:
            text = real_load(location)
        except KickstartError as e:
            if isinstance(e.__context__, FileNotFoundError):
                State.missing = True
                return ""
            raise
    else:
        text = real_load(location)
    if State.adjusted and "\0" in text:
        State.nul = True
        raise KickstartError("NUL byte")
    return text


ksparser.load_to_str = load


def make_parser():
    handler = makeVersion()
    parser = ksparser.KickstartParser(handler)
    if not State.adjusted:
        return parser
    real_dispatch = handler.dispatcher

    def dispatcher(args, lineno):
        return real_dispatch(args, lineno) if args[0] == "selinux" else None

    handler.dispatcher = dispatcher
    for name, sec in parser._sections.items():
        if not isinstance(sec, NullSection):
            sec.handleHeader = lambda lineno, args, sec=sec: Section.handleHeader(sec, lineno, args)
        if name == "%packages":
            sec.handleLine = lambda line: None
    real_include = parser._handleInclude

    def handle_include(f):
        if parser._includeDepth >= DEPTH_MAX:
            raise KickstartError("more than %d nested includes" % DEPTH_MAX)
        was, State.in_include = State.in_include, True
        try:
            real_include(f)
        finally:
            State.in_include = was

    parser._handleInclude = handle_include
    return parser


def read(case, adjusted):
    """'MODE' or 'error', and the exception."""
    State.adjusted, State.in_include, State.missing, State.nul = adjusted, False, False, False
    cwd = os.getcwd()
    os.chdir(case)
    try:
        parser = make_parser()
        pre = ksparser.preprocessKickstartToString("main.ks")
        with open(".preprocessed.ks", "wb") as f:
            f.write(pre)
        try:
            parser.readKickstart(".preprocessed.ks")
        finally:
            os.unlink(".preprocessed.ks")
        return MODES[parser.handler.selinux.selinux], None
    except RecursionError as e:
        return "error", e
    except Exception as e:  # pylint: disable=broad-except
        return "error", e
    finally:
        os.chdir(cwd)


def classify(exc):
    """Which deliberate difference made pykickstart refuse a case seinstall takes."""
    if exc is None:
        return "nul"
    if isinstance(exc, RecursionError):
        return "include-depth"
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        code = frame.f_code
        if code.co_name == "dispatcher" and frame.f_locals.get("cmd") != "selinux":
            return "other-command"
        if code.co_name == "handleHeader" and code.co_filename.endswith("sections.py"):
            return "section-options"
        if code.co_name == "add" and code.co_filename.endswith("parser.py"):
            return "packages-lines"
    if isinstance(exc, KickstartError) and "Unable to open input kickstart file" in str(exc):
        return "missing-include"
    return "other"


def main():
    corpus = sys.argv[1]
    sys.setrecursionlimit(20000)  # the adjusted run stops at DEPTH_MAX itself
    print("# pykickstart %s (%s); python %s" % (
        getattr(pykickstart, "__version__", "?"), os.path.dirname(pykickstart.__file__),
        sys.version.split()[0]))
    print("# case\treal\texpected\tdeliberate")
    for case in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, case)
        sys.setrecursionlimit(1000)  # as pykickstart runs for people
        real, exc = read(path, False)
        sys.setrecursionlimit(20000)
        expected, _ = read(path, True)
        cls = "-"
        if real != expected:
            cls = classify(exc) if real == "error" else "nul"
        print("%s\t%s\t%s\t%s" % (case, real, expected, cls))


if __name__ == "__main__":
    main()
