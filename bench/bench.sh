#!/bin/bash
# SPDX-License-Identifier: MIT
# bench.sh: make bench: fslab's simple workloads against fio on the same file with the same
# pattern, alternating in the same run, medians of the per-round ratios; peak RSS at 64 threads.
#
# fio runs with --iodepth_batch_submit and --iodepth_batch_complete_max set to the iodepth:
# fslab reaps every completion there is and resubmits them at once, and these make fio do the
# same (its defaults handle one completion per round trip, which keeps fewer I/Os in flight);
# a run with fio's defaults is made each round too and reported beside, not judged.
#
# Cases (docs/BENCH.md explains the method and records the figures):
#   cpu  tmpfs, 4 KiB random reads, iodepth 16, io_uring, O_DIRECT: CPU-bound
#        target: fslab IOPS / fio IOPS >= 1.0
#   cpu_unpinned  the cpu case with neither tool pinned (as users run them): reported, not
#        judged (where the scheduler puts each thread moves both tools by up to 2x)
#   dev  ext4 on a loop device (--direct-io=on, sparse image), 32 KiB random reads, iodepth 8
#        target: IOPS and mean latency within 5 % of fio's
#   init fslab's database initialisation and its final checksum pass (jetstress, 1 database)
#        against fio's 1 MiB direct sequential write and read (iodepth 8) of a file of the same
#        size on the same ext4 loop volume, alternating
#        target: both rates >= 0.90 of fio's (median of the per-round ratios)
#   mem  fslab randread (64 threads, iodepth 4) and jetstress (64 threads), a short and a long
#        run, plus the memory a long run's timeline costs when the result is written
#        target: peak RSS < 64 MiB at 64 threads, whatever the duration
#   cluster  a lab on 64 hosts x 30 cells (bench/gen_cluster.c: 1,920 synthetic but valid
#        per-host results): each cell merged (fslab merge), the 30 cluster results compared
#        with the report and its charts, and all 1,920 host results in one compare
#        targets: the compare of the cluster results < 5 s, every step's RSS < 512 MiB; a
#        cell's merge < 1 s
#   ssh  what one lab step costs on a host over OpenSSH, a new connection per step against
#        the connection the lab keeps per host (bench/hosts_ssh.sh on the test rig's host:
#        a network namespace with its own sshd); target: the kept connection saves time
#   lab_hosts  fslab lab's overhead per cell with hosts (bench/hosts_lab.sh on the rig: one
#        host with ssh = local, one over ssh, three over ssh; a cell's wall clock minus its
#        load); target: ssh adds less than 2 s a cell to a host
# Must run as root (tmpfs mount, loop device).  Everything it creates lives in one scratch
# directory and is removed on every exit path.  Exit status 0 when every check passes, else 1.
# The machine is named in the summary and in bench-results/machine.txt: kernel, CPU model,
# CPUs, clocksource, and each tool's io_uring set-up flags (fslab's from its results, fio's
# from strace -X raw of a short run).
#
# Environment (defaults in brackets):
#   FSLAB               fslab binary [<repo>/fslab]
#   BENCH_CASES         cases to run [cpu cpu_unpinned dev init mem cluster ssh lab_hosts]
#   BENCH_ROUNDS        rounds, both comparison cases [cpu 9, dev 15]
#   BENCH_SECONDS       measured seconds per run, both comparison cases [3]
#   BENCH_CPU_ROUNDS, BENCH_CPU_SECONDS, BENCH_DEV_ROUNDS, BENCH_DEV_SECONDS: per case
#   BENCH_UNPINNED_ROUNDS  rounds of the cpu_unpinned case [the cpu case's]
#   BENCH_FIO_DEFAULT   also run fio with its default batching each round, for reference [1]
#   BENCH_WARMUP        warm-up seconds per run (fslab --warmup, fio --ramp_time) [1]
#   BENCH_CPUS          CPUs both tools are pinned to (taskset -c) in the comparison cases,
#                       or none [the last CPU]
#   BENCH_DIR           where the scratch directory goes: a disk filesystem that takes
#                       O_DIRECT, for the loop image [/var/tmp]
#   BENCH_CPU_SIZE      data file on the tmpfs [1G]   BENCH_CPU_IODEPTH [16]  BENCH_CPU_THREADS [1]
#   BENCH_DEV_SIZE      data file on the loop fs [2G] BENCH_DEV_IODEPTH [8]   BENCH_DEV_THREADS [1]
#   BENCH_INIT_SIZE     database (and fio file) size of the init case [2G]
#   BENCH_INIT_ROUNDS   rounds of the init case [7]
#   BENCH_MEM_SECONDS   the short and the long memory run [5 20]
#   BENCH_JS_DB_SIZE    jetstress database of the memory case [1G]
#   BENCH_LONG_HOURS    run length whose timeline cost is measured [24]
#   BENCH_LIBFSLAB      library the timeline measurement links with [<repo>/build/libfslab.a]
#   BENCH_CLUSTER_HOSTS, BENCH_CLUSTER_CELLS  the cluster case's lab [64 30]
#   BENCH_SSH_STEPS     steps of each kind in the ssh case [10]
#   BENCH_LAB_CELLS     cells of each lab in the lab_hosts case [4]
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FSLAB=${FSLAB:-$ROOT/fslab}
case "$FSLAB" in /*) ;; *) FSLAB=$PWD/$FSLAB ;; esac
CASES=${BENCH_CASES:-cpu cpu_unpinned dev init mem cluster ssh lab_hosts}
# other engineers' jobs share this machine: more short rounds beat fewer long ones (the
# noise comes in stretches of seconds)
CPU_ROUNDS=${BENCH_CPU_ROUNDS:-${BENCH_ROUNDS:-9}}
CPU_SECS=${BENCH_CPU_SECONDS:-${BENCH_SECONDS:-3}}
# the device case needs more rounds: run-to-run noise of the shared disk under the loop
# device is 10-30 %, against a 5 % target (docs/BENCH.md)
DEV_ROUNDS=${BENCH_DEV_ROUNDS:-${BENCH_ROUNDS:-15}}
UNPINNED_ROUNDS=${BENCH_UNPINNED_ROUNDS:-$CPU_ROUNDS}
DEV_SECS=${BENCH_DEV_SECONDS:-${BENCH_SECONDS:-3}}
WARM=${BENCH_WARMUP:-1}
FIO_DEFAULT=${BENCH_FIO_DEFAULT:-1}
CPUS=${BENCH_CPUS:-$(($(nproc) - 1))}
BASE=${BENCH_DIR:-/var/tmp}
CPU_SIZE=${BENCH_CPU_SIZE:-1G}
CPU_QD=${BENCH_CPU_IODEPTH:-16}
CPU_THREADS=${BENCH_CPU_THREADS:-1}
DEV_SIZE=${BENCH_DEV_SIZE:-2G}
DEV_QD=${BENCH_DEV_IODEPTH:-8}
DEV_THREADS=${BENCH_DEV_THREADS:-1}
MEM_SECS=${BENCH_MEM_SECONDS:-5 20}
INIT_SIZE=${BENCH_INIT_SIZE:-2G}
INIT_ROUNDS=${BENCH_INIT_ROUNDS:-7}
JS_DB_SIZE=${BENCH_JS_DB_SIZE:-1G}
LONG_HOURS=${BENCH_LONG_HOURS:-24}
LIBFSLAB=${BENCH_LIBFSLAB:-$ROOT/build/libfslab.a}
MEM_LIMIT=$((64 * 1024 * 1024))

OUT=$ROOT/bench-results
RAW=$OUT/raw
SUMMARY=$OUT/summary.txt
TSV=$OUT/rounds.tsv
MACHINE=$OUT/machine.txt

msg() { echo "bench: $*" >&2; }
die() { msg "error: $*"; exit 1; }

# ---- scratch and cleanup ----

WORK="" LOOP="" TMPMNT="" DEVMNT="" CHILD=""

cleanup() {
	local rc=$?
	set +e
	# an interrupted run: stop the tool we started (by its pid) before unmounting under it
	if [ -n "$CHILD" ]; then
		kill -TERM "$CHILD" 2>/dev/null
		wait "$CHILD" 2>/dev/null
	fi
	for m in "$DEVMNT" "$TMPMNT"; do
		if [ -z "$m" ] || ! mountpoint -q "$m"; then continue; fi
		umount "$m" 2>/dev/null || { sleep 1; umount "$m" 2>/dev/null; } || umount -l "$m"
	done
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	if [ -n "$WORK" ]; then
		# anything still backed by our image (an attach raced with a signal)
		losetup -n -O NAME,BACK-FILE 2>/dev/null | while read -r dev back; do
			case "$back" in "$WORK"/*) losetup -d "$dev" ;; esac
		done
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run CMD...: in the background and wait, so that a signal reaches the trap at once and the
# cleanup can stop the child by its pid.  Returns the command's status.  (Results come back
# in files and globals, never through $(...): a subshell would be out of the trap's reach.)
run() {
	local rc
	"$@" &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=""
	return "$rc"
}

# arithmetic, statistics and the tools' io_uring set-ups
# shellcheck source=bench/bench-lib.sh
. "$ROOT/bench/bench-lib.sh"

# ---- environment ----

[ "$(id -u)" -eq 0 ] || die "must run as root (it mounts a tmpfs and attaches a loop device);" \
	"run 'sudo make bench'"
for t in fio jq taskset losetup mkfs.ext4 mountpoint /usr/bin/time strace; do
	command -v "$t" >/dev/null || die "'$t' is missing; run 'scripts/deps.sh bench' as root"
done
[ -x "$FSLAB" ] || die "$FSLAB is not built; run 'make' (or set FSLAB=/path/to/fslab)"
PIN=()
if [ "$CPUS" != none ]; then
	taskset -c "$CPUS" true 2>/dev/null || die "BENCH_CPUS='$CPUS' is not a usable CPU list"
	PIN=(taskset -c "$CPUS")
fi
CPU_BYTES=$(size_bytes "$CPU_SIZE") || die "BENCH_CPU_SIZE='$CPU_SIZE': give a size like 1G"
DEV_BYTES=$(size_bytes "$DEV_SIZE") || die "BENCH_DEV_SIZE='$DEV_SIZE': give a size like 2G"
JS_BYTES=$(size_bytes "$JS_DB_SIZE") || die "BENCH_JS_DB_SIZE='$JS_DB_SIZE': give a size like 1G"
INIT_BYTES=$(size_bytes "$INIT_SIZE") || die "BENCH_INIT_SIZE='$INIT_SIZE': give a size like 2G"

WORK=$(mktemp -d "$BASE/fslab-bench.XXXXXX") || die "cannot create a scratch directory in $BASE"
rm -rf "$RAW"
mkdir -p "$RAW" || die "cannot create $RAW"
printf 'case\tround\ttool\tiops\tlat_mean_us\tcpu_s\twall_s\tmaxrss_kib\tdev_inflight\tdev_await_us\tring\n' \
	>"$TSV"

S=$WORK/summary
: >"$S"
sum() { echo "$*" | tee -a "$S"; }

# the machine, named in the summary and in machine.txt (docs/BENCH.md's tables name it so)
CPU_MODEL=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
CLOCKSOURCE=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null ||
	echo unknown)
# a VM (kvm, none) and a container (docker, none): both change what a context switch costs
VIRT="vm $(systemd-detect-virt --vm 2>/dev/null || echo none)"
VIRT+=", container $(systemd-detect-virt --container 2>/dev/null || echo none)"
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "kernel: $(uname -r)"
	echo "cpu_model: $CPU_MODEL"
	echo "cpus: $(nproc)"
	echo "clocksource: $CLOCKSOURCE"
	echo "virtualization: $VIRT"
	echo "load_average_start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "fio: $(fio --version)"
	echo "fslab: $("$FSLAB" version 2>/dev/null | head -1)"
} >"$MACHINE"
sum "fslab bench, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
sum "host: kernel $(uname -r), $CPU_MODEL, $(nproc) CPUs, clocksource $CLOCKSOURCE" \
	"($VIRT), load average $(cut -d' ' -f1-3 /proc/loadavg)"
sum "fslab: $("$FSLAB" version 2>/dev/null | head -1) ($FSLAB); $(fio --version)"
sum "method: per case, rounds of one fslab run and one fio run$([ "$FIO_DEFAULT" = 1 ] &&
	echo " (and one fio run with fio's default")"
[ "$FIO_DEFAULT" = 1 ] && sum "        batching, for reference)"
sum "        on the same file with the same pattern, +${WARM} s warm-up each, order rotating;"
sum "        medians of the per-round ratios fslab/fio with a distribution-free confidence"
sum "        interval; $([ "$CPUS" = none ] && echo "no pinning" ||
	echo "every comparison run pinned to CPU(s) $CPUS"); no cache drop or invalidation"
sum ""

FAILS=0
RESULTS=() # PASS/FAIL lines, printed at the end
INFO=()    # figures reported, not judged, printed after them

verdict() { # verdict PASS|FAIL TEXT
	RESULTS+=("$1  $2")
	[ "$1" = PASS ] || FAILS=$((FAILS + 1))
}

# ---- the two tools ----

SAMPLE_DEV="" # kernel name of the device under test (dev case): sampled during each run

# diskstats DEV: "ns reads read_ms weighted_ms" of a block device, from /proc/diskstats
diskstats() {
	awk -v d="$1" -v t="$(date +%s%N)" '$3 == d { print t, $4, $7, $14 }' /proc/diskstats
}

# timed TAG SECS CMD...: run CMD under /usr/bin/time (figures in $RAW/TAG.time); with
# SAMPLE_DEV set, take that device's counters inside the measured window ($RAW/TAG.dev)
timed() {
	local tag=$1 secs=$2 rc
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$RAW/$tag.time" "${PIN[@]}" "$@" &
	CHILD=$!
	if [ -n "$SAMPLE_DEV" ]; then
		# from 0.5 s into the measurement to 0.5 s before its end (start-up takes < 0.5 s)
		sleep "$(awk -v w="$WARM" 'BEGIN { print w + 0.5 }')"
		diskstats "$SAMPLE_DEV" >"$RAW/$tag.dev"
		sleep "$(awk -v s="$secs" 'BEGIN { print (s > 1.5 ? s - 1 : s / 2) }')"
		diskstats "$SAMPLE_DEV" >>"$RAW/$tag.dev"
	fi
	wait "$CHILD"
	rc=$?
	CHILD=""
	return "$rc"
}

# create_file DIR BYTES: the data file, written once by fslab (a 1 s randread run)
create_file() {
	local log
	log=$RAW/create-$(basename "$1").log
	msg "creating the $2-byte data file in $1"
	run "$FSLAB" run --workload randread --db "$1" --db-size "$2" --threads 1 --duration 1s \
		--warmup 0 --no-drop-caches --quiet --output "$RAW/create-$(basename "$1").json" \
		>"$log" 2>&1 || { cat "$log" >&2; return 1; }
	[ -f "$1/fslab-simple.edb" ] || { msg "$1/fslab-simple.edb was not created"; return 1; }
}

# fslab_round TAG DIR BYTES BS QD THREADS SECS: sets IOPS and LAT (us), or fails with a reason
fslab_round() {
	local tag=$1 dir=$2 bytes=$3 bs=$4 qd=$5 thr=$6 secs=$7 j=$RAW/$1.json
	timed "$tag" "$secs" "$FSLAB" run --workload randread --db "$dir" --db-size "$bytes" \
		--bs "$bs" --iodepth "$qd" --threads "$thr" --engine io_uring --duration "${secs}s" \
		--warmup "${WARM}s" --no-drop-caches --quiet --label "bench-$tag" --output "$j" \
		>"$RAW/$tag.log" 2>&1 || { msg "$tag: fslab failed:"; cat "$RAW/$tag.log" >&2; return 1; }
	# O_DIRECT like fio's direct=1 and the file reused, or the comparison means nothing
	jq -e '.aborted == false and .classes.db_read.errors == 0 and .classes.db_read.ops > 0 and
	       .environment.volumes[0].o_direct == true and .init.created == 0' "$j" >/dev/null ||
		{ msg "$tag: unusable fslab result $j (aborted, errors, no O_DIRECT or file recreated)"
		  return 1; }
	read -r IOPS LAT < <(jq -r '"\(.classes.db_read.iops) \(.classes.db_read.lat_us.mean)"' "$j")
}

# fio_round TAG DIR BYTES BS QD THREADS SECS: the same pattern with fio.  Which fio: the
# tool name at the end of TAG, "fio" (the same batching as fslab: the verdicts' baseline) or
# "fiodef" (fio's defaults: one completion handled and one I/O submitted at a time)
fio_round() {
	local tag=$1 dir=$2 bytes=$3 bs=$4 qd=$5 thr=$6 secs=$7 j=$RAW/$1.json
	local -a batch=()
	# fslab reaps every completion there is and resubmits them in one go; fio does the
	# same with these, and otherwise handles one completion per round trip (docs/BENCH.md)
	[ "${tag##*-}" = fio ] &&
		batch=(--iodepth_batch_submit="$qd" --iodepth_batch_complete_max="$qd")
	# offset=32k: fslab never touches the file's header page; norandommap: fslab draws
	# offsets uniformly with replacement, as fio does without its random map;
	# invalidate=0: fslab does not drop the file's cached pages either
	timed "$tag" "$secs" fio --name="bench-$tag" --filename="$dir/fslab-simple.edb" \
		--offset=32k --size=$((bytes - 32768)) --rw=randread --bs="$bs" --iodepth="$qd" \
		"${batch[@]}" --numjobs="$thr" --group_reporting --ioengine=io_uring --direct=1 \
		--norandommap --invalidate=0 --time_based --runtime="$secs" --ramp_time="$WARM" \
		--output-format=json --output="$j" >"$RAW/$tag.log" 2>&1 ||
		{ msg "$tag: fio failed:"; cat "$RAW/$tag.log" "$j" >&2; return 1; }
	jq -e '.jobs[0].error == 0 and .jobs[0].read.iops > 0' "$j" >/dev/null ||
		{ msg "$tag: unusable fio result $j"; return 1; }
	read -r IOPS LAT < <(jq -r '"\(.jobs[0].read.iops) \(.jobs[0].read.lat_ns.mean / 1000)"' "$j")
}
fiodef_round() { fio_round "$@"; }

# record CASE ROUND TOOL IOPS LAT: one line of rounds.tsv: the tool's figures, its CPU time,
# what the device saw (I/Os in flight on average, mean time per read) when sampled, and the
# tool's io_uring set-up (fslab: from its result; fio: FIO_RING)
record() {
	local tag=$1-r$2-$3 t dev="- -" ring=$FIO_RING
	read -r -a t <"$RAW/$tag.time"
	[ -s "$RAW/$tag.dev" ] && dev=$(awk 'NR == 1 { t = $1; r = $2; ms = $3; w = $4 }
		NR == 2 { d = ($1 - t) / 1e6; n = $2 - r
			  printf "%.3f %.1f\n", (d > 0 ? ($4 - w) / d : 0), (n > 0 ? ($3 - ms) / n * 1e3 : 0) }' \
		"$RAW/$tag.dev")
	[ "$3" = fslab ] && ring=$(fslab_ring "$RAW/$tag.json")
	printf '%s\t%s\t%s\t%.1f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" \
		"$(awk -v u="${t[1]}" -v s="${t[2]}" 'BEGIN { print u + s }')" "${t[0]}" "${t[3]}" \
		"${dev/ /$'\t'}" "$ring" >>"$TSV"
}

# col CASE TOOL FIELD: one column of rounds.tsv for a case and tool, one value a line
col() { awk -F'\t' -v c="$1" -v t="$2" -v f="$3" '$1 == c && $3 == t { print $f }' "$TSV"; }
# val CASE ROUND TOOL FIELD: one cell
val() {
	awk -F'\t' -v c="$1" -v r="$2" -v t="$3" -v f="$4" '$1 == c && $2 == r && $3 == t { print $f }' "$TSV"
}
# ratio CASE ROUND FIELD TOOL: fslab's FIELD over TOOL's in one round
ratio() { fdiv "$(val "$1" "$2" fslab "$3")" "$(val "$1" "$2" "$4" "$3")"; }

# rings CASE: the io_uring set-up of each tool in the case (summary and machine.txt)
rings() {
	local f nw
	f=$(col "$1" fslab 11 | sort | uniq -c | sort -rn | awk '{ $1 = ""; print substr($0, 2); exit }')
	nw=$(jq -r '.environment.volumes[0].nowait | if . == null then "not probed" elif . then
		"takes RWF_NOWAIT" else "refuses RWF_NOWAIT: io_uring hands each I/O to io-wq" end' \
		"$RAW/$1-r1-fslab.json" 2>/dev/null)
	sum "  io_uring set-up: fslab ${f% *}, wait ${f##* } (the volume ${nw:-?}); fio $FIO_RING (strace)"
	echo "ring_$1: fslab ${f% *} wait ${f##* }; fio $FIO_RING" >>"$MACHINE"
}

# compare CASE DIR BYTES BS QD THREADS ROUNDS SECS: rounds of fslab, fio (same batching) and
# fio with its defaults, in rotating order; sets MED_IOPS, MED_LAT, CI_IOPS, CI_LAT
# ("lo hi coverage%") of fslab against fio for the verdicts
compare() {
	local c=$1 dir=$2 bytes=$3 bs=$4 qd=$5 thr=$6 rounds=$7 secs=$8 r i tool
	local -a tools=(fslab fio) ir=() lr=() dr=()

	[ "$FIO_DEFAULT" = 1 ] && tools+=(fiodef)
	fio_ring "$dir" "$bytes"
	sum "case $c: randread bs $bs, iodepth $qd, $thr thread(s), io_uring, O_DIRECT, $rounds rounds" \
		"of $secs s, $dir$([ ${#PIN[@]} = 0 ] && echo ", not pinned")"
	sum "  fio: --iodepth_batch_submit=$qd --iodepth_batch_complete_max=$qd (fslab's batching)$(
		[ "$FIO_DEFAULT" = 1 ] && echo "; fio-def: fio's defaults")"
	sum "$(printf '  %-6s %11s %8s | %11s %8s | %7s %7s' round 'fslab IOPS' 'lat us' 'fio IOPS' \
		'lat us' 'IOPS x' 'lat x')$([ "$FIO_DEFAULT" = 1 ] &&
		printf ' | %11s %8s %7s' 'fio-def' 'lat us' 'IOPS x')"
	for ((r = 1; r <= rounds; r++)); do
		# rotate the order: a drift in the machine's speed favours no tool
		for ((i = 0; i < ${#tools[@]}; i++)); do
			tool=${tools[$(((i + r - 1) % ${#tools[@]}))]}
			"${tool}_round" "$c-r$r-$tool" "$dir" "$bytes" "$bs" "$qd" "$thr" "$secs" ||
				return 1
			record "$c" "$r" "$tool" "$IOPS" "$LAT"
		done
		ir+=("$(ratio "$c" "$r" 4 fio)") lr+=("$(ratio "$c" "$r" 5 fio)")
		if [ "$FIO_DEFAULT" = 1 ]; then
			dr+=("$(ratio "$c" "$r" 4 fiodef)")
			sum "$(printf '  %-6s %11.0f %8.1f | %11.0f %8.1f | %7.3f %7.3f | %11.0f %8.1f %7.3f' \
				"$r/$rounds" "$(val "$c" "$r" fslab 4)" "$(val "$c" "$r" fslab 5)" \
				"$(val "$c" "$r" fio 4)" "$(val "$c" "$r" fio 5)" "${ir[-1]}" "${lr[-1]}" \
				"$(val "$c" "$r" fiodef 4)" "$(val "$c" "$r" fiodef 5)" "${dr[-1]}")"
		else
			sum "$(printf '  %-6s %11.0f %8.1f | %11.0f %8.1f | %7.3f %7.3f' "$r/$rounds" \
				"$(val "$c" "$r" fslab 4)" "$(val "$c" "$r" fslab 5)" \
				"$(val "$c" "$r" fio 4)" "$(val "$c" "$r" fio 5)" "${ir[-1]}" "${lr[-1]}")"
		fi
	done
	MED_IOPS=$(printf '%s\n' "${ir[@]}" | median)
	MED_LAT=$(printf '%s\n' "${lr[@]}" | median)
	CI_IOPS=$(printf '%s\n' "${ir[@]}" | median_ci)
	CI_LAT=$(printf '%s\n' "${lr[@]}" | median_ci)
	if [ "$FIO_DEFAULT" = 1 ]; then
		MED_DEF=$(printf '%s\n' "${dr[@]}" | median)
		sum "$(printf '  %-6s %11.0f %8.1f | %11.0f %8.1f | %7.3f %7.3f | %11.0f %8.1f %7.3f' median \
			"$(col "$c" fslab 4 | median)" "$(col "$c" fslab 5 | median)" \
			"$(col "$c" fio 4 | median)" "$(col "$c" fio 5 | median)" "$MED_IOPS" "$MED_LAT" \
			"$(col "$c" fiodef 4 | median)" "$(col "$c" fiodef 5 | median)" "$MED_DEF")"
	else
		sum "$(printf '  %-6s %11.0f %8.1f | %11.0f %8.1f | %7.3f %7.3f' median \
			"$(col "$c" fslab 4 | median)" "$(col "$c" fslab 5 | median)" \
			"$(col "$c" fio 4 | median)" "$(col "$c" fio 5 | median)" "$MED_IOPS" "$MED_LAT")"
	fi
	# shellcheck disable=SC2086 # "lo hi coverage"
	set -- $CI_IOPS $CI_LAT
	sum "$(printf '  confidence interval of the fslab/fio medians (%.1f %%): IOPS x %.3f..%.3f, lat x %.3f..%.3f; fslab ahead in %d of %d rounds' \
		"$3" "$1" "$2" "$4" "$5" "$(printf '%s\n' "${ir[@]}" | awk '$1 > 1 { n++ } END { print n + 0 }')" \
		"$rounds")"
	rings "$c"
	# Where a difference comes from.  CPU time per I/O: each tool's own cost.  Little's law:
	# with qd x threads I/Os in flight, mean latency = that / IOPS; the tools' figures should
	# satisfy it (a check on how each stamps latency).
	sum "$(awk -F'\t' -v c="$c" -v n="$secs" -v w="$WARM" -v q=$((qd * thr)) '
		$1 == c { cpu[$3] += $6; io[$3] += $4 * (n + w); ll[$3] += $5 * $4 / (q * 1e6); k[$3]++ }
		END { printf "  CPU per I/O (user+sys, io-wq workers included, approx.): fslab %.2f us, " \
			"fio %.2f us", cpu["fslab"] / io["fslab"] * 1e6, cpu["fio"] / io["fio"] * 1e6
		      if (k["fiodef"]) printf ", fio-def %.2f us", cpu["fiodef"] / io["fiodef"] * 1e6
		      printf "\n  Little check, mean lat x IOPS / I/Os in flight (1.000 = consistent): " \
			"fslab %.3f, fio %.3f", ll["fslab"] / k["fslab"], ll["fio"] / k["fio"]
		      if (k["fiodef"]) printf ", fio-def %.3f", ll["fiodef"] / k["fiodef"] }' "$TSV")"
	if [ -n "$SAMPLE_DEV" ]; then
		sum "  device $SAMPLE_DEV inside the measured windows (medians), of $((qd * thr)) I/Os:"
		for tool in "${tools[@]}"; do
			sum "$(printf '    %-7s %5.2f in flight, await %6.1f us, tool latency %6.1f us (+%.1f us)' \
				"${tool/fiodef/fio-def}" "$(col "$c" "$tool" 9 | median)" \
				"$(col "$c" "$tool" 10 | median)" "$(col "$c" "$tool" 5 | median)" \
				"$(awk -v a="$(col "$c" "$tool" 5 | median)" \
					-v b="$(col "$c" "$tool" 10 | median)" 'BEGIN { print a - b }')")"
		done
	fi
	sum ""
}

# ---- case cpu: tmpfs ----

case_cpu() {
	local v
	TMPMNT=$WORK/tmpfs
	mkdir -p "$TMPMNT"
	mount -t tmpfs -o size=$((CPU_BYTES / 1048576 + 64))m fslab-bench "$TMPMNT" ||
		{ verdict FAIL "cpu-bound: cannot mount a tmpfs"; return; }
	if ! create_file "$TMPMNT" "$CPU_BYTES" ||
	   ! compare cpu "$TMPMNT" "$CPU_BYTES" 4k "$CPU_QD" "$CPU_THREADS" "$CPU_ROUNDS" "$CPU_SECS"; then
		verdict FAIL "cpu-bound: the comparison did not complete (see above)"
	else
		fcmp "$MED_IOPS >= 1.0" && v=PASS || v=FAIL
		# shellcheck disable=SC2086
		verdict $v "$(printf 'cpu-bound (tmpfs 4k randread qd%s): IOPS ratio fslab/fio %.3f >= 1.000 (CI %.3f..%.3f)%s' \
			"$CPU_QD" "$MED_IOPS" ${CI_IOPS% *} \
			"$([ "$FIO_DEFAULT" = 1 ] && printf '; against fio defaults %.3f' "$MED_DEF")")"
	fi
	umount "$TMPMNT" && TMPMNT=""
}

# ---- case cpu_unpinned: the cpu case as users run it, reported only ----

# Neither tool pinned: the scheduler places the submitting thread and the io-wq worker(s)
# on the CPUs as it likes, which moves either tool by up to a factor of two from one run to
# the next on a 2-CPU machine; the figures are reported beside the pinned verdict, not judged.
case_cpu_unpinned() {
	local pin=("${PIN[@]}") fd=$FIO_DEFAULT
	TMPMNT=$WORK/tmpfs
	mkdir -p "$TMPMNT"
	mount -t tmpfs -o size=$((CPU_BYTES / 1048576 + 64))m fslab-bench "$TMPMNT" ||
		{ verdict FAIL "cpu-bound, not pinned: cannot mount a tmpfs"; return; }
	PIN=() FIO_DEFAULT=0
	if ! create_file "$TMPMNT" "$CPU_BYTES" ||
	   ! compare cpu_unpinned "$TMPMNT" "$CPU_BYTES" 4k "$CPU_QD" "$CPU_THREADS" \
		"$UNPINNED_ROUNDS" "$CPU_SECS"; then
		verdict FAIL "cpu-bound, not pinned: the comparison did not complete (see above)"
	else
		# shellcheck disable=SC2086
		INFO+=("$(printf 'cpu-bound, not pinned (reported, not judged): IOPS ratio fslab/fio %.3f (CI %.3f..%.3f)' \
			"$MED_IOPS" ${CI_IOPS% *})")
	fi
	PIN=("${pin[@]}") FIO_DEFAULT=$fd
	umount "$TMPMNT" && TMPMNT=""
}

# ---- case dev: ext4 on a loop device with direct I/O ----

# the loop device and its filesystem, shared by the dev and mem cases
setup_dev() {
	[ -n "$DEVMNT" ] && return 0
	local img=$WORK/dev.img dio
	# sparse: room for the data file, the jetstress database and its logs
	truncate -s $(((DEV_BYTES + JS_BYTES + INIT_BYTES) / 1048576 + 1024))M "$img" || return 1
	LOOP=$(losetup --find --show --direct-io=on "$img") || { LOOP=""; return 1; }
	dio=$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)
	if [ "$dio" != 1 ]; then
		sum "*** $LOOP: the filesystem under $BASE refused direct I/O: the device case measures"
		sum "*** its page cache, not a device; set BENCH_DIR to a disk filesystem"
	fi
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" >"$RAW/mkfs.log" 2>&1 ||
		{ cat "$RAW/mkfs.log" >&2; return 1; }
	mkdir -p "$WORK/dev"
	mount -o noatime "$LOOP" "$WORK/dev" || return 1
	DEVMNT=$WORK/dev
	sum "device: $LOOP (direct-io=${dio:-?}), sparse $img on $(df --output=source "$BASE" | tail -1)," \
		"ext4 mounted noatime at $DEVMNT"
	sum ""
}

case_dev() {
	local lat_ok iops_ok
	if ! setup_dev || ! create_file "$DEVMNT" "$DEV_BYTES"; then
		verdict FAIL "device: cannot set up the loop device and its data file (see above)"
		return
	fi
	SAMPLE_DEV=${LOOP#/dev/}
	if ! compare dev "$DEVMNT" "$DEV_BYTES" 32k "$DEV_QD" "$DEV_THREADS" "$DEV_ROUNDS" "$DEV_SECS"; then
		SAMPLE_DEV=""
		verdict FAIL "device: the comparison did not complete (see above)"
		return
	fi
	SAMPLE_DEV=""
	# shellcheck disable=SC2086 # "lo hi coverage"
	set -- $CI_IOPS
	if fcmp "$2 - $1 > 0.10"; then
		sum "  note: the confidence interval of the IOPS ratio ($1..$2) is wider than the +-5 % band:"
		sum "  the machine's noise, not fslab, decides this verdict; rerun or raise BENCH_DEV_ROUNDS"
		sum ""
	fi
	fcmp "$MED_IOPS >= 0.95 && $MED_IOPS <= 1.05" && iops_ok=PASS || iops_ok=FAIL
	fcmp "$MED_LAT >= 0.95 && $MED_LAT <= 1.05" && lat_ok=PASS || lat_ok=FAIL
	# shellcheck disable=SC2086
	verdict $iops_ok "$(printf 'device (loop ext4 32k randread qd%s): IOPS ratio %.3f within 1.000 +- 5 %% (CI %.3f..%.3f)%s' \
		"$DEV_QD" "$MED_IOPS" ${CI_IOPS% *} \
		"$([ "$FIO_DEFAULT" = 1 ] && printf '; against fio defaults %.3f' "$MED_DEF")")"
	# shellcheck disable=SC2086
	verdict $lat_ok "$(printf 'device (loop ext4 32k randread qd%s): mean latency ratio %.3f within 1.000 +- 5 %% (CI %.3f..%.3f)' \
		"$DEV_QD" "$MED_LAT" ${CI_LAT% *})"
}

# ---- case mem: peak RSS at 64 threads ----

# mem_run TAG SECONDS ARGS...: one fslab run under time -v; sets RSS_RES (bytes, the result's
# host.fslab_rss_max, sampled during the run) and RSS_TIME (KiB, time -v's maximum resident
# set size: the whole process, result writing included)
mem_run() {
	local tag=$1 secs=$2 st=0 j=$RAW/$1.json
	shift 2
	run /usr/bin/time -v -o "$RAW/$tag.time" "$FSLAB" run "$@" \
		--duration "${secs}s" --no-drop-caches --quiet --output "$j" >"$RAW/$tag.log" 2>&1 ||
		st=$?
	# 3 = jetstress completed with a FAIL verdict: a slow loop device, not a memory question
	if [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; then
		msg "$tag: fslab failed (exit $st):"
		cat "$RAW/$tag.log" >&2
		return 1
	fi
	RSS_RES=$(jq -r '.host.fslab_rss_max' "$j")
	RSS_TIME=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$RAW/$tag.time")
}

# timeline_cost: peak RSS growth of writing a result whose timeline covers a run of
# LONG_HOURS (bench/timeline_rss.c, linked with the tree's library); sets TL_KIB_2H and
# TL_KIB_LONG, or returns 1 when it cannot be measured
timeline_cost() {
	local bin=$WORK/timeline_rss out
	[ -f "$LIBFSLAB" ] || { msg "no $LIBFSLAB: run make first"; return 1; }
	# shellcheck disable=SC2046 # pkg-config output is a word list
	cc -O2 -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -I"$ROOT/src" -I"$ROOT" \
		-o "$bin" "$ROOT/bench/timeline_rss.c" "$LIBFSLAB" \
		$(pkg-config --libs blkid mount ext2fs liburing jansson inih libisal) -lm -pthread \
		2>"$RAW/timeline_rss.log" || { cat "$RAW/timeline_rss.log" >&2; return 1; }
	out=$("$bin" 7200 "$WORK/tl.json") || return 1
	TL_KIB_2H=${out##* }
	out=$("$bin" $((LONG_HOURS * 3600)) "$WORK/tl.json") || return 1
	TL_KIB_LONG=${out##* }
	rm -f "$WORK/tl.json"
}

case_mem() {
	local w secs peak=0 last ok=1 grow=0 tag proj
	local -A firstrss=()
	if ! setup_dev; then
		verdict FAIL "memory: cannot set up the loop device"
		return
	fi
	[ -f "$DEVMNT/fslab-simple.edb" ] || create_file "$DEVMNT" "$DEV_BYTES" ||
		{ verdict FAIL "memory: cannot create the data file"; return; }
	mkdir -p "$DEVMNT/js-db" "$DEVMNT/js-log"
	sum "case mem: peak RSS at 64 threads (result host.fslab_rss_max / time -v maximum RSS)"
	for w in randread jetstress; do
		for secs in $MEM_SECS; do
			tag=mem-$w-${secs}s
			if [ $w = randread ]; then
				mem_run "$tag" "$secs" --workload randread --db "$DEVMNT" \
					--db-size "$DEV_BYTES" --bs 32k --iodepth 4 --threads 64 ||
					{ ok=0; continue; }
			else
				# the first run creates the database (same process: its memory counts)
				mem_run "$tag" "$secs" --workload jetstress --db "$DEVMNT/js-db" \
					--log "$DEVMNT/js-log" --db-size "$JS_BYTES" --threads 64 \
					--no-checksum-pass || { ok=0; continue; }
			fi
			sum "$(printf '  %-10s 64 threads %4s s: %7.1f MiB (result) %7.1f MiB (time -v)' \
				$w "$secs" "$(fdiv "$RSS_RES" 1048576)" "$(fdiv "$RSS_TIME" 1024)")"
			last=$((RSS_RES > RSS_TIME * 1024 ? RSS_RES : RSS_TIME * 1024))
			((last > peak)) && peak=$last
			if [ -z "${firstrss[$w]:-}" ]; then
				firstrss[$w]=$last
			elif ((last > firstrss[$w] + 4 * 1048576)); then
				grow=1 # over 4 MiB more for a longer run: something grows with time
			fi
		done
	done
	if ((ok == 0)); then
		verdict FAIL "memory: a run failed (see above)"
	elif ((peak < MEM_LIMIT && grow == 0)); then
		verdict PASS "$(printf 'memory: peak RSS %.1f MiB < 64 MiB at 64 threads, no growth from %s s runs' \
			"$(fdiv $peak 1048576)" "${MEM_SECS// / to }")"
	else
		verdict FAIL "$(printf 'memory: peak RSS %.1f MiB at 64 threads (limit 64 MiB)%s' \
			"$(fdiv $peak 1048576)" "$( ((grow)) && echo ', grows with the duration')")"
	fi
	# A few seconds cannot show what grows by the second: the timeline (one row per
	# measured second) and writing the result at the end.  Measure that part directly.
	if timeline_cost; then
		proj=$((peak + TL_KIB_LONG * 1024))
		sum "$(printf '  timeline and result writing, as fslab run does them (bench/timeline_rss): +%.2f MiB for a 2 h run, +%.2f MiB for %s h' \
			"$(fdiv "$TL_KIB_2H" 1024)" "$(fdiv "$TL_KIB_LONG" 1024)" "$LONG_HOURS")"
		sum "$(printf '  projected peak RSS of a %s h run at 64 threads: %.1f MiB' "$LONG_HOURS" \
			"$(fdiv $proj 1048576)")"
		if ((proj < MEM_LIMIT)); then
			verdict PASS "$(printf 'memory, %s h run (projected): peak RSS %.1f MiB < 64 MiB' \
				"$LONG_HOURS" "$(fdiv $proj 1048576)")"
		else
			verdict FAIL "$(printf 'memory, %s h run (projected): peak RSS %.1f MiB >= 64 MiB: the timeline is kept and serialised whole' \
				"$LONG_HOURS" "$(fdiv $proj 1048576)")"
		fi
	else
		sum "  timeline and result writing: not measured (see above)"
		verdict FAIL "memory, $LONG_HOURS h run: not measured (bench/timeline_rss could not be built)"
	fi
	sum ""
}

# ---- case init: database initialisation and checksum pass against sequential fio ----

# init_fslab TAG DIR: one jetstress run that creates its database (1 thread, 1 s load, the
# checksum pass at the end); sets INIT_MBPS and CK_MBPS from the result
init_fslab() {
	local tag=$1 dir=$2 j=$RAW/$1.json st=0
	rm -rf "$dir" && mkdir -p "$dir/db" "$dir/log"
	run "$FSLAB" run --workload jetstress --db "$dir/db" --log "$dir/log" --db-size "$INIT_BYTES" \
		--threads 1 --duration 1s --warmup 0 --no-drop-caches --quiet --label "bench-$tag" \
		--output "$j" >"$RAW/$tag.log" 2>&1 || st=$?
	# 3: a FAIL verdict of a 1 s load on a loop device: not what is measured here
	if [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; then
		msg "$tag: fslab failed (exit $st):"; cat "$RAW/$tag.log" >&2; return 1
	fi
	jq -e '.init.created == 1 and .checksum.ran == true and .checksum.bad_pages == 0 and
	       .environment.volumes[0].o_direct == true' "$j" >/dev/null ||
		{ msg "$tag: unusable fslab result $j (database not created, no checksum pass or no O_DIRECT)"
		  return 1; }
	read -r INIT_MBPS CK_MBPS < <(jq -r '"\(.init.mbps) \(.checksum.mbps)"' "$j")
	rm -rf "$dir"
}

# init_fio TAG DIR: fio writes a file of the same size sequentially (1 MiB, iodepth 8, direct,
# fsync at the end, as fslab's creation), then reads it back the same way; sets FIO_W, FIO_R
# (MB/s)
init_fio() {
	local tag=$1 dir=$2 j=$RAW/$1
	local -a common=(--filename="$dir/f" --size="$INIT_BYTES" --bs=1M --iodepth=8
		--ioengine=io_uring --direct=1 --output-format=json)
	rm -rf "$dir" && mkdir -p "$dir"
	run fio --name="bench-$tag-w" "${common[@]}" --rw=write --end_fsync=1 --output="$j-w.json" \
		>"$RAW/$tag.log" 2>&1 || { msg "$tag: fio write failed"; cat "$RAW/$tag.log" >&2; return 1; }
	run fio --name="bench-$tag-r" "${common[@]}" --rw=read --invalidate=1 --output="$j-r.json" \
		>>"$RAW/$tag.log" 2>&1 || { msg "$tag: fio read failed"; cat "$RAW/$tag.log" >&2; return 1; }
	FIO_W=$(jq -r '.jobs[0].write.bw_bytes / 1e6' "$j-w.json")
	FIO_R=$(jq -r '.jobs[0].read.bw_bytes / 1e6' "$j-r.json")
	rm -rf "$dir"
}

case_init() {
	local r wr=() rr=() line mw mr v
	if ! setup_dev; then
		verdict FAIL "initialisation: cannot set up the loop device"
		return
	fi
	sum "case init: $INIT_SIZE database, fslab creation (1 MiB writes, 8 in flight) and checksum"
	sum "  pass vs fio --rw=write/--rw=read --bs=1M --iodepth=8 --direct=1, $INIT_ROUNDS rounds, alternating"
	sum "$(printf '  %-6s %10s %10s %7s | %10s %10s %7s' round 'init MB/s' 'fio write' 'x' \
		'check MB/s' 'fio read' 'x')"
	for ((r = 1; r <= INIT_ROUNDS; r++)); do
		if ((r % 2)); then
			init_fslab "init-r$r-fslab" "$DEVMNT/init" && init_fio "init-r$r-fio" "$DEVMNT/init" ||
				{ verdict FAIL "initialisation: a run failed (see above)"; return; }
		else
			init_fio "init-r$r-fio" "$DEVMNT/init" && init_fslab "init-r$r-fslab" "$DEVMNT/init" ||
				{ verdict FAIL "initialisation: a run failed (see above)"; return; }
		fi
		wr+=("$(fdiv "$INIT_MBPS" "$FIO_W")") rr+=("$(fdiv "$CK_MBPS" "$FIO_R")")
		sum "$(printf '  %-6s %10.0f %10.0f %7.3f | %10.0f %10.0f %7.3f' "$r/$INIT_ROUNDS" \
			"$INIT_MBPS" "$FIO_W" "${wr[-1]}" "$CK_MBPS" "$FIO_R" "${rr[-1]}")"
	done
	mw=$(printf '%s\n' "${wr[@]}" | median)
	mr=$(printf '%s\n' "${rr[@]}" | median)
	sum "$(printf '  median ratios: initialisation %.3f (CI %s), checksum pass %.3f (CI %s)' "$mw" \
		"$(printf '%s\n' "${wr[@]}" | median_ci | awk '{ print $1 ".." $2 }')" "$mr" \
		"$(printf '%s\n' "${rr[@]}" | median_ci | awk '{ print $1 ".." $2 }')")"
	sum ""
	fcmp "$mw >= 0.90" && v=PASS || v=FAIL
	verdict $v "$(printf 'initialisation (loop ext4, %s): %.3f of fio'"'"'s sequential write rate >= 0.90' "$INIT_SIZE" "$mw")"
	fcmp "$mr >= 0.90" && v=PASS || v=FAIL
	verdict $v "$(printf 'checksum pass (loop ext4, %s): %.3f of fio'"'"'s sequential read rate >= 0.90' "$INIT_SIZE" "$mr")"
}

# the multi-host cases: case_cluster, case_ssh, case_lab_hosts
# shellcheck source=bench/bench-hosts.sh
. "$ROOT/bench/bench-hosts.sh"

for c in $CASES; do
	case "$c" in
	cpu) case_cpu ;;
	cpu_unpinned) case_cpu_unpinned ;;
	dev) case_dev ;;
	init) case_init ;;
	mem) case_mem ;;
	cluster) case_cluster ;;
	ssh) case_ssh ;;
	lab_hosts) case_lab_hosts ;;
	*) verdict FAIL "unknown case '$c' in BENCH_CASES (cpu, cpu_unpinned, dev, init, mem, cluster, ssh, lab_hosts)" ;;
	esac
done

for l in "${RESULTS[@]}"; do
	sum "$l"
done
for l in "${INFO[@]}"; do
	sum "INFO  $l"
done
if ((FAILS)); then sum "bench: $FAILS check(s) FAILED"; else sum "bench: all checks passed"; fi
cp "$S" "$SUMMARY"
echo "load_average_end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$MACHINE"
msg "summary: $SUMMARY; the machine: $MACHINE; per-round figures: $TSV; raw results: $RAW/"
((FAILS == 0))
