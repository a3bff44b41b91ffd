#!/bin/bash
# SPDX-License-Identifier: MIT
# t_vm_ntfs3: the in-kernel ntfs3 driver as the second NTFS driver beside ntfs-3g.  On this
# host (no ntfs3) prep refuses --fs ntfs3 naming the reason, nothing created; in the QEMU guest
# (Debian 6.12, ntfs3 as a module) prep formats with mkntfs and mounts -t ntfs3, a run records
# ntfs3 as the filesystem, teardown unmounts.
. "$(dirname "$0")/lib.sh"
. "$FSLAB_TOP/tests/vm/lib.sh"

if ! grep -qw ntfs3 /proc/filesystems &&
   ! grep -q '/ntfs3\.ko' "/lib/modules/$(uname -r)/modules.dep" 2>/dev/null; then
	log "host without ntfs3: refused"
	expect_status 2 "$FSLAB" prep --fs ntfs3 --image-dir $T/img --db-size 64M --log-size 32M \
		--mount-root $T/mnt
	grep -q "the running kernel ($(uname -r)) has no ntfs3 driver" $T/stderr || fail "no reason: $(cat $T/stderr)"
	grep -q -- "--fs ntfs (ntfs-3g" $T/stderr || fail "no way out named: $(cat $T/stderr)"
	[ ! -e $T/img ] && [ ! -e $T/mnt ] || fail "a refused prep created something"
	# the lab refuses [fs ntfs3] in its preflight, before any cell
	printf '[devices]\nimage_dir = %s\n[workload]\n[fs ext4]\n[fs ntfs3]\n' $T/images >$T/lab.ini
	expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/never
	grep -q "$T/lab.ini:5: \[fs ntfs3\] needs the kernel's ntfs3 driver, which the running kernel lacks" \
		$T/stderr || fail "the lab did not refuse [fs ntfs3]: $(cat $T/stderr)"
	[ ! -e $T/never ] && [ ! -e $T/images ] || fail "the refused lab created something"
fi

vm_need 6.12
rc=0
vm_run --timeout 400 "$FSLAB_TOP/tests/vm/guest/ntfs3.sh" >$T/out || rc=$?
grep '^== (guest)' $T/out || true
[ $rc -eq 0 ] || { tail -30 $T/out; fail "the guest script failed (exit $rc)"; }
P=$T/vm/prep.json R=$T/vm/ntfs3.json
jqt $P '.fs == "ntfs3"'
jqt $P '.volumes.db.mount.fstype == "ntfs3" and .volumes.log.mount.fstype == "ntfs3" and .volumes.db.mount.helper == null'
jqt $P '.volumes.db.verified.cluster_size == 65536'
jqt $P '[.notes[] | select(test("in-kernel ntfs3"))] | length == 1'
grep -q ' /mnt/lab/db ntfs3 ' $T/vm/mounts || fail "db not mounted -t ntfs3: $(cat $T/vm/mounts)"
# the run: 0 (PASS) or 3 (FAIL on this emulated, shared machine); the filesystem is ntfs3
read -r st <$T/vm/run.rc
[ "$st" -eq 0 ] || [ "$st" -eq 3 ] || { tail -20 $T/vm/run.out; fail "run exit $st"; }
jqt $R '[.environment.volumes[] | select(.role == "db" or .role == "log") | .fstype] == ["ntfs3", "ntfs3"]'
jqt $R '.environment.prep.fs == "ntfs3"'
jqt $R '.classes.db_read.ops > 0 and .classes.log_write.ops > 0 and .checksum.bad_pages == 0'
[ "$(cat $T/vm/mounts.after)" = 0 ] || fail "teardown left mounts"
echo "t_vm_ntfs3: ok"
