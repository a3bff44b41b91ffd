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
