#!/bin/bash
# SPDX-License-Identifier: MIT
# t_windows_lab: fslab.exe lab under Wine (issue 18 item 2): a lab on directories (labels on
# volumes the user prepared), 2 labels x 2 rounds with an A/A copy, through the Windows step
# runner (CreateProcessW, a job object per step, stdin as the stop channel): every result
# created afresh and marked as such, the report; Ctrl-C (Wine turns SIGINT into CTRL_C_EVENT)
# stops the running cell through its stdin (its result says "the end of standard input"),
# the state and stderr give the resume command for cmd.exe, --resume finishes; kill -9 of the
# lab takes its running step with it (the job object), the next start says the lab was
# killed, --resume finishes; a disk lab's dry run prints each cell's PowerShell script (golden
# files in tests/expected/windows/), and the same lab for real is refused before any cell,
# since Wine's powershell.exe has no storage cmdlets.  Only behaviour is asserted: Wine opens
# files buffered and calls every filesystem NTFS.
. "$(dirname "$0")/lib.sh"

cd "$FSLAB_TOP"
scripts/deps.sh wine >"$T/deps.log" 2>&1 ||
	skip "the cross toolchain or Wine cannot be installed here ($(tail -1 "$T/deps.log"))"
make --no-print-directory -j2 windows >"$T/build.log" 2>&1 || {
	grep -q 'fslab: apt-get source .* failed\|the Windows sysroot needs Debian source' "$T/build.log" &&
		skip "the Debian source packages for the Windows sysroot cannot be fetched: $(grep 'fslab:' "$T/build.log" | tail -1)"
	tail -30 "$T/build.log"
	fail "make windows failed"
}
. tests/wine-env.sh
EXE=$FSLAB_TOP/build/win/fslab.exe
W() { printf 'Z:%s' "$1" | tr / '\\'; } # a Linux path as fslab.exe sees it
OUT=$T/out
# built without inih (no source of it on this mirror: docs/WINDOWS.md): the lab refuses, exit 2
[ -f build/win/sysroot/lib/libinih.a ] || {
	echo '[lab]' > "$T/probe.ini"
	set +e
	timeout 120 "$WINE" "$EXE" lab "$(W "$T/probe.ini")" > "$T/probe.out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] && grep -q "built without inih" "$T/probe.out" ||
		{ cat "$T/probe.out"; fail "fslab.exe without inih: exit $rc, want 2 naming inih"; }
	skip "fslab.exe was built without inih (no source of it on this mirror): its refusal checked"
}

cat > $T/lab.ini <<EOT
[lab]
title = fslab.exe on directories
repeats = 2
aa_check = yes
order = interleaved
[workload]
threads = 2
db_size = 32M
duration = 3s
warmup = 1s
sample_interval = 2s
[fs dira]
db_dir = $(W $T/vol/a/db)
log_dir = $(W $T/vol/a/log)
[fs dirb]
db_dir = $(W $T/vol/b/db)
log_dir = $(W $T/vol/b/log)
EOT
lab() { timeout --kill-after=10 600 "$WINE" "$EXE" lab "$(W $T/lab.ini)" --output "$(W $OUT)" "$@"; }
# the cell that runs now (lab-state.json), its run's log
running() { jq -r '.cells[] | select(.status == "running") | .id' $OUT/lab-state.json 2>/dev/null; }
wait_load() { # wait_load: until a cell's run has initialised its database; prints the cell
	local c
	for _ in $(seq 600); do
		c=$(running)
		[ -n "$c" ] && grep -qs "initialised at" $OUT/logs/$c.run.log && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}
win_runs() { pgrep -f 'fslab.exe.* run ' || true; }

log "fslab.exe lab: 2 labels x 2 rounds + A/A on directories"
rc=0
lab >$T/lab1.out 2>$T/lab1.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "lab exited $rc: $(tail -20 $T/lab1.err)"
jqt $OUT/lab-state.json '[.cells[].status] == ["done","done","done","done","done","done"]'
jqt $OUT/lab-state.json '.lab.status == "finished"'
jqt $OUT/lab-plan.json '.aa_check == true and ([.cells[].label] | sort) == ["dira","dira","dira-aa","dira-aa","dirb","dirb"]'
for f in $OUT/results/*.json; do
	jqt $f '.aborted == false and .init.created == 1 and .init.reused == 0 and .config.engine == "win32"'
	jqt $f '[.notes[] | select(test("volumes prepared by the user"))] | length == 1'
	jqt $f '(.environment.wine | type) == "string"'
done
grep -q 'Report: .*report.html' $T/lab1.out || fail "no report announced: $(tail $T/lab1.out)"
[ -s $OUT/report/report.md ] && [ -s $OUT/report/report.html ] || fail "no report"
grep -q 'dira-aa' $OUT/report/report.md || fail "the A/A copy is not in the report"
# the progress lines went to the live line, not into the logs
! grep -q fslab_progress $OUT/logs/*.run.log || fail "progress lines in a run log"
grep -q "Result: " $OUT/logs/dira-2t-r1.run.log || fail "the run's summary is not in its log"
# only fslab's files in the directories, each made again by the last cell that used them
[ "$(ls $T/vol/a/db)" = "fslab-db1.edb" ] || fail "dira db: $(ls $T/vol/a/db)"

log "Ctrl-C: the running cell stops through its stdin, then --resume"
rm -rf $OUT
"$WINE" "$EXE" lab "$(W $T/lab.ini)" --output "$(W $OUT)" >$T/lab2.out 2>$T/lab2.err &
pid=$!
c=$(wait_load) || { kill -9 $pid 2>/dev/null || true; fail "no cell started: $(tail $T/lab2.err; jq -c "[.cells[].status]" $OUT/lab-state.json)"; }
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 1 ] || fail "interrupted lab: exit $rc, want 1: $(tail -5 $T/lab2.err)"
jqt $OUT/lab-state.json '.lab.status == "interrupted" and .lab.signal == "Ctrl-C"'
jqt $OUT/lab-state.json "[.cells[] | select(.id == \"$c\") | .status] == [\"interrupted\"]"
jqt $OUT/results/$c.json '.aborted == true and .abort_reason == "interrupted by the end of standard input"'
grep -q "lab interrupted by Ctrl-C" $T/lab2.err || fail "no interruption message: $(tail -3 $T/lab2.err)"
# the command to continue, for cmd.exe (no POSIX quotes)
grep -q "continue with: fslab.exe lab $(W $T/lab.ini | sed 's/\\/\\\\/g') --output $(W $OUT | sed 's/\\/\\\\/g') --resume" $T/lab2.err ||
	fail "resume command: $(grep 'continue with' $T/lab2.err)"
[ -z "$(win_runs)" ] || fail "a run outlived the interrupted lab: $(win_runs)"
rc=0
lab --resume >$T/lab3.out 2>$T/lab3.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "resume exited $rc: $(tail $T/lab3.err)"
grep -q "resuming: the previous lab in .* was interrupted by Ctrl-C" $T/lab3.out ||
	fail "resume did not say how the lab ended: $(head $T/lab3.out)"
jqt $OUT/lab-state.json '.lab.status == "finished" and ([.cells[].status] | unique) == ["done"]'
jqt $OUT/results/$c.json '.aborted == false'

log "kill -9 of the lab: its running step dies with it (job object), then --resume"
rm -rf $OUT
"$WINE" "$EXE" lab "$(W $T/lab.ini)" --output "$(W $OUT)" >$T/lab4.out 2>$T/lab4.err &
pid=$!
c=$(wait_load) || { kill -9 $pid 2>/dev/null || true; fail "no cell started: $(tail $T/lab4.err; jq -c "[.cells[].status]" $OUT/lab-state.json)"; }
[ -n "$(win_runs)" ] || fail "no fslab.exe run while cell $c loads"
kill -9 $pid
wait $pid 2>/dev/null || true
for _ in $(seq 100); do [ -z "$(win_runs)" ] && break; sleep 0.1; done
[ -z "$(win_runs)" ] || fail "the run survived kill -9 of the lab: $(win_runs)"
rc=0
lab >$T/lab5.out 2>$T/lab5.err || rc=$?
[ $rc -eq 2 ] || fail "a killed lab's directory was not refused ($rc)"
grep -q "stopped without finishing (fslab lab, pid [0-9]*, was killed while cell $c ran)" $T/lab5.err ||
	fail "next start: $(grep -v '^wine' $T/lab5.err)"
rc=0
lab --resume >$T/lab6.out 2>$T/lab6.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "resume exited $rc: $(tail $T/lab6.err)"
jqt $OUT/lab-state.json '.lab.status == "finished" and ([.cells[].status] | unique) == ["done"]'

log "a Windows disk lab: each cell's PowerShell in the dry run (golden), refused for real"
cp tests/fixtures/windows/disks-fresh.json $T/
cat > $T/disk.ini <<EOT
[lab]
repeats = 1
order = interleaved
[devices]
db_disk = 1
log_disk = 2
disk_info = $(W $T/disks-fresh.json)
[workload]
db_size = 1G
duration = 2h
[fs ntfs]
cluster = 64K
[fs refs]
EOT
DOUT=$T/diskout
rc=0
timeout 120 "$WINE" "$EXE" lab "$(W $T/disk.ini)" --output "$(W $DOUT)" --dry-run >$T/dry.out \
	2>$T/dry.err || rc=$?
[ $rc -eq 2 ] || fail "dry run of a disk lab under Wine: exit $rc, want 2 (the preflight)"
grep -q "powershell.exe (exit [0-9]*) did not find Get-Disk" $T/dry.err ||
	fail "no PowerShell refusal: $(grep -v '^wine' $T/dry.err)"
tr -d '\r' <$T/dry.out | sed "s|$(W $DOUT | sed 's/\\/\\\\/g')|@OUT@|g" >$T/dry.txt
# the script of each cell: from its header line to the line before its run
for fs in ntfs refs; do
	awk -v want="# fslab prep (Windows): $( [ $fs = ntfs ] && echo NTFS || echo ReFS) on" '
		index($0, want) == 1 { on = 1 }
		on && /^  fslab.exe run / { exit }
		on { print }' $T/dry.txt >$T/cell-$fs.ps1
	diff -u tests/expected/windows/lab-cell-$fs.ps1 $T/cell-$fs.ps1 >$T/cell.diff ||
		fail "cell script $fs differs from tests/expected/windows/lab-cell-$fs.ps1: $(head -30 $T/cell.diff)"
done
grep -q "fslab.exe prep --fs refs --db-disk=1 --log-disk=2 --mount-root @OUT@\\\\mnt$" $T/dry.txt ||
	fail "the refs cell's prep: $(grep 'prep --fs refs' $T/dry.txt)"
grep -q "fslab.exe run --db=@OUT@\\\\mnt\\\\db --log=@OUT@\\\\mnt\\\\log " $T/dry.txt ||
	fail "the cells' run: $(grep 'fslab.exe run' $T/dry.txt | head -1)"
rc=0
timeout 120 "$WINE" "$EXE" lab "$(W $T/disk.ini)" --output "$(W $DOUT)" >$T/real.out 2>$T/real.err || rc=$?
[ $rc -eq 2 ] || fail "a disk lab without PowerShell's storage cmdlets: exit $rc, want 2"
grep -q "disk_info previews the per-cell scripts with --dry-run" $T/real.err ||
	fail "disk_info in a real lab not refused: $(grep -v '^wine' $T/real.err)"
[ ! -e $DOUT ] || fail "a refused lab created $DOUT"
echo "all good"
