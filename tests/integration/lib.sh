# SPDX-License-Identifier: MIT
# lib.sh: helpers for integration tests (sourced).  Every test cleans up after itself on any
# exit: loop devices it attached, mounts it made, its scratch directory.
set -eu
: "${FSLAB:?run through tests/run.sh or set FSLAB=/path/to/fslab}"
: "${FSLAB_TOP:=$(cd "$(dirname "$FSLAB")" && pwd)}"

T=$(mktemp -d /var/tmp/fslab-test.XXXXXX)
_loops="" _mounts=""

cleanup() {
	local rc=$?
	set +e
	for m in $_mounts; do mountpoint -q "$m" && umount -l "$m"; done
	# the test's own preps, if any: those recorded (/var/lib/fslab/prep-state) under $T
	for r in /var/lib/fslab/prep-state/*.json; do
		[ -f "$r" ] || continue
		m=$(jq -r .mount_root "$r" 2>/dev/null)
		case "$m" in "$T"/*) "$FSLAB" teardown --mount-root "$m" >/dev/null 2>&1 ;; esac
	done
	for l in $_loops; do losetup -d "$l" 2>/dev/null; done
	# any loop device still backed by a file in our scratch directory
	losetup -n -O NAME,BACK-FILE 2>/dev/null | while read -r dev back; do
		case "$back" in "$T"/*) umount -l "$dev" 2>/dev/null; losetup -d "$dev" ;; esac
	done
	# a Wine server of the test's prefix (t_windows) outlives its last client by ~3 s and
	# writes the registry when it goes: stop it before anything removes the prefix
	[ -n "${WINEPREFIX:-}" ] && [ -x /usr/bin/wineserver ] &&
		{ /usr/bin/wineserver -k 2>/dev/null; timeout 30 /usr/bin/wineserver -w 2>/dev/null; }
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }
log() { echo "== $*"; }

# assert CMD...: run, fail with the command line when it fails
assert() { "$@" || fail "assertion failed: $*"; }
# expect_status N CMD...: CMD must exit with status N; its stderr is kept in $T/stderr
expect_status() {
	local want=$1 rc=0; shift
	"$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
	[ "$rc" -eq "$want" ] || { cat "$T/stderr" >&2; fail "expected exit $want, got $rc: $*"; }
}
# until_true SECONDS CMD...: run CMD every 20 ms until it succeeds (0) or SECONDS pass (1).
# CMD's arguments are expanded once, by the caller: `until_true 5 test -z "$(pgrep x)"` would
# test the same string 250 times.  Whatever must be read again each time goes in a function.
until_true() {
	local n=$(( $1 * 50 )); shift
	for _ in $(seq $n); do "$@" && return 0; sleep 0.02; done
	return 1
}
# jqv FILE FILTER: one value from a JSON file (jq -r); jqt FILE EXPR: assert a jq boolean is true
jqv() { jq -r "$2" "$1"; }
jqt() { jq -e "$2" "$1" >/dev/null || fail "$1: expected true: $2 (got $(jq -c "$2" "$1" 2>&1 | head -c 300))"; }

# new_loop SIZE: sparse image in $T attached with direct I/O; prints the device
new_loop() {
	local img dev
	img=$(mktemp "$T/img.XXXXXX")
	truncate -s "$1" "$img"
	dev=$(losetup --find --show --direct-io=on "$img")
	_loops="$_loops $dev"
	echo "$dev"
}
track_mount() { _mounts="$1 $_mounts"; }
