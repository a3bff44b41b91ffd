#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_ab: an honest A/B lab: two filesystems, two rounds, the A/A check.  The cells run in
# shuffled round-robin rounds (all of round 1 before round 2, each round ext4, xfs and ext4-aa
# once), the order and its clock seed are recorded in lab.log, lab-state.json and
# lab-plan.json, every label incl. ext4-aa has results, and --resume after the end runs
# nothing.  Dry runs check the interleaved and sequential orders, a pinned seed and the
# [workload] keys passed through to fslab run.
. "$(dirname "$0")/lib.sh"

cfg() { # cfg FILE [LAB KEYS...]: the tiny A/B lab
	local f=$1; shift
	{
		echo "[lab]"
		echo "title = tiny A/B"
		echo "repeats = 2"
		echo "aa_check = yes"
		for k in "$@"; do echo "$k"; done
		cat <<EOT
[devices]
image_dir = $T/images
log_size = 512M
[workload]
threads = 2
db_size = 64M
duration = 4s
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
# ids of the cells in the order the lines "<prefix> i/6 ...: <what>" appear in FILE
ids_in() { # ids_in FILE REGEX-WITH-ID-AS-\1
	sed -n "s/$2/\1/p" "$1"
}

log "dry runs: interleaved, sequential, a pinned seed; run keys passed through"
cfg $T/il.ini "order = interleaved"
"$FSLAB" lab $T/il.ini --output $T/never --dry-run > $T/dry.txt || { cat $T/dry.txt; fail "dry run failed"; }
got=$(sed -n 's/^cell [0-9]*\/6 \([^ ]*\) (round \([0-9]\).*/\1@\2/p' $T/dry.txt | tr '\n' ' ')
[ "$got" = "ext4-2t-r1@1 xfs-2t-r1@1 ext4-aa-2t-r1@1 ext4-2t-r2@2 xfs-2t-r2@2 ext4-aa-2t-r2@2 " ] \
	|| fail "interleaved order: $got"
grep -q -- "--label=ext4-aa " $T/dry.txt || fail "A/A cell not labelled ext4-aa"
grep -q -- "--output=$T/never/results/ext4-aa-2t-r2.json" $T/dry.txt || fail "A/A result path"
! grep -q -- "--sample-interval\|--thresholds\|--target-iops\|--mailboxes\|--strict-io-tail" $T/dry.txt \
	|| fail "run flags passed although not set"
cfg $T/seq.ini "order = sequential"
"$FSLAB" lab $T/seq.ini --output $T/never --dry-run > $T/dry.txt || fail "dry run failed"
got=$(sed -n 's/^cell [0-9]*\/6 \([^ ]*\) .*/\1/p' $T/dry.txt | tr '\n' ' ')
[ "$got" = "ext4-2t-r1 ext4-2t-r2 xfs-2t-r1 xfs-2t-r2 ext4-aa-2t-r1 ext4-aa-2t-r2 " ] \
	|| fail "sequential order: $got"
# seed 7 over (ext4, xfs, ext4-aa) x 2 rounds: the same order every time
cfg $T/pin.ini "order_seed = 7"
"$FSLAB" lab $T/pin.ini --output $T/never --dry-run > $T/dry1.txt || fail "dry run failed"
"$FSLAB" lab $T/pin.ini --output $T/never --dry-run > $T/dry2.txt || fail "dry run failed"
grep -q "^Order shuffled, 2 round(s) of 3 cell(s), seed 7$" $T/dry1.txt || fail "no seed line: $(head -3 $T/dry1.txt)"
cmp -s $T/dry1.txt $T/dry2.txt || fail "order_seed = 7 gave two orders"
cfg $T/keys.ini
sed -i 's/^warmup = 1s$/warmup = 1s\nsample_interval = 2s\nthresholds = lenient\nmax_latency_errors = 3\nmailboxes = 100\niops_per_mailbox = 0.5\nstrict_io_tail = yes/' $T/keys.ini
"$FSLAB" lab $T/keys.ini --output $T/never --dry-run > $T/dry.txt || { cat $T/dry.txt; fail "dry run failed"; }
for f in --sample-interval=2s --thresholds=lenient --max-latency-errors=3 --mailboxes=100 \
	 --iops-per-mailbox=0.5 --strict-io-tail; do
	[ "$(grep -c -- " $f " $T/dry.txt)" -eq 6 ] || fail "$f not passed to every fslab run"
done
[ ! -e $T/never ] || fail "dry run created the output"

log "shuffled A/B lab with A/A check"
cfg $T/lab.ini
"$FSLAB" lab $T/lab.ini --output $T/out > $T/lab.out 2>&1 || { cat $T/lab.out; fail "lab failed"; }
cat $T/lab.out
no_leftovers
L=$T/out/lab.log
grep -q "plan: order shuffled (.*), seed [0-9]* from the clock (\[lab\] order_seed = [0-9]* repeats this order), 2 round(s) of 3 cell(s)" $L \
	|| fail "lab.log lacks the plan header: $(grep plan: $L)"
seed=$(sed -n 's/.*plan: order shuffled (.*), seed \([0-9]*\) from the clock.*/\1/p' $L)
# the planned order, then the cells ran in exactly that order
plan=$(ids_in $L '.* plan [1-6]\/6 round [12]: \([^ ]*\) (label .*')
ran=$(ids_in $L '.* cell [1-6]\/6 \([^ ]*\): prep .*')
[ "$(echo $plan | wc -w)" -eq 6 ] || fail "lab.log does not plan 6 cells: $plan"
[ "$plan" = "$ran" ] || fail "cells ran in another order than planned: plan $plan, ran $ran"
# round 1 first (every cell of it), then round 2; each round ext4, xfs, ext4-aa once
rounds=$(sed -n 's/.* plan [1-6]\/6 round \([12]\): .*/\1/p' $L | tr -d '\n')
[ "$rounds" = 111222 ] || fail "rounds not contiguous: $rounds"
r1=$(echo $plan | tr ' ' '\n' | head -3 | sort | tr '\n' ' ')
r2=$(echo $plan | tr ' ' '\n' | tail -3 | sort | tr '\n' ' ')
[ "$r1" = "ext4-2t-r1 ext4-aa-2t-r1 xfs-2t-r1 " ] || fail "round 1: $r1"
[ "$r2" = "ext4-2t-r2 ext4-aa-2t-r2 xfs-2t-r2 " ] || fail "round 2: $r2"
grep -q "cell [1-6]/6 xfs-2t-r2: prep xfs (round 2/2, label xfs" $L || fail "cell line lacks its round"

# lab-plan.json: what the report's Method reads
P=$T/out/lab-plan.json
jqt $P '.schema == "fslab-lab-plan/1" and .order == "shuffled" and .rounds == 2 and .cells_per_round == 3'
jqt $P ".seed == $seed and .seed_source == \"clock\" and .aa_check == true"
jqt $P '(.cells | length) == 6 and [.cells[].position] == [1, 2, 3, 4, 5, 6]'
jqt $P '[.cells[].round] == [1, 1, 1, 2, 2, 2]'
jqt $P '[.cells[] | select(.round == 1) | .label] | sort == ["ext4", "ext4-aa", "xfs"]'
jqt $P '[.cells[] | select(.round == 2) | .label] | sort == ["ext4", "ext4-aa", "xfs"]'
jqt $P '[.cells[] | select(.label == "ext4-aa") | .aa_of] == ["ext4", "ext4"]'
jqt $P '[.cells[] | select(.label != "ext4-aa") | .aa_of] == [null, null, null, null]'
jqt $P '[.cells[] | select(.label == "ext4-aa") | .fs] == ["ext4", "ext4"]'
jqt $P 'all(.cells[]; .threads == 2 and .repeat == .round and (.result_file | startswith("results/")))'
[ "$(jq -r '[.cells[].id] | join(" ")' $P)" = "$(echo $plan)" ] || fail "lab-plan.json order differs from lab.log"
jqt $T/out/lab-state.json ".order == \"shuffled\" and .seed == $seed and .rounds == 2"
jqt $T/out/lab-state.json '[.cells[].status] == ["done", "done", "done", "done", "done", "done"]'
[ "$(jq -r '[.cells[].id] | join(" ")' $T/out/lab-state.json)" = "$(echo $plan)" ] || fail "state order differs"

# results for every label, the A/A copy formatted and initialised like the baseline
for f in $(jq -r '.cells[].result_file' $P); do
	jqt $T/out/$f '.aborted == false and .classes.db_read.ops > 0'
done
jqt $T/out/results/ext4-aa-2t-r1.json '.label == "ext4-aa" and .environment.prep.fs == "ext4"'
jqt $T/out/results/ext4-aa-2t-r2.json '.label == "ext4-aa" and .config.threads == 2'
jqt $T/out/results/xfs-2t-r2.json '.label == "xfs" and .environment.prep.fs == "xfs"'
[ "$(jq -r '.environment.prep.volumes.db.device' $T/out/results/ext4-aa-2t-r1.json)" != null ] || fail "A/A cell without prep"
grep -q "compare: 6 result(s)" $L || fail "compare did not get all 6 results"
[ -s $T/out/report/report.md ] || fail "no report.md"

log "--resume after the end runs nothing new, in the recorded order"
sums=$(cd $T/out/results && md5sum *.json)
lines=$(wc -l < $L)
"$FSLAB" lab $T/lab.ini --output $T/out --resume > $T/resume.out 2>&1 || { cat $T/resume.out; fail "resume failed"; }
cat $T/resume.out
[ "$(grep -c ': already done, kept' $T/resume.out)" -eq 6 ] || fail "resume did not keep all 6 cells"
! grep -q ": prep \|: run " $T/resume.out || fail "resume ran a cell again"
[ "$(cd $T/out/results && md5sum *.json)" = "$sums" ] || fail "resume changed a result"
tail -n +$((lines + 1)) $L > $T/log2
grep -q "seed $seed from the clock" $T/log2 || fail "resume did not keep the recorded seed"
[ "$(ids_in $T/log2 '.* plan [1-6]\/6 round [12]: \([^ ]*\) (label .*')" = "$plan" ] || fail "resume changed the order"
[ "$(ids_in $T/log2 '.* cell [1-6]\/6 \([^ ]*\): already done, kept')" = "$plan" ] || fail "resume walked another order"
[ "$(jq -r '[.cells[].id] | join(" ")' $P)" = "$(echo $plan)" ] || fail "lab-plan.json rewritten with another order"
jqt $P ".seed == $seed"

log "a changed order or seed is refused on --resume"
cfg $T/lab-seed.ini "order_seed = $seed"
expect_status 2 "$FSLAB" lab $T/lab-seed.ini --output $T/out --resume
grep -q "changed" $T/stderr || fail "changed config not refused clearly: $(cat $T/stderr)"
no_leftovers

log "bad order keys: file:line"
bad_cfg() { # bad_cfg LINE NEEDLE (config on stdin)
	cat > $T/bad.ini
	expect_status 2 "$FSLAB" lab $T/bad.ini --output $T/never
	grep -q "$T/bad.ini:$1: .*$2" $T/stderr || fail "expected bad.ini:$1 ... $2, got: $(cat $T/stderr)"
	[ ! -e $T/never ] || fail "bad config created the output"
}
printf '[lab]\norder = random\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 2 "order = 'random'"
printf '[lab]\naa_check = perhaps\n[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n' $T/images | bad_cfg 2 "aa_check"
printf '[devices]\nimage_dir = %s\n[workload]\nmailboxes = 5\n[fs ext4]\n' $T/images | bad_cfg 4 "iops_per_mailbox"
echo "all good"
