#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_signal: SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) stop a run
# cleanly: the result is still written, marked aborted with what was measured, and fslab
# exits non-zero.  So does SIGPIPE (`fslab run ... 2>&1 | head -1`: the reader went).
# Progress: a live line on a terminal, none when stderr is not one.
. "$(dirname "$0")/lib.sh"

mkdir -p $T/db $T/log
mount -t tmpfs -o size=256M tmpfs $T/db && track_mount $T/db
mount -t tmpfs -o size=128M tmpfs $T/log && track_mount $T/log

for sig in INT TERM HUP; do
	log "SIG$sig during the measurement"
	r=$T/$sig.json
	rm -f $T/progress
	"$FSLAB" run --db $T/db --log $T/log --db-size 64M --threads 2 --duration 60s --warmup 1s \
		--output $r --progress-fd 3 3>$T/progress >$T/out 2>$T/err &
	pid=$!
	for _ in $(seq 100); do grep -q '"measure"' $T/progress 2>/dev/null && break; sleep 0.2; done
	grep -q '"measure"' $T/progress || fail "run never reached the measurement"
	sleep 2
	start=$(date +%s)
	kill -$sig $pid
	rc=0
	wait $pid || rc=$?
	[ $rc -eq 1 ] || { cat $T/err; fail "SIG$sig: expected exit 1, got $rc"; }
	[ $(( $(date +%s) - start )) -le 10 ] || fail "SIG$sig: took too long to stop"
	jqt $r '.aborted == true'
	jqt $r ".abort_reason | test(\"SIG$sig\")"
	jqt $r '.duration_s > 1 and .duration_s < 30'
	jqt $r '.classes.db_read.ops > 0 and (.timeline.rows | length) >= 1'
	grep -q ABORTED $T/out || fail "summary does not say ABORTED"
	# the progress fd got one JSON line a second with elapsed and total
	jq -e -s 'length >= 2 and .[0].total_s == 61 and (.[-1].elapsed_s > 1)' $T/progress >/dev/null \
		|| fail "progress lines: $(cat $T/progress)"
	[ -z "$(ls $T/*.tmp.* 2>/dev/null)" ] || fail "temporary result file left behind"
done

log "SIGPIPE: the reader of the output goes (2>&1 | head -1)"
# a new database: its creation prints the first line, the end of its initialisation the next
rm -rf $T/db/* $T/log/* $T/pipe.json
start=$(date +%s)
"$FSLAB" run --db $T/db --log $T/log --db-size 64M --threads 2 --duration 60s --warmup 1s \
	--output $T/pipe.json 2>&1 | head -1 > $T/first
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] || fail "SIGPIPE: expected exit 1, got $rc (141: killed by SIGPIPE)"
[ $(( $(date +%s) - start )) -le 45 ] || fail "SIGPIPE: the run went on for its whole duration"
[ -s $T/first ] || fail "SIGPIPE: nothing read"
[ -s $T/pipe.json ] || fail "SIGPIPE: no result written"
jqt $T/pipe.json '.aborted == true'
jqt $T/pipe.json '.abort_reason | test("SIGPIPE")'
[ -z "$(ls $T/*.tmp.* 2>/dev/null)" ] || fail "temporary result file left behind"

log "nohup: a SIGHUP ignored from the start stays ignored, the run goes on"
rm -f $T/nohup.json
rc=0
nohup "$FSLAB" run --db $T/db --log $T/log --db-size 64M --threads 2 --duration 3s --warmup 0 \
	--no-checksum-pass --output $T/nohup.json >$T/nohup.out 2>&1 &
pid=$!
sleep 1.5
kill -HUP $pid
wait $pid || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/nohup.out; fail "nohup run exited $rc after SIGHUP"; }
jqt $T/nohup.json '.aborted == false'

log "progress line only on a terminal"
# exit 3 (verdict FAIL) is fine here: with a 64 MiB database the cache has 256 pages and a busy
# 2-core machine can leave the lazy writer behind (page-fault stalls); this tests the progress line
rc=0
"$FSLAB" run --db $T/db --log $T/log --db-size 64M --threads 2 --duration 2s --warmup 0 \
	--no-checksum-pass --output $T/p.json >/dev/null 2>$T/err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/err; fail "run exited $rc"; }
! grep -q ETA $T/err || fail "progress line written although stderr is not a terminal"
command -v script >/dev/null || fail "script(1) missing (bsdutils)"
script -qec "$FSLAB run --db $T/db --log $T/log --db-size 64M --threads 2 --duration 3s \
	--warmup 0 --no-checksum-pass --output $T/p.json" /dev/null >$T/tty 2>&1 || true
grep -q "ETA" $T/tty || fail "no progress line on a terminal: $(head -c 400 $T/tty)"
grep -q "IOPS" $T/tty || fail "progress line without IOPS"
echo "all good"
