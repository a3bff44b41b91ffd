/* SPDX-License-Identifier: MIT */
/* fuzz_import.h: what the importer targets share: any bytes through one importer's parser
 * (no sniffing: every input reaches it), then, when it gives results, the same bytes through
 * compare (twice: repeats) and every renderer, where n/a values must stay n/a. */
#ifndef FSLAB_FUZZ_IMPORT_H
#define FSLAB_FUZZ_IMPORT_H

#include "tests/fuzz/fuzz.h"

#include "compare/compare.h"
#include "compare/import.h"
#include "compare/report.h"

static inline void fuzz_render(const struct compare *c)
{
	struct report_opts o = { .generated = -1 };
	struct sizing_opts s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sizing_opts_default(&s);
	o.sizing = &s;
	report_tables(f, DOC_TEXT, c, &o);
	report_article(f, DOC_HTML, c, &o);
	report_csv(f, c);
	report_sizing(f, DOC_TEXT, c, &s);
	json_decref(report_json(c, &o));
	fclose(f);
	free(buf);
}

static inline int fuzz_import(const struct importer *imp, const uint8_t *data, size_t size)
{
	struct compare_opts o = { .allow_mismatch = true, .allow_aborted = true };
	struct import_list l = { 0 };
	char *s = fuzz_str(data, size), path[64], *files[2];
	struct compare c;
	int fd, ret;

	ret = imp->parse(s, size, "fuzz", &l);
	import_list_release(&l);
	free(s);
	if (ret)
		return 0;
	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	files[0] = files[1] = path;
	if (!compare_build(&c, files, 2, &o))
		fuzz_render(&c);
	compare_release(&c);
	close(fd);
	return 0;
}

#endif
