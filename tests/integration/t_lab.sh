#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab: a tiny lab end to end (two filesystems, two thread counts, loop devices): report,
# charts and per-cell results; SIGINT mid-cell leaves no mount or loop device and the lab
# resumes to completion without redoing finished cells; bad configs name file:line.
. "$(dirname "$0")/lib.sh"

cfg() { # cfg FILE DURATION
	cat > "$1" <<EOT
[lab]
title = tiny lab
baseline = ext4
order = interleaved   ; fixed positions for the assertions (t_lab_ab tests shuffling)
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2,4
db_size = 128M
duration = $2
warmup = 1s
[fs ext4]
[fs xfs]
EOT
}
no_leftovers() {
	! losetup -n -O BACK-FILE | grep -q "$T/images" || fail "loop device left: $(losetup -a)"
	! findmnt -rn -o TARGET | grep -q "^$T" || fail "mount left: $(findmnt -rn | grep $T)"
	[ -z "$(ls -A $T/images 2>/dev/null)" ] || fail "images left: $(ls $T/images)"
}

log "dry run changes nothing"
cfg $T/lab.ini 3s
"$FSLAB" lab $T/lab.ini --output $T/out --dry-run > $T/dry.txt || fail "dry run failed"
grep -q "cell 4/4 xfs-4t-r1" $T/dry.txt || fail "dry run plan: $(cat $T/dry.txt)"
grep -q "fslab prep --fs xfs --image-dir" $T/dry.txt || fail "dry run lacks the prep command"
[ ! -e $T/out ] || fail "dry run created $T/out"

log "full lab"
"$FSLAB" lab $T/lab.ini --output $T/out > $T/lab.out 2>&1 || { cat $T/lab.out; fail "lab failed"; }
cat $T/lab.out
no_leftovers
for c in ext4-2t-r1 ext4-4t-r1 xfs-2t-r1 xfs-4t-r1; do
	r=$T/out/results/$c.json
	jqt $r '.aborted == false and .classes.db_read.ops > 0'
done
jqt $T/out/results/xfs-4t-r1.json '.label == "xfs-4t" and .config.threads == 4'
jqt $T/out/results/xfs-4t-r1.json '.environment.prep.fs == "xfs" and .environment.volumes[0].fstype == "xfs"'
jqt $T/out/results/ext4-2t-r1.json '.config.seed == 1 and .config.duration_s == 3'
jqt $T/out/lab-state.json '[.cells[].status] == ["done", "done", "done", "done"]'
grep -q "cell 2/4 ext4-4t-r1: prep ext4" $T/out/lab.log || fail "lab.log lacks steps"
grep -q "compare: 4 result(s)" $T/out/lab.log || fail "lab.log lacks the compare step"
for f in report.md report.html tables.csv compare.json; do
	[ -s $T/out/report/$f ] || fail "report file $f missing"
done
for lbl in ext4-2t ext4-4t xfs-2t xfs-4t; do
	grep -q "$lbl" $T/out/report/report.md || fail "report.md does not mention $lbl"
done
grep -q "scaled from" $T/out/report/report.md || fail "no thread-sweep sentence"
for ch in iops sweep timeline-iops; do
	[ "$(head -c 8 $T/out/report/charts/$ch.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
		|| fail "chart $ch.png is not a PNG"
	grep -q "<svg" $T/out/report/charts/$ch.svg || fail "chart $ch.svg is not SVG"
done
grep -q "<svg" $T/out/report/report.html || fail "report.html has no inline charts"
grep -q "Report: $T/out/report/report.html" $T/lab.out || fail "lab does not say where the report is"

log "an existing lab is not overwritten without --resume"
expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/out
grep -q -- "--resume" $T/stderr || fail "no hint about --resume"

log "SIGINT mid-cell, then --resume"
cfg $T/lab2.ini 6s
"$FSLAB" lab $T/lab2.ini --output $T/out2 > $T/lab2.out 2>&1 &
pid=$!
for _ in $(seq 150); do grep -q "cell 2/4 ext4-4t-r1: run" $T/out2/lab.log 2>/dev/null && break; sleep 0.2; done
grep -q "cell 2/4 ext4-4t-r1: run" $T/out2/lab.log || { cat $T/lab2.out; fail "lab never reached cell 2"; }
sleep 2
kill -INT $pid
rc=0; wait $pid || rc=$?
cat $T/lab2.out
[ $rc -eq 1 ] || fail "interrupted lab exited $rc, expected 1"
no_leftovers
jqt $T/out2/lab-state.json '[.cells[].status] == ["done", "interrupted", "pending", "pending"]'
grep -q -- "--resume" $T/lab2.out || fail "no resume hint printed"
[ -s $T/out2/results/ext4-2t-r1.json ] || fail "finished cell's result lost"
sum1=$(md5sum < $T/out2/results/ext4-2t-r1.json)
# a changed config cannot be resumed
cfg $T/lab2-changed.ini 7s
cp $T/lab2-changed.ini $T/lab2-copy.ini
expect_status 2 "$FSLAB" lab $T/lab2-changed.ini --output $T/out2 --resume
grep -q "changed" $T/stderr || fail "changed config not refused clearly"
"$FSLAB" lab $T/lab2.ini --output $T/out2 --resume > $T/lab3.out 2>&1 || { cat $T/lab3.out; fail "resume failed"; }
cat $T/lab3.out
grep -q "cell 1/4 ext4-2t-r1: already done, kept" $T/lab3.out || fail "finished cell was redone"
[ "$(md5sum < $T/out2/results/ext4-2t-r1.json)" = "$sum1" ] || fail "finished result changed"
jqt $T/out2/lab-state.json '[.cells[].status] == ["done", "done", "done", "done"]'
[ -s $T/out2/report/report.md ] || fail "no report after resume"
no_leftovers

log "two SIGINTs: faster, still clean"
"$FSLAB" lab $T/lab2.ini --output $T/out3 > $T/lab4.out 2>&1 &
pid=$!
for _ in $(seq 150); do grep -q "cell 1/4 ext4-2t-r1: run" $T/out3/lab.log 2>/dev/null && break; sleep 0.2; done
sleep 1
# the first may already have ended it (its steps stop within a fraction of a second)
kill -INT $pid; sleep 0.05; kill -INT $pid 2>/dev/null || true
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] || fail "double-interrupted lab exited $rc"
no_leftovers

log "bad configs: file:line"
bad_cfg() { # bad_cfg LINE NEEDLE  (config on stdin)
	cat > $T/bad.ini
	expect_status 2 "$FSLAB" lab $T/bad.ini --output $T/never
	grep -q "$T/bad.ini:$1: .*$2" $T/stderr || fail "expected bad.ini:$1 ... $2, got: $(cat $T/stderr)"
	[ ! -e $T/never ] || fail "bad config created the output"
}
printf '[devices]\nimage_dir = %s\n[workload]\nthreds = 4\n[fs ext4]\n' $T/images | bad_cfg 4 "unknown key 'threds'"
printf '[lab]\n[devices]\n[workload]\n[fs ext4]\n' | bad_cfg 2 "missing device"
printf '[devices]\nimage_dir = %s\n[workload]\nduration = 0\n[fs ext4]\n' $T/images | bad_cfg 4 "duration"
printf '[devices]\nimage_dir = %s\n[workload]\nthreads = 4,0\n[fs ext4]\n' $T/images | bad_cfg 4 "0 is not a valid thread count"
# a device that does not exist: preflight names the line, nothing changes
printf '[devices]\ndb_dev = /dev/nonexistent-fslab\nlog_dev = /dev/nonexistent-fslab2\n[workload]\n[fs ext4]\n' \
	| bad_cfg 2 "nonexistent-fslab"
echo "all good"
