# SPDX-License-Identifier: MIT
# t_selftest.sh: fslab selftest on Linux (docs/WINDOWS.md "First run on Windows" is built on it):
# ext4 on loop devices with direct I/O passes every check; the same volume with --buffered and a
# tmpfs (no device, no alignment rules) fail the I/O checks or say UNKNOWN, never PASS; the
# record embedded by fslab run --selftest and shown in compare's Setup; records that do not fit
# the run refused (exit 2, nothing written); bad input; Ctrl-C removes the test file; nothing
# else in the directory touched.  Needs root (loop devices, mounts).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices)"
status() { jq -r --arg id "$2" --arg d "${3:-}" '.checks[] | select(.id == $id and
	(($d == "") or .dir == $d)) | .status' "$1"; }

log "ext4 on two loop devices with direct I/O: every check PASS"
mkdir -p "$T/db" "$T/log" "$T/tmpfs"
for v in db log; do
	dev=$(new_loop 2G)
	# no lazy inode-table init: its background writes would (rightly) make the checks UNKNOWN
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
	mount "$dev" "$T/$v"
	track_mount "$T/$v"
done
echo "the user's own file" >"$T/db/keep.txt"
"$FSLAB" selftest --dir "$T/db" --dir "$T/log" --json "$T/st.json" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "selftest on ext4/loop failed ($?)"; }
cat "$T/out"
jqt "$T/st.json" '.schema == "fslab-selftest/1" and .buffered == false and
	(.volumes | length) == 2 and .summary.FAIL == 0 and .summary.UNKNOWN == 0'
for id in clock timer; do
	[ "$(status "$T/st.json" $id)" = PASS ] || fail "$id: $(status "$T/st.json" $id)"
done
for d in "$T/db" "$T/log"; do
	for id in filesystem free_space device_counters unbuffered_reads write_through \
		unaligned_refused; do
		[ "$(status "$T/st.json" $id "$d")" = PASS ] ||
			fail "$id on $d: $(status "$T/st.json" $id "$d") (want PASS)"
	done
	[ "$(status "$T/st.json" integrity_streams "$d")" = N/A ] || fail "integrity_streams on Linux"
done
# the measured facts behind the PASS: the device read the whole file, twice
jqt "$T/st.json" '[.checks[] | select(.id == "unbuffered_reads") | .measured |
	.device_read_1 >= .bytes * 0.95 and .device_read_2 >= .bytes * 0.95] | all'
jqt "$T/st.json" '[.checks[] | select(.id == "write_through") | .measured |
	.counted_on_return == .writes and .writes == 64] | all'
jqt "$T/st.json" '.checks[] | select(.id == "filesystem") | .fact | test("^ext4 with 4 KiB blocks, on /dev/loop")'
grep -qE '^PASS +unbuffered_reads +16 MiB read \(opened O_DIRECT \| O_DSYNC\): the device read 1[67]' \
	"$T/out" || fail "the unbuffered_reads line"
grep -q '^selftest: 14 PASS, 0 FAIL, 0 UNKNOWN, 2 N/A$' "$T/out" || fail "summary line"
[ "$(ls -A "$T/db")" = "$(printf 'keep.txt\nlost+found')" ] ||
	fail "selftest left or removed something in the directory: $(ls -A "$T/db")"
[ "$(cat "$T/db/keep.txt")" = "the user's own file" ] || fail "the user's file changed"

log "the buffered case caught: --buffered fails the I/O checks (exit 3)"
rc=0
"$FSLAB" selftest --dir "$T/db" --buffered --json "$T/buf.json" >"$T/out" 2>&1 || rc=$?
cat "$T/out"
[ $rc -eq 3 ] || fail "--buffered: exit $rc, want 3"
for id in unbuffered_reads write_through unaligned_refused; do
	[ "$(status "$T/buf.json" $id)" = FAIL ] || fail "--buffered: $id $(status "$T/buf.json" $id)"
done
jqt "$T/buf.json" '.buffered == true and (.checks[] | select(.id == "unbuffered_reads") |
	.measured.device_read_1 < .measured.bytes / 2)'

log "tmpfs: no device counters, no alignment rules: never PASS for the I/O checks"
mount -t tmpfs -o size=256m fslab-selftest "$T/tmpfs"
track_mount "$T/tmpfs"
rc=0
"$FSLAB" selftest --dir "$T/tmpfs" --json "$T/tmpfs.json" >"$T/out" 2>&1 || rc=$?
cat "$T/out"
[ $rc -eq 3 ] || fail "tmpfs: exit $rc, want 3"
[ "$(status "$T/tmpfs.json" device_counters)" = FAIL ] || fail "tmpfs: device_counters"
for id in unbuffered_reads write_through unaligned_refused; do
	case $(status "$T/tmpfs.json" $id) in
	FAIL|UNKNOWN) ;;
	*) fail "tmpfs: $id is $(status "$T/tmpfs.json" $id), want FAIL or UNKNOWN" ;;
	esac
done

log "fslab run --selftest: embedded, shown in compare's Setup; a failing record noted"
"$FSLAB" run --workload randread --db "$T/db" --db-size 32M --threads 1 --duration 2s \
	--warmup 0 --selftest "$T/st.json" --output "$T/r-ext4.json" --quiet >/dev/null ||
	fail "run --selftest"
jqt "$T/r-ext4.json" '.environment.selftest.schema == "fslab-selftest/1" and
	.environment.selftest.summary.PASS == 14 and ([.notes[] | select(test("selftest"))] | length) == 0'
"$FSLAB" run --workload randread --db "$T/tmpfs" --db-size 32M --threads 1 --duration 2s \
	--warmup 0 --selftest "$T/tmpfs.json" --output "$T/r-tmpfs.json" --quiet >/dev/null ||
	fail "run --selftest with a failing record"
jqt "$T/r-tmpfs.json" '[.notes[] | select(test("fslab selftest .* did not pass every check: FAIL: device_counters"))] | length == 1'
"$FSLAB" compare "$T/r-ext4.json" "$T/r-tmpfs.json" --allow-mismatch --no-charts \
	--output "$T/rep" >/dev/null 2>&1 || fail "compare"
grep -F '| Self-test (fslab selftest) | PASS (14 checks passed, 2 n/a; ' "$T/rep/report.md" ||
	fail "compare's Setup: no self-test row for the ext4 run"
grep -qE '\| FAIL: device_counters(, [a-z_]+)*(; UNKNOWN: [a-z_, ]+)? \(' "$T/rep/report.md" ||
	fail "compare's Setup: the tmpfs run's failed checks not shown"
# results without a record: no row at all
"$FSLAB" run --workload randread --db "$T/db" --db-size 32M --threads 1 --duration 2s \
	--warmup 0 --output "$T/r-none.json" --quiet >/dev/null || fail "run without --selftest"
"$FSLAB" compare "$T/r-none.json" --no-charts --output "$T/rep2" >/dev/null 2>&1 || fail "compare"
! grep -q 'Self-test' "$T/rep2/report.md" || fail "a Self-test row without any record"

log "records that do not fit the run: exit 2, nothing written"
before=$(ls -lA --time-style=full-iso "$T/db" "$T/tmpfs")
refuse() { # refuse WHAT PATTERN RUN-ARGS...
	local what=$1 pat=$2; shift 2
	rm -f "$T/r-bad.json"
	expect_status 2 "$FSLAB" run --workload randread --db-size 32M --duration 2s "$@" \
		--output "$T/r-bad.json"
	grep -q -- "$pat" "$T/stderr" || { cat "$T/stderr"; fail "$what: message"; }
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$what: one line"; }
	[ ! -e "$T/r-bad.json" ] || fail "$what: a result was written"
}
refuse "missing record" "cannot be read (No such file or directory)" --db "$T/db" --selftest "$T/nosuch.json"
refuse "a result, not a record" "not an fslab selftest record" --db "$T/db" \
	--selftest "$T/r-none.json"
refuse "--buffered record" "made with --buffered" --db "$T/db" --selftest "$T/buf.json"
refuse "other volume" "does not cover $T/tmpfs" --db "$T/tmpfs" --selftest "$T/st.json"
jq '.host.hostname = "elsewhere"' "$T/st.json" >"$T/other-host.json"
refuse "other host" "made on 'elsewhere'" --db "$T/db" --selftest "$T/other-host.json"
[ "$(ls -lA --time-style=full-iso "$T/db" "$T/tmpfs")" = "$before" ] ||
	fail "a refused run touched its directory"

log "bad input: exit 2, nothing written"
expect_status 2 "$FSLAB" selftest --json "$T/x.json"
grep -q 'no --dir' "$T/stderr" || fail "no --dir"
expect_status 2 "$FSLAB" selftest --dir "$T/nosuch"
expect_status 2 "$FSLAB" selftest --dir "$T/db" --size 100K
expect_status 2 "$FSLAB" selftest --dir "$T/db" --json "$T/nodir/x.json"
expect_status 2 "$FSLAB" selftest --dir "$T/db" stray
[ ! -e "$T/x.json" ] || fail "a record was written on bad input"
[ -z "$(find "$T/db" -name '.fslab-selftest.*')" ] || fail "a test file was left"

log "Ctrl-C: the test file removed, no record, exit 1"
"$FSLAB" selftest --dir "$T/log" --size 1G --json "$T/int.json" >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 500); do
	[ -n "$(find "$T/log" -maxdepth 1 -name '.fslab-selftest.*')" ] && break
	sleep 0.01
done
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 1 ] || { cat "$T/out" "$T/err"; fail "interrupted selftest: exit $rc, want 1"; }
grep -q 'interrupted by SIGINT' "$T/err" || fail "interrupted: not said"
[ -z "$(find "$T/log" -name '.fslab-selftest.*')" ] || fail "interrupted: test file left"
[ ! -e "$T/int.json" ] || fail "interrupted: a record was written"
echo "t_selftest: ok"
