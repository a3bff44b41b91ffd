# SPDX-License-Identifier: MIT
# t_compare_cli.sh: `fslab compare` and `fslab sizing` end to end on the fixtures: every file of
# --output, every --format, the charts (or the one line when gnuplot is missing), sizing.
# Needs no root or loop device.
. "$(dirname "$0")/lib.sh"

fx=$FSLAB_TOP/tests/fixtures
out=$T/report
pair="$fx/ext4-1.json $fx/ext4-2.json $fx/xfs-1.json $fx/xfs-2.json"

log "compare --output"
# shellcheck disable=SC2086
expect_status 0 env SOURCE_DATE_EPOCH=1764590400 "$FSLAB" compare $pair --output "$out" \
	--title "ext4 or XFS for Exchange?"
for f in report.md report.html tables.csv compare.json; do
	[ -s "$out/$f" ] || fail "$f missing or empty"
done
grep -q '^# ext4 or XFS for Exchange?' "$out/report.md" || fail "--title not used"
grep -q 'on 2025-12-01 12:00 UTC' "$out/report.md" || fail "SOURCE_DATE_EPOCH not used"
for s in '## The answer' '## The volumes' '## Setup' '## Method' '## Results in full' '## Charts' \
	'### Verdicts' '## Sizing' '## Per-run detail' 'mkfs.xfs -f' 'mkfs.ext4 -F' 'Welch' \
	'xfs delivered 12 % more transactional IOPS' '**xfs vs ext4: 12 % more transactional IOPS**'; do
	grep -qF -- "$s" "$out/report.md" || fail "report.md lacks: $s"
done
jqt "$out/compare.json" '.schema == "fslab-compare/1"'
jqt "$out/compare.json" '.method.name == "repeats" and .method.test == "Welch'"'"'s t-test on per-run values" and .method.multiple_comparisons == "Holm-Bonferroni over labels x headline metrics" and .method.claims == 4'
jqt "$out/compare.json" '.rows[] | select(.id == "trans_iops") | .cells[1].delta.corrected == true and .cells[1].delta.p_holm >= .cells[1].delta.p and .cells[1].delta.mde > 0'
jqt "$out/compare.json" '[.groups[].label] == ["ext4", "xfs"]'
jqt "$out/compare.json" '.rows[] | select(.id == "trans_iops") | .cells[1].delta.significant == "yes"'
jqt "$out/compare.json" '.rows[] | select(.id == "log_write_lat_avg") | .cells[1].delta.significant == "no"'
jqt "$out/compare.json" '.sizing.iops_per_message == 0.00067'
head -1 "$out/tables.csv" | grep -q '^metric_id,metric,label,runs,method,n,mean' || fail "csv header"
grep -q '^trans_iops,Achieved transactional IOPS,xfs,2,repeats,2,' "$out/tables.csv" ||
	fail "csv: no transactional IOPS row for xfs"
grep -q '<svg' "$out/report.html" || [ ! -x "$(command -v gnuplot)" ] || fail "html: no inline SVG"
if grep -q '<script' "$out/report.html"; then fail "html: has a script"; fi
if command -v gnuplot >/dev/null; then
	for c in headline iops latency-avg latency-p99 throughput write-amplification timeline-iops \
		timeline-db-read-latency timeline-log-write-latency percentiles; do
		[ "$(head -c 8 "$out/charts/$c.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
			fail "charts/$c.png is not a PNG"
		grep -q '<svg' "$out/charts/$c.svg" || fail "charts/$c.svg is not an SVG"
		[ -s "$out/charts/$c.dat" ] && [ -s "$out/charts/$c.gp" ] || fail "$c: data or script missing"
	done
	grep -q '](charts/iops.png)' "$out/report.md" || fail "report.md does not show the charts"
	grep -q '](charts/headline.png)' "$out/report.md" || fail "report.md lacks the answer's chart"
fi

log "charts without gnuplot: tables still written, one line names the package"
rm -rf "$out"
# shellcheck disable=SC2086
expect_status 0 env PATH=/nonexistent "$FSLAB" compare $pair --output "$out"
grep -q 'charts skipped: gnuplot not found; install the Debian package gnuplot-nox' "$T/stderr" ||
	fail "no line about gnuplot"
[ "$(grep -c 'gnuplot' "$T/stderr")" -eq 1 ] || fail "more than one line about gnuplot"
[ -s "$out/report.md" ] && [ -s "$out/tables.csv" ] || fail "tables not written without gnuplot"
[ ! -e "$out/charts" ] || fail "charts directory made without gnuplot"

log "formats on stdout"
# shellcheck disable=SC2086
expect_status 0 "$FSLAB" compare $pair
diff -u "$FSLAB_TOP/tests/expected/repeats.txt" "$T/stdout" || fail "text differs from the golden file"
# shellcheck disable=SC2086
expect_status 0 "$FSLAB" compare $pair --format md
diff -u "$FSLAB_TOP/tests/expected/repeats.md" "$T/stdout" || fail "md differs from the golden file"
# shellcheck disable=SC2086
expect_status 0 "$FSLAB" compare $pair --format json
jq -e '.rows | length > 20' "$T/stdout" >/dev/null || fail "--format json"
# shellcheck disable=SC2086
expect_status 0 "$FSLAB" compare $pair --format csv
[ "$(wc -l <"$T/stdout")" -gt 60 ] || fail "--format csv"
# --baseline
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-1.json" --baseline xfs
grep -q 'ext4 vs xfs' "$T/stdout" || fail "--baseline xfs: no 'ext4 vs xfs' column"

log "thread sweep"
expect_status 0 "$FSLAB" compare "$fx/ext4-4t.json" "$fx/ext4-8t.json" "$fx/ext4-12t.json"
grep -q '^Threads ' "$T/stdout" || fail "sweep: no Threads row"
grep -q '^Thread scaling' "$T/stdout" || fail "sweep: no scaling table"
grep -q 'ext4 scaled from .* of linear scaling' "$T/stdout" || fail "sweep: no scaling sentence"

log "sizing"
expect_status 0 "$FSLAB" sizing "$fx/ext4-1.json" "$fx/xfs-1.json"
grep -q '0.00067' "$T/stdout" && grep -q 'Exchange 2013' "$T/stdout" || fail "sizing: factor or source missing"
grep -q 'planning estimate' "$T/stdout" || fail "sizing: not called an estimate"
expect_status 0 "$FSLAB" sizing "$fx/ext4-1.json" --messages-per-day 150 --overhead 0 --format json
# 4984 IOPS / (150 x 0.00067) = 49592 mailboxes
jqt "$T/stdout" '.labels[0].mailboxes[0] == (.labels[0].transactional_iops / 0.1005 | floor)'
expect_status 0 "$FSLAB" sizing "$fx/ext4-1.json" --iops-per-message 0.001 --format csv
grep -q '^ext4,.*,50,0.001,20,0.06,' "$T/stdout" || fail "sizing csv with --iops-per-message"
# sizing needs no comparability: a different seed is fine
expect_status 0 "$FSLAB" sizing "$fx/ext4-1.json" "$fx/xfs-seed7.json"
log "ok"
