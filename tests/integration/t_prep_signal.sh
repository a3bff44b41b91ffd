#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_signal.sh: SIGPIPE and SIGHUP (issue 16 item 7, prep and teardown).  `fslab prep ...
# 2>&1 | head -1` loses its reader after one line: prep rolls back like on SIGTERM (exit 1)
# and leaves no loop device, image, mount or record, also when the reader goes while prep
# waits between steps; SIGHUP (a closed terminal) does the same; with stderr closed outright
# (2>&-) prep and teardown do their whole job; teardown piped into head -1 finishes its job.
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt IMG=$T/img
ours_loops() { losetup -n -O BACK-FILE | grep -c "^$IMG/" || true; }
assert_clean() {
	[ "$(ours_loops)" -eq 0 ] || fail "$1: loop devices left: $(losetup -a | grep "$IMG/")"
	findmnt -rn -o TARGET | grep -q "^$MNT/" && fail "$1: mounts left"
	[ ! -e "$IMG/db.img" ] && [ ! -e "$IMG/log.img" ] || fail "$1: images left"
	grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json /var/lib/fslab/preps/*.json &&
		fail "$1: a record is left"
	[ ! -e "$MNT" ] || fail "$1: $MNT left"
	return 0
}
# prep FS: in the foreground; in the background "$FSLAB" is run directly so that $! is its pid
ARGS=(--image-dir "$IMG" --db-size 512M --log-size 512M --mount-root "$MNT")
prep() { "$FSLAB" prep --fs "$1" "${ARGS[@]}"; }

for fs in ext4 xfs; do
	log "$fs: prep 2>&1 | head -1"
	set +e
	prep $fs 2>&1 | head -1 >"$T/first"
	rcs=("${PIPESTATUS[@]}")
	set -e
	echo "first line: $(cat "$T/first"); prep exited ${rcs[0]}"
	[ "${rcs[0]}" -eq 1 ] || fail "$fs: prep piped into head -1 exited ${rcs[0]}, want 1 (rolled back)"
	assert_clean "$fs | head -1"
done

log "SIGHUP after mount"
FSLAB_TEST_PREP_STALL=mount-db "$FSLAB" prep --fs ext4 "${ARGS[@]}" 2>"$T/prep.err" &
pid=$!
for _ in $(seq 300); do
	grep -q "stalled after step mount-db" "$T/prep.err" && break
	kill -0 $pid 2>/dev/null || { cat "$T/prep.err"; fail "prep exited before mount-db"; }
	sleep 0.1
done
kill -HUP $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] || fail "prep after SIGHUP exited $rc, want 1"
grep -q "interrupted by signal 1: rolling back" "$T/prep.err" || fail "no rollback: $(cat "$T/prep.err")"
assert_clean "SIGHUP"

log "stderr reader gone while prep waits between steps: rolled back at once"
mkfifo "$T/fifo"
FSLAB_TEST_PREP_STALL=attach "$FSLAB" prep --fs ext4 "${ARGS[@]}" 2>"$T/fifo" &
pid=$!
head -1 "$T/fifo" >"$T/first"
# the reader is gone: the next message raises SIGPIPE, and prep rolls back silently
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] || fail "prep whose stderr reader went away exited $rc, want 1"
assert_clean "stderr reader gone"

log "stderr closed (2>&-): prep and teardown still do their whole job"
"$FSLAB" prep --fs ext4 "${ARGS[@]}" 2>&- >/dev/null || fail "prep with a closed stderr failed"
[ "$(ours_loops)" -eq 2 ] && findmnt -rn -o TARGET | grep -q "^$MNT/db" ||
	fail "prep with a closed stderr did not prepare the volumes"
"$FSLAB" teardown --mount-root "$MNT" 2>&- || fail "teardown with a closed stderr failed"
assert_clean "closed stderr"

log "teardown 2>&1 | head -1 finishes"
FSLAB_TEST_PREP_STALL=done "$FSLAB" prep --fs ext4 "${ARGS[@]}" 2>"$T/prep.err" &
pid=$!
for _ in $(seq 600); do
	grep -q "stalled after step done" "$T/prep.err" && break
	kill -0 $pid 2>/dev/null || { cat "$T/prep.err"; fail "prep exited before done"; }
	sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null || true
set +e
"$FSLAB" teardown --mount-root "$MNT" 2>&1 | head -1
rcs=("${PIPESTATUS[@]}")
set -e
[ "${rcs[0]}" -eq 0 ] || fail "teardown piped into head -1 exited ${rcs[0]}"
assert_clean "teardown | head -1"
log "ok"
