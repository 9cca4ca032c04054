# Sourced by the installer scenarios in the guest: they report facts, the host judges them.
say() { printf 'E2E-FACT %s %s\n' "$1" "$2"; }
# run NAME CMD...: run CMD with its output between "E2E-BEGIN NAME" and "E2E-END NAME" lines,
# and report its exit status as the fact NAME-rc.
run() {
        name=$1
        shift
        echo "E2E-BEGIN $name"
        "$@" 2>&1
        rc=$?
        echo "E2E-END $name"
        say "$name-rc" "$rc"
        return $rc
}
label() {
        v=$(getfattr --only-values -n security.selinux "$1" 2>/dev/null | tr -d '\0')
        echo "${v:-none}"
}
