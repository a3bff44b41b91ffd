// SPDX-License-Identifier: MIT
/* test_doc.c: the report document model's escaping: nothing from input becomes Markdown
 * (links, images, emphasis, code, blocks) or reaches a terminal as a control sequence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/doc.h"
#include "lib/base.h"

/* A document of title, one paragraph, one item, one one-cell table (heap text). */
static char *render(enum doc_format fmt, const char *title, const char *para, const char *item,
		    const char *cell)
{
	struct doc_table *t = doc_table_new(2, true);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct doc d;
	size_t r;

	doc_begin(&d, fmt, f, title);
	doc_para(&d, "%s", para);
	doc_item(&d, "%s", item);
	doc_table_set(t, 0, 0, "Host");
	doc_table_set(t, 0, 1, "n");
	r = doc_table_row(t);
	doc_table_set(t, r, 0, "%s", cell);
	doc_table_set(t, r, 1, "1");
	doc_table(&d, t);
	doc_end(&d);
	fclose(f);
	doc_table_free(t);
	return buf;
}

static void assert_has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle)) {
		fprintf(stderr, "missing [%s] in:\n%s\n", needle, hay);
		fail();
	}
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle)) {
		fprintf(stderr, "unexpected [%s] in:\n%s\n", needle, hay);
		fail();
	}
}

/* Every Markdown-active character from input is escaped; fslab's own markup stays. */
static void test_markdown_injection(void **state)
{
	char *md = render(DOC_MD, "[l](javascript:alert(1))",
			  "host ![i](http://evil/x.png) *b* __u__ `code` ~~s~~ <b>x</b> &amp; #h "
			  "a\\[b io_uring",
			  "- nested\n# heading",
			  "[c](http://evil) | *x*");

	(void)state;
	/* the title: no link */
	assert_has(md, "# \\[l\\](javascript:alert(1))\n");
	assert_lacks(md, "[l](");
	/* no image, emphasis, code, strikethrough, HTML, entity or heading */
	assert_has(md, "host \\!\\[i\\](http://evil/x.png) \\*b\\* \\_\\_u\\_\\_ \\`code\\` "
		       "\\~\\~s\\~\\~ &lt;b>x&lt;/b> &amp;amp; \\#h a\\\\\\[b io_uring\n");
	/* an item that would open a list and a heading: one line, escaped */
	assert_has(md, "- \\- nested \\# heading\n");
	/* a cell: '|' cannot end it, no link */
	assert_has(md, "| \\[c\\](http://evil) \\| \\*x\\* | 1 |\n");
	free(md);

	/* at the start of a paragraph: nothing opens a block (list, quote, code, rule) */
	md = render(DOC_MD, "t", "    indented code", "1. one", "x");
	assert_has(md, "\nindented code\n");
	assert_has(md, "- 1\\. one\n");
	free(md);
	md = render(DOC_MD, "t", "> quote", "+ plus", "x");
	assert_has(md, "\n\\> quote\n");
	assert_has(md, "- \\+ plus\n");
	free(md);
	md = render(DOC_MD, "t", "---", "2) two", "x");
	assert_has(md, "\n\\---\n");
	assert_has(md, "- 2\\) two\n");
	free(md);
	/* what is not active stays readable: p < 0.001, 4 KiB (32 %), a_b, C:\dir */
	md = render(DOC_MD, "t", "p < 0.001 (32 %) a_b C:\\dir 1.5 GiB", "x - y", "1 + 2");
	assert_has(md, "\np < 0.001 (32 %) a_b C:\\dir 1.5 GiB\n");
	assert_has(md, "- x - y\n");
	free(md);
}

/* Text for a terminal: C0, DEL and C1 controls blank, bytes that are not UTF-8 '?',
 * alignment by what is written. */
static void test_text_controls(void **state)
{
	char *txt = render(DOC_TEXT, "T\033]0;title\007", "p\033[2J", "i\xc2\x9b" "31m",
			   "h\xffx\x9b");

	(void)state;
	assert_lacks(txt, "\033");
	assert_lacks(txt, "\x07");
	assert_lacks(txt, "\xc2\x9b");
	assert_lacks(txt, "\xff");
	assert_has(txt, "T ]0;title \n");
	assert_has(txt, "- i 31m\n");
	/* "h?x?" is 4 columns, as "Host": the header and the row line up */
	assert_has(txt, "Host  n\n----  -\nh?x?  1\n");
	free(txt);
}

/*
 * A result's notes and names reach report.html and report.md without what a page or a
 * terminal acts on: ESC, BEL, the C1 CSI, and the bidirectional overrides and isolates
 * (U+202E shows "txt.exe" as "exe.txt"), each a blank; other text stays.
 */
static void test_html_controls(void **state)
{
	static const char *const bad[] = {
		"\033", "\x07", "\xc2\x9b", "\xe2\x80\xaa", "\xe2\x80\xae", "\xe2\x81\xa6",
		"\xe2\x81\xa9",
	};
	const char *note = "n\033]0;owned\x07 \xe2\x80\xae" "exe.txt\xe2\x80\xac \xe2\x81\xa6" "iso"
			   "\xe2\x81\xa9 \xc2\x9b" "31m \xc2\xb1 \xe2\x80\x94";

	(void)state;
	for (int fmt = 0; fmt < 3; fmt++) {
		enum doc_format f = fmt == 0 ? DOC_HTML : fmt == 1 ? DOC_MD : DOC_TEXT;
		char *out = render(f, note, note, note, note);

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
			assert_lacks(out, bad[i]);
		assert_has(out, "exe.txt");
		/* UTF-8 that is text stays: a plus-minus sign, an em dash */
		assert_has(out, "\xc2\xb1 \xe2\x80\x94");
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markdown_injection),
		cmocka_unit_test(test_text_controls),
		cmocka_unit_test(test_html_controls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
