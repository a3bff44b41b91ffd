# SPDX-License-Identifier: MIT
# t_prep_windows.sh: Windows prep's command line on Linux (docs/WINDOWS.md "Prep"): the plan
# and the PowerShell from canned Get-Disk output with --dry-run, every refusal exit 2 naming
# the disk and the way out, nothing written; a real prep needs fslab.exe on Windows.  The
# scripts themselves are checked against golden files in test_winprep.
. "$(dirname "$0")/lib.sh"

fx=$FSLAB_TOP/tests/fixtures/windows
cd "$T"

log "dry run: ReFS on two empty disks"
expect_status 0 "$FSLAB" prep --fs refs --db-disk 1 --log-disk 2 --disk-info "$fx/disks-fresh.json" --dry-run
grep -q '^fslab prep (Windows) plan: ReFS, 64K allocation units, integrity streams off' "$T/stdout" || fail "no plan"
grep -q "database disk 1 'Msft Virtual Disk' (100 GiB, serial 6002248045A1, SAS, offline: brought online)" "$T/stdout" || fail "plan: db disk"
grep -q -- '-FileSystem ReFS -AllocationUnitSize 65536 -SetIntegrityStreams $false' "$T/stdout" || fail "no Format-Volume"
grep -q -- "New-FslabVolume -Number 2 -Serial '6002248045A2' -Size 21474836480 -Wipe \$false" "$T/stdout" || fail "log disk"
[ -z "$(ls -A "$T" | grep -v '^std')" ] || fail "dry run wrote files: $(ls -A "$T")"

log "dry run: NTFS with 4K clusters and --force on a disk with data"
expect_status 0 "$FSLAB" prep --fs ntfs --db-disk 1 --log-disk 2 --cluster 4K --force --disk-info "$fx/disks-used.json" --dry-run
grep -q 'WIPED (--force)' "$T/stdout" || fail "the wipe is not shown in the plan"
grep -q -- '-FileSystem NTFS -AllocationUnitSize 4096 `' "$T/stdout" || fail "cluster not passed"

# bad WHAT ARGS...: exit 2, WHAT in stderr, no stdout, nothing written
bad() {
	local what=$1; shift
	log "refused: $what"
	expect_status 2 "$FSLAB" prep "$@"
	grep -qF -- "$what" "$T/stderr" || { cat "$T/stderr"; fail "$what: not said"; }
	[ ! -s "$T/stdout" ] || fail "$what: printed a plan"
	[ -z "$(ls -A "$T" | grep -v '^std')" ] || fail "$what: wrote files"
}
bad "is the system disk: fslab never formats it, not even with --force" \
	--fs ntfs --db-disk 0 --log-disk 2 --force --disk-info "$fx/disks-fresh.json" --dry-run
bad "is initialised (GPT, 2 partitions: 1 Reserved 16.0 MiB, 2 NTFS 'Data' 931.5 GiB at E:) and may hold data" \
	--fs refs --db-disk 1 --log-disk 2 --disk-info "$fx/disks-used.json" --dry-run
bad "is read-only" --fs refs --db-disk 3 --log-disk 2 --disk-info "$fx/disks-used.json" --dry-run
bad "--log-disk 4 ('USB stick') has 536870912 bytes: too small for a log volume" \
	--fs refs --db-disk 2 --log-disk 4 --disk-info "$fx/disks-used.json" --dry-run
bad "--db-disk 9: no such disk" --fs refs --db-disk 9 --log-disk 2 --disk-info "$fx/disks-used.json" --dry-run
bad "the same disk (2)" --fs ntfs --db-disk 2 --log-disk 2 --disk-info "$fx/disks-used.json" --dry-run
bad "ReFS formats with 4K or 64K" --fs refs --cluster 16K --db-disk 1 --log-disk 2 --disk-info "$fx/disks-fresh.json" --dry-run
bad "not JSON" --fs refs --db-disk 1 --log-disk 2 --disk-info "$FSLAB_TOP/README.md" --dry-run
bad "ReFS exists only on Windows" --fs refs --db-dev /dev/loop0 --log-dev /dev/loop1 --mount-root /mnt/x
bad "give both --db-disk and --log-disk" --fs refs
bad "prepped by fslab.exe on Windows" --fs ntfs --db-disk 1 --log-disk 2 --disk-info "$fx/disks-fresh.json"
bad "prepped by fslab.exe on Windows" --fs refs --db-disk 1 --log-disk 2

log "teardown of a Windows mount root without a prep.json"
expect_status 2 "$FSLAB" teardown --mount-root 'C:\fslab' --dry-run
grep -q 'prep.json' "$T/stderr" || fail "teardown: prep.json not named"
