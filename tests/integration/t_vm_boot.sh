#!/bin/bash
# SPDX-License-Identifier: MIT
# t_vm_boot: the QEMU test guest (tests/vm/) boots the Debian kernel, sees the host's root,
# loads modules, runs the host-built fslab, and passes the script's output, exit status and
# files back.
. "$(dirname "$0")/lib.sh"
. "$FSLAB_TOP/tests/vm/lib.sh"
vm_need 6.12

cat >$T/guest.sh <<'G'
. "$FSLAB_TOP/tests/vm/guest-lib.sh"
echo "kernel $(uname -r)"
"$FSLAB" --version
modprobe null_blk nr_devices=1 gb=1
gassert test -b /dev/nullb0
dmsetup version >/dev/null
d=$(dm_create vmboot "0 $(blockdev --getsz /dev/nullb0) linear /dev/nullb0 0")
gassert test -b "$d"
dmsetup remove vmboot
echo "written in the guest" >"$OUT/file"
echo "arg: $1"
exit 7
G
rc=0
vm_run --timeout 120 $T/guest.sh "one arg" >$T/out || rc=$?
cat $T/out
[ $rc -eq 7 ] || fail "expected the guest script's exit status 7, got $rc"
grep -q "^kernel 6.12" $T/out || fail "the guest did not run the 6.12 kernel"
grep -q "^fslab " $T/out || fail "the host's fslab did not run in the guest"
grep -qx "arg: one arg" $T/out || fail "the argument was not passed"
[ "$(cat $T/vm/file)" = "written in the guest" ] || fail "the result share did not carry the file back"
# a script that never ends: the guest is killed at --timeout, exit 1, no status
printf 'sleep 1000\n' >$T/hang.sh
rc=0
vm_run --timeout 15 $T/hang.sh >$T/out 2>$T/err || rc=$?
[ $rc -eq 1 ] && grep -q "did not finish within 15 s" $T/err || { cat $T/err; fail "a hung guest: exit $rc"; }
echo "t_vm_boot: ok"
