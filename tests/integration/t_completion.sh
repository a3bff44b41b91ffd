#!/bin/bash
# SPDX-License-Identifier: MIT
# t_completion: the bash completion (scripts/mkcompletion.sh, made from the option tables:
# fslab __options) against the --help of every subcommand (made from the same tables, read
# here independently of both): it offers exactly the commands of
# `fslab --help` and, for each, exactly the long options its --help names (option lines and
# usage lines; export: run's too), --help and, first, --version; an option shown with a
# value (--db DIR) completes a value, one without (--force) is followed by options again;
# the words it offers as values are named in that option's --help text, and the run options'
# are accepted by fslab (export checks them); positional arguments: *.ini for lab and hosts,
# files for compare, hosts' actions.  A completion made from a table that lacks one option
# --help names fails the same check (it would catch tables and --help parting).  make
# install installs it.
. "$(dirname "$0")/lib.sh"
cd "$FSLAB_TOP"

COMPL=$T/fslab.bash
scripts/mkcompletion.sh "$FSLAB" "$COMPL" || fail "mkcompletion.sh failed"
bash -n "$COMPL" || fail "the completion is not valid bash"
mkdir -p "$T/w/sub" "$T/empty"
touch "$T/w/a.ini" "$T/w/b.json"

# comp FILE WORDS...: what FILE's completion offers for the last of "fslab WORDS..." (run in
# $T/w, or $T/empty with EMPTY=1: no file names to offer), sorted, one a line.  FILE is
# sourced into this shell (once), each completion runs in a subshell of it.
loaded=
comp() {
	local f=$1 d=$T/w; shift
	[ -z "${EMPTY:-}" ] || d=$T/empty
	[ "$loaded" = "$f" ] || { . "$f"; loaded=$f; }
	(set +eu; cd "$d" && COMP_WORDS=(fslab "$@") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) &&
		_fslab && for w in "${COMPREPLY[@]}"; do [ -z "$w" ] || echo "$w"; done) | sort -u
}

cmds=$("$FSLAB" --help | awk '/^Run on a lab.s hosts/ { exit } /^  [a-z]+ +[^ ]/ && $1 != "version" {print $1}')
[ "$(echo $cmds | wc -w)" -ge 9 ] || fail "fslab --help lists too few commands: $cmds"
# each command's --help, read once; help CMD prints it, and run's after it for a command whose
# "other options" are "as fslab run" (export)
for c in $cmds; do "$FSLAB" "$c" --help > "$T/help.$c" || fail "fslab $c --help failed"; done
help() {
	cat "$T/help.$1"
	if grep -q '^  other options .*as fslab run' "$T/help.$1"; then cat "$T/help.run"; fi
}

# help_opts CMD: the long options fslab CMD --help names: in its usage lines, and at the
# start of its option lines ("  --name ...", "  -h, --help", "  --a, --b: ...")
help_opts() {
	help "$1" | awk '
	function all(s) {
		while (match(s, /--[a-z][a-z0-9-]*/)) {
			print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
		}
	}
	/^usage: / || (u && /^ +[^ ]/) { u = 1; all($0); next }
	{ u = 0 }
	/^  -/ {
		l = $0; sub(/^  (-[a-zA-Z], )?/, "", l)
		while (match(l, /^--[a-z][a-z0-9-]*(, )?/)) {
			o = substr(l, 1, RLENGTH); sub(/, $/, "", o); print o; l = substr(l, RLENGTH + 1)
		}
	}'
}
# opt_text CMD OPT: the --help text of OPT (its option line, continuation lines) and the
# usage lines
opt_text() {
	help "$1" | awk -v o="$2" '
	/^usage: / || (u && /^ +[^ ]/) { u = 1; print; next }
	{ u = 0 }
	/^  -/ { on = index($0, o " ") || index($0, o ",") || $0 ~ (o "$") }
	/^  -/ || /^    / { if (on) print; next }
	{ on = 0 }'
}
# takes_value CMD OPT: its --help shows it with a value ("--db DIR", "--to fio|diskspd") in
# a usage line or at the start of its option line
takes_value() {
	help "$1" | awk '/^usage: / || (u && /^ +[^ ]/) { u = 1; print; next } { u = 0 }
		/^  -/ { print }' | grep -qE -- "^  (-[a-zA-Z], )?$2 [^ ]|(^|[ [])$2(=| [^ -])"
}

# check FILE [CMD...]: every problem of the completion in FILE (for those commands, default
# all), one a line; none: it matches --help
check() {
	local f=$1 c want got o v; shift
	want=$(printf '%s\n' $cmds version help | sort -u)
	got=$(comp "$f" '')
	[ "$want" = "$got" ] || echo "commands: offers '$(echo $got)', --help names '$(echo $want)'"
	for c in ${*:-$cmds}; do
		help_opts "$c" | sort -u > "$T/opts.$c"
		for o in $(cat "$T/opts.$c"); do
			takes_value "$c" "$o" && echo "$o"
		done > "$T/valued.$c"
		want=$( { cat "$T/opts.$c"; echo --help; echo --version; } | sort -u)
		got=$(comp "$f" "$c" --)
		[ "$want" = "$got" ] ||
			echo "fslab $c: $(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')not offered;" \
			     "$(comm -13 <(echo "$want") <(echo "$got") | tr '\n' ' ')not in --help"
		# --version only first: fslab CMD --version is alone
		comp "$f" "$c" --help -- | grep -qx -- --version &&
			echo "fslab $c: --version offered after another argument"
		for o in $(cat "$T/opts.$c"); do
			[ "$o" = --help ] && continue
			if grep -qx -- "$o" "$T/valued.$c"; then
				comp "$f" "$c" "$o" -- | grep -q -- '^--' &&
					echo "fslab $c $o: takes a value, options offered"
				for v in $(EMPTY=1 comp "$f" "$c" "$o" ''); do
					opt_text "$c" "$o" | grep -qw -- "$v" ||
						echo "fslab $c $o: offers '$v', which its --help does not name"
				done
			else
				comp "$f" "$c" "$o" -- | grep -qx -- --help ||
					echo "fslab $c $o: takes no value, options not offered after it"
			fi
		done
	done
}

log "the completion against every subcommand's --help"
check "$COMPL" > "$T/problems"
[ ! -s "$T/problems" ] || { cat "$T/problems"; fail "the completion does not match --help"; }
n=0
for c in $cmds; do n=$((n + $(help_opts "$c" | sort -u | wc -l))); done
log "$(echo $cmds | wc -w) commands, $n options: as --help says"

log "the words offered are values fslab takes (run's, through fslab export)"
mkdir -p "$T/db" "$T/log"
for o in --workload --engine --thresholds; do
	vals=$(EMPTY=1 comp "$COMPL" run "$o" '')
	[ "$(echo $vals | wc -w)" -ge 2 ] || fail "fslab run $o: no values offered ('$vals')"
	for v in $vals; do
		# a workload no other tool can run is a value fslab takes that export refuses
		"$FSLAB" export --to fio --db "$T/db" --log "$T/log" "$o" "$v" >/dev/null 2>"$T/err" ||
			grep -q "the $v workload cannot be exported" "$T/err" ||
			fail "fslab run $o $v (offered) is refused: $(cat "$T/err")"
	done
	log "run $o: $(echo $vals)"
done
[ "$(EMPTY=1 comp "$COMPL" prep --fs '')" = "$(printf '%s\n' btrfs ext4 ntfs ntfs3 raw xfs)" ] ||
	fail "prep --fs offers $(EMPTY=1 comp "$COMPL" prep --fs '' | tr '\n' ' ')"
[ "$(comp "$COMPL" run --workload=rand)" = "$(printf -- '--workload=%s\n' randread randrw randwrite)" ] ||
	fail "--workload=rand (one word) offers $(comp "$COMPL" run --workload=rand | tr '\n' ' ')"
[ "$(comp "$COMPL" run --engine = '')" = "$(printf '%s\n' io_uring psync)" ] ||
	fail "--engine = (split at the =) offers $(comp "$COMPL" run --engine = '' | tr '\n' ' ')"

log "positional arguments and file values"
[ "$(comp "$COMPL" lab '')" = "$(printf '%s\n' a.ini sub)" ] ||
	fail "fslab lab offers $(comp "$COMPL" lab '' | tr '\n' ' ') (want *.ini and directories)"
[ "$(comp "$COMPL" hosts a.ini '')" = "$(printf '%s\n' argv check fetch start-at)" ] ||
	fail "fslab hosts CONFIG offers $(comp "$COMPL" hosts a.ini '' | tr '\n' ' ')"
comp "$COMPL" compare a.ini '' | grep -qx b.json || fail "fslab compare does not offer files"
[ "$(comp "$COMPL" run --db '')" = sub ] || fail "run --db offers $(comp "$COMPL" run --db '')"
comp "$COMPL" run --output '' | grep -qx b.json || fail "run --output does not offer files"
[ -z "$(comp "$COMPL" run --threads '')" ] || fail "run --threads offers words"
comp "$COMPL" lab a.ini '' | grep -qx -- --resume || fail "lab CONFIG then options: not offered"

log "a completion made from a table without --bs (which --help names) fails the check"
cat > "$T/fslab-old" <<EOF
#!/bin/sh
if [ "\$1" = __options ]; then "$FSLAB" __options | grep -v '^opt run --bs '; exit; fi
exec "$FSLAB" "\$@"
EOF
chmod +x "$T/fslab-old"
scripts/mkcompletion.sh "$T/fslab-old" "$T/old.bash" || fail "mkcompletion.sh failed"
check "$T/old.bash" run > "$T/problems.old"
grep -q "fslab run: --bs not offered" "$T/problems.old" ||
	{ cat "$T/problems.old"; fail "the check missed --bs"; }

log "make install installs it"
make --no-print-directory install DESTDIR="$T/root" > "$T/install.out" 2>&1 ||
	{ cat "$T/install.out"; fail "make install failed"; }
f=$T/root/usr/local/share/bash-completion/completions/fslab
[ -s "$f" ] || fail "make install did not install the completion"
cmp -s "$f" build/completion/fslab || fail "the installed completion is not build/completion/fslab"
[ "$(comp "$f" run --eng)" = --engine ] || fail "the installed completion does not complete"
[ -s "$T/root/usr/local/share/fslab/configs/demo.ini" ] || fail "make install: no demo config"
log "ok"
