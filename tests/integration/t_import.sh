# SPDX-License-Identifier: MIT
# t_import.sh: fslab compare and sizing read fio JSON (json, json+, client/server, text before
# the JSON, --steadystate), DiskSpd XML (2.2, 2.0.21a, UTF-16, interrupted), DiskSpd text (2.0.x, 2.1, 2.2,
# UTF-16, cut or edited) and Jetstress HTML reports
# (tests/fixtures/interop/, README there): every value checked against the file it came from,
# n/a where the tool does not report it, tools never mixed without --allow-mismatch, malformed
# inputs exit 2 and write nothing; hostile and huge ones (entities, thousands of hosts,
# instances and TimeSpans) are read in linear time or refused.  Needs no root or loop device.
. "$(dirname "$0")/lib.sh"

fx=$FSLAB_TOP/tests/fixtures/interop
out=$T/report

# cmp_json OUT ARGS...: fslab compare --format json ARGS into OUT
cmp_json() { local o=$1; shift; "$FSLAB" compare --format json "$@" >"$o" || fail "compare $*"; }
# cell FILE ROW LABEL: the mean of one cell ("null" when n/a)
cell() { jq -r --arg r "$2" --arg l "$3" '.rows[] | select(.id == $r) | .cells[] |
	select(.label == $l) | (.mean // .text // "null")' "$1"; }
# near A B REL: |A - B| <= REL * |B|
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	m = b < 0 ? -b : b; exit !(d <= r * m + 1e-9) }'; }
check() { # check WHAT GOT WANT [REL]
	near "$2" "$3" "${4:-0.0005}" || fail "$1: got $2, expected $3"
}

log "fio --steadystate: fio's own steady-state object shown as its Steady state"
cmp_json "$T/ss.json" "$fx/fio-ss-attained.json" "$fx/fio-ss-not-attained.json"
[ "$(cell "$T/ss.json" steady fio-ss-attained)" = \
	"fio: attained (iops_slope:20.000000%; measured -1.768649%)" ] || fail "fio steady state"
[ "$(cell "$T/ss.json" steady fio-ss-not-attained)" = \
	"fio: NOT attained (iops:0.100000%; measured 13.905664%)" ] || fail "fio steady state not"
# without it, no row
cmp_json "$T/nss.json" "$fx/fio-randread-2jobs.json"
[ -z "$(cell "$T/nss.json" steady fio-randread-2jobs)" ] || fail "a steady row without --ss"

log "fio JSON, two jobs: rates summed, percentiles of merged jobs without bins n/a"
f=$fx/fio-randread-2jobs.json
cmp_json "$T/a.json" "$f"
want=$(jq '[.jobs[].read.iops] | add' "$f")
check "reads/s" "$(cell "$T/a.json" db_read_iops fio-randread-2jobs)" "$want"
check "trans IOPS" "$(cell "$T/a.json" trans_iops fio-randread-2jobs)" "$want"
[ "$(cell "$T/a.json" db_read_lat_p99 fio-randread-2jobs)" = null ] ||
	fail "p99 of two jobs without json+ bins must be n/a, not invented"
want=$(jq '([.jobs[].read.clat_ns | .mean * .N] | add) / ([.jobs[].read.clat_ns.N] | add) / 1e6' "$f")
check "read latency (clat, N-weighted)" "$(cell "$T/a.json" db_read_lat_avg fio-randread-2jobs)" "$want"
[ "$(cell "$T/a.json" cpu fio-randread-2jobs)" = null ] || fail "fio gives no host CPU: n/a"
[ "$(cell "$T/a.json" tool fio-randread-2jobs)" = "fio 3.33" ] || fail "tool row"
jqt "$T/a.json" '.groups[0].source == {"tool":"fio","version":"3.33","format":"fio JSON, clat","host":null}'

log "fio json+ (group_reporting, randrw, lat_percentiles): bins give fio's own percentiles"
f=$fx/fio-randrw-jsonplus.json
cmp_json "$T/b.json" "$f"
for d in read write; do
	c=db_$d
	for p in 99 99_9; do
		k=$([ $p = 99 ] && echo 99.000000 || echo 99.900000)
		want=$(jq ".jobs[0].$d.lat_ns.percentile[\"$k\"] / 1e6" "$f")
		check "$d p$p from bins" "$(cell "$T/b.json" "${c}_lat_p$p" fio-randrw-jsonplus)" "$want" 0
	done
	want=$(jq ".jobs[0].$d.iops" "$f")
	check "$d IOPS" "$(cell "$T/b.json" "${c}_iops" fio-randrw-jsonplus)" "$want"
done
jqt "$T/b.json" '.groups[0].threads == 2 and .groups[0].source.format == "fio JSON+, lat"'

log "fio client/server, two servers on 127.0.0.1: one result per host and All clients"
f=$fx/fio-clientserver.json
cmp_json "$T/c.json" "$f"
jqt "$T/c.json" '[.groups[].label] == ["fio-clientserver-127.0.0.1-8765",
	"fio-clientserver-127.0.0.1-8766", "fio-clientserver"]'
for port in 8765 8766; do
	l=fio-clientserver-127.0.0.1-$port
	want=$(jq ".client_stats[] | select(.port == $port and .jobname != \"All clients\") |
		.read.clat_ns.percentile[\"99.000000\"] / 1e6" "$f")
	check "$l p99" "$(cell "$T/c.json" db_read_lat_p99 "$l")" "$want" 0
	want=$(jq ".client_stats[] | select(.port == $port and .jobname != \"All clients\") | .read.iops" "$f")
	check "$l IOPS" "$(cell "$T/c.json" db_read_iops "$l")" "$want"
done
want=$(jq '.client_stats[] | select(.jobname == "All clients") | .read.iops' "$f")
check "All clients IOPS" "$(cell "$T/c.json" db_read_iops fio-clientserver)" "$want"
# fio gives All clients no bins and no percentiles: fslab's come from the hosts' bins, so they
# lie between the hosts' own
p=$(cell "$T/c.json" db_read_lat_p99 fio-clientserver)
a=$(cell "$T/c.json" db_read_lat_p99 fio-clientserver-127.0.0.1-8765)
b=$(cell "$T/c.json" db_read_lat_p99 fio-clientserver-127.0.0.1-8766)
awk -v p="$p" -v a="$a" -v b="$b" 'BEGIN { lo = a < b ? a : b; hi = a < b ? b : a
	exit !(p != "null" && p >= lo && p <= hi) }' || fail "All clients p99 $p not within $a..$b"

log "fio: text before the JSON object (fio's notes) is skipped"
f=$fx/fio-psync-textfirst.json
head -1 "$f" | grep -q '^note:' || fail "fixture lost its leading note"
cmp_json "$T/d.json" "$f" --label "$f=psync"
check "psync IOPS" "$(cell "$T/d.json" db_read_iops psync)" "$(sed 1d "$f" | jq '.jobs[0].read.iops')"
want=$(sed 1d "$f" | jq '.jobs[0].read.clat_ns.percentile["99.000000"] / 1e6')
check "one job without bins: fio's own p99" "$(cell "$T/d.json" db_read_lat_p99 psync)" "$want" 0

log "DiskSpd XML 2.2 (-L -D) and UTF-16 (PowerShell's >): counts, percentiles, CPU, timeline"
f=$fx/diskspd-2.2-ntfs.xml
cmp_json "$T/e.json" "$f" "$fx/diskspd-2.2-refs-utf16.xml" --label "$f=ntfs" \
	--label "$fx/diskspd-2.2-refs-utf16.xml=refs"
reads=$(grep -o '<ReadCount>[0-9]*' "$f" | tr -dc '0-9\n' | awk '{ s += $1 } END { print s }')
secs=$(grep -o '<TestTimeSeconds>[0-9.]*' "$f" | tr -dc '0-9.\n')
check "DiskSpd reads/s" "$(cell "$T/e.json" db_read_iops ntfs)" "$(awk -v r="$reads" -v s="$secs" 'BEGIN { print r / s }')"
want=$(awk '/<Percentile>99<\/Percentile>/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$f")
check "DiskSpd read p99" "$(cell "$T/e.json" db_read_lat_p99 ntfs)" "$want" 0
want=$(awk '/<Average>/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$f")
check "DiskSpd CPU" "$(cell "$T/e.json" cpu ntfs)" "$want" 0
jqt "$T/e.json" '.rows[] | select(.id == "trans_iops") | .cells | all(.method == "batch means")'
jqt "$T/e.json" '.groups | map(.source.host) == ["WIN-NTFS01", "WIN-REFS01"]'
jqt "$T/e.json" '.groups[0].source.version == "2.2"'

log "DiskSpd 2.0.21a without -L: latencies n/a"
cmp_json "$T/f.json" "$fx/diskspd-2.0.21a-ntfs.xml"
[ "$(cell "$T/f.json" db_read_lat_avg diskspd-2.0.21a-ntfs)" = null ] || fail "no -L: latency must be n/a"
[ "$(cell "$T/f.json" db_read_iops diskspd-2.0.21a-ntfs)" != null ] || fail "2.0.21a: no reads/s"

log "Jetstress HTML: achieved IOPS, per-instance sums and rate-weighted latencies, verdict"
f=$fx/Performance_ntfs.html
cmp_json "$T/g.json" "$f" "$fx/Performance_refs.html" --label "$f=ntfs" \
	--label "$fx/Performance_refs.html=refs"
check "achieved IOPS" "$(cell "$T/g.json" trans_iops ntfs)" 611.482
check "db reads/s (2 instances)" "$(cell "$T/g.json" db_read_iops ntfs)" "$(awk 'BEGIN { print 208.441 + 209.117 }')"
check "db read latency" "$(cell "$T/g.json" db_read_lat_avg ntfs)" \
	"$(awk 'BEGIN { print (208.441 * 11.803 + 209.117 * 12.104) / (208.441 + 209.117) }')"
check "refs log writes/s (titles inside the tables)" "$(cell "$T/g.json" log_write_iops refs)" \
	"$(awk 'BEGIN { print 63.012 + 62.871 }')"
[ "$(cell "$T/g.json" verdict ntfs)" = PASS ] || fail "Jetstress Pass"
[ "$(cell "$T/g.json" db_read_lat_p99 ntfs)" = null ] || fail "Jetstress has no percentiles: n/a"
[ "$(cell "$T/g.json" db_read_lat_max ntfs)" = null ] || fail "Jetstress has no maximum: n/a"
check "CPU" "$(cell "$T/g.json" cpu ntfs)" 7.211
cmp_json "$T/h.json" "$fx/Stress_refs_fail.html"
cell "$T/h.json" verdict Stress_refs_fail | grep -q '^FAIL' || fail "Jetstress Fail"
jqt "$T/h.json" '.groups[0].source.format == "Jetstress HTML, Stress"'

log "sizing reads them too"
"$FSLAB" sizing "$fx/Performance_ntfs.html" --label "$fx/Performance_ntfs.html=ntfs" \
	--messages-per-day 150 >"$T/sizing.txt" || fail "sizing of a Jetstress report"
grep -q 'ntfs (611 IOPS)' "$T/sizing.txt" || { cat "$T/sizing.txt"; fail "sizing: achieved IOPS"; }

log "DiskSpd text (2.0.x, 2.2): counts, rates over the actual test time, -L percentiles, CPU"
f=$fx/diskspd-text-2.0-vc-readwrite.txt
cmp_json "$T/t1.json" "$f" "$fx/diskspd-text-2.0-vc-write32t.txt" --allow-mismatch \
	--label "$f=rw" --label "$fx/diskspd-text-2.0-vc-write32t.txt=w32"
secs=$(sed -n 's/^actual test time: *\([0-9.]*\)s$/\1/p' "$f")
# the Read IO table's total line: bytes | I/Os | ...
reads=$(awk '/^Read IO$/ { r = 1 } r && /^total:/ { gsub(/\|/, " "); print $3; exit }' "$f")
check "text reads/s" "$(cell "$T/t1.json" db_read_iops rw)" "$(awk -v r="$reads" -v s="$secs" 'BEGIN { print r / s }')"
want=$(awk '/^total:$/ { c = 1 } c && $1 == "99th" { print $3; exit }' "$f")
check "text read p99" "$(cell "$T/t1.json" db_read_lat_p99 rw)" "$want" 0
want=$(awk '/^total:$/ { c = 1 } c && $1 == "max" { print $5; exit }' "$f")
check "text write max" "$(cell "$T/t1.json" db_write_lat_max rw)" "$want" 0
check "text CPU" "$(cell "$T/t1.json" cpu rw)" 0.82 0
[ "$(cell "$T/t1.json" tool rw)" = "DiskSpd 2.0.x" ] || fail "text: tool row"
[ "$(cell "$T/t1.json" db_read_lat_p99 w32)" = null ] || fail "a write-only run has no read p99"
jqt "$T/t1.json" '.groups[0].source == {"tool":"diskspd","version":"2.0.x",
	"format":"DiskSpd text, 2.0.x layout","host":"QuickTest2"}'
# UTF-16 with a byte order mark (PowerShell's >) and Windows line ends read the same
{ printf '\xff\xfe'; sed 's/$/\r/' "$fx/diskspd-text-2.2-vc-write4t.txt" | iconv -f UTF-8 -t UTF-16LE; } \
	>"$T/ps.txt"
cmp_json "$T/t2.json" "$T/ps.txt" "$fx/diskspd-text-2.2-vc-write4t.txt" --label "$T/ps.txt=ps" \
	--label "$fx/diskspd-text-2.2-vc-write4t.txt=plain"
[ "$(cell "$T/t2.json" db_write_iops ps)" = "$(cell "$T/t2.json" db_write_iops plain)" ] &&
	[ "$(cell "$T/t2.json" db_write_lat_p99 ps)" = 161.752 ] || fail "UTF-16 DiskSpd text"
# text and XML of one DiskSpd version are one tool: only the configuration may differ
expect_status 2 "$FSLAB" compare "$fx/diskspd-2.2-ntfs.xml" "$fx/diskspd-text-2.2-randrw-2targets.txt"
grep -q 'not comparable .*: db-size 2 GiB vs 1 GiB, warmup 2s vs 5s; compare' "$T/stderr" ||
	{ cat "$T/stderr"; fail "DiskSpd text vs XML 2.2: not the db size and warm-up (the only differences)"; }
cmp_json "$T/t3.json" "$fx/diskspd-text-2.1-seq-2timespans.txt" --allow-mismatch
jqt "$T/t3.json" '[.groups[].label] == ["diskspd-text-2.1-seq-2timespans-ts1",
	"diskspd-text-2.1-seq-2timespans-ts2"]'

log "tools are not mixed without --allow-mismatch; one label is one tool"
expect_status 2 "$FSLAB" compare "$fx/diskspd-2.2-ntfs.xml" "$fx/fio-randrw-jsonplus.json" --output "$out"
grep -q 'tool fio 3.33 vs DiskSpd 2.2' "$T/stderr" || { cat "$T/stderr"; fail "mixed tools: not named"; }
[ ! -e "$out" ] || fail "mixed tools: output written"
"$FSLAB" compare "$fx/diskspd-2.2-ntfs.xml" "$fx/fio-randrw-jsonplus.json" --allow-mismatch \
	>"$T/mixed.txt" || fail "--allow-mismatch"
grep -q '^Measured by .*DiskSpd 2.2 .*fio 3.33' "$T/mixed.txt" || fail "mixed: no tool row"
expect_status 2 "$FSLAB" compare "$fx/diskspd-2.2-ntfs.xml" "$fx/fio-randrw-jsonplus.json" \
	--allow-mismatch --label "$fx/fio-randrw-jsonplus.json=diskspd-2.2-ntfs"
grep -q "both labelled 'diskspd-2.2-ntfs' but measured by diskspd and fio" "$T/stderr" ||
	{ cat "$T/stderr"; fail "one label, two tools"; }

log "malformed inputs: exit 2, one line naming the file, nothing written"
bad() { # bad FILE ARGS...
	local name=$1; shift
	expect_status 2 "$FSLAB" "$@" --output "$out"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "$name: expected one line"; }
	grep -qF -- "$name" "$T/stderr" || { cat "$T/stderr"; fail "$name: not named"; }
	[ ! -e "$out" ] || fail "$name: $out written on bad input"
	[ ! -s "$T/stdout" ] || fail "$name: printed a table on bad input"
}
bad fio-truncated.json compare "$fx/fio-truncated.json"
grep -q 'truncated' "$T/stderr" || fail "fio truncated: not said"
printf 'fio: failed parsing job file\n{ "fio version" : "fio-3.33" }\n' >"$T/fio-nojobs.json"
bad fio-nojobs.json compare "$T/fio-nojobs.json"
bad diskspd-truncated.xml compare "$fx/diskspd-truncated.xml"
grep -q 'not well-formed' "$T/stderr" || fail "DiskSpd truncated: not said"
bad diskspd-no-timespan.xml compare "$fx/diskspd-no-timespan.xml"
bad diskspd-2.2-interrupted.xml compare "$fx/diskspd-2.2-interrupted.xml"
grep -q 'interrupted before the measurements began' "$T/stderr" || fail "DiskSpd <Error>: not shown"
"$FSLAB" compare "$fx/diskspd-2.2-interrupted.xml" --allow-aborted >/dev/null ||
	fail "an interrupted DiskSpd run with --allow-aborted"
bad diskspd-text-2.2-vc-rowscut.txt compare "$fx/diskspd-text-2.2-vc-rowscut.txt"
grep -q 'do not add up' "$T/stderr" || fail "DiskSpd text with rows cut: not said"
bad diskspd-text-2.2-vc-threadscut.txt compare "$fx/diskspd-text-2.2-vc-threadscut.txt"
head -c 2500 "$fx/diskspd-text-2.0-vc-readwrite.txt" >"$T/ds-cut.txt"
bad ds-cut.txt compare "$T/ds-cut.txt"
grep -q 'cut or edited' "$T/stderr" || fail "DiskSpd text cut: not said"
sed '/^Results for timespan/,$d' "$fx/diskspd-text-2.2-randrw-2targets.txt" >"$T/ds-params.txt"
bad ds-params.txt compare "$T/ds-params.txt"
grep -q 'without "Results for timespan"' "$T/stderr" || fail "DiskSpd text without results"
bad diskspd-text-2.2-interrupted.txt compare "$fx/diskspd-text-2.2-interrupted.txt"
"$FSLAB" compare "$fx/diskspd-text-2.2-interrupted.txt" --allow-aborted >/dev/null ||
	fail "an interrupted DiskSpd text run with --allow-aborted"
bad Performance_truncated.html compare "$fx/Performance_truncated.html"
printf '<html><body><table><tr><td>Jetstress</td></tr></table></body></html>' >"$T/js-empty.html"
bad js-empty.html compare "$T/js-empty.html"
bad "--label" compare "$fx/diskspd-2.2-ntfs.xml" --label "$fx/nosuch.xml=x"
bad "--label" compare "$fx/diskspd-2.2-ntfs.xml" --label "$fx/diskspd-2.2-ntfs.xml=<b>"
cp "$fx/diskspd-2.2-ntfs.xml" "$T/ntfs run!.xml"
bad "--label" compare "$T/ntfs run!.xml"
expect_status 2 "$FSLAB" sizing "$fx/fio-truncated.json"
grep -q 'fio-truncated.json' "$T/stderr" || fail "sizing: truncated fio JSON not named"

# Issue 16: a valid UTF-16 file that declares encoding="UTF-16" (a re-saved DiskSpd result)
# was refused as damaged.
log "DiskSpd XML in UTF-16 that says so"
{ printf '\xff\xfe'; { printf '<?xml version="1.0" encoding="UTF-16"?>\n'; cat "$fx/diskspd-2.2-ntfs.xml"; } |
	iconv -f UTF-8 -t UTF-16LE; } >"$T/ntfs-u16.xml"
cmp_json "$T/u16.json" "$T/ntfs-u16.xml"
jqt "$T/u16.json" '.groups[0].source.host == "WIN-NTFS01"'

# Markdown from the importers' strings (issue 16): fio's rw= (the workload) and the Jetstress
# machine name (the host) were written into report.md as active links, images and emphasis.
log "Markdown injection through fio rw= and the Jetstress machine name"
jq '.jobs[]["job options"].rw = "[r](javascript:x)*e*"' "$fx/fio-randread-2jobs.json" >"$T/fio-md.json"
sed 's|<td>EXMBX-NTFS</td>|<td>![i](http://evil.example/j.png)_x_</td>|' "$fx/Performance_ntfs.html" >"$T/Performance_md.html"
grep -q 'evil.example' "$T/Performance_md.html" || fail "the machine name was not planted"
expect_status 0 "$FSLAB" compare --allow-mismatch --no-charts --output "$out" "$T/fio-md.json" "$T/Performance_md.html"
grep -qF 'fio:\[r\](javascript:x)\*e\*' "$out/report.md" || fail "report.md: fio's rw= not shown escaped"
grep -qF '| \!\[i\](http://evil.example/j.png)\_x\_ |' "$out/report.md" || fail "report.md: the machine name not shown escaped"
! grep -qP '(?<!\\)\]\(' "$out/report.md" || { grep -P '(?<!\\)\]\(' "$out/report.md"; fail "report.md: a link from an imported file"; }
rm -rf "$out"

# An entity expanded when the importer reads the text: a 100,000-character entity used 3000
# times took 9 s and 320 MB (17 s, 590 MB here) from a 150 KB file.  Refused at once.
log "DiskSpd XML with entities: refused, fast, in little memory"
command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is missing (Debian package time, scripts/deps.sh)"
{ printf '<!DOCTYPE Results [<!ENTITY big "%s">]>\n' "$(head -c 100000 /dev/zero | tr '\0' x)"
  sed "s|<ComputerName>WIN-NTFS01</ComputerName>|<ComputerName>$(printf '&big;%.0s' $(seq 3000))</ComputerName>|" \
	"$fx/diskspd-2.2-ntfs.xml"; } >"$T/laughs.xml"
/usr/bin/time -f '%e %M' -o "$T/time" "$FSLAB" compare "$T/laughs.xml" >"$T/stdout" 2>"$T/stderr" &&
	fail "entities: accepted"
grep -q 'laughs.xml: XML that declares entities' "$T/stderr" || { cat "$T/stderr"; fail "entities: not named"; }
read -r secs rss < <(tail -1 "$T/time")
[ "$rss" -lt $((64 * 1024)) ] || fail "entities: $((rss / 1024)) MiB resident"
awk -v s="$secs" 'BEGIN { exit !(s < 5) }' || fail "entities: $secs s"

# Thousands of results or instances in one file: the importers are linear (fio client_stats
# of 8,000 hosts took 20 s, 20,000 did not finish in 120 s), and a count beyond what fslab
# reads is refused naming the limit and the count.  Linear is checked by the CPU seconds of
# N and 4N: 4 times (at most 8 allowed: a shared machine) where pairwise code takes 16.
cpu_of() { # cpu_of ARGS...: fslab's user + system seconds (any exit status), RSS in $rss
	/usr/bin/time -f '%U %S %M' -o "$T/time" "$FSLAB" "$@" >"$T/stdout" 2>"$T/stderr" || true
	read -r u s rss < <(tail -1 "$T/time")
	awk -v u="$u" -v s="$s" 'BEGIN { print u + s }'
}
linear() { # linear WHAT SMALL LARGE: LARGE (4 times the input) costs at most 8 times SMALL
	log "$1: $2 s for N, $3 s for 4N"
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(b <= 8 * (a > 0.05 ? a : 0.05)) }' ||
		fail "$1: 4 times the input took $3 s against $2 s: not linear"
}
fio_hosts() { # fio_hosts N FILE: client_stats of N hosts (the first entry's copies) + All clients
	{ jq -c 'del(.client_stats)' "$fx/fio-clientserver.json" | sed 's/}$//'
	  printf ', "client_stats": ['
	  jq -c '.client_stats[0] | del(.. | .bins?)' "$fx/fio-clientserver.json" |
		awk -v n="$1" '{ for (i = 0; i < n; i++) { e = $0
			sub(/"hostname":"[^"]*"/, sprintf("\"hostname\":\"10.%d.%d.%d\"", i / 62500, i / 250 % 250, i % 250), e)
			printf "%s,", e } }'
	  jq -c '.client_stats[-1] | del(.. | .bins?)' "$fx/fio-clientserver.json"
	  printf ']}\n'; } >"$2"
}
log "fio client_stats of thousands of hosts"
fio_hosts 2500 "$T/fio-2500.json"
fio_hosts 10000 "$T/fio-10000.json"
a=$(cpu_of compare "$T/fio-2500.json")
b=$(cpu_of compare "$T/fio-10000.json")
grep -q '10.0.39.249' "$T/stdout" || { tail -3 "$T/stderr"; fail "fio 10000 hosts: not compared"; }
linear "fio client_stats" "$a" "$b"
[ "$rss" -lt $((1024 * 1024)) ] || fail "fio 10000 hosts: $((rss / 1024)) MiB resident"
fio_hosts 20000 "$T/fio-20000.json"
bad "fio client_stats of 20000 hosts, more than the 10000 results" compare "$T/fio-20000.json"
rm -f "$T"/fio-*.json

js_instances() { # js_instances N FILE: Performance_ntfs.html with N instances in every table
	awk -v n="$1" '/grid_row_header">Instance4312\.2</ { next }
		/grid_row_header">Instance4312\.1</ { for (i = 0; i < n; i++) { l = $0
			sub(/Instance4312\.1/, "Instance" i, l); print l }; next } { print }' \
		"$fx/Performance_ntfs.html" >"$2"
}
log "Jetstress reports of thousands of instances"
js_instances 2500 "$T/Performance_2500.html"
js_instances 10000 "$T/Performance_10000.html"
a=$(cpu_of compare "$T/Performance_2500.html")
b=$(cpu_of compare "$T/Performance_10000.html")
grep -q 'verdict: Performance PASS' "$T/stdout" || { tail -3 "$T/stderr"; fail "Jetstress 10000 instances: not compared"; }
linear "Jetstress instances" "$a" "$b"
js_instances 10001 "$T/Performance_10001.html"
bad "a Jetstress report of 10001 database instances, more than the 10000" compare "$T/Performance_10001.html"
rm -f "$T"/Performance_*.html

ds_timespans() { # ds_timespans N FILE: a DiskSpd XML of N small result TimeSpans
	{ sed -n '1,/<\/Profile>/p' "$fx/diskspd-2.2-ntfs.xml"
	  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "<TimeSpan><TestTimeSeconds>10.00</TestTimeSeconds><ThreadCount>1</ThreadCount><Thread><Target><ReadCount>%d</ReadCount><ReadBytes>%d</ReadBytes><WriteCount>0</WriteCount><WriteBytes>0</WriteBytes></Target></Thread></TimeSpan>\n", 1000 + i, 32768 * (1000 + i) }'
	  echo '</Results>'; } >"$2"
}
log "DiskSpd XML of thousands of TimeSpans"
ds_timespans 2500 "$T/ds-2500.xml"
ds_timespans 10000 "$T/ds-10000.xml"
a=$(cpu_of compare --allow-mismatch "$T/ds-2500.xml")
b=$(cpu_of compare --allow-mismatch "$T/ds-10000.xml")
grep -q 'ds-ts10000' "$T/stdout" || { tail -3 "$T/stderr"; fail "DiskSpd 10000 TimeSpans: not compared"; }
linear "DiskSpd TimeSpans" "$a" "$b"
# without --allow-mismatch: the first 20 named, the rest counted (not 10000 lines)
expect_status 2 "$FSLAB" compare "$T/ds-10000.xml"
[ "$(wc -l <"$T/stderr")" -eq 21 ] || fail "DiskSpd 10000 TimeSpans: $(wc -l <"$T/stderr") error lines"
grep -q '\.\.\. and 9979 more results not comparable' "$T/stderr" || fail "DiskSpd: the rest not counted"
ds_timespans 10001 "$T/ds-10001.xml"
bad "DiskSpd XML of 10001 result <TimeSpan>s, more than the 10000" compare "$T/ds-10001.xml"
rm -f "$T"/ds-*.xml
echo "t_import: ok"
