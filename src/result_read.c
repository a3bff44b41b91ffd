// SPDX-License-Identifier: MIT
/* result_read.c: fslab-result/1 in: a result file read back by the field table
 * (result_fields.c) and validated, every problem named with the file and key. */
#include "resultP.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "msg.h"
#include "strbuf.h"

int rd_fail(struct rd *rd, const char *fmt, ...)
{
	struct strbuf why = STRBUF_INIT;
	va_list ap;

	if (rd->err)
		return rd->err;
	va_start(ap, fmt);
	strbuf_vaddf(&why, fmt, ap);
	va_end(ap);
	rd->err = input_error("%s: %s", rd->what, why.buf);
	strbuf_release(&why);
	return rd->err;
}

/* Number at key (int or real; null = NaN); missing = dflt; wrong type = error. */
double rd_num(struct rd *rd, json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return dflt;
	if (json_is_null(v))
		return NAN;
	if (!json_is_number(v)) {
		rd_fail(rd, "\"%s\" must be a number; regenerate the file with 'fslab run'", key);
		return dflt;
	}
	return json_number_value(v);
}

uint64_t rd_u64(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		rd_fail(rd, "\"%s\" must be a non-negative integer; regenerate the file with 'fslab run'",
			key);
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

bool rd_bool(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return false;
	if (!json_is_boolean(v)) {
		rd_fail(rd, "\"%s\" must be true or false", key);
		return false;
	}
	return json_is_true(v);
}

/* Copy of the string at key, or NULL when missing/null. */
char *rd_str(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		rd_fail(rd, "\"%s\" must be a string", key);
		return NULL;
	}
	return xstrdup(json_string_value(v));
}

char **rd_strv(struct rd *rd, json_t *o, const char *key, size_t *n)
{
	json_t *a = json_object_get(o, key), *v;
	char **out;
	size_t i;

	*n = 0;
	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		rd_fail(rd, "\"%s\" must be an array of strings", key);
		return NULL;
	}
	out = xcalloc(json_array_size(a) + 1, sizeof(char *));
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			rd_fail(rd, "\"%s\" must be an array of strings", key);
			break;
		}
		out[(*n)++] = xstrdup(json_string_value(v));
	}
	return out;
}

json_t *rd_obj(struct rd *rd, json_t *o, const char *key, bool required)
{
	json_t *v = json_object_get(o, key);

	if ((!v || json_is_null(v)) && !required)
		return NULL;
	if (!json_is_object(v)) {
		rd_fail(rd, "\"%s\" is %s; expected an object (is this a complete fslab result?)", key,
			v ? "not an object" : "missing");
		return NULL;
	}
	return v;
}

/* A number that may be null or missing (0 then). */
double rd_num0(struct rd *rd, json_t *o, const char *key)
{
	double v = rd_num(rd, o, key, 0);

	return isnan(v) ? 0 : v;
}

void rf_from_json(struct rd *rd, json_t *o, const struct rfield *f, void *base,
		  const char *parent)
{
	for (; f->key; f++) {
		void *p = (char *)base + f->off;
		size_t *n = (size_t *)((char *)base + f->off_n);
		json_t *v, *x;
		size_t i;

		switch (f->type) {
		case RF_U64:
			*(uint64_t *)p = rd_u64(rd, o, f->key);
			break;
		case RF_UINT:
			*(unsigned int *)p = (unsigned int)rd_u64(rd, o, f->key);
			break;
		case RF_INT:
			*(int *)p = (int)rd_u64(rd, o, f->key);
			break;
		case RF_REAL:
			*(double *)p = f->flags & RF_NAN0 ? rd_num0(rd, o, f->key)
							  : rd_num(rd, o, f->key, 0);
			break;
		case RF_STR:
			*(char **)p = rd_str(rd, o, f->key);
			if ((f->flags & RF_REQUIRED) && !*(char **)p && !rd->err) {
				if (parent)
					rd_fail(rd, "\"%s\" has no \"%s\"", parent, f->key);
				else
					rd_fail(rd, "no \"%s\"; give files written by 'fslab run'",
						f->key);
			}
			break;
		case RF_BOOL:
			*(bool *)p = rd_bool(rd, o, f->key);
			break;
		case RF_STRV:
			*(char ***)p = rd_strv(rd, o, f->key, n);
			break;
		case RF_OBJ:
			v = rd_obj(rd, o, f->key, f->flags & RF_REQUIRED);
			if (v)
				rf_from_json(rd, v, f->sub, p, f->key);
			break;
		case RF_ARRAY:
			v = json_object_get(o, f->key);
			if (!json_is_array(v) || !json_array_size(v))
				break;
			*(char **)p = xcalloc(json_array_size(v), f->elem_size);
			json_array_foreach(v, i, x)
				rf_from_json(rd, x, f->sub, *(char **)p + (*n)++ * f->elem_size,
					     f->key);
			break;
		case RF_CUSTOM:
			f->read(rd, o, f->key, p);
			break;
		}
	}
}

int result_from_json(json_t *root, const char *what, struct fslab_result *r)
{
	struct rd rd = { .what = what };
	json_t *o;

	result_init(r);
	if (!json_is_object(root))
		return rd_fail(&rd, "not an fslab result (top level is not a JSON object)");
	o = json_object_get(root, "schema");
	if (!json_is_string(o))
		return rd_fail(&rd, "not an fslab result (no \"schema\" key); give files written by "
			       "'fslab run'");
	if (strcmp(json_string_value(o), RESULT_SCHEMA))
		return rd_fail(&rd, "unknown schema version \"%s\" (this fslab reads \"%s\"); use the "
			       "fslab version that wrote it", json_string_value(o), RESULT_SCHEMA);
	r->schema = xstrdup(json_string_value(o));
	rf_from_json(&rd, root, result_fields, r, NULL);
	return rd.err;
}

int result_read(const char *path, struct fslab_result *r)
{
	json_error_t jerr;
	json_t *root;
	int ret;

	root = json_load_file(path, 0, &jerr);
	if (!root) {
		result_init(r);
		if (jerr.line < 0 || strstr(jerr.text, "unable to open"))
			return input_error("%s: cannot read the result file (%s); check the path",
					   path, jerr.text);
		return input_error("%s: not valid JSON at line %d column %d (%s); the file is "
				   "truncated or not an fslab result, re-run 'fslab run'",
				   path, jerr.line, jerr.column, jerr.text);
	}
	ret = result_from_json(root, path, r);
	json_decref(root);
	return ret;
}
