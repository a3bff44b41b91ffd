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
	globs=()
	read -ra words <<< "${FSLAB_TESTS:-t_*}"
	for g in "${words[@]}"; do globs+=("tests/integration/$g.sh"); done
	# shellcheck disable=SC2068 # the globs expand here
	for t in ${globs[@]}; do
		[ -e "$t" ] || continue
		name=$(basename "$t" .sh)
		if [ "$(id -u)" -ne 0 ]; then
			echo "skip $name (needs root for loop devices and mounts)"
			skip=$((skip + 1))
			continue
		fi
		start=$(date +%s)
		timeout --kill-after=30 "${FSLAB_TEST_TIMEOUT:-900}" bash "$t" >"$logdir/$name.log" 2>&1
		rc=$?
		secs=$(( $(date +%s) - start ))
		case $rc in
		0) pass=$((pass + 1)); echo "ok   $name (${secs}s)" ;;
		77) skip=$((skip + 1)); echo "skip $name: $(tail -1 "$logdir/$name.log")" ;;
		*) fail=$((fail + 1)); failed_names="$failed_names $name"
		   echo "FAIL $name (exit $rc, ${secs}s); last lines of $logdir/$name.log:"
		   tail -25 "$logdir/$name.log" | sed 's/^/    /' ;;
		esac
	done
fi

[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
