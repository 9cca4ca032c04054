# SPDX-License-Identifier: LGPL-2.1-or-later
"""Calamares job module: run seinstall on the planned and then the installed target.

action "check" (right after the partition module's jobs, before mount): read the layout the
partition page planned (global storage "partitions": device, fs, mountPoint), hand it to
`seinstall check --plan` and stop the install, with seinstall's reason and fix, before the
target is mounted or anything is copied to it. Without "partitions" (no partition module in
the sequence) the mounted target is checked instead. action "install" (before the umount
module): policy, relabel (its progress is the job's progress bar), config, boot loader and
first-boot mark. Boot options (seinstall.mode=, selinux=0, ...) are read by seinstall itself.
"""

import gettext
import json
import os
import re
import subprocess
import tempfile
import threading

import libcalamares


def _translation():
    conf = libcalamares.job.configuration or {}
    localedir = conf.get("localedir")
    if not localedir:
        try:
            localedir = libcalamares.utils.gettext_path()
        except Exception:  # an older or test harness libcalamares: untranslated
            localedir = None
    try:
        languages = libcalamares.utils.gettext_languages()
    except Exception:
        languages = None
    return gettext.translation("seinstall-calamares", localedir=localedir,
                               languages=languages, fallback=True)


_ = _translation().gettext

# The partition module's names (KPMcore's, through Calamares' untranslatedFS()) that the kernel
# and seinstall spell differently.
_KERNEL_FS = {"fat12": "vfat", "fat16": "vfat", "fat32": "vfat", "ntfs": "ntfs3",
              "reiser": "reiserfs", "hfsplus": "hfsplus"}
# Entries of "partitions" that are no mounted file system.
_NOT_MOUNTED = ("", "unformatted", "linuxswap", "swap", "unknown", "lvm2 pv", "luks",
                "luks2", "linuxraidmember", "extended")

# seinstall's progress line: "seinstall: install: relabel: N of ~T entries, R/s, ~Ss left", or
# "...: N entries, R/s" once N reaches the estimate T.
_PROGRESS = re.compile(r"^seinstall: [a-z :]*: (\d+)(?: of ~(\d+))? entries")


def _conf():
    return libcalamares.job.configuration or {}


def pretty_name():
    if _conf().get("action", "check") == "install":
        return _("Setting up SELinux on the installed system")
    return _("Checking that the file systems can carry SELinux labels")


def _run(cmd, timeout):
    libcalamares.utils.debug("seinstall: running " + " ".join(cmd))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        return 127, _("{} not found: install seinstall in the live system").format(cmd[0])
    except subprocess.TimeoutExpired:
        return 124, _("{} did not finish within {} s (timeout in the module's .conf)").format(
            " ".join(cmd), timeout)
    for line in p.stdout.splitlines():
        libcalamares.utils.debug("seinstall: " + line)
    return p.returncode, p.stdout.strip()


def _progress_records(stream):
    """The records of a stream whose progress line is redrawn with carriage returns."""
    record = ""
    while True:
        chunk = stream.read(1)
        if not chunk:
            break
        if chunk in "\r\n":
            if record:
                yield record
            record = ""
        else:
            record += chunk
    if record:
        yield record


def _run_with_progress(cmd, timeout):
    """Run install with --progress: seinstall redraws "N of ~T entries" on stderr; each record
    becomes the job's progress (Calamares' progress bar). stdout is the report."""
    libcalamares.utils.debug("seinstall: running " + " ".join(cmd))
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, errors="replace")
    except FileNotFoundError:
        return 127, _("{} not found: install seinstall in the live system").format(cmd[0])
    with tempfile.TemporaryFile("w+") as out:
        reader = threading.Thread(target=lambda: out.write(p.stdout.read()))
        reader.start()
        errors = []
        last = -1.0
        for rec in _progress_records(p.stderr):
            rec = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", rec).strip()
            m = _PROGRESS.search(rec)
            if not m:
                if rec:
                    errors.append(rec)
                    libcalamares.utils.debug("seinstall: " + rec)
                continue
            if not m.group(2):
                continue
            done, total = int(m.group(1)), int(m.group(2))
            fraction = min(0.99, done / total) if total else 0.0
            if fraction - last >= 0.01:
                last = fraction
                libcalamares.utils.debug("seinstall: progress {:.2f} ({})".format(fraction, rec))
                libcalamares.job.setprogress(fraction)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return 124, _("{} did not finish within {} s (timeout in the module's .conf)").format(
                " ".join(cmd), timeout)
        reader.join()
        out.seek(0)
        text = out.read()
    for line in text.splitlines():
        libcalamares.utils.debug("seinstall: " + line)
    if rc == 0:
        libcalamares.job.setprogress(1.0)
    return rc, "\n".join([text.strip()] + errors).strip()


def _profile_settings(command, profile):
    """The mode and unsupported-filesystem policy the boot options and a profile choose."""
    rc, out = _run([command, "profile", profile, "--json"], 60)
    if rc != 0:
        return None, None, out
    try:
        doc = json.loads(out)
    except ValueError:
        return None, None, _("seinstall profile printed no JSON: ") + out

    # What nobody chose is left to check, which then reads the target's own config.
    def chosen(key):
        return doc.get(key) if doc.get(key + "_source", "default") != "default" else None
    return chosen("mode"), chosen("unsupported"), None


def _fstab_field(s):
    """An fstab field: spaces and tabs escaped as libmount reads them."""
    return s.replace("\\", "\\134").replace(" ", "\\040").replace("\t", "\\011")


def plan_lines(partitions):
    """fstab lines for the partitions the partition module planned (global storage
    "partitions"): device, mount point and the file system it will carry."""
    lines = []
    for p in partitions or []:
        mountpoint = p.get("mountPoint") or ""
        fs = (p.get("fs") or "").lower()
        if not mountpoint.startswith("/") or fs in _NOT_MOUNTED:
            continue
        device = p.get("device") or "none"
        lines.append("{} {} {} defaults 0 0".format(_fstab_field(device), _fstab_field(mountpoint),
                                                   _KERNEL_FS.get(fs, fs)))
    return lines


def _refusals(doc):
    """The refused mounts' reasons and fixes first (the dialog shows the top of the details
    without scrolling)."""
    try:
        mounts = json.loads(doc).get("mounts", [])
    except ValueError:
        return ""
    lines = []
    for m in mounts:
        if m.get("verdict") == "refuse":
            lines.append("{} ({}): {}".format(m.get("mountpoint"), m.get("fstype"), m.get("reason")))
            if m.get("fix"):
                lines.append(_("Fix: ") + m["fix"])
            lines.append("")
    return "\n".join(lines)


def _check_options(command, profile):
    """check takes the mode and the unsupported policy as options: ask seinstall what the boot
    options (and the profile) decide, as install will."""
    with tempfile.NamedTemporaryFile("w", suffix=".ks") as empty:
        mode, unsupported, err = _profile_settings(command, profile or empty.name)
    opts = []
    if mode:
        opts += ["--mode", mode]
    if unsupported:
        opts += ["--unsupported", unsupported]
    return opts, err


def _refused(out):
    return (_("SELinux cannot work on the file systems chosen"),
            out + "\n\n" + _("Nothing has been installed. Quit the installer, start it again "
                             "and, on the partitioning page, choose file systems that keep "
                             "per-file labels (ext4, xfs, btrfs) for the mount points named "
                             "above."))


def _check_plan(command, opts, partitions, timeout):
    lines = plan_lines(partitions)
    if not lines:
        return (_("SELinux: no file system planned"),
                _("The partition module planned no mounted file system (global storage "
                  "\"partitions\"): choose a root partition on the partitioning page."))
    libcalamares.utils.debug("seinstall: the planned layout:\n" + "\n".join(lines))
    # An empty root: the policy is the live system's (what install will copy) and its
    # SELinux config, which a live system may have disabled, does not decide the mode.
    with tempfile.TemporaryDirectory() as root:
        plan = os.path.join(root, "plan.fstab")
        with open(plan, "w") as f:
            f.write("\n".join(lines) + "\n")
        cmd = [command, "check", "--root", root, "--plan", plan] + opts
        rc, out = _run(cmd, timeout)
        if rc == 1:
            _rc, doc = _run(cmd + ["--json"], timeout)
            return _refused(_refusals(doc) + "\n" + out)
    if rc == 0:
        return None
    return (_("SELinux setup failed (seinstall {} exited {})").format("check", rc), out)


def run():
    # What the progress bar says, in the log too: Calamares 3.3 logs the module's name only.
    libcalamares.utils.debug("seinstall: " + pretty_name())
    conf = _conf()
    action = conf.get("action", "check")
    command = conf.get("command", "seinstall")
    profile = conf.get("profile")
    timeout = int(conf.get("timeout", 3600))
    if action not in ("check", "install"):
        return (_("SELinux: bad module configuration"),
                _("action must be 'check' or 'install', not '{}'").format(action))

    if action == "check":
        opts, err = _check_options(command, profile)
        if err:
            return (_("SELinux: the settings cannot be read"), err)
        partitions = libcalamares.globalstorage.value("partitions")
        if partitions is not None:
            return _check_plan(command, opts, partitions, timeout)

    root = libcalamares.globalstorage.value("rootMountPoint")
    if not root:
        return (_("SELinux: no target mounted"),
                _("rootMountPoint is not set: put seinstall@{} after the mount module.").format(
                    action))
    if not os.path.ismount(root):
        # Calamares' mount module only warns when a mount fails (an unknown file system type,
        # say): checking the empty directory would judge the live system's own file system.
        return (_("SELinux: the target's root is not mounted"),
                _("Nothing is mounted at {} (rootMountPoint): the mount module could not mount "
                  "the root partition; see its warnings in the log.").format(root))

    if action == "check":
        cmd = [command, "check", "--root", root] + opts
        rc, out = _run(cmd, timeout)
        if rc == 1:
            _rc, doc = _run(cmd + ["--json"], timeout)
            return _refused(_refusals(doc) + "\n" + out)
    else:
        # The bootloader module already ran update-grub: run it again when GRUB changed.
        cmd = [command, "install", "--root", root, "--regenerate", "--progress"]
        if profile:
            cmd += ["--profile", profile]
        rc, out = _run_with_progress(cmd, timeout)
        if rc == 1:
            return _refused(out)
    if rc == 0:
        return None
    return (_("SELinux setup failed (seinstall {} exited {})").format(action, rc), out)
