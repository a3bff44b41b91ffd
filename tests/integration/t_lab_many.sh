#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_many: a lab of hundreds of cells hands every result to compare, with --output,
# --force, --lab-plan, --baseline and --title, and the report exists (issue 16 item 4: past
# 56 cells the lab's fixed 64-entry argv dropped arguments without a word, printed a report
# path and exited 0 with no report).  One real cell is run; its result, relabelled, is every
# cell of a 200-cell lab whose state says all are done, as the lab leaves it; --resume then
# runs only compare.  A compare that does not write the report the lab announces makes the
# lab fail loudly.
. "$(dirname "$0")/lib.sh"

N=${FSLAB_MANY_REPEATS:-100} # rounds of two labels: 2 x N cells
common() {
	cat <<EOT
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 2s
warmup = 1s
EOT
}
{ printf '[lab]\norder = interleaved\n'; common; printf '[fs ext4]\n'; } > $T/one.ini
{
	printf '[lab]\ntitle = many cells\nbaseline = ext4b\nrepeats = %s\norder = interleaved\n' $N
	common
	printf '[fs ext4]\n[fs ext4b]\nfs = ext4\n'
} > $T/many.ini

log "one real cell"
"$FSLAB" lab $T/one.ini --output $T/one > $T/one.out 2>&1 || { cat $T/one.out; fail "one-cell lab failed"; }
real=$T/one/results/ext4-2t-r1.json
jqt $real '.aborted == false and .classes.db_read.ops > 0'

log "a lab of $((2 * N)) finished cells, as the lab leaves its directory"
cp -a $T/one $T/many
rm -rf $T/many/report $T/many/results/* $T/many/lab-plan.json
# cells in run order (interleaved: round r is ext4 then ext4b), each result the real one
# under the cell's label, cell and round (one run counts once: a plain copy would be refused
# as the same run)
for l in ext4 ext4b; do
	for r in $(seq $N); do
		printf '%s %s\n' $l $r
	done
done | while read -r l r; do
	jq --arg l $l --argjson r $r '.label = $l | .lab.cell = "\($l)-2t-r\($r)" | .lab.round = $r' \
		$real > $T/many/results/$l-2t-r$r.json
done
jq -n --argjson n $N --arg dir $T/many/results '[range(1; $n + 1) as $r | ("ext4", "ext4b") as $l
	| {id: "\($l)-2t-r\($r)", label: $l, round: $r, status: "done",
	   result: "\($dir)/\($l)-2t-r\($r).json", seconds: 5.0}]
	| to_entries | map(.value.position = .key + 1 | .value)' > $T/cells.json
jq --rawfile text $T/many.ini --arg cfg $T/many.ini --argjson rounds $N --slurpfile cells $T/cells.json \
	'.config = $cfg | .config_text = $text | .rounds = $rounds | .cells = $cells[0]
	 | .lab.status = "interrupted"' $T/one/lab-state.json > $T/many/lab-state.json

log "--resume runs only compare, with every result"
k=$(( $(wc -l < $T/many/lab.log) + 1 ))
"$FSLAB" lab $T/many.ini --output $T/many --resume > $T/many.out 2>&1 ||
	{ tail -20 $T/many.out; tail -20 $T/many/logs/compare.log; fail "the resumed lab failed"; }
grep -q "compare: $((2 * N)) result(s)" $T/many/lab.log || fail "lab.log: $(grep compare: $T/many/lab.log)"
! tail -n +$k $T/many/lab.log | grep -q ": prep " || fail "a finished cell was run again"
for f in report.md report.html tables.csv compare.json; do
	[ -s $T/many/report/$f ] || fail "report/$f missing: $(tail -5 $T/many/logs/compare.log)"
done
j=$T/many/report/compare.json
jqt $j "[.groups[].files | length] == [$N, $N]"                     # every result
jqt $j "[.groups[].files[]] | unique | length == $((2 * N))"
jqt $j "[.groups[].files[]] | index(\"$T/many/results/ext4b-2t-r$N.json\") != null"
jqt $j '.title == "many cells"'                                      # --title
jqt $j '.baseline == "ext4b"'                                        # --baseline (not the first label)
grep -q "the lab's order = interleaved" $T/many/report/report.md || fail "--lab-plan not used"
grep -q "Report: $T/many/report/report.html" $T/many.out || fail "no report announced"
jqt $T/many/lab-state.json '.lab.status == "finished"'

log "a second --resume compares again over the existing report (--force)"
ino=$(stat -c %i $T/many/report/report.md)
"$FSLAB" lab $T/many.ini --output $T/many --resume > $T/many2.out 2>&1 ||
	{ tail -20 $T/many2.out; tail $T/many/logs/compare.log; fail "second compare failed"; }
[ "$(stat -c %i $T/many/report/report.md)" != "$ino" ] || fail "report.md was not rewritten"

log "a compare that does not write the report it announces fails the lab loudly"
rc=0
FSLAB_TEST_LAB_COMPARE_OUTPUT=$T/elsewhere "$FSLAB" lab $T/many.ini --output $T/many --resume \
	> $T/many3.out 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "the lab exited 0 without its report"
grep -q "did not write $T/many/report/report.md" $T/many3.out || fail "no message: $(tail -5 $T/many3.out)"
! grep -q "^Report:" $T/many3.out || fail "a report was announced"
grep -q "did not write" $T/many/lab.log || fail "lab.log does not say it"
echo "all good"
