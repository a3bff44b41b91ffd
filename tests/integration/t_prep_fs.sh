#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_fs.sh: fslab prep on images for ext4, xfs, ntfs and btrfs.  Checks with tools other
# than the ones prep used (blkid, dumpe2fs, xfs_info, ntfsinfo after unmount, btrfs
# inspect-internal dump-super, losetup, findmnt) that type, block/cluster size and alignment
# options are what prep.json says; writes and reads a file on both mount points; teardown
# leaves no loop device, mount, cgroup or state.  Then XFS on 4Kn loop devices (device mode).
. "$(dirname "$0")/lib.sh"

for t in mkfs.ext4 mkfs.xfs mkntfs mkfs.btrfs dumpe2fs xfs_info ntfsinfo btrfs blkid jq; do
	command -v "$t" >/dev/null || skip "$t missing (scripts/deps.sh check installs it)"
done

MNT=$T/mnt IMG=$T/img P=$T/mnt/prep.json
dd if=/dev/urandom of="$T/data" bs=1M count=4 status=none
want_sum=$(sha256sum <"$T/data" | cut -d' ' -f1)

# value FILE REGEX: first capture of a sed regex in a tool's output saved in FILE
value() { sed -n "s/$2/\\1/p" "$1" | head -1; }
# eq WHAT GOT WANT
eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
# same WHAT TOOL_OUTPUT REGEX FIELD: a tool's value equals prep.json's verified FIELD of the
# volume being checked ($P, $v and $role come from check_volume)
same() { eq "$role $1" "$(value "$2" "$3")" "$(jqv "$P" "$v.verified.$4")"; }

check_volume() {
	local fs=$1 role=$2 dev v out=$T/tool.out
	v=".volumes.$role"
	dev=$(jqv "$P" "$v.device")
	log "$fs $role: $dev"

	# The loop device: backed by our image, direct I/O on (losetup reads sysfs, not prep).
	eq "$role backing file" "$(losetup -n -O BACK-FILE "$dev" | sed 's/ *$//')" "$IMG/$role.img"
	eq "$role loop direct I/O" "$(losetup -n -O DIO "$dev" | tr -d ' ')" 1
	jqt "$P" "$v.loop_direct_io == true and $v.image == \"$IMG/$role.img\""
	# a new image allocated before the run (the log one written once): not discarded, and
	# mkfs told not to discard it either (no holes for the host to fill while measuring)
	jqt "$P" "$v.discarded == false and $v.size > 0"
	jqt "$P" "$v.image_blocks == \"$([ $role = log ] && echo written || echo allocated)\""
	case $fs in
	ext4) jqt "$P" "$v.mkfs.argv | map(select(test(\"nodiscard\"))) | length == 1" ;;
	xfs|btrfs) jqt "$P" "$v.mkfs.argv | index([\"-K\"]) != null" ;;
	esac
	[ "$(stat -c %b "$IMG/$role.img")" -ge "$(( $(stat -c %s "$IMG/$role.img") / 512 ))" ] ||
		fail "$role image not allocated: $(stat -c '%b blocks of %B, %s bytes' "$IMG/$role.img")"
	jqt "$P" "$v.mkfs.argv[-1] == \"$dev\" and ($v.mkfs.tool_version | length) > 0"
	jqt "$P" "$v.topology.logical_sector > 0 and ($v.topology.aligned | type) == \"boolean\""

	# Mounted where prep.json says, from that device, with noatime.
	eq "$role mountpoint" "$(jqv "$P" "$v.mountpoint")" "$MNT/$role"
	eq "$role mount source" "$(findmnt -n -o SOURCE --mountpoint "$MNT/$role")" "$dev"
	findmnt -n -o OPTIONS --mountpoint "$MNT/$role" | grep -qw noatime ||
		fail "$role: mounted without noatime"

	# Type and UUID from the superblock, read by blkid -p (no cache).
	eq "$role blkid TYPE" "$(blkid -p -o value -s TYPE "$dev")" "$(jqv "$P" "$v.verified.type")"
	eq "$role blkid UUID" "$(blkid -p -o value -s UUID "$dev")" "$(jqv "$P" "$v.verified.uuid")"

	case $fs in
	ext4)
		eq "$role blkid TYPE" "$(jqv "$P" "$v.verified.type")" ext4
		dumpe2fs -h "$dev" >"$out" 2>/dev/null
		same "ext4 block size" "$out" '^Block size: *\([0-9]*\)' block_size
		eq "$role ext4 block size" "$(jqv "$P" "$v.verified.block_size")" 4096
		eq "$role ext4 stride" "$(value "$out" '^RAID stride: *\([0-9]*\)')" \
			"$(jqv "$P" "$v.verified.stride | if . == 0 then \"\" else . end")"
		eq "$role ext4 stripe width" "$(value "$out" '^RAID stripe width: *\([0-9]*\)')" \
			"$(jqv "$P" "$v.verified.stripe_width | if . == 0 then \"\" else . end")"
		feats=" $(value "$out" '^Filesystem features: *\(.*\)') "
		for f in $(jqv "$P" "$v.verified.features[]"); do
			case $feats in *" $f "*) ;; *) fail "$role: feature $f not in dumpe2fs: $feats" ;; esac
		done
		jqt "$P" "$v.verified.features | index([\"has_journal\"]) != null"
		# No lazy init: every group's inode table is zeroed (dumpe2fs prints ITABLE_ZEROED).
		groups=$(dumpe2fs "$dev" 2>/dev/null | grep -c '^Group [0-9]')
		zeroed=$(dumpe2fs "$dev" 2>/dev/null | grep '^Group [0-9]' | grep -c ITABLE_ZEROED)
		[ "$groups" -gt 0 ] && eq "$role groups with zeroed inode tables" "$zeroed" "$groups"
		jqt "$P" "$v.verified.itable_zeroed == true and $v.verified.method == \"libext2fs\""
		jqt "$P" "$v.mkfs.argv | index([\"lazy_itable_init=0,lazy_journal_init=0,nodiscard\"]) != null"
		;;
	xfs)
		xfs_info "$MNT/$role" >"$out"
		same "xfs bsize" "$out" '^data *= *bsize=\([0-9]*\).*' block_size
		same "xfs sectsz" "$out" '.*sectsz=\([0-9]*\).*' sector_size
		same "xfs sunit" "$out" '.*sunit=\([0-9]*\).*' stride
		same "xfs swidth" "$out" '.*swidth=\([0-9]*\) blks.*' stripe_width
		jqt "$P" "$v.mkfs.argv | index([\"size=4096\"]) != null"
		;;
	ntfs)
		eq "$role mount type" "$(findmnt -n -o FSTYPE --mountpoint "$MNT/$role")" fuseblk
		jqt "$P" "$v.mount.helper == \"mount.ntfs-3g\" and $v.mount.fstype == \"ntfs-3g\""
		jqt "$P" "$v.mkfs.argv | index([\"-c\", \"65536\"]) != null"
		pid=$(jqv "$P" ".ntfs_cache_fix.pids.$role")
		cg=$(jqv "$P" .ntfs_cache_fix.cgroup)
		grep -qx "$pid" "$cg/cgroup.procs" || fail "$role: ntfs-3g pid $pid not in $cg"
		tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "ntfs-3g $dev $MNT/$role" ||
			fail "$role: pid $pid is not the ntfs-3g serving $dev"
		eq "$role cgroup limit" "$(cat "$cg/memory.limit_in_bytes")" \
			"$(jqv "$P" .ntfs_cache_fix.limit_bytes)"
		;;
	btrfs)
		btrfs inspect-internal dump-super "$dev" >"$out"
		same "btrfs sectorsize" "$out" '^sectorsize[[:space:]]*\([0-9]*\)' block_size
		same "btrfs fsid" "$out" '^fsid[[:space:]]*\([0-9a-f-]*\)' uuid
		same "btrfs nodesize" "$out" '^nodesize[[:space:]]*\([0-9]*\)' nodesize
		;;
	esac

	# A file written with O_DIRECT reads back intact, bypassing the page cache.
	dd if="$T/data" of="$MNT/$role/f" bs=1M oflag=direct conv=fsync status=none
	eq "$role read back" "$(dd if="$MNT/$role/f" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1)" \
		"$want_sum"
}

assert_clean() {
	local what=$1
	losetup -n -O NAME,BACK-FILE | grep -q " $T/" && fail "$what: loop device left: $(losetup -a)"
	findmnt -rn -o TARGET | grep -q "^$T/" && fail "$what: mount left under $T"
	[ ! -e "$P" ] || fail "$what: prep.json left"
	grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "$what: prep record left"
	return 0
}

for fs in ext4 xfs ntfs btrfs; do
	log "prep --fs $fs"
	$FSLAB prep --fs "$fs" --image-dir "$IMG" --db-size 1G --log-size 512M --mount-root "$MNT"
	jqt "$P" ".schema == \"fslab-prep/1\" and .fs == \"$fs\" and .images == true"
	jqt "$P" ".image_dir == \"$IMG\" and .mount_root == \"$MNT\""
	for role in db log; do check_volume "$fs" "$role"; done
	[ "$(jqv "$P" .volumes.db.device)" != "$(jqv "$P" .volumes.log.device)" ] ||
		fail "db and log on the same device"
	cg=""
	if [ "$fs" = ntfs ]; then
		jqt "$P" '.ntfs_cache_fix.method == "cgroup-v1-memory" and .ntfs_cache_fix.limit_bytes == 67108864'
		cg=$(jqv "$P" .ntfs_cache_fix.cgroup)
		# ntfsinfo needs the volume unmounted: tear down, keep the images, read them.
		$FSLAB teardown --mount-root "$MNT" --keep-images
		for role in db log; do
			ntfsinfo -m "$IMG/$role.img" >"$T/ntfs.out" 2>/dev/null
			eq "$role ntfsinfo cluster" "$(value "$T/ntfs.out" '.*Cluster Size: *\([0-9]*\)')" 65536
			eq "$role ntfsinfo sector" "$(value "$T/ntfs.out" '.*Sector Size: *\([0-9]*\)')" 512
		done
		rm -f "$IMG/db.img" "$IMG/log.img"
	else
		jqt "$P" '.ntfs_cache_fix == null'
		$FSLAB teardown --mount-root "$MNT"
		[ ! -e "$IMG/db.img" ] || fail "teardown left $IMG/db.img"
	fi
	assert_clean "$fs teardown"
	[ -z "$cg" ] || [ ! -d "$cg" ] || fail "cgroup $cg left"
	# Idempotent: a second teardown finds nothing and succeeds.
	$FSLAB teardown --mount-root "$MNT"
done

# 4Kn devices (device mode): XFS must get -s size=4096, which xfs_info must show.
log "xfs on 4Kn loop devices"
truncate -s 512M "$T/k1.img" "$T/k2.img"
K1=$(losetup --find --show --direct-io=on --sector-size 4096 "$T/k1.img")
K2=$(losetup --find --show --direct-io=on --sector-size 4096 "$T/k2.img")
_loops="$_loops $K1 $K2"
$FSLAB prep --fs xfs --db-dev "$K1" --log-dev "$K2" --mount-root "$MNT"
jqt "$P" '.images == false and .volumes.db.image == null and .volumes.db.topology.logical_sector == 4096'
jqt "$P" '.volumes.db.mkfs.argv | index(["-s", "size=4096"]) != null'
xfs_info "$MNT/db" >"$T/xfs.out"
eq "4Kn xfs sectsz" "$(value "$T/xfs.out" '.*sectsz=\([0-9]*\).*')" 4096
jqt "$P" '.volumes.db.verified.sector_size == 4096'
$FSLAB teardown --mount-root "$MNT"
findmnt -rn -o TARGET | grep -q "^$T/" && fail "4Kn: mount left"
# Device mode: the devices keep their filesystem and stay attached (they are not prep's).
eq "4Kn device kept its filesystem" "$(blkid -p -o value -s TYPE "$K1")" xfs
grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "4Kn: prep record left"
log "ok"
