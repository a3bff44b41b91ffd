/* SPDX-License-Identifier: MIT */
/* doc.h: one document description (headings, paragraphs, lists, tables, charts) rendered as
 * aligned text, Markdown or self-contained HTML, so every report is written once. */
#ifndef FSLAB_DOC_H
#define FSLAB_DOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum doc_format {
	DOC_TEXT, /* aligned plain text for a terminal */
	DOC_MD,   /* GitHub-flavoured Markdown */
	DOC_HTML, /* one HTML file, charts inlined as SVG, no script */
};

/* A table: row 0 is the header.  Cells are owned heap strings ("" when never set); a '\n' in
 * a cell breaks the line in HTML and is a blank in text and Markdown. */
struct doc_table {
	size_t ncols, nrows;
	char **cells;
	bool *strong;  /* per cell: emphasised (a significant difference) */
	bool numeric;  /* right-align columns 1.. (text and Markdown) */
	uint64_t text_cols; /* numeric tables: columns (bit i) that hold text, left-aligned */
};

struct doc {
	enum doc_format fmt;
	FILE *f;
	const char *svg_root; /* DOC_HTML: directory that doc_chart() svg paths are relative to */
	int ncharts;          /* DOC_HTML: charts inlined so far (keeps SVG ids unique) */
	bool in_list;
};

/* doc_table_new - empty table with ncols columns and a header row; doc_table_free() it. */
struct doc_table *doc_table_new(size_t ncols, bool numeric);
void doc_table_free(struct doc_table *t);
/* doc_table_row - append an empty row; returns its index. */
size_t doc_table_row(struct doc_table *t);
/* doc_table_set - cell (row, col) = formatted text (copied). */
void doc_table_set(struct doc_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* doc_table_get - borrowed cell text. */
const char *doc_table_get(const struct doc_table *t, size_t row, size_t col);
void doc_table_strong(struct doc_table *t, size_t row, size_t col);

/* doc_begin / doc_end - document frame (HTML head and style; a title heading everywhere). */
void doc_begin(struct doc *d, enum doc_format fmt, FILE *f, const char *title);
void doc_end(struct doc *d);
/* doc_heading - level 2 or 3 section heading. */
void doc_heading(struct doc *d, int level, const char *text);
/* doc_para - a paragraph of formatted text. */
void doc_para(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* doc_item - one bullet; consecutive bullets form a list, closed by the next other element. */
void doc_item(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* doc_item_lead - a bullet that opens with lead in bold (the answer of a line), then text. */
void doc_item_lead(struct doc *d, const char *lead, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * doc_details_begin / doc_details_end - a folded section (HTML and Markdown <details>, which
 * GitHub renders) whose summary line is always shown; text shows summary and content.
 */
void doc_details_begin(struct doc *d, const char *summary);
void doc_details_end(struct doc *d);
void doc_table(struct doc *d, const struct doc_table *t);
/* doc_table_split - t as tables of at most max columns after its column 0 (the row titles,
 * repeated in each), as even as the page allows, so that no table is wider than the page. */
void doc_table_split(struct doc *d, const struct doc_table *t, size_t max);
/*
 * doc_chart - a chart: Markdown links png (relative to the report), HTML inlines the SVG file
 * svg_root/svg (skipped when unreadable), text prints nothing.
 */
void doc_chart(struct doc *d, const char *title, const char *png, const char *svg);

#endif
