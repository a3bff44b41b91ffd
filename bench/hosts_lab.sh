#!/bin/bash
# SPDX-License-Identifier: MIT
# hosts_lab.sh: make bench's lab_hosts case: what fslab lab's host machinery costs per cell, on
# the test rig's hosts (tests/integration/hosts-lib.sh: network namespaces with their own sshd
# on this machine, so the figures are ssh's, sshd's and the lab's work, not a network's).  The
# same lab (one filesystem, BENCH_LAB_CELLS rounds of a 2-second cell on 64 MiB databases) three
# times: on one host with ssh = local (the lab's cluster path without ssh), on one host over
# ssh, on three hosts over ssh.  A cell's overhead is its wall clock (prep to the end of its
# teardown, lab-state.json) minus its load (warm-up + duration); the first cell, whose start
# is an estimate, is left out.  Prints "local S ssh S three S" (median overhead per cell, s).
FSLAB=${FSLAB:?set FSLAB}
FSLAB_TOP=${FSLAB_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$FSLAB_TOP/tests/integration/lib.sh"
. "$FSLAB_TOP/tests/integration/hosts-lib.sh"
CELLS=${BENCH_LAB_CELLS:-4}

hosts_setup 3 >/dev/null
# lab NAME HOST...: the lab on those hosts (ssh = local for "local"); its median overhead
lab() {
	local name=$1 h ini=$T/$1.ini
	shift
	cat >"$ini" <<EOF
[lab]
ssh_config = $HOSTS_SSH_CONFIG
repeats = $CELLS
[workload]
duration = 2s
warmup = 1s
db_size = 64M
threads = 2
[fs ext4]
EOF
	for h in "$@"; do
		cat >>"$ini" <<EOF
[host $h]
ssh = $([ "$name" = local ] && echo local || echo "$h")
fslab = $FSLAB
workdir = $T/$name/$h
image_dir = $T/$name/$h/img
db_size = 320M
log_size = 192M
EOF
	done
	hosts_ctl "$FSLAB" lab "$ini" --output "$T/$name" >"$T/$name.out" 2>&1 ||
		{ cat "$T/$name.out" >&2; fail "the $name lab failed"; }
	jq -r '.cells | sort_by(.position) | .[1:][] | .wall_s - 3' "$T/$name/lab-state.json" |
		sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "local $(lab local h1) ssh $(lab ssh h1) three $(lab three h1 h2 h3)"
