// SPDX-License-Identifier: MIT
/* test_compare_golden.c: text, Markdown, CSV, article and sizing output from the fixtures,
 * byte for byte against tests/expected/.  FSLAB_UPDATE_GOLDEN=1 rewrites the expected files
 * (review the diff before committing; see docs/COMPARE.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "compare/report.h"
#include "os/files.h"
#include "lib/msg.h"

enum what { W_TABLES_TEXT, W_TABLES_MD, W_CSV, W_ARTICLE_MD, W_SIZING_TEXT };

struct golden {
	const char *expected;       /* file under tests/expected/ */
	enum what what;
	bool allow_mismatch, allow_aborted;
	const char *files[8];
};

static const struct golden cases[] = {
	{ "repeats.txt", W_TABLES_TEXT, false, false,
	  { "ext4-1.json", "ext4-2.json", "xfs-1.json", "xfs-2.json" } },
	{ "repeats.md", W_TABLES_MD, false, false,
	  { "ext4-1.json", "ext4-2.json", "xfs-1.json", "xfs-2.json" } },
	{ "single.txt", W_TABLES_TEXT, false, false, { "ext4-1.json", "xfs-1.json" } },
	{ "single.md", W_TABLES_MD, false, false, { "ext4-1.json", "xfs-1.json" } },
	{ "single.csv", W_CSV, false, false, { "ext4-1.json", "xfs-1.json" } },
	{ "sweep.txt", W_TABLES_TEXT, false, false,
	  { "ext4-4t.json", "ext4-8t.json", "ext4-12t.json", "xfs-4t.json", "xfs-8t.json",
	    "xfs-12t.json" } },
	{ "sweep.md", W_TABLES_MD, false, false,
	  { "ext4-4t.json", "ext4-8t.json", "ext4-12t.json", "xfs-4t.json", "xfs-8t.json",
	    "xfs-12t.json" } },
	{ "warnings.txt", W_TABLES_TEXT, true, true,
	  { "ext4-1.json", "xfs-seed7.json", "xfs-aborted.json", "ntfs-cached.json" } },
	/* the article (issue 21): the answer first, mixed verdicts (ntfs fails in 2 of 3 runs),
	 * notes aggregated per label, the volume view, the detail folded */
	{ "article.md", W_ARTICLE_MD, false, false,
	  { "ext4-1.json", "ext4-2.json", "xfs-1.json", "xfs-2.json", "ntfs-1.json", "ntfs-2.json",
	    "ntfs-3.json" } },
	/* one run per label: the answer within one run, nothing marked */
	{ "article-single.md", W_ARTICLE_MD, false, false,
	  { "ext4-1.json", "xfs-1.json", "ntfs-1.json" } },
	{ "sizing.txt", W_SIZING_TEXT, false, false, { "ext4-1.json", "xfs-1.json" } },
	/* --threads auto in one lab's three rounds: capacity in transactional IOPS' place, the
	 * Capacity section with the tuner's steps, the Method's tuner, sizing from capacity */
	{ "tuned.md", W_ARTICLE_MD, false, false,
	  { "slow-auto-r1.json", "slow-auto-r2.json", "slow-auto-r3.json", "fast-auto-r1.json",
	    "fast-auto-r2.json", "fast-auto-r3.json" } },
	{ "sizing-tuned.txt", W_SIZING_TEXT, false, false,
	  { "slow-auto-r1.json", "slow-auto-r2.json", "slow-auto-r3.json", "fast-auto-r1.json",
	    "fast-auto-r2.json", "fast-auto-r3.json" } },
};

static const char *top(void)
{
	const char *t = getenv("FSLAB_TOP");

	return t ? t : ".";
}

/* Render one case into a heap buffer.  Paths are relative ("tests/fixtures/x.json") so the
 * output does not depend on where the tree is. */
static char *render(const struct golden *g, size_t *len)
{
	struct compare_opts o = { .allow_mismatch = g->allow_mismatch,
				  .allow_aborted = g->allow_aborted };
	struct report_opts ro = { .generated = -1 };
	struct sizing_opts s;
	char *files[8], *buf = NULL;
	struct compare c;
	size_t n = 0;
	FILE *m;

	while (n < ARRAY_SIZE(g->files) && g->files[n]) {
		files[n] = xasprintf("tests/fixtures/%s", g->files[n]);
		n++;
	}
	assert_int_equal(compare_build(&c, files, n, &o), 0);
	sizing_opts_default(&s);
	ro.sizing = &s;
	m = open_memstream(&buf, len);
	switch (g->what) {
	case W_TABLES_TEXT:
		report_tables(m, DOC_TEXT, &c, &ro);
		break;
	case W_TABLES_MD:
		report_tables(m, DOC_MD, &c, &ro);
		break;
	case W_CSV:
		report_csv(m, &c);
		break;
	case W_ARTICLE_MD:
		report_article(m, DOC_MD, &c, &ro);
		break;
	case W_SIZING_TEXT:
		report_sizing(m, DOC_TEXT, &c, &s);
		break;
	}
	fclose(m);
	compare_release(&c);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	return buf;
}

/* Print the first differing line of got against want, for a readable failure. */
static void show_diff(const char *name, const char *got, const char *want)
{
	int line = 1;

	while (*got && *got == *want) {
		line += *got == '\n';
		got++;
		want++;
	}
	print_error("%s differs at line %d\n  got:  %.*s\n  want: %.*s\n", name, line,
		    (int)strcspn(got, "\n"), got, (int)strcspn(want, "\n"), want);
}

static void test_golden(void **state)
{
	const struct golden *g = *state;
	bool update = getenv("FSLAB_UPDATE_GOLDEN") && !strcmp(getenv("FSLAB_UPDATE_GOLDEN"), "1");
	char *path = xasprintf("%s/tests/expected/%s", top(), g->expected), *want = NULL;
	size_t len, wlen = 0;
	char *got;

	/* render() needs the fixtures relative to the top of the tree */
	assert_int_equal(chdir(top()), 0);
	got = render(g, &len);
	if (update) {
		assert_int_equal(write_file_atomic(path, got, len), 0);
		print_message("updated %s\n", path);
	} else {
		if (read_file(path, &want, &wlen)) {
			print_error("%s: missing; create it with FSLAB_UPDATE_GOLDEN=1\n", path);
			fail();
		}
		if (len != wlen || memcmp(got, want, len)) {
			show_diff(path, got, want);
			fail();
		}
	}
	free(want);
	free(got);
	free(path);
}

int main(void)
{
	struct CMUnitTest tests[ARRAY_SIZE(cases)];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		tests[i] = (struct CMUnitTest)cmocka_unit_test(test_golden);
		tests[i].name = cases[i].expected;
		tests[i].initial_state = (void *)&cases[i];
	}
	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
