#!/bin/bash
# SPDX-License-Identifier: MIT
# t_windows: fslab.exe (make windows, mingw-w64) under Wine (docs/WINDOWS.md): the unit suites
# cross-built and run there; fslab.exe run for a few seconds on a scratch directory with the
# win32 back end, its result read by the Linux fslab compare; the database it made verified
# and reused, a page damaged from Linux found; bad input refused; prep/teardown are Windows prep
# (its --dry-run plan the same as on Linux, the system disk refused); Ctrl-C drains the load and
# still writes a complete result marked aborted; make windows-zip holds what it should, with
# CRLF text, and its fslab.exe runs version and finds its demo config beside itself.
# Wine says nothing about Windows performance
# (it opens files buffered and calls every filesystem NTFS): only behaviour is asserted here.
. "$(dirname "$0")/lib.sh"

cd "$FSLAB_TOP"
# the cross toolchain and Wine come from the Debian mirror; without them there is nothing to
# test (the build itself is not at fault)
scripts/deps.sh wine >"$T/deps.log" 2>&1 ||
	skip "the cross toolchain or Wine cannot be installed here ($(tail -1 "$T/deps.log"))"
log "make windows-unit (fslab.exe and the unit suites under Wine)"
make --no-print-directory -j2 windows-unit >"$T/wunit.log" 2>&1 || {
	# the sysroot's Debian source packages could not be fetched: nothing of ours to test
	grep -q 'fslab: apt-get source .* failed\|the Windows sysroot needs Debian source' "$T/wunit.log" &&
		skip "the Debian source packages for the Windows sysroot cannot be fetched: $(grep 'fslab:' "$T/wunit.log" | tail -1)"
	tail -40 "$T/wunit.log"
	fail "make windows-unit failed"
}
grep -E '^(ok|FAIL) +wine|wine: ' "$T/wunit.log"
grep -q '^wine: [1-9][0-9]* passed, 0 failed' "$T/wunit.log" || fail "no unit suite passed under Wine"
grep -q '^ok   wine test_os ' "$T/wunit.log" || fail "test_os did not run under Wine"

. tests/wine-env.sh
EXE=$FSLAB_TOP/build/win/fslab.exe
w() { timeout --kill-after=10 120 "$WINE" "$EXE" "$@"; }
mkdir -p "$T/db" "$T/log"
DB="Z:$T/db" LG="Z:$T/log"

log "fslab.exe run: 4 s, win32 back end"
rc=0
w run --db "$DB" --log "$LG" --db-size 64M --threads 2 --duration 4s --warmup 1s \
	--sample-interval 2s --output "Z:$T/w1.json" >"$T/w1.out" 2>&1 || rc=$?
# 3 = verdict FAIL: a 64-page cache stalls on a busy machine; the verdict is not tested here
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/w1.out"; fail "fslab.exe run failed ($rc)"; }
r=$T/w1.json
jqt $r '.schema == "fslab-result/1" and .aborted == false'
jqt $r '.config.engine == "win32" and .environment.engine == "win32"'
jqt $r '(.environment.wine | type) == "string"'
jqt $r '[.notes[] | select(test("ran under Wine"))] | length == 1'
jqt $r '.classes.db_read.ops > 50 and .classes.db_write.ops > 10 and .classes.log_write.ops > 10'
jqt $r '.classes.db_read.errors == 0 and .classes.log_write.errors == 0'
jqt $r '.checksum.ran and .checksum.bad_pages == 0 and .checksum.pages == 2047'
jqt $r '.environment.volumes[0].fstype == "ntfs"'
ls "$T"/*.tmp* >/dev/null 2>&1 && fail "a temporary result file was left"
log "Linux fslab compare reads it"
"$FSLAB" compare "$r" --format md >"$T/cmp.md" 2>"$T/cmp.err" || { cat "$T/cmp.err"; fail "compare failed"; }
grep -q 'ntfs' "$T/cmp.md" || fail "compare did not show the Windows result"

log "reuse, then a damaged page"
w run --db "$DB" --log "$LG" --db-size 64M --threads 2 --duration 2s --warmup 0 \
	--output "Z:$T/w2.json" >"$T/w2.out" 2>&1 || [ $? -eq 3 ] || { cat "$T/w2.out"; fail "second run failed"; }
jqt $T/w2.json '.init.reused == 1 and .init.created == 0 and .checksum.bad_pages == 0'
# one byte in the middle of page 1000, written from Linux behind fslab.exe's back
printf '\xff' | dd of="$T/db/fslab-db1.edb" bs=1 seek=$((1000 * 32768 + 16384)) conv=notrunc \
	status=none
rc=0
w run --db "$DB" --log "$LG" --db-size 64M --threads 2 --duration 2s --warmup 0 \
	--output "Z:$T/w3.json" >"$T/w3.out" 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "a damaged database passed"
jqt $T/w3.json '.checksum.bad_pages >= 1 or (.abort_reason // "" | test("page 1000"))'
grep -q 'page 1000' "$T/w3.out" || fail "the damaged page was not named: $(tail -5 "$T/w3.out")"

log "bad input: exit 2, nothing created"
rc=0
w run --db "Z:$T/missing" --log "$LG" --duration 2s >"$T/e1" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q 'missing' "$T/e1" || fail "missing --db not refused ($rc): $(cat "$T/e1")"
rc=0
w run --db "$DB" --log "$LG" --engine io_uring --duration 2s >"$T/e2" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q 'win32' "$T/e2" || fail "--engine io_uring not refused ($rc): $(cat "$T/e2")"
[ ! -e "$T/missing" ] || fail "a refused run created its --db"

log "fslab.exe prep goes to the Windows prep: the same plan and script as on Linux"
fx=tests/fixtures/windows
w prep --fs refs --db-disk 1 --log-disk 2 --disk-info "$fx/disks-fresh.json" --dry-run \
	>"$T/wprep" 2>&1 || fail "fslab.exe prep --dry-run failed: $(cat "$T/wprep")"
"$FSLAB" prep --fs refs --db-disk 1 --log-disk 2 --disk-info "$fx/disks-fresh.json" --dry-run \
	>"$T/lprep" 2>&1
tr -d '\r' <"$T/wprep" | diff - "$T/lprep" >"$T/prep.diff" ||
	fail "fslab.exe and fslab plan differently: $(head -20 "$T/prep.diff")"
grep -q 'Format-Volume' "$T/wprep" || fail "no script in the Windows plan"
rc=0
w prep --fs ntfs --db-disk 0 --log-disk 2 --force --disk-info "$fx/disks-fresh.json" --dry-run \
	>"$T/wprep0" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "the system disk was not refused by fslab.exe ($rc): $(cat "$T/wprep0")"
w teardown --help >"$T/wtd" 2>&1 && grep -q 'mount-root' "$T/wtd" || fail "fslab.exe teardown --help"

log "Ctrl-C: the load drains, the result is complete and marked aborted"
rm -rf "$T/db"/* "$T/log"/*
"$WINE" "$EXE" run --db "$DB" --log "$LG" --db-size 64M --threads 2 --duration 60s --warmup 0 \
	--output "Z:$T/w4.json" >"$T/w4.out" 2>&1 &
pid=$! # wine64 execs the preloader: this is fslab.exe's process
for _ in $(seq 120); do
	grep -q 'initialised at' "$T/w4.out" && break
	sleep 0.5
done
grep -q 'initialised at' "$T/w4.out" || { kill $pid 2>/dev/null || true; fail "the run did not start: $(cat "$T/w4.out")"; }
sleep 3
kill -INT $pid # Wine hands SIGINT to the console control handler as CTRL_C_EVENT
rc=0
wait $pid || rc=$?
[ $rc -eq 1 ] || fail "interrupted run: exit $rc, want 1: $(tail -5 "$T/w4.out")"
jqt $T/w4.json '.aborted == true and .abort_reason == "interrupted by Ctrl-C"'
jqt $T/w4.json '.duration_s > 1 and .duration_s < 30 and .classes.db_read.ops > 0'
"$FSLAB" compare "$T/w4.json" --allow-aborted >/dev/null 2>"$T/cmp4.err" ||
	fail "compare cannot read the interrupted result: $(cat "$T/cmp4.err")"

log "--fresh --allow-foreign-files: links named like fslab's files are not fslab's files"
# (Wine shows a Unix link as what it points to: fslab.exe sees a file of zeros and a folder of
# Exchange logs, neither with what fslab writes in its own)
P=$T/prepared
mkdir -p "$P/db" "$P/log" "$P/x"
{ head -c 65536 /dev/zero; head -c 65536 /dev/urandom; } >"$P/zero"
for n in E00.log E000000000A.log; do head -c 8192 /dev/urandom >"$P/x/$n"; done
ln -s "$P/zero" "$P/db/fslab-db1.edb"
ln -s "$P/x" "$P/log/fslab-db1-logs"
sums=$(cd "$P" && sha256sum zero x/*)
rc=0
w run --db "Z:$P/db" --log "Z:$P/log" --db-size 16M --threads 2 --duration 1s --warmup 0 \
	--fresh --allow-foreign-files --output "Z:$T/w5.json" >"$T/w5.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || { cat "$T/w5.out"; fail "links named like fslab's files: exit $rc, want 2"; }
[ "$(cd "$P" && sha256sum zero x/*)" = "$sums" ] && [ -L "$P/db/fslab-db1.edb" ] &&
	[ -L "$P/log/fslab-db1-logs" ] || fail "fslab.exe wrote through a link named like its files"

log "make windows-zip: what is in it, and its fslab.exe runs"
make --no-print-directory windows-zip >"$T/zip.log" 2>&1 || { tail -20 "$T/zip.log"; fail "make windows-zip failed"; }
version=$(sed -n '1s/^fslab (\([^ ]*\)) .*/\1/p' debian/changelog)
zip=build/win/fslab-$version-windows-x86_64.zip
[ -f "$zip" ] || fail "make windows-zip made no $zip: $(tail -3 "$T/zip.log")"
unzip -q "$zip" -d "$T/zip"
zd=$T/zip/fslab-$version-windows-x86_64
for f in fslab.exe README.txt configs/windows-demo.ini configs/ntfs-vs-refs.ini plots/bars.gp \
	docs/ON-WINDOWS.txt docs/WINDOWS.txt docs/PREP-WINDOWS.txt licenses/fslab.txt \
	licenses/jansson.txt licenses/isa-l.txt licenses/libxml2.txt licenses/mingw-w64.txt; do
	[ -s "$zd/$f" ] || fail "the zip has no $f"
done
cmp -s "$zd/fslab.exe" "$EXE" || fail "the zip's fslab.exe is not build/win/fslab.exe"
grep -q "^fslab $version for Windows" "$zd/README.txt" || fail "README.txt does not name the version"
grep -q 'gp5xx-win64-mingw.exe' "$zd/README.txt" || fail "README.txt does not say which gnuplot"
for f in README.txt docs/WINDOWS.txt configs/windows-demo.ini; do
	[ "$(grep -c $'\r$' "$zd/$f")" -eq "$(wc -l < "$zd/$f")" ] || fail "$f has lines without CRLF"
done
zw() { (cd "$zd" && timeout --kill-after=10 120 "$WINE" ./fslab.exe "$@") | tr -d '\r'; }
zw version > "$T/zver" || fail "the zip's fslab.exe version failed"
[ "$(head -1 "$T/zver")" = "$("$FSLAB" version | head -1)" ] ||
	fail "the zip's fslab.exe is '$(head -1 "$T/zver")', not this build"
grep -q '^back ends: *win32' "$T/zver" && grep -q '^system: .*Wine' "$T/zver" ||
	fail "fslab.exe version: $(cat "$T/zver")"
# the demo config is found beside fslab.exe (without inih the lab then refuses, saying so)
zw demo --dry-run > "$T/zdemo" 2>&1 || true
grep -q 'windows-demo.ini' "$T/zdemo" && ! grep -q 'not found' "$T/zdemo" ||
	fail "fslab.exe demo did not find its config: $(cat "$T/zdemo")"
echo "all good"
