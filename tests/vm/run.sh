#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: boot a throwaway QEMU guest with a Debian kernel, run one shell script in it and
# pass its output and exit status back.
#
# Usage: tests/vm/run.sh [--kernel 6.12|6.1] [--out DIR] [--timeout SECS] [--mem SIZE]
#                        [--disk IMG[:QEMU-DEVICE-OPTS]]... SCRIPT [ARG...]
#
# The guest: q35, 2 vCPUs, 1 GiB, TCG (`-accel tcg,thread=multi -cpu max`: KVM cannot boot a
# stock kernel on this host, which is itself a VM; FSLAB_VM_ACCEL=kvm to try it elsewhere),
# the host's root read-only over virtio-9p (host-built ./fslab, mkfs tools, fio and jq run
# unchanged), tmpfs on /tmp, /run, /mnt, and OUT (default: a new directory) shared writable
# at the same path.  Every --disk is a virtio-blk disk on the raw image IMG; QEMU-DEVICE-OPTS
# are appended to its -device (e.g. serial=db,min_io_size=65536,opt_io_size=1048576); the
# guest sees it as /dev/disk/by-id/virtio-SERIAL only with udev, so tests use /dev/vdX in
# --disk order.
#
# SCRIPT runs as root in the guest with /bin/sh, in OUT, stdin from /dev/null.  Its output is
# printed here (and kept in OUT/output), the guest kernel's console in OUT/console.log; the
# exit status is the script's.  1 when the guest died or hung (--timeout, default 300 s),
# 77 (one line naming the reason) when QEMU or the guest kernel cannot be had here.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=${FSLAB_VM_KERNEL:-6.12} out="" tmo=300 mem=1G disks=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--disk) disks="$disks $2"; shift 2 ;;
	--) shift; break ;;
	-*) echo "vm: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "vm: usage: $0 [options] SCRIPT [ARG...]" >&2; exit 2; }
script=$(realpath "$1"); shift
[ -f "$script" ] || { echo "vm: no script $script" >&2; exit 2; }

kdir=$("$top/tests/vm/setup.sh" "$kernel") || exit $?
kver=$(basename "$kdir")

[ -n "$out" ] || out=$(mktemp -d /var/tmp/fslab-vm.XXXXXX)
mkdir -p "$out"
out=$(realpath "$out")
case "$out$script$kdir$top" in
*[[:space:]]*) echo "vm: paths with blanks cannot go on the kernel command line: $out" >&2; exit 2 ;;
esac
rm -f "$out/status" "$out/output" "$out/console.log" "$out/.started"
cp "$script" "$out/.vm-script"

# the command the guest runs: the script and its arguments, quoted for sh
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
	printf 'export FSLAB_TOP=%s FSLAB=%s FSLAB_VM_OUT=%s\n' "$(q "$top")" "$(q "$top/fslab")" "$(q "$out")"
	printf 'exec /bin/sh %s' "$(q "$out/.vm-script")"
	for a in "$@"; do printf ' %s' "$(q "$a")"; done
	echo
} >"$out/.vm-cmd"

accel="-accel tcg,thread=multi -cpu max"
[ "${FSLAB_VM_ACCEL:-tcg}" = kvm ] && accel="-accel kvm -cpu host"
set -- -nodefaults -no-user-config -display none -no-reboot -M q35 $accel -smp 2 -m "$mem" \
	-kernel "$kdir/boot/vmlinuz-$kver" -initrd "$kdir/initrd.img" \
	-append "console=ttyS0 quiet loglevel=4 printk.time=1 panic=-1 rw tsc=reliable no_timer_check \
i8042.nokbd i8042.noaux mitigations=off random.trust_cpu=on cryptomgr.notests \
fslab.init=$top/tests/vm/guest-init.sh fslab.out=$out fslab.modules=$kdir" \
	-serial "file:$out/console.log" \
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-fsdev local,id=out,path="$out",security_model=none \
	-device virtio-9p-pci,fsdev=out,mount_tag=out
i=0
for d in $disks; do
	img=${d%%:*} opts=""
	case $d in *:*) opts=,${d#*:} ;; esac
	[ -f "$img" ] || { echo "vm: no disk image $img" >&2; exit 2; }
	set -- "$@" -drive "file=$img,if=none,format=raw,cache=none,aio=threads,id=d$i" \
		-device "virtio-blk-pci,drive=d$i$opts"
	i=$((i + 1))
done

t0=$(date +%s.%N)
rc=0
timeout --kill-after=5 "$tmo" qemu-system-x86_64 "$@" >"$out/qemu.log" 2>&1 || rc=$?
t1=$(date +%s.%N)
[ -f "$out/output" ] && cat "$out/output"
if [ ! -f "$out/status" ]; then
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "vm: the guest did not finish within $tmo s; last console lines:" >&2
	else
		echo "vm: the guest died (qemu exit $rc); qemu said: $(head -c 600 "$out/qemu.log")" >&2
		echo "vm: last console lines:" >&2
	fi
	tail -20 "$out/console.log" | sed 's/^/    /' >&2
	exit 1
fi
# the guest's clock is the host's (TCG reads the host's RTC and TSC), so .started compares
awk -v t0="$t0" -v t1="$t1" -v ts="$(cat "$out/.started" 2>/dev/null || echo 0)" 'BEGIN {
	printf "vm: boot to script %.1f s, %.1f s in all\n", (ts > 0 ? ts - t0 : -1), t1 - t0 }' >&2
exit "$(cat "$out/status")"
