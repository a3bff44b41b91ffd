#!/bin/bash
# SPDX-License-Identifier: MIT
# t_names_once: every name of a table (filesystems, importers, workloads, exporters) is typed
# once, in its table: no code asks which filesystem it is by name, no list a user sees is
# typed by hand (tests/integration/names_once.py says how, and what may stay and why).  The
# checker must also fail on a file that does either, so that a checker grown blind is seen.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 not installed: install the Debian package python3"
cd "$FSLAB_TOP"
check=tests/integration/names_once.py

log "the product names each table's entries only in the table"
python3 "$check" . > "$T/out" || { cat "$T/out"; fail "names typed outside their tables"; }

log "a name tested in code, and lists typed by hand, are found"
cat > "$T/planted.c" <<'C'
static int cow(const char *fsname) { return !strcmp(fsname, "btrfs"); }
static const char usage[] = "usage: fslab prep --fs ntfs|refs\n"
	"Reads fio JSON, DiskSpd XML and\n"
	"  Jetstress HTML; workloads randread or backup; --to fio or diskspd\n";
C
rc=0
python3 "$check" . "$T/planted.c" > "$T/out" || rc=$?
cat "$T/out"
[ $rc -eq 1 ] || fail "the checker passed a file that types names ($rc)"
for what in 'filesystem name "btrfs"' 'filesystem names typed by hand: "ntfs|refs"' \
	'importer names typed by hand: "fio JSON, DiskSpd XML"' \
	'workload names typed by hand: "randread or backup"' \
	'exporter names typed by hand: "fio or diskspd"'; do
	grep -qF -- "$what" "$T/out" || fail "the checker missed: $what"
done
