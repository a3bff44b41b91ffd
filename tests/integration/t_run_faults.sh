#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_faults: Jetstress runs that meet real faults end truthfully (issues 9 and 12).
# - a load thread that cannot set up its I/O (EMFILE under a low `ulimit -n`) stops the run:
#   aborted, verdict FAIL with a load_failures check naming the thread and the error;
# - the log volume filled up mid-run (the spare log file cannot be created) and the log
#   directory removed mid-run: aborted, the error counted, verdict FAIL naming it;
# - a page the load found corrupt (and the lazy writer rewrote) still counts in the checksum
#   pass: never "0 bad pages" after the load saw one;
# - a database whose initialisation was killed (kill -9) is recognised and recreated with a
#   note; a flipped bit in a database header is reported as corruption (exit 2, untouched).
. "$(dirname "$0")/lib.sh"

db=$(new_loop 4G)
lg=$(new_loop 100M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
D=$T/db L=$T/log
mkdir -p $D $L
mount -o noatime $db $D && track_mount $D
mount -o noatime $lg $L && track_mount $L

# wait_for FILE SECS: until FILE exists
wait_for() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do [ -e "$1" ] && return 0; sleep 0.1; done
	fail "$1 did not appear within $2 s"
}
# summary_fails OUT CHECK: the printed verdict is FAIL and lists CHECK as failing
summary_fails() {
	grep -q '^Verdict: FAIL' "$1" || fail "$1: the summary does not say Verdict: FAIL"
	grep -Eq "^  FAIL +overall +$2 " "$1" || fail "$1: the summary does not show $2 failing"
}

log "a session that cannot set up its I/O engine stops the run and fails it"
r=$T/emfile.json
rc=0
(
	# only stdin/out/err open, then a descriptor limit the sessions' rings run into
	for f in /proc/$BASHPID/fd/*; do
		n=${f##*/}
		[ "$n" -gt 2 ] && eval "exec $n>&-"
	done
	ulimit -n 14
	exec "$FSLAB" run --db $D --log $L --db-size 256M --threads 8 --duration 30s --warmup 0 \
		--engine io_uring --no-checksum-pass --output $r
) >$T/emfile.out 2>$T/emfile.err || rc=$?
cat $T/emfile.out
if [ "$(jqv $r .environment.engine)" != io_uring ]; then
	echo "io_uring unavailable (fell back to psync): the EMFILE case needs rings; skipped"
else
	[ $rc -eq 1 ] || { cat $T/emfile.err; fail "EMFILE: expected exit 1 (aborted), got $rc"; }
	grep -q "cannot set up the io_uring I/O engine: Too many open files" $T/emfile.err ||
		fail "the failing thread was not named on stderr"
	jqt $r '.aborted and (.abort_reason | test("cannot set up the io_uring I/O engine: Too many open files"))'
	jqt $r '.duration_s < 20'
	jqt $r '.verdict.pass == false'
	jqt $r '[.verdict.checks[] | select(.name == "load_failures" and .scope == "overall")][0] | .pass == false and .value >= 1 and (.note | test("Too many open files"))'
	jqt $r '.abort_reason == ([.verdict.checks[] | select(.name == "load_failures" and .scope == "overall")][0].note)'
	summary_fails $T/emfile.out load_failures
fi

log "log volume full when the spare log file is created"
r=$T/full.json
"$FSLAB" run --db $D --log $L --db-size 256M --threads 4 --duration 60s --warmup 0 \
	--no-checksum-pass --output $r >$T/full.out 2>$T/full.err &
pid=$!
wait_for $L/fslab-db1-logs/E00tmp.log 60
sleep 0.5
# fill what is left (root may use the reserved blocks too)
fallocate -l $(($(stat -f -c '%a * %S' $L))) $L/fill 2>/dev/null || true
dd if=/dev/zero of=$L/fill2 bs=64k status=none 2>/dev/null || true
rc=0
wait $pid || rc=$?
rm -f $L/fill $L/fill2
cat $T/full.out
[ $rc -eq 1 ] || { cat $T/full.err; fail "log volume full: expected exit 1 (aborted), got $rc"; }
jqt $r '.aborted and (.abort_reason | test("No space left on device"))'
jqt $r '.duration_s < 50'
jqt $r '.classes.log_write.errors >= 1'
jqt $r '.verdict.pass == false'
jqt $r '[.verdict.checks[] | select(.name == "load_failures" and .scope == "db1")][0] | .pass == false and (.note | test("log writer: .*No space left on device"))'
jqt $r '[.verdict.checks[] | select(.name == "io_errors" and .scope == "overall")][0] | .pass == false and .value >= 1'
summary_fails $T/full.out load_failures
grep -Eq '^  Log writes .* [1-9][0-9]*$' $T/full.out || fail "the summary shows no log write error"

log "log directory removed mid-run"
r=$T/rmlog.json
"$FSLAB" run --db $D --log $L --db-size 256M --threads 4 --duration 60s --warmup 0 \
	--no-checksum-pass --output $r >$T/rmlog.out 2>$T/rmlog.err &
pid=$!
wait_for $L/fslab-db1-logs/E00tmp.log 60
sleep 1
rm -rf $L/fslab-db1-logs
rc=0
wait $pid || rc=$?
cat $T/rmlog.out
[ $rc -eq 1 ] || { cat $T/rmlog.err; fail "log directory removed: expected exit 1, got $rc"; }
jqt $r '.aborted and (.abort_reason | test("No such file or directory"))'
jqt $r '.duration_s < 50 and .classes.log_write.errors >= 1 and .verdict.pass == false'
jqt $r '[.verdict.checks[] | select(.name == "load_failures" and .scope == "overall")][0] | .pass == false and (.note | test("log"))'
summary_fails $T/rmlog.out load_failures

log "a corrupt page the load found and rewrote counts in the checksum pass"
# 512 pages: the load reads (and rewrites) every page many times in a few seconds
S=$D/small
mkdir -p $S
"$FSLAB" run --db $S --log $L --db-size 16M --threads 2 --duration 1s --warmup 0 \
	--no-checksum-pass --output $T/small0.json >/dev/null 2>&1 || [ $? -eq 3 ] ||
	fail "creating the small database failed"
dbf=$S/fslab-db1.edb
off=$((300 * 32768 + 12345))
b=$(dd if=$dbf bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 4)))" | dd of=$dbf bs=1 seek=$off count=1 conv=notrunc,fsync 2>/dev/null
r=$T/rewritten.json
rc=0
"$FSLAB" run --db $S --log $L --db-size 16M --threads 2 --duration 5s --warmup 0 \
	--output $r >$T/rw.out 2>$T/rw.err || rc=$?
cat $T/rw.out
[ $rc -eq 3 ] || { cat $T/rw.err; fail "corrupt page: expected exit 3 (verdict FAIL), got $rc"; }
jqt $r '[.notes[] | select(test("checksum error during the load: db1 page 300"))] | length == 1'
jqt $r '.checksum.ran and .checksum.bad_pages >= 1'
jqt $r '.checksum.first_bad | test("db1 page 300: found corrupt during the load, rewritten before the checksum pass")'
jqt $r '[.verdict.checks[] | select(.name == "checksum_errors" and .scope == "overall")][0] | .pass == false and .value >= 1'
grep -q "Checksum pass: 511 pages, [1-9][0-9]* bad" $T/rw.out || fail "the summary says no bad page"

log "a flipped bit in the database header is corruption, refused, the file untouched"
flip=$((100))
b=$(dd if=$dbf bs=1 skip=$flip count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 1)))" | dd of=$dbf bs=1 seek=$flip count=1 conv=notrunc,fsync 2>/dev/null
sum=$(md5sum <$dbf)
expect_status 2 "$FSLAB" run --db $S --log $L --db-size 16M --threads 2 --duration 1s --output $T/hdr.json
grep -q "database header corrupt" $T/stderr || fail "header corruption not reported: $(cat $T/stderr)"
grep -q "not an fslab database" $T/stderr && fail "header corruption reported as a foreign file"
[ "$(md5sum <$dbf)" = "$sum" ] || fail "the corrupt database was modified"
[ ! -e $T/hdr.json ] || fail "a result was written for refused input"

log "kill -9 during initialisation: recognised as interrupted, recreated with a note"
rm -f $D/fslab-db1.edb
"$FSLAB" run --db $D --log $L --db-size 3G --threads 2 --duration 2s --warmup 0 \
	--no-checksum-pass --output $T/killed.json >/dev/null 2>$T/kill.err &
pid=$!
for ((i = 0; i < 300; i++)); do grep -q "creating 3 GiB database" $T/kill.err && break; sleep 0.1; done
grep -q "creating 3 GiB database" $T/kill.err || fail "initialisation did not start: $(cat $T/kill.err)"
sleep 0.5
kill -9 $pid
wait $pid 2>/dev/null || true
grep -q "initialised at" $T/kill.err && fail "the initialisation finished before the kill (too fast to test)"
[ -e $D/fslab-db1.edb ] || fail "no half-made database file left by the kill"
r=$T/again.json
rc=0
"$FSLAB" run --db $D --log $L --db-size 3G --threads 2 --duration 2s --warmup 0 \
	--no-checksum-pass --output $r >$T/again.out 2>$T/again.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/again.err; fail "after the kill: exit $rc"; }
grep -q "recreating (its initialisation was interrupted)" $T/again.err ||
	fail "the interrupted initialisation was not recognised: $(cat $T/again.err)"
jqt $r '.init.created == 1 and .aborted == false'
jqt $r '[.notes[] | select(test("initialisation had been interrupted"))] | length == 1'
echo "all good"
