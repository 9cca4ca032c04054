# shellcheck shell=bash
# Helpers shared by the check-*.sh integration tests. Source it after lib.sh:
#   . "$(dirname "$0")/lib/check.sh"
#
# Python starts slowly on a loaded machine, so each JSON document is parsed once: load_json
# validates it (python3 -m json.tool, then the keys and value types of the check document:
# seinstall(8), JSON OUTPUT, and docs/design.md, "The check document") and flattens it into
# $FLAT, lines of "key=value" and "MOUNTPOINT:key=value"; the getters grep that.

# load_json JSON: validate and flatten into $FLAT.
load_json() {
        printf '%s' "$1" | python3 -m json.tool >/dev/null || fail "not valid JSON: $1"
        FLAT=$(python3 - "$1" <<'EOF') || fail "JSON does not have the check document's shape: $1"
import json, sys
d = json.loads(sys.argv[1])
modes = {"enforcing", "permissive", "disabled"}
order = ["ok", "note", "warn", "refuse"]
assert d["mode"] in modes, d["mode"]
assert d["mode_source"] in {"option", "boot", "profile", "target", "default"}, d["mode_source"]
assert isinstance(d["policy"], str) and d["policy"]
assert d["policy_source"] in {"target", "host", "builtin"}, d["policy_source"]
assert d["verdict"] in order
assert isinstance(d["mounts"], list) and d["mounts"]
worst = "ok"
for m in d["mounts"]:
    for k in ("mountpoint", "fstype", "labeling", "verdict", "reason", "fix"):
        assert isinstance(m[k], str), (k, m)
    assert m["source"] is None or isinstance(m["source"], str)
    assert m["label"] is None or isinstance(m["label"], str)
    assert m["labeling"] in {"xattr", "trans", "genfs", "mount-context", "none"}, m
    assert m["verdict"] in order
    assert (m["label"] is None) == (m["labeling"] in ("xattr", "trans")), m
    assert m["reason"] and m["mountpoint"] in m["reason"], m
    assert (m["fix"] == "") == (m["verdict"] == "ok"), m
    worst = max(worst, m["verdict"], key=order.index)
assert d["verdict"] == worst, (d["verdict"], worst)

def show(v):
    return "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
for k, v in d.items():
    if k != "mounts":
        print(f"{k}={show(v)}")
print(f"n_mounts={len(d['mounts'])}")
for i, m in enumerate(d["mounts"]):
    print(f"mount{i}={m['mountpoint']}")
    for k, v in m.items():
        print(f"{m['mountpoint']}:{k}={show(v)}")
EOF
        echo "ok: JSON has the check document's shape"
}

# json_get KEY: a top-level value of the last loaded document ("mounts" as n_mounts, mountN).
json_get() {
        printf '%s\n' "$FLAT" | awk -v k="$1=" 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }'
}

# mount_field MOUNTPOINT KEY: one key of the mount at MOUNTPOINT.
mount_field() {
        json_get "$1:$2"
}

# assert_mount MOUNTPOINT LABELING VERDICT [LABEL]
assert_mount() {
        local mp=$1
        printf '%s\n' "$FLAT" | grep -qxF "$mp:mountpoint=$mp" || fail "no mount $mp in: $FLAT"
        assert_eq "$mp labeling" "$2" "$(mount_field "$mp" labeling)"
        assert_eq "$mp verdict" "$3" "$(mount_field "$mp" verdict)"
        if [ $# -ge 4 ]; then
                assert_eq "$mp label" "$4" "$(mount_field "$mp" label)"
        fi
}
