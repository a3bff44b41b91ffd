# SPDX-License-Identifier: MIT
# tests/vm/guest-lib.sh: helpers for scripts that run inside the test guest (sourced).
# The guest has the host's root read-only (9p), tmpfs on /tmp, /run and /mnt, the result share
# at $FSLAB_VM_OUT, no udev: device-mapper nodes come from `dmsetup mknodes`.
set -eu
: "${FSLAB:?run through tests/vm/run.sh}"
OUT=$FSLAB_VM_OUT

gfail() { echo "FAIL (guest): $*"; exit 1; }
glog() { read -r _up _ </proc/uptime; echo "== (guest) [$_up] $*"; }
gassert() { "$@" || gfail "assertion failed: $*"; }
gjqt() { jq -e "$2" "$1" >/dev/null || gfail "$1: expected true: $2 (got $(jq -c "$2" "$1" 2>&1 | head -c 300))"; }

# dm_create NAME TABLE: a device-mapper device without udev; prints /dev/mapper/NAME
dm_create() {
	dmsetup create "$1" --noudevsync --table "$2" >/dev/null
	dmsetup mknodes "$1"
	echo "/dev/mapper/$1"
}
