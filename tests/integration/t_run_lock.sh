#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_lock: two runs at once on the same database or log directory: the second is refused
# (exit 2, naming the first run's pid, nothing touched) while the first runs on and passes its
# own checks; the lock dies with its run (kill -9 leaves nothing stale); other directories
# run side by side.
. "$(dirname "$0")/lib.sh"

mkdir -p $T/db $T/log $T/db2 $T/log2
for d in db log db2 log2; do
	mount -t tmpfs -o size=160M tmpfs $T/$d && track_mount $T/$d
done

# start_run DB LOG OUT DURATION: a background run; waits until it holds its locks (it is
# creating or using its database); sets $pid
start_run() {
	"$FSLAB" run --db $1 --log $2 --db-size 32M --threads 2 --duration $4 --warmup 1s \
		--output $3 --progress-fd 3 3>$T/progress >$T/out1 2>$T/err1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q "FLOCK .* $pid " /proc/locks && break
		sleep 0.1
	done
	grep -q "FLOCK .* $pid " /proc/locks || { cat $T/err1; fail "the run took no lock"; }
}
# refused WANT ARGS...: exit 2 naming WANT and the holder's pid; nothing written in the
# directories the first run does not use
refused() {
	local want=$1; shift
	local before after
	before=$(cd $T && find db2 log2 -printf '%p %s\n' | sort)
	expect_status 2 "$FSLAB" run "$@" --db-size 32M --threads 2 --duration 2s --output $T/second.json
	grep -q -- "$want.* is in use by another fslab run (pid $pid)" $T/stderr \
		|| fail "refusal does not name $want and pid $pid: $(cat $T/stderr)"
	after=$(cd $T && find db2 log2 -printf '%p %s\n' | sort)
	[ "$before" = "$after" ] || fail "the refused run changed files: $*"
	[ ! -e $T/second.json ] || fail "the refused run wrote a result"
	echo "ok: refused: $(cat $T/stderr)"
}

log "a second run on the same directories, on the same --db, on the same --log"
start_run $T/db $T/log $T/first.json 8s
first=$pid
refused "--db $T/db" --db $T/db --log $T/log
refused "--db $T/db/" --db $T/db/ --log $T/log2
refused "--log $T/log" --db $T/db2 --log $T/log
# the same directory for both of another run: one lock, still refused by the first's
refused "--db $T/log" --db $T/log --log $T/log

log "other directories run at the same time"
rc=0
"$FSLAB" run --db $T/db2 --log $T/log2 --db-size 32M --threads 2 --duration 2s --warmup 0 \
	--output $T/other.json >/dev/null 2>$T/err2 || rc=$?
# 3 = verdict FAIL, load-dependent on this shared machine (two runs at once)
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/err2; fail "a run on other directories failed: $rc"; }
jqt $T/other.json '.aborted == false'

rc=0
wait $first || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/err1; fail "the first run failed: exit $rc"; }
jqt $T/first.json '.aborted == false and .classes.db_read.errors == 0 and .checksum.bad_pages == 0'
grep -q "FLOCK .* $first " /proc/locks && fail "the lock outlived its run"

log "kill -9 leaves no stale lock"
start_run $T/db $T/log $T/killed.json 30s
kill -9 $pid
wait $pid 2>/dev/null || true
rc=0
"$FSLAB" run --db $T/db --log $T/log --db-size 32M --threads 2 --duration 2s --warmup 0 \
	--output $T/after.json >/dev/null 2>$T/err3 || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/err3; fail "a run after kill -9 failed: exit $rc"; }
[ ! -e $T/killed.json ] || fail "the killed run left a result"
echo "all good"
