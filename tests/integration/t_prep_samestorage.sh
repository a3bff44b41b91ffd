#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_samestorage.sh: two device nodes for one storage (issue 16 item 9).  A log device
# that is the database device's storage under another device number is refused (exit 2, one
# line naming both devices and what they share, nothing written): a second loop device on the
# same backing file (also at an offset), a loop device stacked on the other device, a chain of
# them, and a partition of the other's disk (where this kernel makes partition devices).
# Separate devices still pass.  (device-mapper/md slaves are followed the same way through
# /sys/class/block/X/slaves; this kernel has neither, tests/vm has.)
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt
sum() { dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
# attach ARGS...: losetup --find --show ARGS, recorded in $STACK: lib.sh's cleanup finds loop
# devices by a backing file in $T, not one stacked on another loop device; these are detached
# first, newest first (a loop device is only freed once nothing stacked on it is left)
STACK=$T/stacked
attach() {
	local d
	d=$(losetup --find --show "$@")
	echo "$d" >>"$STACK"
	echo "$d"
}
trap 'rc=$?; set +e; [ -f "$STACK" ] && tac "$STACK" | while read -r d; do losetup -d "$d"; done; (exit $rc); cleanup' EXIT
L1=$(new_loop 64M)
B1=$(losetup -n -O BACK-FILE "$L1" | sed 's/ *$//')
L2=$(new_loop 64M)
s1=$(sum "$L1") s2=$(sum "$L2")

# refused DB LOG WANT [--dry-run]: prep exits 2 with one line matching WANT; nothing written
refused() {
	local db=$1 lg=$2 want=$3; shift 3
	expect_status 2 "$FSLAB" prep --fs ext4 --db-dev "$db" --log-dev "$lg" --mount-root "$MNT" \
		--force "$@"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$db/$lg: more than one line"; }
	grep -Eq -e "$want" "$T/stderr" || fail "$db/$lg: stderr lacks /$want/: $(cat "$T/stderr")"
	[ "$(sum "$L1")" = "$s1" ] && [ "$(sum "$L2")" = "$s2" ] || fail "$db/$lg: a device was written"
	[ ! -e "$MNT" ] || fail "$db/$lg: $MNT was created"
	echo "refused: $(cat "$T/stderr")"
}

log "a second loop device on the database device's backing file"
S=$(attach "$B1")
refused "$L1" "$S" "--db-dev $L1 and --log-dev $S are the same storage \\(both backed by $B1\\)"
refused "$S" "$L1" "same storage" --dry-run
log "the same file at an offset"
O=$(attach -o 1M "$B1")
refused "$L1" "$O" "same storage \\(both backed by $B1\\)"
log "a loop device stacked on the database device, and a chain of them"
K=$(attach "$L1")
refused "$L1" "$K" "--db-dev $L1 and --log-dev $K are the same storage \\($K is backed by $L1\\)"
refused "$K" "$L1" "same storage" --dry-run
KK=$(attach "$K")
refused "$KK" "$L1" "same storage"
refused "$O" "$KK" "same storage"

log "a partition of the other device's disk"
truncate -s 64M "$T/part.img"
# two Linux partitions by hand (sfdisk lives in the fdisk package): 2048+40960, 43008+40960
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\xa0\x00\x00' |
	dd of="$T/part.img" bs=1 seek=446 conv=notrunc status=none
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\xa8\x00\x00\x00\xa0\x00\x00' |
	dd of="$T/part.img" bs=1 seek=462 conv=notrunc status=none
printf '\x55\xaa' | dd of="$T/part.img" bs=1 seek=510 conv=notrunc status=none
LP=$(attach --partscan "$T/part.img")
for _ in $(seq 20); do [ -b "${LP}p2" ] && break; sleep 0.1; done
if [ -b "${LP}p2" ]; then
	refused "${LP}p1" "${LP}p2" "on one disk \\($LP\\)"
	refused "${LP}p2" "$LP" "same storage|overlap|partition"
else
	log "no ${LP}p1: the partition cases cannot run on this kernel"
fi

log "separate devices still pass"
expect_status 0 "$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" --dry-run
"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" >/dev/null 2>&1 ||
	fail "prep on two separate loop devices failed"
"$FSLAB" teardown --mount-root "$MNT" >/dev/null 2>&1
log "ok"
