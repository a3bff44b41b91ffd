#!/bin/bash
# SPDX-License-Identifier: MIT
# t_man: the man pages (issue 21).  scripts/mkman.sh makes fslab.1 and one page per
# subcommand of `fslab --help` (fslab-run.1, ...); each renders without a groff warning and
# holds every option its --help names, each option with the whole of its --help text (its
# default included); fslab.1 lists every subcommand; `make install` puts them where man
# finds them.
. "$(dirname "$0")/lib.sh"

command -v man >/dev/null || skip "man not installed: install the Debian package man-db"
command -v groff >/dev/null || skip "groff not installed: install the Debian package groff-base"
cd "$FSLAB_TOP"

log "the pages"
scripts/mkman.sh "$FSLAB" "$T/man" || fail "mkman.sh failed"
cmds=$("$FSLAB" --help | awk '/^Run on a lab.s hosts/ { exit } /^  [a-z]+ +[^ ]/ && $1 != "version" {print $1}')
[ "$(echo $cmds | wc -w)" -ge 8 ] || fail "fslab --help lists too few commands: $cmds"

# render PAGE: its text as man shows it, one line per paragraph, blanks collapsed
render() {
	MANWIDTH=2000 man -l "$1" 2>"$T/man.err" | col -b | tr -s ' \t' ' ' | sed 's/^ //'
}
# norm: text with its blanks and line breaks collapsed to single blanks
norm() { tr '\n' ' ' | tr -s ' \t' ' '; }

for page in fslab $(for c in $cmds; do echo "fslab-$c"; done); do
	f=$T/man/$page.1
	[ -s "$f" ] || fail "$page.1 missing"
	# groff's own check: no warning of any kind (bad requests, escapes, fonts)
	warn=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
	[ -z "$warn" ] || fail "$page.1: groff warns: $warn"
	render "$f" > "$T/$page.txt"
	[ ! -s "$T/man.err" ] || fail "$page.1: man says: $(cat "$T/man.err")"
	grep -q "^NAME" "$T/$page.txt" && grep -q "^SYNOPSIS" "$T/$page.txt" ||
		fail "$page.1 has no NAME or SYNOPSIS"
done

log "fslab.1 names every subcommand with its summary"
"$FSLAB" --help | awk '/^  [a-z]+ +[^ ]/ {print}' | while read -r c summary; do
	grep -qF -- "$summary" "$T/fslab.txt" || fail "fslab.1 lacks '$c: $summary'"
	# the commands the lab runs on its hosts are listed, without pages of their own
	case " $(echo $cmds) version " in *" $c "*) ;; *) continue ;; esac
	[ "$c" = version ] || grep -q "fslab-$c(1)" "$T/fslab.txt" || fail "fslab.1 does not point to fslab-$c(1)"
done

log "every option of every --help, with its whole text"
for c in $cmds; do
	"$FSLAB" "$c" --help > "$T/$c.help" || fail "fslab $c --help failed"
	page=$(norm < "$T/fslab-$c.txt")
	opts=$(grep -o -- '--[a-z][a-z0-9-]*' "$T/$c.help" | sort -u)
	[ -n "$opts" ] || fail "fslab $c --help names no option"
	for o in $opts; do
		case "$page" in *"$o"*) ;; *) fail "fslab-$c.1 lacks $o (in fslab $c --help)" ;; esac
	done
	# each option line of --help and its continuation lines, as one text
	awk '/^  -/ {if (item != "") print item; item = $0; next}
	     /^    / && item != "" {item = item " " $0; next}
	     {if (item != "") print item; item = ""}
	     END {if (item != "") print item}' "$T/$c.help" > "$T/$c.items"
	n=0
	while IFS= read -r item; do
		text=$(printf '%s' "$item" | norm | sed 's/^ //; s/ $//')
		case "$page" in *"$text"*) n=$((n + 1)) ;;
		*) fail "fslab-$c.1 does not say what --help says: '$text'" ;;
		esac
	done < "$T/$c.items"
	log "fslab-$c.1: $(echo "$opts" | wc -l) options, $n option texts whole"
done
# the option table's defaults, one by one (fslab run --help is made from it)
for d in "default 8" "default 4G" "default 2h" "default 5% of --duration, at most 60s" \
	"default 15s" "default strict" "default io_uring"; do
	grep -qF -- "$d" "$T/fslab-run.txt" || fail "fslab-run.1 lacks '$d'"
done

log "make install puts them where man finds them"
make --no-print-directory install DESTDIR="$T/root" > "$T/install.out" 2>&1 ||
	{ cat "$T/install.out"; fail "make install failed"; }
for page in fslab $(for c in $cmds; do echo "fslab-$c"; done); do
	[ -s "$T/root/usr/local/share/man/man1/$page.1" ] || fail "make install did not install $page.1"
done
MANWIDTH=100 man -M "$T/root/usr/local/share/man" fslab-lab 2>&1 | grep -q -- "--resume" ||
	fail "man -M ... fslab-lab does not show the installed page"
[ -x "$T/root/usr/local/bin/fslab" ] || fail "make install did not install the binary"
log "ok"
