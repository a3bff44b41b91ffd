#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_adaptive: adaptive labs ([lab] precision) end to end on loop devices, ext4 and XFS.
# The dry run shows the adaptive plan; a loose precision stops at min_rounds on a quiet
# machine (killed by SIGKILL in round 2 and resumed: the same lab id, finished cells kept; on
# a loaded one a later round may be needed: the rounds it looked at and went on from must
# have been wider than asked; a stop_reason written into its state is not trusted, the
# stop rule looks again); a precision no lab reaches stops on the budget; every result carries its lab provenance, compare blocks
# by round and the report says why the lab stopped.  Bad adaptive keys name file:line.
. "$(dirname "$0")/lib.sh"

cfg() { # cfg FILE [LAB KEYS...]
	local f=$1; shift
	{
		echo "[lab]"
		echo "baseline = ext4"
		for k in "$@"; do echo "$k"; done
		cat <<EOT
[devices]
image_dir = $T/images
log_size = 512M
[workload]
threads = 2
db_size = 64M
duration = 3s
warmup = 1s
[fs ext4]
[fs xfs]
EOT
	} > "$f"
}
no_leftovers() {
	! losetup -n -O BACK-FILE | grep -q "$T/images" || fail "loop device left: $(losetup -a)"
	! findmnt -rn -o TARGET | grep -q "^$T" || fail "mount left: $(findmnt -rn | grep $T)"
}

log "dry run: the adaptive plan, nothing created"
cfg $T/loose.ini "precision = 1000%" "min_rounds = 3" "max_rounds = 5"
"$FSLAB" lab $T/loose.ini --output $T/out --dry-run > $T/dry.txt || { cat $T/dry.txt; fail "dry run failed"; }
grep -q "^Order shuffled, 5 round(s) at most of 2 cell(s)" $T/dry.txt || fail "plan line: $(head -3 $T/dry.txt)"
grep -q "^Adaptive: precision 1000 % (the widest claim MDE wanted), rounds 3 to 5" $T/dry.txt \
	|| fail "no adaptive line: $(head -5 $T/dry.txt)"
grep -q "so far: 0 whole round(s), 0 cell(s) done" $T/dry.txt || fail "no progress line"
grep -q "a cell: about .* (estimated), a round of 2 cell(s): about" $T/dry.txt || fail "no cost line"
grep -q -- "--lab-round=1 --lab-position=1 --lab-fresh-volume" $T/dry.txt || fail "no provenance options"
[ ! -e $T/out ] || fail "dry run created the output"

log "loose precision: killed in round 2, resumed, stops at min_rounds"
"$FSLAB" lab $T/loose.ini --output $T/out > $T/lab1.out 2>&1 &
pid=$!
for _ in $(seq 300); do
	grep -q "cell 3/10 [^ ]*: run" $T/out/lab.log 2>/dev/null && break
	sleep 0.2
done
grep -q "cell 3/10 [^ ]*: run" $T/out/lab.log || { cat $T/lab1.out; fail "lab never reached round 2"; }
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
id=$(jq -r .lab_id $T/out/lab-state.json)
[ -n "$id" ] && [ "$id" != null ] || fail "no lab id in the state"
# a state that claims the lab stopped (after 2 of 10 cells): --resume never trusts why a lab
# stopped, it looks at the results again (the claim ended the lab, and the report repeated it)
jq '.stop_reason = "precision 1 % reached after 1 rounds (forged)" | .checked_round = 9 |
    .rounds_done = 9' $T/out/lab-state.json > $T/forged.json && mv $T/forged.json $T/out/lab-state.json
"$FSLAB" lab $T/loose.ini --output $T/out --resume > $T/lab2.out 2>&1 || { cat $T/lab2.out; fail "resume failed"; }
cat $T/lab2.out
no_leftovers
! grep -q "forged" $T/lab2.out $T/out/report/report.md $T/out/lab-plan.json ||
	fail "the recorded stop_reason was trusted"
[ "$(grep -c ': already done, kept' $T/lab2.out)" -ge 2 ] || fail "resume redid round 1"
# the stop rule: every look before the stop was wider than asked, the stop was not
n=$(sed -n 's/.*adaptive lab stops: precision 1000 % reached after \([3-5]\) rounds.*/\1/p' $T/lab2.out)
[ -n "$n" ] || n=$(sed -n 's/.*adaptive lab stops: max_rounds \(5\) reached.*/\1/p' $T/lab2.out)
[ -n "$n" ] || fail "did not stop by precision or max_rounds"
[ "$n" -eq 3 ] || echo "note: a loaded machine: stopped after $n rounds, not 3"
for w in $(sed -n 's/.*round [0-9] of at most 5 done: the widest claim MDE \([0-9.]*\) %.*/\1/p' $T/lab2.out); do
	awk "BEGIN { exit !($w > 1000) }" || fail "went on from a look of $w % <= 1000 %"
done
[ "$(grep -c 'of at most 5 done' $T/lab2.out)" -eq $((n - 3)) ] || fail "not one look per round from round 3"
jqt $T/out/lab-state.json "[.cells[] | select(.status == \"done\")] | length == $((2 * n))"
jqt $T/out/lab-state.json "[.cells[] | select(.round > $n) | .status] | all(. == \"pending\")"
jqt $T/out/lab-state.json ".lab_id == \"$id\" and .rounds_done == $n"
P=$T/out/lab-plan.json
jqt $P ".lab_id == \"$id\" and .adaptive.precision_pct == 1000 and .adaptive.min_rounds == 3"
jqt $P ".adaptive.max_rounds == 5 and .adaptive.rounds_done == $n"
for f in $T/out/results/*.json; do
	jqt $f ".lab.id == \"$id\" and .lab.volume_formatted == true and .lab.database_created == true"
	jqt $f ".lab.round >= 1 and .lab.round <= $n and .lab.position >= 1 and .lab.position <= $((2 * n))"
	c=$(basename $f .json)
	jqt $f ".lab.cell == \"$c\""
done
[ "$(ls $T/out/results/*.json | wc -l)" -eq $((2 * n)) ] || fail "not $((2 * n)) results: $(ls $T/out/results)"
R=$T/out/report
jqt $R/compare.json ".method.name == \"blocked\" and .method.rounds == $n"
jqt $R/compare.json ".method.lab_id == \"$id\" and .adaptive.precision_pct == 1000"
jqt $R/compare.json '.noise.cell_cv_pct > 0 and (.noise.fixed_seconds_per_cell > 0)'
jqt $R/compare.json '[.rows[] | select(.id == "trans_iops") | .cells[1].delta.blocked] == [true]'
grep -q "Adaptive lab: \(precision 1000 % reached after $n rounds\|max_rounds 5 reached\)" $R/report.md || fail "report does not say why it stopped"
grep -q "blocked t-test" $R/report.md || fail "report is not blocked"
grep -q "Runs, xfs: $n lab runs (lab $id, rounds 1-$n), each on a volume the lab formatted for it" $R/report.md \
	|| fail "Method does not say how the runs were made: $(grep 'Runs, ' $R/report.md)"
grep -q "Where the noise is" $R/report.md || fail "no noise decomposition"
grep -q "Advice (your precision, 1000 %)" $R/report.md || fail "no advice"
# the loop devices' images are allocated before each cell and not discarded (not sparse)
grep -q "^- Discarded before mkfs: no: new images with their blocks allocated before the run (mkfs told not to discard them either)" \
	$R/report.md || fail "Setup on the images: $(grep 'Discarded before' $R/report.md)"
jqt $T/out/results/$(ls $T/out/results | head -1) '.environment.prep.volumes.log.image_blocks == "written" and .environment.prep.volumes.db.image_blocks == "allocated" and .environment.prep.volumes.db.discarded == false'


log "a resumed stopped lab looks again, stops for the same reason, runs nothing"
why=$(jq -r .stop_reason $T/out/lab-state.json)
"$FSLAB" lab $T/loose.ini --output $T/out --resume > $T/lab3.out 2>&1 || { cat $T/lab3.out; fail "resume after stop failed"; }
grep -qF "adaptive lab stops: $why" $T/lab3.out || fail "stopped lab not stopped again by '$why'"
! grep -q ": prep \|: run " $T/lab3.out || fail "a stopped lab ran a cell"
no_leftovers

log "unreachable precision: the budget stops it"
cfg $T/budget.ini "precision = 1%" "min_rounds = 2" "max_rounds = 10" "budget = 1m"
"$FSLAB" lab $T/budget.ini --output $T/outb > $T/labb.out 2>&1 || { cat $T/labb.out; fail "budget lab failed"; }
cat $T/labb.out
no_leftovers
grep -q "adaptive lab stops: budget spent: the widest claim MDE .* > precision 1 % after [23] rounds; the next round (about .*) would not fit the 00:01:00 budget" $T/labb.out \
	|| fail "the budget did not stop it"
jqt $T/outb/lab-plan.json '.adaptive.stop_reason | startswith("budget spent")'
grep -q "Adaptive lab: budget spent" $T/outb/report/report.md || fail "report does not say the budget stopped it"

log "bad adaptive keys: file:line"
bad_cfg() { # bad_cfg LINE NEEDLE (config on stdin)
	cat > $T/bad.ini
	expect_status 2 "$FSLAB" lab $T/bad.ini --output $T/never
	grep -q "$T/bad.ini:$1: .*$2" $T/stderr || fail "expected bad.ini:$1 ... $2, got: $(cat $T/stderr)"
	[ ! -e $T/never ] || fail "bad config created the output"
}
printf '[lab]\nprecision = 10%%\nrepeats = 3\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 3 "either repeats"
printf '[lab]\nbudget = 1h\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 2 "add precision"
printf '[lab]\nprecision = lots\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 2 "precision = 'lots'"
printf '[lab]\nprecision = 5%%\nmin_rounds = 6\nmax_rounds = 4\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 4 "min_rounds 6 is more than max_rounds 4"
printf '[lab]\nprecision = 5%%\norder = sequential\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 2 "not sequential"
printf '[lab]\nprecision = 5%%\nbudget = 10s\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 3 "at least 1m"
echo "all good"
