#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_prepared: a lab mixing a label on volumes the user prepared ([fs NAME] db_dir,
# log_dir: two directories on loop devices formatted and mounted by this test) with a label
# the lab preps (ext4 on images), 2 rounds (issue 18 item 1): the prepared volumes are never
# formatted (their filesystem UUID unchanged) nor unmounted, the files fslab did not make
# there are refused at first and, once allowed, left byte-identical, every cell creates its
# database afresh (a new file, init.created 1, reused 0) and its result says so; kill -9 of
# the lab during a prepared cell kills its run, and --resume finishes the lab.
. "$(dirname "$0")/lib.sh"

# the user's volumes: XFS for the database, ext4 for the log, mounted by the test
dbdev=$(new_loop 1G)
logdev=$(new_loop 512M)
mkfs.xfs -q "$dbdev"
mkfs.ext4 -q -F "$logdev"
mkdir -p $T/vol/db $T/vol/log
mount "$dbdev" $T/vol/db && track_mount $T/vol/db
mount "$logdev" $T/vol/log && track_mount $T/vol/log
uuid_db=$(blkid -p -s UUID -o value "$dbdev")
uuid_log=$(blkid -p -s UUID -o value "$logdev")
mkdir -p $T/vol/db/lab $T/vol/log/lab
# files fslab did not make, in both directories
echo "the user's notes" > $T/vol/db/lab/notes.txt
mkdir $T/vol/log/lab/keep && head -c 100000 /dev/urandom > $T/vol/log/lab/keep/data.bin
sums() { (cd $T/vol && sha256sum db/lab/notes.txt log/lab/keep/data.bin); }
before=$(sums)

OUT=$T/out
write_cfg() {
	cat > $T/lab.ini <<EOT
[lab]
title = prepared and prepped
repeats = 2
order = interleaved
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 3s
warmup = 1s
sample_interval = 2s
[fs user]
fs = xfs
db_dir = $T/vol/db/lab
log_dir = $T/vol/log/lab
$1
[fs ext4]
EOT
}

log "files fslab did not make: refused before anything, named, nothing changed"
write_cfg ""
expect_status 2 "$FSLAB" lab $T/lab.ini --output $OUT
grep -q "db_dir = $T/vol/db/lab holds 'notes.txt'" $T/stderr || fail "foreign file not named: $(cat $T/stderr)"
grep -q "log_dir = $T/vol/log/lab holds 'keep/'" $T/stderr || fail "foreign dir not named: $(cat $T/stderr)"
grep -q "allow_foreign_files = yes" $T/stderr || fail "the fix is not named: $(cat $T/stderr)"
[ ! -e $OUT ] || fail "a refused lab created its output"

log "fs = says what the volume holds: a wrong claim is refused"
write_cfg "allow_foreign_files = yes"
sed -i 's/^fs = xfs$/fs = btrfs/' $T/lab.ini
expect_status 2 "$FSLAB" lab $T/lab.ini --output $OUT
grep -q "fs = btrfs, but $T/vol/db/lab is on xfs" $T/stderr || fail "fs claim: $(cat $T/stderr)"

log "dry run: no prep for the prepared label, its run with --fresh"
write_cfg "allow_foreign_files = yes"
"$FSLAB" lab $T/lab.ini --output $OUT --dry-run >$T/dry 2>&1 || fail "dry run: $(cat $T/dry)"
grep -q "no prep: volumes you prepared" $T/dry || fail "dry run: $(cat $T/dry)"
grep -q -- "--db=$T/vol/db/lab --log=$T/vol/log/lab .*--fresh --allow-foreign-files" $T/dry ||
	fail "dry run's run argv: $(grep user $T/dry)"

log "the lab: 2 rounds x (user, ext4); kill -9 during a prepared cell, then --resume"
"$FSLAB" lab $T/lab.ini --output $OUT >$T/lab.out 2>&1 &
lab=$!
# interleaved: user-2t-r1 runs first
for _ in $(seq 600); do
	grep -qs "initialised at" $OUT/logs/user-2t-r1.run.log && break
	sleep 0.1
done
grep -qs "initialised at" $OUT/logs/user-2t-r1.run.log || fail "no load: $(tail $T/lab.out)"
kill -9 $lab
wait $lab 2>/dev/null || true
for _ in $(seq 50); do pgrep -f -- "--output=$OUT/results" >/dev/null || break; sleep 0.1; done
! pgrep -f -- "--output=$OUT/results" >/dev/null || fail "the run survived kill -9 of the lab"
mountpoint -q $T/vol/db && mountpoint -q $T/vol/log || fail "the user's volumes were unmounted"
rc=0
"$FSLAB" lab $T/lab.ini --output $OUT --resume >$T/resume.out 2>&1 || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "resume exited $rc: $(tail -20 $T/resume.out)"
grep -q "resuming: the previous lab in $OUT stopped without finishing" $T/resume.out ||
	fail "resume did not say how the lab ended: $(head $T/resume.out)"
jqt $OUT/lab-state.json '[.cells[].status] == ["done","done","done","done"] and .lab.status == "finished"'

log "the prepared volumes: same filesystems, still mounted, the user's files untouched"
[ "$(blkid -p -s UUID -o value "$dbdev")" = "$uuid_db" ] || fail "the database volume was reformatted"
[ "$(blkid -p -s UUID -o value "$logdev")" = "$uuid_log" ] || fail "the log volume was reformatted"
mountpoint -q $T/vol/db && mountpoint -q $T/vol/log || fail "the user's volumes were unmounted"
[ "$(sums)" = "$before" ] || fail "the user's files changed"
[ "$(ls $T/vol/db/lab | sort | tr '\n' ' ')" = "fslab-db1.edb notes.txt " ] ||
	fail "db_dir holds: $(ls $T/vol/db/lab)"
[ "$(ls $T/vol/log/lab | sort | tr '\n' ' ')" = "fslab-db1-logs keep " ] ||
	fail "log_dir holds: $(ls $T/vol/log/lab)"

log "every prepared cell created its database afresh, and its result says so"
for r in 1 2; do
	f=$OUT/results/user-2t-r$r.json
	jqt $f '.aborted == false and .init.created == 1 and .init.reused == 0'
	jqt $f '[.notes[] | select(test("volumes prepared by the user, not reformatted between repeats"))] | length == 1'
	jqt $f '.environment.prep == null'
	jqt $f ".environment.volumes[0].fstype == \"xfs\" and .environment.volumes[1].fstype == \"ext4\""
	grep -q "creating (--fresh)" $OUT/logs/user-2t-r$r.run.log || fail "round $r: not created afresh"
done
# round 2 deleted round 1's database and logs first (the kill left one more in between)
grep -q "$T/vol/db/lab: --fresh: deleted 1 database" $OUT/logs/user-2t-r2.run.log ||
	fail "round 2 did not delete the old database: $(head -5 $OUT/logs/user-2t-r2.run.log)"
# the prepped label still formats per cell
for r in 1 2; do
	jqt $OUT/results/ext4-2t-r$r.json '.environment.prep.fs == "ext4" and .init.created == 1'
done
grep -q "volumes prepared by the user, not reformatted between repeats" $OUT/report/report.md ||
	fail "the report does not say it"
! losetup -n -O BACK-FILE | grep -q "$T/images" || fail "the lab left a loop device"
! findmnt -rn -o TARGET | grep -q "^$OUT" || fail "the lab left a mount"
echo "all good"
