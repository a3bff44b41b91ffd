# SPDX-License-Identifier: MIT
# t_compare_badinput.sh: every bad input of `fslab compare` and `fslab sizing` exits 2 with one
# line naming the file or the problem, and writes nothing.  Needs no root or loop device.
. "$(dirname "$0")/lib.sh"

fx=$FSLAB_TOP/tests/fixtures
out=$T/report

# bad NAME ARGS...: exit 2, exactly one stderr line that contains NAME, no --output written
bad() {
	local name=$1; shift
	log "bad input: $name"
	expect_status 2 "$FSLAB" "$@"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$name: expected one line"; }
	grep -qF -- "$name" "$T/stderr" || { cat "$T/stderr"; fail "$name: not named in the error"; }
	grep -q '^fslab: error: ' "$T/stderr" || fail "$name: not an fslab error line"
	[ ! -e "$out" ] || fail "$name: $out was written on bad input"
	[ ! -s "$T/stdout" ] || fail "$name: printed a table on bad input"
}

bad missing.json compare "$fx/ext4-1.json" "$T/missing.json" --output "$out"
bad truncated.json compare "$fx/ext4-1.json" "$fx/truncated.json" --output "$out"
grep -q 'truncated' "$T/stderr" || fail "truncated: the message does not say so"
bad not-fslab.json compare "$fx/not-fslab.json" "$fx/ext4-1.json" --output "$out"
bad wrong-schema.json compare "$fx/ext4-1.json" "$fx/wrong-schema.json" --output "$out"
grep -q 'unknown schema version' "$T/stderr" || fail "wrong schema: not said"
bad xfs-aborted.json compare "$fx/ext4-1.json" "$fx/xfs-aborted.json" --output "$out"
grep -q -- '--allow-aborted' "$T/stderr" || fail "aborted: the way out is not named"
bad "no result files" compare --output "$out"
# a histogram mean of 2.7e74 overflowed the 128-bit sum (undefined behaviour, found by fuzzing)
bad hist-mean-1e74.json compare "$FSLAB_TOP/tests/fuzz/regressions/fuzz_result/hist-mean-1e74.json" --output "$out"
grep -q 'histogram mean or m2 out of range' "$T/stderr" || fail "histogram range: not said"
bad xfs-seed7.json compare "$fx/ext4-1.json" "$fx/xfs-seed7.json" --output "$out"
grep -q 'seed 7 vs 42' "$T/stderr" || fail "mismatch: the difference is not listed"
bad "--baseline btrfs" compare "$fx/ext4-1.json" "$fx/xfs-1.json" --baseline btrfs --output "$out"
bad "--format xml" compare "$fx/ext4-1.json" --format xml --output "$out"
bad "--bogus" compare "$fx/ext4-1.json" --bogus
bad "--equivalence" compare "$fx/ext4-1.json" --equivalence 0 --output "$out"
bad "--equivalence" compare "$fx/ext4-1.json" --equivalence lots --output "$out"
bad "--equivalence" sizing "$fx/ext4-1.json" --equivalence 5
# a lab plan that says it stopped when decided, with rounds or a margin no lab has
echo '{"order": "shuffled", "adaptive": {"stop": "decided", "min_rounds": 5, "max_rounds": 3}}' > "$T/dplan.json"
bad "min_rounds and max_rounds are not a lab's rounds" compare "$fx/ext4-1.json" --lab-plan "$T/dplan.json" --output "$out"
echo '{"order": "shuffled", "adaptive": {"stop": "decided", "min_rounds": 3, "max_rounds": 9, "equivalence_pct": 0}}' > "$T/dplan.json"
bad "equivalence_pct 0 is not a margin" compare "$fx/ext4-1.json" --lab-plan "$T/dplan.json" --output "$out"
bad "--overhead" sizing "$fx/ext4-1.json" --overhead lots
bad "--messages-per-day" sizing "$fx/ext4-1.json" --messages-per-day 50,,100
bad "no result files" sizing
bad truncated.json sizing "$fx/truncated.json"
bad "--output" sizing "$fx/ext4-1.json" --output "$out"

# Hostile result files (issue 12): labels that would leak into HTML, Markdown, CSV, gnuplot or
# file names; numbers no run makes; a FIFO, which would block the reader forever.
log "hostile result files"
hostile() { # hostile NAME JQ-EXPR: a copy of ext4-1.json changed by JQ-EXPR
	jq "$2" "$fx/ext4-1.json" >"$T/$1.json" || fail "jq $2"
}
hostile html '.label = "<script>alert(1)</script>"'
bad html.json compare "$fx/xfs-1.json" "$T/html.json" --output "$out"
grep -q "cannot be used: a label has only letters" "$T/stderr" || fail "html label: rule not named"
hostile newline '.label = "ext4\nset output \"/etc/x\""'
bad newline.json compare "$fx/xfs-1.json" "$T/newline.json" --output "$out"
grep -q "'ext4?set" "$T/stderr" || fail "newline label: not shown with ? for the control character"
hostile dotdot '.label = ".."'
bad dotdot.json compare "$fx/xfs-1.json" "$T/dotdot.json" --output "$out"
hostile dash '.label = "-x"'
bad dash.json compare "$fx/xfs-1.json" "$T/dash.json" --output "$out"
grep -q "starts with a letter or a digit" "$T/stderr" || fail "dash label: rule not named"
hostile cr '.label = "ext4\r"'
bad cr.json compare "$fx/xfs-1.json" "$T/cr.json" --format csv
head -c 8000000 /dev/zero | tr '\0' a >"$T/big.label"
jq --rawfile l "$T/big.label" '.label = $l' "$fx/ext4-1.json" >"$T/biglabel.json"
start=$(date +%s)
bad biglabel.json compare "$fx/xfs-1.json" "$T/biglabel.json"
[ $(($(date +%s) - start)) -le 5 ] || fail "an 8 MB label took more than 5 s"
grep -q "at most 64 characters" "$T/stderr" || fail "big label: rule not named"
hostile huge '.transactional_iops = 1e308'
bad huge.json sizing "$T/huge.json"
grep -q "not a plausible result" "$T/stderr" || fail "1e308 IOPS: not refused"
hostile nothreads '.config.threads = 0'
bad nothreads.json compare "$fx/xfs-1.json" "$T/nothreads.json"
hostile neglat '.classes.db_read.lat_us.mean = -5'
bad neglat.json compare "$fx/xfs-1.json" "$T/neglat.json"
# numbers no run makes and files that contradict themselves: refused by the result reader
# itself, so that compare, merge and a resumed lab refuse the same files
hostile negiops '.transactional_iops = -300'
bad negiops.json compare "$fx/xfs-1.json" "$T/negiops.json"
hostile negdur '.duration_s = -60'
bad negdur.json compare "$fx/xfs-1.json" "$T/negdur.json"
grep -q "a duration outside" "$T/stderr" || fail "negative duration: not said"
hostile histn '.classes.db_read.hist.n = 3'
bad histn.json compare "$fx/xfs-1.json" "$T/histn.json"
grep -q "latency histogram counts 3 I/Os" "$T/stderr" || fail "histogram count: not said"
hostile histunit '.classes.db_read.hist.unit = "us"'
bad histunit.json compare "$fx/xfs-1.json" "$T/histunit.json"
hostile longtl '.timeline.rows = [range(1000) | [.]] | .timeline.columns = ["t_s"]'
bad longtl.json compare "$fx/xfs-1.json" "$T/longtl.json"
grep -q "a timeline of 1000 rows for a run of 60 s" "$T/stderr" || fail "long timeline: not said"
mkfifo "$T/fifo.json"
log "bad input: a FIFO"
st=0
timeout 10 "$FSLAB" compare "$fx/xfs-1.json" "$T/fifo.json" >"$T/stdout" 2>"$T/stderr" || st=$?
[ "$st" -eq 2 ] || fail "FIFO: exit $st, expected 2 (124 = it blocked)"
grep -q "fifo.json: not a regular file (a FIFO)" "$T/stderr" || fail "FIFO: not named"
# Text that is not a label (the environment of a result) is escaped in every format.
jq '.environment.kernel = "<img src=x onerror=alert(1)> & <!-- x"' "$fx/xfs-1.json" \
	>"$T/htmlenv.json"
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$T/htmlenv.json" --output "$out" --no-charts
! grep -q '<img' "$out/report.md" || fail "report.md: raw HTML from a result"
! grep -q '<!--' "$out/report.md" || fail "report.md: an HTML comment from a result"
grep -q '&lt;img src=x' "$out/report.md" || fail "report.md: the kernel text is gone"
! grep -q '<img' "$out/report.html" || fail "report.html: raw HTML from a result"
rm -rf "$out"

# One run is one repeat: the same file twice, or a copy beside the original (byte for byte
# or reformatted), made "significant, p < 0.001, +8.2 % [+8.2 %, +8.2 %]" of a run that
# repeats showed no difference in.
log "one run given twice"
bad "ext4-1.json is given twice" compare "$fx/ext4-1.json" "$fx/ext4-2.json" "$fx/ext4-1.json" \
	"$fx/xfs-1.json" "$fx/xfs-2.json" --output "$out"
cp "$fx/ext4-2.json" "$T/ext4-2-copy.json"
bad "$fx/ext4-2.json and $T/ext4-2-copy.json are the same run" compare "$fx/ext4-1.json" \
	"$fx/ext4-2.json" "$T/ext4-2-copy.json" "$fx/xfs-1.json" "$fx/xfs-2.json" --output "$out"
grep -q "label 'ext4', host lab1, started 2026-12-01T10:00:00Z" "$T/stderr" ||
	fail "copy: the run is not named"
jq . "$fx/xfs-1.json" >"$T/xfs-1-pretty.json"
bad "xfs-1-pretty.json" compare "$fx/ext4-1.json" "$fx/xfs-1.json" "$T/xfs-1-pretty.json" \
	--output "$out"
bad "xfs-1.json is given twice" sizing "$fx/xfs-1.json" "$fx/xfs-1.json"

# Issue 16: injection and hangs.
# Messages quote input with what a terminal would act on escaped: an abort reason, a schema, a
# DiskSpd <Error> or a fio job name with OSC 0 (window title), CSI 2J (clear) and OSC 52
# (clipboard) or a C1 CSI reached the terminal raw.
log "terminal escapes in messages"
no_esc() { # no_esc WHAT [SHOWN]: no ESC, BEL or C1 control in stderr; SHOWN (\x1b) instead
	! LC_ALL=C grep -q $'[\x1b\x07]\|\xc2[\x80-\x9f]' "$T/stderr" ||
		fail "$1: a control sequence reached stderr"
	grep -qF "${2:-\x1b}" "$T/stderr" || fail "$1: the escape is not shown as ${2:-\x1b}"
}
hostile esc '.aborted = true | .abort_reason = "died\u001b]0;owned\u0007\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m"'
bad esc.json compare "$fx/xfs-1.json" "$T/esc.json"
no_esc "abort reason"
grep -qF 'died\x1b]0;owned\x07\x1b[2J' "$T/stderr" || fail "abort reason: not shown"
grep -qF '\xc2\x9b31m' "$T/stderr" || fail "abort reason: C1 CSI not shown escaped"
hostile schema '.schema = "fslab-result/9\u001b[2J\u001b]0;x\u0007"'
bad schema.json compare "$T/schema.json"
no_esc "schema"
# XML 1.0 has no ESC, but has the C1 controls: CSI 2J and OSC 0 ... ST in their 8-bit forms
printf '%s' '<Results><System><ComputerName>W</ComputerName></System><TimeSpan><Error>' \
	"boom"$'\xc2\x9b'"2J"$'\xc2\x9d'"0;owned"$'\xc2\x9c' '</Error></TimeSpan></Results>' \
	>"$T/ds-error.xml"
bad ds-error.xml compare "$T/ds-error.xml"
no_esc "DiskSpd <Error>" 'boom\xc2\x9b2J\xc2\x9d0;owned\xc2\x9c'
jq '.jobs[0].error = 5 | .jobs[0].jobname = "j\u001b[2Jx"' \
	"$fx/interop/fio-randread-2jobs.json" >"$T/fio-error.json"
bad fio-error.json compare "$T/fio-error.json"
no_esc "fio job name"

# report.md: every Markdown-active character of a string from input is escaped (host, OS,
# kernel, CPU, mkfs and mount options, notes, --title), so no link, image or emphasis is made.
log "Markdown injection in report.md"
jq '.environment.hostname = "![i](http://evil.example/x.png)" |
    .environment.os = "[l](javascript:alert(1))" | .environment.kernel = "*b* _u_ `c` ~~s~~" |
    .environment.cpu_model = "# heading" |
    .environment.prep.volumes.db.mount.options = "[m](javascript:m)" |
    .notes += ["![n](http://evil.example/n.png)"]' "$fx/ext4-1.json" >"$T/md1.json"
jq '.environment.prep.volumes.db.mkfs.command = "mkfs.xfs [x](javascript:x) *y*"' \
	"$fx/xfs-1.json" >"$T/md2.json"
expect_status 0 "$FSLAB" compare "$T/md1.json" "$T/md2.json" --output "$out" --no-charts \
	--title '[t](javascript:t) ![ti](http://evil.example/t.png)'
# a link or image is "](" with the ']' unescaped
! grep -qP '(?<!\\)\]\(' "$out/report.md" || { grep -P '(?<!\\)\]\(' "$out/report.md"; fail "report.md: a link from input"; }
for s in '*b*' '_u_' '`c`' '~~s~~' '*y*'; do
	! grep -qF -- "$s" "$out/report.md" || { grep -F -- "$s" "$out/report.md"; fail "report.md: '$s' from input is active Markdown"; }
done
grep -qF '\!\[i\](http://evil.example/x.png)' "$out/report.md" || fail "report.md: the host name is gone"
grep -qF '\[l\](javascript:alert(1))' "$out/report.md" || fail "report.md: the OS is gone"
grep -qF '# \[t\](javascript:t)' "$out/report.md" || fail "report.md: the title is not escaped"
rm -rf "$out"

# report.html and report.md: a result's notes with ESC, BEL and a right-to-left override
# (U+202E shows "txt.exe" as "exe.txt") reached the page as they were.
log "control and bidi characters in report.html and report.md"
jq '.notes += ["esc\u001b[2J bel\u0007 rlo\u202eexe.txt\u202c lri\u2066x\u2069 end"]' \
	"$fx/ext4-1.json" >"$T/bidi.json"
expect_status 0 "$FSLAB" compare "$T/bidi.json" "$fx/xfs-1.json" --output "$out" --no-charts
for f in report.html report.md; do
	! LC_ALL=C grep -q $'[\x1b\x07]\|\xe2\x80[\xaa-\xae]\|\xe2\x81[\xa6-\xa9]' "$out/$f" ||
		fail "$f: a control or bidi character from a note"
	grep -qF 'bel  rlo exe.txt  lri x  end' "$out/$f" ||
		fail "$f: the note is gone: $(grep -a 'rlo' "$out/$f")"
done
rm -rf "$out"

# --lab-plan names a FIFO: it blocked forever.  A non-UTF-8 file name was missing from
# compare.json's files.
log "--lab-plan FIFO; a file name that is not UTF-8"
mkfifo "$T/plan.json"
st=0
timeout 10 "$FSLAB" compare "$fx/ext4-1.json" --lab-plan "$T/plan.json" >"$T/stdout" 2>"$T/stderr" || st=$?
[ "$st" -eq 2 ] || fail "--lab-plan FIFO: exit $st, expected 2 (124 = it blocked)"
grep -q "plan.json: not a regular file (a FIFO)" "$T/stderr" || fail "--lab-plan FIFO: not named"
# the same for fslab merge's --clock-file (it reads results as compare does)
st=0
timeout 10 "$FSLAB" merge --clock-file "$T/plan.json" --output "$T/cluster.json" "$fx/ext4-1.json" \
	>"$T/stdout" 2>"$T/stderr" || st=$?
[ "$st" -eq 2 ] || fail "merge --clock-file FIFO: exit $st, expected 2 (124 = it blocked)"
grep -q "plan.json: not a regular file (a FIFO)" "$T/stderr" || fail "merge --clock-file FIFO: not named"
[ ! -e "$T/cluster.json" ] || fail "merge --clock-file FIFO: output written"
bin=$T/$'x\xffy'.json
cp "$fx/xfs-1.json" "$bin"
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$bin" --output "$out" --no-charts
jqt "$out/compare.json" '[.groups[].files[]] | length == 2'
jqt "$out/compare.json" '[.groups[].files[]] | any(endswith("x\\xffy.json"))'
rm -rf "$out"

# Integers beyond their field and histogram buckets that are not integers: refused, not cut.
hostile threads '.config.threads = 4294967297'
bad threads.json compare "$fx/xfs-1.json" "$T/threads.json"
grep -q '"threads" is 4294967297, more than 4294967295' "$T/stderr" || fail "threads 2^32+1: not refused"
hostile bucket '.classes.db_read.hist.buckets[0][0] = 1.5'
bad bucket.json compare "$fx/xfs-1.json" "$T/bucket.json"
hostile bucket7 '.classes.db_read.hist.buckets[0][0] = "7"'
bad bucket7.json compare "$fx/xfs-1.json" "$T/bucket7.json"

# Huge timelines: 10 million rows (1.8 GB, 63 s here before) are refused while being read,
# naming the limit and the count, in bounded memory; a million rows (a long run's) are read
# one at a time into a temporary file and charted from 2000 means: bounded memory.  The
# bounds are loose (a shared machine), far below what reading them whole takes.
command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is missing (Debian package time, scripts/deps.sh)"
timeline_file() { # timeline_file FILE ROWS: ext4-1.json with a ROWS-row timeline of 3 columns
	# a run as long as its timeline (the reader refuses more rows than measured seconds)
	jq -c --argjson n "$2" 'del(.timeline) | .duration_s = $n' "$fx/ext4-1.json" | sed 's/}$//' >"$1"
	printf ', "timeline": {"columns": ["t_s", "db_read_ops", "db_write_ops"], "rows": [' >>"$1"
	awk -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) printf "%s[%d,%d,%d]", (i > 1 ? "," : ""), i, 3000 + i % 7, 2000 + i % 5 }' >>"$1"
	printf ']}}\n' >>"$1"
}
log "a 10-million-row timeline"
timeline_file "$T/tl10m.json" 10000000
st=0
/usr/bin/time -f '%e %M' -o "$T/time" timeout 120 "$FSLAB" compare "$T/tl10m.json" \
	>"$T/stdout" 2>"$T/stderr" || st=$?
[ "$st" -eq 2 ] || { cat "$T/stderr"; fail "10M rows: exit $st, expected 2 (124: over 120 s)"; }
grep -q 'a timeline of 10000000 rows, more than fslab reads (at most 4194304' "$T/stderr" ||
	{ cat "$T/stderr"; fail "10M rows: the limit and the count are not named"; }
read -r secs rss < <(tail -1 "$T/time")
log "10M rows refused in $secs s, $((rss / 1024)) MiB (the file: $(($(stat -c %s "$T/tl10m.json") >> 20)) MiB)"
[ "$rss" -lt $((512 * 1024)) ] || fail "10M rows: $((rss / 1024)) MiB resident, more than 512"
rm -f "$T/tl10m.json"
log "a million-row timeline with charts"
timeline_file "$T/tl1m.json" 1000000
/usr/bin/time -f '%e %M' -o "$T/time" timeout 300 "$FSLAB" compare "$T/tl1m.json" \
	--output "$out" >"$T/stdout" 2>"$T/stderr" || { cat "$T/stderr"; fail "1M rows: failed or over 300 s"; }
read -r secs rss < <(tail -1 "$T/time")
log "1M rows compared and charted in $secs s, $((rss / 1024)) MiB"
[ "$rss" -lt $((160 * 1024)) ] || fail "1M rows: $((rss / 1024)) MiB resident, more than 160"
if [ -f "$out/charts/timeline-iops.dat" ]; then
	n=$(grep -vc '^#' "$out/charts/timeline-iops.dat")
	[ "$n" -le 2000 ] || fail "1M rows: the timeline chart has $n points, more than 2000"
	grep -q '^# second (the middle of 500 seconds averaged)' "$out/charts/timeline-iops.dat" ||
		fail "1M rows: the chart does not say it is averaged"
fi
rm -rf "$out" "$T/tl1m.json"

# An existing report directory is not clobbered without --force.
log "existing output directory"
mkdir -p "$out"
echo "keep me" >"$out/report.md"
expect_status 2 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-1.json" --output "$out" --no-charts
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "existing dir: expected one line"
grep -q -- '--force' "$T/stderr" || fail "existing dir: --force not named"
[ "$(cat "$out/report.md")" = "keep me" ] || fail "existing dir: report.md was overwritten"
[ "$(ls "$out")" = "report.md" ] || fail "existing dir: files were added"
# ... and is with --force
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-1.json" --output "$out" --no-charts \
	--force
grep -q '^# fslab comparison: ext4 vs xfs' "$out/report.md" || fail "--force: report not written"
# an empty existing directory is fine
rm -rf "$out" && mkdir "$out"
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-1.json" --output "$out" --no-charts

# The ways out named in the messages work, visibly.
log "--allow-aborted and --allow-mismatch"
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-aborted.json" --allow-aborted
grep -q 'xfs \[ABORTED\]' "$T/stdout" || fail "--allow-aborted: not marked ABORTED"
grep -q 'n/a (aborted run)' "$T/stdout" || fail "--allow-aborted: a difference was tested"
expect_status 0 "$FSLAB" compare "$fx/ext4-1.json" "$fx/xfs-seed7.json" --allow-mismatch
grep -q '^WARNING: differs from the reference .*seed 7 vs 42' "$T/stdout" ||
	fail "--allow-mismatch: no warning row"
log "ok"
