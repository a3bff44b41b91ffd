#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh: make sure the Debian packages fslab builds, tests and runs with are installed.
# Usage: scripts/deps.sh [build|check|demo|bench|fuzz|windows|wine]
# As root, missing packages are installed with apt-get; otherwise they are named and we fail.
set -eu

BUILD="build-essential pkg-config libblkid-dev libmount-dev libext2fs-dev liburing-dev \
libjansson-dev libinih-dev libisal-dev libxml2-dev"
RUNTIME="e2fsprogs xfsprogs ntfs-3g btrfs-progs util-linux mount bsdutils gnuplot-nox"
# the QEMU test guest (tests/vm/, docs/VM.md): QEMU, a static busybox for its initramfs, kmod
# for depmod/modprobe on the unpacked Debian kernel, xz-utils for its modules, dmsetup for
# device-mapper faults
# the multi-host tests (tests/integration/hosts-lib.sh): an sshd per network namespace, the
# ssh client, ip netns and tc.  Installing openssh-server on a systemd machine also enables
# Debian's own ssh service (as it always does); the tests never use it
TEST="libcmocka-dev fio jq qemu-system-x86 busybox-static kmod xz-utils dmsetup \
openssh-server openssh-client iproute2"
BENCH="time"
FUZZ="clang libclang-rt-14-dev"
# make windows: the mingw-w64 cross compiler (posix threads) and what scripts/win-sysroot.sh
# needs to build jansson, cmocka, isa-l and libxml2 from their Debian source packages
WINDOWS="gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 mingw-w64-x86-64-dev dpkg-dev \
autoconf automake libtool pkg-config cmake yasm nasm"
# the Windows tests: Wine (wine64 runs fslab.exe and the cross-built unit suites)
WINE="wine wine64"

case "${1:-build}" in
build) want="$BUILD" ;;
check) want="$BUILD $RUNTIME $TEST $FUZZ" ;;
demo) want="$BUILD $RUNTIME $TEST" ;;
fuzz) want="$BUILD $FUZZ" ;;
bench) want="$BUILD $RUNTIME $TEST $BENCH" ;;
windows) want="$WINDOWS" ;;
wine) want="$WINDOWS $WINE" ;;
*) echo "deps.sh: unknown set '$1' (build, check, demo, bench, fuzz, windows or wine)" >&2
   exit 2 ;;
esac

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "fslab: missing Debian packages:$missing" >&2
	echo "fslab: install them with: sudo apt-get install$missing" >&2
	exit 1
fi
echo "fslab: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing
