#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_race.sh: two preps on one --image-dir at once (issue 16 item 1).  The loser is
# refused (exit 2, naming the prep that holds the directory, or the image that exists), and
# its rollback removes nothing of the winner's: the winner's images stay, attached to its
# loop devices (not "(deleted)") and its volumes stay usable.  Raced many times, with the
# image directory present and absent; then once held deterministically at a known step.
. "$(dirname "$0")/lib.sh"

IMG=$T/img

# winner_ok MNT: the prep on MNT is intact: its images exist and are what its loop devices
# are backed by, and its db volume takes a write
winner_ok() {
	local m=$1 role dev back
	for role in db log; do
		dev=$(jq -r ".volumes.$role.device" "$m/prep.json")
		back=$(losetup -n -O BACK-FILE "$dev" | sed 's/ *$//')
		[ "$back" = "$IMG/$role.img" ] || fail "$2: $dev is backed by '$back', not $IMG/$role.img"
		[ -f "$IMG/$role.img" ] || fail "$2: the winner's $IMG/$role.img is gone"
		[ "$(stat -c %i "$IMG/$role.img")" = "$(losetup -n -O BACK-INO "$dev" | tr -d ' ')" ] ||
			fail "$2: $IMG/$role.img is not the file $dev is backed by"
	done
	echo x >"$m/db/probe" && sync "$m/db/probe" || fail "$2: the winner's db volume is broken"
	rm -f "$m/db/probe"
}
ours_loops() { losetup -n -O BACK-FILE | grep -c "^$IMG/" || true; }

for i in 1 2 3 4 5 6; do
	rm -rf "$IMG"
	# odd rounds: the directory exists (the lock is taken during the checks); even rounds:
	# both preps create it
	[ $((i % 2)) -eq 1 ] && mkdir "$IMG"
	"$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M --log-size 64M \
		--mount-root "$T/m1" >"$T/o1" 2>"$T/e1" &
	p1=$!
	"$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M --log-size 64M \
		--mount-root "$T/m2" >"$T/o2" 2>"$T/e2" &
	p2=$!
	r1=0 r2=0
	wait $p1 || r1=$?
	wait $p2 || r2=$?
	if [ $r1 -eq 0 ] && [ $r2 -ne 0 ]; then w=1 l=2 rl=$r2 pw=$p1
	elif [ $r2 -eq 0 ] && [ $r1 -ne 0 ]; then w=2 l=1 rl=$r1 pw=$p2
	else cat "$T/e1" "$T/e2"; fail "round $i: prep exits $r1 and $r2, want one 0 and one refusal"
	fi
	[ "$rl" -eq 2 ] || { cat "$T/e$l"; fail "round $i: the loser exited $rl, want 2 (refused)"; }
	grep -Eq "in use by another fslab prep \\(pid $pw\\)|$IMG/db.img already exists|$IMG/(db|log).img (already exists|appeared)" \
		"$T/e$l" || { cat "$T/e$l"; fail "round $i: the loser does not say why"; }
	winner_ok "$T/m$w" "round $i"
	[ ! -e "$T/m$l" ] || fail "round $i: the loser left its mount root"
	echo "round $i: prep $w won, the loser said: $(grep -m1 error "$T/e$l")"
	"$FSLAB" teardown --mount-root "$T/m$w" >/dev/null
	[ "$(ours_loops)" -eq 0 ] || fail "round $i: loop devices left after teardown"
	[ ! -e "$IMG/db.img" ] && [ ! -e "$IMG/log.img" ] || fail "round $i: images left"
done

log "an image that appears after the checks is not this prep's: refused, left alone"
mkdir -p "$IMG"
echo "the user's" >"$T/user"
FSLAB_TEST_PREP_STALL=state FSLAB_TEST_PREP_STALL_S=3 "$FSLAB" prep --fs ext4 --image-dir "$IMG" \
	--db-size 64M --log-size 64M --mount-root "$T/m1" 2>"$T/e1" &
p1=$!
for _ in $(seq 300); do
	grep -q "stalled after step state" "$T/e1" && break
	kill -0 $p1 2>/dev/null || { cat "$T/e1"; fail "prep exited before its record"; }
	sleep 0.1
done
cp "$T/user" "$IMG/db.img"
rc=0; wait $p1 || rc=$?
cat "$T/e1"
[ $rc -eq 2 ] || fail "prep with its image name taken exited $rc, want 2"
grep -q "$IMG/db.img appeared after the checks" "$T/e1" || fail "prep does not say why"
cmp -s "$T/user" "$IMG/db.img" || fail "the rollback removed or changed a file it did not create"
[ "$(ours_loops)" -eq 0 ] && [ ! -e "$IMG/log.img" ] && [ ! -e "$T/m1" ] || fail "the rollback left something"
rm -f "$IMG/db.img"

log "a prep holding the image directory: the second is refused, naming it, and takes nothing"
mkdir -p "$IMG"
FSLAB_TEST_PREP_STALL=attach "$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M \
	--log-size 64M --mount-root "$T/m1" 2>"$T/e1" &
p1=$!
for _ in $(seq 300); do
	grep -q "stalled after step attach" "$T/e1" && break
	kill -0 $p1 2>/dev/null || { cat "$T/e1"; fail "prep exited before attach"; }
	sleep 0.1
done
expect_status 2 "$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M --log-size 64M \
	--mount-root "$T/m2" --force
grep -q "$IMG is in use by another fslab prep (pid $p1)" "$T/stderr" ||
	fail "the refusal does not name the holder: $(cat "$T/stderr")"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "more than one line: $(cat "$T/stderr")"
[ "$(ours_loops)" -eq 2 ] || fail "the holder's loop devices changed: $(losetup -a)"
[ ! -e "$T/m2" ] || fail "the refused prep created its mount root"
kill -TERM $p1
wait $p1 || true
[ "$(ours_loops)" -eq 0 ] || fail "loop devices left after the holder rolled back"
log "ok"
