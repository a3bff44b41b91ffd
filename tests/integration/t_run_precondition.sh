#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_precondition: --precondition N writes what it says and records it.  On a loop device
# (ext4), a read-only load (randread: its own load writes nothing) with --precondition 2: the
# device's write counters (/sys/block/loopN/stat, read here around the run) grew by the two
# passes over the data file and little else, as the result records (bytes, seconds, the
# devices' count, the second stage's record); a 10 s cell judged by the default rule (5 x 60 s)
# says "too short".  A lab with precondition = 1 applies it to every cell alike and its
# report's Method says so.
. "$(dirname "$0")/lib.sh"

db=$(new_loop 1G)
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $db
mkdir -p $T/db
mount -o noatime $db $T/db && track_mount $T/db
# sectors written (the 7th field of /sys/block/DEV/stat)
written() { echo $(( $(awk '{ print $7 }' /sys/block/$(basename $db)/stat) * 512 )); }
run() { # run LABEL ARGS...
	local l=$1; shift
	"$FSLAB" run --workload randread --db $T/db --db-size 128M --threads 2 --iodepth 4 \
		--warmup 1s --duration 10s --label $l --output $T/$l.json "$@" >$T/$l.out 2>$T/$l.err ||
		{ cat $T/$l.err; fail "$l: fslab run failed"; }
	cat $T/$l.out
}

log "a 10 s cell without preconditioning (it creates the data file): too short to judge"
run plain
jqt $T/plain.json '.steady_state | .window == 5 and .interval_s == 60'
jqt $T/plain.json '.steady_state.transactional_iops.state == "too short"'
jqt $T/plain.json '.steady_state.db_read_latency_ms.state == "too short"'
jqt $T/plain.json '.precondition == null and .warmup == null and .config.precondition == 0'
grep -q "transactional IOPS: too short to judge (a window is 5 x 60 s)" $T/plain.out ||
	fail "summary: not too short"

log "--precondition 2: the file written over twice, then the load until steady (capped)"
before=$(written)
run pc --precondition 2 --steady-interval 1s --steady-window 3 --steady-cap 15s
after=$(written)
r=$T/pc.json
jq -c '.precondition | del(.load.transactional_iops.means, .load.db_read_latency_ms.means)' $r
want=$(( 2 * (128 * 1024 * 1024 - 32768) )) # the header page is left as it is
jqt $r ".precondition | .passes == 2 and .files == 1 and .bytes_written == $want"
jqt $r '.precondition.seconds > 0 and .config.precondition == 2'
# what the device counted: the passes, a little metadata and journal, nothing of the reads
d=$(( after - before ))
echo "device wrote $d bytes during the run; the passes $want"
[ $d -ge $want ] && [ $d -le $(( want + want / 20 + 16 * 1024 * 1024 )) ] ||
	fail "device wrote $d bytes during the run, the passes were $want"
jqt $r ".precondition.device_bytes_written >= $want and .precondition.device_bytes_written <= $d"
# the second stage: the load until steady or 15 s, recorded, not measured
jqt $r '.precondition.load | .until == "steady" and .cap_s == 15 and .bytes_written == 0'
jqt $r '.precondition.load | .bytes_read > 0 and (if .attained then .seconds >= 3 and
	.transactional_iops.state == "attained" else .seconds >= 15 end) and .seconds < 20'
jqt $r '.duration_s >= 9.5 and .duration_s < 11'
grep -q "^Preconditioning: 1 file(s) written over 2 time(s) sequentially" $T/pc.out ||
	fail "summary lacks the precondition"
umount $T/db

log "a lab applies it to every cell alike, and its Method says what was done"
cat >$T/lab.ini <<EOT
[lab]
title = preconditioned
baseline = ext4
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
name = randread
threads = 2
db_size = 64M
duration = 4s
warmup = 1s
precondition = 1
steady_interval = 1s
steady_window = 3
steady_cap = 8s
[fs ext4]
[fs xfs]
EOT
"$FSLAB" lab $T/lab.ini --output $T/lab >$T/lab.out 2>&1 || { cat $T/lab.out; fail "lab failed"; }
n=0
for r in $T/lab/results/*.json; do
	jqt $r '.config.precondition == 1 and .precondition.passes == 1 and .precondition.files == 1'
	jqt $r ".precondition.bytes_written == $(( 64 * 1024 * 1024 - 32768 ))"
	jqt $r '.precondition.load.cap_s == 8 and .lab.volume_formatted == true'
	n=$((n + 1))
done
[ $n -eq 2 ] || fail "$n cell results, expected 2"
grep -q "^- Preconditioning (SNIA PTS), neither stage measured: the database files written over 1 time(s).*every run alike" \
	$T/lab/report/report.md || fail "the report's Method does not say what was done"
echo "all good"
