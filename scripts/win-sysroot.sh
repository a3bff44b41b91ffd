#!/bin/sh
# SPDX-License-Identifier: MIT
# win-sysroot.sh: cross-build fslab.exe's libraries (jansson, cmocka, isa-l, libxml2, inih) for x86-64 Windows
# from their Debian source packages into a sysroot, once (cached; docs/WINDOWS.md).
# Usage: scripts/win-sysroot.sh SYSROOT    (e.g. build/win/sysroot)
# Needs the cross toolchain (scripts/deps.sh windows); enables deb-src for the mirror already
# configured when apt has none.  Nothing third-party lands in the repository: sources are
# unpacked under SYSROOT/../src and the installed headers and static libraries under SYSROOT.
# A finished sysroot is also kept in $FSLAB_WIN_CACHE (default /var/cache/fslab), named by this
# script's and the compiler's checksum, so a fresh clone (CI) copies it instead of building it
# again (about 6 minutes); FSLAB_WIN_CACHE= (empty) turns that off.
set -eu

ROOT=${1:?usage: win-sysroot.sh SYSROOT}
mkdir -p "$ROOT"
ROOT=$(cd "$ROOT" && pwd)
SRC=$(dirname "$ROOT")/src
HOST=x86_64-w64-mingw32
CC="$HOST-gcc-posix"
export CC AR="$HOST-ar" RANLIB="$HOST-ranlib"
# The libraries are linked statically: no DLL next to fslab.exe.
CFLAGS="-O2 -g"
export CFLAGS

# deb-src for the configured mirror (deb822 or one-line sources), once.
enable_deb_src() {
	if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "fslab: the Windows sysroot needs Debian source packages: enable deb-src in" \
		     "/etc/apt/sources.list.d/ and run apt-get update (or run make windows as root)" >&2
		exit 1
	fi
	echo "fslab: enabling deb-src for the configured Debian mirror"
	out=/etc/apt/sources.list.d/fslab-deb-src.sources
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$out.tmp"
	else
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list >"${out%.sources}.list.tmp"
		out=${out%.sources}.list
	fi
	mv "$out.tmp" "$out"
	apt-get -o DPkg::Lock::Timeout=600 update -qq
}

# fetch PKG: unpack the Debian source package PKG (with Debian's patches) into $SRC/PKG-*/.
fetch() {
	if ls -d "$SRC/$1"-*/ >/dev/null 2>&1; then
		return 0
	fi
	enable_deb_src
	mkdir -p "$SRC"
	(cd "$SRC" && apt-get -o DPkg::Lock::Timeout=600 source -qq "$1" >/dev/null 2>&1) || {
		(cd "$SRC" && apt-get update -qq && apt-get source -qq "$1" >/dev/null) || {
			echo "fslab: apt-get source $1 failed (is deb-src enabled and reachable?)" >&2
			exit 1
		}
	}
}

dir_of() {
	ls -d "$SRC/$1"-*/ | head -n 1
}

# jansson: autotools (Debian 2.14); static only.
build_jansson() {
	[ -f "$ROOT/lib/libjansson.a" ] && return 0
	fetch jansson
	d=$(dir_of jansson)
	echo "fslab: cross-building jansson ($d)"
	(cd "$d" && { [ -x configure ] || autoreconf -fi >/dev/null 2>&1; } &&
	 ./configure -q --host=$HOST --prefix="$ROOT" --disable-shared --enable-static &&
	 make -s -j2 >/dev/null && make -s install >/dev/null)
}

# cmocka: CMake (Debian 1.1.5); static only, so the unit tests need no DLL either.
build_cmocka() {
	[ -f "$ROOT/lib/libcmocka.a" ] || [ -f "$ROOT/lib/libcmocka-static.a" ] && return 0
	fetch cmocka
	d=$(dir_of cmocka)
	echo "fslab: cross-building cmocka ($d)"
	rm -rf "$d/build-win"
	mkdir -p "$d/build-win"
	(cd "$d/build-win" &&
	 cmake .. -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER="$CC" \
		-DCMAKE_RC_COMPILER=$HOST-windres -DCMAKE_INSTALL_PREFIX="$ROOT" \
		-DCMAKE_BUILD_TYPE=Release -DWITH_STATIC_LIB=ON -DBUILD_SHARED_LIBS=OFF \
		-DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF -DPICKY_DEVELOPER=OFF >/dev/null &&
	 make -s -j2 >/dev/null && make -s install >/dev/null)
	if [ ! -f "$ROOT/lib/libcmocka.a" ] && [ -f "$ROOT/lib/libcmocka-static.a" ]; then
		cp "$ROOT/lib/libcmocka-static.a" "$ROOT/lib/libcmocka.a"
	fi
}

# isa-l: autotools with nasm (Debian 2.30); its configure knows mingw (win64 objects).
build_isal() {
	[ -f "$ROOT/lib/libisal.a" ] && return 0
	fetch libisal
	d=$(dir_of libisal)
	echo "fslab: cross-building isa-l ($d)"
	(cd "$d" && { [ -x configure ] || ./autogen.sh >/dev/null 2>&1; } &&
	 ./configure -q --host=$HOST --prefix="$ROOT" --disable-shared --enable-static &&
	 make -s -j2 >/dev/null && make -s install >/dev/null)
}

# libxml2: autotools (Debian 2.9.14); the DiskSpd XML and Jetstress HTML importers.  No iconv
# (UTF-8, UTF-16 and Latin-1 are built in), no zlib/lzma, no network, no Python.
build_libxml2() {
	[ -f "$ROOT/lib/libxml2.a" ] && [ -f "$ROOT/include/libxml2/libxml/xmlversion.h" ] && return 0
	fetch libxml2
	d=$(dir_of libxml2)
	echo "fslab: cross-building libxml2 ($d)"
	# Debian regenerates the autotools files (dh_autoreconf); the shipped ones are older
	(cd "$d" && autoreconf -fi >/dev/null 2>&1 &&
	 ./configure -q --host=$HOST --prefix="$ROOT" --disable-shared --enable-static \
		--without-python --without-iconv --without-icu --without-zlib --without-lzma \
		--without-http --without-ftp --without-modules --without-debug \
		--without-threads >/dev/null &&
	 make -s -j2 libxml2.la >/dev/null 2>&1 &&
	 make -s install-libLTLIBRARIES >/dev/null &&
	 make -s -C include install >/dev/null)
}

# inih: one C file (Debian 55, with Debian's patch that turns its compile-time options into
# globals).  Built here with the lab config's options as those compile-time values, so that
# fslab.exe parses exactly as the Linux fslab does after setting the globals (src/lab/labcfg.c,
# FSLAB_INIH_FIXED_OPTIONS): a heap line buffer of 4096 + 3 bytes that never grows, no
# multi-line values, ';' and '#' inline comments, a BOM allowed, every error reported.
# FSLAB_INIH_SRC=DIR takes ini.c and ini.h from DIR (an inih release of the same version)
# where the mirror serves no Debian source for libinih.
build_inih() {
	[ -f "$ROOT/lib/libinih.a" ] && [ -f "$ROOT/include/ini.h" ] && return 0
	if [ -n "${FSLAB_INIH_SRC:-}" ]; then
		d=$FSLAB_INIH_SRC
	elif (fetch libinih) 2>/dev/null; then
		d=$(dir_of libinih)
	else
		# seen: the mirror serves libinih's .dsc but not its tarballs (404)
		echo "fslab: warning: no source of inih (apt-get source libinih failed): fslab.exe" \
		     "is built without the lab's INI reader (fslab.exe lab refuses, the rest" \
		     "works); to build it, set FSLAB_INIH_SRC=DIR to an inih r55 release" \
		     "(docs/WINDOWS.md)" >&2
		return 0
	fi
	echo "fslab: cross-building inih ($d)"
	mkdir -p "$ROOT/lib" "$ROOT/include" "$SRC"
	$CC $CFLAGS -c -o "$SRC/ini-win.o" \
		-DINI_ALLOW_MULTILINE=0 -DINI_ALLOW_BOM=1 -DINI_ALLOW_INLINE_COMMENTS=1 \
		'-DINI_INLINE_COMMENT_PREFIXES=";#"' -DINI_USE_STACK=0 -DINI_MAX_LINE=4099 \
		-DINI_ALLOW_REALLOC=0 -DINI_INITIAL_ALLOC=4099 -DINI_STOP_ON_FIRST_ERROR=0 \
		"$d/ini.c"
	rm -f "$ROOT/lib/libinih.a"
	$AR rcs "$ROOT/lib/libinih.a" "$SRC/ini-win.o"
	cp "$d/ini.h" "$ROOT/include/ini.h"
}

complete() {
	[ -f "$1/lib/libjansson.a" ] && [ -f "$1/lib/libcmocka.a" ] && [ -f "$1/lib/libisal.a" ] &&
		[ -f "$1/lib/libxml2.a" ] && [ -f "$1/include/libxml2/libxml/xmlversion.h" ]
}

CACHE_DIR=${FSLAB_WIN_CACHE-/var/cache/fslab}
CACHE=
if [ -n "$CACHE_DIR" ]; then
	key=$( { cat "$0"; "$CC" --version; } | sha256sum | cut -c1-16)
	CACHE=$CACHE_DIR/win-sysroot-$key
fi
if ! complete "$ROOT" && [ -n "$CACHE" ] && complete "$CACHE"; then
	echo "fslab: Windows sysroot copied from $CACHE"
	cp -a "$CACHE/." "$ROOT/"
fi
build_jansson
build_cmocka
build_isal
build_libxml2
build_inih
if [ -n "$CACHE" ] && ! complete "$CACHE" && mkdir -p "$CACHE_DIR" 2>/dev/null; then
	# whole or not at all: copied beside it, then renamed into place
	tmp=$(mktemp -d "$CACHE_DIR/.win-sysroot.XXXXXX") &&
		cp -a "$ROOT/." "$tmp/" && { mv -T "$tmp" "$CACHE" 2>/dev/null || rm -rf "$tmp"; }
fi
echo "fslab: Windows sysroot ready in $ROOT"
