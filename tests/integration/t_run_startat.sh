#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_startat: fslab run --start-at (issue 20): the database is initialised first, the load
# starts at the time asked (the wall clock, absolute) and the result records the time asked,
# the load's and the measurement's start; a Ctrl-C while waiting ends the run at once with a
# result marked aborted and no load.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq missing (make check installs it)"

db=$(new_loop 300M)
lg=$(new_loop 200M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/db $T/log
mount $db $T/db && track_mount $T/db
mount $lg $T/log && track_mount $T/log
R=(--db $T/db --log $T/log --db-size 64M --threads 2 --duration 2s --warmup 1s)

log "the load starts at the time asked"
t0=$(date +%s)
start=$((t0 + 6))
"$FSLAB" run "${R[@]}" --start-at $start --output $T/r.json >$T/out 2>&1 ||
	[ $? -eq 3 ] || { cat $T/out; fail "fslab run --start-at failed"; }
grep -q "waiting until" $T/out || fail "no word of the wait"
want=$(date -u -d @$start +%Y-%m-%dT%H:%M:%S.000000Z)
jqt $T/r.json ".start_at == \"$want\""
# the load began at the time (its wake-up and the engine's start: milliseconds), after the
# database was made; the measurement one warm-up later
jqt $T/r.json "(.load_started_at | .[0:19]) == \"$(date -u -d @$start +%Y-%m-%dT%H:%M:%S)\""
jqt $T/r.json '(.load_started_at | .[20:26] | tonumber) < 100000'
jqt $T/r.json 'def ts: (.[0:19] + "Z" | fromdateiso8601) + ("0" + .[19:26] | tonumber);
	(.measure_started_at | ts) - (.load_started_at | ts) | . >= 0.99 and . < 1.2'
jqt $T/r.json '.init.created == 1 and .aborted == false'
jqt $T/r.json '[.notes[] | select(test("after --start-at"))] | length == 0'

log "Ctrl-C while waiting: a result marked aborted, no load"
"$FSLAB" run "${R[@]}" --start-at $(($(date +%s) + 60)) --output $T/i.json >$T/out2 2>&1 &
pid=$!
for i in $(seq 1 100); do grep -q "waiting until" $T/out2 && break; sleep 0.2; done
grep -q "waiting until" $T/out2 || { kill -9 $pid 2>/dev/null || true; cat $T/out2; fail "the run never reached its wait"; }
t1=$(date +%s%N)
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] || { cat $T/out2; fail "interrupted wait: exit $rc, expected 1"; }
[ $(( ($(date +%s%N) - t1) / 1000000 )) -lt 5000 ] || fail "the run took more than 5 s to stop"
jqt $T/i.json '.aborted == true and (.abort_reason | test("SIGINT")) and .load_started_at == null'
jqt $T/i.json '.classes.db_read.ops == 0 and .start_at != null'
log "ok"
