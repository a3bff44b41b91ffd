// SPDX-License-Identifier: MIT
/* result_write.c: fslab-result/1 out: the field table (result_fields.c) as JSON (jansson),
 * written atomically with the timeline streamed. */
#include "result/resultP.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"

/* JSON has no NaN or infinity: write them as null. */
json_t *jnum(double v)
{
	if (!isfinite(v))
		return json_null();
	return json_real(v);
}

json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *strv_to_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *rf_to_json(const struct rfield *f, const void *base)
{
	json_t *o = json_object();

	for (; f->key; f++) {
		const void *p = (const char *)base + f->off;
		const size_t *n = (const size_t *)((const char *)base + f->off_n);
		json_t *v = NULL;

		if ((f->flags & RF_OMIT) &&
		    ((f->present && !f->present(base)) ||
		     (f->type == RF_STR && !*(char *const *)p) ||
		     ((f->type == RF_ARRAY || f->type == RF_STRV) && !*n)))
			continue;
		if (f->present && !f->present(base)) {
			json_object_set_new(o, f->key, json_null());
			continue;
		}
		switch (f->type) {
		case RF_U64:
			v = json_integer((json_int_t)*(const uint64_t *)p);
			break;
		case RF_UINT:
			v = json_integer((json_int_t)*(const unsigned int *)p);
			break;
		case RF_INT:
			v = json_integer(*(const int *)p);
			break;
		case RF_REAL:
			v = jnum(*(const double *)p);
			break;
		case RF_STR:
			v = jstr(*(char *const *)p);
			break;
		case RF_BOOL:
			v = json_boolean(*(const bool *)p);
			break;
		case RF_STRV:
			v = strv_to_json(*(char **const *)p, *n);
			break;
		case RF_OBJ:
			v = rf_to_json(f->sub, p);
			break;
		case RF_ARRAY:
			v = json_array();
			for (size_t i = 0; i < *n; i++)
				json_array_append_new(v, rf_to_json(f->sub, *(char *const *)p +
								    i * f->elem_size));
			break;
		case RF_CUSTOM:
			v = f->write(p);
			break;
		}
		if (v)
			json_object_set_new(o, f->key, v);
	}
	return o;
}

/* The whole result: the field table (result_fields.c) walked. */
json_t *result_to_json(const struct fslab_result *r)
{
	return rf_to_json(result_fields, r);
}

/* One number as JSON text (JSON has no NaN/infinity: null), as jansson would print it. */
static void put_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == (double)(int64_t)v && fabs(v) < 1e15)
		fprintf(f, "%lld.0", (long long)v);
	else
		fprintf(f, "%.10g", v);
}

/*
 * The result is built as a jansson tree except the timeline's rows, which are streamed from
 * wherever they are (memory or the spill file): a two-hour or two-day run keeps constant
 * memory, no tree of a million numbers.
 */
int result_write(const struct fslab_result *r, const char *path)
{
	const struct timeline *t = &r->timeline;
	struct timeline empty = { .ncols = t->ncols, .cols = t->cols };
	struct fslab_result shallow = *r;
	struct atomic_file af;
	double *row;
	json_t *root;
	char *s;
	int ret;

	shallow.timeline = empty; /* no rows: they are streamed below */
	root = result_to_json(&shallow);
	json_object_del(root, "timeline");
	s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (!s)
		return -ENOMEM;
	ret = atomic_open(&af, path);
	if (ret) {
		free(s);
		return ret;
	}
	/* everything but the closing brace, then the timeline, then the brace */
	fwrite(s, 1, strlen(s) - 1, af.f);
	free(s);
	fputs(",\n \"timeline\": {\n  \"columns\": [", af.f);
	for (size_t c = 0; c < t->ncols; c++) {
		json_t *name = json_string(t->cols[c]);
		char *q = json_dumps(name, JSON_ENCODE_ANY);

		fprintf(af.f, "%s%s", c ? ", " : "", q ? q : "\"?\"");
		free(q);
		json_decref(name);
	}
	fputs("],\n  \"rows\": [", af.f);
	row = xcalloc(t->ncols + 1, sizeof(double));
	for (size_t i = 0; i < t->nrows && !ret; i++) {
		ret = timeline_row(t, i, row);
		fputs(i ? ",\n   [" : "\n   [", af.f);
		for (size_t c = 0; c < t->ncols && !ret; c++) {
			if (c)
				fputs(", ", af.f);
			put_num(af.f, row[c]);
		}
		fputc(']', af.f);
	}
	free(row);
	fputs("\n  ]\n }\n}\n", af.f);
	if (ret) {
		atomic_abort(&af);
		return ret;
	}
	return atomic_commit(&af);
}
