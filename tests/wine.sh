#!/bin/bash
# SPDX-License-Identifier: MIT
# wine.sh: run cross-built cmocka suites (build/win/tests/*.exe) under Wine, headless, in a
# prefix of our own (build/win/wineprefix, created on first use).  Prints one line per suite
# and a closing line "N passed, N failed".  Usage: tests/wine.sh SUITE.exe...
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/wine-env.sh || exit 1
pass=0 fail=0 failed_names=""
for exe in "$@"; do
	name=$(basename "$exe" .exe)
	out=$(timeout --kill-after=10 300 "$WINE" "$exe" 2>&1)
	rc=$?
	np=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	nf=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	np=${np:-0} nf=${nf:-0}
	if [ $rc -ne 0 ] && [ "$nf" -eq 0 ]; then nf=1; fi
	pass=$((pass + np)) fail=$((fail + nf))
	if [ "$nf" -ne 0 ]; then
		printf '%s\n' "$out"
		failed_names="$failed_names $name"
		echo "FAIL wine $name ($np passed, $nf failed, exit $rc)"
	else
		echo "ok   wine $name ($np tests)"
	fi
done
# the Wine server writes the prefix when it exits: wait for it (nothing left running)
/usr/bin/wineserver -k 2>/dev/null || :; timeout 30 /usr/bin/wineserver -w 2>/dev/null || :
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "wine: $pass passed, $fail failed"
[ $fail -eq 0 ]
