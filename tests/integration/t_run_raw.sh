#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_raw: the raw-device baseline: the same Jetstress-like load on block devices without a
# filesystem; and the refusals that protect data on them, fslab prep's policy (mounted,
# signature, same device, the same storage under two device numbers).
. "$(dirname "$0")/lib.sh"

db=$(new_loop 1200M)
lg=$(new_loop 256M)
r=$T/raw.json
# exit 3 (verdict FAIL) is accepted in both runs: on a busy machine the lazy writer can fall
# behind (page-fault stalls); this test is about raw devices, the verdict is t_run_jetstress's
rc=0
"$FSLAB" run --db $db --log $lg --duration 4s --warmup 0 --db-size 1G --threads 4 \
	--output $r >$T/out 2>$T/err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat $T/err; fail "raw run failed ($rc)"; }
# a fresh (all-zero) device holds no database: "creating", not "initialisation interrupted"
grep -q 'recreating' $T/err && fail "a fresh device taken for an interrupted database: $(grep recreating $T/err)"
jqt $r '[.notes[]? | select(test("interrupted"))] | length == 0' 
jqt $r '.label == "raw" and .aborted == false and .environment.volumes[0].raw == true'
jqt $r '.classes.db_read.ops > 100 and .classes.log_write.ops > 10'
jqt $r '.classes.log_write.min_bytes >= 4096 and .classes.log_write.max_bytes <= 65536'
jqt $r '[.instances[].log_nonsequential] | add == 0'
jqt $r '.checksum.ran and .checksum.bad_pages == 0'
jqt $r "[.devices[] | select(.role == \"db\")][0].name == \"$(basename $db)\""
# a second run reuses the database on the device
rc=0
"$FSLAB" run --db $db --log $lg --duration 2s --warmup 0 --db-size 1G --threads 2 \
	--output $T/raw2.json >/dev/null 2>&1 || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "second raw run failed ($rc)"
jqt $T/raw2.json '.init.reused == 1'

# refusals: exit 2, device untouched
expect_status 2 "$FSLAB" run --db $db --log $db --duration 2s --db-size 64M
grep -q "separate devices" $T/stderr || fail "same device not refused clearly"
expect_status 2 "$FSLAB" run --db $db --log $T --duration 2s --db-size 64M
grep -q "not a mix" $T/stderr || fail "mix not refused clearly"
# fslab prep's same-storage policy (src/platform/blockdev.c): a second loop device on the log's backing
# file is the log's storage under another number; the log device untouched
alias_lg=$(losetup --find --show "$(losetup -n -O BACK-FILE $lg | sed 's/ *$//')")
lsum=$(md5sum < $lg)
expect_status 2 "$FSLAB" run --db $alias_lg --log $lg --duration 2s --db-size 64M --force
grep -q -- "--db $alias_lg and --log $lg are the same storage (both backed by" $T/stderr ||
	fail "same storage not refused clearly: $(cat $T/stderr)"
[ "$(md5sum < $lg)" = "$lsum" ] || fail "the log device was written"
losetup -d $alias_lg

sig=$(new_loop 256M)
mkfs.ext4 -q $sig
sum=$(md5sum < $sig)
expect_status 2 "$FSLAB" run --db $sig --log $lg --duration 2s --db-size 64M
grep -q "ext4" $T/stderr && grep -q -- "--force" $T/stderr || fail "signature refusal unclear: $(cat $T/stderr)"
[ "$(md5sum < $sig)" = "$sum" ] || fail "device with a signature was modified"
mkdir -p $T/m && mount $sig $T/m && track_mount $T/m
expect_status 2 "$FSLAB" run --db $sig --log $lg --duration 2s --db-size 64M --force
grep -q "mounted" $T/stderr || fail "mounted device not refused: $(cat $T/stderr)"
umount $T/m
# --force lets it overwrite the signature
# exit 3 (verdict FAIL) is allowed: a 64 MiB database has a small cache (8 MiB) and page-fault
# stalls on a busy machine; what matters here is that --force ran the load
rc=0
"$FSLAB" run --db $sig --log $lg --duration 2s --warmup 0 --db-size 64M --threads 2 --force \
	--output $T/forced.json >/dev/null 2>$T/forced.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "--force run failed ($rc): $(cat $T/forced.err)"
jqt $T/forced.json '.aborted == false'
echo "all good"
