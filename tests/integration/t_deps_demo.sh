#!/bin/bash
# SPDX-License-Identifier: MIT
# t_deps_demo: `make demo` installs what the demo needs and nothing of the test toolchain
# (issue 21).  What `scripts/deps.sh demo` would install (--list) holds the compiler, the
# library headers the Makefile's pkg-config modules come from, the mkfs tool of every
# filesystem of configs/demo.ini, the mount tools and gnuplot; none of QEMU, busybox, cmocka,
# fio, jq, clang, Wine, mingw, Chromium.  Where this machine has apt lists, the whole install
# a fresh Debian 12 would get (scripts/deps-size.sh: the dependencies and recommendations
# included) holds none of them either.  Nothing is installed.
. "$(dirname "$0")/lib.sh"

cd "$FSLAB_TOP"
deps=scripts/deps.sh
"$deps" --list demo > "$T/demo" || fail "deps.sh --list demo failed"
[ -s "$T/demo" ] || fail "deps.sh --list demo lists nothing"
cat "$T/demo"
in_set() { grep -qx -- "$1" "$T/demo"; }

log "what the build needs"
for p in gcc make libc6-dev pkg-config; do
	in_set "$p" || fail "the demo set lacks $p (the build needs it)"
done
# the library headers: the package of every pkg-config module the Makefile links
mods=$(sed -n 's/^PKGS := //p' Makefile)
[ -n "$mods" ] || fail "no PKGS line in the Makefile"
for m in $mods; do
	pc=$(pkg-config --variable=pcfiledir "$m" 2>/dev/null)/$m.pc
	[ -f "$pc" ] || fail "pkg-config module $m: no .pc file on this machine"
	pkg=$(dpkg -S "$pc" 2>/dev/null | head -1 | cut -d: -f1)
	[ -n "$pkg" ] || fail "$pc belongs to no Debian package"
	in_set "$pkg" || fail "the demo set lacks $pkg (pkg-config module $m of the Makefile)"
done

log "what configs/demo.ini runs"
fss=$(sed -n 's/^\[fs \([a-z0-9]*\)\].*/\1/p' configs/demo.ini)
[ -n "$fss" ] || fail "configs/demo.ini has no [fs] section"
for fs in $fss; do
	case $fs in
	ext4) tool=mkfs.ext4 ;; xfs) tool=mkfs.xfs ;; ntfs) tool=mkntfs ;; btrfs) tool=mkfs.btrfs ;;
	*) fail "configs/demo.ini: filesystem $fs unknown to this test: add its mkfs tool" ;;
	esac
	command -v "$tool" >/dev/null || fail "$tool not installed here"
	# "sbin/TOOL": dpkg records /sbin or /usr/sbin (usr-merged or not)
	pkg=$(dpkg -S "sbin/$tool" 2>/dev/null | grep -m1 ": /.*sbin/$tool\$" | cut -d: -f1)
	in_set "$pkg" || fail "the demo set lacks $pkg ($tool for [fs $fs] of configs/demo.ini)"
done
for p in gnuplot-nox mount util-linux; do
	in_set "$p" || fail "the demo set lacks $p"
done

log "nothing of the test toolchain"
toolchain="qemu-system-x86 busybox-static libcmocka-dev fio jq kmod dmsetup clang
libclang-rt-14-dev wine wine64 gcc-mingw-w64-x86-64-posix mingw-w64-x86-64-dev cmake nasm yasm
chromium python3 build-essential g++ time"
for p in $toolchain; do
	! in_set "$p" || fail "the demo set installs $p, which the demo does not use"
done
# and the tests' sets do hold them (the list above is not stale)
for p in qemu-system-x86 busybox-static libcmocka-dev fio clang chromium; do
	"$deps" --list check | grep -qx "$p" || fail "deps.sh check no longer installs $p"
done

log "the install a fresh Debian 12 would get"
rc=0
scripts/deps-size.sh -v demo > "$T/fresh" 2>&1 || rc=$?
[ $rc -eq 77 ] && { log "no apt lists here: the fresh install was not simulated"; exit 0; }
[ $rc -eq 0 ] || { cat "$T/fresh"; fail "deps-size.sh demo failed"; }
head -1 "$T/fresh"
sed 1d "$T/fresh" > "$T/closure"
[ -s "$T/closure" ] || fail "the simulated install is empty"
# (python3 comes with xfsprogs, a Depends of its xfs_scrub_all: not the browser test's)
for p in $(echo $toolchain | tr ' ' '\n' | grep -vx python3) qemu-system-common seabios ovmf \
	wine64-preloader libcmocka0 llvm-14 groff fonts-liberation; do
	! grep -qx -- "$p" "$T/closure" || fail "a fresh demo install would pull in $p"
done
for p in gnuplot-nox xfsprogs gcc; do
	grep -qx -- "$p" "$T/closure" || fail "a fresh demo install would not install $p"
done
n=$(head -1 "$T/fresh" | cut -d' ' -f1)
[ "$n" -lt 200 ] || fail "a fresh demo install is $n packages (it was 125 when measured)"
log "ok"
