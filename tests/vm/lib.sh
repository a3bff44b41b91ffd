# SPDX-License-Identifier: MIT
# tests/vm/lib.sh: helpers for integration tests that run inside the QEMU test guest
# (sourced after tests/integration/lib.sh).  vm_run runs a guest script through tests/vm/run.sh
# with its result share in $T/vm; the guest script sources tests/vm/guest-lib.sh for its own
# helpers.  A guest that cannot be had here (no QEMU, no kernel package) skips the test (77).

# vm_need [6.12|6.1]: skip (77) with the reason unless the guest kernel can be had
vm_need() {
	local why rc=0
	why=$("$FSLAB_TOP/tests/vm/setup.sh" "${1:-6.12}" 2>&1 >/dev/null) || rc=$?
	[ $rc -eq 0 ] || { [ $rc -eq 77 ] && skip "${why##*vm: }"; fail "tests/vm/setup.sh: $why"; }
}

# vm_run [run.sh options] SCRIPT [ARG...]: boot, run SCRIPT in the guest, its output on stdout
# (and in $T/vm/output), its status returned; the boot and run times go to stderr
vm_run() {
	mkdir -p "$T/vm"
	"$FSLAB_TOP/tests/vm/run.sh" --out "$T/vm" "$@"
}
