#!/bin/bash
# SPDX-License-Identifier: MIT
# t_compare_links: `fslab compare --output DIR --force` never writes through a symbolic link
# planted in DIR: not at any temporary name the atomic writer might use (NAME.tmp.PID,
# NAME.tmp.PID.N: stepped over and left as they are), not at a report file or a chart
# (gnuplot's `set output` followed one): an output is only ever written over a regular file,
# so a link at a final name is refused (exit 2, named) and left as it is, its target
# untouched.  Both ways of creating the temporary files are covered: O_TMPFILE (here on
# /var/tmp) and the exclusive named file on a filesystem without O_TMPFILE (ntfs-3g, FUSE).
# charts/ as a link is refused.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || fail "gnuplot missing (Debian gnuplot-nox: scripts/deps.sh)"
fx=$FSLAB_TOP/tests/fixtures
pair="$fx/ext4-1.json $fx/ext4-2.json $fx/xfs-1.json $fx/xfs-2.json"
files="report.md report.html tables.csv compare.json"
charts="iops latency-avg latency-p99 throughput write-amplification timeline-iops
	timeline-db-read-latency timeline-log-write-latency percentiles"
victim=$T/victim
echo precious > $victim

# plant DIR PID: a link to the victim at every temporary name a writer of pid PID would try
# first for the files compare writes
plant() {
	local d=$1 pid=$2 f
	for f in $files; do
		for n in "$f.tmp.$pid" "$f.tmp.$pid.1"; do ln -sfn $victim "$d/$n"; done
	done
	for c in $charts; do
		for e in png svg dat gp; do
			for n in "$c.$e.tmp.$pid" "$c.$e.tmp.$pid.1"; do
				ln -sfn $victim "$d/charts/$n"
			done
		done
	done
}
# check DIR: the victim is intact, every final name is a regular file with its real content
check() {
	local d=$1 c
	[ "$(cat $victim)" = precious ] || fail "$2: a planted link's target was overwritten: $(head -c 80 $victim | od -c | head -2)"
	for f in $files; do
		[ -f "$d/$f" ] && [ ! -L "$d/$f" ] || fail "$2: $f is not a regular file"
	done
	for c in $charts; do
		[ ! -L "$d/charts/$c.png" ] && [ "$(head -c 8 "$d/charts/$c.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
			fail "$2: charts/$c.png is not a PNG"
		[ ! -L "$d/charts/$c.svg" ] && grep -q '<svg' "$d/charts/$c.svg" || fail "$2: charts/$c.svg is not an SVG"
		[ ! -L "$d/charts/$c.gp" ] && grep -q "png_output" "$d/charts/$c.gp" || fail "$2: charts/$c.gp"
	done
	grep -q '^# links' "$d/report.md" || fail "$2: report.md is not the new report"
	# the temporary-name links are left as they were (never followed, never replaced)
	[ -L "$d/report.md.tmp.$3" ] || fail "$2: a planted temporary-name link was removed"
	echo "ok: $2"
}
# compare_planted DIR: plant links for the pid the compare will have, then exec it
compare_planted() {
	local d=$1
	# shellcheck disable=SC2016
	bash -c 'd=$1; shift; plant "$d" $$; exec "$@"' _ "$d" \
		"$FSLAB" compare $pair --output "$d" --force --title links >$T/stdout 2>$T/stderr \
		|| { cat $T/stderr; fail "compare failed in $d"; }
}
export -f plant
export files charts victim

log "links planted in a compare's output directory (O_TMPFILE)"
out=$T/out
# shellcheck disable=SC2086
"$FSLAB" compare $pair --output $out >/dev/null 2>&1 || fail "first compare"
compare_planted $out
pid=$(ls $out/report.md.tmp.* | sed -n 's/.*\.tmp\.\([0-9]*\)$/\1/p' | head -1)
check $out "O_TMPFILE" "$pid"

log "the same on a filesystem without O_TMPFILE (ntfs-3g): exclusive named temporary files"
truncate -s 64M $T/ntfs.img
mkfs.ntfs -Q -F $T/ntfs.img >/dev/null 2>&1 || fail "mkfs.ntfs"
mkdir $T/ntfs
ntfs-3g $T/ntfs.img $T/ntfs || fail "ntfs-3g mount"
track_mount $T/ntfs
python3 -c "import os,sys; os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o644)" $T/ntfs 2>/dev/null &&
	fail "ntfs-3g supports O_TMPFILE here: this part would not test the named files"
out=$T/ntfs/out
mkdir -p $out/charts
compare_planted $out
pid=$(ls $out/report.md.tmp.* | sed -n 's/.*\.tmp\.\([0-9]*\)$/\1/p' | head -1)
check $out "named temporary files" "$pid"
# the writer stepped over both planted names: nothing of its own is left
left=$(ls $out $out/charts | grep -E '\.tmp\.[0-9]+\.[2-9]' || true)
[ -z "$left" ] || fail "temporary files left: $left"

log "a link at a report file's or a chart's own name is refused, left as it is"
out=$T/out3
# shellcheck disable=SC2086
"$FSLAB" compare $pair --output $out >/dev/null 2>&1 || fail "compare into $out"
for f in report.md charts/iops.png; do
	cp -p $out/$f $T/kept
	ln -sfn $victim $out/$f
	# shellcheck disable=SC2086
	expect_status 2 "$FSLAB" compare $pair --output $out --force
	grep -q "$f is a symbolic link, not a regular file" $T/stderr || fail "$f: not named: $(cat $T/stderr)"
	[ "$(readlink $out/$f)" = "$victim" ] && [ "$(cat $victim)" = precious ] ||
		fail "$f: the link or its target was changed"
	rm $out/$f && mv $T/kept $out/$f
	echo "ok: a link at $f"
done

log "charts/ as a link is refused, its target untouched"
out=$T/out2
mkdir -p $out $T/elsewhere
ln -s $T/elsewhere $out/charts
# shellcheck disable=SC2086
expect_status 2 "$FSLAB" compare $pair --output $out --force
grep -q "charts is a symbolic link" $T/stderr || fail "no message: $(cat $T/stderr)"
[ -z "$(ls -A $T/elsewhere)" ] || fail "files written through the charts link: $(ls $T/elsewhere)"
echo "all good"
