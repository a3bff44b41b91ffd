// SPDX-License-Identifier: MIT
/* doc.c: text, Markdown and HTML back ends of the report document model. */
#include "compare/doc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"

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

/*
 * What a page or a terminal acts on instead of showing, in text from input (a result's notes,
 * host names, tool output): the length of such a character at s, or 0.  C0 controls but tab
 * and newline (ESC starts a terminal's sequences, BEL rings), DEL, the C1 controls U+0080 to
 * U+009F (CSI, OSC), and the bidirectional embeddings, overrides and isolates U+202A to
 * U+202E and U+2066 to U+2069, which reorder the text after them ("txt.exe" shown as
 * "exe.txt").  Each is written as a blank.
 */
static size_t unsafe_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if ((u[0] < 0x20 && u[0] != '\t' && u[0] != '\n') || u[0] == 0x7f)
		return 1;
	if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;
	if (u[0] == 0xe2 && ((u[1] == 0x80 && u[2] >= 0xaa && u[2] <= 0xae) ||
			     (u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9)))
		return 3;
	return 0;
}

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		size_t n = unsafe_len(s);

		if (n) {
			fputc(' ', f);
			s += n - 1;
			continue;
		}
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
 * - at the start of a paragraph, list item or heading (MD_START), what would open a block:
 *   '-', '+', '=', '>' and "1." or "1)" (lists, rules, quotes); leading blanks (code) are
 *   dropped; text that continues a line (MD_INLINE: after a bold lead) is left as it starts;
 * - '(' and ')' only ever act after "](" (a link), which cannot occur once ']' is escaped;
 * - control characters (CR, ESC, a newline inside a cell) and the bidirectional overrides
 *   (unsafe_len()) become blanks; in table cells (MD_CELL) '|' is escaped too.
 */
enum md_ctx { MD_START, MD_INLINE, MD_CELL };

static void md_write(FILE *f, const char *s, enum md_ctx ctx)
{
	const bool cell = ctx == MD_CELL;
	const char *start;

	if (ctx == MD_START) {
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
		size_t u = unsafe_len(s);

		if (u > 1) {
			/* a C1 control or a bidirectional override: a blank */
			fputc(' ', f);
			s += u - 1;
			continue;
		}
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
	md_write(f, s, MD_CELL);
}

/*
 * Plain text for a terminal: control characters (C0, DEL, and the C1 controls U+0080..U+009F
 * a terminal may act on: CSI, OSC) and the bidirectional overrides become blanks
 * (unsafe_len()), bytes that are not UTF-8 '?'.
 */
static void text_write(FILE *f, const char *s)
{
	while (*s) {
		size_t n = utf8_len(s);

		if (!n)
			fputc('?', f);
		else if ((n == 1 && ((unsigned char)*s < 0x20 || *s == 0x7f)) ||
			 (n > 1 && unsafe_len(s)))
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

/*
 * The page: one readable column (the prose at most ~50em, tables and charts the full width of
 * at most 72em), nothing wider than the window at any width (long words in text tables
 * break, numbers break only at their blanks, SVG charts scale), and printable: no table or
 * chart split by a page break, no heading alone at the foot of a page.
 */
static const char html_style[] =
	"body{font-family:system-ui,sans-serif;max-width:72em;margin:1.5em auto;padding:0 1em;"
	"line-height:1.45;color:#222}\n"
	"p,li{max-width:52em}\n"
	"h1{font-size:1.6em;margin:0 0 .3em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}\n"
	"table{border-collapse:collapse;margin:.8em 0 1.2em;font-size:90%;max-width:100%}\n"
	"th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top;overflow-wrap:anywhere}\n"
	"th{background:#f2f2f2;text-align:left;overflow-wrap:normal}\n"
	"td.n{text-align:right;overflow-wrap:normal}\n"
	"td:first-child{min-width:6em}\n"
	"td strong{color:#000}\n"
	"figure{margin:1em 0;max-width:100%}figure svg{display:block;width:100%;max-width:60em;"
	"height:auto}\n"
	"figcaption{font-size:90%;color:#555}\n"
	"details{margin:.8em 0;padding:.3em .6em;border:1px solid #ddd;border-radius:4px}\n"
	"summary{cursor:pointer;font-weight:600}\n"
	"@media (max-width:900px){body{padding:0 .5em}table{font-size:85%}th,td{padding:2px 5px}}\n"
	"@media print{body{max-width:none;margin:0;font-size:10pt}table,figure,tr{break-inside:avoid}"
	"h2,h3{break-after:avoid}figure svg{max-width:100%}details{border:none;padding:0}}\n";

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
		md_write(f, title, MD_START);
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
		md_write(d->f, text, MD_START);
		fputs("\n\n", d->f);
		break;
	case DOC_HTML:
		fprintf(d->f, "<h%d>", level);
		html_escape(d->f, text);
		fprintf(d->f, "</h%d>\n", level);
		break;
	}
}

/* inline: the text continues a line (after a bold lead), not the start of a block */
static void vtext(struct doc *d, const char *open, const char *close, bool inline_text,
		  const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	fputs(open, d->f);
	if (d->fmt == DOC_HTML)
		html_escape(d->f, s);
	else if (d->fmt == DOC_MD)
		md_write(d->f, s, inline_text ? MD_INLINE : MD_START);
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
		vtext(d, "<p>", "</p>\n", false, fmt, ap);
	else
		vtext(d, "", "\n\n", false, fmt, ap);
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
		vtext(d, "<li>", "</li>\n", false, fmt, ap);
	else
		vtext(d, "- ", "\n", false, fmt, ap);
	va_end(ap);
}

void doc_item_lead(struct doc *d, const char *lead, const char *fmt, ...)
{
	va_list ap;

	if (!d->in_list && d->fmt == DOC_HTML)
		fputs("<ul>\n", d->f);
	d->in_list = true;
	switch (d->fmt) {
	case DOC_HTML:
		fputs("<li><strong>", d->f);
		html_escape(d->f, lead);
		fputs("</strong>", d->f);
		break;
	case DOC_MD:
		fputs("- **", d->f);
		md_write(d->f, lead, MD_START);
		fputs("**", d->f);
		break;
	case DOC_TEXT:
		fputs("- ", d->f);
		text_write(d->f, lead);
		break;
	}
	va_start(ap, fmt);
	vtext(d, "", d->fmt == DOC_HTML ? "</li>\n" : "\n", true, fmt, ap);
	va_end(ap);
}

void doc_details_begin(struct doc *d, const char *summary)
{
	close_list(d);
	switch (d->fmt) {
	case DOC_HTML:
		fputs("<details>\n<summary>", d->f);
		html_escape(d->f, summary);
		fputs("</summary>\n", d->f);
		break;
	case DOC_MD: /* GitHub renders it; the blank line lets the Markdown inside render too */
		fputs("<details>\n<summary>", d->f);
		md_write(d->f, summary, MD_START);
		fputs("</summary>\n\n", d->f);
		break;
	case DOC_TEXT:
		text_write(d->f, summary);
		fputs(":\n\n", d->f);
		break;
	}
}

void doc_details_end(struct doc *d)
{
	close_list(d);
	if (d->fmt != DOC_TEXT)
		fputs("</details>\n\n", d->f);
}

/* Is column c of t right-aligned numbers? */
static bool is_num(const struct doc_table *t, size_t c)
{
	return t->numeric && c > 0 && !(c < 64 && (t->text_cols >> c & 1));
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
			bool right = is_num(t, c) && r > 0;
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
				fputs(is_num(t, c) ? " ---: |" : " --- |", d->f);
			fputc('\n', d->f);
		}
	}
	fputc('\n', d->f);
}

/*
 * A number keeps its unit, sign or mark in a narrow column ("± 8989", "-86 %", "▼ 922"): the
 * blanks after '±', before '%' and after ▲/▼ become no-break spaces; every other blank may
 * still break ("7555 ± 8989 (+14 %)" before '±' and before the bracket when it must, a
 * verdict's words anywhere).  Heap.
 */
static char *html_keep_numbers(const char *s)
{
	static const char nbsp[] = "\xc2\xa0", pm[] = "\xc2\xb1";
	size_t n = strlen(s);
	char *out = xmalloc(2 * n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		bool keep = s[i] == ' ' && (
			s[i + 1] == '%' || (i >= 2 && !strncmp(s + i - 2, pm, 2)) ||
			(i >= 3 && (!strncmp(s + i - 3, "\xe2\x96\xb2", 3) ||     /* ▲ */
				    !strncmp(s + i - 3, "\xe2\x96\xbc", 3))));   /* ▼ */

		if (keep) {
			memcpy(o, nbsp, 2);
			o += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = 0;
	return out;
}

/* A cell's text: each '\n' a line break, numbers kept whole in numeric cells. */
static void html_cell(FILE *f, const char *s, bool num)
{
	char *copy = xstrdup(s), *save = NULL;
	bool first = true;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *k = num ? html_keep_numbers(line) : NULL;

		fputs(first ? "" : "<br>", f);
		html_escape(f, k ? k : line);
		free(k);
		first = false;
	}
	free(copy);
}

static void table_html(struct doc *d, const struct doc_table *t)
{
	fputs("<table>\n", d->f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", d->f);
		for (size_t c = 0; c < t->ncols; c++) {
			bool strong = t->strong[r * t->ncols + c], num = r && is_num(t, c);

			fputs(r == 0 ? "<th>" : num ? "<td class=\"n\">" : "<td>", d->f);
			fputs(strong ? "<strong>" : "", d->f);
			html_cell(d->f, doc_table_get(t, r, c), num);
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

void doc_table_split(struct doc *d, const struct doc_table *t, size_t max)
{
	size_t ncols = t->ncols - 1;

	if (ncols <= max) {
		doc_table(d, t);
		return;
	}
	/* as even as the page allows: 5 labels are 3 + 2, not 4 + 1 */
	max = (ncols + (ncols + max - 1) / max - 1) / ((ncols + max - 1) / max);
	for (size_t first = 1; first <= ncols; first += max) {
		size_t n = MIN(max, ncols + 1 - first);
		struct doc_table *part = doc_table_new(1 + n, t->numeric);

		for (size_t k = 0; k < n; k++)
			if (first + k < 64 && (t->text_cols >> (first + k) & 1))
				part->text_cols |= UINT64_C(1) << (1 + k);

		for (size_t r = 0; r < t->nrows; r++) {
			size_t pr = r ? doc_table_row(part) : 0;

			doc_table_set(part, pr, 0, "%s", doc_table_get(t, r, 0));
			for (size_t k = 0; k < n; k++) {
				doc_table_set(part, pr, 1 + k, "%s", doc_table_get(t, r, first + k));
				if (t->strong[r * t->ncols + first + k])
					doc_table_strong(part, pr, 1 + k);
			}
		}
		doc_table(d, part);
		doc_table_free(part);
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
		md_write(d->f, title, MD_CELL);
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
