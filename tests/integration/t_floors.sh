#!/bin/bash
# SPDX-License-Identifier: MIT
# t_floors: the product code keeps its size and comment rules (scripts/floors.sh): no file over
# 800 lines, no function over 80, no comment citing an issue number.  The checker must also
# fail on a planted file that breaks each rule, so that a checker grown blind is seen.
. "$(dirname "$0")/lib.sh"

cd "$FSLAB_TOP"
log "the product code keeps the rules"
scripts/floors.sh . > "$T/out" || { cat "$T/out"; fail "size or comment rules broken"; }
cat "$T/out"

log "a long file, a long function and an issue number are found"
{
	echo '/* planted.c: fixed by issue #12 */'
	printf 'static int long_one(void)\n{\n'
	for i in $(seq 1 85); do echo "	x += $i;"; done
	printf '\treturn x;\n}\n'
	for i in $(seq 1 720); do echo "/* filler $i */"; done
} > "$T/planted.c"
rc=0
scripts/floors.sh . "$T/planted.c" > "$T/out" || rc=$?
cat "$T/out"
[ $rc -eq 1 ] || fail "the checker passed a file that breaks every rule ($rc)"
for what in 'planted.c:1: cites an issue number' 'planted.c:3: function long_one is 88 lines' \
	'planted.c:810: file is 810 lines'; do
	grep -qF -- "$what" "$T/out" || fail "the checker missed: $what"
done
