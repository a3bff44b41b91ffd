#!/bin/bash
# SPDX-License-Identifier: MIT
# t_windows_selftest: fslab.exe selftest under Wine, the test that the self-test can fail: Wine
# opens files buffered, ignores FILE_FLAG_NO_BUFFERING and FILE_FLAG_WRITE_THROUGH, accepts
# unaligned unbuffered I/O, has no disk counters and calls every filesystem NTFS, so the checks
# of those must say FAIL or UNKNOWN, never PASS (and the same with --buffered); the record goes
# into an fslab.exe run and the Linux compare shows it.  Skipped (77) like t_windows when the
# cross toolchain or Wine cannot be installed.
. "$(dirname "$0")/lib.sh"

cd "$FSLAB_TOP"
scripts/deps.sh wine >"$T/deps.log" 2>&1 ||
	skip "the cross toolchain or Wine cannot be installed here ($(tail -1 "$T/deps.log"))"
log "make windows"
make --no-print-directory -j2 windows >"$T/build.log" 2>&1 || {
	grep -q 'fslab: apt-get source .* failed\|the Windows sysroot needs Debian source' "$T/build.log" &&
		skip "the Debian source packages for the Windows sysroot cannot be fetched: $(grep 'fslab:' "$T/build.log" | tail -1)"
	tail -40 "$T/build.log"
	fail "make windows failed"
}
. tests/wine-env.sh
EXE=$FSLAB_TOP/build/win/fslab.exe
w() { timeout --kill-after=10 180 "$WINE" "$EXE" "$@"; }
status() { jq -r --arg id "$2" '.checks[] | select(.id == $id) | .status' "$1"; }
mkdir -p "$T/d"
echo "the user's own file" >"$T/d/keep.txt"

never_pass() { # never_pass RECORD: the flags and facts Wine does not honour
	local id s
	for id in unbuffered_reads write_through unaligned_refused filesystem integrity_streams; do
		s=$(status "$1" $id)
		case $s in
		FAIL|UNKNOWN) ;;
		*) fail "$1: $id says '$s' under Wine, which does not honour it: want FAIL or UNKNOWN" ;;
		esac
	done
}

log "fslab.exe selftest: what Wine ignores is FAIL or UNKNOWN, never PASS"
rc=0
w selftest --dir "Z:$T/d" --json "Z:$T/st.json" >"$T/out" 2>&1 || rc=$?
tr -d '\r' <"$T/out"
[ $rc -eq 3 ] || fail "selftest under Wine: exit $rc, want 3 (a check failed)"
jqt "$T/st.json" '.schema == "fslab-selftest/1" and (.host.wine | type) == "string"'
never_pass "$T/st.json"
# Wine accepts unaligned "unbuffered" reads: measured, and so a FAIL
[ "$(status "$T/st.json" unaligned_refused)" = FAIL ] || fail "unaligned reads accepted by Wine: not a FAIL"
jqt "$T/st.json" '.checks[] | select(.id == "unaligned_refused") | .measured.read_1_byte_at_0 == 1'
[ "$(status "$T/st.json" clock)" = PASS ] || fail "QueryPerformanceCounter under Wine"
tr -d '\r' <"$T/out" | grep -q '^FAIL  *unaligned_refused  *a 1-byte read at offset 0: ACCEPTED' ||
	fail "the unaligned_refused line"
[ "$(ls -A "$T/d")" = keep.txt ] || fail "selftest left something: $(ls -A "$T/d")"

log "--buffered: the same, never PASS"
rc=0
w selftest --dir "Z:$T/d" --buffered --json "Z:$T/buf.json" >"$T/out" 2>&1 || rc=$?
[ $rc -eq 3 ] || fail "--buffered under Wine: exit $rc, want 3"
never_pass "$T/buf.json"

log "fslab.exe run --selftest: embedded and noted; the Linux compare shows it"
mkdir -p "$T/d/db"
w run --workload randread --db "Z:$T/d/db" --db-size 32M --threads 1 --duration 2s --warmup 0 \
	--selftest "Z:$T/st.json" --output "Z:$T/r.json" >"$T/run.out" 2>&1 ||
	{ tr -d '\r' <"$T/run.out"; fail "fslab.exe run --selftest"; }
jqt "$T/r.json" '.environment.selftest.schema == "fslab-selftest/1"'
jqt "$T/r.json" '[.notes[] | select(test("did not pass every check: FAIL: [a-z_, ]*unaligned_refused"))] | length == 1'
"$FSLAB" compare "$T/r.json" --no-charts --output "$T/rep" >/dev/null 2>"$T/cmp.err" ||
	{ cat "$T/cmp.err"; fail "compare of the Wine result"; }
grep -q 'Self-test (fslab selftest): FAIL: [a-z_, ]*unaligned_refused' "$T/rep/report.md" ||
	fail "compare's Setup: no failing self-test shown"
rc=0
w run --workload randread --db "Z:$T/d/db" --db-size 32M --duration 2s --selftest "Z:$T/buf.json" \
	--output "Z:$T/r2.json" >"$T/run2.out" 2>&1 || rc=$?
[ $rc -eq 2 ] && tr -d '\r' <"$T/run2.out" | grep -q 'made with --buffered' ||
	fail "a --buffered record not refused by fslab.exe run ($rc)"
[ ! -e "$T/r2.json" ] || fail "a refused run wrote a result"
echo "t_windows_selftest: ok"
