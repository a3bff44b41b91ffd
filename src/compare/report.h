/* SPDX-License-Identifier: MIT */
/* report.h: render a comparison model: the tables (text, Markdown), the article (report.md,
 * report.html), tables.csv, compare.json and the sizing tables.  Reads the model only. */
#ifndef FSLAB_REPORT_H
#define FSLAB_REPORT_H

#include <stdio.h>
#include <jansson.h>

#include "compare/compare.h"
#include "compare/doc.h"
#include "compare/plot.h"
#include "compare/sizing.h"
#include "lib/strvec.h"

#define COMPARE_SCHEMA "fslab-compare/1"

struct report_opts {
	const char *title;                /* NULL: "fslab comparison: A vs B ..." */
	const struct sizing_opts *sizing; /* NULL: defaults */
	const struct plot_set *charts;    /* charts drawn (NULL: none) */
	const char *out_dir;              /* HTML: directory holding charts/NAME.svg */
	long long generated;              /* epoch seconds of the "generated" line; < 0: none */
	const char *order_note;           /* how the lab ordered the runs ("shuffled rounds, seed
					     N"), from --lab-plan; NULL: only the start times */
	const char *stop_note;            /* why an adaptive lab stopped, from --lab-plan */
	double precision_pct;             /* its [lab] precision (0: none): the advice's target */
};

/* report_title - o->title, or "fslab comparison: A vs B ..." from the labels.  Heap. */
char *report_title(const struct compare *c, const struct report_opts *o);
/*
 * report_summary - the generated sentences (transactional IOPS, database read and log write
 * latency, throughput against each group's base; verdicts; thread scaling; cache and aborted
 * warnings).  Each follows the significance test.  Appended to v.
 */
void report_summary(const struct compare *c, struct strvec *v);
/*
 * report_run_order - the order the runs were made in, from their start times, with *interleaved
 * true when every label's k-th run started before any label's (k+1)-th.  Heap text ("interleaved
 * in 3 rounds, ... (xfs, ext4 | ext4, xfs | ...)"), or NULL when start times are missing or equal.
 */
char *report_run_order(const struct compare *c, bool *interleaved);
/* report_tables - what `fslab compare` prints (text or Markdown): statistics method,
 * warnings, the results table, the thread-scaling table and the summary. */
void report_tables(FILE *f, enum doc_format fmt, const struct compare *c,
		   const struct report_opts *o);
/* report_article - the whole report as a short article (Markdown or HTML). */
void report_article(FILE *f, enum doc_format fmt, const struct compare *c,
		    const struct report_opts *o);
/* report_csv - tables.csv: one line per metric and label, numbers unformatted. */
void report_csv(FILE *f, const struct compare *c);
/* report_json - compare.json ("fslab-compare/1"): the whole model.  New reference. */
json_t *report_json(const struct compare *c, const struct report_opts *o);
/* report_sizing - `fslab sizing` output (text or Markdown): the factor, its source and the
 * mailboxes per profile and label.  _csv and _json: the same as CSV lines and as JSON. */
void report_sizing(FILE *f, enum doc_format fmt, const struct compare *c,
		   const struct sizing_opts *s);
void report_sizing_csv(FILE *f, const struct compare *c, const struct sizing_opts *s);
json_t *report_sizing_json(const struct compare *c, const struct sizing_opts *s);

#endif
