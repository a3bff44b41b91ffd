#!/bin/sh
# SPDX-License-Identifier: MIT
# mkcompletion.sh: fslab's bash completion, made from its --help texts, so that it never
# offers other than the program takes (as scripts/mkman.sh makes the man pages from them).
# The subcommands come from `fslab --help`, each one's options from `fslab CMD --help`: the
# option lines ("  --name METAVAR   text", "  -h, --help   text") and the usage lines
# ("[--json FILE]", "--fs ext4|xfs|..."), whatever code prints them (fslab run's option
# table, the other commands' texts).  What an option's value completes to:
#   a|b|c metavar, or a text that opens with a list ("the load model: jetstress, randread,
#   ... or backup; default ...", "strict or lenient; ...")      those words
#   DIR                                                         directories
#   FILE, RESULT, DEV, *.json                                   file names
#   CONFIG.ini                                                  *.ini files (and directories)
#   anything else (N, SIZE, TIME, NAME=FILE...)                 nothing: a value to type
# "--a, --b: ..." lines (compare's sizing options) take their values' kinds from the command
# they point to; "other options  as fslab run" (export) takes run's options.  Positional
# arguments (RESULT..., CONFIG.ini, hosts' actions) come from the usage lines.
# The commands the lab runs on its hosts (hello, clock, cat-result) are not completed.
#
# Usage: scripts/mkcompletion.sh FSLAB OUTFILE      (make completion: build/completion/fslab)
set -eu
fslab=$1 out=$2
tmp=$out.tmp.$$
trap 'rm -f "$tmp" "$tmp.spec" "$tmp.help"' EXIT
mkdir -p "$(dirname "$out")"
version=$("$fslab" version | sed -n '1s/^fslab //p')
cmds=$("$fslab" --help | awk '/^Run on a lab.s hosts/ { exit }
	/^  [a-z]+ +[^ ]/ && $1 != "version" { print $1 }')
[ -n "$cmds" ] || { echo "mkcompletion.sh: '$fslab --help' lists no command" >&2; exit 1; }

# spec CMD: the --help text of CMD on stdin as lines
#   opt CMD NAME KIND      KIND: - (no value), dir, file, ini, word, =a b c (words), ? (see
#                          the same option of another command)
#   pos CMD N KIND         the Nth positional argument (N... : that and every later one)
#   inherit CMD OTHER      CMD takes OTHER's options too
spec() {
	awk -v cmd="$1" '
	function kind_of(mv, text,   k) {
		gsub(/[][]/, "", mv)
		sub(/\.\.\.$/, "", mv)
		# "TIME|steady", "N|auto": the words; a metavar among them is no value to offer
		if (mv ~ /\|/) {
			gsub(/\|/, " ", mv)
			gsub(/(^| )[A-Z][A-Z0-9_-]*( |$)/, " ", mv)
			gsub(/^ +| +$/, "", mv)
			gsub(/  +/, " ", mv)
			return mv == "" ? "word" : "=" mv
		}
		k = list_words(text)
		if (k != "") return "=" k
		if (mv ~ /^DIR[0-9]*$/) return "dir"
		if (mv ~ /\.ini$/) return "ini"
		if (mv ~ /^(FILE|RESULT|DEV|[A-Z-]*FILE)$/ || mv ~ /\.json$/) return "file"
		return "word"
	}
	# the words of a list the text opens with: "a, b or c", or after a "what: " without
	# commas "a, b, c"; else ""
	function list_words(t,   w, n, s, item, sep) {
		sep = 0
		if (match(t, /^[^,;:]*: /) && substr(t, 1, RLENGTH) !~ / or /) {
			t = substr(t, RLENGTH + 1)
			sep = 1
		}
		w = ""; n = 0
		while (match(t, /^[a-z][a-z0-9_]*/)) {
			item = substr(t, 1, RLENGTH); t = substr(t, RLENGTH + 1)
			if (t ~ /^ \(/) t = skip_paren(substr(t, 2))
			w = w (n++ ? " " : "") item
			if (t ~ /^, /) { t = substr(t, 3); continue }
			if (t ~ /^ or /) { t = substr(t, 5); sep = 1; continue }
			break
		}
		return (n >= 2 && sep && (t == "" || t ~ /^[;.,:]/)) ? w : ""
	}
	function skip_paren(t,   d, i, c) {
		d = 0
		for (i = 1; i <= length(t); i++) {
			c = substr(t, i, 1)
			if (c == "(") d++
			else if (c == ")" && --d == 0) return substr(t, i + 1)
		}
		return ""
	}
	function flush(   k) {
		if (cur == "") return
		k = cur_mv == "-" ? "-" : kind_of(cur_mv, cur_text)
		if (!(cur in kind) || kind[cur] == "word" || kind[cur] == "?")
			kind[cur] = k
		cur = ""
	}
	# the usage lines: "usage: fslab CMD ..." and the indented lines that go on with it
	NR == 1 || (in_usage && /^ +[^ ]/) {
		in_usage = 1
		line = $0; sub(/^(usage:)? +/, "", line)
		n = split(line, tok, / +/)
		form++
		npos = 0
		for (i = 1; i <= n; i++) {
			w = tok[i]
			o = w; gsub(/[][]/, "", o)
			# "fslab CMD" opens a form; "[fslab run options]" is another command
			if (o == "fslab" && i > 1) break
			if (o == "fslab" || w == cmd) continue
			if (o ~ /^--[a-z]/) {
				name = o; sub(/=.*/, "", name)
				nxt = i < n ? tok[i + 1] : ""
				if (w !~ /\]$/ && nxt != "" && nxt !~ /^[-[]/ && nxt !~ /^fslab$/) {
					k = kind_of(nxt, ""); i++
				} else
					k = "-"
				if (!(name in kind) || kind[name] == "-") kind[name] = k
				continue
			}
			if (w == "--" || w ~ /^\[?-/ || w ~ /^\[?options\]$/ || w ~ /^\.\.\.\]*$/)
				continue
			if (w ~ /^[[]*[a-z][a-z-]*[]]*$/ && npos == 1) {
				gsub(/[][]/, "", w); actions[w] = 1; continue
			}
			if (w ~ /^[[]*[A-Z]/ && npos == 0 && !seen_pos) {
				pos1 = kind_of(w, "")
				rep = (w ~ /\.\.\./ || tok[i + 1] ~ /^\.\.\./) ? "..." : ""
				seen_pos = 1
			}
			npos++
		}
		next
	}
	{ in_usage = 0 }
	/^  other options +.*as fslab [a-z]+/ {
		match($0, /as fslab [a-z]+/); print "inherit", cmd, substr($0, RSTART + 9, RLENGTH - 9)
		next
	}
	# an option line: "  --name METAVAR  text", "  -h, --help  text", "  --a, --b: text"
	/^  -/ {
		flush()
		line = substr($0, 3); sub(/^-[a-zA-Z], /, "", line)
		if (line ~ /^--[a-z][a-z0-9-]*, --/) {
			while (match(line, /^--[a-z][a-z0-9-]*/)) {
				name = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
				if (!(name in kind)) kind[name] = "?"
				sub(/^[,:] */, "", line)
			}
			next
		}
		if (!match(line, /^--[a-z][a-z0-9-]*/)) next
		cur = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
		if (line ~ /^ [^ ]/) {
			line = substr(line, 2); cur_mv = line; sub(/ .*/, "", cur_mv)
			line = substr(line, length(cur_mv) + 1)
		} else if (line ~ /^=/) {
			cur_mv = substr(line, 2); sub(/ .*/, "", cur_mv)
			line = substr(line, length(cur_mv) + 2)
		} else
			cur_mv = "-"
		sub(/^ +/, "", line); cur_text = line
		next
	}
	/^    +[^ ]/ && cur != "" { s = $0; sub(/^ +/, "", s); cur_text = cur_text " " s; next }
	{ flush() }
	END {
		flush()
		for (o in kind) print "opt", cmd, o, kind[o]
		if (seen_pos) print "pos", cmd, "1" (rep != "" && !length(actions) ? "..." : ""), pos1
		a = ""
		for (w in actions) a = a (a == "" ? "" : " ") w
		if (a != "") { print "pos", cmd, "2", "=" a; print "pos", cmd, "3...", "file" }
	}'
}

: > "$tmp.spec"
for c in $cmds; do
	"$fslab" "$c" --help > "$tmp.help"
	spec "$c" < "$tmp.help" >> "$tmp.spec"
done
LC_ALL=C sort -o "$tmp.spec" "$tmp.spec"

# the script: the tables as case statements, then the function that reads them
awk -v version="$version" -v cmds="$(echo $cmds)" '
	function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
	$1 == "opt" { k = $4; for (i = 5; i <= NF; i++) k = k " " $i
		      kind[$2 " " $3] = k; opts[$2] = opts[$2] " " $3; known[$3] = known[$3] " " k }
	$1 == "pos" { k = $4; for (i = 5; i <= NF; i++) k = k " " $i; pos[$2 " " $3] = k
		      npos[$2] = npos[$2] " " $3 }
	$1 == "inherit" { inh[$2] = $3 }
	function resolve(o,   n, a, i) {
		n = split(known[o], a, " ")
		for (i = 1; i <= n; i++) if (a[i] != "?") return a[i] == "=" ? "word" : a[i]
		return "word"
	}
	END {
		print "# bash completion for fslab " version ": generated by scripts/mkcompletion.sh"
		print "# from the --help texts of that fslab; do not edit (make completion remakes it)."
		print "# shellcheck shell=bash"
		print "_fslab_commands=" q(cmds " version help")
		print "# _fslab_options CMD: the options of CMD in _fslab_r"
		print "_fslab_options() {"
		print "\tcase $1 in"
		n = split(cmds, c, " ")
		for (i = 1; i <= n; i++) {
			o = opts[c[i]]
			if (c[i] in inh) o = o " " opts[inh[c[i]]]
			m = split(o, arr, " "); delete uniq; s = ""
			for (j = 1; j <= m; j++) if (!(arr[j] in uniq)) { uniq[arr[j]] = 1; s = s " " arr[j] }
			if (!("--help" in uniq)) s = s " --help"
			print "\t" c[i] ") _fslab_r=" q(substr(s, 2)) " ;;"
		}
		print "\t*) _fslab_r=\047\047 ;;"
		print "\tesac"
		print "}"
		print "# _fslab_value CMD OPTION: what its value completes to in _fslab_r: - (it takes"
		print "# none), dir, file, ini, word (none offered), =WORDS (those words)"
		print "_fslab_value() {"
		print "\tcase \"$1 $2\" in"
		for (i = 1; i <= n; i++) {
			src[1] = c[i]; ns = 1
			if (c[i] in inh) src[++ns] = inh[c[i]]
			delete done
			for (s = 1; s <= ns; s++) {
				m = split(opts[src[s]], arr, " ")
				for (j = 1; j <= m; j++) {
					if (arr[j] in done) continue
					done[arr[j]] = 1
					k = kind[src[s] " " arr[j]]
					if (k == "?") k = resolve(arr[j])
					print "\t" q(c[i] " " arr[j]) ") _fslab_r=" q(k) " ;;"
				}
			}
		}
		print "\t*) _fslab_r=- ;;"
		print "\tesac"
		print "}"
		print "# _fslab_positional CMD N: what its Nth positional argument completes to"
		print "_fslab_positional() {"
		print "\tcase \"$1 $2\" in"
		for (p in pos) {
			split(p, pp, " ")
			if (pp[2] ~ /\.\.\.$/) continue
			print "\t" q(p) ") _fslab_r=" q(pos[p]) " ;;"
		}
		for (p in pos) {
			split(p, pp, " ")
			if (pp[2] !~ /\.\.\.$/) continue
			print "\t" q(pp[1] " ") "*) _fslab_r=" q(pos[p]) " ;;"
		}
		print "\t*) _fslab_r=- ;;"
		print "\tesac"
		print "}"
	}' "$tmp.spec" > "$tmp"

cat >> "$tmp" <<'EOF'
# _fslab_words KIND CUR: COMPREPLY for a value or an argument of that kind
_fslab_words() {
	local IFS=$'\n'
	case $1 in
	dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
	file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
	ini) compopt -o filenames 2>/dev/null
	     COMPREPLY=($(compgen -d -- "$2"; compgen -f -X '!*.ini' -- "$2")) ;;
	=*) local w=${1#=}; COMPREPLY=($(compgen -W "${w// /$'\n'}" -- "$2")) ;;
	*) COMPREPLY=() ;;
	esac
}

_fslab() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i w n=0 opt= _fslab_r
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		case $cur in
		-*) COMPREPLY=($(compgen -W '--help --version' -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$_fslab_commands" -- "$cur")) ;;
		esac
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	_fslab_options "$cmd"
	[ -n "$_fslab_r" ] || return 0
	# --name=VALUE: bash splits it at the = (COMP_WORDBREAKS); unsplit, it is one word
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		_fslab_value "$cmd" "$opt"
		_fslab_words "$_fslab_r" "${cur#*=}"
		COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		return 0
	elif [ "$cur" = = ]; then
		opt=$prev cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -gt 2 ]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [ "$COMP_CWORD" -gt 2 ] && [[ $prev == --* ]]; then
		_fslab_value "$cmd" "$prev"
		[ "$_fslab_r" = - ] || opt=$prev
	fi
	if [ -n "$opt" ]; then
		_fslab_value "$cmd" "$opt"
		_fslab_words "$_fslab_r" "$cur"
		return 0
	fi
	if [[ $cur == -* ]]; then
		_fslab_options "$cmd"
		[ "$COMP_CWORD" -eq 2 ] && _fslab_r="$_fslab_r --version"
		COMPREPLY=($(compgen -W "$_fslab_r" -- "$cur"))
		return 0
	fi
	# the how-many-th positional argument this is: words that are neither options nor
	# their values, after a -- everything
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[ "$w" = -- ] && { n=$((n + COMP_CWORD - i - 1)); break; }
		case $w in
		=) continue ;;
		--*=*) continue ;;
		-*) _fslab_value "$cmd" "$w"
		    if [ "${COMP_WORDS[i + 1]}" = = ]; then
			    i=$((i + 2))
		    elif [ "$_fslab_r" != - ]; then
			    i=$((i + 1))
		    fi ;;
		*) n=$((n + 1)) ;;
		esac
	done
	_fslab_positional "$cmd" $((n + 1))
	if [ "$_fslab_r" = - ]; then
		_fslab_options "$cmd"
		COMPREPLY=($(compgen -W "$_fslab_r" -- "$cur"))
	else
		_fslab_words "$_fslab_r" "$cur"
	fi
	return 0
}
complete -F _fslab fslab fslab.exe
EOF
mv "$tmp" "$out"
