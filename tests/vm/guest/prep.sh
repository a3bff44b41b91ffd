# SPDX-License-Identifier: MIT
# guest/prep.sh: run inside the test guest by tests/integration/t_vm_prep.sh.  fslab prep on
# devices whose topology the kernel takes from the hardware, not from a loop device:
#   virtio: /dev/vda, /dev/vdb, virtio-blk disks that QEMU gives 512-byte logical, 4 KiB
#           physical sectors, min_io 64 KiB and opt_io 1 MiB (run.sh --disk IMG:OPTS);
#   scsi:   two scsi_debug disks (one store each), physblk_exp=3 (4 KiB physical), opt_blks=2048
#           (opt_io 1 MiB) and lowest_aligned=7 (alignment offset 3584: misaligned).
# For each: OUT/<name>.prep.json (prep's record), OUT/<name>.sysfs (what the kernel reports,
# one "dev field value" a line), OUT/<name>.dumpe2fs (the superblock as mkfs wrote it).  The host
# side compares them.
. "$FSLAB_TOP/tests/vm/guest-lib.sh"

# sysfs_topo NAME DEV...: the kernel's view, queue/ and alignment_offset
sysfs_topo() {
	local name=$1 d k; shift
	for d in "$@"; do
		k=$(basename "$d")
		for f in logical_block_size physical_block_size minimum_io_size optimal_io_size; do
			echo "$d $f $(cat /sys/block/$k/queue/$f)"
		done
		echo "$d alignment_offset $(cat /sys/block/$k/alignment_offset)"
	done >"$OUT/$name.sysfs"
}
# prep NAME DB LOG: fslab prep --fs ext4 on the two devices, record, tear down
prep() {
	local name=$1 db=$2 log=$3 m=/mnt/$1
	glog "$name: fslab prep --fs ext4 --db-dev $db --log-dev $log"
	sysfs_topo "$name" "$db" "$log"
	"$FSLAB" prep --fs ext4 --db-dev "$db" --log-dev "$log" --mount-root "$m" >"$OUT/$name.out" 2>&1 ||
		{ cat "$OUT/$name.out"; gfail "$name: fslab prep failed"; }
	cp "$m/prep.json" "$OUT/$name.prep.json"
	for d in "$db" "$log"; do
		echo "== $d"
		dumpe2fs -h "$d" 2>/dev/null
	done >"$OUT/$name.dumpe2fs"
	"$FSLAB" teardown --mount-root "$m" >>"$OUT/$name.out" 2>&1 ||
		{ cat "$OUT/$name.out"; gfail "$name: fslab teardown failed"; }
	glog "$name: done"
}

modprobe virtio_blk
n=0
until [ -b /dev/vda ] && [ -b /dev/vdb ]; do
	n=$((n + 1)); [ $n -le 100 ] || gfail "virtio_blk: no /dev/vda and /dev/vdb within 10 s"; sleep 0.1
done
prep virtio /dev/vda /dev/vdb

modprobe sd_mod
modprobe scsi_debug add_host=2 per_host_store=1 dev_size_mb=160 physblk_exp=3 opt_blks=2048 \
	lowest_aligned=7
n=0
# the disks scsi_debug made, in host order (sda on adapter0, sdb on adapter1)
sdisks() {
	for b in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$b" ] && basename "$b"
	done
}
while [ "$(sdisks | wc -l)" -lt 2 ]; do
	n=$((n + 1)); [ $n -le 100 ] || gfail "scsi_debug: no two disks within 10 s"; sleep 0.1
done
set -- $(sdisks)
gassert test -b "/dev/$1" -a -b "/dev/$2"
prep scsi "/dev/$1" "/dev/$2"
echo "guest: done"
