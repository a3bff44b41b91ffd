#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_teardown_busy.sh: a loop device kept busy after fslab unmounted its volume.  A copy of
# the mount in another mount namespace (an `unshare -m` made while the volume was mounted: what
# other tests and services do on a shared machine) keeps the filesystem, and so its loop
# device, alive where lsof does not look.  Teardown names the holder, leaves the device to the
# kernel's autoclear, removes image and record, and exits 0 (the lab's next cell must not be
# refused); the device is gone once the holder exits.  A process that merely has the device
# open (no autoclear possible from it) is named too.
. "$(dirname "$0")/lib.sh"

command -v unshare >/dev/null || skip "unshare (util-linux) missing"
MNT=$T/mnt IMG=$T/img
ours_loops() { losetup -n -O BACK-FILE | grep -c "^$IMG/" || true; }

log "prep ext4, then a mount namespace made while it is mounted"
"$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 256M --log-size 256M --mount-root "$MNT" \
	>"$T/prep.out" 2>&1 || { cat "$T/prep.out"; fail "prep failed"; }
unshare -m --propagation private sleep 120 &
holder=$!
cleanup_holder() { kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; }
trap 'rc=$?; cleanup_holder; (exit $rc); cleanup' EXIT
for _ in $(seq 50); do
	grep -q " $MNT/db " /proc/$holder/mountinfo 2>/dev/null && break
	sleep 0.1
done
grep -q " $MNT/db " /proc/$holder/mountinfo || fail "the namespace has no copy of $MNT/db"

log "teardown: the holder named, exit 0, image and record gone"
set +e
"$FSLAB" teardown --mount-root "$MNT" >"$T/td.out" 2>&1
rc=$?
set -e
cat "$T/td.out"
[ "$rc" -eq 0 ] || fail "teardown exited $rc, want 0 (the kernel detaches the device later)"
grep -q "stays attached while pid $holder (sleep)" "$T/td.out" ||
	fail "teardown did not name the holder (pid $holder, sleep)"
[ ! -e "$IMG/db.img" ] || fail "db.img left"
grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "a record is left"
findmnt -rn -o TARGET | grep -q "^$MNT/" && fail "mounts left here"

log "the holder exits: the device is detached by the kernel"
cleanup_holder
for _ in $(seq 100); do
	[ "$(ours_loops)" -eq 0 ] && break
	sleep 0.1
done
[ "$(ours_loops)" -eq 0 ] || fail "loop devices left after the holder exited: $(losetup -a | grep "$IMG/")"
log "ok"
