#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_hup: a lab whose terminal goes away (the ssh session or terminal window closes: the
# kernel hangs up its pty, SIGHUP, and every later write to it fails with EIO) stops its cell
# cleanly like Ctrl-C: the run stops, teardown runs, nothing stays mounted or attached, the
# state is resumable and says so, lab.log says how to resume, the next start says the lab was
# interrupted by SIGHUP and how to resume, and --resume finishes it.  A lab whose output
# reader goes (`fslab lab ... | reader` and the reader exits: SIGPIPE) stops the same way
# instead of dying.  Issue 16 item 7.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || fail "script(1) missing (bsdutils)"
cat > $T/lab.ini <<EOT
[lab]
title = hang up
order = interleaved
repeats = 2
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 8s
warmup = 1s
[fs ext4]
EOT
no_leftovers() {
	! losetup -n -O BACK-FILE | grep -q "$T/images" || fail "$1: loop device left: $(losetup -a)"
	! findmnt -rn -o TARGET | grep -q "^$T/" || fail "$1: mount left: $(findmnt -rn | grep $T/)"
	[ -z "$(ls -A $T/images 2>/dev/null)" ] || fail "$1: images left: $(ls $T/images)"
}
grep_log() { grep -q -- "$2" "$1" 2>/dev/null; }
gone() { ! kill -0 "$1" 2>/dev/null; }

log "the terminal hangs up during a cell's load"
OUT=$T/out
# script(1) gives the lab a real terminal (a pty, the lab its session leader); killing script
# closes the pty's master side, as sshd does when a session drops
script -qec "exec $FSLAB lab $T/lab.ini --output $OUT" /dev/null > $T/script.out 2>&1 &
spid=$!
until_true 60 grep_log $OUT/logs/ext4-2t-r1.run.log "initialised at" ||
	{ cat $T/script.out; fail "the lab never reached the load"; }
labpid=$(jq -r .lab.pid $OUT/lab-state.json)
sleep 1
kill -9 $spid
wait $spid 2>/dev/null || true
until_true 60 gone $labpid || fail "the lab did not stop after the hangup"
no_leftovers "after the hangup"
grep -q "lab interrupted by SIGHUP" $OUT/lab.log || fail "lab.log: $(tail -5 $OUT/lab.log)"
grep -qF "continue with: fslab lab $T/lab.ini --output $OUT --resume" $OUT/lab.log ||
	fail "lab.log does not say how to resume: $(tail -3 $OUT/lab.log)"
jqt $OUT/lab-state.json '.lab.status == "interrupted" and .lab.signal == "SIGHUP"'
jqt $OUT/lab-state.json '[.cells[].status] == ["interrupted", "pending"]'
[ ! -e $OUT/results/ext4-2t-r1.json ] || jqt $OUT/results/ext4-2t-r1.json '.aborted == true'
grep -q "ext4-2t-r1: interrupted" $OUT/lab.log || fail "the cell was not stopped cleanly"

log "the next start says the lab was interrupted and how to resume"
expect_status 2 "$FSLAB" lab $T/lab.ini --output $OUT
grep -q "was interrupted by SIGHUP at .*, with 0 of 2 cell(s) done" $T/stderr || fail "next start: $(cat $T/stderr)"
grep -qF "continue it with: fslab lab $T/lab.ini --output $OUT --resume" $T/stderr ||
	fail "next start: no resume command: $(cat $T/stderr)"
"$FSLAB" lab $T/lab.ini --output $OUT --resume > $T/resume.out 2>&1 ||
	{ tail -20 $T/resume.out; fail "--resume failed"; }
grep -q "resuming: the previous lab in $OUT was interrupted by SIGHUP" $T/resume.out ||
	fail "the resumed lab does not say what it resumes: $(head -5 $T/resume.out)"
jqt $OUT/lab-state.json '[.cells[].status] == ["done", "done"] and .lab.status == "finished"'
[ -s $OUT/report/report.md ] || fail "no report after resume"
no_leftovers "after resume"

log "the reader of the lab's output goes: SIGPIPE stops the lab, it does not kill it"
OUT=$T/out2
rc=0
# the reader takes lines until the first cell's load starts, then exits; the lab's next line
# (the cell's end) meets a pipe without a reader
"$FSLAB" lab $T/lab.ini --output $OUT 2>&1 |
	while read -r l; do echo "$l" >> $T/read.txt; case $l in *": run "*) break ;; esac; done
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] || fail "SIGPIPE: the lab exited $rc (141: killed by SIGPIPE)"
no_leftovers "after SIGPIPE"
grep -q "lab interrupted by SIGPIPE" $OUT/lab.log || fail "lab.log: $(tail -5 $OUT/lab.log)"
grep -qF "continue with: fslab lab $T/lab.ini --output $OUT --resume" $OUT/lab.log ||
	fail "lab.log does not say how to resume"
jqt $OUT/lab-state.json '.lab.status == "interrupted" and .lab.signal == "SIGPIPE"'
jqt $OUT/lab-state.json '.cells[1].status == "pending"'
echo "all good"
