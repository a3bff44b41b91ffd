# SPDX-License-Identifier: MIT
# t_compare_real.sh: two real short runs, ext4 and XFS each on its own loop device (formatted
# and mounted here, not through prep), compared with --output: report, charts, both labels.
. "$(dirname "$0")/lib.sh"

for p in mkfs.ext4 mkfs.xfs losetup mount; do
	command -v "$p" >/dev/null || skip "$p not installed (scripts/deps.sh check installs it)"
done

run_on() { # run_on FS MKFS...: format a fresh loop device, mount it, run fslab on it
	local fs=$1 dev mnt rc=0; shift
	dev=$(new_loop 2G)
	log "$fs on $dev"
	"$@" "$dev" >/dev/null
	mnt=$T/mnt-$fs
	mkdir -p "$mnt"
	mount "$dev" "$mnt"
	track_mount "$mnt"
	mkdir -p "$mnt/db" "$mnt/log"
	"$FSLAB" run --db "$mnt/db" --log "$mnt/log" --duration 10s --threads 4 --db-size 256M \
		--label "$fs" --output "$T/$fs.json" >"$T/run-$fs.out" 2>&1 || rc=$?
	if [ $rc -ne 0 ] && grep -q 'not implemented yet' "$T/run-$fs.out"; then
		skip "fslab run is not implemented yet; this test runs once it is"
	fi
	# 3 = the run completed but its Jetstress-style verdict is FAIL: still a result to compare
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/run-$fs.out"; fail "fslab run on $fs: exit $rc"; }
	[ -s "$T/$fs.json" ] || fail "fslab run on $fs wrote no result"
}

run_on ext4 mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0
run_on xfs mkfs.xfs -f -q

log "compare"
expect_status 0 "$FSLAB" compare "$T/ext4.json" "$T/xfs.json" --output "$T/report"
cat "$T/stdout"
grep -Eq '^Metric +ext4 +xfs +xfs vs ext4 +test' "$T/stdout" ||
	fail "the table does not name both labels"
grep -q '^Achieved transactional IOPS ' "$T/stdout" || fail "no transactional IOPS row"
grep -q 'batch means over its per-second timeline' "$T/stdout" ||
	fail "single runs: the batch-means method is not stated"
# one run per label: never a claim (issue 8)
! grep -Eqi 'significant|better|worse' "$T/stdout" "$T/report/report.md" ||
	fail "single runs: a claim was made ($(grep -Eoi '.{40}(significant|better|worse).{20}' "$T/stdout" "$T/report/report.md" | head -1))"
grep -q 'Within one run per label' "$T/stdout" || fail "single runs: not labelled within one run"
for f in report.md report.html tables.csv compare.json; do
	[ -s "$T/report/$f" ] || fail "$f missing or empty"
done
grep -q 'mkfs\|Filesystem' "$T/report/report.md" || fail "report.md has no setup"
jqt "$T/report/compare.json" '[.groups[].label] == ["ext4", "xfs"]'
jqt "$T/report/compare.json" '[.groups[].filesystem] == ["ext4", "xfs"]'
if command -v gnuplot >/dev/null; then
	for c in iops latency-avg timeline-iops percentiles; do
		[ "$(head -c 8 "$T/report/charts/$c.png" | od -An -tx1 | tr -d ' \n')" = \
		  89504e470d0a1a0a ] || fail "charts/$c.png is not a PNG"
		grep -q '<svg' "$T/report/charts/$c.svg" || fail "charts/$c.svg is not an SVG"
	done
	grep -q '<svg' "$T/report/report.html" || fail "report.html has no inline chart"
fi
log "ok"
