#!/bin/sh
# SPDX-License-Identifier: MIT
# setup.sh: fetch and unpack the guest kernel for the QEMU test guest and build its initramfs.
# Usage: tests/vm/setup.sh [6.12|6.1]       (default 6.12; FSLAB_VM_KERNEL sets the default)
#
# The kernel is a Debian kernel package downloaded from the configured mirror with
# `apt-get download` and unpacked with `dpkg-deb -x` (never installed); `depmod -b` indexes
# its modules.  Everything is cached under build/vm/<kernel version>/: a second call prints
# the cached directory and does nothing else.  The initramfs is busybox-static, the 9p modules
# (decompressed) and tests/vm/initramfs-init; it is rebuilt when that script changes.
#
# Prints the kernel directory on stdout.  Exits 77 with one line naming the reason when the
# guest cannot be had here (no QEMU, no busybox-static, no kernel package on the mirror).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${FSLAB_VM_CACHE:-$top/build/vm}
want=${1:-${FSLAB_VM_KERNEL:-6.12}}

skip() { echo "vm: $*" >&2; exit 77; }

command -v qemu-system-x86_64 >/dev/null ||
	skip "no qemu-system-x86_64 (Debian package qemu-system-x86; scripts/deps.sh check installs it)"
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx switch_root ||
	skip "no static busybox with switch_root (Debian package busybox-static)"
command -v depmod >/dev/null || skip "no depmod (Debian package kmod)"
command -v xz >/dev/null || skip "no xz for the kernel's modules (Debian package xz-utils)"
command -v apt-get >/dev/null || skip "no apt-get: the guest kernel comes from a Debian mirror"

case $want in
6.12) meta=linux-image-6.12-amd64 ;;
6.1) meta=linux-image-amd64 ;; # bookworm's own kernel
*) echo "vm: unknown guest kernel '$want' (6.12 or 6.1)" >&2; exit 2 ;;
esac

# the binary package behind the meta-package: linux-image-6.12.118+deb12-amd64 and the like
resolve() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -1
}
pkg=$(resolve "$meta")
if [ "$want" = 6.12 ]; then
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ] && [ -z "${FSLAB_VM_NO_BACKPORTS:-}" ]; then
		# not on the configured suites: add bookworm-backports of the same mirror, once
		uri=$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/debian.sources \
			2>/dev/null | head -1)
		uri=${uri:-http://deb.debian.org/debian}
		echo "vm: $meta is not on the configured suites; adding bookworm-backports ($uri)" >&2
		printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' \
			"$uri" /usr/share/keyrings/debian-archive-keyring.gpg \
			>/etc/apt/sources.list.d/fslab-backports.sources
		apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 || true
		pkg=$(resolve "$meta")
	fi
fi
[ -n "$pkg" ] || skip "no $want kernel package on the configured Debian mirror ($meta)"
kver=${pkg#linux-image-}
kdir=$cache/$kver
init=$top/tests/vm/initramfs-init

if [ ! -f "$kdir/.unpacked" ]; then
	mkdir -p "$cache/deb"
	rm -rf "$kdir.tmp"
	mkdir -p "$kdir.tmp"
	deb=$(ls "$cache/deb/${pkg}_"*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		echo "vm: downloading $pkg" >&2
		# apt-get download writes into the current directory; as root the _apt user cannot
		# write into build/, which apt only warns about
		(cd "$cache/deb" && apt-get download -q "$pkg" >&2 2>/dev/null) ||
			skip "apt-get download $pkg failed (no network to the Debian mirror?)"
		deb=$(ls "$cache/deb/${pkg}_"*.deb | head -1)
	fi
	dpkg-deb -x "$deb" "$kdir.tmp"
	depmod -b "$kdir.tmp" "$kver"
	touch "$kdir.tmp/.unpacked"
	rm -rf "$kdir"
	mv "$kdir.tmp" "$kdir"
fi

# initramfs: busybox, /init and the modules needed to mount the host's root over virtio-9p
if [ ! -f "$kdir/initrd.img" ] || [ "$init" -nt "$kdir/initrd.img" ] ||
   [ "$0" -nt "$kdir/initrd.img" ]; then
	r=$kdir/initrd.d
	rm -rf "$r"
	mkdir -p "$r/bin" "$r/dev" "$r/proc" "$r/sys" "$r/root" "$r/mod"
	cp /bin/busybox "$r/bin/busybox"
	for a in sh mount mkdir insmod switch_root cat echo printf chmod uname poweroff; do
		ln -s busybox "$r/bin/$a"
	done
	cp "$init" "$r/init"
	chmod 755 "$r/init"
	# in dependency order as kmod resolves it (6.12: netfs 9pnet 9pnet_virtio 9p; 6.1 also virtio,
	# virtio_ring, virtio_pci, fscache, uncompressed); busybox insmod takes them uncompressed
	n=0
	for ko in $(modprobe -d "$kdir" -S "$kver" --show-depends -a virtio_pci 9pnet_virtio 9p |
		    sed -n 's/^insmod \([^ ]*\).*/\1/p' | awk '!seen[$0]++'); do
		n=$((n + 1))
		b=$(basename "$ko")
		case $ko in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -qdc "$ko" ;;
		*.gz) gzip -dc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$r/mod/$(printf %02d $n)-${b%%.ko*}.ko"
	done
	[ $n -gt 0 ] || skip "no 9p modules in $pkg"
	(cd "$r" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) >"$kdir/initrd.tmp"
	mv "$kdir/initrd.tmp" "$kdir/initrd.img"
	rm -rf "$r"
fi
echo "$kdir"
