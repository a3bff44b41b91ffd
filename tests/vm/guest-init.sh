#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-init.sh: PID 1 of the test guest, on the host's root (9p, read-only) after the
# initramfs (tests/vm/initramfs-init) mounted the writable places: runs OUT/.vm-cmd with its
# output in OUT/output, writes its exit status to OUT/status and resets the guest (QEMU runs
# with -no-reboot, so it exits).  Kept to shell builtins: every exec reads through 9p.
export PATH=/run/vm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=dumb
out=
for a in $(cat /proc/cmdline); do
	case $a in fslab.out=*) out=${a#fslab.out=} ;; esac
done
read -r up _ </proc/uptime
echo "vm-guest: up after $up s" >/dev/console
date +%s.%N >"$out/.started"
cd /
rc=0
sh "$out/.vm-cmd" >"$out/output" 2>&1 </dev/null || rc=$?
echo "$rc" >"$out/status"
read -r up _ </proc/uptime
echo "vm-guest: script exited $rc after $up s" >/dev/console
busybox sync
busybox reboot -f
