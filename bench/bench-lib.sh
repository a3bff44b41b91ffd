#!/bin/bash
# SPDX-License-Identifier: MIT
# bench-lib.sh: helpers of bench/bench.sh (sourced): arithmetic and statistics in awk, and the
# names of the io_uring set-ups the two tools use.

# ---- arithmetic (awk: bash has no floating point) ----

# size_bytes 1G -> 1073741824 (K, M, G, T binary, as fslab's --db-size)
size_bytes() {
	awk -v s="$1" 'BEGIN {
		if (!match(s, /^[0-9]+[KMGTkmgt]?$/)) exit 1
		n = s + 0; u = toupper(substr(s, length(n "") + 1)); m = 1
		if (u == "K") m = 1024; else if (u == "M") m = 1048576
		else if (u == "G") m = 1073741824; else if (u == "T") m = 1099511627776
		if (n <= 0) exit 1
		printf "%.0f\n", n * m }'
}
# median of the numbers on stdin (one a line)
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# median_ci: distribution-free confidence interval of the median of the numbers on stdin:
# order statistics X(j) and X(n-j+1) with the largest j such that P(Bin(n, 1/2) < j) <= 2.5 %.
# Prints "lo hi coverage%" (with few rounds: the whole range and its smaller coverage).
median_ci() {
	sort -g | awk '{ v[NR] = $1 } END {
		n = NR; j = 0; pmf = 0.5 ^ n; cdf = pmf
		for (m = 0; m < n && cdf <= 0.025; ) {
			j = m + 1; m++; pmf = pmf * (n - m + 1) / m; cdf += pmf
		}
		if (j < 1) j = 1 # too few rounds: the whole range, with its lower coverage
		tail = 0; pmf = 0.5 ^ n
		for (m = 0; m < j; m++) { tail += pmf; pmf = pmf * (n - m) / (m + 1) }
		printf "%.3f %.3f %.1f\n", v[j], v[n - j + 1], (1 - 2 * tail) * 100 }'
}
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", b ? a / b : 0 }'; }
# fcmp EXPR: exit status of an awk boolean, e.g. fcmp "1.02 >= 1.0"
fcmp() { awk "BEGIN { exit !($1) }"; }

# ---- io_uring set-ups ----

# ring_name FLAGS: the names of io_uring set-up flags (a number, 0x... or decimal) as fslab's
# result writes them (src/io/uring.c uring_flags_name)
ring_name() {
	local v=$(($1)) s="" i
	local -a t=(SINGLE_ISSUER 0x1000 DEFER_TASKRUN 0x2000 COOP_TASKRUN 0x100 TASKRUN_FLAG 0x200
		CQSIZE 0x8 SQPOLL 0x2 IOPOLL 0x1 SQ_AFF 0x4 CLAMP 0x10 ATTACH_WQ 0x20 R_DISABLED 0x40
		SUBMIT_ALL 0x80 SQE128 0x400 CQE32 0x800)
	for ((i = 0; i < ${#t[@]}; i += 2)); do
		if ((v & t[i + 1])); then
			s+=${s:+|}${t[i]}
			v=$((v & ~t[i + 1]))
		fi
	done
	((v)) && s+=${s:+|}$(printf '0x%x' "$v")
	echo "${s:-none}"
}

# fio_ring DIR BYTES: the set-up flags fio asks for, from strace -X raw of a 1 s run of the
# cases' pattern on DIR's data file; sets FIO_RING ("unknown" without an answer)
fio_ring() {
	local f
	strace -f -qq -X raw -e trace=io_uring_setup -o "$RAW/fio-ring.strace" fio --name=ring \
		--filename="$1/fslab-simple.edb" --offset=32k --size=$(($2 - 32768)) --rw=randread \
		--bs=4k --iodepth=4 --ioengine=io_uring --direct=1 --norandommap --invalidate=0 \
		--time_based --runtime=1 --output-format=terse >/dev/null 2>&1
	f=$(grep -o 'io_uring_setup([0-9]*, {flags=0x[0-9a-f]*' "$RAW/fio-ring.strace" 2>/dev/null |
		head -1 | sed 's/.*flags=//')
	# shellcheck disable=SC2034 # read by bench.sh (record, rings)
	if [ -n "$f" ]; then FIO_RING=$(ring_name "$f"); else FIO_RING=unknown; fi
}

# fslab_ring JSON: the set-up of the rings that did fslab's load (those made for files that
# refuse RWF_NOWAIT when there are any, the others alike), "FLAGS wait" ("-" if none)
fslab_ring() {
	jq -r '[.environment.io_uring // [] | (map(select(.files == "no_nowait")) | .[0]) // .[0]
		| select(.) | "\(.setup_flags) \(.wait)"] | .[0] // "-"' "$1" 2>/dev/null || echo -
}
