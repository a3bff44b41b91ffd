#!/bin/sh
# SPDX-License-Identifier: MIT
# mkdeb.sh: the Debian package of this tree (make deb), with dpkg-buildpackage -us -uc -b.
# The build runs in a copy, OUTDIR/fslab-VERSION, of the files git knows here (committed or
# not, new ones not ignored; without git, the tree less build/), because a package build
# starts with debian/rules clean: in this tree that would remove build/ and what is cached
# there (the Windows sysroot, the test guest's kernel).  The packages, .buildinfo and
# .changes land in OUTDIR; the copy is removed.  FSLAB_GIT_HASH and FSLAB_GIT_DESCRIBE (make
# deb passes them) tell the copy, which has no .git, what it was built from.
# Usage: scripts/mkdeb.sh OUTDIR
set -eu
cd "$(dirname "$0")/.."
out=$(mkdir -p "$1" && cd "$1" && pwd)
version=$(sed -n '1s/^fslab (\([^ ]*\)) .*/\1/p' debian/changelog)
[ -n "$version" ] || { echo "mkdeb.sh: no version in debian/changelog's first line" >&2; exit 1; }
src=$out/fslab-$version
rm -rf "$src"
rm -f "$out"/fslab_* "$out"/fslab-dbgsym_*
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked files that are deleted here are left out, as the tree has them
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done; exit 0' sh |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build --exclude=./fslab -cf - . | tar -xf - -C "$src"
fi
(cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	echo "mkdeb.sh: dpkg-buildpackage failed; the whole log is $out/build.log" >&2
	exit 1
}
rm -rf "$src"
ls "$out"/fslab_"$version"_*.deb
