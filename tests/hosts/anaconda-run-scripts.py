#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a kickstart's %pre or %post scripts the way Anaconda runs them.

Anaconda is not packaged for Debian, so this follows what its current release does (read in
anaconda 45.21: pyanaconda/core/kickstart/scripts.py run_script(), pyanaconda/core/util.py
startProgram(), pyanaconda/kickstart.py AnacondaKSScript.run(), data/anaconda.conf):

- the kickstart is parsed by pykickstart (its KickstartParser with the newest handler) when
  pykickstart can be imported, else by a reader of the script sections only (said on stdout);
  for %pre as anaconda.py's preScriptPass() does (AnacondaPreParser: missingIncludeIsFatal=
  False, so an %include of a file a %pre writes is skipped), and again before each later phase
  as parseKickstart() does once every %pre has run (a missing %include file is an error);
- %pre scripts run in the order they are read (runPreScripts()), with "/" as their root;
  %pre-install scripts after the storage tasks, with "/" as their root (RunScriptsTask: only
  %post gets the system root), %post scripts in a chroot of the system root unless --nochroot;
- each script's text goes to a new file ROOT/tmp/ks-script-XXXXXX (mode 0700) and runs as
  `INTERPRETER /tmp/ks-script-XXXXXX` (default /bin/sh), chrooted into ROOT when ROOT is not
  "/", working directory ROOT then "/", standard input inherited;
- the environment is Anaconda's own plus ANA_INSTALL_PATH=<system root> and LC_ALL=C;
- stdout and stderr together go to the --log file (inside the chroot for a chrooted script),
  else to /tmp/ks-script-XXXXXX.log outside it, written when the script has finished;
- a script that fails with --erroronfail stops the install: %pre shows the log in an error
  dialog and Anaconda exits, %pre-install and %post raise a ScriptError "LINENO\\n\\nLOG";
  without --erroronfail the failure is only logged and the next script runs.

Usage: anaconda-run-scripts.py PHASE[,PHASE...] KICKSTART [SYSTEM_ROOT]   (default /mnt/sysroot)
       PHASE: pre, pre-install or post, run in that order as Anaconda runs them
Prints what Anaconda would log and show; exits 1 where Anaconda would stop, else 0.
"""

import os
import shlex
import signal
import subprocess
import sys
import tempfile

PRE, POST, PREINSTALL = 0, 1, 3
PHASES = {"pre": PRE, "pre-install": PREINSTALL, "post": POST}


class Script:
    def __init__(self, type_, text, interp, in_chroot, error_on_fail, logfile, lineno):
        self.type = type_
        self.script = text
        self.interp = interp
        self.inChroot = in_chroot
        self.errorOnFail = error_on_fail
        self.logfile = logfile
        self.lineno = lineno


def parse_with_pykickstart(path, pre_pass):
    from pykickstart.parser import KickstartParser
    from pykickstart.version import makeVersion

    handler = makeVersion()
    parser = KickstartParser(handler, missingIncludeIsFatal=not pre_pass)
    parser.readKickstart(path)
    return [Script(s.type, s.script, s.interp, s.inChroot, s.errorOnFail, s.logfile, s.lineno)
            for s in handler.scripts], "pykickstart " + getattr(
                sys.modules.get("pykickstart"), "__version__", "?")


def parse_sections(path):
    """Only the %pre/%post sections, with the options pykickstart gives them."""
    scripts = []
    cur = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        words = shlex.split(line, comments=False) if line.lstrip().startswith("%") else []
        if cur is not None:
            if words and words[0] == "%end":
                scripts.append(cur)
                cur = None
            else:
                cur.script += line + "\n"
            continue
        if not words or words[0] not in ("%pre", "%pre-install", "%post"):
            continue
        type_ = {"%pre": PRE, "%pre-install": PREINSTALL, "%post": POST}[words[0]]
        cur = Script(type_, "", "/bin/sh", type_ == POST, False, None, n)
        i = 1
        while i < len(words):
            w = words[i]
            key, eq, val = w.partition("=")
            if key in ("--interpreter", "--log", "--logfile") and not eq:
                i += 1
                val = words[i]
            if key == "--interpreter":
                cur.interp = val
            elif key in ("--log", "--logfile"):
                cur.logfile = val
            elif key == "--erroronfail":
                cur.errorOnFail = True
            elif key == "--nochroot" and type_ == POST:
                cur.inChroot = False
            else:
                sys.exit("%s:%d: %s does not take %s" % (path, n, words[0], w))
            i += 1
    if cur is not None:
        sys.exit("%s: section at line %d has no %%end" % (path, cur.lineno))
    return scripts, ("the harness's own reader of %pre/%pre-install/%post sections (pykickstart "
                     "not importable)")


def run_script(script, chroot, system_root):
    root = chroot if script.inChroot else "/"
    fd, path = tempfile.mkstemp("", "ks-script-", root + "/tmp")
    os.write(fd, script.script.encode("utf-8"))
    os.close(fd)
    os.chmod(path, 0o700)
    if script.logfile:
        messages = "%s/%s" % (root, script.logfile) if script.inChroot else script.logfile
        os.makedirs(os.path.dirname(messages), exist_ok=True)
    else:
        messages = "/tmp/%s.log" % os.path.basename(path)

    env = dict(os.environ)
    env["ANA_INSTALL_PATH"] = system_root
    env["LC_ALL"] = "C"

    def preexec():
        if root != "/":
            os.chroot(root)
            os.chdir("/")
        for signum in range(1, signal.NSIG):
            try:
                if signal.getsignal(signum) == signal.SIG_IGN:
                    signal.signal(signum, signal.SIG_DFL)
            except (OSError, ValueError):
                pass

    argv = [script.interp, "/tmp/" + os.path.basename(path)]
    print("Running%s... %s" % (" in chroot '%s'" % root if root != "/" else "", " ".join(argv)))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            close_fds=True, restore_signals=True, cwd=root, env=env,
                            preexec_fn=preexec)
    out, _ = proc.communicate()
    out = out.decode("utf-8")
    if out and not out.endswith("\n"):
        out += "\n"
    fd = os.open(messages, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fp:
        fp.write(out)
    for line in out.splitlines():
        print("  | " + line)
    print("Return code of %s: %d (log: %s)" % (script.interp, proc.returncode, messages))
    return proc.returncode, messages


def run_phase(kind, ks, system_root):
    """Parse as Anaconda does before the phase, then run its scripts; 1 where Anaconda stops."""
    type_ = PHASES[kind]
    try:
        scripts, parser = parse_with_pykickstart(ks, type_ == PRE)
    except ImportError:
        scripts, parser = parse_sections(ks)
    print("kickstart %s parsed by %s (%s)" % (ks, parser, kind))
    chroot = "/" if type_ != POST else system_root
    for s in scripts:
        if s.type != type_:
            continue
        rc, log = run_script(s, chroot, system_root)
        if rc == 0:
            continue
        print("Error code %d running the kickstart script at line %d" % (rc, s.lineno))
        if not s.errorOnFail:
            continue
        with open(log) as fp:
            err = fp.read()
        if type_ == PRE:
            print("ANACONDA STOPS (error dialog, then exit): %%pre script at line %d failed:\n%s"
                  % (s.lineno, err))
        else:
            print("ANACONDA STOPS (ScriptError): %d\n\n%s" % (s.lineno, err.strip()))
        return 1
    return 0


def main():
    kinds = sys.argv[1].split(",") if len(sys.argv) in (3, 4) else []
    if not kinds or any(k not in PHASES for k in kinds):
        sys.exit("\n".join(__doc__.strip().splitlines()[-3:-1]))
    ks = sys.argv[2]
    system_root = sys.argv[3] if len(sys.argv) == 4 else "/mnt/sysroot"
    for kind in sorted(kinds, key=("pre", "pre-install", "post").index):
        if run_phase(kind, ks, system_root):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
