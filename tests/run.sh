#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh: run the unit test binaries given as arguments (cmocka), then the integration tests
# (tests/integration/t_*.sh, root, loop devices).  Prints one closing line "N passed, N failed".
# FSLAB_TESTS=globs limits integration tests (e.g. FSLAB_TESTS='t_prep* t_lab').
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
pass=0 fail=0 skip=0 failed_names=""
logdir=${FSLAB_TEST_LOGS:-$top/build/test-logs}
mkdir -p "$logdir"

if [ -z "${FSLAB_INTEGRATION_ONLY:-}" ]; then
	for bin in "$@"; do
		name=$(basename "$bin")
		out=$("$bin" 2>&1)
		rc=$?
		np=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
		nf=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
		np=${np:-0} nf=${nf:-0}
		if [ $rc -ne 0 ] && [ "$nf" -eq 0 ]; then nf=1; fi
		pass=$((pass + np)) fail=$((fail + nf))
		if [ "$nf" -ne 0 ]; then
			printf '%s\n' "$out"
			failed_names="$failed_names $name"
			echo "FAIL unit $name ($np passed, $nf failed)"
		else
			echo "ok   unit $name ($np tests)"
		fi
	done
fi

if [ -z "${FSLAB_UNIT_ONLY:-}" ]; then
	export FSLAB="$top/fslab" FSLAB_TOP="$top"
	# Two lanes of CPU-bound tests that assert no timing (fuzzing, the package build, Wine,
	# the QEMU guest, generated files, importers of recorded files) run side by side, each
	# lane in its order, before the rest: on 2 CPUs they take half the time.  Every other
	# test measures I/O and runs alone.
	# FSLAB_TEST_LANES=0: every test alone, in name order.
	lane1=" t_fuzz t_package t_floors t_man t_completion t_names_once t_import t_compare_cli t_lab_hosts_windows "
	lane2=" t_windows t_windows_selftest t_windows_lab t_vm_boot t_vm_prep t_vm_ntfs3 t_vm_faults "
	[ "${FSLAB_TEST_LANES:-1}" != 0 ] || lane1=" " lane2=" "
	globs=()
	read -ra words <<< "${FSLAB_TESTS:-t_*}"
	for g in "${words[@]}"; do globs+=("tests/integration/$g.sh"); done
	in1=() in2=() alone=()
	# shellcheck disable=SC2068 # the globs expand here
	for t in ${globs[@]}; do
		[ -e "$t" ] || continue
		name=$(basename "$t" .sh)
		if [ "$(id -u)" -ne 0 ]; then
			echo "skip $name (needs root for loop devices and mounts)"
			skip=$((skip + 1))
			continue
		fi
		case "$lane1" in *" $name "*) in1+=("$name"); continue ;; esac
		case "$lane2" in *" $name "*) in2+=("$name"); continue ;; esac
		alone+=("$name")
	done
	# run_test NAME: one test, its line (and a failure's last log lines) on stdout
	run_test() {
		local name=$1 start rc secs
		start=$(date +%s)
		timeout --kill-after=30 "${FSLAB_TEST_TIMEOUT:-900}" bash "tests/integration/$name.sh" \
			>"$logdir/$name.log" 2>&1
		rc=$?
		secs=$(( $(date +%s) - start ))
		case $rc in
		0) echo "ok   $name (${secs}s)" ;;
		77) echo "skip $name: $(tail -1 "$logdir/$name.log")" ;;
		*) echo "FAIL $name (exit $rc, ${secs}s); last lines of $logdir/$name.log:"
		   tail -25 "$logdir/$name.log" | sed 's/^/    /' ;;
		esac
	}
	# count: the counters from run_test's lines on stdin, which are passed on
	count() {
		local line
		while IFS= read -r line; do
			printf '%s\n' "$line"
			case $line in
			"ok   "*) pass=$((pass + 1)) ;;
			"skip "*) skip=$((skip + 1)) ;;
			"FAIL "*) fail=$((fail + 1)); line=${line#FAIL }
				  failed_names="$failed_names ${line%% *}" ;;
			esac
		done
	}
	if [ ${#in1[@]} -gt 0 ] || [ ${#in2[@]} -gt 0 ]; then
		echo "two at a time: ${in1[*]} | ${in2[*]}"
		( for n in "${in1[@]}"; do run_test "$n"; done ) >"$logdir/lane1.out" &
		l1=$!
		( for n in "${in2[@]}"; do run_test "$n"; done ) >"$logdir/lane2.out" &
		wait $l1 $!
		count < <(cat "$logdir/lane1.out" "$logdir/lane2.out")
	fi
	for n in "${alone[@]}"; do
		count < <(run_test "$n")
	done
fi

[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
