#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_hosts: fslab lab on three hosts in network namespaces of this machine, each with its
# own sshd (hosts-lib.sh), driven over OpenSSH (issue 20):
#   - fslab --version over ssh; fslab hosts CONFIG check: every host ready, the same build,
#     clock offsets measured (one machine: near 0), one ssh connection per host reused
#     (sshd counts one login per host for hello and the clock samples), none left behind;
#     a host key missing from known_hosts and a different fslab build are refused, naming the
#     host, and known_hosts is not changed;
#   - refused before any cell, nothing created: an unreachable host and another build, both
#     named;
#   - a lab of 2 filesystems x 2 rounds through fslab lab: per-host results and cluster
#     results; checked independently with jq: each cluster result's operations, bytes and
#     every histogram bucket are the sums of its hosts', each host's sha256 is sha256sum's of
#     the file the host wrote, the loads started within the limit; h1's workdir holds spaces,
#     quotes, $(...), backquotes, ;, & and | and arrives as data; nothing is left mounted or
#     attached in any host's namespace, no ssh connection is left; the report's Hosts
#     section; fslab hosts argv, fetch and start-at by hand;
#   - raw_baseline = yes on the three hosts: each host's raw cell runs on the loop devices its
#     own prep attached (its prep.json fetched), merged like any cell, compared in the report;
#   - faults, with 100 ms of latency each way on h1's link: kill -9 of h3's fslab run and
#     h2's link down, each mid-load: noticed within 10 s, the cell's cluster result partial
#     (the others' results kept), the survivors torn down at once, the lab stops on the lost
#     host; after the link is back, fslab lab --resume tears h2 down and finishes the cells
#     (started within the limit despite the latency), and nothing is left anywhere;
#   - h2's link down while its result is fetched (its fslab takes it down): h2 lost, never
#     blamed on the build; the others torn down, h2's teardown command printed and working;
#   - Ctrl-C of a lab mid-load, its output directory's name holding a newline and quotes (it
#     reaches every host in prep's and teardown's --owner): every host's load stops, nothing
#     is mounted anywhere, no fslab is left running on a host; the same with two Ctrl-C (the
#     hosts' ssh killed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hosts-lib.sh"
command -v jq >/dev/null || fail "jq missing (make check installs it)"
tlog() { log "$(date +%T) $*"; }

hosts_setup 3
tlog "rig: 3 hosts, sshd each, tag $HOSTS_TAG"
LIMIT=0.5
# a path that must arrive as data (a shell would run the commands in the login's directory)
pwned=fslab-pwned-$HOSTS_TAG
evil="w \$(touch $pwned) \`touch $pwned\`; it's \"x\" & y | z"

# lab_ini FILE REPEATS DURATION FS...: a lab of the three hosts
lab_ini() {
	local f=$1 repeats=$2 dur=$3 h fs
	shift 3
	cat >"$f" <<EOF
[lab]
ssh_config = $HOSTS_SSH_CONFIG
clock_limit = $LIMIT
repeats = $repeats
order_seed = 20
[workload]
duration = $dur
warmup = 1s
db_size = 64M
threads = 2
EOF
	for fs in "$@"; do echo "[fs $fs]" >>"$f"; done
	for h in h1 h2 h3; do
		cat >>"$f" <<EOF
[host $h]
ssh = $h
fslab = $FSLAB
workdir = $T/$h/$([ $h = h1 ] && echo "$evil" || echo work)
image_dir = $T/$h/img
db_size = 320M
log_size = 320M
EOF
	done
}
lab_ini "$T/lab.ini" 2 3s ext4 xfs

tlog "fslab --version on every host over ssh"
for h in h1 h2 h3; do
	v=$(hosts_ctl ssh -F "$HOSTS_SSH_CONFIG" -o BatchMode=yes "$h" "$FSLAB" --version) ||
		fail "$h: ssh fslab --version failed"
	[ "$v" = "$("$FSLAB" --version)" ] || fail "$h: '$v' is not this fslab"
done

tlog "fslab hosts check: ready, same build, clocks, one connection per host"
before=$(hosts_auths h1)
hosts_ctl "$FSLAB" hosts "$T/lab.ini" check --json "$T/check.json" >"$T/check.out" 2>&1 ||
	{ cat "$T/check.out"; fail "fslab hosts check failed"; }
cat "$T/check.out"
jqt "$T/check.json" '[.hosts[] | .ready] == [true, true, true]'
jqt "$T/check.json" "[.hosts[] | .version == \"$("$FSLAB" --version | head -1 | cut -d' ' -f2)\"] | all"
# one machine, one clock: the offsets are the measurement's error
jqt "$T/check.json" '[.hosts[] | (.clock_offset_s | fabs) < 0.005 and .clock_rtt_s > 0 and .clock_samples == 8] | all'
# hello and the clock's samples over one login (ControlMaster), and no connection left
[ $(( $(hosts_auths h1) - before )) -eq 1 ] ||
	fail "h1: $(( $(hosts_auths h1) - before )) ssh logins for one check; expected 1 (connection reuse)"
[ -z "$(hosts_fslab_conns)" ] || fail "fslab left ssh connections: $(hosts_fslab_conns | xargs ps -o args= -p)"

tlog "refused: a host key fslab has no right to accept, another fslab build"
cp "$HT/known_hosts" "$T/known_hosts.orig"
grep -v "^$(hosts_ip h3) " "$HT/known_hosts" >"$T/known_hosts.short"
sed "s|UserKnownHostsFile .*|UserKnownHostsFile $T/known_hosts.short|" "$HOSTS_SSH_CONFIG" >"$T/ssh_config.short"
sed "s|^ssh_config = .*|ssh_config = $T/ssh_config.short|" "$T/lab.ini" >"$T/lab-nokey.ini"
rc=0; hosts_ctl "$FSLAB" hosts "$T/lab-nokey.ini" check >"$T/nokey.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || { cat "$T/nokey.out"; fail "a host without a known host key: exit $rc, expected 2"; }
grep -q "host h3: cannot connect to h3 over ssh.*known_hosts" "$T/nokey.out" || { cat "$T/nokey.out"; fail "h3's refusal does not name the host key"; }
grep -q "^h1 .*ready" "$T/nokey.out" || fail "h1 should still be ready"
cmp -s "$T/known_hosts.short" <(grep -v "^$(hosts_ip h3) " "$T/known_hosts.orig") ||
	fail "known_hosts was changed: fslab must never add a host key"
cat >"$T/old-fslab" <<EOF
#!/bin/sh
# another build: answers hello as fslab 0.0.9
[ "\$1" = hello ] && { printf '{"schema":"fslab-hello/1","version":"0.0.9","git":"0000","os":"linux","hostname":"x","wall_ns":"0","argv":[]}\n'; exit 0; }
exec "$FSLAB" "\$@"
EOF
chmod +x "$T/old-fslab"
awk -v f="$T/old-fslab" '/^\[host h2\]/{h=1} /^\[host h3\]/{h=0} h && /^fslab =/{$0="fslab = " f} {print}' "$T/lab.ini" >"$T/lab-old.ini"
rc=0; hosts_ctl "$FSLAB" hosts "$T/lab-old.ini" check >"$T/old.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || { cat "$T/old.out"; fail "another fslab build: exit $rc, expected 2"; }
grep -q "host h2: arguments do not arrive unchanged\|host h2: fslab there is 0.0.9" "$T/old.out" ||
	{ cat "$T/old.out"; fail "the other build is not named"; }

tlog "fslab lab refuses, before any cell, an unreachable host and another build (both named)"
# h9: h1's address on a port where nothing listens
printf 'Host h9\n\tHostName %s\n\tPort 2999\n' "$(hosts_ip h1)" >"$T/ssh_config.h9"
cat "$T/ssh_config.h9" "$HOSTS_SSH_CONFIG" >"$T/ssh_config.9"
sed "s|^ssh_config = .*|ssh_config = $T/ssh_config.9|" "$T/lab-old.ini" >"$T/lab-down.ini"
printf '[host h9]\nssh = h9\nfslab = %s\nworkdir = %s/h9\nimage_dir = %s/h9/img\n' \
	"$FSLAB" "$T" "$T" >>"$T/lab-down.ini"
rc=0; hosts_ctl "$FSLAB" lab "$T/lab-down.ini" --output "$T/labdown" >"$T/down.out" 2>&1 || rc=$?
cat "$T/down.out"
[ $rc -eq 2 ] || fail "a lab with an unreachable host: exit $rc, expected 2"
grep -q "host h9: cannot connect to h9" "$T/down.out" || fail "the unreachable host is not named"
grep -q "host h2: .*0.0.9\|host h2: arguments do not arrive" "$T/down.out" || fail "the other build is not named"
[ ! -e "$T/labdown" ] && [ ! -e "$T/h9" ] || fail "a refused lab created something"
[ -z "$(hosts_fslab_conns)" ] || fail "a refused lab left ssh connections"

# host_files HOST: every mount under $T in HOST's namespace, and loop devices on its images
host_leftovers() {
	hosts_mounts "$1"
	losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v d="$T/$1/img/" 'index($2, d) == 1'
	return 0
}
all_clean() {
	local h out=""
	for h in h1 h2 h3; do out="$out$(host_leftovers $h)"; done
	[ -z "$out" ] || { echo "$out"; return 1; }
}
# the cluster's counts and histogram buckets against the sums of the hosts', in jq alone
check_cluster() {
	local c=$1; shift
	jq -e -n --slurpfile c "$c" --slurpfile a "$1" --slurpfile b "$2" --slurpfile d "$3" '
		[$a[0], $b[0], $d[0]] as $h | $c[0] as $c |
		def buckets: map({key: (.[0] | tostring), value: .[1]}) | from_entries;
		["db_read", "db_write", "log_write", "bdm_read"] | all(. as $k |
			$c.classes[$k].ops == ([$h[].classes[$k].ops] | add) and
			$c.classes[$k].bytes == ([$h[].classes[$k].bytes] | add) and
			$c.classes[$k].hist.n == ([$h[].classes[$k].hist.n] | add) and
			($c.classes[$k].hist.buckets | buckets) ==
			([$h[].classes[$k].hist.buckets[]] | group_by(.[0]) |
			 map({key: (.[0][0] | tostring), value: (map(.[1]) | add)}) | from_entries))
		and $c.transactions == ([$h[].transactions] | add)
		and ([$c.hosts[].sha256] | length) == 3' >/dev/null ||
		fail "$c: the cluster's counts or buckets are not the sums of the hosts'"
}
# check_cell OUT CELL: a full cluster result, checked against its hosts' files
check_cell() {
	local out=$1 cell=$2 h wd spread
	local c="$out/results/$cell.json"
	[ -f "$c" ] || fail "$cell: no cluster result"
	jqt "$c" ".cluster.hosts == 3 and .cluster.complete == 3 and .cluster.partial == false and (.aborted | not)"
	for h in h1 h2 h3; do
		[ -f "$out/results/$cell.$h.json" ] || fail "$cell: no result of $h"
		wd=$T/$h/work; [ $h = h1 ] && wd="$T/$h/$evil"
		# the sha256 fslab checked is coreutils' of the host's own file, the bytes the same
		[ "$(jqv "$c" ".hosts[] | select(.name == \"$h\") | .sha256")" = \
		  "$(sha256sum <"$wd/$cell.json" | cut -d' ' -f1)" ] ||
			fail "$cell: $h: the sha256 differs from sha256sum's of the host's file"
		cmp -s "$wd/$cell.json" "$out/results/$cell.$h.json" || fail "$cell: $h: fetched file differs"
	done
	check_cluster "$c" "$out/results/$cell".h{1,2,3}.json
	jqt "$c" '[.hosts[] | .start_delay_s] | all(. >= 0 and . < 0.5)'
	spread=$(jqv "$c" .cluster.start_spread_s)
	tlog "$cell: loads started within $(awk -v s="$spread" 'BEGIN { printf "%.2f", s * 1000 }') ms"
	jqt "$c" ".cluster.start_spread_s < $LIMIT"
}

# wait_log PATTERN SECONDS: until the running lab's log ($LABLOG, lab $labpid) has a line
# matching PATTERN (printed)
wait_log() {
	local i
	for i in $(seq 1 $(($2 * 10))); do
		grep -m1 -- "$1" "$LABLOG" 2>/dev/null && return 0
		kill -0 $labpid 2>/dev/null || { cat "$LABOUT"; fail "the lab ended before '$1'"; }
		sleep 0.1
	done
	cat "$LABOUT"; fail "no '$1' in $LABLOG within $2 s"
}
# mid_load N: sleep until cell N's load has run three seconds on every host
mid_load() {
	local line in
	line=$(wait_log "cell $1/.*starting together" 120)
	in=$(echo "$line" | sed -n 's/.*; in \([0-9.]*\) s).*/\1/p')
	sleep "$(awk -v s="$in" 'BEGIN { print s + 3 }')"
}
# noticed PATTERN T0: seconds from T0 until the lab logs PATTERN (polled every 0.1 s)
noticed() {
	wait_log "$1" 30 >/dev/null
	awk -v a="$2" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}
tlog "lab A: 2 filesystems x 2 rounds on 3 hosts"
hosts_ctl "$FSLAB" lab "$T/lab.ini" --output "$T/labA" >"$T/labA.out" 2>&1 ||
	{ cat "$T/labA.out"; fail "fslab lab with 3 hosts failed"; }
cat "$T/labA.out"
cells=$(jq -r '.cells[] | .id' "$T/labA/lab-state.json")
[ "$(echo "$cells" | wc -l)" -eq 4 ] || fail "lab A: $(echo "$cells" | wc -l) cells, expected 4"
jqt "$T/labA/lab-state.json" '[.cells[] | .status == "done"] | all'
for c in $cells; do check_cell "$T/labA" "$c"; done
[ ! -e "$HOME/$pwned" ] && [ ! -e ~root/"$pwned" ] && [ ! -e "$T/h1/$pwned" ] ||
	fail "a command in a path ran on a host"
all_clean || fail "lab A left mounts or loop devices on a host"
[ -z "$(hosts_fslab_conns)" ] || fail "lab A left ssh connections"
grep -q "^## Hosts" "$T/labA/report/report.md" && grep -q "^| ext4 | h3 | 2 |" "$T/labA/report/report.md" ||
	fail "the report has no Hosts section with each host's two runs"

tlog "fslab hosts by hand: argv, fetch, start-at"
mapfile -d '' cmd < <("$FSLAB" hosts "$T/lab.ini" argv h2 --null -- hello "a b" "it's \$(x)")
[ "$(hosts_ctl "${cmd[@]}" | jq -c .argv)" = '["a b","it'"'"'s $(x)"]' ] ||
	fail "fslab hosts argv: the words did not arrive as data"
c=$(echo "$cells" | head -1)
hosts_ctl "$FSLAB" hosts "$T/lab.ini" fetch h3 "$T/h3/work/$c.json" "$T/byhand.json" >"$T/fetch.out" ||
	fail "fslab hosts fetch failed"
[ "$(cut -d' ' -f1 "$T/fetch.out")" = "$(sha256sum <"$T/h3/work/$c.json" | cut -d' ' -f1)" ] &&
	cmp -s "$T/byhand.json" "$T/labA/results/$c.h3.json" || fail "fslab hosts fetch: not the host's file"
hosts_ctl "$FSLAB" hosts "$T/lab.ini" start-at --in 5s >"$T/start.out" 2>/dev/null ||
	fail "fslab hosts start-at failed"
[ "$(awk '{print $1}' "$T/start.out" | tr '\n' ' ')" = "h1 h2 h3 " ] || fail "start-at: not one line a host"

tlog "lab E: raw_baseline on 3 hosts (each host's raw devices, named by its prep.json)"
# (after the hand fetch above: lab E's cells have lab A's ids, in the same work directories)
lab_ini "$T/labE.ini" 1 2s ext4
sed -i 's/^\[lab\]$/[lab]\nraw_baseline = yes/' "$T/labE.ini"
hosts_ctl "$FSLAB" lab "$T/labE.ini" --output "$T/labE" >"$T/labE.out" 2>&1 ||
	{ cat "$T/labE.out"; fail "fslab lab with raw_baseline on 3 hosts failed"; }
jqt "$T/labE/lab-state.json" '[.cells[] | .status == "done"] | all and length == 2'
rawc=$(jq -r '.cells[] | select(.id | startswith("raw")) | .id' "$T/labE/lab-state.json")
check_cell "$T/labE" "$rawc"
for h in h1 h2 h3; do
	jqt "$T/labE/results/$rawc.$h.json" '.environment.volumes[0].raw == true and (.environment.volumes[0].source | startswith("/dev/loop"))'
	[ -s "$T/labE/logs/$rawc.$h.prep.json" ] || fail "lab E: $h's prep.json was not fetched"
done
grep -q "ext4 vs raw" "$T/labE/report/report.md" || fail "lab E: the report does not compare against raw"
all_clean || fail "lab E left mounts or loop devices on a host"

tlog "lab F: h2's link goes down while its result is fetched"
# h2's fslab takes its own link down when a result is asked of it: the host lost mid-fetch
# (it was blamed on "this build", the lab ended "finished" with h2's volumes mounted)
cut=$T/h2/fslab-cut
mkdir -p "$T/h2"
printf '#!/bin/sh\n[ "$1" = cat-result ] && ip link set %s down\nexec %s "$@"\n' \
	"v${HOSTS_TAG}h2" "$FSLAB" >"$cut"
chmod +x "$cut"
lab_ini "$T/labF.ini" 1 2s ext4
sed -i "/^\[host h2\]/,/^\[/ s|^fslab = .*|fslab = $cut|" "$T/labF.ini"
rc=0; hosts_ctl "$FSLAB" lab "$T/labF.ini" --output "$T/labF" >"$T/labF.out" 2>&1 || rc=$?
cat "$T/labF.out"
[ $rc -eq 1 ] || fail "lab F with a host lost mid-fetch: exit $rc, expected 1"
grep -q "host h2 lost (while its result was fetched)" "$T/labF.out" || fail "lab F does not say h2 was lost"
! grep -q "this build" "$T/labF.out" "$T/labF/lab.log" || fail "lab F blamed the lost link on the build"
cellF=$(jq -r '.cells[0].id' "$T/labF/lab-state.json")
jqt "$T/labF/results/$cellF.json" '.cluster.partial and .cluster.complete == 2'
jqv "$T/labF/results/$cellF.json" '.hosts[] | select(.name == "h2") | .reason' | grep -q "lost while its result was fetched" ||
	fail "lab F: h2's reason does not say it was lost"
for h in h1 h3; do [ -z "$(host_leftovers $h)" ] || fail "lab F left $h's volumes"; done
[ -n "$(hosts_mounts h2)" ] || fail "lab F: h2's volumes went although h2 was cut off"
# the teardown the lab printed for h2, run there once its link is back
tdown=$(sed -n 's/.*(on h2) \(.*\); every cell needs every host.*/\1/p' "$T/labF.out")
[ -n "$tdown" ] || fail "lab F printed no teardown command for h2"
hosts_link h2 up
hosts_ctl ssh -F "$HOSTS_SSH_CONFIG" -S none -o BatchMode=yes h2 "$tdown" ||
	fail "the teardown command printed for h2 failed: $tdown"
all_clean || fail "lab F left mounts or loop devices after h2's teardown"
[ -z "$(hosts_fslab_conns)" ] || fail "lab F left ssh connections"

tlog "lab B: faults mid-load, 100 ms of latency each way on h1's link"
hosts_delay h1 100
tlog "delay: $HOSTS_DELAY_HOW"
lab_ini "$T/labB.ini" 2 10s ext4
# not through the hosts_ctl function: $! is then fslab's own pid (ip netns exec execs it)
ip netns exec "$CTL_NS" "$FSLAB" lab "$T/labB.ini" --output "$T/labB" >"$T/labB.out" 2>&1 &
labpid=$!
LABLOG=$T/labB/lab.log LABOUT=$T/labB.out
mid_load 1
cell1=$(jq -r '.cells[0].id' "$T/labB/lab-state.json")
pid=$(hosts_procs h3 "fslab run .*--lab-cell=$cell1")
[ -n "$pid" ] || fail "no fslab run of $cell1 on h3"
t0=$(date +%s.%N); kill -9 $pid
d=$(noticed "host h3: run ended" "$t0")
tlog "kill -9 of h3's fslab run noticed after $d s"
awk -v d="$d" 'BEGIN { exit !(d < 10) }' || fail "h3's killed run noticed after $d s, not within 10 s"
mid_load 2
cell2=$(jq -r '.cells[1].id' "$T/labB/lab-state.json")
t0=$(date +%s.%N); hosts_link h2 down
d=$(noticed "host h2: run ended" "$t0")
tlog "h2's link down noticed after $d s"
awk -v d="$d" 'BEGIN { exit !(d < 10) }' || fail "h2's lost link noticed after $d s, not within 10 s"
rc=0; wait $labpid || rc=$?
cat "$T/labB.out"
[ $rc -eq 1 ] || fail "lab B with a lost host: exit $rc, expected 1"
grep -q "host h2 lost (during its run)" "$T/labB.out" || fail "lab B does not say h2 was lost"
# each faulty cell: a partial cluster result of the two others, never a full one
for c in "$cell1:h3" "$cell2:h2"; do
	cell=${c%:*} gone=${c#*:}
	r="$T/labB/results/$cell.json"
	jqt "$r" ".cluster.partial == true and .aborted == true and .cluster.complete == 2"
	jqt "$r" "[.hosts[] | select(.name == \"$gone\") | .status] == [\"missing\"]"
	for h in h1 h2 h3; do
		[ $h = "$gone" ] && continue
		[ -f "$T/labB/results/$cell.$h.json" ] || fail "$cell: $h's result was not kept"
	done
	jqt "$T/labB/lab-state.json" ".cells[] | select(.id == \"$cell\") | .status == \"failed\""
done
jqv "$T/labB/results/$cell2.json" '.hosts[] | select(.name == "h2") | .reason' | grep -q "lost" ||
	fail "$cell2: h2's reason does not say it was lost"
# the survivors torn down at once; the lost host's volumes wait for it to come back
for h in h1 h3; do [ -z "$(host_leftovers $h)" ] || fail "lab B left $h's volumes"; done
[ -n "$(hosts_mounts h2)" ] || fail "h2's volumes went although h2 was cut off"
hosts_link h2 up
tlog "lab B --resume: h2 torn down, the failed cells again"
hosts_ctl "$FSLAB" lab "$T/labB.ini" --output "$T/labB" --resume >"$T/labB2.out" 2>&1 ||
	{ cat "$T/labB2.out"; fail "lab B --resume failed"; }
cat "$T/labB2.out"
grep -q "host h2: teardown" "$T/labB/lab.log" && fail "the teardown of h2 at --resume failed"
for c in $(jq -r '.cells[] | .id' "$T/labB/lab-state.json"); do check_cell "$T/labB" "$c"; done
all_clean || fail "lab B left mounts or loop devices after --resume"
[ -z "$(hosts_fslab_conns)" ] || fail "lab B left ssh connections"

tlog "lab C: Ctrl-C mid-load; its output directory's name has a newline and quotes"
lab_ini "$T/labC.ini" 1 20s ext4
outC="$T/lab C 'q'
\$(touch $pwned)"
ip netns exec "$CTL_NS" "$FSLAB" lab "$T/labC.ini" --output "$outC" >"$T/labC.out" 2>&1 &
labpid=$!
LABLOG=$outC/lab.log LABOUT=$T/labC.out
mid_load 1
[ -n "$(hosts_mounts h3)" ] || fail "lab C: nothing mounted on h3 before Ctrl-C"
t0=$(date +%s)
kill -INT $labpid
rc=0; wait $labpid || rc=$?
cat "$T/labC.out"
[ $rc -eq 1 ] || fail "lab C after Ctrl-C: exit $rc, expected 1"
tlog "lab C stopped $(( $(date +%s) - t0 )) s after Ctrl-C"
grep -q "lab interrupted by SIGINT" "$T/labC.out" || fail "lab C does not say it was interrupted"
for h in h1 h2 h3; do [ -z "$(hosts_procs $h 'fslab run ')" ] || fail "an fslab run is left on $h"; done
all_clean || fail "lab C left mounts or loop devices after Ctrl-C"
[ ! -e "$HOME/$pwned" ] && [ ! -e ~root/"$pwned" ] || fail "a command in the output's name ran"
[ -z "$(hosts_fslab_conns)" ] || fail "lab C left ssh connections"

tlog "lab D: two Ctrl-C mid-load (the hosts' ssh killed, their sessions' end stops the runs)"
ip netns exec "$CTL_NS" "$FSLAB" lab "$T/labC.ini" --output "$T/labD" >"$T/labD.out" 2>&1 &
labpid=$!
LABLOG=$T/labD/lab.log LABOUT=$T/labD.out
mid_load 1
kill -INT $labpid; sleep 0.3; kill -INT $labpid
rc=0; wait $labpid || rc=$?
cat "$T/labD.out"
[ $rc -eq 1 ] || fail "lab D after two Ctrl-C: exit $rc, expected 1"
for h in h1 h2 h3; do [ -z "$(hosts_procs $h 'fslab run ')" ] || fail "an fslab run is left on $h"; done
all_clean || fail "lab D left mounts or loop devices after two Ctrl-C"
[ -z "$(hosts_fslab_conns)" ] || fail "lab D left ssh connections"
tlog "ok"
