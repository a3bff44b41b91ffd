#!/bin/bash
# SPDX-License-Identifier: MIT
# t_vm_prep: fslab prep on disks whose topology comes from the (emulated) hardware, in the QEMU
# guest (tests/vm/, Debian 6.12): virtio-blk disks with min_io 64 KiB / opt_io 1 MiB and 4 KiB
# physical sectors, and scsi_debug disks with 4 KiB physical sectors, opt_io 1 MiB and a
# 3584-byte alignment offset.  prep.json must record what the kernel reports (sysfs), the
# alignment verdict that follows from it, and ext4 must carry the stride and stripe width
# docs/PREP.md derives from it.
. "$(dirname "$0")/lib.sh"
. "$FSLAB_TOP/tests/vm/lib.sh"
vm_need 6.12

virtio=logical_block_size=512,physical_block_size=4096,min_io_size=65536,opt_io_size=1048576
truncate -s 256M $T/vda.img $T/vdb.img
rc=0
vm_run --timeout 400 --mem 1536M --disk "$T/vda.img:$virtio" --disk "$T/vdb.img:$virtio" \
	"$FSLAB_TOP/tests/vm/guest/prep.sh" >$T/out || rc=$?
grep '^== (guest)' $T/out || true
[ $rc -eq 0 ] || { tail -30 $T/out; fail "the guest script failed (exit $rc)"; }

# sysfs NAME DEV FIELD: what the guest kernel reported
sysfs() { awk -v d="$2" -v f="$3" '$1 == d && $2 == f { print $3 }' $T/vm/$1.sysfs; }
# ext4 NAME DEV FIELD: a superblock field as dumpe2fs printed it ("" when absent)
ext4() {
	awk -v d="== $2" -v f="$3:" '$0 == d { on = 1; next } /^== / { on = 0 }
		on && index($0, f) == 1 { sub(/^[^:]*: */, ""); print; exit }' $T/vm/$1.dumpe2fs
}
# volume NAME ROLE DEV LOG PHYS MINIO OPTIO OFFSET ALIGNED GRAIN STRIDE WIDTH
volume() {
	local name=$1 role=$2 dev=$3 P=$T/vm/$1.prep.json v=".volumes.$2.topology"
	eq() { [ "$2" = "$3" ] || fail "$name $role $1: got '$2', want '$3'"; }
	eq device "$(jq -r ".volumes.$role.device" $P)" "$dev"
	# the kernel reports the topology asked of the hardware
	eq "sysfs logical" "$(sysfs $name $dev logical_block_size)" $4
	eq "sysfs physical" "$(sysfs $name $dev physical_block_size)" $5
	eq "sysfs min_io" "$(sysfs $name $dev minimum_io_size)" $6
	eq "sysfs opt_io" "$(sysfs $name $dev optimal_io_size)" $7
	eq "sysfs alignment_offset" "$(sysfs $name $dev alignment_offset)" $8
	# prep.json records it
	eq logical_sector "$(jq -r "$v.logical_sector" $P)" $4
	eq physical_sector "$(jq -r "$v.physical_sector" $P)" $5
	eq min_io "$(jq -r "$v.min_io" $P)" $6
	eq opt_io "$(jq -r "$v.opt_io" $P)" $7
	eq alignment_offset "$(jq -r "$v.alignment_offset" $P)" $8
	eq aligned "$(jq -r "$v.aligned" $P)" $9
	eq grain "$(jq -r "$v.grain" $P)" ${10}
	# ext4 on it: what prep asked for, what mkfs wrote, what prep verified
	eq "RAID stride" "$(ext4 $name $dev 'RAID stride')" ${11}
	eq "RAID stripe width" "$(ext4 $name $dev 'RAID stripe width')" ${12}
	eq "verified stride" "$(jq -r ".volumes.$role.verified.stride" $P)" ${11}
	eq "verified stripe_width" "$(jq -r ".volumes.$role.verified.stripe_width" $P)" ${12}
	echo "ok: $name $role $dev: sectors $4/$5, min_io $6, opt_io $7, offset $8, aligned $9, grain ${10}, stride ${11}, stripe width ${12}"
}
# virtio-blk: chunk = min_io 64 KiB (16 blocks), stripe = opt_io 1 MiB (256 blocks), grain 1 MiB
volume virtio db /dev/vda 512 4096 65536 1048576 0 true 1048576 16 256
volume virtio log /dev/vdb 512 4096 65536 1048576 0 true 1048576 16 256
# scsi_debug: min_io 4 KiB is one block (no chunk: stride 1), opt_io 1 MiB; offset 3584 is a
# misaligned start, a note and aligned false, never a refusal
volume scsi db /dev/sda 512 4096 4096 1048576 3584 false 1048576 1 256
volume scsi log /dev/sdb 512 4096 4096 1048576 3584 false 1048576 1 256
jqt $T/vm/scsi.prep.json '[.notes[] | select(test("align"; "i"))] | length >= 1'
echo "t_vm_prep: ok"
