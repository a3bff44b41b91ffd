# SPDX-License-Identifier: MIT
# guest/ntfs3.sh: run inside the test guest by tests/integration/t_vm_ntfs3.sh: fslab prep
# --fs ntfs3 on two null_blk disks, a short run, teardown; prep.json, the result and fslab's
# output land in OUT for the host side to check.
. "$FSLAB_TOP/tests/vm/guest-lib.sh"
modprobe ntfs3
modprobe null_blk nr_devices=0
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
for n in n3db n3log; do
	d=/sys/kernel/config/nullb/$n
	mkdir $d
	echo 256 >$d/size
	echo 1 >$d/memory_backed
	echo 1 >$d/power
done
glog "prep --fs ntfs3"
"$FSLAB" prep --fs ntfs3 --db-dev /dev/n3db --log-dev /dev/n3log --mount-root /mnt/lab >"$OUT/prep.out" 2>&1 ||
	{ cat "$OUT/prep.out"; gfail "prep --fs ntfs3 failed"; }
cp /mnt/lab/prep.json "$OUT/prep.json"
grep -E ' /mnt/lab/(db|log) ' /proc/mounts >"$OUT/mounts"
glog "run"
rc=0
"$FSLAB" run --db /mnt/lab/db --log /mnt/lab/log --db-size 32M --duration 4s --warmup 0 --threads 2 \
	--sample-interval 2s --output "$OUT/ntfs3.json" >"$OUT/run.out" 2>&1 || rc=$?
echo "$rc" >"$OUT/run.rc"
"$FSLAB" teardown --mount-root /mnt/lab >"$OUT/teardown.out" 2>&1 || gfail "teardown failed"
grep -c ' /mnt/lab/' /proc/mounts >"$OUT/mounts.after" || true
glog "done: run exit $rc"
