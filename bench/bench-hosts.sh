#!/bin/bash
# SPDX-License-Identifier: MIT
# bench-hosts.sh: the multi-host cases of bench/bench.sh (sourced): cluster (merge and compare
# of a 64-host lab's results), ssh (a lab step over a new and a kept connection) and lab_hosts
# (fslab lab's overhead per cell on the test rig's hosts).  docs/BENCH.md, docs/HOSTS.md.

# timed_cmd NAME CMD...: CMD under /usr/bin/time; sets T_S (wall seconds) and T_KIB (peak RSS)
timed_cmd() {
	local name=$1
	shift
	run /usr/bin/time -f '%e %M' -o "$RAW/$name.time" "$@" >"$RAW/$name.out" 2>&1 || return 1
	read -r T_S T_KIB <"$RAW/$name.time"
}

case_cluster() {
	local hosts=${BENCH_CLUSTER_HOSTS:-64} cells=${BENCH_CLUSTER_CELLS:-30} dir=$WORK/cluster
	local gen=$WORK/gen_cluster c n=0 total=0 worst=0 rss=0 merges=() v cmp_s cmp_kib all_s all_kib
	[ -f "$LIBFSLAB" ] || { verdict FAIL "cluster: no $LIBFSLAB: run make first"; return; }
	mkdir -p "$dir/hosts" "$dir/cells"
	# shellcheck disable=SC2046 # pkg-config output is a word list
	cc -O2 -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -I"$ROOT/src" -I"$ROOT" \
		-o "$gen" "$ROOT/bench/gen_cluster.c" "$LIBFSLAB" \
		$(pkg-config --libs blkid mount ext2fs liburing jansson inih libisal libxml-2.0) -lm \
		-pthread 2>"$RAW/gen_cluster.log" ||
		{ cat "$RAW/gen_cluster.log" >&2; verdict FAIL "cluster: bench/gen_cluster.c does not build"; return; }
	"$gen" "$dir/hosts" "$hosts" "$cells" || { verdict FAIL "cluster: the results could not be made"; return; }
	sum "case cluster: $hosts hosts x $cells cells = $((hosts * cells)) host results ($(du -sh "$dir/hosts" | cut -f1)), 3 labels"
	for c in $(find "$dir/hosts" -name '*.json' -printf '%f\n' | sed 's/\.h[0-9]*\.json$//' | sort -u); do
		timed_cmd "merge-$c" "$FSLAB" merge --output "$dir/cells/$c.json" "$dir/hosts/$c".h*.json ||
			{ verdict FAIL "cluster: fslab merge of $c failed (see $RAW/merge-$c.out)"; return; }
		merges+=("$T_S")
		n=$((n + 1))
		total=$(awk -v a="$total" -v b="$T_S" 'BEGIN { print a + b }')
		fcmp "$T_S > $worst" && worst=$T_S
		((T_KIB > rss)) && rss=$T_KIB
	done
	sum "$(printf '  merge: %d cells of %d hosts in %.2f s (median %.3f s, slowest %.3f s a cell), peak RSS %.1f MiB' \
		"$n" "$hosts" "$total" "$(printf '%s\n' "${merges[@]}" | median)" "$worst" "$(fdiv "$rss" 1024)")"
	rm -rf "$dir/report"
	timed_cmd compare-cells "$FSLAB" compare "$dir"/cells/*.json --output "$dir/report" ||
		{ verdict FAIL "cluster: fslab compare of the cluster results failed (see $RAW/compare-cells.out)"; return; }
	cmp_s=$T_S cmp_kib=$T_KIB
	sum "$(printf '  compare of the %d cluster results (report.md/html, %d charts incl. hosts-iops and hosts-latency): %.2f s, peak RSS %.1f MiB' \
		"$n" "$(find "$dir/report/charts" -name '*.png' | wc -l)" "$cmp_s" "$(fdiv "$cmp_kib" 1024)")"
	timed_cmd compare-cells-tables "$FSLAB" compare "$dir"/cells/*.json --format md ||
		{ verdict FAIL "cluster: fslab compare --format md failed"; return; }
	sum "$(printf '  the same, tables only (--format md, with the Hosts table of %s rows): %.2f s, peak RSS %.1f MiB' \
		"$(grep -c '^| [a-z0-9]* | \*\{0,2\}h[0-9]' "$RAW/compare-cells-tables.out")" "$T_S" "$(fdiv "$T_KIB" 1024)")"
	timed_cmd compare-hosts "$FSLAB" compare "$dir"/hosts/*.json --no-charts --format text ||
		{ verdict FAIL "cluster: fslab compare of the host results failed"; return; }
	all_s=$T_S all_kib=$T_KIB
	sum "$(printf '  all %d host results in one compare (tables): %.2f s, peak RSS %.1f MiB' \
		"$((hosts * cells))" "$all_s" "$(fdiv "$all_kib" 1024)")"
	sum "  (wall times on a shared machine: load average $(cut -d' ' -f1-3 /proc/loadavg))"
	sum ""
	fcmp "$cmp_s < 5" && v=PASS || v=FAIL
	verdict $v "$(printf 'cluster: compare of %d cluster results of %d hosts in %.2f s < 5 s' "$n" "$hosts" "$cmp_s")"
	fcmp "$worst < 1" && v=PASS || v=FAIL
	verdict $v "$(printf 'cluster: a cell of %d hosts merged in at most %.3f s < 1 s' "$hosts" "$worst")"
	((rss < 524288 && cmp_kib < 524288 && all_kib < 524288)) && v=PASS || v=FAIL
	verdict $v "$(printf 'cluster: peak RSS merge %.1f, compare %.1f, all host results %.1f MiB < 512 MiB' \
		"$(fdiv "$rss" 1024)" "$(fdiv "$cmp_kib" 1024)" "$(fdiv "$all_kib" 1024)")"
	rm -rf "$dir"
}

case_ssh() {
	local out new reused v
	for t in ip ssh /usr/sbin/sshd; do
		command -v "$t" >/dev/null || { verdict FAIL "ssh: '$t' is missing; run 'scripts/deps.sh check' as root"; return; }
	done
	sum "case ssh: one lab step ('fslab hello' over ssh with the lab's options) on the test rig's host,"
	sum "  ${BENCH_SSH_STEPS:-10} steps with a new connection each, then ${BENCH_SSH_STEPS:-10} over the connection the lab keeps"
	run env FSLAB="$FSLAB" FSLAB_TOP="$ROOT" BENCH_SSH_STEPS="${BENCH_SSH_STEPS:-10}" \
		bash "$ROOT/bench/hosts_ssh.sh" >"$RAW/ssh.out" 2>&1 ||
		{ cat "$RAW/ssh.out" >&2; verdict FAIL "ssh: bench/hosts_ssh.sh failed (see $RAW/ssh.out)"; return; }
	out=$(grep '^new ' "$RAW/ssh.out" | tail -1)
	new=$(awk '{ print $2 }' <<<"$out") reused=$(awk '{ print $4 }' <<<"$out")
	sum "$(printf '  median per step: %.0f ms with a new connection, %.0f ms over the kept one (%s logins for %s steps)' \
		"$new" "$reused" "$(awk '{ print $6 }' <<<"$out")" "$((2 * ${BENCH_SSH_STEPS:-10}))")"
	sum "  (the rig keeps Debian's bash from reading this machine's root ~/.bashrc, which it does for"
	sum "   commands sent over ssh: on a real host its rc files add to every step;"
	sum "   shared machine: load average $(cut -d' ' -f1-3 /proc/loadavg))"
	sum ""
	fcmp "$reused < $new" && v=PASS || v=FAIL
	verdict $v "$(printf 'ssh: a step over the kept connection %.0f ms < %.0f ms with a new one' "$reused" "$new")"
}

case_lab_hosts() {
	local out loc ssh three d v
	for t in ip ssh /usr/sbin/sshd mkfs.ext4; do
		command -v "$t" >/dev/null || { verdict FAIL "lab_hosts: '$t' is missing; run 'scripts/deps.sh check' as root"; return; }
	done
	sum "case lab_hosts: fslab lab, ${BENCH_LAB_CELLS:-4} rounds of a 2 s cell (+1 s warm-up, 64 MiB databases),"
	sum "  on one host with ssh = local, on one host over ssh, on three over ssh (the rig's namespaces)"
	run env FSLAB="$FSLAB" FSLAB_TOP="$ROOT" BENCH_LAB_CELLS="${BENCH_LAB_CELLS:-4}" \
		bash "$ROOT/bench/hosts_lab.sh" >"$RAW/lab_hosts.out" 2>&1 ||
		{ cat "$RAW/lab_hosts.out" >&2; verdict FAIL "lab_hosts: bench/hosts_lab.sh failed (see $RAW/lab_hosts.out)"; return; }
	out=$(grep '^local ' "$RAW/lab_hosts.out" | tail -1)
	loc=$(awk '{ print $2 }' <<<"$out") ssh=$(awk '{ print $4 }' <<<"$out") three=$(awk '{ print $6 }' <<<"$out")
	d=$(awk -v a="$ssh" -v b="$loc" 'BEGIN { printf "%.2f", a - b }')
	sum "$(printf '  median overhead per cell (wall clock minus the load): %.2f s local, %.2f s over ssh, %.2f s on three hosts' \
		"$loc" "$ssh" "$three")"
	sum "$(printf '  ssh per host and cell: %.2f s; two more hosts at once: %+.2f s (shared machine: load average %s)' \
		"$d" "$(awk -v a="$three" -v b="$ssh" 'BEGIN { print a - b }')" "$(cut -d' ' -f1-3 /proc/loadavg)")"
	sum ""
	fcmp "$d < 2" && v=PASS || v=FAIL
	verdict $v "lab_hosts: ssh adds $d s a cell to a host (< 2 s)"
}
