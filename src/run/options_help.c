// SPDX-License-Identifier: MIT
/* options_help.c: `fslab run --help`, every option from the table (run/options.c): its
 * name, metavar, help and default, wrapped for a terminal, with the sections between. */
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "run/options.h"
#include "strbuf.h"

#define HELP_COL 24
#define HELP_WIDTH 92

/* Append text to sb, expanding %C (the choices) and %D (the default). */
static void help_expand(struct strbuf *sb, const struct run_option *o, const char *text)
{
	const char *dflt = o->def_help ? o->def_help : o->def;

	for (const char *t = text; *t; t++) {
		if (t[0] == '%' && (t[1] == 'C' || t[1] == 'D')) {
			strbuf_addstr(sb, t[1] == 'C' ? o->choices() : dflt ? dflt : "");
			t++;
		} else {
			strbuf_addch(sb, *t);
		}
	}
}

/* "  --name META" then the help, words wrapped at HELP_WIDTH, continuation lines at HELP_COL;
 * a '\n' in the help starts a new line. */
static void help_option(FILE *f, const struct run_option *o)
{
	struct strbuf sb = STRBUF_INIT;
	char *text, *left, *save = NULL;
	bool start = true;
	int col;

	help_expand(&sb, o, o->help);
	if ((o->def || o->def_help) && !strstr(o->help, "%D"))
		strbuf_addf(&sb, "; default %s", o->def_help ? o->def_help : o->def);
	text = strbuf_detach(&sb, NULL);
	left = o->type == ROT_FLAG ? xasprintf("  --%s", o->name)
				   : xasprintf("  --%s %s", o->name, o->metavar);
	col = (int)strlen(left);
	fprintf(f, "%s%*s", left, col > HELP_COL - 2 ? 2 : HELP_COL - col, "");
	col = MAX(col + 2, HELP_COL);
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			int len = (int)strlen(w);

			if (!start && col + 1 + len > HELP_WIDTH) {
				fprintf(f, "\n%*s", HELP_COL, "");
				col = HELP_COL;
				start = true;
			}
			fprintf(f, "%s%s", start ? "" : " ", w);
			col += len + !start;
			start = false;
		}
		if (next) {
			fprintf(f, "\n%*s", HELP_COL, "");
			col = HELP_COL;
			start = true;
		}
	}
	fputc('\n', f);
	free(left);
	free(text);
}

void run_usage(FILE *f)
{
	fputs("usage: fslab run --db DIR [--db DIR2 ...] --log DIR [--log DIR2 ...] [options]\n"
	      "\n"
	      "Drive a seeded, Jetstress-like Exchange database load (or a simple calibration "
	      "pattern)\nagainst the database and log directories for a fixed time and write one "
	      "result file.\n\n", f);
	for (size_t i = 0; i < RO_NR; i++) {
		if (i == RO_SAMPLE_INTERVAL)
			fputs("\nVerdict (jetstress; exit status 3 when it fails):\n", f);
		if (i == RO_TUNE_WINDOW)
			fputs("\nAutomatic tuning (--threads auto, jetstress: Jetstress's tuner): from "
			      "the fewest threads,\ndoubling while a step passes, then bisecting; a "
			      "step is judged once its database read\nlatency is stable, against the "
			      "verdict's limits; then the measurement at the count chosen.\n", f);
		if (i == RO_STEADY_WINDOW)
			fputs("\nSteady state (SNIA PTS: the range of W interval means within 20 % of "
			      "their mean,\nthe least-squares line's excursion across them within 10 %): "
			      "every result says\nwhether and from when it held, for transactional IOPS "
			      "and database read latency.\n", f);
		help_option(f, &run_options[i]);
	}
	fputs("  Database page fault stalls (a session waiting for a free cache page because the "
	      "lazy\n  writer is behind) fail the verdict above 1 per second on average.\n"
	      "\n"
	      "In a lab config (fslab lab), the [workload] section takes the options not set by "
	      "the lab\nas keys with '_' for '-' (name for --workload; threads may be a list: one "
	      "cell each).\n"
	      "\n"
	      "Exit status: 0 ok, 1 failure or interrupted (the result is still written, marked\n"
	      "aborted), 2 bad input (nothing created), 3 completed but the verdict is FAIL.\n", f);
}
