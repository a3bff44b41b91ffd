#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_mkfsopts.sh: mkfs options that name another device or file (issue 16 item 2).
# XFS -l logdev= / -r rtdev= / -d name=, ext4 -J device= / -z undo file / -d, btrfs extra
# device arguments and --rootdir, mkntfs extra arguments: prep refuses them (exit 2, one line
# naming the option and the fix, with or without --force, dry run too), the device they name
# keeps its UUID and content, nothing is created; the lab refuses such a [fs] mkfs_opts before
# any cell.  Options that name nothing pass.  A rollback after the devices were written says
# so instead of "nothing of this prep is left".
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt IMG=$T/img
L3=$(new_loop 64M)
mkfs.ext4 -q -L victim "$L3"
uuid=$(blkid -p -o value -s UUID "$L3")
sum() { dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
s3=$(sum "$L3")

victim_intact() {
	[ "$(blkid -p -o value -s UUID "$L3")" = "$uuid" ] || fail "$1: $L3 lost its ext4 UUID"
	[ "$(sum "$L3")" = "$s3" ] || fail "$1: the content of $L3 changed"
	[ ! -e "$MNT" ] || fail "$1: $MNT was created"
	[ ! -e "$IMG" ] || fail "$1: $IMG was created"
	return 0
}
# refused FS OPTS WANT [EXTRA...]: prep --fs FS --mkfs-opts OPTS exits 2 with one line
# matching WANT, naming --mkfs-opts and the fix; the victim is intact
refused() {
	local fs=$1 opts=$2 want=$3; shift 3
	expect_status 2 "$FSLAB" prep --fs "$fs" --image-dir "$IMG" --db-size 400M \
		--log-size 400M --mount-root "$MNT" --mkfs-opts "$opts" "$@"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$fs '$opts': more than one line"; }
	grep -q -e "--mkfs-opts" "$T/stderr" && grep -Eq -e "$want" "$T/stderr" &&
		grep -q "drop it" "$T/stderr" ||
		fail "$fs '$opts': stderr lacks /$want/ or the fix: $(cat "$T/stderr")"
	victim_intact "$fs '$opts'"
	echo "refused: $fs --mkfs-opts '$opts' $*: $(cat "$T/stderr")"
}

log "XFS external log and realtime devices, data section by name, proto and config files"
refused xfs "-l logdev=$L3,size=64m" "-l logdev=$L3"
refused xfs "-l logdev=$L3,size=64m" "-l logdev=$L3" --force
refused xfs "-l size=64m,logdev=$L3" "logdev=$L3"
refused xfs "-llogdev=$L3" "logdev=$L3"
refused xfs "-r rtdev=$L3" "-r rtdev=$L3"
refused xfs "-l name=$L3" "name=$L3"
refused xfs "-d name=$L3" "-d name=$L3"
refused xfs "-f -K -p /etc/passwd" "-p /etc/passwd"
refused xfs "-c options=/etc/passwd" "options=/etc/passwd"
refused xfs "-l size=64m $L3" "'$L3' is not an option"
refused xfs "-l size=64m $L3" "'$L3' is not an option" --dry-run
log "ext4 external journal, undo file, root directory, bad-blocks list"
refused ext4 "-J device=$L3" "-J device=$L3"
refused ext4 "-Jsize=64,device=$L3" "device=$L3"
refused ext4 "-J device=UUID=$uuid" "device=UUID=$uuid"
refused ext4 "-z $T/undo" "-z $T/undo"
[ ! -e "$T/undo" ] || fail "mke2fs wrote the undo file"
refused ext4 "-d /etc" "-d /etc"
refused ext4 "-l /etc/passwd" "-l /etc/passwd"
refused ext4 "-m 0 $L3" "'$L3' is not an option"
refused ext4 "-- $L3" "'$L3' is not an option"
log "btrfs extra devices, --rootdir (also abbreviated)"
refused btrfs "$L3" "'$L3' is not an option"
refused btrfs "-f -d single $L3" "'$L3' is not an option" --force
refused btrfs "--rootdir=/etc" "--rootdir=/etc"
refused btrfs "--root /etc" "--root /etc"
refused btrfs "-r /etc" "-r /etc"
log "mkntfs extra arguments"
refused ntfs "-f $L3" "'$L3' is not an option"

log "options that name nothing still pass (dry run)"
for fo in "xfs|-l size=64m,lazy-count=1 -i sparse=1" "ext4|-m 0 -O ^metadata_csum -E stride=1" \
	"ext4|-J size=16" "btrfs|--mixed -m single -d single" "btrfs|--nodesize=16k" "ntfs|-I"; do
	expect_status 0 "$FSLAB" prep --fs "${fo%%|*}" --image-dir "$IMG" --db-size 400M \
		--log-size 400M --mount-root "$MNT" --mkfs-opts "${fo#*|}" --dry-run
	grep -q -e "${fo#*|}" "$T/stdout" || fail "dry run of '${fo#*|}' lacks the options"
done
victim_intact "dry runs"

log "the lab refuses such a [fs] mkfs_opts before any cell"
cat >"$T/lab.ini" <<EOT
[lab]
title = mkfs_opts
[devices]
image_dir = $IMG
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 64M
duration = 1s
warmup = 0s
[fs xfs]
mkfs_opts = -l logdev=$L3,size=64m
EOT
expect_status 2 "$FSLAB" lab "$T/lab.ini" --output "$T/out"
grep -q "lab.ini:12: \\[fs xfs\\] mkfs_opts = -l logdev=$L3,size=64m: .*drop it" "$T/stderr" ||
	fail "the lab does not name the option and its line: $(cat "$T/stderr")"
[ ! -e "$T/out/results" ] || fail "the lab started cells"
victim_intact "lab"

log "a rollback after the devices were written says so"
L1=$(new_loop 64M) L2=$(new_loop 64M)
FSLAB_TEST_PREP_STALL=mkfs-db "$FSLAB" prep --fs ext4 --db-dev "$L1" --log-dev "$L2" \
	--mount-root "$MNT" 2>"$T/prep.err" &
pid=$!
for _ in $(seq 300); do
	grep -q "stalled after step mkfs-db" "$T/prep.err" && break
	kill -0 $pid 2>/dev/null || { cat "$T/prep.err"; fail "prep exited before mkfs"; }
	sleep 0.1
done
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 1 ] || fail "prep after SIGTERM exited $rc"
cat "$T/prep.err"
grep -q "nothing of this prep is left" "$T/prep.err" &&
	fail "the rollback claims nothing is left after formatting $L1"
grep -q "rolled back.* it wrote $L1 (db: discarded, formatted), whose old content is not restored" \
	"$T/prep.err" || fail "the rollback does not name the device it wrote"
grep -q "$L2 (log" "$T/prep.err" && fail "the rollback names $L2, which prep had not written yet"
log "ok"
