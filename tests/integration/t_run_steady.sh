#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_steady: the SNIA PTS steady-state rule on a device whose speed changes.  A loop device
# under a cgroup v1 blkio throttle (blkio.throttle.read_iops_device, changed by the test
# while fslab runs, in a cgroup made here and removed on exit): 600 reads/s, then 200 from
# about second 10.  With a window of 5 three-second means (15 s, longer than the first phase;
# limits widened to 40 % and 20 % so that a busy machine's hiccups do not decide, while any
# window holding both speeds is far outside them):
# - a measurement across the change: no window before it holds, the first after it does;
# - --warmup steady across the change: the warm-up ends after it (it took >= 20 s) and the
#   measurement that follows sees the slow device only, steady at once (from second 0);
# - compare shows both next to the verdict and marks the windows on the timeline charts.
. "$(dirname "$0")/lib.sh"

blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/blkio.throttle.read_iops_device" ] ||
	skip "no cgroup v1 blkio controller with throttling at $blkio (the test guest has none either)"
cg=$blkio/fslab-test-steady.$$
# the cgroup is ours: remove it on any exit (before lib.sh's cleanup, keeping the status); a
# run still in it is stopped first
trap 'rc=$?; [ -n "${pid:-}" ] && kill $pid 2>/dev/null && wait $pid 2>/dev/null;
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null; (exit $rc); cleanup' EXIT

db=$(new_loop 1G)
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $db
mkdir -p $T/db
mount -o noatime $db $T/db && track_mount $T/db
mkdir "$cg"
dev=$(lsblk -dno MAJ:MIN $db | tr -d ' ')
throttle() { echo "$dev $1" >"$cg/blkio.throttle.read_iops_device"; }
rule=(--steady-interval 3s --steady-window 5 --steady-range 40 --steady-excursion 20)

# start LABEL PHASE ARGS...: fslab run in the cgroup, in the background ($pid); returns when
# its first progress line of PHASE is out (the end of that phase's first second)
start() {
	local label=$1 phase=$2; shift 2
	(
		echo $BASHPID >"$cg/cgroup.procs"
		exec "$FSLAB" run --workload randread --db $T/db --db-size 128M --threads 2 \
			--iodepth 4 --label $label --output $T/$label.json --progress-fd 1 "$@"
	) >$T/$label.out 2>$T/$label.err &
	pid=$!
	until_true 120 grep -q "\"phase\": \"$phase\"" $T/$label.out ||
		{ cat $T/$label.err; fail "$label: no $phase progress"; }
}
finish() { # finish LABEL: wait for the run started last; it must succeed
	wait $pid || { cat $T/$1.err; fail "$1: fslab run failed"; }
	pid=
	grep -v '^{"fslab_progress"' $T/$1.out
}

log "a measurement across the change: steady only after it"
throttle 600
start across measure --warmup 0 --duration 36s "${rule[@]}"
sleep 9
throttle 200
finish across
r=$T/across.json
jq -c '.steady_state.transactional_iops | del(.means)' $r
jqt $r '.steady_state.window == 5 and .steady_state.interval_s == 3'
jqt $r '.steady_state.range_limit_pct == 40 and .steady_state.excursion_limit_pct == 20'
# every window from 0 to 9 s spans the change (at ~10 s): none held; the first after it did
jqt $r '.steady_state.transactional_iops | .state == "attained" and .from_s >= 10 and .from_s <= 18'
jqt $r '.steady_state.transactional_iops | .to_s == .from_s + 15 and (.means | length) == 5'
jqt $r '.steady_state.transactional_iops | .mean > 180 and .mean < 220 and .holds_at_end'
jqt $r '.steady_state.db_read_latency_ms.state == "attained"'
grep -q "transactional IOPS: attained from" $T/across.out || fail "summary lacks the steady state"

log "--warmup steady across the change: the measurement starts after it"
throttle 600
start warm warm-up --warmup steady --steady-cap 60s --duration 15s "${rule[@]}"
sleep 9
throttle 200
finish warm
r=$T/warm.json
jq -c '.warmup | del(.transactional_iops.means, .db_read_latency_ms.means)' $r
jqt $r '.config.warmup_steady == true and .config.warmup_s == 0 and .config.steady_cap_s == 60'
# the change at ~10 s, then a whole window of the slow device: >= 24 s, well under the cap
jqt $r '.warmup | .attained == true and .seconds >= 24 and .seconds < 55 and .cap_s == 60'
jqt $r '.warmup.transactional_iops | .state == "attained" and .mean > 180 and .mean < 220'
# measured: the slow device only, steady from its first second
jqt $r '.classes.db_read.iops > 180 and .classes.db_read.iops < 220'
jqt $r '.steady_state.transactional_iops | .state == "attained" and .from_s == 0'
grep -q "warm-up until steady: [0-9]* s, attained" $T/warm.out || fail "summary lacks the warm-up"

log "compare: next to the verdict, and the steady windows on the timeline charts"
"$FSLAB" compare $r $T/across.json --allow-mismatch --output $T/cmp >$T/cmp.out 2>&1 ||
	{ cat $T/cmp.out; fail "compare failed"; }
jqt $T/cmp/compare.json '[.rows[] | select(.id == "steady") | .cells[].text] |
	(.[0] == "attained from 0 s") and (.[1] | test("^attained from 1[0-8] s$"))'
grep -q "^- Warm-up until steady state" $T/cmp/report.md || fail "Method lacks the warm-up"
grep -q "^### Steady state" $T/cmp/report.md || fail "report lacks the steady-state lines"
if [ -s $T/cmp/charts/timeline-iops.gp ]; then
	grep -q '^SN = 2$' $T/cmp/charts/timeline-iops.gp || fail "IOPS chart: no steady windows"
	[ -s $T/cmp/charts/timeline-iops.png ] || fail "IOPS chart not drawn"
fi
rmdir "$cg"
echo "all good"
