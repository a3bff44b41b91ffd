#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_badinput: every kind of bad input to `fslab run` gets one clear error line, exit
# status 2, and nothing is created or overwritten.
. "$(dirname "$0")/lib.sh"

mkdir -p $T/db $T/log $T/out
mount -t tmpfs -o size=64M tmpfs $T/db && track_mount $T/db
mount -t tmpfs -o size=64M tmpfs $T/log && track_mount $T/log
mkdir -p $T/ro && mount -t tmpfs -o ro,size=1M tmpfs $T/ro && track_mount $T/ro

snapshot() { (cd $T && find db log out -printf '%p %s %T@\n' | sort); }
before=$(snapshot)

# bad CMD... expected-substring: exit 2, one "fslab: error:" line naming the problem, no change
bad() {
	local want=${!#} rc=0
	local args=("${@:1:$#-1}")
	"$FSLAB" run "${args[@]}" >$T/stdout 2>$T/stderr || rc=$?
	[ $rc -eq 2 ] || { cat $T/stderr; fail "exit $rc, expected 2: fslab run ${args[*]}"; }
	[ "$(grep -c '^fslab: error:' $T/stderr)" -eq 1 ] || { cat $T/stderr; fail "expected one error line: ${args[*]}"; }
	grep -qi -- "$want" $T/stderr || { cat $T/stderr; fail "error does not mention '$want': ${args[*]}"; }
	[ "$(snapshot)" = "$before" ] || fail "something was created or changed by: fslab run ${args[*]}"
	echo "ok: ${args[*]} -> $(cat $T/stderr)"
}
D=(--db $T/db --log $T/log --output $T/out/r.json --duration 2s)

bad --db $T/nonexistent --log $T/log --duration 2s "nonexistent"
bad --db $T/db --log $T/nope --duration 2s "--log"
bad --log $T/log --duration 2s "no --db"
bad --db $T/db --duration 2s "no --log"
bad --db $T/ro --log $T/log --duration 2s "not writable"
bad --db $T/db/../db/ --log $T/log --output $T/missing-dir/r.json "does not exist"
bad "${D[@]}" --db-size 1G "not enough free space"
bad "${D[@]}" --db-size 12Q "--db-size"
# sizes whose sum would wrap the free-space check to 0 (issue 12)
bad "${D[@]}" --db-size 8388608T "at most 1024T"
bad "${D[@]}" --databases 64 --threads 64 --db-size 262144T "at most 1024T"
bad "${D[@]}" --databases 64 --threads 64 --db-size 1024T "not enough free space"
bad "${D[@]}" --databases 2 --threads 2 --db-size 8388608T "--db-size"
# a cache larger than the database: refused (docs/DESIGN.md)
bad "${D[@]}" --db-size 16M --cache 32M "larger than each database"
bad "${D[@]}" --db-size 0 "--db-size"
bad "${D[@]}" --db-size 1000000 "multiple of 32 KiB"
bad "${D[@]}" --db-size 8M "at least 16M"
bad "${D[@]}" --duration abc "--duration"
bad "${D[@]}" --duration 0 "at least 1s"
bad "${D[@]}" --duration 1h30 "--duration"
bad "${D[@]}" --warmup -1 "--warmup"
# steady state: the rule's limits, a cap that cannot hold a window, what a stage cannot go with
bad "${D[@]}" --warmup stable "give a time such as 0, 30s or 5m, or steady"
bad "${D[@]}" --steady-window 1 "give 2 to 100 intervals"
bad "${D[@]}" --steady-interval 1500ms "whole seconds"
bad "${D[@]}" --steady-range 0 "above 0"
bad "${D[@]}" --precondition 101 "0 to 100"
bad "${D[@]}" --warmup steady --steady-cap 4m "shorter than one steady-state window (5 x 60s"
bad "${D[@]}" --workload backup --precondition 1 "reads everything once"
bad "${D[@]}" --warmup steady --start-at $(( $(date +%s) + 600 )) "hosts would not measure together"
bad "${D[@]}" --threads 1000 "1 to 256"
bad "${D[@]}" --threads 0 "1 to 256"
bad "${D[@]}" --threads two "--threads"
bad "${D[@]}" --databases 4 --threads 2 "at least one session"
bad "${D[@]}" --iodepth 0 "--iodepth"
bad "${D[@]}" --workload oltp "jetstress, randread"
bad "${D[@]}" --engine aio "io_uring or psync"
bad "${D[@]}" --label "a/b" "--label"
# labels: the rule compare applies (util.c label_problem), so no run makes a result compare refuses
bad "${D[@]}" --label . "starts with a letter or a digit"
bad "${D[@]}" --label .. "starts with a letter or a digit"
bad "${D[@]}" --label - "starts with a letter or a digit"
bad "${D[@]}" --label "" "cannot be empty"
bad "${D[@]}" --label $'ext4\nxfs' "not shown"
bad "${D[@]}" --label $'a\tb' "not shown"
bad "${D[@]}" --label "$(printf 'x%.0s' {1..65})" "at most 64"
bad "${D[@]}" --compressibility 101 "percentage"
bad "${D[@]}" --bdm-rate fast "--bdm-rate"
bad "${D[@]}" --frobnicate "unknown option"
bad "${D[@]}" --db-size 16M --workload randread --bs 1000 "multiple of 512"
bad "${D[@]}" extra-arg "unexpected argument"
# the verdict's options
bad "${D[@]}" --sample-interval abc "--sample-interval"
bad "${D[@]}" --sample-interval 0 "1s to 1h"
bad "${D[@]}" --sample-interval 2h "1s to 1h"
bad "${D[@]}" --sample-interval 1500ms "whole seconds"
bad "${D[@]}" --thresholds loose "strict or lenient"
bad "${D[@]}" --thresholds "" "strict or lenient"
bad "${D[@]}" --max-latency-errors -1 "--max-latency-errors"
bad "${D[@]}" --max-latency-errors many "--max-latency-errors"
bad "${D[@]}" --target-iops 0 "--target-iops"
bad "${D[@]}" --target-iops -5 "--target-iops"
bad "${D[@]}" --target-iops lots "--target-iops"
bad "${D[@]}" --mailboxes 0 "--mailboxes"
bad "${D[@]}" --mailboxes 1.5 "--mailboxes"
bad "${D[@]}" --iops-per-mailbox 0 "--iops-per-mailbox"
bad "${D[@]}" --iops-per-mailbox nan "--iops-per-mailbox"
bad "${D[@]}" --mailboxes 500 "needs --iops-per-mailbox"
bad "${D[@]}" --iops-per-mailbox 0.06 "needs --mailboxes"
bad "${D[@]}" --target-iops 100 --mailboxes 500 --iops-per-mailbox 0.06 "either --target-iops"
bad "${D[@]}" --db-size 16M --workload randread --thresholds lenient "only the jetstress workload"
bad "${D[@]}" --db-size 16M --workload seqwrite --target-iops 10 "only the jetstress workload"
bad --db $T/db --log $T/log --output $T/out --duration 2s --db-size 16M "is a directory"

# --output: refused before the run, never the database or the log files (issue 12)
D0=(--db $T/db --log $T/log --duration 2s --db-size 16M)
bad "${D0[@]}" --output '' "give the result file's name"
bad "${D0[@]}" --output $T/out/ "names a directory"
bad "${D0[@]}" --output $T/ro/r.json "cannot create a file"
bad "${D0[@]}" --output $T/nodir/r.json "does not exist"
bad "${D0[@]}" --output $T/db/fslab-db1.edb "database file"
bad "${D0[@]}" --output $T/out/../db/fslab-db1.edb "database file"
bad "${D0[@]}" --output $T/log/fslab-db1-logs "log directory"
ln -s $T/db $T/out/dblink
mkfifo $T/out/fifo
mkdir $T/log/fslab-db1-logs
before=$(snapshot)
bad "${D0[@]}" --output $T/out/dblink/fslab-db1.edb "database file"
bad "${D0[@]}" --output $T/log/fslab-db1-logs/E00.log "log directory"
bad "${D0[@]}" --output $T/log/fslab-db1-logs/r.json "log directory"
bad "${D0[@]}" --output $T/out/fifo "not a regular file"
rm $T/out/dblink $T/out/fifo
rmdir $T/log/fslab-db1-logs
before=$(snapshot)

# an existing file that is not an fslab database is never overwritten
echo "precious data" > $T/db/fslab-db1.edb
before=$(snapshot)
sum=$(md5sum < $T/db/fslab-db1.edb)
bad "${D[@]}" --db-size 16M "not an fslab database"
# --start-at: a time passed, a day and more ahead, a time without its zone (issue 20)
bad "${D[@]}" --start-at 1000 "has passed"
bad "${D[@]}" --start-at "$(date -u -d '+2 days' +%Y-%m-%dT%H:%M:%SZ)" "24 h"
bad "${D[@]}" --start-at "$(date -u -d '+1 min' +%Y-%m-%dT%H:%M:%S)" "with its zone"
bad "${D[@]}" --start-at soon "--start-at"
[ "$(md5sum < $T/db/fslab-db1.edb)" = "$sum" ] || fail "foreign file was modified"
rm $T/db/fslab-db1.edb
before=$(snapshot)

# --help is not an error
"$FSLAB" run --help | grep -q -- "--db DIR" || fail "--help"
for f in --sample-interval --thresholds --max-latency-errors --strict-io-tail --target-iops \
	--mailboxes --iops-per-mailbox --steady-window --steady-interval --steady-range \
	--steady-excursion --steady-cap --precondition; do
	"$FSLAB" run --help | grep -q -- "$f" || fail "--help does not describe $f"
done
echo "all good"
