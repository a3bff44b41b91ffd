#!/bin/bash
# SPDX-License-Identifier: MIT
# floors.sh: the size and comment rules of the product code (docs/DESIGN.md "Layout and build"):
# no .c/.h file over 800 lines, no function over 80 lines, no comment that cites an issue
# number ("issue 12", "issue #12") instead of stating the rule.  Product code is src/,
# fsprep/ and workloads/.
#   scripts/floors.sh [TOP] [FILE...]   exit 0 clean, 1 with each breach listed (FILE...: check
#                                       these too, as the test does with planted files)
# A function is found by this code's style: its opening brace alone on a line at column 0, its
# body ending at the next line that starts with "}"; its length is from that brace to that one.
# src/lab/ is reported on its own lines; it fails the check as the rest does (LAB_ENFORCED=yes,
# FSLAB_FLOORS_LAB=no reports it without failing).
set -u
LAB_ENFORCED=${FSLAB_FLOORS_LAB:-yes}
MAX_FILE=800
MAX_FN=80

top=${1:-.}
shift || true
cd "$top" || exit 2
files=$( { git ls-files -- 'src/*.[ch]' 'fsprep/*.[ch]' 'workloads/*.[ch]' 2>/dev/null ||
	find src fsprep workloads -name '*.[ch]'; } | sort -u)
extra=("$@")

out=$(for f in $files "${extra[@]}"; do
	[ -f "$f" ] || continue
	awk -v f="$f" -v maxf="$MAX_FILE" -v maxfn="$MAX_FN" '
		/^\{[ \t]*$/ { start = FNR; name = sig }
		/^\}/ && start { n = FNR - start + 1
			if (n > maxfn) {
				sub(/\(.*/, "", name); k = split(name, w, /[ \t*]+/)
				printf "%s:%d: function %s is %d lines (at most %d)\n", f, start, w[k], n, maxfn
			}
			start = 0 }
		/^[A-Za-z_]/ { sig = $0 }
		/[Ii]ssues? #?[0-9]/ {
			printf "%s:%d: cites an issue number; state the rule instead: %s\n", f, FNR, $0 }
		END { if (FNR > maxf)
			printf "%s:%d: file is %d lines (at most %d)\n", f, FNR, FNR, maxf }
	' "$f"
done)

lab=$(printf '%s\n' "$out" | grep '^src/lab/' || true)
rest=$(printf '%s\n' "$out" | grep -v '^src/lab/' | grep . || true)
rc=0
if [ -n "$rest" ]; then
	printf '%s\n' "$rest"
	rc=1
fi
if [ -n "$lab" ]; then
	if [ "$LAB_ENFORCED" = yes ]; then
		printf '%s\n' "$lab"
		rc=1
	else
		printf 'src/lab (not enforced yet: FSLAB_FLOORS_LAB=yes enforces it): %d breaches\n' \
			"$(printf '%s\n' "$lab" | wc -l)"
		printf '%s\n' "$lab" | sed 's/^/  /'
	fi
fi
exit $rc
