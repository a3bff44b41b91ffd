#!/bin/bash
# SPDX-License-Identifier: MIT
# t_outputs: every command's output is written one way (files.h), and only over a regular
# file: an output given as a device node (a /dev/null of the test's own, made with mknod), a
# FIFO, a symbolic link or a directory is refused with exit 2 and a message naming it, before
# any work, and left exactly as it was (the device still that device, the link still pointing
# where it did, its target unchanged); no temporary file is left beside it.
. "$(dirname "$0")/lib.sh"

fx=$FSLAB_TOP/tests/fixtures
O=$T/o
mkdir -p "$O" "$T/d" "$T/h1"
mount -t tmpfs -o size=64M tmpfs "$T/d" && track_mount "$T/d"
mknod "$O/null" c 1 3 # the machine's /dev/null is never used: a node of the test's own
mkfifo "$O/fifo"
echo "precious" >"$O/victim"
ln -s "$O/victim" "$O/link"
mkdir "$O/dir"
snapshot() { (cd "$O" && stat -c '%n %F %t:%T %s %i' null fifo link victim dir && readlink link &&
	sha256sum victim && ls -A dir | wc -l && ls -A | wc -l); }
BEFORE=$(snapshot)

cat >"$T/hosts.ini" <<EOF
[workload]
duration = 2s
db_size = 64M
[fs ext4]
[host h1]
ssh = local
fslab = $FSLAB
workdir = $T/h1
image_dir = $T/h1/img
EOF

# refused WHAT CMD...: exit 2 before any work, the output named, nothing changed
refused() {
	local what=$1 rc=0
	shift
	timeout 60 "$@" >"$T/stdout" 2>"$T/stderr" </dev/null || rc=$?
	[ $rc -eq 2 ] || { cat "$T/stderr"; fail "$what: exit $rc, expected 2: $*"; }
	grep -q "not a regular file\|is a directory\|names a directory" "$T/stderr" ||
		{ cat "$T/stderr"; fail "$what: the output is not named as what it is"; }
	[ "$(snapshot)" = "$BEFORE" ] || { diff <(echo "$BEFORE") <(snapshot); fail "$what: the output was changed: $*"; }
	echo "ok: $what -> $(head -1 "$T/stderr" | cut -c1-150)"
}

for k in null fifo link dir; do
	out=$O/$k
	log "output given as $k"
	refused "run --output $k" "$FSLAB" run --workload randread --db "$T/d" --db-size 16M \
		--duration 1s --warmup 0 --output "$out"
	refused "export --output $k" "$FSLAB" export --to fio --workload randread --db "$T/d" \
		--db-size 16M --duration 1s --output "$out"
	refused "selftest --json $k" "$FSLAB" selftest --dir "$T/d" --size 1M --json "$out"
	refused "merge --output $k" "$FSLAB" merge --output "$out" --host a="$fx/ext4-1.json" \
		--host b="$fx/ext4-2.json"
	refused "hosts check --json $k" "$FSLAB" hosts "$T/hosts.ini" check --samples 2 --json "$out"
	refused "hosts fetch into $k" "$FSLAB" hosts "$T/hosts.ini" fetch h1 "$fx/ext4-1.json" "$out"
done

log "compare --output DIR --force: a report file of DIR given as a device, a FIFO, a link"
R=$T/report
mkdir -p "$R"
for k in null fifo link; do
	rm -f "$R/report.md"
	case $k in
	null) mknod "$R/report.md" c 1 3 ;;
	fifo) mkfifo "$R/report.md" ;;
	link) ln -s "$O/victim" "$R/report.md" ;;
	esac
	st=$(stat -c '%F %t:%T' "$R/report.md")
	refused "compare --output with report.md a $k" "$FSLAB" compare "$fx/ext4-1.json" \
		"$fx/ext4-2.json" "$fx/xfs-1.json" "$fx/xfs-2.json" --no-charts --output "$R" --force
	[ "$(stat -c '%F %t:%T' "$R/report.md")" = "$st" ] || fail "compare replaced report.md ($k)"
	[ "$(ls -A "$R" | wc -l)" -eq 1 ] || fail "compare wrote into $R though it refused: $(ls -A "$R")"
done
echo "all good"
