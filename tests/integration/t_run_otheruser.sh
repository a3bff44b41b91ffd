#!/bin/bash
# SPDX-License-Identifier: MIT
# t_run_otheruser: root runs fslab in directories another user may write (the --db and --log
# directories of run --fresh, selftest's --dir), while that user (nobody, through setpriv)
# plants symbolic links and exchanges folders for links as fast as it can (otheruser.py), or
# leaves files that merely look like fslab's by name.  Whatever fslab does (refuse, fail, or
# measure), no file outside its own is touched: canaries with checksums outside the
# directories (a root-only file, a folder of Exchange-named logs, a file of 64 KiB of zeros
# then data) and the other user's files and links inside them stay as they were.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3 # the system's, which the other user may run
[ -x $PY ] || skip "$PY is missing (apt-get install python3)"
command -v setpriv >/dev/null || skip "setpriv is missing (apt-get install util-linux)"
getent passwd nobody >/dev/null && getent group nogroup >/dev/null ||
	skip "no user nobody / group nogroup to play the other user"

_att=""
att_cleanup() {
	local rc=$?
	set +e
	for p in $_att; do kill "$p" 2>/dev/null; done
	(exit $rc)
	cleanup
}
trap att_cleanup EXIT

chmod 0755 "$T" # the other user reaches its directories under it
OTHER=$T/otheruser.py
install -m 0644 "$(dirname "$0")/otheruser.py" "$OTHER"
as_other() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# other SECONDS MODE ARGS...: the other user's attack in the background ($_att)
# (at a higher priority than fslab's: the machine may be busy, the other user never is)
other() { nice -n -10 setpriv --reuid=nobody --regid=nogroup --clear-groups $PY "$OTHER" "$2" "$1" "${@:3}" & _att="$_att $!"; sleep 0.3; }
other_stop() { for p in $_att; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; _att=""; }

dev=$(new_loop 512M)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
mkdir -p "$T/vol" && mount "$dev" "$T/vol" && track_mount "$T/vol"
DB=$T/vol/db LOG=$T/vol/log
# the other user's directories: it may create, rename and delete any name in them
install -d -o nobody -g nogroup -m 0755 "$DB" "$LOG"

# canaries outside the directories: root's, and what the other user points links at
SECRET=$T/secret EXCH=$T/exchange ZERO=$T/zero64k
head -c 65536 /dev/urandom >"$SECRET" && chmod 0600 "$SECRET"
mkdir -p "$EXCH"
for n in E00.log E00tmp.log E000000000A.log E000000000B.log; do head -c 8192 /dev/urandom >"$EXCH/$n"; done
{ head -c 65536 /dev/zero; head -c 65536 /dev/urandom; } >"$ZERO"
canaries() { (cd "$T" && find secret exchange zero64k -printf '%p %y %m\n' | sort && sha256sum secret exchange/* zero64k); }
CANARIES=$(canaries)
check_canaries() {
	[ "$(canaries)" = "$CANARIES" ] || { diff <(echo "$CANARIES") <(canaries) >&2; fail "$1: a file outside fslab's own was touched"; }
}

RUN=("$FSLAB" run --db "$DB" --log "$LOG" --db-size 16M --threads 2 --duration 1s --warmup 0
	--no-checksum-pass --fresh --output "$T/r.json")
# clean_run [ARGS]: a run nobody interferes with: fslab's databases and log folders exist after it
clean_run() {
	rm -rf "${DB:?}"/* "${LOG:?}"/* "$DB"/.f* "$LOG"/.f*
	local rc=0
	"${RUN[@]}" "$@" >"$T/clean.out" 2>&1 || rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/clean.out"; fail "a run nobody interfered with: exit $rc"; }
	[ -f "$DB/fslab-db1.edb" ] && [ -d "$LOG/fslab-db1-logs" ] ||
		fail "the clean run made no database or log folder"
}
# attacked_run WHAT: run (any exit status but a crash), then the canaries
attacked_run() {
	local rc=0
	"${RUN[@]}" "${@:2}" >"$T/att.out" 2>&1 || rc=$?
	[ $rc -lt 4 ] || { cat "$T/att.out"; fail "$1: exit $rc"; }
	echo "   $1: fslab exit $rc: $(grep -m1 'fslab: error' "$T/att.out" || echo ok)"
	check_canaries "$1"
}

log "items 1, 2: a database and a log folder, once --fresh deleted them, become links"
# two databases: the second is created after the first, a window of a few hundred ms
for i in 1 2; do
	clean_run --databases 2
	other 30 plant "$DB/fslab-db2.edb" "$SECRET" "$LOG/fslab-db1-logs" "$EXCH"
	attacked_run "links planted after the deletion (round $i)" --databases 2
	other_stop
done

log "item 3: links named like fslab's files with allow_foreign_files"
clean_run
rm -rf "$DB/fslab-db1.edb" "$LOG/fslab-db1-logs"
as_other ln -s "$ZERO" "$DB/fslab-db1.edb"
as_other ln -s "$EXCH" "$LOG/fslab-db1-logs"
attacked_run "links with --allow-foreign-files" --allow-foreign-files
[ "$(readlink "$DB/fslab-db1.edb")" = "$ZERO" ] && [ "$(readlink "$LOG/fslab-db1-logs")" = "$EXCH" ] ||
	fail "the other user's links were changed"

log "item 4: files that merely look like fslab's by name are not fslab's"
rm -rf "${DB:?}"/* "${LOG:?}"/*
cp "$ZERO" "$DB/fslab-db2.edb"            # 64 KiB of zeros, then data
: >"$DB/fslab-db3.edb"                     # empty
echo "a note" >"$DB/fslab-probe-1.tmp"
echo '{"mine": true}' >"$DB/.fslab-selftest.json"
head -c 8192 /dev/urandom >"$DB/.fslab-selftest.77"
mkdir "$LOG/fslab-db2-logs" && cp "$EXCH"/* "$LOG/fslab-db2-logs/"
mkdir "$LOG/fslab-db3-logs"                # empty, but not this user's
chown -R nobody:nogroup "$DB" "$LOG"
looks() { (cd "$T/vol" && find db log -printf '%p %y %u\n' | sort && find db log -type f -exec sha256sum {} + | sort); }
LOOKS=$(looks)
rc=0
"${RUN[@]}" >"$T/look.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || { cat "$T/look.out"; fail "lookalikes without --allow-foreign-files: exit $rc, expected 2"; }
grep -q "which fslab did not make" "$T/look.out" || fail "the lookalikes were not named: $(cat "$T/look.out")"
[ "$(looks)" = "$LOOKS" ] || fail "a file that only looks like fslab's was changed or deleted"
rc=0
"${RUN[@]}" --allow-foreign-files >"$T/look2.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/look2.out"; fail "lookalikes with --allow-foreign-files: exit $rc"; }
rm -rf "$DB/fslab-db1.edb" "$LOG/fslab-db1-logs"
[ "$(looks)" = "$LOOKS" ] || fail "--allow-foreign-files: a file that only looks like fslab's was touched"
check_canaries "lookalikes"

log "item 5: the log folder exchanged for a link while --fresh looks at it and deletes it"
# (the link lives next to the folder, renameat2 exchanges names in one directory: the lab's
# allow_foreign_files lets the run go on)
clean_run
EXCH2=$T/exchange2
mkdir -p "$EXCH2" && cp "$EXCH"/* "$EXCH2"/
SUM2=$(cd "$EXCH2" && sha256sum ./* | sort)
as_other ln -s "$EXCH2" "$LOG/.swap"
other 60 swap "$LOG/fslab-db1-logs" "$LOG/.swap"
for i in 1 2 3 4 5 6; do
	attacked_run "folder and link exchanged (run $i)" --allow-foreign-files
	[ "$(cd "$EXCH2" && sha256sum ./* | sort)" = "$SUM2" ] || fail "exchanged folder: $EXCH2 was touched (run $i)"
done
other_stop
rm -rf "$LOG/.swap" # the folder or the link, whichever the last exchange left there

log "the recovery workload's checkpoint file (E00.chk): a link at its name is never followed"
# a log folder of fslab's that the other user may write (it owns it: a shared folder), and a
# checkpoint file fslab wrote there: a recovery load killed with kill -9
REC=("$FSLAB" run --workload recovery --db "$DB" --log "$LOG" --db-size 16M --threads 2
	--no-checksum-pass --output "$T/rec.json")
L=$LOG/fslab-db1-logs
clean_run
"${REC[@]}" --recovery-logs 400 >"$T/rec-load.out" 2>&1 &
rpid=$!
# (its checkpoint comes once it cleared the clean run's logs, then its own logs)
until_true 60 test -e "$L/E00.chk" && until_true 60 test -e "$L/E0000000002.log" ||
	{ kill -9 $rpid; fail "the recovery load left no checkpoint or no logs"; }
kill -9 $rpid; wait $rpid 2>/dev/null || true
[ -f "$L/E00.chk" ] || fail "the killed load left no checkpoint file"
chown -R nobody:nogroup "$L"
cp "$L/E00.chk" "$T/ckpt-copy" # fslab's text for this folder, outside it
# rec_refused WHAT: the recovery run refuses the folder (exit 2), nothing outside touched
rec_refused() {
	local rc=0
	"${REC[@]}" >"$T/rec.out" 2>&1 || rc=$?
	[ $rc -eq 2 ] && grep -q "is not a log folder fslab made there" "$T/rec.out" ||
		{ cat "$T/rec.out"; fail "$1: exit $rc, expected 2 refusing the log folder"; }
	check_canaries "$1"
}
# a link to a copy of fslab's own checkpoint: were it followed, the run would replay (exit 0)
as_other ln -sfn "$T/ckpt-copy" "$L/E00.chk"
rec_refused "E00.chk a link to fslab's own checkpoint text"
[ "$(readlink "$L/E00.chk")" = "$T/ckpt-copy" ] && cmp -s "$T/ckpt-copy" "$L/E00.chk" ||
	fail "the other user's link was changed"
as_other ln -sfn "$SECRET" "$L/E00.chk"
rec_refused "E00.chk a link to a root-only file"
as_other rm "$L/E00.chk"
echo "fslab checkpoint/2 but mine" | as_other tee "$L/E00.chk" >/dev/null
rec_refused "E00.chk a file of the other user's"
[ "$(cat "$L/E00.chk")" = "fslab checkpoint/2 but mine" ] || fail "the other user's E00.chk was changed"
# the same text as a regular file is fslab's (known by what it says): the replay runs
as_other rm "$L/E00.chk"
cp "$T/ckpt-copy" "$L/E00.chk"
rc=0
"${REC[@]}" >"$T/rec.out" 2>&1 || rc=$?
[ $rc -eq 0 ] && grep -q "the logs of an earlier recovery run that did not finish" "$T/rec.out" ||
	{ cat "$T/rec.out"; fail "fslab's own checkpoint text: exit $rc, expected the replay"; }
[ ! -e "$L/E00.chk" ] || fail "the replayed checkpoint file stayed"
# a new load: links planted at the checkpoint's names once fslab cleared the folder (after
# it looked at them, before it writes them)
[ -f "$L/E00.log" ] || fail "no E00.log left to clear"
other 30 after "$L/E00.log" "$L/E00.chk" "$SECRET" "$L/E00tmp.chk" "$SECRET"
rc=0
"${REC[@]}" --recovery-logs 2 >"$T/rec.out" 2>&1 || rc=$?
other_stop
echo "   links planted after the clear: fslab exit $rc: $(grep -m1 'fslab: error' "$T/rec.out" || echo ok)"
[ $rc -lt 4 ] || { cat "$T/rec.out"; fail "links planted after the clear: exit $rc"; }
check_canaries "links at the checkpoint's names planted after the clear"
for n in E00.chk E00tmp.chk; do
	if [ -L "$L/$n" ]; then
		[ "$(readlink "$L/$n")" = "$SECRET" ] || fail "the other user's link $n was changed"
	fi
done
[ $rc -eq 0 ] || [ -L "$L/E00.chk" ] || [ -L "$L/E00tmp.chk" ] ||
	fail "the run failed, yet no link was planted: $(cat "$T/rec.out")"

log "item 6: selftest's test file names planted as links to a root-only file"
rm -rf "${DB:?}"/* "$DB"/.f*
# a pid namespace of its own: selftest is pid 1 there, or a little above
for p in $(seq 1 20); do as_other ln -s "$SECRET" "$DB/.fslab-selftest.$p"; done
rc=0
unshare --pid --fork --mount-proc "$FSLAB" selftest --dir "$DB" --size 1M >"$T/st.out" 2>&1 || rc=$?
[ $rc -lt 4 ] || { cat "$T/st.out"; fail "selftest: exit $rc"; }
echo "   selftest exit $rc: $(grep -m1 'test file' "$T/st.out")"
check_canaries "selftest"
[ "$(find "$DB" -maxdepth 1 -name '.fslab-selftest.*' -type l | wc -l)" -eq 20 ] ||
	fail "selftest changed the other user's links"
echo "all good"
