// SPDX-License-Identifier: MIT
/* result_read.c: fslab-result/1 in: a result file read back by the field table
 * (result_fields.c) and validated, every problem named with the file and key. */
#include "result/resultP.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"

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

uint64_t rd_u64_max(struct rd *rd, json_t *o, const char *key, uint64_t max)
{
	uint64_t v = rd_u64(rd, o, key);

	/* never cut to the field's width: 2^32 + 1 threads are not 1 */
	if (v > max) {
		rd_fail(rd, "\"%s\" is %llu, more than %llu; the file was edited or damaged: re-run "
			"it", key, (unsigned long long)v, (unsigned long long)max);
		return 0;
	}
	return v;
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
			*(unsigned int *)p = (unsigned int)rd_u64_max(rd, o, f->key, UINT_MAX);
			break;
		case RF_INT:
			*(int *)p = (int)rd_u64_max(rd, o, f->key, INT_MAX);
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

/* The fields of root into r (its timeline rows too unless they are read apart). */
static int from_json(struct rd *rd, json_t *root, struct fslab_result *r)
{
	json_t *o;

	result_init(r);
	if (!json_is_object(root))
		return rd_fail(rd, "not an fslab result (top level is not a JSON object)");
	o = json_object_get(root, "schema");
	if (!json_is_string(o))
		return rd_fail(rd, "not an fslab result (no \"schema\" key); give files written by "
			       "'fslab run'");
	if (strcmp(json_string_value(o), RESULT_SCHEMA))
		return rd_fail(rd, "unknown schema version \"%s\" (this fslab reads \"%s\"); use the "
			       "fslab version that wrote it", json_string_value(o), RESULT_SCHEMA);
	r->schema = xstrdup(json_string_value(o));
	rf_from_json(rd, root, result_fields, r, NULL);
	return rd->err;
}

/* The whole result read: numbers a run can produce, a file that agrees with itself. */
static int check(struct rd *rd, const struct fslab_result *r)
{
	char buf[256];
	const char *why;

	if (rd->err)
		return rd->err;
	why = result_implausible(r);
	if (why)
		return rd_fail(rd, "not a plausible result (%s); it was edited or damaged: re-run it",
			       why);
	why = result_inconsistent(r, buf, sizeof(buf));
	if (why)
		return rd_fail(rd, "not a consistent result (%s); it was edited or damaged: re-run "
			       "it", why);
	return 0;
}

int result_from_json(json_t *root, const char *what, struct fslab_result *r)
{
	struct rd rd = { .what = what };

	from_json(&rd, root, r);
	return check(&rd, r);
}

/*
 * ---- the timeline's rows, read one at a time ----
 * A long run's "rows" hold most of a result file; as one jansson tree they cost about twenty
 * times their text (a 10-million-row timeline: 1.8 GB).  So result_read() finds them with the
 * small scanner below, hands jansson the document without them, then gives jansson one row
 * at a time.  The scanner only tracks strings and nesting to find where values end; jansson
 * still parses (and checks) every byte.  Anything it does not follow: the plain way.
 */

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The end of the JSON value at p (no leading blanks), or NULL when it is cut short. */
static const char *value_end(const char *p, const char *e)
{
	size_t depth = 0;

	do {
		if (p >= e)
			return NULL;
		if (*p == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= e)
				return NULL;
			p++;
		} else if (*p == '[' || *p == '{') {
			depth++;
			p++;
		} else if (*p == ']' || *p == '}') {
			if (!depth)
				return NULL;
			depth--;
			p++;
		} else if (depth) {
			p++;
		} else {
			/* a number, true, false, null: up to a separator */
			while (p < e && !strchr(",]} \t\n\r", *p))
				p++;
		}
	} while (depth);
	return p;
}

/* Is the JSON string [b, e) (quotes included) the key name?  Escaped keys are decoded. */
static bool key_is(const char *b, const char *e, const char *name)
{
	size_t n = strlen(name);
	json_t *k;
	bool is;

	if (!memchr(b, '\\', (size_t)(e - b)))
		return (size_t)(e - b) == n + 2 && !memcmp(b + 1, name, n);
	k = json_loadb(b, (size_t)(e - b), JSON_DECODE_ANY, NULL);
	is = json_is_string(k) && !strcmp(json_string_value(k), name);
	json_decref(k);
	return is;
}

/* The value [*vb, *ve) of the last member called name of the object at p ('{'), as jansson
 * keeps the last of repeated keys.  false when there is none or the text is not followed. */
static bool member(const char *p, const char *e, const char *name, const char **vb,
		   const char **ve)
{
	bool found = false;

	if (p >= e || *p != '{')
		return false;
	p = skip_ws(p + 1, e);
	if (p < e && *p == '}')
		return false;
	for (;;) {
		const char *kb = p, *ke = p < e && *p == '"' ? value_end(p, e) : NULL, *v, *ve2;

		if (!ke)
			return false;
		p = skip_ws(ke, e);
		if (p >= e || *p != ':')
			return false;
		v = skip_ws(p + 1, e);
		ve2 = value_end(v, e);
		if (!ve2)
			return false;
		if (key_is(kb, ke, name)) {
			*vb = v;
			*ve = ve2;
			found = true;
		}
		p = skip_ws(ve2, e);
		if (p < e && *p == '}')
			return found;
		if (p >= e || *p != ',')
			return false;
		p = skip_ws(p + 1, e);
	}
}

/* The rows array [b, e) into r->timeline (its columns already read), one row at a time. */
static int read_rows(struct rd *rd, struct timeline *t, const char *b, const char *e)
{
	double *row = xcalloc(t->ncols + 1, sizeof(double));
	const char *p = skip_ws(b + 1, e);
	size_t i = 0;

	if (p < e && *p == ']')
		p = e;
	while (p < e && !rd->err) {
		json_error_t err;
		json_t *v;

		if (i == TIMELINE_MAX_ROWS) {
			/* count the rest (no tree, nothing kept) for the message */
			for (; p && p < e; i++) {
				p = value_end(skip_ws(p, e), e);
				p = p ? skip_ws(p, e) + 1 : NULL;
			}
			rd_timeline_limit(rd, i);
			break;
		}
		v = json_loadb(p, (size_t)(e - p), JSON_DISABLE_EOF_CHECK, &err);
		if (!v) {
			rd_fail(rd, "timeline row %zu is not valid JSON (%s)", i, err.text);
			break;
		}
		rd_timeline_row(rd, t, v, i++, row);
		json_decref(v);
		p = skip_ws(p + err.position, e);
		if (p < e && *p == ']')
			break;
		if (p >= e || *p != ',') {
			rd_fail(rd, "timeline row %zu is not followed by ',' or ']'", i - 1);
			break;
		}
		p = skip_ws(p + 1, e);
	}
	free(row);
	return rd_timeline_end(rd, t);
}

int result_from_buffer(const char *buf, size_t len, const char *path, struct fslab_result *r)
{
	const char *e = buf + len, *p = skip_ws(buf, e), *tb, *te, *rb = NULL, *re = NULL;
	struct rd rd = { .what = path };
	json_error_t jerr;
	json_t *root;
	char *doc = NULL;
	int ret;

	if (member(p, e, "timeline", &tb, &te) && member(tb, te, "rows", &rb, &re) &&
	    *rb == '[' && re - rb > 2) {
		/* the document with "rows": [] */
		doc = xmalloc(len - (size_t)(re - rb) + 3);
		memcpy(doc, buf, (size_t)(rb - buf));
		memcpy(doc + (rb - buf), "[]", 2);
		memcpy(doc + (rb - buf) + 2, re, (size_t)(e - re));
		root = json_loadb(doc, len - (size_t)(re - rb) + 2, 0, &jerr);
		free(doc);
	} else {
		rb = NULL;
		root = json_loadb(buf, len, 0, &jerr);
	}
	if (!root) {
		result_init(r);
		return input_error("%s: not valid JSON at line %d column %d (%s); the file is "
				   "truncated or not an fslab result, re-run 'fslab run'",
				   path, jerr.line, jerr.column, jerr.text);
	}
	ret = from_json(&rd, root, r);
	json_decref(root);
	if (!ret && rb && r->timeline.cols)
		ret = read_rows(&rd, &r->timeline, rb, re);
	return ret ? ret : check(&rd, r);
}

int result_read(const char *path, struct fslab_result *r)
{
	size_t len;
	char *buf;
	int ret, kind;

	/* a regular file only: a FIFO would block the reader, a device never end */
	ret = read_file(path, &buf, &len);
	if (ret) {
		result_init(r);
		if (ret == -EINVAL && !os_stat(path, &kind, NULL) && kind != OS_KIND_FILE)
			return input_error("%s: not a regular file (%s); name a result file written "
					   "by fslab run", path, os_kind_name(kind));
		return input_error("%s: cannot read the result file (%s); check the path", path,
				   strerror(-ret));
	}
	ret = result_from_buffer(buf, len, path, r);
	free(buf);
	return ret;
}
