#!/bin/bash
# SPDX-License-Identifier: MIT
# hosts_ssh.sh: make bench's ssh case: what one lab step costs on a host over OpenSSH, with a
# new connection per step and with the connection the lab keeps per host (ControlMaster), on
# the test rig's host (tests/integration/hosts-lib.sh: a network namespace and its own sshd on
# this machine, so the figures are ssh's and sshd's work, not a network's).  A step here is
# 'fslab hello' (a process started over ssh and its answer read), with the options
# src/lab/hosts.c gives every ssh.  Prints "new MS reused MS" (medians over BENCH_SSH_STEPS).
FSLAB=${FSLAB:?set FSLAB}
FSLAB_TOP=${FSLAB_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$FSLAB_TOP/tests/integration/lib.sh"
. "$FSLAB_TOP/tests/integration/hosts-lib.sh"
STEPS=${BENCH_SSH_STEPS:-20}

hosts_setup 1 >/dev/null
ctl=$(mktemp -d /tmp/fslab-ssh.XXXXXX)
# the options of every ssh of the lab (hosts.c ssh_base)
base=(ssh -F "$HOSTS_SSH_CONFIG" -o BatchMode=yes -o ServerAliveInterval=2
      -o ServerAliveCountMax=3 -o ConnectTimeout=10)
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

step() { hosts_ctl "${base[@]}" "$@" -T -- h1 "exec $FSLAB hello" >/dev/null || fail "a step failed"; }
new=() reused=()
for ((i = 0; i < STEPS; i++)); do
	t0=$(date +%s%N); step -o ControlMaster=no -o ControlPath=none; t1=$(date +%s%N)
	new+=("$(ms "$t0" "$t1")")
done
# the lab's connection: started once (hosts.c connect_start), steps through it
hosts_ctl "${base[@]}" -o "ControlPath=$ctl/%C" -o ControlMaster=yes -o ControlPersist=600 \
	-N -f -- h1 || fail "cannot start the connection"
for ((i = 0; i < STEPS; i++)); do
	t0=$(date +%s%N); step -o ControlMaster=no -o "ControlPath=$ctl/%C"; t1=$(date +%s%N)
	reused+=("$(ms "$t0" "$t1")")
done
hosts_ctl "${base[@]}" -o "ControlPath=$ctl/%C" -O exit -- h1 2>/dev/null
rmdir "$ctl" 2>/dev/null
echo "new $(printf '%s\n' "${new[@]}" | median) reused $(printf '%s\n' "${reused[@]}" | median) logins $(hosts_auths h1)"
