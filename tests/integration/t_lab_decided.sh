#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_decided: a lab that runs until it has decided ([lab] stop = decided), with planted
# effects.  Three labels on ext4 volumes this test formats and mounts (the lab's prepared
# volumes: the devices are known, so one can be throttled): "base", "same" (the same setup on
# its own devices: a planted 0 %) and "slow", whose database device's writes are throttled
# to 150/s for the whole lab (cgroup v1 blkio.throttle.write_iops_device in a cgroup made
# here and removed on exit): a planted effect far larger than this machine's noise, so it
# holds however loaded the machine is.  (The error rates of small planted effects, 3 to 15
# %, on real noise are tests/unit/test_relabel.c's.)  The outcomes: "slow" is different and
# worse in transactional IOPS; "same" is never different (equivalent, or undecided with the
# rounds it would still need); the stop reason, compare.json, the answer, the key table and
# the chart of the answer say the same.  After the rounds each label runs once more, longer
# ([lab] qualify): its verdict is reported as a qualification, apart from the comparison.
. "$(dirname "$0")/lib.sh"

blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/blkio.throttle.write_iops_device" ] ||
	skip "no cgroup v1 blkio controller with throttling at $blkio (the test guest has none either)"
cg=$blkio/fslab-i28decide-t.$$
trap 'rc=$?; [ -d "$cg" ] && rmdir "$cg" 2>/dev/null; (exit $rc); cleanup' EXIT

for l in base same slow; do
	db=$(new_loop 1G)
	lg=$(new_loop 400M)
	for d in $db $lg; do mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $d; done
	mkdir -p $T/$l/db $T/$l/log
	mount -o noatime $db $T/$l/db && track_mount $T/$l/db
	mount -o noatime $lg $T/$l/log && track_mount $T/$l/log
	mkdir $T/$l/db/lab $T/$l/log/lab
	[ $l = slow ] && slowdb=$db
done

cat > $T/lab.ini <<EOT
[lab]
title = planted effects
baseline = base
stop = decided
equivalence = 25%
budget = 6m
min_rounds = 3
max_rounds = 6
qualify = 6s
[workload]
threads = 2
db_size = 128M
duration = 4s
warmup = 1s
sample_interval = 2s
EOT
for l in base same slow; do
	printf '[fs %s]\nfs = ext4\ndb_dir = %s\nlog_dir = %s\n' $l $T/$l/db/lab $T/$l/log/lab >> $T/lab.ini
done

log "dry run: the plan of a lab that stops when decided"
"$FSLAB" lab $T/lab.ini --output $T/out --dry-run > $T/dry.txt 2>&1 || fail "dry run: $(cat $T/dry.txt)"
grep -q "^Then 3 qualification run(s) of 6 s, one per filesystem label" $T/dry.txt ||
	fail "no qualification line: $(head -4 $T/dry.txt)"
grep -q "^Adaptive: until every claim is decided (different, equivalent within ±25 % or negligible; group-sequential boundaries), rounds 3 to 6, budget 00:06:00" $T/dry.txt ||
	fail "no decided plan line: $(head -4 $T/dry.txt)"

log "the lab, slow's database writes throttled to 150/s"
mkdir "$cg"
echo "$(lsblk -dno MAJ:MIN $slowdb | tr -d ' ') 150" > "$cg/blkio.throttle.write_iops_device"
rc=0
(
	echo $BASHPID > "$cg/cgroup.procs"
	exec "$FSLAB" lab $T/lab.ini --output $T/out
) > $T/lab.out 2>&1 || rc=$?
# a Jetstress FAIL of the throttled label (page-fault stalls) is a finding, not an error
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { tail -20 $T/lab.out; fail "lab exited $rc"; }
plan=$T/out/lab-plan.json
json=$T/out/report/compare.json
jqt $plan '.adaptive.stop == "decided" and .adaptive.equivalence_pct == 25'
why=$(jq -r .adaptive.stop_reason $plan)
log "stopped: $why"
outcome() { # outcome LABEL METRIC
	jq -r --arg l $1 --arg m $2 '.rows[] | select(.id == $m) | .cells[] | select(.label == $l) |
		.delta.decision.outcome' $json
}
for m in trans_iops db_read_lat_avg log_write_lat_avg total_mbps; do
	log "same vs base, $m: $(outcome same $m); slow vs base: $(outcome slow $m)"
done

log "slow: different, worse, in transactional IOPS (its writes throttled)"
[ "$(outcome slow trans_iops)" = different ] || fail "slow: $(outcome slow trans_iops)"
jqt $json '.rows[] | select(.id == "trans_iops") | .cells[] | select(.label == "slow") |
	.delta.better == -1 and .delta.pct < -20'
grep -q '^- \*\*slow vs base: [0-9]* % fewer transactional IOPS\*\*, .*: different (significant' \
	$T/out/report/report.md || fail "answer line for slow: $(grep 'slow vs base' $T/out/report/report.md)"
grep -q '| slow | \*\*▼ .* (-[0-9]* %, different)\*\* |' $T/out/report/report.md ||
	fail "key table row for slow: $(grep '^| slow' $T/out/report/report.md)"

log "same: never a difference (planted 0 %)"
for m in trans_iops db_read_lat_avg log_write_lat_avg total_mbps; do
	o=$(outcome same $m)
	[ "$o" = equivalent ] || [ "$o" = undecided ] || fail "same vs base, $m: $o"
done
o=$(outcome same trans_iops)
if [ $o = equivalent ]; then
	grep -q '^- \*\*same vs base: equivalent within ±25 %\*\* in transactional IOPS, .*its 90 % interval' \
		$T/out/report/report.md || fail "answer line for same: $(grep 'same vs base' $T/out/report/report.md)"
else
	grep -q '^- \*\*same vs base: undecided\*\* in transactional IOPS, .*nor equivalent within ±25 %' \
		$T/out/report/report.md || fail "answer line for same: $(grep 'same vs base' $T/out/report/report.md)"
fi

log "the stop reason agrees with the outcomes, and the boundary of the last look is said"
undecided=$(jq '[.rows[] | select(.id == "trans_iops" or .id == "db_read_lat_avg" or
	.id == "log_write_lat_avg" or .id == "total_mbps") | .cells[] |
	select(.delta.decision.outcome == "undecided")] | length' $json)
case "$why" in
decided*) [ "$undecided" -eq 0 ] || fail "decided, yet $undecided claims undecided" ;;
"budget spent"*|"max_rounds"*) [ "$undecided" -gt 0 ] || fail "$why, yet nothing undecided" ;;
*) fail "stop reason: $why" ;;
esac
jqt $json '.method.sequential.boundary | test("Lan-DeMets")'
jqt $json '.method.sequential.level_difference > 0 and .method.sequential.level_difference <= 0.05'
jqt $json '.method.equivalence_margin_pct == 25'
grep -q "group-sequential boundary (Lan-DeMets alpha spending" $T/out/report/report.md ||
	fail "the Method does not say how the looks were paid for"

log "the qualification runs: after the rounds, apart from the comparison"
for l in base same slow; do
	r=$T/out/results/$l-2t-qualify.json
	[ -e $r ] || fail "no qualification run of $l"
	jqt $r '.duration_s >= 5.9 and .lab.cell == "'$l'-2t-qualify"'
done
jqt $json '(.groups | length) == 3'
grep -q '^### Qualification (Jetstress' $T/out/report/report.md || fail "no qualification section"
grep -q '^- \*\*slow: \(PASS\|FAIL\)\*\* after 6 s of the load' $T/out/report/report.md ||
	fail "qualification line of slow: $(grep -A5 '^### Qualification' $T/out/report/report.md)"
grep -q '^- \*\*Qualification\*\* (Jetstress' $T/out/report/report.md || fail "no qualification in the answer"

log "the chart of the answer: a row per claim, its outcome beside it"
dat=$T/out/report/charts/headline.dat
if [ -e $dat ]; then
	grep -q '"slow vs base: transactional IOPS" .* "different: worse"' $dat ||
		fail "forest row of slow: $(grep slow $dat)"
	[ "$(grep -c ' vs base: ' $dat)" -eq 8 ] || fail "forest rows: $(cat $dat)"
fi
log "ok"
