#!/bin/bash
# SPDX-License-Identifier: MIT
# io_counts.sh CMD...: run CMD (an fslab run or a fio job using io_uring) under perf stat and
# print what the kernel counted per I/O: CPU time, context switches, CPU migrations,
# io_uring_enter calls, I/Os handed to io-wq workers, sched_yield calls, futex calls.  "Per
# I/O" divides by the io_uring:io_uring_submit_req tracepoint (every SQE, warm-up included),
# so the figures hold whatever the run's length and the machine's load (docs/BENCH.md).
# Needs root (tracepoints) and perf (Debian: linux-perf).
set -u
[ $# -gt 0 ] || { echo "usage: $0 CMD [ARGS...]" >&2; exit 2; }
command -v perf >/dev/null || { echo "io_counts.sh: perf is missing (Debian: linux-perf)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
perf stat -x, -o "$out" -e task-clock,context-switches,cpu-migrations \
	-e syscalls:sys_enter_io_uring_enter,syscalls:sys_enter_sched_yield \
	-e syscalls:sys_enter_futex,io_uring:io_uring_queue_async_work \
	-e io_uring:io_uring_submit_req -- "$@" >/dev/null || exit 1
awk -F, '!/^#/ && NF > 2 { c[$3] = $1 } END {
	n = c["io_uring:io_uring_submit_req"]
	if (!n) { print "io_counts.sh: no io_uring I/O counted" > "/dev/stderr"; exit 1 }
	printf "I/Os %d; per I/O: CPU %.2f us, context switches %.3f, migrations %.4f, " \
	       "io_uring_enter %.3f, to io-wq %.3f, sched_yield %.3f, futex %.3f\n", n,
	       c["task-clock"] * 1000 / n, c["context-switches"] / n, c["cpu-migrations"] / n,
	       c["syscalls:sys_enter_io_uring_enter"] / n, c["io_uring:io_uring_queue_async_work"] / n,
	       c["syscalls:sys_enter_sched_yield"] / n, c["syscalls:sys_enter_futex"] / n }' "$out"
