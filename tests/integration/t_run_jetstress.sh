#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_jetstress: 10-second Jetstress-like runs on ext4 and XFS (loop devices, separate
# database and log volumes) produce valid results with the Jetstress shape; a page corrupted
# on disk is reported as a checksum error and fails the verdict.
. "$(dirname "$0")/lib.sh"
command -v mkfs.xfs >/dev/null || fail "mkfs.xfs missing (xfsprogs); make check installs it"

for fs in ext4 xfs; do
	log "$fs"
	db=$(new_loop 1500M)
	lg=$(new_loop 600M)
	case $fs in
	ext4) for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done ;;
	xfs) for d in $db $lg; do mkfs.xfs -q -f $d; done ;;
	esac
	mkdir -p $T/$fs/db $T/$fs/log
	mount -o noatime $db $T/$fs/db && track_mount $T/$fs/db
	mount -o noatime $lg $T/$fs/log && track_mount $T/$fs/log
	r=$T/$fs.json
	rc=0
	"$FSLAB" run --db $T/$fs/db --log $T/$fs/log --duration 10s --warmup 1s --db-size 1G \
		--threads 4 --output $r >$T/$fs.out 2>$T/$fs.err || rc=$?
	cat $T/$fs.out
	# 0 = PASS; 3 = the verdict failed on a loaded machine (latency), still a valid run
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/$fs.err; fail "$fs: fslab run exited $rc"; }
	grep -q "Achieved transactional I/O per second" $T/$fs.out || fail "no Jetstress summary"

	jqt $r '.schema == "fslab-result/1" and .aborted == false'
	jqt $r ".label == \"$fs\""
	jqt $r ".environment.volumes[0].fstype == \"$fs\" and .environment.volumes[1].role == \"log\""
	jqt $r '.duration_s >= 9.9 and .duration_s < 12'
	jqt $r '.init.created == 1 and .init.mbps > 0'
	# the Jetstress shape: database reads:writes between 3:2 and 2:1
	jqt $r '.classes.db_read.ops > 1000 and .classes.db_write.ops > 500'
	jqt $r '(.classes.db_read.ops / .classes.db_write.ops) as $x | $x >= 1.5 and $x <= 2.0'
	jqt $r '.classes.db_read.min_bytes == 32768 and .classes.db_read.max_bytes == 32768'
	jqt $r '.classes.db_write.avg_bytes == 32768'
	# log writes: sequential, 4-64 KiB
	jqt $r '.classes.log_write.ops > 100'
	jqt $r '.classes.log_write.min_bytes >= 4096 and .classes.log_write.max_bytes <= 65536'
	jqt $r '[.instances[].log_nonsequential] | add == 0'
	jqt $r '.instances[0].log_rolls > 0'
	jqt $r '.classes.bdm_read.ops > 0 and .classes.bdm_read.avg_bytes == 262144'
	jqt $r '.transactional_iops > 0 and (.transactional_iops - .classes.db_read.iops - .classes.db_write.iops | fabs) < 0.01'
	jqt $r '[.classes[].errors] | add == 0'
	# verdict present, with value and limit for each check, per database and overall
	jqt $r '.verdict.pass != null and (.verdict.checks | length) >= 12'
	jqt $r '[.verdict.checks[] | select(.scope == "db1")] | length == 6'
	jqt $r '.verdict.checks[] | select(.name == "db_read_avg_latency" and .scope == "overall") | .limit == 20 and .value > 0'
	# device counters: non-zero, on the right devices, no cache serving the reads
	jqt $r "[.devices[] | select(.role == \"db\")][0] | .name == \"$(basename $db)\" and .read_bytes > 0 and .write_bytes > 0"
	jqt $r "[.devices[] | select(.role == \"log\")][0] | .name == \"$(basename $lg)\" and .write_bytes > 0 and .write_amplification > 0.5"
	jqt $r '[.devices[] | select(.role == "db")][0] | .cache_served_reads == false and .read_ratio > 0.8'
	# timeline: one row a second, per-class columns
	jqt $r '(.timeline.rows | length) >= 9 and (.timeline.rows | length) <= 11'
	jqt $r '.timeline.columns | index("db_read_ops") != null and index("log_write_lat_max_us") != null'
	jqt $r '.host.cpu_pct_avg > 0 and .host.fslab_rss_max > 0'
	jqt $r '.checksum.ran and .checksum.bad_pages == 0 and .checksum.pages == 32767'
	# nothing half-written left next to the result
	[ -z "$(ls $T/*.tmp.* 2>/dev/null)" ] || fail "temporary result file left behind"
done

log "corrupted page on disk"
dbf=$T/ext4/db/fslab-db1.edb
# flip one bit of page 1000 through the filesystem
off=$((1000 * 32768 + 12345))
b=$(dd if=$dbf bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 4)))" | dd of=$dbf bs=1 seek=$off count=1 conv=notrunc,fsync 2>/dev/null
r=$T/corrupt.json
rc=0
"$FSLAB" run --db $T/ext4/db --log $T/ext4/log --duration 3s --warmup 0 --db-size 1G \
	--threads 4 --output $r >$T/c.out 2>$T/c.err || rc=$?
cat $T/c.out
[ $rc -eq 3 ] || { cat $T/c.err; fail "corrupt database: expected exit 3 (verdict FAIL), got $rc"; }
jqt $r '.init.reused == 1 and .init.created == 0'
jqt $r '.checksum.bad_pages == 1 and (.checksum.first_bad | test("page 1000"))'
jqt $r '.verdict.pass == false'
jqt $r '[.verdict.checks[] | select(.name == "checksum_errors" and .scope == "overall")][0] | .pass == false and .value >= 1'
grep -q "checksum_errors" $T/c.out || fail "summary does not name the failing check"
echo "all good"
