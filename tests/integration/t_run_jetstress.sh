#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_jetstress: 10-second Jetstress-like runs on ext4 and XFS (loop devices, separate
# database and log volumes) produce valid results with the Jetstress shape; a page corrupted
# on disk is reported as a checksum error and fails the verdict; a 20-second run with two
# databases and --sample-interval 5s has 4 latency samples per database and overall, and the
# verdict checks of the chosen threshold set, tail and target.
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
	jqt $r '[.verdict.checks[] | select(.scope == "db1")] | length == 7'
	jqt $r '.verdict.checks[] | select(.name == "db_read_avg_latency" and .scope == "overall") | .limit == 20 and .value > 0'
	jqt $r '[.verdict.checks[] | .rule | type == "string"] | all'
	jqt $r '[.verdict.checks[] | select(.name == "db_page_fault_stalls")] | length == 2 and all(.unit == "/s" and .limit == 1 and .rule == "stalls/s <= 1")'
	jqt $r '[.verdict.checks[] | select(.name | test("io_tail|target_iops"))] | length == 0'
	# 10 s is shorter than the default 15 s interval: one partial sample, said in a note
	jqt $r '.config.sample_interval_s == 15 and .config.thresholds == "strict" and .config.max_latency_errors == 6 and .config.strict_io_tail == false and .config.target_iops == null'
	jqt $r '.latency_samples.interval_s == 15 and .latency_samples.partial == true and .latency_samples.intervals == 1'
	jqt $r '[.latency_samples.scopes[].scope] == ["db1", "overall"]'
	jqt $r '[.latency_samples.scopes[] | (.db_read_avg_ms | length), (.log_write_avg_ms | length)] | all(. == 1)'
	jqt $r '(.latency_samples.scopes[0].db_read_avg_ms[0]) as $s | .verdict.checks[] | select(.name == "db_read_max_latency" and .scope == "db1") | (.note | test("one partial sample")) and .value == $s'
	jqt $r '[.notes[] | select(test("shorter than one latency sample interval"))] | length == 1'
	jqt $r '.classes.db_read.ios_above_max_limit >= 0 and .instances[0].classes.log_write.ios_above_max_limit >= 0'
	jqt $r '(.db_page_fault_stalls | type == "number") and .instances[0].db_page_fault_stalls == .db_page_fault_stalls'
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

log "latency samples: 2 databases, 20 s, --sample-interval 5s, lenient, tail, target"
db=$(new_loop 1G)
lg=$(new_loop 400M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/s/db $T/s/log
mount -o noatime $db $T/s/db && track_mount $T/s/db
mount -o noatime $lg $T/s/log && track_mount $T/s/log
r=$T/samples.json
rc=0
"$FSLAB" run --db $T/s/db --log $T/s/log --duration 20s --warmup 1s --db-size 256M \
	--databases 2 --threads 4 --sample-interval 5s --thresholds lenient --max-latency-errors 2 \
	--strict-io-tail --target-iops 1 --no-checksum-pass --output $r >$T/s.out 2>$T/s.err || rc=$?
cat $T/s.out
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/s.err; fail "samples run: fslab run exited $rc"; }
jqt $r '.aborted == false and .duration_s >= 19.9'
jqt $r '.config.sample_interval_s == 5 and .config.thresholds == "lenient" and .config.max_latency_errors == 2 and .config.strict_io_tail == true'
jqt $r '.config.target_iops == 1 and .config.target_iops_origin == "target-iops" and .config.mailboxes == null'
jqt $r '.latency_samples.interval_s == 5 and .latency_samples.partial == false and .latency_samples.intervals == 4'
jqt $r '[.latency_samples.scopes[].scope] == ["db1", "db2", "overall"]'
# 4 full 5 s intervals, each with reads and log writes, per database and overall
jqt $r '[.latency_samples.scopes[] | (.db_read_avg_ms | length), (.log_write_avg_ms | length)] | all(. == 4)'
jqt $r '[.latency_samples.scopes[] | .db_read_avg_ms[], .log_write_avg_ms[]] | all(. > 0)'
# the overall sample lies between the databases' (it is their ops-weighted mean)
jqt $r '.latency_samples.scopes as $s | [range(4) | . as $i | [$s[0].db_read_avg_ms[$i], $s[1].db_read_avg_ms[$i]] | [min, max]] as $b | [range(4) | . as $i | $s[2].db_read_avg_ms[$i] >= $b[$i][0] - 1e-9 and $s[2].db_read_avg_ms[$i] <= $b[$i][1] + 1e-9] | all'
# checks: 9 per database and overall (tail included), target overall only; all with a rule
jqt $r '[.verdict.checks[] | select(.scope == "db1")] | length == 9'
jqt $r '[.verdict.checks[] | select(.scope == "db2")] | length == 9'
jqt $r '[.verdict.checks[] | select(.scope == "overall")] | length == 10'
jqt $r '[.verdict.checks[] | .rule | type == "string" and length > 0] | all'
jqt $r '[.verdict.checks[] | select(.name == "db_read_max_latency" or .name == "log_write_max_latency")] | length == 6 and all(.limit == 200 and .rule == "samples above limit <= 2" and (.note | test("of 4 samples \\(5 s averages\\) above 200 ms; 2 tolerated")))'
jqt $r '(.latency_samples.scopes[0].db_read_avg_ms | max) as $m | .verdict.checks[] | select(.name == "db_read_max_latency" and .scope == "db1") | .value == $m'
jqt $r '[.verdict.checks[] | select(.name == "db_read_io_tail" or .name == "log_write_io_tail")] | length == 6 and all(.unit == "count" and .limit == 2)'
jqt $r '(.classes.db_read.ios_above_max_limit) as $n | .verdict.checks[] | select(.name == "db_read_io_tail" and .scope == "overall") | .value == $n'
jqt $r '.transactional_iops as $t | .verdict.checks[] | select(.name == "target_iops") | .scope == "overall" and .limit == 1 and .unit == "IOPS" and .rule == "achieved >= target" and .pass == true and (.value - $t | fabs) < 1e-6'
jqt $r '([.instances[].db_page_fault_stalls] | add) == .db_page_fault_stalls'
grep -q "target_iops" $T/s.out || fail "summary does not show the target check"

log "target from mailboxes: unreachable target fails the verdict"
r=$T/target.json
rc=0
"$FSLAB" run --db $T/s/db --log $T/s/log --duration 3s --warmup 0 --db-size 256M \
	--databases 2 --threads 4 --mailboxes 10000000 --iops-per-mailbox 100 --no-checksum-pass \
	--output $r >$T/t.out 2>$T/t.err || rc=$?
[ $rc -eq 3 ] || { cat $T/t.out $T/t.err; fail "unreachable target: expected exit 3, got $rc"; }
jqt $r '.config.target_iops == 1e9 and .config.target_iops_origin == "mailboxes" and .config.mailboxes == 10000000 and .config.iops_per_mailbox == 100'
jqt $r '.verdict.pass == false and ([.verdict.checks[] | select(.name == "target_iops")][0] | .pass == false and (.note | test("10000000 mailboxes x 100")))'
echo "all good"
