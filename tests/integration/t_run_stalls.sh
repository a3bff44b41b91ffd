#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_stalls: the page-fault stall check judges the storage, not fslab's defaults.  The same
# Jetstress-like load (default cache and lazy writer) on one ext4 volume passes the check
# when the volume is fast, and fails it, with the reason named, when its database writes are
# throttled to 150/s (cgroup v1 blkio.throttle.write_iops_device on the loop device, in a
# cgroup made here for the fslab run process and removed on exit); compare then says the
# failure in plain words.
. "$(dirname "$0")/lib.sh"

blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/blkio.throttle.write_iops_device" ] ||
	skip "no cgroup v1 blkio controller with throttling at $blkio (the test guest has none either)"
cg=$blkio/fslab-test-stalls.$$
# the cgroup is ours: remove it on any exit (before lib.sh's cleanup, keeping the status)
trap 'rc=$?; [ -d "$cg" ] && rmdir "$cg" 2>/dev/null; (exit $rc); cleanup' EXIT

db=$(new_loop 1G)
lg=$(new_loop 400M)
for d in $db $lg; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 $d; done
mkdir -p $T/db $T/log
mount -o noatime $db $T/db && track_mount $T/db
mount -o noatime $lg $T/log && track_mount $T/log

# run LABEL [cgroup]: 15 s of the default jetstress load at 4 threads; exit status in $rc
run() {
	rc=0
	(
		[ -z "${2:-}" ] || echo $BASHPID >"$2/cgroup.procs"
		exec "$FSLAB" run --db $T/db --log $T/log --threads 4 --db-size 256M --duration 15s \
			--warmup 2s --sample-interval 5s --no-checksum-pass --label $1 \
			--output $T/$1.json
	) >$T/$1.out 2>$T/$1.err || rc=$?
	cat $T/$1.out
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/$1.err; fail "$1: fslab run exited $rc"; }
}
stalls() { jq -c '.verdict.checks[] | select(.name == "db_page_fault_stalls" and .scope == "overall")' $1; }

log "fast volume: the stall check passes"
run fast
r=$T/fast.json
jqt $r '.aborted == false and .config.cache_size == 33554432'
# the default cache (32 MiB for 256 MiB) keeps Jetstress's read:write shape
jqt $r '(.classes.db_read.ops / .classes.db_write.ops) as $x | $x >= 1.5 and $x <= 2.0'
jqt $r '.classes.db_write.ops > 1000'
stalls $r
jqt $r '.verdict.checks[] | select(.name == "db_page_fault_stalls" and .scope == "overall") | .pass == true and .value <= 1 and (.note | test("did not keep up") | not)'

log "database writes throttled to 150/s: the stall check fails and says why"
mkdir "$cg"
echo "$(lsblk -dno MAJ:MIN $db | tr -d ' ') 150" >"$cg/blkio.throttle.write_iops_device"
run slow "$cg"
r=$T/slow.json
[ $rc -eq 3 ] || fail "slow: expected exit 3 (verdict FAIL), got $rc"
# the throttle did its work: database writes at most 150/s (+ rounding), reads untouched
jqt $r '.classes.db_write.iops <= 160 and .classes.db_write.ops > 100'
jqt $r '.classes.db_read.iops > .classes.db_write.iops'
stalls $r
jqt $r '.verdict.pass == false'
jqt $r '.verdict.checks[] | select(.name == "db_page_fault_stalls" and .scope == "overall") | .pass == false and .value > 1'
jqt $r '.verdict.checks[] | select(.name == "db_page_fault_stalls" and .scope == "db1") | .pass == false and (.note | test("database cache \\(1024 pages\\) had no clean page left .* because the database writes \\([0-9]+/s, [0-9.]+ ms on average\\) did not keep up with the changes; faster database writes, a larger --cache or fewer --threads would fix it"))'
# only the stall check fails: the latency checks judge reads and log writes, not throttled
jqt $r '[.verdict.checks[] | select(.pass == false) | .name] | unique == ["db_page_fault_stalls"]'
grep -q "FAIL overall  db_page_fault_stalls" $T/slow.out || fail "summary does not show the failing stall check"
rmdir "$cg"

log "compare says it in plain words"
"$FSLAB" compare $T/fast.json $T/slow.json --no-charts --format text >$T/cmp.txt 2>$T/cmp.err ||
	{ cat $T/cmp.err; fail "compare failed"; }
grep -q "slow failed the page-fault stall check in 1 of 1 runs" $T/cmp.txt ||
	{ cat $T/cmp.txt; fail "compare does not explain the stall failure"; }
grep -q "fast failed the page-fault stall check" $T/cmp.txt && fail "compare blames the fast volume"
grep -q "faster database writes, a larger cache or fewer threads would pass" $T/cmp.txt ||
	fail "compare does not say what would fix it"
echo "all good"
