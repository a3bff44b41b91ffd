# SPDX-License-Identifier: MIT
# hosts-lib.sh: "hosts" for the tests of fslab's multi-host lab, on this machine (sourced after
# lib.sh).  hosts_setup N makes, all in network namespaces of the test's own:
#   - a bridge in a namespace of its own, and one veth pair per namespace to it (the names
#     carry a tag of this test: other tests' namespaces are never touched);
#   - a controller namespace CTL_NS (10.20.0.1) where the test runs fslab and ssh (hosts_ctl);
#   - host namespaces h1..hN (10.20.0.11..), each with its own sshd: its own host key and
#     config, listening on that namespace's address only, keys only (no password, no PAM);
#   - a key pair made by the test (authorized on every sshd), a known_hosts written by the
#     test with each host's key (checked, never accepted on the fly: StrictHostKeyChecking
#     yes), and an ssh_config ($HOSTS_SSH_CONFIG) naming the hosts h1..hN.
# The hosts share this machine's filesystem and loop devices, not its mounts: ip netns exec
# gives each sshd a mount namespace of its own (a slave of this one), so what a host mounts
# (prep over ssh) only that host sees, as on a real host; a test looks at it over ssh.  Each
# host works in directories of its own under $T (its own image_dir and mount root), and
# fslab's prep records (/var/lib/fslab/prep-state, shared) are keyed by mount root and
# --owner, so one host's teardown never takes another's.  Everything is removed on any exit:
# the processes in the namespaces by their pid (with the last of a host's its mounts go), the
# namespaces (with them the veths and the bridge); then lib.sh's cleanup detaches the loop
# devices backed by files under $T and removes what prep recorded there.
#
#   hosts_setup N            the rig
#   hosts_ctl CMD...         run CMD in the controller namespace
#   hosts_in NAME CMD...     run CMD in host NAME's namespace (h1..)
#   hosts_delay NAME MS      MS of latency each way on NAME's link: tc netem on both ends of
#                            its veth, or (a kernel without sch_netem) a delaying ProxyCommand
#   hosts_auths NAME         connections sshd of NAME accepted so far
#   hosts_fslab_conns        fslab's own ssh connections still running (their sockets live in
#                            /tmp/fslab-ssh.*): none once an fslab command ended
#   hosts_link NAME up|down  NAME's network link (its end of the veth)
#   hosts_mounts NAME        the mounts under $T that NAME has (its sshd's mount namespace,
#                            read without ssh: also for a host cut off)
#   hosts_procs NAME PATTERN the pids of NAME's processes whose command line matches PATTERN
HOSTS_TAG=$(basename "$T" | tr -cd 'a-zA-Z0-9' | tail -c 6)
HT=$T/hosts
HOSTS_SSH_CONFIG=$HT/ssh_config
CTL_NS=fslab-$HOSTS_TAG-ctl
BR_NS=fslab-$HOSTS_TAG-br
_hosts_ns="" _hosts_pids="" HOSTS_N=0

hosts_ctl() { ip netns exec "$CTL_NS" "$@"; }
hosts_in() { ip netns exec "fslab-$HOSTS_TAG-$1" "$@"; }
hosts_ip() { echo "10.20.0.$((10 + ${1#h}))"; }

hosts_cleanup() {
	set +e
	# sshd first, by the pid we started; then anything still in our namespaces (ssh
	# connections, fslab runs started over ssh): processes of this test only
	for p in $_hosts_pids; do kill "$p" 2>/dev/null; done
	for ns in $_hosts_ns; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	done
	sleep 0.2
	for ns in $_hosts_ns; do ip netns del "$ns" 2>/dev/null; done
}
trap '_rc=$?; hosts_cleanup; (exit $_rc); cleanup' EXIT

# _hosts_link NS ADDR: a veth from NS to the bridge, NS's end with ADDR
_hosts_link() {
	local ns=$1 addr=$2 n=$3
	ip netns add "$ns"
	_hosts_ns="$_hosts_ns $ns"
	ip -n "$BR_NS" link add "b$HOSTS_TAG$n" type veth peer name "v$HOSTS_TAG$n" netns "$ns"
	ip -n "$BR_NS" link set "b$HOSTS_TAG$n" master br0 up
	ip -n "$ns" addr add "$addr/24" dev "v$HOSTS_TAG$n"
	ip -n "$ns" link set "v$HOSTS_TAG$n" up
	ip -n "$ns" link set lo up
}

hosts_setup() {
	local n=$1 i ns ip d
	command -v ip >/dev/null || fail "ip missing: install the Debian package iproute2"
	[ -x /usr/sbin/sshd ] || fail "sshd missing: install the Debian package openssh-server"
	command -v ssh >/dev/null || fail "ssh missing: install the Debian package openssh-client"
	mkdir -p "$HT"
	ip netns add "$BR_NS" 2>"$HT/netns.err" ||
		skip "no network namespaces here ($(cat "$HT/netns.err")): the hosts test needs ip netns"
	_hosts_ns="$BR_NS"
	ip -n "$BR_NS" link add br0 type bridge
	ip -n "$BR_NS" link set br0 up
	_hosts_link "$CTL_NS" 10.20.0.1 c
	ssh-keygen -q -t ed25519 -N '' -C "fslab test $HOSTS_TAG" -f "$HT/id_ed25519"
	cp "$HT/id_ed25519.pub" "$HT/authorized_keys"
	: >"$HT/known_hosts"
	cat >"$HOSTS_SSH_CONFIG" <<EOF
# written by hosts-lib.sh for test $HOSTS_TAG: host keys checked against our known_hosts
Host *
	User root
	IdentityFile $HT/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $HT/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	UpdateHostKeys no
	LogLevel ERROR
	# the test's own ssh commands share a connection per host (fslab's use their own);
	# a fast key exchange: this machine is shared and small
	ControlMaster auto
	ControlPath $HT/cm-%C
	ControlPersist 120
	KexAlgorithms curve25519-sha256
EOF
	# sshd's privilege separation directory (the system's, made when missing, as sshd's own
	# service would; left for it)
	[ -d /run/sshd ] || mkdir -m 0755 /run/sshd
	for i in $(seq 1 "$n"); do
		ns=fslab-$HOSTS_TAG-h$i
		ip=$(hosts_ip "h$i")
		d=$HT/h$i
		mkdir -p "$d"
		_hosts_link "$ns" "$ip" "h$i"
		ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
		cat >"$d/sshd_config" <<EOF
ListenAddress $ip
Port 22
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $HT/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxSessions 64
MaxStartups 64
LogLevel VERBOSE
# Debian's bash reads ~/.bashrc for a command sent over ssh (SSH_SOURCE_BASHRC) when SHLVL
# says it is the first shell: this machine's root .bashrc is not the rig's to run (it cost
# ~1 s a step here); a real host's rc files are its own business (docs/HOSTS.md)
SetEnv SHLVL=1
EOF
		/usr/sbin/sshd -t -f "$d/sshd_config" || fail "sshd refuses $d/sshd_config"
		ip netns exec "$ns" /usr/sbin/sshd -D -e -f "$d/sshd_config" >"$d/sshd.log" 2>&1 &
		_hosts_pids="$_hosts_pids $!"
		disown $!	# no job message when the cleanup ends it
		echo "$ip $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$HT/known_hosts"
		printf 'Host h%s\n\tHostName %s\n' "$i" "$ip" >>"$HOSTS_SSH_CONFIG.hosts"
	done
	# the host aliases first: ssh takes the first value of each option
	cat "$HOSTS_SSH_CONFIG.hosts" "$HOSTS_SSH_CONFIG" >"$HOSTS_SSH_CONFIG.new"
	mv "$HOSTS_SSH_CONFIG.new" "$HOSTS_SSH_CONFIG"
	HOSTS_N=$n
	# every sshd listening, reached from the controller
	for i in $(seq 1 "$n"); do
		local tries=0
		until hosts_ctl bash -c "exec 3<>/dev/tcp/$(hosts_ip "h$i")/22" 2>/dev/null; do
			tries=$((tries + 1))
			[ $tries -lt 100 ] || fail "sshd of h$i does not answer: $(tail -5 "$HT/h$i/sshd.log")"
			sleep 0.1
		done
	done
}

hosts_auths() { grep -c "Accepted publickey" "$HT/$1/sshd.log" || true; }
hosts_link() { ip -n "fslab-$HOSTS_TAG-$1" link set "v$HOSTS_TAG$1" "$2"; }
hosts_mounts() {
	local pid
	pid=$(cat "$HT/$1/sshd.pid" 2>/dev/null) || return 0
	# /proc/PID/mounts escapes blanks as \040: the scratch directory has none
	awk -v t="$T" 'index($2, t) == 1 {print $2}' /proc/"$pid"/mounts
}
hosts_procs() {
	local p
	for p in $(ip netns pids "fslab-$HOSTS_TAG-$1"); do
		tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | grep -q -- "$2" && echo "$p"
	done
	return 0
}
hosts_fslab_conns() {
	local p
	for p in $(ip netns pids "$CTL_NS"); do
		tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | grep -q "fslab-ssh\." && echo "$p"
	done
	return 0
}

hosts_delay() {
	local h=$1 ms=$2 relay=$T/delay_relay
	if hosts_in "$h" tc qdisc add dev "v$HOSTS_TAG$h" root netem delay "${ms}ms" 2>/dev/null &&
	   ip netns exec "$BR_NS" tc qdisc add dev "b$HOSTS_TAG$h" root netem delay "${ms}ms" 2>/dev/null; then
		HOSTS_DELAY_HOW="tc netem delay ${ms}ms on both ends of $h's veth"
		return
	fi
	hosts_in "$h" tc qdisc del dev "v$HOSTS_TAG$h" root 2>/dev/null || true
	# no sch_netem in this kernel: the same latency in the connection itself
	[ -x "$relay" ] || cc -O2 -o "$relay" "$FSLAB_TOP/tests/integration/delay_relay.c" ||
		fail "cannot build the delay relay"
	sed -i "/^Host $h\$/a\\	ProxyCommand $relay $ms %h %p" "$HOSTS_SSH_CONFIG"
	# the test's connection to it was made without the delay
	hosts_ctl ssh -F "$HOSTS_SSH_CONFIG" -O exit "$h" 2>/dev/null || true
	HOSTS_DELAY_HOW="a ProxyCommand holding every byte ${ms} ms each way (this kernel has no sch_netem for tc netem)"
}
