#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh: make sure the Debian packages fslab builds, tests and runs with are installed.
# Usage: scripts/deps.sh [build|demo|tour|check|bench|fuzz|deb|windows|wine]
#        scripts/deps.sh --list SET     the set's packages, one a line (nothing installed)
#        scripts/deps.sh --lean SET     the packages of the set installed without their
#                                       Recommends, one a line (the others take them)
#        scripts/deps.sh --fs-packages  each filesystem the Linux prep makes with the Debian
#                                       package of its tools, "NAME PACKAGE" a line
# As root, missing packages are installed with apt-get; otherwise they are named and we fail.
#
# The groups, and why (docs/DESIGN.md, "Dependencies"): a set is a few groups.  The groups
# marked lean are installed with --no-install-recommends: they name every package they need,
# and a recommendation would only add weight (gnuplot-nox recommends groff and its fonts: 68
# packages no chart uses).  The others keep apt's default, as they always had.
set -eu

# lean: compiling fslab (C only: gcc, not build-essential's g++ and dpkg-dev)
BUILD="gcc make libc6-dev pkg-config libblkid-dev libmount-dev libext2fs-dev liburing-dev \
libjansson-dev libinih-dev libisal-dev libxml2-dev"
# The filesystems' packages are not typed here: each filesystem's descriptor names the Debian
# package of its tools (fsprep/fs_<name>.c, `.package = "..."`), in the order of the table
# (FS_TABLE in fsprep/fs.c), and the groups are read from them when this script runs (before
# anything is built), so a new filesystem brings its package along.  test_fsdesc checks that
# what is read here is what the compiled table says.
top=$(cd "$(dirname "$0")/.." && pwd)
fs_table=$(sed -n 's/^#define FS_TABLE(X) //p' "$top/fsprep/fs.c" | sed 's/X(\([a-z0-9_]*\))/\1/g')
[ -n "$fs_table" ] || { echo "deps.sh: no FS_TABLE in fsprep/fs.c" >&2; exit 2; }
# fs_package NAME: the package of the filesystem's tools (nothing: none, or not made on Linux)
fs_package() {
	sed -n 's/^[[:space:]]*\.package = "\([^"]*\)",.*/\1/p' "$top/fsprep/fs_$1.c"
}
# fs_packages NAME...: their packages, each once
fs_packages() {
	for n in "$@"; do fs_package "$n"; done | awk '!seen[$0]++' | tr '\n' ' '
}
# the filesystems of configs/demo.ini: [fs LABEL] sections, their fs = NAME or LABEL
demo_fs=$(awk '/^\[/ { if (s) print f; s = 0 }
	/^\[fs [^]]*\]/ { s = 1; f = $2; sub(/\].*/, "", f) }
	s && /^fs[ \t]*=/ { f = $0; sub(/^fs[ \t]*=[ \t]*/, "", f) }
	END { if (s) print f }' "$top/configs/demo.ini")
# shellcheck disable=SC2086 # word lists
FS_DEMO=$(fs_packages $demo_fs)
# shellcheck disable=SC2086
FS_ALL=$(fs_packages $fs_table)
# lean: what configs/demo.ini runs: its filesystems formatted and mounted, charts by gnuplot
DEMO="$FS_DEMO util-linux mount bsdutils gnuplot-nox"
# lean: every filesystem the Linux prep makes (configs/tour.ini, the tests)
TOUR="$FS_ALL"
# lean: the report read in a real browser (tests/integration/t_report_browser.sh)
BROWSER="chromium python3"
# the test toolchain: cmocka, fio, jq; the QEMU test guest (tests/vm/, docs/VM.md): QEMU, a
# static busybox for its initramfs, kmod for depmod/modprobe on the unpacked Debian kernel,
# xz-utils for its modules, dmsetup for device-mapper faults; the multi-host tests
# (tests/integration/hosts-lib.sh): an sshd per network namespace, the ssh client, ip netns;
# time (/usr/bin/time) for the tests' memory bounds.
# Installing openssh-server on a systemd machine also enables Debian's own ssh service (as it
# always does); the tests never use it
TEST="libcmocka-dev fio jq qemu-system-x86 busybox-static kmod xz-utils dmsetup \
openssh-server openssh-client iproute2 time"
# lean: make deb (dpkg-buildpackage: debhelper, dh_bash-completion; build-essential, which
# dpkg-checkbuilddeps asks for whatever the package is)
DEB="debhelper dpkg-dev build-essential bash-completion"
# lean: the package's test (t_package): lintian
PKGTEST="lintian"
BENCH="time strace"
FUZZ="clang libclang-rt-14-dev"
# make windows: the mingw-w64 cross compiler (posix threads) and what scripts/win-sysroot.sh
# needs to build jansson, cmocka, isa-l and libxml2 from their Debian source packages; zip for
# make windows-zip
WINDOWS="gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 mingw-w64-x86-64-dev dpkg-dev \
autoconf automake libtool pkg-config cmake yasm nasm zip"
# the Windows tests: Wine (wine64 runs fslab.exe and the cross-built unit suites); unzip
# opens the zip of make windows-zip
WINE="wine wine64 unzip"

mode=install
case "${1:-}" in
--list|--lean) mode=${1#--}; shift ;;
--fs-packages)
	for n in $fs_table; do
		p=$(fs_package "$n")
		[ -z "$p" ] || echo "$n $p"
	done
	exit 0 ;;
esac
set_name=${1:-build}
case "$set_name" in
build) lean="$BUILD" full="" ;;
demo) lean="$BUILD $DEMO" full="" ;;
tour) lean="$BUILD $DEMO $TOUR" full="" ;;
check) lean="$BUILD $DEMO $TOUR $BROWSER $DEB $PKGTEST" full="$TEST $FUZZ" ;;
fuzz) lean="$BUILD" full="$FUZZ" ;;
bench) lean="$BUILD $DEMO $TOUR" full="$TEST $BENCH" ;;
deb) lean="$BUILD $DEB" full="" ;;
windows) lean="" full="$WINDOWS" ;;
wine) lean="" full="$WINDOWS $WINE" ;;
*) echo "deps.sh: unknown set '$set_name' (build, demo, tour, check, bench, fuzz, deb," \
	"windows or wine)" >&2
   exit 2 ;;
esac

case $mode in
list) for p in $lean $full; do echo "$p"; done | awk '!seen[$0]++'; exit 0 ;;
lean) for p in $lean; do echo "$p"; done | awk '!seen[$0]++'; exit 0 ;;
esac

missing() {
	for p in "$@"; do
		st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case "$st" in
		*" installed") ;;
		*) printf ' %s' "$p" ;;
		esac
	done
}
# shellcheck disable=SC2086
miss_lean=$(missing $lean)
# shellcheck disable=SC2086
miss_full=$(missing $full)
[ -z "$miss_lean$miss_full" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "fslab: missing Debian packages:$miss_lean$miss_full" >&2
	echo "fslab: install them with: sudo apt-get install$miss_lean$miss_full" >&2
	exit 1
fi
echo "fslab: installing missing Debian packages:$miss_lean$miss_full"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
[ -z "$miss_lean" ] ||
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $miss_lean
# shellcheck disable=SC2086
[ -z "$miss_full" ] || apt-get -o DPkg::Lock::Timeout=600 install -y -qq $miss_full
