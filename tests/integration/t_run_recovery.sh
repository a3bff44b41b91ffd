#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_recovery: --workload recovery (soft recovery) on one ext4 loop volume pair.  A run makes
# its load, stops uncleanly and replays the logs, timed per log file (PASS, the checkpoint file
# gone).  A load killed with kill -9 leaves its logs and a checkpoint file; the next run
# replays them (records verified, pages read and verified, the changes the database lacks
# applied) and reaches a database whose every page verifies.  With the database volume's reads
# throttled to 1500/s (cgroup v1 blkio on the loop device, a cgroup made here and removed on
# exit) the time per log file grows; compare leads with it.
. "$(dirname "$0")/lib.sh"

blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/blkio.throttle.read_iops_device" ] ||
	skip "no cgroup v1 blkio controller with throttling at $blkio (the test guest has none either)"
cg=$blkio/fslab-i29-shape-recovery.$$
pid=
# the cgroup and a load still running are ours: removed on any exit, before lib.sh's cleanup
trap 'rc=$?; set +e; [ -n "$pid" ] && kill -9 $pid 2>/dev/null; wait 2>/dev/null
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null; (exit $rc); cleanup' EXIT

db=$(new_loop 1G)
lg=$(new_loop 600M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/db $T/log
mount -o noatime $db $T/db && track_mount $T/db
mount -o noatime $lg $T/log && track_mount $T/log
logs=$T/log/fslab-db1-logs
args="--workload recovery --db $T/db --log $T/log --threads 4 --db-size 256M"

# recover NAME [cgroup] [options]: a recovery run, its result $T/NAME.json; exit status in $rc
recover() {
	local name=$1 group=${2:-}

	shift $(($# < 2 ? $# : 2))
	rc=0
	(
		[ -z "$group" ] || echo $BASHPID >"$group/cgroup.procs"
		exec "$FSLAB" run $args --label $name --output $T/$name.json "$@"
	) >$T/$name.out 2>$T/$name.err || rc=$?
	[ $rc -eq 0 ] || { cat $T/$name.out $T/$name.err; fail "$name: fslab run exited $rc"; }
	jq -c '.recovery | del(.per_log)' $T/$name.json
}

# killed_load: a load that would leave 400 log files, killed with kill -9 once it left 4
killed_load() {
	"$FSLAB" run $args --recovery-logs 400 --output $T/killed.json >$T/killed.out 2>&1 &
	pid=$!
	# its checkpoint file comes after it removed the earlier run's logs, then its own logs
	until_true 60 test -e $logs/E00.chk || fail "the load wrote no checkpoint file in 60 s"
	until_true 120 test -e $logs/E0000000004.log || fail "the load left no 4 log files in 120 s"
	kill -9 $pid
	wait $pid 2>/dev/null || true
	pid=
	[ -f $logs/E00.chk ] || fail "a killed load left no checkpoint file"
	grep -q "^fslab checkpoint/2$" $logs/E00.chk || fail "$logs/E00.chk is not a checkpoint file"
}

# replayed FILE: a replay that redid what the stop left behind the log and reached a sound
# database
replayed() {
	jqt $1 '.verdict.pass == true and .aborted == false'
	jqt $1 '.recovery.present != false and .recovery.logs >= 5 and .recovery.records > 1000 and
		.recovery.pages_read > 1000 and .recovery.mismatches == 0 and .recovery.bad_pages == 0'
	# a real soft recovery: the crash left pages behind their log (the lazy writer holds
	# dirty pages as ESE's checkpoint does: most of the cache), and the replay applied
	# records to them and wrote them
	jqt $1 '.recovery.applied > 0 and .recovery.pages_written > 0 and
		.recovery.pages_redone * 32768 * 2 >= .config.cache_size and
		.recovery.applied >= .recovery.pages_redone and
		.recovery.pages_written >= .recovery.pages_redone'
	# every page of the database verifies after the replay (the checksum pass)
	jqt $1 '.checksum.ran == true and .checksum.bad_pages == 0 and .checksum.pages == 8191'
	# timed per log file, in order; the last (where the load stopped) need not be whole
	jqt $1 '.recovery.per_log | length >= 5 and all(.seconds > 0 and .records > 0) and
		(map(.gen) == [range(1; length + 1)]) and (.[:-1] | all(.whole))'
	jqt $1 '.recovery | .per_log_min_s <= .per_log_p50_s and .per_log_p50_s <= .per_log_p95_s and
		.per_log_p95_s <= .per_log_max_s and .per_log_sd_s >= 0'
	[ ! -e $logs/E00.chk ] || fail "the checkpoint file stayed after a clean replay"
}

log "a load of 6 log files, an unclean stop, the replay"
recover fresh "" --recovery-logs 6
replayed $T/fresh.json
jqt $T/fresh.json '.recovery.interrupted == false and .recovery.logs == 7 and .recovery.load_seconds > 0'
grep -q "^Soft recovery: 7 log files replayed in" $T/fresh.out || fail "no replay summary"
grep -q "Verdict: PASS" $T/fresh.out || fail "no PASS"
# the replay redid exactly the pages the unclean stop left behind the log (dirty, their first
# unwritten change durable), no more, no fewer
jqt $T/fresh.json '.recovery.pages_redone == .recovery.pages_behind_log'
grep -Eq "records, [0-9]+ applied .* to [0-9]+ pages \(the unclean stop left [0-9]+ behind the log\)" \
	$T/fresh.out || fail "the summary does not say what the replay redid"

log "kill -9 during the load, then the replay of what it left"
killed_load
recover killed-replay
grep -q "the logs of an earlier recovery run that did not finish" $T/killed-replay.err ||
	fail "the replay does not say whose logs it replays"
jqt $T/killed-replay.json '.recovery.interrupted == true and .recovery.load_seconds == 0'
replayed $T/killed-replay.json

log "the same after a kill, replayed with the database volume's reads throttled to 1500/s"
killed_load
mkdir "$cg"
echo "$(lsblk -dno MAJ:MIN $db | tr -d ' ') 1500" >"$cg/blkio.throttle.read_iops_device"
recover throttled "$cg"
rmdir "$cg"
replayed $T/throttled.json
jqt $T/throttled.json '.classes.db_read.iops <= 1600'
jq -n --slurpfile a $T/killed-replay.json --slurpfile b $T/throttled.json -e \
	'$b[0].recovery.per_log_mean_s > 3 * $a[0].recovery.per_log_mean_s and
	 $b[0].recovery.per_log_p50_s > 3 * $a[0].recovery.per_log_p50_s' >/dev/null ||
	fail "the time per log file did not grow with the throttle"

log "compare leads with the time per log file"
"$FSLAB" compare $T/killed-replay.json $T/throttled.json --no-charts --output $T/cmp \
	>$T/cmp.out 2>$T/cmp.err || { cat $T/cmp.err; fail "compare failed"; }
grep -q "^| Label | Log replay time per log file (s) |" $T/cmp/report.md ||
	{ head -20 $T/cmp/report.md; fail "the key table does not lead with the replay time"; }
grep -Eq "^\| throttled \| [0-9.]+ ± [0-9.]+ \(\+[0-9]+ %\) \|" $T/cmp/report.md ||
	{ grep "^| throttled" $T/cmp/report.md; fail "the throttled replay is not slower per log file"; }
grep -q "fslab's rule for soft recovery; Jetstress publishes none" $T/cmp/report.md ||
	fail "the Method does not say whose pass rule it is"
echo "all good"
