# SPDX-License-Identifier: MIT
# t_export.sh: fslab export --to fio|diskspd.  The round trip: the simple randread exported to
# fio, run by fio on a real ext4 loop volume, its JSON imported and compared with fslab's own
# runs of the same options, alternating (3 each): the IOPS agree within the run-to-run noise
# and the rows say which tool measured them.  Then the jetstress approximation and DiskSpd's
# script, and bad input (exit 2, nothing written), injection into the job file.  Root (loop
# device, mkfs, mount).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root"
command -v fio >/dev/null || fail "fio missing (Debian package fio; scripts/deps.sh check installs it)"

dev=$(new_loop 1G)
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
mkdir -p "$T/mnt"
mount "$dev" "$T/mnt" && track_mount "$T/mnt"
mkdir -p "$T/mnt/db"

opts=(--workload randread --db "$T/mnt/db" --threads 1 --iodepth 8 --bs 4k --db-size 256M
	--duration 3s --warmup 1s --seed 3)

log "export the simple randread to fio: the job file fio parses, the same pattern"
"$FSLAB" export --to fio "${opts[@]}" --output "$T/randread.fio" || fail "export --to fio"
fio --parse-only "$T/randread.fio" || fail "fio does not parse the exported job file"
for k in rw=randread bs=4096 iodepth=8 numjobs=1 offset=32k size=268402688 norandommap \
	direct=1 ioengine=io_uring runtime=3 ramp_time=1000ms lat_percentiles=1 \
	iodepth_batch_submit=8 "filename=$T/mnt/db/fslab-fio.dat"; do
	grep -qx -- "$k" "$T/randread.fio" || { cat "$T/randread.fio"; fail "job file lacks $k"; }
done

log "round trip: 3 fslab runs and 3 fio runs of it, alternating"
# fslab without its per-read verification: fio verifies nothing, and on a CPU-starved machine
# (measured: 5,383 vs 25,561 IOPS with the verification, both cores busy) the check would
# compare CRC32C work, not the I/O pattern the export carries
for i in 1 2 3; do
	"$FSLAB" run "${opts[@]}" --label fslab --quiet --no-checksum-pass --no-verify \
		--output "$T/fslab-$i.json" >/dev/null || fail "fslab run $i"
	fio "$T/randread.fio" --output-format=json+ --output="$T/fio-$i.json" >/dev/null ||
		fail "fio run $i"
done
args=()
for i in 1 2 3; do args+=("$T/fio-$i.json" --label "$T/fio-$i.json=fio" "$T/fslab-$i.json"); done
expect_status 2 "$FSLAB" compare "${args[@]}"
grep -q 'tool fslab .* vs fio 3' "$T/stderr" || { cat "$T/stderr"; fail "fio vs fslab not refused as a tool mismatch"; }
"$FSLAB" compare "${args[@]}" --allow-mismatch --baseline fslab --format json >"$T/rt.json" ||
	fail "compare --allow-mismatch"
jqt "$T/rt.json" '[.rows[] | select(.id == "tool") | .cells[].text | split(" ")[0]] | sort == ["fio", "fslab"]'
read -r fs fi pct sig half < <(jq -r '.rows[] | select(.id == "db_read_iops") |
	[(.cells[] | select(.label == "fslab") | .mean), (.cells[] | select(.label == "fio") | .mean),
	 (.cells[] | select(.label == "fio") | .delta.pct), (.cells[] | select(.label == "fio") | .delta.significant),
	 (.cells[] | select(.label == "fio") | .delta.ci_half)] | @tsv' "$T/rt.json")
log "fslab $fs IOPS, fio $fi IOPS: fio $pct % (significant: $sig, interval +-$half)"
# the same pattern, not a timing: the job file's keys are checked one by one above; this
# catches what keys cannot (a key fio reads otherwise than fslab means it).  A pattern gone
# wrong lands far off (buffered instead of direct reads: fio measured 192-419k IOPS against
# 31-32k direct here, 6x and more); 3 short runs each on a shared 2-core machine differ by up
# to ~17 % when quiet, but under a loaded make check fslab and fio once measured 67,725 and
# 29,524 IOPS (2.3x, "significant"): so this holds a factor of 3, and `make bench` measures
# the agreement itself (its 5 % target, with enough repeats)
awk -v a="$fs" -v b="$fi" -v s="$sig" 'BEGIN { r = a / b; if (r < 1) r = 1 / r
	exit !(s != "yes" || r <= 3) }' ||
	fail "fslab and fio disagree: fio $pct % (significant, beyond a factor of 3) on the same pattern"
jqt "$T/rt.json" '.groups | map(select(.label == "fio")) | .[0].source.format == "fio JSON+, lat"'

log "jetstress approximation for fio: per database a 32 KiB random write-through job, a log and a BDM job"
"$FSLAB" export --to fio --workload jetstress --db "$T/mnt/db" --log "$T/mnt/db" --databases 2 \
	--threads 4 --db-size 64M --duration 4s --bdm-rate 2 >"$T/js.fio" || fail "export jetstress"
fio --parse-only "$T/js.fio" || fail "fio does not parse the jetstress job file"
[ "$(grep -c '^\[fslab-db[12]\]$' "$T/js.fio")" -eq 2 ] || fail "two database jobs"
grep -q '^rw=randrw$' "$T/js.fio" && grep -q '^bs=32k$' "$T/js.fio" && grep -q '^sync=dsync$' "$T/js.fio" ||
	fail "database job: 32 KiB random write-through"
grep -q '^rate=2000000$' "$T/js.fio" || fail "BDM throttled to --bdm-rate 2"
grep -q 'no transactions, no cache, no log rolls' "$T/js.fio" || fail "the losses are not stated"
fio "$T/js.fio" --output-format=json+ --output="$T/js.json" >/dev/null || fail "fio of the jetstress export"
"$FSLAB" compare "$T/js.json" --format json >"$T/jsc.json" || fail "compare of the jetstress export"
for r in db_read_iops db_write_iops log_write_iops bdm_read_iops; do
	jqt "$T/jsc.json" ".rows[] | select(.id == \"$r\") | .cells[0].mean > 0"
done
# BDM at 2 MB/s per database, 2 databases: about 4 MB/s
jqt "$T/jsc.json" '.rows[] | select(.id == "bdm_read_mbps") | .cells[0].mean | (. > 2 and . < 6)'
"$FSLAB" export --to fio --workload jetstress --db "$T/mnt/db" --log "$T/mnt/db" \
	--from "$FSLAB_TOP/tests/fixtures/ext4-1.json" >"$T/js2.fio" || fail "export --from"
want=$(jq '.classes.db_read.iops / (.classes.db_read.iops + .classes.db_write.iops) * 100 | round' \
	"$FSLAB_TOP/tests/fixtures/ext4-1.json")
grep -qx "rwmixread=$want" "$T/js2.fio" || fail "--from: read share $want not taken"
grep -qx 'bs=8192' "$T/js2.fio" || fail "--from: log size (7887 bytes -> 2 sectors)"
grep -q '^rate_iops=' "$T/js2.fio" || fail "--from: log rate"

log "DiskSpd: command lines and the PowerShell script, per volume and role"
"$FSLAB" export --to diskspd --workload randrw --rwmixread 70 --db 'D:\fslab\db' --db 'E:\fslab\db' \
	--threads 3 --bs 8k --iodepth 4 --db-size 1G --duration 60s --output "$T/rw.ps1" >"$T/lines" ||
	fail "export --to diskspd"
grep -qF 'diskspd.exe -c1073741824 -B32768 -b8192 -r8192 -w30 -t2 -o4 -d60 -W3 -Su -z1 -L -D -Rxml D:\fslab\db\fslab-diskspd.dat > randrw-1.xml' "$T/lines" ||
	{ cat "$T/lines"; fail "DiskSpd command line of D:"; }
grep -qF -- '-t1 -o4' "$T/lines" || fail "E: gets the third thread"
grep -qF 'Start-Process -FilePath $DiskSpd' "$T/rw.ps1" && grep -qF -- '-RedirectStandardOutput $xml' "$T/rw.ps1" ||
	fail "the script does not run DiskSpd keeping the XML"
[ "$(grep -c '@{ Name = ' "$T/rw.ps1")" -eq 2 ] || fail "one run per volume"
"$FSLAB" export --to diskspd --workload jetstress --db 'D:\db' --log 'L:\log' --threads 4 >"$T/js.ps1" ||
	fail "export jetstress --to diskspd"
for k in '-b32K -r32K -w40 -t4 -o1' '-s -w100 -t1 -o1' '-b256K -s -w0' '-g1000'; do
	grep -qF -- "$k" "$T/js.ps1" || { cat "$T/js.ps1"; fail "jetstress DiskSpd: $k"; }
done

log "bad input: exit 2, nothing written"
bad() { # bad WHAT ARGS...
	local what=$1; shift
	expect_status 2 "$FSLAB" export "$@" --output "$T/out"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$what: one line"; }
	grep -qF -- "$what" "$T/stderr" || { cat "$T/stderr"; fail "$what: not named"; }
	[ ! -e "$T/out" ] || fail "$what: output written"
}
bad "--to" --workload randread --db "$T/mnt/db"
bad "--to xml" --to xml --workload randread --db "$T/mnt/db"
bad "--threads" --to fio --db "$T/mnt/db" --threads 0
bad "--workload" --to fio --db "$T/mnt/db" --workload nope
bad "--from" --to fio --workload randread --db "$T/mnt/db" --from "$FSLAB_TOP/tests/fixtures/ext4-1.json"
bad "missing.json" --to fio --db "$T/mnt/db" --log "$T/mnt/db" --from "$T/missing.json"
bad "spaces" --to diskspd --workload randread --db 'D:\my db'
expect_status 2 "$FSLAB" export --to fio --workload randread --db "$T/mnt/db" --output "$T/nodir/x.fio"
grep -q 'is not a directory' "$T/stderr" || fail "--output in a missing directory"
expect_status 2 "$FSLAB" export --to fio --workload randread --db "$T/mnt/db" --output "$T/mnt"

# Injection into the fio job file (issue 16): a directory name with a newline injected
# exec_prerun= (a command fio runs); ';', '#' and '$' are read by fio's parser as comments and
# variables.  Refused, one line, nothing written; ':' (fio's file separator) is escaped; the
# command line in the header comment is escaped (a newline there began a line of the job).
log "fio job file: no injection through directory names or the command line"
nl=$'\n'
bad "control character" --to fio --workload randread --threads 1 --db "$T/x${nl}exec_prerun=touch $T/pwned${nl}y"
bad "';' or '#'" --to fio --workload randread --threads 1 --db "$T/a;b"
bad "';' or '#'" --to fio --workload jetstress --db "$T/mnt/db" --log "$T/l#x"
bad "'\$'" --to fio --workload randread --threads 1 --db "$T/\${HOME}"
bad "a blank at its start or end" --to fio --workload randread --threads 1 --db "$T/db "
bad "control characters" --to diskspd --workload randread --db $'D:\\db\x1b[2J'
odir="$T/o${nl}exec_prerun=touch $T/pwned${nl}"
mkdir -p "$odir" "$T/a:b"
"$FSLAB" export --to fio --workload randread --threads 1 --db "$T/a:b" --db-size 64M \
	--duration 5s --output "$odir/j.fio" || fail "export with a newline in --output's directory"
fio --showcmd "$odir/j.fio" >"$T/showcmd" 2>&1 || { cat "$T/showcmd"; fail "fio cannot read the job file"; }
! grep -q exec_prerun "$T/showcmd" || { cat "$T/showcmd"; fail "exec_prerun injected into the job file"; }
grep -qxF "filename=$T/a\\:b/fslab-fio.dat" "$odir/j.fio" || { cat "$odir/j.fio"; fail "':' not escaped for fio"; }
grep -qF -- "--output '$T/o\nexec_prerun=" "$odir/j.fio" || fail "the command line is not shown escaped"
[ ! -e "$T/pwned" ] || fail "an injected command ran"
echo "t_export: ok"
