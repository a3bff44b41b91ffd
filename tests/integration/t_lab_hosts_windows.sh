#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_hosts_windows: a lab of [host] sections marked os = windows (fslab.exe behind Windows'
# OpenSSH, whose default shell is cmd.exe), verified up to the command lines, since no Windows
# host is reachable here: fslab lab --dry-run prints, for every cell and host, the exact
# command line each host receives (golden file tests/expected/windows/lab-hosts.txt): the
# program path in plain quotes, every argument in the C runtime's quotes with cmd.exe's
# metacharacters escaped by carets (a workdir with spaces, a quote, %, !, ^, &, |, <, >,
# parentheses), Windows prep's disk numbers, no --owner.  Refused with exit 2, nothing
# created: Linux and Windows hosts in one lab, a Windows host's fslab path that cmd.exe cannot
# carry, an [fs] Windows prep does not make, image_dir for a Windows host.
. "$(dirname "$0")/lib.sh"

cat >"$T/lab.ini" <<'EOT'
[lab]
ssh_config = SSHCONFIG
order = interleaved
repeats = 1
[workload]
duration = 10s
warmup = 2s
db_size = 1G
threads = 4
[fs ntfs]
[fs refs]
cluster = 64K
[host win1]
ssh = administrator@win1.lab
os = windows
fslab = C:\Program Files\fslab\fslab.exe
workdir = C:\fslab-lab\win1
db_dev = 1
log_dev = 2
[host win2]
ssh = win2
os = windows
fslab = C:\fslab\fslab.exe
workdir = D:\lab it's "100%" !x! ^ & | <a> (b)
db_dev = 3
log_dev = 4
EOT
sed -i "s|SSHCONFIG|$T/ssh_config|" "$T/lab.ini"
: >"$T/ssh_config"
"$FSLAB" lab "$T/lab.ini" --output "$T/out" --dry-run >"$T/dry.out" 2>"$T/dry.err" ||
	{ cat "$T/dry.err"; fail "fslab lab --dry-run of Windows hosts failed"; }
[ ! -e "$T/out" ] || fail "a dry run created its output directory"
sed "s|$T|T|g" "$T/dry.out" >"$T/dry.txt"
diff -u "$FSLAB_TOP/tests/expected/windows/lab-hosts.txt" "$T/dry.txt" ||
	fail "the Windows hosts' command lines differ from tests/expected/windows/lab-hosts.txt"

# refused (exit 2, nothing created), each with what to fix
refused() {
	local what=$1 want=$2
	expect_status 2 "$FSLAB" lab "$T/bad.ini" --output "$T/out-bad" --dry-run
	grep -q -- "$want" "$T/stderr" || { cat "$T/stderr"; fail "$what: no '$want'"; }
	[ ! -e "$T/out-bad" ] || fail "$what: something was created"
}
sed 's/^os = windows$/os = linux/' "$T/lab.ini" | awk '/^\[host win2\]/{h=1} h && /^os = linux/{$0="os = windows"} {print}' >"$T/bad.ini"
refused "Linux and Windows hosts" "Linux and Windows hosts in one lab"
sed 's|^fslab = C:\\fslab\\fslab.exe$|fslab = C:\\a\&b\\fslab.exe|' "$T/lab.ini" >"$T/bad.ini"
refused "a Windows fslab path with &" "may not hold a quote"
sed 's/^\[fs refs\]$/[fs ext4]/' "$T/lab.ini" >"$T/bad.ini"
refused "ext4 on Windows hosts" "Windows prep formats ntfs or refs"
sed 's/^db_dev = 3$/image_dir = D:\\img/; /^log_dev = 4$/d' "$T/lab.ini" >"$T/bad.ini"
refused "image_dir on a Windows host" "takes no image_dir"
