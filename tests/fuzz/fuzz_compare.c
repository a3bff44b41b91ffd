// SPDX-License-Identifier: MIT
/* fuzz_compare.c: libFuzzer target: one result file compared with a real fixture and rendered
 * in every format (text, Markdown, HTML article, CSV, JSON, sizing): hostile results are
 * refused or rendered, never a crash, undefined behaviour or a leak. */
#include "tests/fuzz/fuzz.h"

#include "compare/compare.h"
#include "compare/report.h"

static char *fixture;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *top = getenv("FSLAB_TOP");

	(void)argc;
	(void)argv;
	fuzz_quiet();
	if (asprintf(&fixture, "%s/tests/fixtures/ext4-1.json", top ? top : ".") < 0)
		abort();
	return 0;
}

static void render(const struct compare *c)
{
	struct report_opts o = { .generated = -1 };
	struct sizing_opts s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j;

	sizing_opts_default(&s);
	o.sizing = &s;
	report_tables(f, DOC_TEXT, c, &o);
	report_tables(f, DOC_MD, c, &o);
	report_article(f, DOC_MD, c, &o);
	report_article(f, DOC_HTML, c, &o);
	report_csv(f, c);
	report_sizing(f, DOC_TEXT, c, &s);
	j = report_json(c, &o);
	json_decref(j);
	fclose(f);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compare_opts o = { .allow_mismatch = true, .allow_aborted = true };
	struct compare c;
	char path[64], *files[3];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	files[0] = fixture;
	files[1] = path;
	files[2] = path; /* twice: the same label has repeats, so every test runs */
	if (!compare_build(&c, files, 3, &o))
		render(&c);
	compare_release(&c);
	close(fd);
	return 0;
}
