#!/bin/sh
# SPDX-License-Identifier: MIT
# mkwinzip.sh: the Windows zip (make windows-zip), fslab-VERSION-windows-x86_64.zip holding
# one folder of that name: fslab.exe; README.txt (docs/windows-README.txt: what is here, the
# first steps, which gnuplot build to install); configs\ with the Windows configs; plots\
# with the gnuplot templates (fslab.exe looks for them beside itself); docs\ with the Windows
# part of the docs as plain text (README.md's "On Windows", docs/WINDOWS.md, docs/PREP.md's
# "Windows prep"); licenses\ with fslab's and those of the libraries linked into fslab.exe
# (from their Debian packages' copyright files: the sysroot is built from the same sources).
# Text files get CRLF line ends (Notepad); every file the time of the last commit.
# Usage: scripts/mkwinzip.sh FSLAB.EXE VERSION GIT HAS_INIH(yes|no) OUTDIR
set -eu
exe=$1 version=$2 git=$3 inih=$4 outdir=$5
cd "$(dirname "$0")/.."
name=fslab-$version-windows-x86_64
stage=$outdir/zip-stage
dir=$stage/$name
zip=$outdir/$name.zip
rm -rf "$stage" "$zip"
mkdir -p "$dir/configs" "$dir/plots" "$dir/docs" "$dir/licenses"

crlf() { sed 's/\r$//; s/$/\r/' "$@"; }
# section FILE HEADING: the "## HEADING..." section of a Markdown file, to the next "## "
section() {
	awk -v h="## $2" 'index($0, h) == 1 { on = 1; print; next }
		on && /^## / { exit } on { print }' "$1"
}

cp "$exe" "$dir/fslab.exe"
if [ "$inih" = yes ]; then
	inih_note= inih_lic=", inih"
else
	inih_note="
This build has no lab config reader (the mirror it was built from served no inih source):
fslab.exe lab and fslab.exe demo refuse, saying so; run, compare, prep, selftest and the
rest work.  docs\\WINDOWS.txt says how to build it with one (FSLAB_INIH_SRC).

"
	inih_lic=
fi
awk -v v="$version" -v g="$git" -v note="$inih_note" -v lic="$inih_lic" '{
	gsub(/@VERSION@/, v); gsub(/@GIT@/, g); gsub(/@INIH_LICENSE@/, lic)
	if ($0 == "@INIH_NOTE@") { printf "%s", note; next }
	print }' docs/windows-README.txt | crlf > "$dir/README.txt"
for c in windows-demo ntfs-vs-refs; do crlf "configs/$c.ini" > "$dir/configs/$c.ini"; done
cp plots/*.gp "$dir/plots/"
section README.md "On Windows" | crlf > "$dir/docs/ON-WINDOWS.txt"
crlf docs/WINDOWS.md > "$dir/docs/WINDOWS.txt"
section docs/PREP.md "Windows prep" | crlf > "$dir/docs/PREP-WINDOWS.txt"
for f in "$dir"/docs/*.txt; do
	[ -s "$f" ] || { echo "mkwinzip.sh: $f came out empty (a heading renamed?)" >&2; exit 1; }
done

crlf debian/copyright > "$dir/licenses/fslab.txt"
lic() {
	[ -f "/usr/share/doc/$1/copyright" ] || {
		echo "mkwinzip.sh: /usr/share/doc/$1/copyright missing (scripts/deps.sh windows)" >&2
		exit 1
	}
	crlf "/usr/share/doc/$1/copyright" > "$dir/licenses/$2.txt"
}
lic libjansson-dev jansson
lic libisal-dev isa-l
lic libxml2-dev libxml2
[ "$inih" = yes ] && lic libinih-dev inih
lic mingw-w64-x86-64-dev mingw-w64
lic gcc-mingw-w64-base gcc-runtime

stamp=$(git log -1 --format=%cd --date=format:%Y%m%d%H%M.%S 2>/dev/null || date +%Y%m%d%H%M.%S)
find "$stage" -exec touch -t "$stamp" {} +
(cd "$stage" && find "$name" | LC_ALL=C sort | zip -q -X -@ "$(pwd)/../$name.zip")
rm -rf "$stage"
echo "$zip"
