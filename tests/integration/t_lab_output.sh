#!/bin/bash
# SPDX-License-Identifier: MIT
# t_lab_output: `fslab lab --output DIR` works only in a directory it made: a new or empty one
# (which it marks), or its own lab's being resumed.  A user's non-empty directory, directly
# or through a symbolic link, is refused with exit 2 naming it and the fix, with or without
# --resume or --dry-run, and nothing in it changes (issue 16 item 6: the lab deleted the
# user's results/*.json.tmp.*, overwrote report/report.md and appended to their lab.log).
# --resume refuses a config changed since the lab started and a damaged recorded plan.
# Refused before anything is made: a value cut at an inline comment (a quoted one is kept
# whole), a host's result and a cell's cluster result under one file name, two ssh = local
# hosts with one workdir, the output inside a db_dir or log_dir.
. "$(dirname "$0")/lib.sh"

cat > $T/lab.ini <<EOT
[lab]
order = interleaved
[devices]
image_dir = $T/images
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 128M
duration = 2s
warmup = 1s
[fs ext4]
EOT
# a user's directory that happens to look like a lab's
user=$T/user
mkdir -p $user/results $user/report $user/mnt
echo "half of my own work" > $user/results/x.json.tmp.123
echo "# my report" > $user/report/report.md
echo "my notes" > $user/lab.log
snapshot() { (cd "$1" && find . -printf '%p %y %s\n' | sort && find . -type f -exec sha256sum {} + | sort); }
before=$(snapshot $user)
unchanged() {
	[ "$(snapshot $user)" = "$before" ] || fail "$1: the user's directory changed: $(diff <(echo "$before") <(snapshot $user))"
}
refused() { # refused NAME ARGS...: exit 2, the directory and the fix named, nothing changed
	local name=$1; shift
	expect_status 2 "$FSLAB" lab $T/lab.ini "$@"
	grep -q -- "--output $name.*not empty and was not made by fslab lab" $T/stderr ||
		fail "$*: message: $(cat $T/stderr)"
	grep -q "name a new or empty directory" $T/stderr || fail "$*: no fix named: $(cat $T/stderr)"
	unchanged "$*"
	echo "ok: refused $*"
}

log "a user's non-empty directory is refused"
refused $user --output $user
refused $user --output $user --resume
refused $user --output $user --dry-run
log "also through a symbolic link"
ln -s $user $T/link
refused $T/link --output $T/link
grep -q "a link to $user" $T/stderr || fail "the link's target not named: $(cat $T/stderr)"
log "[lab] output in the config too"
cp $T/lab.ini $T/lab-out.ini
sed -i "s|^\[lab\]|[lab]\noutput = $user|" $T/lab-out.ini
expect_status 2 "$FSLAB" lab $T/lab-out.ini
grep -q "not made by fslab lab" $T/stderr || fail "[lab] output: $(cat $T/stderr)"
unchanged "[lab] output"
log "a file, and a link to nothing"
touch $T/file
expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/file
grep -q "is not a directory" $T/stderr || fail "file: $(cat $T/stderr)"
ln -s $T/nothing $T/dangling
expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/dangling
grep -q "symbolic link to nothing" $T/stderr || fail "dangling link: $(cat $T/stderr)"
[ ! -e $T/nothing ] || fail "the dangling link's target was created"

log "an empty directory, reached through a link, is the lab's to use"
mkdir $T/empty
ln -s $T/empty $T/emptylink
"$FSLAB" lab $T/lab.ini --output $T/emptylink > $T/lab.out 2>&1 || { cat $T/lab.out; fail "lab in an empty directory failed"; }
[ -f $T/empty/.fslab-lab ] && [ -s $T/empty/report/report.md ] || fail "no marker or report in the empty directory"
jqt $T/empty/.fslab-lab '.schema == "fslab-lab-dir/1"'
log "its own lab: without --resume the lab says what is there, with --resume it continues"
expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/emptylink
grep -q "already holds a lab .* that finished with 1 of 1 cell(s) done: continue it with: fslab lab $T/lab.ini --output $T/emptylink --resume" $T/stderr ||
	fail "own lab: $(cat $T/stderr)"
expect_status 0 "$FSLAB" lab $T/lab.ini --output $T/emptylink --resume
# another config pointed at it: the message names the lab's own config and command
sed 's/^duration = 2s/duration = 3s/' $T/lab.ini > $T/other.ini
expect_status 2 "$FSLAB" lab $T/other.ini --output $T/emptylink
grep -qF "continue it with: fslab lab $T/lab.ini --output $T/emptylink --resume" $T/stderr ||
	fail "another config: $(cat $T/stderr)"
log "--resume refuses a changed config and a damaged plan, and changes nothing"
st=$T/empty/lab-state.json
sum=$(sha256sum < $st)
cp $T/other.ini $T/lab.ini.new && cp $T/lab.ini $T/lab.ini.orig && mv $T/lab.ini.new $T/lab.ini
expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/emptylink --resume
grep -q "$T/lab.ini changed since this lab started in $T/emptylink: a resumed lab must run the same cells" $T/stderr ||
	fail "changed config: $(cat $T/stderr)"
mv $T/lab.ini.orig $T/lab.ini
cp $st $T/state.orig
for damage in '.cells[0].id = "nonesuch"' '.order = "sideways"' '.cells += .cells'; do
	jq "$damage" $T/state.orig > $st
	sum_d=$(sha256sum < $st)
	expect_status 2 "$FSLAB" lab $T/lab.ini --output $T/emptylink --resume
	grep -q "lab-state.json: the recorded plan does not match the cells of $T/lab.ini; start a new lab with another --output" $T/stderr ||
		fail "damaged plan ($damage): $(cat $T/stderr)"
	[ "$(sha256sum < $st)" = "$sum_d" ] || fail "the damaged state was rewritten ($damage)"
done
cp $T/state.orig $st
[ "$(sha256sum < $st)" = "$sum" ] || fail "state not restored"
echo "ok: changed config and damaged plans refused"
log "a lab stopped before it recorded a state: its marked directory is its own"
mkdir -p $T/early/logs
cp $T/empty/.fslab-lab $T/early/
echo "an early line" > $T/early/lab.log
expect_status 0 "$FSLAB" lab $T/lab.ini --output $T/early --dry-run
unchanged "the end"

# Configs that would have run against the wrong thing, refused before anything is made:
# a value cut at an inline comment, two names for one result file, one workdir for two
# hosts, the output inside a directory each cell empties.
cfg_err() { # cfg_err NEEDLE CONFIG ARGS...: exit 2 naming NEEDLE, nothing created
	local needle=$1 cfg=$2; shift 2
	expect_status 2 "$FSLAB" lab "$cfg" "$@"
	grep -qF -- "$needle" $T/stderr || fail "$cfg: expected '$needle', got: $(cat $T/stderr)"
	[ ! -e $T/never ] && [ ! -e "$T/lun #2" ] || fail "$cfg: refused, but something was created"
	echo "ok: $needle"
}
log "a value with an inline-comment character: quoted, or refused"
prep_ini() { # prep_ini FILE DB-DIR-LINE: a lab on a directory the user prepared
	printf '[workload]\nthreads = 2\ndb_size = 64M\nduration = 2s\n[fs lun]\n%s\nlog_dir = %s/log\n' \
		"$2" "$T" > "$1"
}
prep_ini $T/hash.ini "db_dir = $T/lun #2/db"
cfg_err "hash.ini:6: '#2/db' reads as a comment" $T/hash.ini --output $T/never --dry-run
prep_ini $T/quoted.ini "db_dir = \"$T/lun #2/db\"   ; the second LUN"
expect_status 0 "$FSLAB" lab $T/quoted.ini --output $T/never --dry-run
grep -qF -- "--db=$T/lun #2/db" $T/stdout || fail "quoted db_dir: $(grep -e --db $T/stdout)"
[ ! -e $T/never ] && [ ! -e "$T/lun #2" ] || fail "a dry run created something"
echo "ok: a quoted db_dir keeps its '#'"
log "a host's result and another cell's cluster result under one name"
cat > $T/names.ini <<EOT
[workload]
threads = 2
db_size = 64M
duration = 2s
[fs ext4]
[fs ext4-2t-r1.x]
fs = ext4
[host x-2t-r1]
ssh = local
image_dir = $T/img
EOT
cfg_err "would both be results/ext4-2t-r1.x-2t-r1.json" $T/names.ini --output $T/never --dry-run
log "two ssh = local hosts with one workdir"
printf '[workload]\ndb_size = 64M\n[fs ext4]\n[host a]\nssh = local\nworkdir = %s/w\nimage_dir = %s/ia\n[host b]\nssh = local\nworkdir = %s/w\nimage_dir = %s/ib\n' \
	$T $T $T $T > $T/workdir.ini
cfg_err "the same workdir = $T/w" $T/workdir.ini --output $T/never --dry-run
log "the lab's output inside a db_dir"
prep_ini $T/inside.ini "db_dir = $T/lun/db"
cfg_err "--output $T/lun/db/out is inside [fs lun] db_dir = $T/lun/db" $T/inside.ini --output $T/lun/db/out --dry-run
cfg_err "--output $T/log is inside [fs lun] log_dir = $T/log" $T/inside.ini --output $T/log
[ ! -e $T/lun ] && [ ! -e $T/log ] || fail "a refused lab created a directory"
unchanged "the end"
echo "all good"
