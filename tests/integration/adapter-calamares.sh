#!/bin/bash
# Calamares adapter: the module descriptor and configurations are what Calamares reads, the
# settings example puts check right after mount and install right before umount, and the job
# module, run as Calamares runs it (a fake libcalamares with rootMountPoint in global storage
# and the instance's .conf as job.configuration), passes a good loop-mounted ext4 target,
# stops with the reason on a /home that cannot carry labels, and installs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../install-lib.sh"

a=$TOP/installer-plugin/adapters/calamares
py=/usr/bin/python3
[ -x "$py" ] || skip "no /usr/bin/python3 (Calamares runs python job modules with it)"
"$py" -c 'import yaml' 2>/dev/null || skip "python3-yaml is missing (needed to read the .conf files as Calamares does)"

# Static checks: python syntax and names, YAML shapes, the sequence order.
"$py" -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$a/seinstall/main.py" ||
        fail "main.py does not compile"
if command -v pyflakes3 >/dev/null; then
        pyflakes3 "$a/seinstall/main.py" || fail "pyflakes3 found problems in main.py"
fi
"$py" - "$a" <<'EOF' || fail "the Calamares files are not what Calamares expects"
import os, sys, yaml
a = sys.argv[1]
desc = yaml.safe_load(open(os.path.join(a, "seinstall/module.desc")))
assert desc == {"type": "job", "name": "seinstall", "interface": "python", "script": "main.py"}, desc
assert os.path.exists(os.path.join(a, "seinstall", desc["script"]))
for conf, action in (("seinstall/seinstall.conf", "check"), ("seinstall-check.conf", "check"),
                     ("seinstall-install.conf", "install")):
    c = yaml.safe_load(open(os.path.join(a, conf)))
    assert c["action"] == action, (conf, c)
s = yaml.safe_load(open(os.path.join(a, "settings.conf.example")))
inst = {i["id"]: i for i in s["instances"]}
for i in inst.values():
    assert i["module"] == "seinstall" and os.path.exists(os.path.join(a, i["config"])), i
exec_ = [m for step in s["sequence"] for k, v in step.items() if k == "exec" for m in v]
assert exec_.index("seinstall@check") == exec_.index("mount") + 1, exec_
assert exec_.index("seinstall@install") == exec_.index("umount") - 1, exec_
assert exec_.index("seinstall@check") < exec_.index("unpackfs"), exec_
print("ok: module.desc, the .conf files and the sequence are as Calamares needs them")
EOF

# A fake libcalamares: global storage and the job's configuration, as Calamares provides them.
d=$(scratch_dir)
mkdir -p "$d/py/libcalamares"
cat >"$d/py/libcalamares/__init__.py" <<'EOF'
import os, sys, yaml

class _GS:
    def value(self, key):
        return {"rootMountPoint": os.environ.get("FAKE_ROOT_MOUNT_POINT")}.get(key)

class _Job:
    configuration = yaml.safe_load(open(os.environ["FAKE_JOB_CONF"]))
    def setprogress(self, p):
        pass

class _Utils:
    def debug(self, s):
        print("DEBUG " + s)
    def warning(self, s):
        print("WARNING " + s)

globalstorage = _GS()
job = _Job()
utils = _Utils()
EOF
cat >"$d/run-job.py" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
import main
print("NAME " + main.pretty_name())
r = main.run()
print("RESULT " + json.dumps(r))
sys.exit(0 if r is None else 1)
EOF
run_job() { # CONF ROOT
        FAKE_JOB_CONF=$1 FAKE_ROOT_MOUNT_POINT=$2 PYTHONPATH=$d/py PYTHONDONTWRITEBYTECODE=1 \
                "$py" "$d/run-job.py" "$a/seinstall"
}

# No target mounted: the job says where it belongs instead of running seinstall on "/".
export PATH=$TOP/installer-plugin/cli:$PATH
expect_exit 1 run_job "$a/seinstall-check.conf" ""
assert_contains "job without rootMountPoint" "$OUT" "after the mount module"

require_command check
require_loop
make_fs_image "$d/root.img" ext4 64
mount_image "$d/root.img" "$d/root"
make_target "$d/root"

expect_exit 0 run_job "$a/seinstall-check.conf" "$d/root"
assert_contains "check job" "$OUT" "RESULT null"

# /home on tmpfs cannot keep per-file labels: the install stops and the reason is shown.
mount -t tmpfs tmpfs "$d/root/home" || fail "mount tmpfs on $d/root/home"
on_exit "umount -l '$d/root/home'"
expect_exit 1 run_job "$a/seinstall-check.conf" "$d/root"
result=$(grep '^RESULT' <<<"$OUT")
assert_contains "check job's error title" "$result" "SELinux cannot work on the file systems chosen"
assert_contains "check job's error details" "$result" "/home"

# The live system was booted with seinstall.unsupported=warn: the same layout goes on, with a
# warning (a private mount namespace shows the job a fake /proc/cmdline).
echo "BOOT_IMAGE=/vmlinuz quiet seinstall.unsupported=warn" >"$d/cmdline"
# shellcheck disable=SC2016 # $1 and $@ are the inner shell's
expect_exit 0 unshare -m --propagation private bash -c 'mount --bind "$1" /proc/cmdline && shift && exec "$@"' \
        _ "$d/cmdline" env FAKE_JOB_CONF="$a/seinstall-check.conf" FAKE_ROOT_MOUNT_POINT="$d/root" \
        PYTHONPATH="$d/py" PYTHONDONTWRITEBYTECODE=1 "$py" "$d/run-job.py" "$a/seinstall"
assert_contains "check job under seinstall.unsupported=warn" "$OUT" "--unsupported warn"
assert_contains "check job under seinstall.unsupported=warn" "$OUT" "RESULT null"
umount "$d/root/home" || fail "umount $d/root/home"

require_command install
expect_exit 0 run_job "$a/seinstall-install.conf" "$d/root"
assert_contains "install job" "$OUT" "RESULT null"
config=$(cat "$d/root/etc/selinux/config" 2>/dev/null) || fail "no etc/selinux/config in the target"
assert_contains "target config" "$config" "SELINUX=enforcing"
assert_contains "target /etc/hostname label" "$(label_of "$d/root/etc/hostname")" ":net_conf_t:"
