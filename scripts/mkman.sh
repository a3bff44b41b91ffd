#!/bin/sh
# SPDX-License-Identifier: MIT
# mkman.sh: the man pages of fslab, made from its --help texts (issue 21).  fslab.1 from
# `fslab --help`, and one page per subcommand as git names them (fslab-run.1, fslab-lab.1,
# ...) from `fslab CMD --help`: the same words, so the page never says other than the
# program.  `fslab run --help` comes from its option table (src/run/options.c), every option
# and default; the other subcommands' --help texts are their option lists.
#
# Usage: scripts/mkman.sh FSLAB OUTDIR       (make man: build/man/*.1)
#
# A --help text becomes a page thus: the "usage:" lines are the SYNOPSIS; the text up to
# the first option (a line "  -x" or "  --name") the DESCRIPTION, its indented "term  text"
# lines a list; the options with their text, an unindented line ending in ':' among them a
# subsection ("Verdict (jetstress; ...):"); "Exit status: ..." the EXIT STATUS; any other
# text after the options NOTES.  No hyphenation, left-aligned, so a page reads as --help.
set -eu
fslab=$1 out=$2
mkdir -p "$out"
version=$("$fslab" version | sed -n "1s/^fslab //p")
# the date of the source (reproducible: the last commit, or SOURCE_DATE_EPOCH)
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
	date=$(git -C "$(dirname "$0")/.." log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
fi

# help2roff NAME SUMMARY: the --help text on stdin as a page body on stdout
help2roff() {
	awk -v name="$1" -v summary="$2" -v version="$version" -v date="$date" '
	function esc(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		if (s ~ /^[.'\'']/)
			s = "\\&" s
		return s
	}
	function indent(s) { match(s, /^ */); return RLENGTH }
	function flush_para() {
		if (para != "") {
			print ".PP"
			print esc(para)
		}
		para = ""
	}
	function section(s) {
		flush_para()
		if (cur != s)
			print ".SH " s
		cur = s
	}
	BEGIN {
		print ".TH \"" toupper(name) "\" 1 \"" date "\" \"fslab " version "\" \"fslab manual\""
		print ".nh"
		print ".ad l"
		print ".SH NAME"
		print esc(name) " \\- " esc(summary)
		state = "usage"
	}
	# the synopsis: "usage: ..." and its indented continuation lines
	state == "usage" {
		if ($0 ~ /^usage: /) {
			print ".SH SYNOPSIS"
			print ".nf"
			sub(/^usage: /, "")
			print esc($0)
			next
		}
		if ($0 ~ /^ +[^ ]/ && started_usage != "done") {
			# another form of the command starts at the margin, options go on indented
			sub(/^ +/, $0 ~ /^ +fslab / ? "" : "       ")
			print esc($0)
			next
		}
		print ".fi"
		started_usage = "done"
		state = "text"
		cur = "SYNOPSIS"
	}
	/^Exit status:/ { section("EXIT STATUS"); exit_text = 1; sub(/^Exit status: */, "") }
	exit_text { para = para (para == "" ? "" : "\n") $0; next }
	/^$/ { flush_para(); in_item = 0; next }
	# an option, or a "term   text" line of a list
	/^  [^ ]/ {
		line = substr($0, 3)
		is_opt = line ~ /^-/
		if (is_opt && cur != "OPTIONS" && !after_opts) {
			section("OPTIONS")
		} else if (!is_opt && cur == "OPTIONS" && !in_sub && line !~ /   /) {
			# text among the options (run: the stalls sentence): a paragraph
			para = para (para == "" ? "" : "\n") line
			next
		} else if (!is_opt && cur == "SYNOPSIS") {
			section("DESCRIPTION")
		}
		flush_para()
		tag = line; text = ""
		if (match(line, /   *[^ ]/) && RSTART > 1) {
			tag = substr(line, 1, RSTART - 1)
			text = substr(line, RSTART)
			sub(/^ +/, "", text)
		}
		print ".TP"
		print (is_opt ? "\\fB" esc(tag) "\\fR" : esc(tag))
		if (text != "")
			print esc(text)
		in_item = 1
		next
	}
	# an item goes on on deeper lines
	/^   / && in_item { sub(/^ +/, ""); print esc($0); next }
	# a heading of a group of options ("Verdict (jetstress; exit status 3 when it fails):")
	/^[^ ].*:$/ && cur == "OPTIONS" {
		flush_para()
		print ".SS " esc(substr($0, 1, length($0) - 1))
		in_sub = 1
		next
	}
	# plain text: the description before the options, notes after them
	{
		in_item = 0
		if (cur == "SYNOPSIS")
			section("DESCRIPTION")
		else if (cur == "OPTIONS" && !in_sub) {
			section("NOTES")
			after_opts = 1
		} else if (cur == "OPTIONS" && in_sub && $0 !~ /^ /) {
			section("NOTES")
			after_opts = 1
		}
		sub(/^ +/, "")
		para = para (para == "" ? "" : "\n") $0
	}
	END {
		flush_para()
		# what the caller adds (fslab.1: ENVIRONMENT, FILES), then the other pages
		extra = ENVIRON["FSLAB_MAN_EXTRA"]
		if (extra != "")
			while ((getline line < extra) > 0)
				print line
		print ".SH SEE ALSO"
		print (name == "fslab" ? "" : "\\fBfslab\\fR(1), ") ENVIRON["FSLAB_MAN_SEE"]
	}'
}

# the subcommands and their one-line summaries, from `fslab --help`; not the commands the lab
# runs on its hosts (hello, clock, cat-result: listed in fslab.1, no page of their own)
"$fslab" --help | awk '/^Run on a lab.s hosts/ { exit } /^  [a-z]+ +[^ ]/ && $1 != "version" {
	n = $1; sub(/^  [a-z]+ +/, ""); print n "\t" $0 }' > "$out/.commands"
FSLAB_MAN_SEE=$(awk -F '\t' '{printf "%s\\fBfslab\\-%s\\fR(1)", (NR > 1 ? ", " : ""), $1}' \
	"$out/.commands")
export FSLAB_MAN_SEE

while IFS="$(printf '\t')" read -r cmd summary; do
	"$fslab" "$cmd" --help | help2roff "fslab-$cmd" "$summary" > "$out/fslab-$cmd.1.tmp"
	mv "$out/fslab-$cmd.1.tmp" "$out/fslab-$cmd.1"
done < "$out/.commands"

# fslab.1: the command list of `fslab --help`, the environment and files of every command
cat > "$out/.extra" <<'EOT'
.SH ENVIRONMENT
.TP
FSLAB_PLOTS_DIR
where \fBfslab compare\fR finds its gnuplot templates (default: \fIplots/\fR beside the
binary, else \fI../share/fslab/plots\fR)
.TP
SOURCE_DATE_EPOCH
the time \fBfslab compare\fR writes in a report's "generated" line (reproducible reports)
.SH FILES
.TP
/usr/share/fslab/
the gnuplot templates (\fIplots/\fR) and the demo config of \fBfslab demo\fR
(\fIconfigs/demo.ini\fR): found beside the binary, else in \fI../share/fslab\fR from its
directory (\fI/usr/bin/fslab\fR: \fI/usr/share/fslab\fR)
.TP
/usr/share/doc/fslab/examples/
the example lab configs (the Debian package)
.TP
/var/lib/fslab/prep\-state/
what \fBfslab prep\fR made, for \fBfslab teardown\fR
EOT
"$fslab" --help | FSLAB_MAN_EXTRA=$out/.extra help2roff fslab \
	"a filesystem comparison lab (Jetstress-like Exchange load, statistics, reports)" \
	> "$out/fslab.1.tmp"
mv "$out/fslab.1.tmp" "$out/fslab.1"
rm -f "$out/.commands" "$out/.extra"
