#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_raw: a lab with raw_baseline = yes runs the load on the raw loop devices first and
# compares each filesystem against that baseline (its overhead).
. "$(dirname "$0")/lib.sh"

cat > $T/lab.ini <<EOT
[lab]
title = overhead against the raw devices
raw_baseline = yes
order = interleaved   ; fixed positions for the assertions (t_lab_ab tests shuffling)
[devices]
image_dir = $T/images
db_size = 768M
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 3s
warmup = 1s
[fs ext4]
EOT
"$FSLAB" lab $T/lab.ini --output $T/out > $T/lab.out 2>&1 || { cat $T/lab.out; fail "lab failed"; }
cat $T/lab.out
grep -q "cell 1/2 raw-2t-r1: prep raw" $T/out/lab.log || fail "raw cell did not come first"
jqt $T/out/results/raw-2t-r1.json '.label == "raw" and .environment.volumes[0].raw == true and .aborted == false'
jqt $T/out/results/raw-2t-r1.json '.environment.volumes[0].source | startswith("/dev/loop")'
jqt $T/out/results/ext4-2t-r1.json '.label == "ext4" and .environment.volumes[0].fstype == "ext4"'
# the report compares ext4 against raw
grep -q "ext4 vs raw" $T/out/report/report.md || fail "report does not compare against raw"
! losetup -n -O BACK-FILE | grep -q "$T/images" || fail "loop device left"
! findmnt -rn -o TARGET | grep -q "^$T" || fail "mount left"

# on a terminal: a live line with the cell, i of n, ETAs and IOPS
rm -rf $T/out
script -qec "$FSLAB lab $T/lab.ini --output $T/out" /dev/null > $T/tty 2>&1 || fail "lab on a tty failed"
grep -q "\[cell 2/2 ext4-2t-r1\] run .*lab ETA" $T/tty || fail "no live line: $(tail -c 600 $T/tty)"
grep -q "IOPS" $T/tty || fail "live line without IOPS"
echo "all good"
