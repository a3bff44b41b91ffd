#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_hosts: three hosts in network namespaces of this machine, each with its own sshd
# (hosts-lib.sh), driven over OpenSSH as fslab's lab drives them:
#   - fslab --version over ssh; fslab hosts CONFIG check: every host ready, the same build,
#     clock offsets measured (one machine: near 0), one ssh connection per host reused
#     (sshd counts one login per host for hello and the clock samples), none left behind;
#     a host key missing from known_hosts and a different fslab build are refused, naming the
#     host, and known_hosts is not changed;
#   - fslab prep on every host at once through the argv the lab would spawn (each host its
#     own images and mount root), fslab run --start-at on all three at once, results fetched
#     with their sha256 (equal to sha256sum's of the host's file), merged; checked
#     independently with jq: cluster operations and every histogram bucket are the sums of
#     the hosts', the requested starts kept, the start spread under the limit;
#   - a result path with spaces, quotes, $(...), backquotes and ; reaches the host as data;
#   - one host's teardown leaves the others' mounts alone;
#   - 100 ms of latency each way on one host's link: its round trip grows, its clock offset
#     stays compensated (round trip / 2), and a second start-at round still starts within
#     the limit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hosts-lib.sh"
command -v jq >/dev/null || fail "jq missing (make check installs it)"
tlog() { log "$(date +%T) $*"; }

hosts_setup 3
tlog "rig: 3 hosts, sshd each, tag $HOSTS_TAG"
LIMIT=0.5
cat >"$T/lab.ini" <<EOF
[lab]
ssh_config = $HOSTS_SSH_CONFIG
clock_limit = $LIMIT
[workload]
duration = 3s
warmup = 1s
db_size = 64M
threads = 2
[fs ext4]
EOF
for h in h1 h2 h3; do
	mkdir -p "$T/$h"
	cat >>"$T/lab.ini" <<EOF
[host $h]
ssh = $h
fslab = $FSLAB
workdir = $T/$h/work
image_dir = $T/$h/img
db_size = 256M
log_size = 128M
EOF
done

tlog "fslab lab refuses [host] sections until it drives them (nothing created)"
rc=0; "$FSLAB" lab "$T/lab.ini" --output "$T/labout" >"$T/lab.out" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q "does not drive several hosts yet.*fslab hosts" "$T/lab.out" ||
	{ cat "$T/lab.out"; fail "fslab lab with [host] sections: exit $rc"; }
[ ! -e "$T/labout" ] || fail "fslab lab created its output directory before refusing"

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
jqt "$T/check.json" "[.hosts[] | .version == \"$("$FSLAB" --version | cut -d' ' -f2)\"] | all"
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

# run ACTION on HOST with the argv the lab would spawn (fslab hosts argv --null)
on_host() {
	local h=$1; shift
	local -a cmd
	mapfile -d '' cmd < <("$FSLAB" hosts "$T/lab.ini" argv "$h" --null -- "$@")
	[ ${#cmd[@]} -gt 0 ] || fail "fslab hosts argv $h gave nothing"
	hosts_ctl "${cmd[@]}"
}

# host_mounted HOST PATH: is PATH a mount point as HOST sees it (its sshd's mount namespace)
host_mounted() { hosts_ctl ssh -F "$HOSTS_SSH_CONFIG" -o BatchMode=yes "$1" mountpoint -q "$2"; }

# wait_pids PID...: wait for each (not for the rig's sshd jobs); the last failure's status
wait_pids() { local rc=0 p; for p in "$@"; do wait "$p" || rc=$?; done; return $rc; }

tlog "prep on every host at once (its own images and mount root)"
pids=""
for h in h1 h2 h3; do
	on_host $h prep --fs ext4 --image-dir "$T/$h/img" --db-size 256M --log-size 128M \
		--mount-root "$T/$h/work/mnt" --owner "fslab lab test $h" >"$T/$h.prep" 2>&1 &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait_pids $pids || { cat "$T"/h*.prep; fail "prep failed on a host"; }
for h in h1 h2 h3; do
	host_mounted $h "$T/$h/work/mnt/db" || fail "$h: no database volume after prep"
	host_mounted h1 "$T/$h/work/mnt/db" && [ $h != h1 ] && fail "h1 sees $h's mounts"
	mkdir -p "$T/$h/work/results"
done

# a result file name that must arrive as data (a shell would run the commands in the login's
# directory, the home of root)
pwned=fslab-pwned-$HOSTS_TAG
evil="cell \$(touch $pwned) \`touch $pwned\`; it's \"x\" & y | z.json"

round() {
	local name=$1 in=$2 h out pids=""
	hosts_ctl "$FSLAB" hosts "$T/lab.ini" start-at --in "$in" --json "$T/$name.clock.json" \
		>"$T/$name.start" 2>"$T/$name.start.err" ||
		{ cat "$T/$name.start.err"; fail "$name: fslab hosts start-at failed"; }
	cat "$T/$name.start.err" "$T/$name.start"
	for h in h1 h2 h3; do
		out="$T/$h/work/results/$name.json"
		[ $h = h1 ] && out="$T/$h/work/results/$name $evil"
		start=$(awk -v h=$h '$1 == h {print $2}' "$T/$name.start")
		[ -n "$start" ] || { cat "$T/$name.start"; fail "$name: no start for $h"; }
		on_host $h run --db "$T/$h/work/mnt/db" --log "$T/$h/work/mnt/log" --duration 3s \
			--warmup 1s --db-size 64M --threads 2 --label cell --start-at "$start" \
			--output "$out" >"$T/$h.$name.run" 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	rc=0; wait_pids $pids || rc=$?
	# 3: the verdict failed on a loaded machine: still a complete run
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { for f in "$T"/h*."$name".run; do tail -n 5 "$f"; done; fail "$name: a run failed ($rc)"; }
	[ ! -e "$HOME/$pwned" ] && [ ! -e ~root/"$pwned" ] || fail "a command in a path ran on the host"
	mkdir -p "$T/fetched"
	for h in h1 h2 h3; do
		out="$T/$h/work/results/$name.json"
		[ $h = h1 ] && out="$T/$h/work/results/$name $evil"
		[ -f "$out" ] || fail "$name: $h wrote no result at the path given"
		hosts_ctl "$FSLAB" hosts "$T/lab.ini" fetch $h "$out" "$T/fetched/$name.$h.json" \
			>"$T/$h.$name.fetch" 2>&1 || { cat "$T/$h.$name.fetch"; fail "$name: fetch from $h failed"; }
		# the sha256 fslab checked is coreutils' of the host's own file
		[ "$(cut -d' ' -f1 "$T/$h.$name.fetch")" = "$(sha256sum <"$out" | cut -d' ' -f1)" ] ||
			fail "$name: $h: the sha256 differs from sha256sum's"
		cmp -s "$out" "$T/fetched/$name.$h.json" || fail "$name: $h: the fetched file differs"
	done
	"$FSLAB" merge --output "$T/$name.cluster.json" --clock-file "$T/$name.clock.json" \
		"$T/fetched/$name.h1.json" "$T/fetched/$name.h2.json" "$T/fetched/$name.h3.json" \
		>"$T/$name.merge" 2>&1 || { cat "$T/$name.merge"; fail "$name: fslab merge failed"; }
	cat "$T/$name.merge"
	check_cluster "$T/$name.cluster.json" "$T/fetched/$name".h{1,2,3}.json
	# every host started at the time asked (its clock), all within the limit
	for h in h1 h2 h3; do
		jqt "$T/$name.cluster.json" "(.hosts[] | select(.name == \"$h\") | .start_at) == \"$(awk -v h=$h '$1 == h {print $2}' "$T/$name.start")\""
	done
	jqt "$T/$name.cluster.json" '[.hosts[] | .start_delay_s] | all(. >= 0 and . < 0.2)'
	spread=$(jqv "$T/$name.cluster.json" .cluster.start_spread_s)
	tlog "$name: loads started within $(awk -v s="$spread" 'BEGIN { printf "%.2f", s * 1000 }') ms"
	jqt "$T/$name.cluster.json" ".cluster.start_spread_s < $LIMIT and .cluster.partial == false"
}

# the cluster's counts and histogram buckets against the sums of the hosts', in jq alone
check_cluster() {
	jq -e -n --slurpfile c "$1" --slurpfile a "$2" --slurpfile b "$3" --slurpfile d "$4" '
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
		fail "$1: the cluster's counts or buckets are not the sums of the hosts'"
}

tlog "run --start-at on all three at once, fetch, merge"
round r1 8s

tlog "100 ms of latency each way on h2's link"
hosts_delay h2 100
tlog "delay: $HOSTS_DELAY_HOW"
hosts_ctl "$FSLAB" hosts "$T/lab.ini" check --json "$T/check2.json" --samples 6 >"$T/check2.out" 2>&1 ||
	{ cat "$T/check2.out"; fail "fslab hosts check with the delay failed"; }
cat "$T/check2.out"
jqt "$T/check2.json" '.hosts[1].name == "h2" and .hosts[1].clock_rtt_s >= 0.19'
# the one-way delay is compensated: the offset stays the measurement error, not 100 ms
jqt "$T/check2.json" '(.hosts[1].clock_offset_s | fabs) < 0.02'
jqt "$T/check2.json" '(.hosts[0].clock_rtt_s < 0.05) and (.hosts[0].clock_offset_s | fabs) < 0.005'
round r2 10s

tlog "teardown of h1 leaves h2's and h3's mounts alone"
on_host h1 teardown --mount-root "$T/h1/work/mnt" --owner "fslab lab test h1" >"$T/h1.td" 2>&1 ||
	{ cat "$T/h1.td"; fail "teardown on h1 failed"; }
host_mounted h1 "$T/h1/work/mnt/db" && fail "h1's database volume is still mounted"
for h in h2 h3; do host_mounted $h "$T/$h/work/mnt/db" || fail "h1's teardown took $h's volume"; done
# and a teardown of h2's mount root with h1's owner takes nothing
on_host h2 teardown --mount-root "$T/h2/work/mnt" --owner "fslab lab test h1" >/dev/null 2>&1
host_mounted h2 "$T/h2/work/mnt/db" || fail "a teardown with another owner took h2's volume"
for h in h2 h3; do
	on_host $h teardown --mount-root "$T/$h/work/mnt" --owner "fslab lab test $h" >/dev/null 2>&1 ||
		fail "teardown on $h failed"
	host_mounted $h "$T/$h/work/mnt/db" && fail "$h still has its database volume mounted"
done
for h in h1 h2 h3; do
	[ -z "$(losetup -j "$T/$h/img/db.img")$(losetup -j "$T/$h/img/log.img")" ] ||
		fail "$h's loop devices are still attached after its teardown"
done
[ -z "$(hosts_fslab_conns)" ] || fail "fslab left ssh connections"
tlog "ok"
