#!/usr/bin/python3
"""serial.py — run QEMU with its serial console on a pipe, log it, and follow a script.

Usage: serial.py --log FILE --script FILE [--timeout SECONDS] -- QEMU-COMMAND...

QEMU must be started with `-serial stdio` (and `-display none -monitor none`), so the guest's
console is this program's pipe: everything the guest prints is appended to the log as it
arrives, and `send` steps type into the console.

Script lines (blank lines and lines starting with # are ignored):
  expect SECONDS NAME REGEX   wait until REGEX (Python syntax) matches the output that came
                              after the previous match; NAME labels it in the timing report
  send TEXT                   type TEXT; Python escapes (\\r, \\x1b, \\t) are decoded
  key NAME...                 type named keys: up down left right space tab enter esc f1 f12
  key-if REGEX NAME...        type the keys only when the last expect's match holds REGEX (a
                              screen that may or may not come first: expect either, then this)
  sleep SECONDS               wait, still logging
  exit SECONDS                wait for QEMU to exit by itself (the guest powers off)

Prints one line per expect/exit step on stdout: `step NAME SECONDS` (time since QEMU started).
Exit status: 0 every step done and QEMU exited; 1 a step timed out (QEMU is killed, the log
ends with what was awaited); 2 QEMU exited before the script finished; 3 bad script.
No pexpect: a plain select() loop over the pipe.
"""

import argparse
import codecs
import ctypes
import functools
import os
import re
import select
import signal
import subprocess
import sys
import time

KEYS = {
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "space": " ", "tab": "\t", "enter": "\r", "esc": "\x1b",
    "f1": "\x1bOP", "f12": "\x1b[24~",
}


def parse_script(path):
    steps = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            try:
                if word == "expect":
                    secs, name, regex = rest.split(" ", 2)
                    steps.append(("expect", float(secs), name, re.compile(regex.encode())))
                elif word == "send":
                    steps.append(("send", codecs.decode(rest, "unicode_escape")))
                elif word == "key":
                    steps.append(("send", "".join(KEYS[k] for k in rest.split())))
                elif word == "key-if":
                    regex, *keys = rest.split()
                    if not keys:
                        raise ValueError("key-if needs a regex and keys")
                    steps.append(("send-if", re.compile(regex.encode()),
                                  "".join(KEYS[k] for k in keys)))
                elif word == "sleep":
                    steps.append(("sleep", float(rest)))
                elif word == "exit":
                    steps.append(("exit", float(rest)))
                else:
                    raise ValueError("unknown step '%s'" % word)
            except (ValueError, KeyError, re.error) as e:
                sys.exit("serial.py: %s:%d: %s" % (path, n, e))
    return steps


PR_SET_PDEATHSIG = 1


def _own_group_dying_with(parent):
    """In the child before exec: a process group of its own, SIGKILL when @parent dies."""
    os.setpgid(0, 0)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        os._exit(126)
    if os.getppid() != parent:  # it died before prctl
        os._exit(126)


def _stop(signum, frame):
    """TERM, INT, HUP (a time limit, the test runner's reaper): end QEMU, then exit."""
    raise SystemExit(128 + signum)


class Console:
    def __init__(self, cmd, log):
        self.log = log
        self.buf = b""
        self.pos = 0  # output before this offset has been consumed by a match
        self.last = b""  # what the last expect matched
        self.start = time.monotonic()
        # QEMU gets a process group of its own (kill() ends it with its children) but stays
        # in the caller's session, where tests/run-tests.sh's reaper finds it, and dies with
        # this process, however that ends (a SIGKILL included).
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     preexec_fn=functools.partial(_own_group_dying_with, os.getpid()))
        os.set_blocking(self.proc.stdout.fileno(), False)

    def elapsed(self):
        return time.monotonic() - self.start

    def pump(self, timeout):
        """Read what is there within timeout. Returns False once QEMU's output ended."""
        fd = self.proc.stdout.fileno()
        r, _, _ = select.select([fd], [], [], max(timeout, 0))
        if not r:
            return True
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not data:
            return False
        self.buf += data
        self.log.write(data)
        self.log.flush()
        return True

    def expect(self, regex, secs):
        deadline = time.monotonic() + secs
        while True:
            m = regex.search(self.buf, self.pos)
            if m:
                self.pos = m.end()
                self.last = m.group(0)
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not self.pump(min(left, 0.5)):
                m = regex.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    self.last = m.group(0)
                    return True
                raise EOFError

    def send(self, text):
        # Type like a person on a serial line: a console in cooked mode or a newt form both
        # cope with bursts, but slang needs an escape sequence to arrive in one piece.
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_exit(self, secs):
        deadline = time.monotonic() + secs
        while time.monotonic() < deadline:
            if not self.pump(0.5):
                break
        try:
            self.proc.wait(max(deadline - time.monotonic(), 0.1))
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        sys.exit("serial.py: no QEMU command after --")
    steps = parse_script(args.script)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _stop)
    with open(args.log, "ab") as log:
        con = Console(cmd, log)
        try:
            for step in steps:
                kind = step[0]
                if kind == "expect":
                    _, secs, name, regex = step
                    if not con.expect(regex, secs):
                        log.write(b"\n[serial.py: timed out after %ds waiting for %s: %s]\n"
                                  % (secs, name.encode(), regex.pattern))
                        print("timeout %s %.1f" % (name, con.elapsed()))
                        return 1
                    print("step %s %.1f" % (name, con.elapsed()), flush=True)
                elif kind == "send":
                    con.send(step[1])
                elif kind == "send-if":
                    if step[1].search(con.last):
                        con.send(step[2])
                elif kind == "sleep":
                    end = time.monotonic() + step[1]
                    while time.monotonic() < end and con.pump(end - time.monotonic()):
                        pass
                elif kind == "exit":
                    if not con.wait_exit(step[1]):
                        log.write(b"\n[serial.py: QEMU still running after %ds]\n" % step[1])
                        print("timeout exit %.1f" % con.elapsed())
                        return 1
                    print("step exit %.1f" % con.elapsed(), flush=True)
                    return 0
            return 0
        except EOFError:
            log.write(b"\n[serial.py: QEMU exited before the script finished]\n")
            print("eof %.1f" % con.elapsed())
            return 2
        except BrokenPipeError:
            print("eof %.1f" % con.elapsed())
            return 2
        finally:
            con.kill()


if __name__ == "__main__":
    sys.exit(main())
