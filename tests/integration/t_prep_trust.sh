#!/bin/bash
# SPDX-License-Identifier: MIT
# t_prep_trust.sh: teardown acts only on what this machine's prep record proves prep made
# (issue 16 item 3).  A state file planted in a mount root (or copied there with a lab
# directory from another machine), a user's own prep under the lab's OUT/mnt, and a user's
# file put where a recorded image was: nothing of the user's is unmounted, detached or
# deleted (byte-identical afterwards), and teardown says what it leaves alone and why.
. "$(dirname "$0")/lib.sh"

MNT=$T/mnt IMG=$T/img U=$T/user
mkdir -p "$U"
sum() { sha256sum "$1" | cut -d' ' -f1; }

log "the record is kept by this machine, not in the mount root"
"$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M --log-size 64M --mount-root "$MNT" \
	>/dev/null 2>&1 || fail "prep failed"
[ ! -e "$MNT/.fslab-prep-state.json" ] || fail "the record is in the mount root"
rec=$(grep -ls "\"mount_root\": \"$MNT\"" /var/lib/fslab/prep-state/*.json)
[ -n "$rec" ] || fail "no record in /var/lib/fslab/prep-state"
[ "$(stat -c '%U %a' /var/lib/fslab/prep-state)" = "root 700" ] || fail "record directory mode"
[ "$(stat -c '%U %a' "$rec")" = "root 600" ] || fail "record mode: $(stat -c '%U %a' "$rec")"
jqt "$rec" '.schema == "fslab-prep-state/2" and (.volumes.db.image_id.ino | type) == "number"'
"$FSLAB" teardown --mount-root "$MNT" >/dev/null 2>&1
[ ! -e "$rec" ] && [ ! -e "$MNT" ] || fail "teardown left the record or the mount root"

log "a state file planted in a mount root names the user's image, loop device and mount"
# the user's things: an image with data, attached, and a mounted volume
head -c 8M /dev/urandom >"$U/precious.img"
before=$(sum "$U/precious.img")
UL=$(losetup --find --show "$U/precious.img")
_loops="$_loops $UL"
truncate -s 64M "$U/vol.img"
mkfs.ext4 -q "$U/vol.img"
UV=$(losetup --find --show "$U/vol.img")
_loops="$_loops $UV"
mkdir -p "$MNT/db"
mount "$UV" "$MNT/db"
track_mount "$MNT/db"
echo data >"$MNT/db/mine"
plant() { # plant DIR: the state file an old fslab (or another machine) would have left
	cat >"$1/.fslab-prep-state.json" <<EOT
{"schema": "fslab-prep-state/1", "mount_root": "$1", "pid": 1, "created_root": true,
 "image_dir": "$U", "image_dir_created": true, "prep_json": true,
 "volumes": {"db": {"image": "$U/precious.img", "loop": "$UL", "device": "$UV",
   "mountpoint": "$1/db", "mountpoint_created": true,
   "mount": {"target": "$1/db", "source": "$UV", "done": true}}}}
EOT
}
plant "$MNT"
user_intact() {
	[ -f "$U/precious.img" ] && [ "$(sum "$U/precious.img")" = "$before" ] ||
		fail "$1: the user's image was deleted or changed"
	losetup -n -O BACK-FILE "$UL" | grep -q "$U/precious.img" || fail "$1: $UL was detached"
	mountpoint -q "$MNT/db" && [ "$(cat "$MNT/db/mine")" = data ] || fail "$1: $MNT/db was unmounted"
	return 0
}
"$FSLAB" teardown --mount-root "$MNT" >"$T/out" 2>&1 || { cat "$T/out"; fail "teardown failed"; }
cat "$T/out"
user_intact "teardown --mount-root"
grep -q "left alone: $MNT/.fslab-prep-state.json" "$T/out" || fail "teardown does not say what it left"
# every record of the machine is visited; --owner keeps other tests' preps (running on this
# machine now) out of it
"$FSLAB" teardown --owner "t_prep_trust $T" >"$T/out" 2>&1 || { cat "$T/out"; fail "teardown (all) failed"; }
user_intact "teardown without --mount-root"

log "a lab directory copied from another machine: the lab's own teardown leaves it alone"
OUT=$T/out.lab
mkdir -p "$OUT/mnt/db"
umount "$MNT/db"
mount "$UV" "$OUT/mnt/db"
track_mount "$OUT/mnt/db"
plant "$OUT/mnt"
MNT=$OUT/mnt
cat >"$T/lab.ini" <<EOT
[lab]
title = copied
[devices]
image_dir = $T/labimg
db_size = 1G
log_size = 512M
[workload]
threads = 2
db_size = 64M
duration = 1s
warmup = 0s
[fs ext4]
EOT
rc=0
timeout 300 "$FSLAB" lab "$T/lab.ini" --output "$OUT" >"$T/lab.out" 2>&1 || rc=$?
echo "lab exited $rc"
user_intact "lab on a copied directory"
cat "$OUT/lab.log" 2>/dev/null | head -20 || true
umount "$OUT/mnt/db"
MNT=$T/mnt

log "a user's own prep under the lab's OUT/mnt"
OUT=$T/out.user
"$FSLAB" prep --fs ext4 --image-dir "$U/imgs" --db-size 64M --log-size 64M \
	--mount-root "$OUT/mnt" >/dev/null 2>&1 || fail "the user's prep failed"
echo data >"$OUT/mnt/db/mine"
sync
dbdev=$(jq -r .volumes.db.device "$OUT/mnt/prep.json")
ino=$(stat -c %i "$U/imgs/db.img")
rc=0
timeout 300 "$FSLAB" lab "$T/lab.ini" --output "$OUT" >"$T/lab.out" 2>&1 || rc=$?
echo "lab exited $rc"
[ -f "$U/imgs/db.img" ] && [ "$(stat -c %i "$U/imgs/db.img")" = "$ino" ] ||
	fail "the lab deleted the user's image"
losetup -n -O BACK-FILE "$dbdev" | grep -q "$U/imgs/db.img" || fail "the lab detached the user's loop device"
[ "$(cat "$OUT/mnt/db/mine" 2>/dev/null)" = data ] || fail "the lab unmounted the user's volume"
[ -f "$OUT/mnt/prep.json" ] || fail "the lab deleted the user's prep.json"
# where the lab got as far as its own teardown, it said why it left the prep alone
if grep -q "cell 1/1" "$OUT/lab.log" 2>/dev/null; then
	grep -q "left alone: the prep on $OUT/mnt was made by fslab prep itself (no --owner), not by fslab lab $OUT" \
		"$OUT/lab.log" || fail "the lab's teardown does not say why it left the user's prep: $(cat "$OUT/lab.log")"
fi
# the user's own teardown still works
"$FSLAB" teardown --mount-root "$OUT/mnt" >/dev/null 2>&1 || fail "the user's teardown failed"
[ ! -e "$U/imgs/db.img" ] || fail "the user's teardown left the image"

log "a user's file where a recorded image was: left alone, with the reason"
FSLAB_TEST_PREP_STALL=attach "$FSLAB" prep --fs ext4 --image-dir "$IMG" --db-size 64M \
	--log-size 64M --mount-root "$MNT" 2>"$T/prep.err" &
pid=$!
for _ in $(seq 300); do
	grep -q "stalled after step attach" "$T/prep.err" && break
	kill -0 $pid 2>/dev/null || { cat "$T/prep.err"; fail "prep exited before attach"; }
	sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null || true
# the loop devices this test's prep attached, then the user's file in the image's place
for l in $(losetup -n -O NAME,BACK-FILE | awk -v d="$IMG/" 'index($2, d) == 1 { print $1 }'); do
	losetup -d "$l"
done
rm "$IMG/db.img"
cp "$U/precious.img" "$IMG/db.img"
"$FSLAB" teardown --mount-root "$MNT" >"$T/out" 2>&1 || { cat "$T/out"; fail "teardown failed"; }
cat "$T/out"
[ "$(sum "$IMG/db.img")" = "$before" ] || fail "teardown deleted the user's file at $IMG/db.img"
[ ! -e "$IMG/log.img" ] || fail "teardown left the image it made"
grep -q "left alone: $IMG/db.img" "$T/out" || fail "teardown does not say it left $IMG/db.img"
log "ok"
