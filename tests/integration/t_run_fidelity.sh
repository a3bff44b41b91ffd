#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_fidelity: every jetstress result carries its shape against Jetstress's bands (database:
# log transfers 8-12:1, reads:writes 1.5-2, log writes 6-8 KiB), at 4, 8, 12 and 32 threads on
# one database of one ext4 loop volume pair.  Reads:writes holds at every size.  A ratio out of
# its band is named with how far (the signed % of the nearer bound) and, when the log stream
# was busy or carried several commits per write, why (group commit: one log I/O at a time per
# database, as ESE).  The cause is the real one: the same 32 threads spread over 8 databases (a
# log stream each) group fewer commits and come much closer to the band, and 8 threads over 8
# databases (one session per log stream: no commit can share a write) are in band.  compare
# shows the shape next to the verdict.
. "$(dirname "$0")/lib.sh"

db=$(new_loop 3G)
lg=$(new_loop 600M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/db $T/log
mount -o noatime $db $T/db && track_mount $T/db
mount -o noatime $lg $T/log && track_mount $T/log

# run THREADS DATABASES SIZE [CACHE]: a short jetstress run, its result $T/tTHREADS-dDATABASES.json
run() {
	local out=$T/t$1-d$2 rc=0

	"$FSLAB" run --db $T/db --log $T/log --threads $1 --databases $2 --db-size $3 \
		${4:+--cache $4} --duration 6s --warmup 2s --sample-interval 2s --no-checksum-pass \
		--label t$1-d$2 --output $out.json >$out.out 2>$out.err || rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $out.err; fail "$1 threads, $2 databases: exit $rc"; }
	grep -q "^Load shape (Jetstress's bands): database:log transfers" $out.out ||
		{ cat $out.out; fail "$1 threads: the summary does not give the load's shape"; }
	jq -c '.fidelity | {db_log: .db_log.value, rw: .read_write.value, kib: .log_write_kib.value,
		busy: .log_busy_pct, cpw: .commits_per_log_write}' $out.json
}

# shape FILE: the record's arithmetic: each ratio from the classes, in band or off by exactly the
# signed % of the nearer bound, and every ratio out of band named in "why" with how far
shape() {
	jqt $1 '.fidelity as $f | .classes as $c |
		(($c.db_read.ops + $c.db_write.ops) / $c.log_write.ops - $f.db_log.value | fabs < 1e-6) and
		($c.db_read.ops / $c.db_write.ops - $f.read_write.value | fabs < 1e-6) and
		($c.log_write.avg_bytes / 1024 - $f.log_write_kib.value | fabs < 1e-6)'
	jqt $1 '[.fidelity | .db_log, .read_write, .log_write_kib] | all(
		.band as [$lo, $hi] |
		if .value >= $lo and .value <= $hi then .in_band and .off_pct == 0
		elif .value > $hi then (.in_band | not) and ((.value / $hi - 1) * 100 - .off_pct | fabs < 1e-6)
		else (.in_band | not) and ((.value / $lo - 1) * 100 - .off_pct | fabs < 1e-6) end)'
	jqt $1 '.fidelity as $f | [["db_log", "database:log transfers"], ["read_write",
		"database reads:writes"], ["log_write_kib", "log write size"]] | all(
		. as [$k, $w] | $f[$k] | if .in_band then true else
		($f.why | test($w + " [0-9.:]+( KiB)? is [0-9]+ % (above|below) Jetstress")) end)'
	# a ratio above its band with a busy or grouped log stream: the cause said
	jqt $1 '.fidelity | if (.db_log.value > 12 and (.log_busy_pct >= 60 or
		.commits_per_log_write >= 1.2)) then (.why | test("ESE writes one log I/O at a time per " +
		"database")) else true end'
	# reads:writes is the mix's and the cache's, not the log's: in band at every size
	jqt $1 '.fidelity.read_write.in_band'
}

log "4, 8, 12 and 32 threads on one database"
for t in 4 8 12 32; do
	run $t 1 512M
	shape $T/t$t-d1.json
done
# the log stream groups more commits as the threads grow: the ratio follows
jq -n --slurpfile a $T/t4-d1.json --slurpfile b $T/t32-d1.json -e \
	'$b[0].fidelity.commits_per_log_write > $a[0].fidelity.commits_per_log_write and
	 $b[0].fidelity.db_log.value > $a[0].fidelity.db_log.value' >/dev/null ||
	fail "32 threads group no more commits per log write than 4"

log "the same 32 threads over 8 databases (a log stream each), then one session per database"
run 32 8 128M 8M
shape $T/t32-d8.json
jq -n --slurpfile one $T/t32-d1.json --slurpfile eight $T/t32-d8.json -e \
	'$eight[0].fidelity.db_log.value < $one[0].fidelity.db_log.value / 2 and
	 $eight[0].fidelity.commits_per_log_write < $one[0].fidelity.commits_per_log_write' \
	>/dev/null || fail "8 log streams did not take the 32 threads' ratio down: the cause is not the log"
run 8 8 128M 8M
shape $T/t8-d8.json
# one committer per log stream cannot share a write: Jetstress's shape, every ratio
jqt $T/t8-d8.json '.fidelity.commits_per_log_write <= 1.05'
jqt $T/t8-d8.json '.fidelity | .db_log.in_band and .read_write.in_band and .log_write_kib.in_band'

log "compare shows the shape next to the verdict"
"$FSLAB" compare $T/t4-d1.json $T/t32-d1.json --no-charts --output $T/cmp >$T/cmp.out 2>$T/cmp.err ||
	{ cat $T/cmp.err; fail "compare failed"; }
grep -q "| Verdict | Load shape (Jetstress) |" $T/cmp/report.md || fail "no shape next to the verdict"
grep -q "^### Load shape (Jetstress's ratios)" $T/cmp/report.md || fail "no shape section"
grep -Eq '^- \*\*t32-d1: outside Jetstress.s shape\*\*: database:log transfers [0-9.]+:1 \(band 8-12:1, up to [0-9]+ % above, in 1 of 1 runs\).*Why: .*ESE writes one log I/O at a time' \
	$T/cmp/report.md || { grep -A3 "Load shape" $T/cmp/report.md; fail "compare does not say how far and why"; }
echo "all good"
