# SPDX-License-Identifier: LGPL-2.1-or-later
"""Calamares job module: run seinstall on the mounted target.

action "check" (after the mount module): ask seinstall whether the target's file systems can
carry SELinux labels; a refusal stops the install and Calamares shows seinstall's reason and
fix. action "install" (before the umount module): policy, relabel, config, boot loader and
first-boot mark. Boot options (seinstall.mode=, selinux=0, ...) are read by seinstall itself.
"""

import json
import os
import subprocess
import tempfile

import libcalamares


def _conf():
    return libcalamares.job.configuration or {}


def pretty_name():
    if _conf().get("action", "check") == "install":
        return "Setting up SELinux on the installed system"
    return "Checking that the file systems can carry SELinux labels"


def _run(cmd, timeout):
    libcalamares.utils.debug("seinstall: running " + " ".join(cmd))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        return 127, "{} not found: install seinstall in the live system".format(cmd[0])
    except subprocess.TimeoutExpired:
        return 124, "{} did not finish within {} s (timeout in the module's .conf)".format(
            " ".join(cmd), timeout)
    for line in p.stdout.splitlines():
        libcalamares.utils.debug("seinstall: " + line)
    return p.returncode, p.stdout.strip()


def _profile_settings(command, profile):
    """The mode and unsupported-filesystem policy the boot options and a profile choose."""
    rc, out = _run([command, "profile", profile, "--json"], 60)
    if rc != 0:
        return None, None, out
    try:
        doc = json.loads(out)
    except ValueError:
        return None, None, "seinstall profile printed no JSON: " + out
    # What nobody chose is left to check, which then reads the target's own config.
    def chosen(key):
        return doc.get(key) if doc.get(key + "_source", "default") != "default" else None
    return chosen("mode"), chosen("unsupported"), None


def _refusals(cmd, out):
    """The refused mounts' reasons and fixes first (the dialog shows the top of the details
    without scrolling), then seinstall's whole report."""
    rc, doc = _run(cmd + ["--json"], 600)
    try:
        mounts = json.loads(doc).get("mounts", [])
    except ValueError:
        return out
    lines = []
    for m in mounts:
        if m.get("verdict") == "refuse":
            lines.append("{} ({}): {}".format(m.get("mountpoint"), m.get("fstype"), m.get("reason")))
            if m.get("fix"):
                lines.append("Fix: " + m["fix"])
            lines.append("")
    return "\n".join(lines) + "\n" + out if lines else out


def run():
    conf = _conf()
    action = conf.get("action", "check")
    command = conf.get("command", "seinstall")
    profile = conf.get("profile")
    timeout = int(conf.get("timeout", 3600))
    root = libcalamares.globalstorage.value("rootMountPoint")
    if action not in ("check", "install"):
        return ("SELinux: bad module configuration",
                "action must be 'check' or 'install', not '{}'".format(action))
    if not root:
        return ("SELinux: no target mounted",
                "rootMountPoint is not set: put seinstall@{} after the mount module.".format(action))
    if not os.path.ismount(root):
        # Calamares' mount module only warns when a mount fails (an unknown file system type,
        # say): checking the empty directory would judge the live system's own file system.
        return ("SELinux: the target's root is not mounted",
                "Nothing is mounted at {} (rootMountPoint): the mount module could not mount "
                "the root partition; see its warnings in the log.".format(root))

    cmd = [command, action, "--root", root]
    if action == "install":
        # The bootloader module already ran update-grub: run it again when GRUB changed.
        cmd.append("--regenerate")
        if profile:
            cmd += ["--profile", profile]
    else:
        # check takes the mode and the unsupported policy as options: ask seinstall what the
        # boot options (and the profile) decide, as install will.
        with tempfile.NamedTemporaryFile("w", suffix=".ks") as empty:
            mode, unsupported, err = _profile_settings(command, profile or empty.name)
        if err:
            return ("SELinux: the settings cannot be read", err)
        if mode:
            cmd += ["--mode", mode]
        if unsupported:
            cmd += ["--unsupported", unsupported]

    rc, out = _run(cmd, timeout)
    if rc == 0:
        return None
    if rc == 1:
        if action == "check":
            out = _refusals(cmd, out)
        return ("SELinux cannot work on the file systems chosen",
                out + "\n\nGo back, choose file systems that keep per-file labels (ext4, xfs, "
                "btrfs) for the mount points named above, and start the install again.")
    return ("SELinux setup failed (seinstall {} exited {})".format(action, rc), out)
