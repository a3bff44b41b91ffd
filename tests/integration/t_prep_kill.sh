#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_kill.sh: prep killed mid-way.  kill -9 leaves loop devices, mounts and an ntfs-3g
# process behind, and `fslab teardown --mount-root` removes exactly those; SIGTERM makes prep
# roll back by itself (exit 1).  FSLAB_TEST_PREP_STALL=<step> holds prep after a known step.
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt IMG=$T/img

ours_loops() { losetup -n -O NAME,BACK-FILE | grep -c " $IMG/" || true; }
ours_mounts() { findmnt -rn -o TARGET | grep -c "^$MNT/" || true; }

assert_clean() {
	[ "$(ours_loops)" -eq 0 ] || fail "$1: loop devices left: $(losetup -a)"
	[ "$(ours_mounts)" -eq 0 ] || fail "$1: mounts left: $(findmnt -rn | grep "$MNT")"
	grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "$1: prep record left"
	[ ! -e "$IMG/db.img" ] && [ ! -e "$IMG/log.img" ] || fail "$1: images left"
	[ ! -e "$MNT" ] || fail "$1: $MNT left (prep created it)"
	pgrep -f "ntfs-3g /dev/.* $MNT/" >/dev/null && fail "$1: ntfs-3g still running"
	return 0
}

# start_stalled FS STEP: prep in the background, held after STEP; sets $pid
start_stalled() {
	FSLAB_TEST_PREP_STALL=$2 "$FSLAB" prep --fs "$1" --image-dir "$IMG" --db-size 512M \
		--log-size 512M --mount-root "$MNT" 2>"$T/prep.err" &
	pid=$!
	for _ in $(seq 300); do
		grep -q "stalled after step $2" "$T/prep.err" && return 0
		kill -0 "$pid" 2>/dev/null || { cat "$T/prep.err"; fail "prep exited before step $2"; }
		sleep 0.1
	done
	fail "prep never reached step $2"
}

log "kill -9 after the loop devices are attached"
start_stalled ext4 attach
[ "$(ours_loops)" -eq 2 ] || fail "expected 2 loop devices after attach, have $(ours_loops)"
kill -9 "$pid"
wait "$pid" && fail "killed prep exited 0"
[ "$(ours_loops)" -eq 2 ] || fail "kill -9 should leave the loop devices for teardown"
"$FSLAB" teardown --mount-root "$MNT"
assert_clean "kill -9 after attach"

log "kill -9 with the db volume mounted (ntfs-3g daemon and cgroup left behind)"
start_stalled ntfs mount-db
[ "$(ours_mounts)" -eq 1 ] || fail "expected the db mount"
cg=$(jq -r .cgroup "$(grep -l "\"mount_root\": \"$MNT\"" /var/lib/fslab/prep-state/*.json)")
[ -d "$cg" ] || fail "no cgroup $cg"
kill -9 "$pid"
wait "$pid" && fail "killed prep exited 0"
pgrep -f "ntfs-3g /dev/.* $MNT/db" >/dev/null || fail "the ntfs-3g daemon should outlive prep"
"$FSLAB" teardown --mount-root "$MNT"
assert_clean "kill -9 after mount"
[ ! -d "$cg" ] || fail "cgroup $cg left"
# Idempotent.
"$FSLAB" teardown --mount-root "$MNT"

log "teardown refuses while the prep is still running"
start_stalled ext4 mkfs-db
expect_status 2 "$FSLAB" teardown --mount-root "$MNT"
grep -q "still running" "$T/stderr" || fail "teardown did not say prep is running"

log "SIGTERM mid-way rolls back by itself"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" -eq 1 ] || fail "prep after SIGTERM exited $rc, want 1"
grep -q "rolled back" "$T/prep.err" || fail "prep did not report the rollback: $(cat "$T/prep.err")"
assert_clean "SIGTERM after mkfs"

log "SIGINT with a mounted ntfs-3g volume rolls back by itself"
start_stalled ntfs mount-db
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" -eq 1 ] || fail "prep after SIGINT exited $rc, want 1"
assert_clean "SIGINT after mount"

log "kill -9 at a random point while the loop devices exist (no stall)"
"$FSLAB" prep --fs xfs --image-dir "$IMG" --db-size 512M --log-size 512M --mount-root "$MNT" \
	2>"$T/prep.err" &
pid=$!
for _ in $(seq 500); do [ "$(ours_loops)" -gt 0 ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" || true
"$FSLAB" teardown --mount-root "$MNT"
assert_clean "kill -9 at a random point"
log "ok"
