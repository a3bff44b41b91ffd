# SPDX-License-Identifier: MIT
# guest/faults.sh: run inside the test guest by tests/integration/t_vm_faults.sh.  Every
# scenario starts `fslab run` on fresh devices, waits until the load reads from the database
# device, injects one fault and lets the run finish; OUT/<name>.json is the result,
# OUT/<name>.out fslab's output, OUT/<name>.rc "exit-status seconds".  The host side checks
# them.  Names: dm_read dm_logwrite nullb_badblocks scsi_medium scsi_hwerr gone_dm gone_nullb
# gone_scsi.
. "$FSLAB_TOP/tests/vm/guest-lib.sh"
only=" ${*:-all} "
SIZE=16M DUR=8s
RUNTMO=120  # a run that does not end by then is a hang

modprobe null_blk nr_devices=0
modprobe dm-mod
modprobe dm-flakey
modprobe sd_mod
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# nullb NAME MB: a memory-backed null_blk device /dev/NAME (configfs; the disk takes its name)
nullb() {
	local d=/sys/kernel/config/nullb/$1
	mkdir "$d"
	echo "$2" >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 4096 >"$d/blocksize"
	echo 1 >"$d/power"
	gassert test -b "/dev/$1"
}
# reads completed on a block device (its kernel name: nb0, dm-1, sda)
reads() { read -r r _ <"/sys/block/$1/stat"; echo "$r"; }
kname() { case $1 in /dev/mapper/*) dmsetup info -c --noheadings -o blkdevname "${1#/dev/mapper/}" ;; *) basename "$1" ;; esac; }
mkext4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"; mkdir -p "$2"; mount "$1" "$2"; }

# start NAME DB LOG [fslab run options]: the run in the background; DBDEV must be set
start() {
	name=$1; local db=$2 log=$3; shift 3
	glog "$name: fslab run --db $db --log $log"
	t0=$(date +%s)
	timeout -s KILL $RUNTMO "$FSLAB" run --db "$db" --log "$log" --db-size $SIZE --duration $DUR \
		--warmup 0 --threads 2 --sample-interval 2s --label "$name" --output "$OUT/$name.json" \
		"$@" >"$OUT/$name.out" 2>&1 &
	pid=$!
}
# said NEEDLE: fslab's output so far has a line containing NEEDLE (builtins only: every exec
# costs tens of milliseconds under TCG)
said() {
	local l
	while IFS= read -r l; do
		case $l in *"$1"*) return 0 ;; esac
	done <"$OUT/$name.out"
	return 1
}
# wait_load: until the load runs (fslab said the database is initialised, or reused from the
# scenario before on the same raw device) and has read 20 times from the database device
# (60 s at most)
wait_load() {
	local k n=0 base=
	k=$(kname "$DBDEV")
	while [ -z "$base" ] || [ "$(reads "$k")" -lt $((base + 20)) ]; do
		[ -n "$base" ] || ! { said ": initialised at " || said ": reusing the existing "; } ||
			base=$(reads "$k")
		n=$((n + 1))
		[ $n -le 1200 ] || gfail "$name: no load reads on $k within 60 s"
		kill -0 $pid 2>/dev/null || gfail "$name: the run ended before the load read from $k"
		sleep 0.05
	done
}
# injected: the fault is in; it must have come during the load, not in the checksum pass
injected() {
	! said "checksum pass: reading" || gfail "$name: the fault came after the load (too late)"
	glog "$name: fault injected"
}
finish() {
	local rc=0
	wait $pid || rc=$?
	echo "$rc $(( $(date +%s) - t0 ))" >"$OUT/$1.rc"
	glog "$1: exit $rc after $(( $(date +%s) - t0 )) s; $(grep -m1 'first I/O error' "$OUT/$1.out" || echo 'no first I/O error')"
}
want() { case $only in *" all "* | *" $1 "*) return 0 ;; esac; return 1; }

nullb nb0 128; nullb nb1 128; nullb nb2 128; nullb nb3 128
SZ=$(blockdev --getsz /dev/nb0)

if want dm_read; then
	# database reads fail (dm-flakey error_reads swapped in), writes go on
	DBDEV=$(dm_create fdb "0 $SZ linear /dev/nb0 0")
	mkext4 "$DBDEV" /mnt/db; mkext4 /dev/nb1 /mnt/log
	start dm_read /mnt/db /mnt/log
	wait_load
	dmsetup suspend fdb; dmsetup load fdb --table "0 $SZ flakey /dev/nb0 0 0 3600 1 error_reads"; dmsetup resume fdb
	injected
	finish dm_read
	umount /mnt/db /mnt/log; dmsetup remove fdb
fi

if want dm_logwrite; then
	# log writes fail (dm-flakey error_writes on the log device), the database is fine
	DBDEV=/dev/nb0
	LOGDEV=$(dm_create flog "0 $SZ linear /dev/nb1 0")
	mkext4 /dev/nb0 /mnt/db; mkext4 "$LOGDEV" /mnt/log
	start dm_logwrite /mnt/db /mnt/log
	wait_load
	dmsetup suspend flog; dmsetup load flog --table "0 $SZ flakey /dev/nb1 0 0 3600 1 error_writes"; dmsetup resume flog
	injected
	finish dm_logwrite
	umount /mnt/db /mnt/log; dmsetup remove flog
fi

if want nullb_badblocks; then
	# raw devices; the whole database region turns bad (null_blk badblocks, set at runtime)
	DBDEV=/dev/nb2
	start nullb_badblocks /dev/nb2 /dev/nb3
	wait_load
	echo "+0-$((SZ - 1))" >/sys/kernel/config/nullb/nb2/badblocks
	injected
	finish nullb_badblocks
	echo "-0-$((SZ - 1))" >/sys/kernel/config/nullb/nb2/badblocks
fi

if want scsi_medium || want scsi_hwerr || want gone_scsi; then
	modprobe scsi_debug dev_size_mb=64 physblk_exp=3 medium_error_start=0 medium_error_count=200000
	sd=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block/)
	gassert test -b "/dev/$sd"
	SDHCTL=$(basename "$(readlink -f "/sys/block/$sd/device")")
fi

if want scsi_medium; then
	# scsi_debug answers reads with MEDIUM ERROR / unrecovered read error (opts=2, at runtime)
	DBDEV=/dev/$sd
	start scsi_medium /dev/$sd /dev/nb3
	wait_load
	echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts
	injected
	finish scsi_medium
	echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
fi

if want scsi_hwerr; then
	# reads fail with HARDWARE ERROR / internal target failure (scsi_debug's per-device error
	# injection: type 2 = fail the command, READ(10) 0x28 and READ(16) 0x88, always)
	DBDEV=/dev/$sd
	start scsi_hwerr /dev/$sd /dev/nb3
	wait_load
	for op in 0x28 0x88; do
		echo "2 -1 $op 0 0 0x2 0x4 0x44 0x0" >"/sys/kernel/debug/scsi_debug/$SDHCTL/error"
	done
	injected
	finish scsi_hwerr
	for op in 0x28 0x88; do echo "- $op" >"/sys/kernel/debug/scsi_debug/$SDHCTL/error" 2>/dev/null || true; done
fi

if want gone_dm; then
	# the database device disappears: dmsetup remove --force --deferred (the table becomes
	# error at once, the device goes when the last opener closes it)
	DBDEV=$(dm_create gdb "0 $SZ linear /dev/nb0 0")
	mkext4 "$DBDEV" /mnt/db; mkext4 /dev/nb1 /mnt/log
	start gone_dm /mnt/db /mnt/log
	wait_load
	dmsetup remove --force --deferred --noudevsync gdb
	injected
	finish gone_dm
	umount -l /mnt/db; umount /mnt/log
fi

if want gone_nullb; then
	# the raw database device is powered off (null_blk: the disk is deleted)
	DBDEV=/dev/nb2
	start gone_nullb /dev/nb2 /dev/nb3
	wait_load
	echo 0 >/sys/kernel/config/nullb/nb2/power
	injected
	finish gone_nullb
fi

if want gone_scsi; then
	# the raw database disk is deleted (scsi_debug: echo 1 > device/delete)
	DBDEV=/dev/$sd
	start gone_scsi /dev/$sd /dev/nb3
	wait_load
	echo 1 >"/sys/block/$sd/device/delete"
	injected
	finish gone_scsi
fi
dmesg | grep -E 'I/O error|critical|Medium|Hardware|error' | head -30 >"$OUT/dmesg.txt" || true
echo "guest: done"
