// SPDX-License-Identifier: MIT
/* doc.c: text, Markdown and HTML back ends of the report document model. */
#include "compare/doc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct doc_table *doc_table_new(size_t ncols, bool numeric)
{
	struct doc_table *t = xcalloc(1, sizeof(*t));

	t->ncols = ncols;
	t->numeric = numeric;
	doc_table_row(t);
	return t;
}

void doc_table_free(struct doc_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->strong);
	free(t);
}

size_t doc_table_row(struct doc_table *t)
{
	size_t n = (t->nrows + 1) * t->ncols;

	t->cells = xrealloc(t->cells, n * sizeof(char *));
	t->strong = xrealloc(t->strong, n * sizeof(bool));
	for (size_t c = 0; c < t->ncols; c++) {
		t->cells[t->nrows * t->ncols + c] = NULL;
		t->strong[t->nrows * t->ncols + c] = false;
	}
	return t->nrows++;
}

void doc_table_set(struct doc_table *t, size_t row, size_t col, const char *fmt, ...)
{
	char **cell = &t->cells[row * t->ncols + col];
	va_list ap;

	free(*cell);
	va_start(ap, fmt);
	if (vasprintf(cell, fmt, ap) < 0)
		*cell = NULL;
	va_end(ap);
}

const char *doc_table_get(const struct doc_table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->ncols + col];

	return s ? s : "";
}

void doc_table_strong(struct doc_table *t, size_t row, size_t col)
{
	t->strong[row * t->ncols + col] = true;
}

/* ---- escaping ---- */

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/*
 * Markdown text: nothing in it can become HTML, a link, an image, emphasis, code or a block,
 * or break the line structure (docs/COMPARE.md).  Every string the report takes from input
 * (host names, OS and CPU strings, mkfs and mount options, notes, fio's rw=, Jetstress's
 * machine name, --title, labels) is written through here, so this is the one place:
 * - '<' that would open a tag, comment or declaration (followed by a letter, '/', '!' or
 *   '?': CommonMark's raw HTML) and '&' that would start an entity are written as entities;
 *   "p < 0.001" stays as it is;
 * - '[' and ']' (links, images, footnotes), '`' (code), '*' and '~' (emphasis,
 *   strikethrough), '#' (headings) are backslash-escaped everywhere; '_' too, unless it sits
 *   between letters or digits, where CommonMark never reads it as emphasis ("io_uring");
 *   '!' before '[' (an image); '\' before punctuation (it would escape it);
 * - at the start of a paragraph, list item or heading, what would open a block: '-', '+',
 *   '=', '>' and "1." or "1)" (lists, rules, quotes); leading blanks (code) are dropped;
 * - '(' and ')' only ever act after "](" (a link), which cannot occur once ']' is escaped;
 * - control characters (CR, ESC, a newline inside a cell) become blanks; in table cells
 *   (cell true) '|' is escaped too.
 */
static void md_write(FILE *f, const char *s, bool cell)
{
	const char *start;

	if (!cell) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s && strchr("-+=>", *s)) {
			fputc('\\', f);
		} else if (isdigit((unsigned char)*s)) {
			const char *d = s;

			while (isdigit((unsigned char)*d))
				d++;
			if (*d == '.' || *d == ')') {
				fwrite(s, 1, (size_t)(d - s), f);
				fputc('\\', f);
				s = d;
			}
		}
	}
	start = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s, n = (unsigned char)s[1];
		unsigned char p = s > start ? (unsigned char)s[-1] : 0;

		if (c == '<' && (isalpha(n) || n == '/' || n == '!' || n == '?'))
			fputs("&lt;", f);
		else if (c == '&' && (isalpha(n) || n == '#'))
			fputs("&amp;", f);
		else if (c == '|' && cell)
			fputs("\\|", f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (strchr("[]`*~#", c) || (c == '!' && n == '[') ||
			 (c == '\\' && n && ispunct(n)) || (c == '_' && !(isalnum(p) && isalnum(n))))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

static void md_cell(FILE *f, const char *s)
{
	md_write(f, s, true);
}

/*
 * Plain text for a terminal: control characters (C0, DEL, and the C1 controls U+0080..U+009F
 * a terminal may act on: CSI, OSC) become blanks, bytes that are not UTF-8 '?'.
 */
static void text_write(FILE *f, const char *s)
{
	while (*s) {
		size_t n = utf8_len(s);

		if (!n)
			fputc('?', f);
		else if ((n == 1 && ((unsigned char)*s < 0x20 || *s == 0x7f)) ||
			 (n == 2 && (unsigned char)*s == 0xc2 && (unsigned char)s[1] < 0xa0))
			fputc(' ', f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
}

/* Display width of UTF-8 text as text_write() writes it: code points, not bytes ("±" is one
 * column), a byte that is not UTF-8 one ('?'). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; w++)
		s += utf8_len(s) ? utf8_len(s) : 1;
	return w;
}

static void close_list(struct doc *d)
{
	if (!d->in_list)
		return;
	d->in_list = false;
	fputs(d->fmt == DOC_HTML ? "</ul>\n" : "\n", d->f);
}

/* ---- document ---- */

static const char html_style[] =
	"body{font-family:system-ui,sans-serif;max-width:1280px;margin:2em auto;padding:0 1em;"
	"line-height:1.45;color:#222}\n"
	"table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
	"th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top}\n"
	"th{background:#f2f2f2;text-align:left}\n"
	"td.n{text-align:right;white-space:nowrap}\n"
	"figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}\n"
	"figcaption{font-size:90%;color:#555}\n";

void doc_begin(struct doc *d, enum doc_format fmt, FILE *f, const char *title)
{
	memset(d, 0, sizeof(*d));
	d->fmt = fmt;
	d->f = f;
	switch (fmt) {
	case DOC_TEXT:
		text_write(f, title);
		fputc('\n', f);
		for (size_t i = width(title); i; i--)
			fputc('=', f);
		fputs("\n\n", f);
		break;
	case DOC_MD:
		fputs("# ", f);
		md_write(f, title, false);
		fputs("\n\n", f);
		break;
	case DOC_HTML:
		fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
		      f);
		html_escape(f, title);
		fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", html_style);
		html_escape(f, title);
		fputs("</h1>\n", f);
		break;
	}
}

void doc_end(struct doc *d)
{
	close_list(d);
	if (d->fmt == DOC_HTML)
		fputs("</body>\n</html>\n", d->f);
}

void doc_heading(struct doc *d, int level, const char *text)
{
	close_list(d);
	switch (d->fmt) {
	case DOC_TEXT:
		text_write(d->f, text);
		fputc('\n', d->f);
		for (size_t i = width(text); i; i--)
			fputc(level <= 2 ? '-' : '~', d->f);
		fputs("\n\n", d->f);
		break;
	case DOC_MD:
		fprintf(d->f, "%.*s ", level, "######");
		md_write(d->f, text, false);
		fputs("\n\n", d->f);
		break;
	case DOC_HTML:
		fprintf(d->f, "<h%d>", level);
		html_escape(d->f, text);
		fprintf(d->f, "</h%d>\n", level);
		break;
	}
}

static void vtext(struct doc *d, const char *open, const char *close, const char *fmt,
		  va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	fputs(open, d->f);
	if (d->fmt == DOC_HTML)
		html_escape(d->f, s);
	else if (d->fmt == DOC_MD)
		md_write(d->f, s, false);
	else
		text_write(d->f, s);
	fputs(close, d->f);
	free(s);
}

void doc_para(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	close_list(d);
	va_start(ap, fmt);
	if (d->fmt == DOC_HTML)
		vtext(d, "<p>", "</p>\n", fmt, ap);
	else
		vtext(d, "", "\n\n", fmt, ap);
	va_end(ap);
}

void doc_item(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->in_list && d->fmt == DOC_HTML)
		fputs("<ul>\n", d->f);
	d->in_list = true;
	va_start(ap, fmt);
	if (d->fmt == DOC_HTML)
		vtext(d, "<li>", "</li>\n", fmt, ap);
	else
		vtext(d, "- ", "\n", fmt, ap);
	va_end(ap);
}

static void table_text(struct doc *d, const struct doc_table *t)
{
	size_t *w = xcalloc(t->ncols, sizeof(size_t));

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			w[c] = MAX(w[c], width(doc_table_get(t, r, c)));
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = doc_table_get(t, r, c);
			size_t pad = w[c] - width(s);
			bool right = t->numeric && c > 0 && r > 0;
			bool last = c + 1 == t->ncols;

			fprintf(d->f, "%s%*s", c ? "  " : "", right ? (int)pad : 0, "");
			text_write(d->f, s);
			fprintf(d->f, "%*s", right || last ? 0 : (int)pad, "");
		}
		fputc('\n', d->f);
		if (r == 0) {
			for (size_t c = 0; c < t->ncols; c++) {
				fputs(c ? "  " : "", d->f);
				for (size_t i = 0; i < w[c]; i++)
					fputc('-', d->f);
			}
			fputc('\n', d->f);
		}
	}
	fputc('\n', d->f);
	free(w);
}

static void table_md(struct doc *d, const struct doc_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *em = t->strong[r * t->ncols + c] ? "**" : "";

			fprintf(d->f, "| %s", em);
			md_cell(d->f, doc_table_get(t, r, c));
			fprintf(d->f, "%s ", em);
		}
		fputs("|\n", d->f);
		if (r == 0) {
			fputc('|', d->f);
			for (size_t c = 0; c < t->ncols; c++)
				fputs(t->numeric && c ? " ---: |" : " --- |", d->f);
			fputc('\n', d->f);
		}
	}
	fputc('\n', d->f);
}

static void table_html(struct doc *d, const struct doc_table *t)
{
	fputs("<table>\n", d->f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", d->f);
		for (size_t c = 0; c < t->ncols; c++) {
			bool strong = t->strong[r * t->ncols + c];

			fputs(r == 0 ? "<th>" : t->numeric && c ? "<td class=\"n\">" : "<td>", d->f);
			fputs(strong ? "<strong>" : "", d->f);
			html_escape(d->f, doc_table_get(t, r, c));
			fputs(strong ? "</strong>" : "", d->f);
			fputs(r == 0 ? "</th>" : "</td>", d->f);
		}
		fputs("</tr>\n", d->f);
	}
	fputs("</table>\n", d->f);
}

void doc_table(struct doc *d, const struct doc_table *t)
{
	close_list(d);
	switch (d->fmt) {
	case DOC_TEXT:
		table_text(d, t);
		break;
	case DOC_MD:
		table_md(d, t);
		break;
	case DOC_HTML:
		table_html(d, t);
		break;
	}
}

/*
 * Inline an SVG file: drop the XML prolog, and prefix every id (and its references) with
 * "cN-" so several gnuplot SVGs (which all define "gnuplot_canvas", "gpPt0", ...) can share one
 * HTML document.
 */
static void inline_svg(struct doc *d, const char *text)
{
	static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
	const char *p = strstr(text, "<svg");

	if (!p)
		return;
	while (*p) {
		size_t best = strlen(p), which = 0;

		for (size_t i = 0; i < ARRAY_SIZE(refs); i++) {
			const char *q = strstr(p, refs[i]);

			if (q && (size_t)(q - p) < best) {
				best = q - p;
				which = i;
			}
		}
		fwrite(p, 1, best, d->f);
		p += best;
		if (!*p)
			break;
		fprintf(d->f, "%sc%d-", refs[which], d->ncharts);
		p += strlen(refs[which]);
	}
	fputc('\n', d->f);
}

void doc_chart(struct doc *d, const char *title, const char *png, const char *svg)
{
	char *path, *text;

	close_list(d);
	switch (d->fmt) {
	case DOC_TEXT:
		break;
	case DOC_MD:
		fputs("![", d->f);
		md_write(d->f, title, true);
		fprintf(d->f, "](%s)\n\n", png);
		break;
	case DOC_HTML:
		path = d->svg_root ? path_join(d->svg_root, svg) : xstrdup(svg);
		if (!read_file(path, &text, NULL)) {
			d->ncharts++;
			fputs("<figure>\n", d->f);
			inline_svg(d, text);
			fputs("<figcaption>", d->f);
			html_escape(d->f, title);
			fputs("</figcaption>\n</figure>\n", d->f);
			free(text);
		}
		free(path);
		break;
	}
}
