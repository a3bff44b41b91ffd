#!/bin/bash
# SPDX-License-Identifier: MIT
# t_vm_faults: I/O faults on a real kernel (the QEMU guest, tests/vm/, Debian 6.12): errors in
# the middle of a run on database reads (dm-flakey error_reads, null_blk badblocks, scsi_debug
# medium and hardware errors) and on log writes (dm-flakey error_writes), and a database
# device that disappears (dmsetup remove --force --deferred, null_blk power off, scsi_debug
# delete).
# Every run must end by itself (no hang), write its result, fail the verdict and name the
# first failed I/O with the errno the kernel gave.  docs/VM.md has the scenario table.
. "$(dirname "$0")/lib.sh"
. "$FSLAB_TOP/tests/vm/lib.sh"
vm_need 6.12

rc=0
vm_run --timeout 600 "$FSLAB_TOP/tests/vm/guest/faults.sh" ${FSLAB_VM_FAULTS:-} >$T/out || rc=$?
grep '^== (guest)' $T/out || true
[ $rc -eq 0 ] || { tail -30 $T/out; fail "the guest script failed (exit $rc)"; }

# check NAME STATUSES CLASSES ERRNO-TEXT: the run's exit status is one of STATUSES (3: verdict
# FAIL; 1: aborted by a failed log roll), its result exists and says FAIL with the first I/O
# error in the io_errors check and in the notes: one of CLASSES, ERRNO-TEXT
check() {
	local name=$1 statuses=$2 classes=$3 why=$4 r=$T/vm/$1.json st secs
	[ -f $T/vm/$name.rc ] || { [ -n "${FSLAB_VM_FAULTS:-}" ] && return 0; fail "$name: not run"; }
	read -r st secs <$T/vm/$name.rc
	case " $statuses " in
	*" $st "*) ;;
	*) tail -20 $T/vm/$name.out; fail "$name: exit $st, expected one of $statuses" ;;
	esac
	[ -f "$r" ] || fail "$name: no result file"
	jqt "$r" '.schema | startswith("fslab-result/")'
	jqt "$r" '.verdict.pass == false'
	if [ "$st" -eq 1 ] && jq -e '[.verdict.checks[] | select(.scope == "overall" and .name == "io_errors")][0].note == null' "$r" >/dev/null; then
		# aborted before a failed I/O reached the engine (the log roll's rename or flush,
		# or the spare log file made after a roll, failed first): the failure itself is
		# named, with the kernel's errno (ext4 aborts its journal when the failed write
		# was the journal's and goes read-only: a roll or a spare after that fails to
		# create its file with EROFS; the spare's EROFS was seen in CI, 2026-12-04)
		note=$(jq -r '[.verdict.checks[] | select(.scope == "overall" and .name == "load_failures")][0] |
			select(.pass == false) | .note // empty' "$r")
		[[ $note =~ ^db1\ log\ writer:\ (the\ log\ roll\ in\ .*\ failed|cannot\ create\ the\ spare\ log\ file\ .*):\ ($why|Read-only\ file\ system)$ ]] ||
			fail "$name: aborted, but not by a log roll or spare log file failing with $why: load_failures note \"$note\", abort reason \"$(jq -r .abort_reason "$r")\""
		jqt "$r" '.abort_reason == ([.verdict.checks[] | select(.scope == "overall" and .name == "load_failures")][0].note)'
		jqt "$r" '.aborted == true'
		echo "ok: $name exit $st in $secs s: $(jq -r '.abort_reason' "$r")"
		return 0
	fi
	jqt "$r" "[.verdict.checks[] | select(.scope == \"overall\" and .name == \"io_errors\")][0] |
		.pass == false and .value > 0 and (.note | test(\"^first: db1 ($classes) at offset [0-9]+ \\\\([0-9]+ bytes\\\\) on .*: $why\$\"))"
	jqt "$r" "[.notes[] | select(test(\"^first I/O error: db1 ($classes) .*: $why\$\"))] | length == 1"
	if [ "$st" -eq 1 ]; then
		jqt "$r" '.aborted == true and (.abort_reason | length > 0)'
	fi
	echo "ok: $name exit $st in $secs s: $(jq -r '.notes[] | select(startswith("first I/O error"))' "$r")"
}
ran() { [ -f $T/vm/$1.json ]; } # FSLAB_VM_FAULTS may run a subset
check dm_read         3   'db_read|bdm_read' 'Input/output error'
ran dm_read && jqt $T/vm/dm_read.json '.classes.log_write.errors == 0 and .classes.db_write.errors == 0'
check dm_logwrite     '1 3' 'log_write'      'Input/output error'
ran dm_logwrite && jqt $T/vm/dm_logwrite.json '.classes.db_read.errors == 0'
check nullb_badblocks 3   'db_read|db_write|bdm_read' 'Input/output error'
check scsi_medium     3   'db_read|bdm_read' 'No data available'
ran scsi_medium && jqt $T/vm/scsi_medium.json '.classes.db_write.errors == 0'
check scsi_hwerr      3   'db_read|bdm_read' 'Remote I/O error'
ran scsi_hwerr && jqt $T/vm/scsi_hwerr.json '.classes.db_write.errors == 0'
check gone_dm         '1 3' 'db_read|db_write|bdm_read' 'Input/output error'
# a powered-off null_blk is a disk of size 0: the kernel answers a write past its end with
# ENOSPC, a read with 0 bytes (end of device); an I/O that meets the disk while it is being
# removed gets EIO (the block layer ends a bio for a dead disk with an I/O error: seen in a
# make check, 2026-12-04, a db_write)
gone_errs='No space left on device|Input/output error|short transfer, 0 of [0-9]+ bytes'
check gone_nullb      '1 3' 'db_read|db_write|bdm_read' "($gone_errs)"
# a deleted SCSI disk: ENODEV for what was queued, EIO in its removal as null_blk's, then
# size 0 (reads at its end: 0 bytes, writes past it: ENOSPC, as null_blk's; seen first since
# the lazy writer keeps writes in flight)
check gone_scsi       '1 3' 'db_read|db_write|bdm_read' "(No such device|$gone_errs)"
echo "t_vm_faults: ok"
