#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh: replay every regression input, then fuzz each libFuzzer target given as an argument
# for FUZZ_SECONDS (default 60), or for FUZZ_RUNS inputs when that is set (libFuzzer's -runs;
# both set: whichever comes first), one target after the other, from a corpus seeded with
# tests/fuzz/corpus/<target>/ and the project's own fixtures.  A crash: its input is in build/fuzz/crashes/, the script fails and
# says how to keep it as a regression.  Each target's line says its inputs and seconds;
# closing line "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
export FSLAB_TOP=$top
secs=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
# FUZZ_RUNS alone: that many inputs; with FUZZ_SECONDS too: whichever comes first
if [ -n "$runs" ] && [ -n "${FUZZ_SECONDS:-}" ]; then
	limit=(-runs="$runs" -max_total_time="$secs")
elif [ -n "$runs" ]; then
	limit=(-runs="$runs")
else
	limit=(-max_total_time="$secs")
fi
work=$top/build/fuzz
pass=0 fail=0

seed() { # seed TARGET DIR: the fixtures that fit the target into DIR
	case "$1" in
	fuzz_result|fuzz_compare|fuzz_merge) cp "$top"/tests/fixtures/*.json "$2"/ ;;
	fuzz_labcfg) cp "$top"/configs/*.ini "$2"/ ;;
	fuzz_import_fio) cp "$top"/tests/fixtures/interop/fio-*.json "$2"/ ;;
	fuzz_import_diskspd) cp "$top"/tests/fixtures/interop/diskspd-*.xml "$2"/ ;;
	fuzz_import_diskspd_text) cp "$top"/tests/fixtures/interop/diskspd-text-*.txt "$2"/ ;;
	fuzz_import_jetstress) cp "$top"/tests/fixtures/interop/*.html "$2"/ ;;
	fuzz_winprep) cp "$top"/tests/fixtures/windows/*.json "$2"/ ;;
	fuzz_units)
		local i=0 s
		for s in 4096 512K 8GiB 64k 1T 8388608T 18446744073709551615 90 90s 500ms 15m \
			2h 1h30m 1d 0 -1 1e9 ext4-aa ..; do
			printf '%s' "$s" >"$2/seed$((i++))"
		done ;;
	esac
	[ -d "$top/tests/fuzz/corpus/$1" ] && cp "$top/tests/fuzz/corpus/$1"/* "$2"/ 2>/dev/null
	return 0
}

for bin in "$@"; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	t=$(basename "$bin")
	reg=$top/tests/fuzz/regressions/$t
	corpus=$work/corpus/$t
	crashes=$work/crashes
	mkdir -p "$corpus" "$crashes" "$work/logs"
	[ -n "$(ls -A "$corpus" 2>/dev/null)" ] || seed "$t" "$corpus"
	# 1. the regressions (every crash ever found), each run once
	if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
		if "$bin" -runs=1 "$reg"/* >"$work/logs/$t-replay.log" 2>&1; then
			echo "ok   fuzz $t: $(ls "$reg" | wc -l) regression input(s) replayed"
			pass=$((pass + 1))
		else
			echo "FAIL fuzz $t: a regression input crashes again; see $work/logs/$t-replay.log"
			tail -20 "$work/logs/$t-replay.log" | sed 's/^/    /'
			fail=$((fail + 1))
		fi
	fi
	# 2. fuzzing from the corpus
	start=$(date +%s)
	if "$bin" "${limit[@]}" -max_len=131072 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/$t-" -print_final_stats=1 "$corpus" \
		>"$work/logs/$t.log" 2>&1; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/logs/$t.log")
		echo "ok   fuzz $t: ${execs:-?} inputs in $(( $(date +%s) - start ))s, no crash"
		pass=$((pass + 1))
	else
		art=$(grep -o "$crashes/$t-[a-z]*-[0-9a-f]*" "$work/logs/$t.log" | head -1)
		echo "FAIL fuzz $t: crash, input $art; fix it, then keep it:"
		echo "     mkdir -p tests/fuzz/regressions/$t && cp $art tests/fuzz/regressions/$t/"
		grep -m1 -A12 "ERROR:\|runtime error" "$work/logs/$t.log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
