#!/bin/bash
# SPDX-License-Identifier: MIT
# cpu_window.sh RESULT.json FSLAB_RUN_ARGS...: run `fslab run ARGS --output RESULT.json`, read
# the process's CPU time (user and system, all its threads, io-wq workers included) from
# /proc/PID/stat every 0.2 s, and print the CPU per I/O over the measured seconds only (the
# first and the last left out), with the I/Os of the same seconds from the result's timeline:
# per transactional I/O (database reads + writes) and per I/O (log writes and BDM reads too).
# Initialisation, warm-up and result writing do not count (docs/BENCH.md, jetstress's own CPU
# cost).  FSLAB: the binary [<repo>/fslab].  Give --duration of 4 s or more.
set -u
[ $# -ge 2 ] || { echo "usage: $0 RESULT.json FSLAB_RUN_ARGS..." >&2; exit 2; }
out=$1
shift
FSLAB=${FSLAB:-$(cd "$(dirname "$0")/.." && pwd)/fslab}
tck=$(getconf CLK_TCK)
samples=$(mktemp)
trap 'rm -f "$samples" "$samples.tl"' EXIT
"$FSLAB" run "$@" --quiet --output "$out" >/dev/null &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	read -r u s < <(awk '{ print $14, $15 }' "/proc/$pid/stat" 2>/dev/null) &&
		echo "$(date +%s.%N) $u $s" >>"$samples"
	sleep 0.2
done
wait "$pid"
st=$?
# 3: a jetstress FAIL verdict, still a complete result
[ "$st" -eq 0 ] || [ "$st" -eq 3 ] || { echo "cpu_window.sh: fslab failed ($st)" >&2; exit 1; }
m=$(date -d "$(jq -r .measure_started_at "$out")" +%s.%N)
d=$(jq -r .duration_s "$out")
jq -r '.timeline.columns as $c | .timeline.rows[] | [$c, .] | transpose |
	map({(.[0]): .[1]}) | add | [.t_s, .db_read_ops, .db_write_ops, .log_write_ops,
	.bdm_read_ops] | map(. // 0 | tostring) | join(" ")' "$out" >"$samples.tl"
awk -v m="$m" -v d="$d" -v tck="$tck" 'FNR == NR { t[NR] = $1; u[NR] = $2; k[NR] = $3; n = NR; next }
	$1 > 1 && $1 <= d - 1 { rd += $2; wr += $3; lg += $4; bd += $5 }
	END {
		for (i = 1; i <= n; i++) { if (t[i] >= m + 1 && !a) a = i; if (t[i] <= m + d - 1) b = i }
		if (!a || b <= a || d < 4) { print "cpu_window.sh: run too short" > "/dev/stderr"; exit 1 }
		w = d - 2; f = w / (t[b] - t[a]) # CPU scaled to the counted seconds
		cu = (u[b] - u[a]) / tck * f; cs = (k[b] - k[a]) / tck * f
		tio = rd + wr; io = tio + lg + bd
		printf "seconds 2-%d: db_read %.0f/s, db_write %.0f/s, log_write %.0f/s; %.2f CPUs " \
		       "(user %.2f, system %.2f)\n", d - 1, rd / w, wr / w, lg / w, (cu + cs) / w, cu / w, cs / w
		printf "CPU per transactional I/O %.2f us (user %.2f), per I/O %.2f us (user %.2f)\n",
		       (cu + cs) * 1e6 / tio, cu * 1e6 / tio, (cu + cs) * 1e6 / io, cu * 1e6 / io }' \
	"$samples" "$samples.tl"
