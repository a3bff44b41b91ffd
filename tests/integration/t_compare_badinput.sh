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
