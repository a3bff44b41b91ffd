#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_refuse.sh: what fslab prep must refuse (exit 2, one line naming the device and the fix,
# nothing touched), what --force does and does not override, and --dry-run changing nothing.
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt
L1=$(new_loop 64M)
L2=$(new_loop 64M)

# sum DEV: checksum of the whole device (read with O_DIRECT: what is on it, not in a cache)
sum() { dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
# refused WANT_REGEX CMD...: exit 2, exactly one line on stderr matching WANT_REGEX
refused() {
	local want=$1; shift
	expect_status 2 "$@"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "more than one line: $*"; }
	grep -Eq -e "$want" "$T/stderr" || fail "stderr of '$*' lacks /$want/: $(cat "$T/stderr")"
}
# untouched: no mount root, state, registry entry or mount was created
untouched() {
	[ ! -e "$MNT" ] || fail "$1: $MNT was created"
	grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "$1: prep record written"
	findmnt -rn -o SOURCE | grep -qx -e "$L1" -e "$L2" && fail "$1: a device got mounted"
	return 0
}

log "existing ext4 signature without --force"
mkfs.ext4 -q -F "$L1"
s1=$(sum "$L1") s2=$(sum "$L2")
refused "$L1 \\(--log-dev\\) holds an ext4 filesystem signature.*--force" \
	"$FSLAB" prep --fs ntfs --db-dev "$L2" --log-dev "$L1" --mount-root "$MNT"
[ "$(sum "$L1")" = "$s1" ] || fail "the ext4 device changed"
[ "$(sum "$L2")" = "$s2" ] || fail "the log device changed"
untouched "signature"
refused "$L1.*signature" "$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" \
	--mount-root "$MNT" --dry-run
untouched "signature, dry run"

log "--dry-run prints every command and mount and changes nothing"
expect_status 0 "$FSLAB" prep --fs ext4 --db-dev "$L2" --log-dev "$L1" --mount-root "$MNT" \
	--force --dry-run --mount-opts nodiratime
out=$T/stdout
grep -q "mkfs.ext4 -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L fslab-db $L2\$" "$out" ||
	fail "dry run lacks the db mkfs command: $(cat "$out")"
grep -q "mkfs.ext4 .* -L fslab-log $L1\$" "$out" || fail "dry run lacks the log mkfs command"
grep -q "mount -t ext4 -o noatime,nodiratime $L2 $MNT/db" "$out" || fail "dry run lacks the db mount"
grep -q "mount -t ext4 -o noatime,nodiratime $L1 $MNT/log" "$out" || fail "dry run lacks the log mount"
grep -q "discard $L2" "$out" || fail "dry run lacks the discard"
[ "$(sum "$L1")" = "$s1" ] && [ "$(sum "$L2")" = "$s2" ] || fail "dry run changed a device"
blkid -p "$L2" >/dev/null && fail "dry run wrote a signature on $L2"
untouched "dry run"
expect_status 0 "$FSLAB" prep --fs ntfs --image-dir "$T/img" --db-size 64M --log-size 64M \
	--mount-root "$MNT" --dry-run
grep -q "mkntfs -Q -c 65536 -L fslab-db /dev/loopN" "$T/stdout" || fail "image dry run lacks mkntfs"
grep -q "mount -t ntfs-3g -o noatime,big_writes /dev/loopN $MNT/db" "$T/stdout" ||
	fail "image dry run lacks the ntfs-3g mount"
grep -q "cgroup .*memory.limit_in_bytes 67108864" "$T/stdout" || fail "image dry run lacks the cgroup"
[ ! -e "$T/img" ] || fail "image dry run created $T/img"
untouched "image dry run"

log "a mounted device, even with --force"
mkdir "$T/m"
mount "$L1" "$T/m"
track_mount "$T/m"
refused "$L1.*mounted on $T/m.*--force does not override" \
	"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" --force
umount "$T/m"
untouched "mounted"

log "a device with a mounted partition, even with --force"
truncate -s 64M "$T/part.img"
# A DOS partition table by hand (sfdisk lives in the fdisk package): one Linux partition,
# LBA 2048, 40960 sectors, then the 0x55AA boot signature.
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\xa0\x00\x00' |
	dd of="$T/part.img" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$T/part.img" bs=1 seek=510 conv=notrunc status=none
LP=$(losetup --find --show --partscan "$T/part.img")
_loops="$_loops $LP"
refused "$LP.*dos partition table.*--force" \
	"$FSLAB" prep --fs ext4 --db-dev "$LP" --log-dev "$L2" --mount-root "$MNT"
for _ in $(seq 20); do [ -b "${LP}p1" ] && break; sleep 0.1; done
if [ -b "${LP}p1" ]; then
	mkfs.ext4 -q "${LP}p1"
	mount "${LP}p1" "$T/m"
	refused "$LP.*mounted partition ${LP}p1.*--force does not override" \
		"$FSLAB" prep --fs ext4 --db-dev "$LP" --log-dev "$L2" --mount-root "$MNT" --force
	umount "$T/m"
else
	# This kernel made no partition devices (no MSDOS partition support built in).
	log "no ${LP}p1: the mounted-partition case cannot run on this kernel"
fi
untouched "mounted partition"

log "a device held open exclusively, even with --force"
perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_RDONLY | O_EXCL) or die "$!\n"; print "held\n";
	$| = 1; sleep 30' "$L2" >"$T/held" &
holder=$!
for _ in $(seq 50); do grep -q held "$T/held" && break; sleep 0.1; done
refused "$L2.*in use.*--force does not override" \
	"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" --force
kill "$holder"; wait "$holder" 2>/dev/null || true
untouched "in use"

log "bad devices and arguments"
refused "/dev/fslab-no-such-device.*does not exist" \
	"$FSLAB" prep --fs ext4 --db-dev /dev/fslab-no-such-device --log-dev "$L2" --mount-root "$MNT"
refused "$T/data.*not a block device" \
	"$FSLAB" prep --fs ext4 --db-dev "$(truncate -s 1M "$T/data"; echo "$T/data")" \
	--log-dev "$L2" --mount-root "$MNT" --force
refused "same device" "$FSLAB" prep --fs ext4 --db-dev "$L2" --log-dev "$L2" --mount-root "$MNT"
root=$(findmnt -n -o SOURCE --mountpoint /)
if [ -b "$root" ]; then
	refused "holds / \\(the root filesystem\\)" \
		"$FSLAB" prep --fs ext4 --db-dev "$root" --log-dev "$L2" --mount-root "$MNT" --force --dry-run
fi
refused "ReFS exists only on Windows.*fslab.exe prep --fs refs" \
	"$FSLAB" prep --fs refs --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT"
refused "--fs zfs: unknown filesystem; valid ones are ext4, xfs, ntfs, ntfs3, btrfs" \
	"$FSLAB" prep --fs zfs --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT"
refused "--mount-root is required" "$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2"
refused "--db-size and --log-size apply to --image-dir only" \
	"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --db-size 1G --mount-root "$MNT"
refused "--cluster 8192: ext4 block sizes are 1024, 2048 or 4096" \
	"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --cluster 8K --mount-root "$MNT" --force
refused "--log-size 100 MiB is too small: xfs needs at least 300 MiB" \
	"$FSLAB" prep --fs xfs --image-dir "$T/img" --log-size 100M --mount-root "$MNT"
refused "the images need 2.0 TiB when fully written \\(db 2.0 TiB \\+ log 2.0 GiB\\)|has .* free, the images need" \
	"$FSLAB" prep --fs ext4 --image-dir "$T/img" --db-size 2T --mount-root "$MNT"
untouched "bad arguments"
mkdir -p "$T/img"
: >"$T/img/db.img"
refused "$T/img/db.img already exists.*--force" \
	"$FSLAB" prep --fs ext4 --image-dir "$T/img" --db-size 64M --log-size 64M --mount-root "$MNT"
rm -f "$T/img/db.img"
untouched "existing image"

log "--force overwrites a signature"
old_uuid=$(blkid -p -o value -s UUID "$L1")
"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" --force
P=$MNT/prep.json
jqt "$P" ".images == false and .volumes.db.device == \"$L1\" and .volumes.db.image == null"
jqt "$P" '.volumes.db.mkfs.argv[1] == "-F"'
new_uuid=$(blkid -p -o value -s UUID "$L1")
[ "$new_uuid" != "$old_uuid" ] || fail "--force did not re-format $L1"
[ "$new_uuid" = "$(jqv "$P" .volumes.db.verified.uuid)" ] || fail "prep.json UUID differs from blkid"
# A second prep on the same mount root is refused while the first is recorded.
refused "already holds a prep.*fslab teardown --mount-root" \
	"$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" --mount-root "$MNT" --force
"$FSLAB" teardown --mount-root "$MNT"
findmnt -rn -o SOURCE | grep -qx -e "$L1" -e "$L2" && fail "teardown left a mount"
[ ! -e "$MNT" ] || fail "teardown left $MNT (prep created it)"
losetup "$L1" >/dev/null || fail "teardown detached a device it did not attach"

log "a prep.json fslab prep did not write is neither replaced nor deleted (issue 12)"
mkdir -p "$MNT" "$T/img"
echo '{"precious": "not from fslab prep"}' >"$MNT/prep.json"
stray=$(sha256sum <"$MNT/prep.json")
refused "$MNT/prep.json exists but no prep of this mount root wrote it" \
	"$FSLAB" prep --fs ext4 --image-dir "$T/img" --db-size 64M --log-size 64M --mount-root "$MNT"
[ "$(sha256sum <"$MNT/prep.json")" = "$stray" ] || fail "prep changed the stray prep.json"
grep -qs "\"$MNT\"" /var/lib/fslab/prep-state/*.json && fail "prep made a record next to a stray prep.json"
# prep writes its own; the user replaces it afterwards: teardown leaves the replacement
mv "$MNT/prep.json" "$T/stray.json"
"$FSLAB" prep --fs ext4 --image-dir "$T/img" --db-size 64M --log-size 64M --mount-root "$MNT" \
	>/dev/null
jqt "$MNT/prep.json" '.schema == "fslab-prep/1"'
cp "$T/stray.json" "$MNT/prep.json.new" && mv "$MNT/prep.json.new" "$MNT/prep.json"
"$FSLAB" teardown --mount-root "$MNT" 2>"$T/stderr" || { cat "$T/stderr"; fail "teardown failed"; }
grep -q "was not written by this prep" "$T/stderr" || fail "teardown did not say it kept prep.json"
[ "$(sha256sum <"$MNT/prep.json")" = "$stray" ] || fail "teardown deleted or changed a prep.json it did not write"
findmnt -rn -o TARGET | grep -q "^$MNT/" && fail "teardown left a mount"
rm -rf "$MNT"
# and the one prep wrote is removed as before (with the record's inode number)
"$FSLAB" prep --fs ext4 --image-dir "$T/img" --db-size 64M --log-size 64M --mount-root "$MNT" \
	>/dev/null
"$FSLAB" teardown --mount-root "$MNT"
[ ! -e "$MNT/prep.json" ] || fail "teardown left the prep.json prep wrote"
log "ok"
