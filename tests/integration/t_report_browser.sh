#!/bin/bash
# SPDX-License-Identifier: MIT
# t_report_browser: the report as its readers see it (issue 21).  A tiny real lab (ext4, XFS
# and the A/A copy of ext4 on loop devices, two rounds of 4-second cells) writes its report;
# headless Chromium (Debian's chromium, driven over the DevTools protocol by
# report_browser.py) opens report.html at 1280 and 800 px: no horizontal overflow, every chart
# drawn, the answer and the key table above the first chart, no console error, no request
# beyond the file, every <details> opens on a click, tables and charts kept whole in print.
# Screenshots and a PDF print are kept in build/test-logs/t_report_browser/.
. "$(dirname "$0")/lib.sh"

for p in mkfs.ext4 mkfs.xfs gnuplot; do
	command -v "$p" >/dev/null || skip "$p not installed (scripts/deps.sh check installs it)"
done
[ -x /usr/bin/chromium ] || skip "chromium not installed: install the Debian package chromium (scripts/deps.sh check)"
[ -x /usr/bin/python3 ] || skip "python3 not installed: install the Debian package python3 (scripts/deps.sh check)"

art=${FSLAB_TEST_LOGS:-$FSLAB_TOP/build/test-logs}/t_report_browser
rm -rf "$art"
mkdir -p "$art"

cat > "$T/lab.ini" <<EOT
[lab]
title = browser test: ext4 vs XFS (loop devices, tiny cells)
baseline = ext4
repeats = 2
aa_check = yes
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 4s
warmup = 1s
sample_interval = 2s
[fs ext4]
[fs xfs]
EOT

log "a tiny lab: ext4, xfs, ext4-aa in 2 rounds"
# A lab on a shared machine may still lose a cell to something outside it: the lab's own way
# out, --resume, runs the failed cells again.  This test is about the report.
if ! "$FSLAB" lab "$T/lab.ini" --output "$T/out" > "$T/lab.out" 2>&1; then
	cat "$T/lab.out"
	cp -r "$T/out/logs" "$art/logs-first" 2>/dev/null
	log "the lab lost cells (logs in $art/logs-first); --resume once"
	sleep 15
	if ! "$FSLAB" lab "$T/lab.ini" --output "$T/out" --resume > "$T/lab2.out" 2>&1; then
		cat "$T/lab2.out"
		cp -r "$T/out/logs" "$art/" 2>/dev/null
		fail "lab failed, also resumed (its logs in $art/logs)"
	fi
fi
rep=$T/out/report
for f in report.html report.md charts/headline.svg; do
	[ -s "$rep/$f" ] || fail "$f missing"
done
cp "$rep/report.md" "$rep/report.html" "$art/"

log "the Markdown reads in the same order, answer first"
order=$(grep -n '^## ' "$rep/report.md" | cut -d: -f2- | tr '\n' '|')
case "$order" in
"## The answer|## The volumes|## Charts|## Method|## Setup|## Results in full|"*"## Per-run detail|") ;;
*) fail "report.md sections out of order: $order" ;;
esac
grep -q '^- \*\*xfs vs ext4: ' "$rep/report.md" || fail "no answer line for xfs vs ext4"
# the A/A line: the noise floor, or (a clean lab now and then, more often under load) the
# alarm, which names what fired
grep -Eq '^- \*\*(ext4-aa vs ext4, the A/A check|WARNING: the A/A check failed: ext4-aa and ext4 are the same setup)' \
	"$rep/report.md" || fail "no A/A answer line"
grep -q '^| Label | Transactional IOPS | DB read avg (ms) |' "$rep/report.md" || fail "no key table"
# the chart of the answer comes right after its key table, before the verdicts
awk '/^## The answer/ {a = 1} a && /^\| Label/ {k = NR} a && /headline.png/ {h = NR}
     a && /^### Verdicts/ {v = NR} END {exit !(k && h > k && v > h)}' "$rep/report.md" ||
	fail "report.md: the key table, the headline chart and the verdicts are not in that order"
grep -q '^<details>$' "$rep/report.md" || fail "report.md: no folded per-run detail"

log "Chromium at 1280 and 800 px"
rc=0
/usr/bin/python3 "$FSLAB_TOP/tests/integration/report_browser.py" "$rep/report.html" "$art" 1280 800 \
	> "$T/browser.out" 2>&1 || rc=$?
cat "$T/browser.out"
[ $rc -ne 2 ] || fail "Chromium could not be started (see above)"
[ $rc -eq 0 ] || fail "the report does not read as it should in Chromium (FAIL lines above)"
for w in 1280 800; do
	for s in top full; do
		[ "$(head -c 8 "$art/report-$w-$s.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
			fail "screenshot report-$w-$s.png is not a PNG"
	done
done
[ "$(head -c 5 "$art/report.pdf")" = "%PDF-" ] || fail "no PDF print"
log "ok: screenshots in $art"
