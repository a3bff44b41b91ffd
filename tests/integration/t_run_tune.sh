#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_tune: --threads auto finds the volume's limit.  A device of known capacity: ext4 on a
# loop device whose reads a cgroup v1 blkio throttle holds to 180 a second (in a cgroup made
# here for the fslab run processes, removed on exit), so a closed loop of N sessions waits
# about N x 5.5 ms per read and the strict limit (20 ms) falls between 3 and 4 threads.  A
# manual sweep (1 to 6 threads) finds the largest count that passes; the tuner must choose a
# count within one step of it, record every step, measure there, and say so.  Also what
# --threads auto refuses.
. "$(dirname "$0")/lib.sh"

blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/blkio.throttle.read_iops_device" ] ||
	skip "no cgroup v1 blkio controller with throttling at $blkio (the test guest has none either)"
cg=$blkio/fslab-test-tune.$$
# the cgroup is ours: remove it on any exit (before lib.sh's cleanup, keeping the status)
trap 'rc=$?; [ -d "$cg" ] && rmdir "$cg" 2>/dev/null; (exit $rc); cleanup' EXIT

log "what --threads auto refuses (nothing is created)"
mkdir -p $T/x/db $T/x/log
expect_status 2 "$FSLAB" run --db $T/x/db --threads auto --workload randread --duration 5s
grep -q -- "--threads auto: only the jetstress workload can be tuned" $T/stderr || fail "randread"
expect_status 2 "$FSLAB" run --db $T/x/db --log $T/x/log --threads auto --duration 5s \
	--start-at "$(($(date +%s) + 3600))"
grep -q "each host would tune to its own count" $T/stderr || fail "start-at"
expect_status 2 "$FSLAB" run --db $T/x/db --log $T/x/log --threads auto --databases 4 \
	--tune-max-threads 2 --duration 5s
grep -q -- "--tune-max-threads 2 is less than the fewest threads" $T/stderr || fail "max < databases"
expect_status 2 "$FSLAB" run --db $T/x/db --log $T/x/log --threads auto --tune-window 30 \
	--tune-judge 2m --tune-step-cap 1m --duration 5s
grep -q -- "--tune-step-cap 60s cannot hold one step" $T/stderr || fail "step cap"
expect_status 2 "$FSLAB" export --to fio --threads auto --db $T/x/db --log $T/x/log
grep -q "fio runs no tuner" $T/stderr || fail "export"
[ -z "$(find $T/x -mindepth 2)" ] || fail "a refused run created files"

db=$(new_loop 1G)
lg=$(new_loop 400M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/db $T/log
mount -o noatime $db $T/db && track_mount $T/db
mount -o noatime $lg $T/log && track_mount $T/log
mkdir "$cg"
echo "$(lsblk -dno MAJ:MIN $db | tr -d ' ') 180" >"$cg/blkio.throttle.read_iops_device"

# run NAME ARGS...: the load in the throttled cgroup (BDM off: it would spend some of the
# read budget); exit status in $rc
run() {
	local name=$1
	shift
	rc=0
	(
		echo $BASHPID >"$cg/cgroup.procs"
		exec "$FSLAB" run --db $T/db --log $T/log --db-size 256M --no-checksum-pass \
			--bdm-rate 0 --sample-interval 4s --label $name --output $T/$name.json "$@"
	) >$T/$name.out 2>$T/$name.err || rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/$name.err; fail "$name: fslab run exited $rc"; }
}

log "manual sweep, 1 to 6 threads"
manual=0
for t in 1 2 3 4 5 6; do
	run m$t --threads $t --duration 8s --warmup 2s
	jq -c "{threads: $t, iops: .transactional_iops, read_ms: (.classes.db_read.lat_us.mean / 1000),
		log_ms: (.classes.log_write.lat_us.mean / 1000), pass: .verdict.pass}" $T/m$t.json
	if [ "$(jqv $T/m$t.json .verdict.pass)" = true ]; then manual=$t; fi
done
[ $manual -ge 1 ] || fail "no count passed in the manual sweep"
log "the manual sweep's largest passing count: $manual"

log "--threads auto"
run auto --threads auto --duration 8s --warmup 2s --tune-window 4 --tune-judge 8s \
	--tune-step-cap 40s --tune-max-threads 16
cat $T/auto.out
r=$T/auto.json
chosen=$(jqv $r .tuning.threads)
log "the tuner chose $chosen (manual sweep: $manual)"
[ $((chosen - manual)) -le 1 ] && [ $((manual - chosen)) -le 1 ] ||
	fail "--threads auto chose $chosen, the manual sweep found $manual: more than one step apart"
# the measurement ran at the count chosen, and the result says it was tuned
jqt $r '.aborted == false and .config.threads == .tuning.threads and .config.threads_auto == true'
jqt $r '.config.tune_window == 4 and .config.tune_judge_s == 8 and .config.tune_max_threads == 16'
# every step: its count, whether stable, verdict, figures; the first at one thread, doubling
jqt $r '.tuning.steps[0].threads == 1 and .tuning.steps[1].threads == 2'
jqt $r '[.tuning.steps[] | has("threads", "stable", "pass", "transactional_iops",
	"db_read_avg_ms", "log_write_avg_ms", "stalls_per_s", "seconds", "settle_s")] | all'
jqt $r '[.tuning.steps[] | select(.stable) | .seconds >= .settle_s + 8] | all'
# the choice is the largest count that passed, and the next count up failed
jqt $r '.tuning.threads == ([.tuning.steps[] | select(.pass) | .threads] | max)'
jqt $r '(.tuning.threads + 1) as $n | [.tuning.steps[] | select(.threads == $n) | .pass == false] | all'
jqt $r '[.tuning.steps[] | select(.pass | not) | .why | length > 0] | all'
jqt $r '.tuning.reason | test("^the largest count that passed: [0-9]+ passed, [0-9]+ failed$")'
# the steps are what the device does: about 180 reads a second whatever the count, read
# latency growing with the count
jqt $r '[.tuning.steps[] | .transactional_iops > 200 and .transactional_iops < 400] | all'
jqt $r '[.tuning.steps[] | select(.threads == 1) | .db_read_avg_ms] as $a |
	[.tuning.steps[] | select(.threads == 4) | .db_read_avg_ms] as $b | $b[0] > 2 * $a[0]'
grep -q "Tuning (--threads auto): $chosen thread(s) measured" $T/auto.out ||
	fail "the summary does not show the tuning"
grep -q "fslab run 'auto': jetstress, $chosen threads (--threads auto)" $T/auto.out ||
	fail "the summary's first line does not say the count was tuned"
# a run at a fixed count records none of the tuner's settings
jqt $T/m1.json '.tuning == null and (.config | has("threads_auto") or has("tune_window") | not)'
echo "all good"
