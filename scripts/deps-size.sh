#!/bin/sh
# SPDX-License-Identifier: MIT
# deps-size.sh: what scripts/deps.sh SET would install on a fresh Debian 12, measured without
# one: apt-get simulates the install against a dpkg status that holds only a fresh system
# (the packages of priority required and important with what they depend on, as debootstrap
# installs Debian), with this machine's apt lists.  Nothing is installed or downloaded.
#
# Usage: scripts/deps-size.sh SET                       a set of scripts/deps.sh
#        scripts/deps-size.sh --full PKG... [--lean PKG...]   any packages (--full: with
#                                                       their Recommends, --lean: without)
#        -v before either: also list the packages
# Prints one line: "N packages, X MB to download, Y MB installed", and with -v the packages.
# Exit 77 when this machine has no apt lists (run apt-get update first).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
lean="" full=""
case "${1:-}" in
--full|--lean)
	to=full
	for a in "$@"; do
		case "$a" in
		--full) to=full ;;
		--lean) to=lean ;;
		*) if [ $to = full ]; then full="$full $a"; else lean="$lean $a"; fi ;;
		esac
	done ;;
"") echo "usage: scripts/deps-size.sh [-v] SET | --full PKG... [--lean PKG...]" >&2; exit 2 ;;
*) all=$("$top/scripts/deps.sh" --list "$1")
   lean=$("$top/scripts/deps.sh" --lean "$1")
   for p in $all; do
	echo "$lean" | grep -qx "$p" || full="$full $p"
   done ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apt-cache dumpavail > "$tmp/avail"
[ -s "$tmp/avail" ] || { echo "no apt lists on this machine: run apt-get update first"; exit 77; }
mkdir -p "$tmp/archives/partial"
: > "$tmp/status"
apt_sim() { # apt_sim STATUS APT-ARGS...: apt-get against that dpkg status, nothing touched
	st=$1; shift
	apt-get -o Dir::State::status="$st" -o Dir::State::extended_states="$tmp/ext" \
		-o Dir::Cache::archives="$tmp/archives" -o Debug::NoLocking=1 "$@"
}
# a fresh system: priority required and important and their dependencies (no Recommends,
# as debootstrap), then recorded as installed
# shellcheck disable=SC2046
apt_sim "$tmp/status" -s --no-install-recommends install $(awk '/^Package:/ {p = $2}
	/^Priority: (required|important)$/ {print p}' "$tmp/avail" | sort -u) 2>/dev/null |
	awk '/^Inst/ {print $2}' > "$tmp/base"
awk 'NR == FNR {base[$1] = 1; next}
     /^Package:/ {keep = ($2 in base)}
     keep {print; if (/^Package:/) print "Status: install ok installed"}
     /^$/ {keep = 0}' "$tmp/base" "$tmp/avail" > "$tmp/fresh"

# as deps.sh does: the lean packages without their Recommends, then the others with theirs
: > "$tmp/inst"
: > "$tmp/uris"
if [ -n "$(echo $lean)" ]; then
	# shellcheck disable=SC2086
	apt_sim "$tmp/fresh" -s --no-install-recommends install $lean 2>"$tmp/err" |
		awk '/^Inst/ {print $2}' >> "$tmp/inst" || { cat "$tmp/err" >&2; exit 1; }
	# shellcheck disable=SC2086
	apt_sim "$tmp/fresh" -qq --print-uris --no-install-recommends install $lean >> "$tmp/uris"
fi
if [ -n "$(echo $full)" ]; then
	# the lean ones are installed by then: a second fresh status with them added
	awk 'NR == FNR {inst[$1] = 1; next}
	     /^Package:/ {keep = ($2 in inst)}
	     keep {print; if (/^Package:/) print "Status: install ok installed"}
	     /^$/ {keep = 0}' "$tmp/inst" "$tmp/avail" > "$tmp/more"
	cat "$tmp/fresh" "$tmp/more" > "$tmp/fresh2"
	# shellcheck disable=SC2086
	apt_sim "$tmp/fresh2" -s install $full 2>"$tmp/err" | awk '/^Inst/ {print $2}' \
		>> "$tmp/inst" || { cat "$tmp/err" >&2; exit 1; }
	# shellcheck disable=SC2086
	apt_sim "$tmp/fresh2" -qq --print-uris install $full >> "$tmp/uris"
fi
n=$(sort -u "$tmp/inst" | grep -c . || true)
dl=$(awk '{s += $3} END {printf "%.1f", s / 1e6}' "$tmp/uris")
isz=$(sort -u "$tmp/inst" | awk 'NR == FNR {w[$1] = 1; next} /^Package:/ {p = $2}
	/^Installed-Size:/ {if (p in w) {s += $2; delete w[p]}} END {printf "%.1f", s / 1024}' \
	- "$tmp/avail")
echo "$n packages, $dl MB to download, $isz MB installed"
[ $verbose -eq 0 ] || sort -u "$tmp/inst"
