#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_backup: the backup workload (Jetstress's database backup test, workloads/backup.c) on
# real loop volumes: after a jetstress run it reads the same databases end to end in 512 KiB
# reads, every page verified, MB/s per database and overall in the result; a corrupt page is
# found and named; fslab compare shows its throughput and refuses it against other loads; a
# lab config's [workload] name = backup runs it; fslab export writes it for fio.  Root.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root"

dev=$(new_loop 1G)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" || fail "mkfs.ext4"
mkdir -p "$T/mnt"
mount "$dev" "$T/mnt" && track_mount "$T/mnt"
mkdir -p "$T/mnt/db" "$T/mnt/log"
db=$T/mnt/db
size=$((96 * 1024 * 1024))

log "jetstress first, then the backup of its databases"
# exit 3: its verdict failed (latencies on a busy machine), still a complete run
rc=0
"$FSLAB" run --db "$db" --log "$T/mnt/log" --databases 2 --threads 2 --db-size 96M \
	--duration 2s --warmup 0 --quiet --output "$T/js.json" >/dev/null || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "jetstress run (exit $rc)"
"$FSLAB" run --workload backup --db "$db" --databases 2 --db-size 96M --output "$T/b1.json" \
	>"$T/b1.out" || { cat "$T/b1.out"; fail "backup run"; }
jqt "$T/b1.json" '.config.workload == "backup" and .label == "ext4-backup" and .aborted == false'
# the jetstress run's databases, read whole: every byte once, in 512 KiB reads, 8 in flight
jqt "$T/b1.json" '.init.reused == 2 and .init.created == 0'
jqt "$T/b1.json" ".classes.db_read.bytes == 2 * $size and .classes.db_read.avg_bytes == 524288"
jqt "$T/b1.json" '.config.bs == 524288 and .config.iodepth == 8 and .config.warmup_s == 0'
# --threads (default 8) is capped at the databases: one sequential stream each
jqt "$T/b1.json" '.config.threads == 2 and .config.databases == 2'
jqt "$T/b1.json" '[.classes.db_write.ops, .classes.log_write.ops, .classes.bdm_read.ops] == [0, 0, 0]'
# every page verified, none bad
jqt "$T/b1.json" ".checksum.ran and .checksum.pages == 2 * $size / 32768 and .checksum.bad_pages == 0"
# MB/s per database (its own read time) and overall; no transactions, no verdict
jqt "$T/b1.json" '[.instances[] | .name] == ["db1", "db2"]'
jqt "$T/b1.json" ".instances | all(.classes.db_read.bytes == $size and .classes.db_read.mbps > 0 and .pass)"
jqt "$T/b1.json" '.classes.db_read.mbps > 0 and .transactional_iops == null and .verdict == null'
# the measurement ended with the backup, not with --duration (default 2h)
jqt "$T/b1.json" '.duration_s < 60 and .config.duration_s == 7200'
grep -q "^Database backup: .* MB/s in total, .* MB/s per database (average of 2)" "$T/b1.out" ||
	{ cat "$T/b1.out"; fail "the summary lacks the backup's throughput"; }
grep -q "^  db2 .* read, .* MB/s" "$T/b1.out" || fail "the summary lacks db2's throughput"

log "a corrupt page is found and named"
# page 100 of db2: flip bytes in its payload (the CRC covers it), through the page cache
printf 'XXXXXXXX' | dd of="$db/fslab-db2.edb" bs=1 seek=$((100 * 32768 + 4000)) conv=notrunc,fsync \
	status=none || fail "cannot corrupt the page"
"$FSLAB" run --workload backup --db "$db" --databases 2 --db-size 96M --label bad --quiet \
	--output "$T/bad.json" >/dev/null || fail "backup of a corrupt database"
jqt "$T/bad.json" '.checksum.bad_pages == 1 and (.checksum.first_bad | startswith("db2 page 100: "))'
jqt "$T/bad.json" '[.instances[] | .pass] == [true, false]'
jqt "$T/bad.json" 'any(.notes[]; contains("checksum error during the backup: db2 page 100"))'

log "compare: its throughput per database and overall; other loads refused"
dev2=$(new_loop 1G)
mkfs.xfs -q -f "$dev2" || fail "mkfs.xfs"
mkdir -p "$T/mnt2"
mount "$dev2" "$T/mnt2" && track_mount "$T/mnt2"
mkdir -p "$T/mnt2/db"
"$FSLAB" run --workload backup --db "$T/mnt2/db" --databases 2 --db-size 96M --quiet \
	--output "$T/b2.json" >/dev/null || fail "backup on xfs"
jqt "$T/b2.json" '.label == "xfs-backup" and .init.created == 2'
"$FSLAB" compare "$T/b1.json" "$T/b2.json" --format json >"$T/c.json" || fail "compare backups"
jqt "$T/c.json" '[.rows[] | select(.hidden | not) | .id] | index("db_read_throughput") != null'
jqt "$T/c.json" '.rows[] | select(.id == "db_read_throughput_per_db") | .cells | all(.mean > 0)'
# the overall row is the result's own figure
want=$(jq '.classes.db_read.mbps' "$T/b1.json")
jqt "$T/c.json" ".rows[] | select(.id == \"db_read_throughput\") | .cells[0].mean == $want"
# nothing to say: no transactions, no log writes
jqt "$T/c.json" '.rows[] | select(.id == "trans_iops" or .id == "log_write_iops") | .hidden'
"$FSLAB" compare "$T/b1.json" "$T/b2.json" >"$T/c.txt" || fail "compare text"
grep -q "^Database read throughput per database (MB/s)" "$T/c.txt" || { cat "$T/c.txt"; fail "no per-database row"; }
grep -q "^- .* database read throughput than" "$T/c.txt" ||
	{ cat "$T/c.txt"; fail "the summary does not lead with the throughput"; }
! grep -q "Jetstress-style verdict" "$T/c.txt" || fail "a verdict sentence for results without one"
expect_status 2 "$FSLAB" compare "$T/js.json" "$T/b1.json"
grep -q "workload backup vs jetstress" "$T/stderr" || { cat "$T/stderr"; fail "jetstress vs backup not refused naming the workload"; }
"$FSLAB" run --workload backup --db "$T/mnt2/db" --databases 2 --db-size 96M --iodepth 2 --quiet \
	--output "$T/b3.json" >/dev/null || fail "backup --iodepth 2"
expect_status 2 "$FSLAB" compare "$T/b2.json" "$T/b3.json" --label "$T/b3.json=d2"
grep -q ": iodepth 2 vs 8" "$T/stderr" || { cat "$T/stderr"; fail "iodepth not named"; }
"$FSLAB" compare "$T/b2.json" "$T/b3.json" --label "$T/b3.json=d2" --allow-mismatch >"$T/m.txt" ||
	fail "--allow-mismatch"
grep -q "^WARNING: differs from the reference .*iodepth 2 vs 8" "$T/m.txt" || { cat "$T/m.txt"; fail "no WARNING row"; }

log "fslab export: one sequential reader per database"
"$FSLAB" export --to fio --workload backup --db "$db" --databases 2 --db-size 96M \
	--output "$T/b.fio" || fail "export backup"
fio --parse-only "$T/b.fio" || fail "fio does not parse the backup export"
[ "$(grep -c '^\[fslab-db[12]\]$' "$T/b.fio")" -eq 2 ] || fail "two database jobs"
for k in rw=read bs=512k iodepth=8 size=$size; do
	grep -qx "$k" "$T/b.fio" || { cat "$T/b.fio"; fail "backup export lacks $k"; }
done
! grep -q '^time_based' "$T/b.fio" || fail "a backup reads each file once: no time_based"

log "a lab config's [workload] name = backup"
cat >"$T/lab.ini" <<EOT
[devices]
image_dir = $T/images
db_size = 512M
log_size = 512M
[workload]
name = backup
databases = 2
db_size = 64M
duration = 1m
[fs ext4]
EOT
mkdir -p "$T/images"
"$FSLAB" lab "$T/lab.ini" --output "$T/lab" >"$T/lab.out" 2>&1 || { cat "$T/lab.out"; fail "backup lab"; }
r=$T/lab/results/ext4-8t-r1.json
[ -f "$r" ] || r=$(ls "$T"/lab/results/*.json | head -1)
jqt "$r" '.config.workload == "backup" and .config.databases == 2 and .checksum.bad_pages == 0'
jqt "$r" ".classes.db_read.bytes == 2 * 64 * 1048576"
grep -q "Database read throughput" "$T/lab/report/report.md" || fail "the lab's report lacks the throughput"
printf '[devices]\nimage_dir = %s\n[workload]\nname = backup\nthresholds = lenient\n[fs ext4]\n' "$T/images" >"$T/bad.ini"
expect_status 2 "$FSLAB" lab "$T/bad.ini" --output "$T/lab2" --dry-run
grep -q "thresholds: only the jetstress workload has a verdict" "$T/stderr" || { cat "$T/stderr"; fail "verdict key with backup"; }
echo "t_run_backup: ok"
