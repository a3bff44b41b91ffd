// SPDX-License-Identifier: MIT
/*
 * import_jetstress.c: Jetstress's HTML reports (Performance_*, Stress_*, DatabaseBackup_*,
 * SoftRecovery_*.html) as results, read with libxml2's HTML parser.
 *
 * The report is a sequence of grid tables, each after its section title.  Two shapes:
 * - name/value rows: <td class="grid_row_header">Overall Test Result</td><td>Pass</td>
 *   (Test Summary, Database Sizing and Throughput, Jetstress System Parameters);
 * - per-instance tables: a header row whose first cell is "MSExchange Database ==>
 *   Instances" and one row per database instance (Transactional I/O Performance, Background
 *   Database Maintenance I/O Performance, Log Replication and Total I/O Performance), and
 *   "Host System Performance" (Counter | Average | Minimum | Maximum).
 * Rows are found by their names, tables by the section title before them (or, without one,
 * by their column names), so layout details do not matter.  docs/INTEROP.md says which fields
 * are read and that they come from Microsoft's documentation and published reports, not from
 * a report verified here.  Absent fields are n/a.
 */
#include "compare/import.h"

#include <ctype.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

static bool jetstress_sniff(const char *buf, size_t len)
{
	(void)len;
	return os_strcasestr(buf, "<t") && strstr(buf, "Jetstress") &&
	       (strstr(buf, "Overall Test Result") || strstr(buf, "grid_row_header") ||
		os_strcasestr(buf, "<html"));
}

/* One table: its section title and its rows of cell texts. */
struct jtable {
	char *title;   /* the last text before the table (or its one-cell first row), or NULL */
	size_t hdr;    /* the column header row ("... Instances", "Counter"), or nrows: none */
	size_t nrows;
	struct strvec *rows; /* a row's cells: trimmed, whitespace collapsed */
};

struct jdoc {
	size_t n;
	struct jtable *t;
	char *last_text; /* last non-empty text outside tables */
};

static char *squash(const xmlChar *in)
{
	char *out = xstrdup((const char *)in), *o = out;
	bool space = true;

	for (const char *p = (const char *)in; *p; p++) {
		if (isspace((unsigned char)*p) || (unsigned char)*p == 0xa0) {
			if (!space)
				*o++ = ' ';
			space = true;
		} else if ((unsigned char)*p == 0xc2 && (unsigned char)p[1] == 0xa0) {
			/* UTF-8 no-break space (&nbsp;) */
			if (!space)
				*o++ = ' ';
			space = true;
			p++;
		} else {
			*o++ = *p;
			space = false;
		}
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = 0;
	return out;
}

static bool is(xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcasecmp((const char *)n->name, name);
}

/* Room for n + 1 elements of size sz in *v, doubled at each power of two (linear growth). */
static void grow(void *v, size_t n, size_t sz)
{
	if (!(n & (n - 1)))
		*(void **)v = xrealloc(*(void **)v, (n ? 2 * n : 1) * sz);
}

static void rows_of(xmlNode *n, struct jtable *t)
{
	for (xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "tr")) {
			struct strvec *row;

			grow(&t->rows, t->nrows, sizeof(*t->rows));
			row = &t->rows[t->nrows++];
			strvec_init(row);
			for (xmlNode *td = c->children; td; td = td->next) {
				xmlChar *s;
				char *text;

				if (!is(td, "td") && !is(td, "th"))
					continue;
				s = xmlNodeGetContent(td);
				text = squash(s ? s : (const xmlChar *)"");
				strvec_push(row, text);
				free(text);
				xmlFree(s);
			}
		} else if (is(c, "thead") || is(c, "tbody") || is(c, "tfoot")) {
			rows_of(c, t);
		}
	}
}

static void walk(xmlNode *n, struct jdoc *d)
{
	for (xmlNode *c = n; c; c = c->next) {
		if (is(c, "table")) {
			struct jtable *t;

			grow(&d->t, d->n, sizeof(*d->t));
			t = &d->t[d->n++];
			memset(t, 0, sizeof(*t));
			t->title = d->last_text ? xstrdup(d->last_text) : NULL;
			rows_of(c, t);
			if (t->nrows && t->rows[0].nr == 1) {
				/* the section title as the table's own first row */
				free(t->title);
				t->title = xstrdup(t->rows[0].v[0]);
			}
			for (t->hdr = 0; t->hdr < t->nrows; t->hdr++)
				if (t->rows[t->hdr].nr >= 2 &&
				    (os_strcasestr(t->rows[t->hdr].v[0], "Instances") ||
				     !strcasecmp(t->rows[t->hdr].v[0], "Counter")))
					break;
			/* nested tables are not part of Jetstress's grids */
			continue;
		}
		if (c->type == XML_TEXT_NODE && c->content) {
			char *s = squash(c->content);

			if (*s) {
				free(d->last_text);
				d->last_text = s;
			} else {
				free(s);
			}
		}
		if (c->type == XML_ELEMENT_NODE && !is(c, "script") && !is(c, "style"))
			walk(c->children, d);
	}
}

static void jdoc_free(struct jdoc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		for (size_t r = 0; r < d->t[i].nrows; r++)
			strvec_clear(&d->t[i].rows[r]);
		free(d->t[i].rows);
		free(d->t[i].title);
	}
	free(d->t);
	free(d->last_text);
}

/* The value cell of the first name/value row called name, or NULL. */
static const char *field(const struct jdoc *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		for (size_t r = 0; r < d->t[i].nrows; r++)
			if (d->t[i].rows[r].nr >= 2 && !strcasecmp(d->t[i].rows[r].v[0], name))
				return d->t[i].rows[r].v[1];
	return NULL;
}

/* A number from a report cell: "1,234.5" and "1234.5" both; NAN when none. */
static double number(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	double v;

	if (!s)
		return NAN;
	for (; *s; s++)
		if (*s != ',')
			strbuf_addch(&sb, *s);
	v = strtod(sb.buf, &end);
	v = end == sb.buf || !isfinite(v) ? NAN : v;
	strbuf_release(&sb);
	return v;
}

/* The per-instance table whose title contains title (or, failing that, the first with the
 * column col), or NULL. */
static const struct jtable *instance_table(const struct jdoc *d, const char *title,
					   const char *col)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].title && os_strcasestr(d->t[i].title, title) && d->t[i].hdr < d->t[i].nrows)
			return &d->t[i];
	for (size_t i = 0; i < d->n; i++) {
		const struct jtable *t = &d->t[i];

		for (size_t k = 0; t->hdr < t->nrows && k < t->rows[t->hdr].nr; k++)
			if (!strcasecmp(t->rows[t->hdr].v[k], col))
				return t;
	}
	return NULL;
}

static int column(const struct jtable *t, const char *name)
{
	for (size_t k = 0; t && k < t->rows[t->hdr].nr; k++)
		if (!strcasecmp(t->rows[t->hdr].v[k], name))
			return (int)k;
	return -1;
}

static double cell(const struct jtable *t, size_t row, int col)
{
	return t && col >= 0 && (size_t)col < t->rows[row].nr ? number(t->rows[row].v[col]) : NAN;
}

/* One class of one instance from the columns "<prefix>/sec", "<prefix> Average Latency
 * (msec)", "<prefix> Average Bytes". */
static void inst_class(const struct jtable *t, size_t row, const char *prefix,
		       struct class_result *c)
{
	char a[96], b[96], l[96];

	snprintf(a, sizeof(a), "%s/sec", prefix);
	snprintf(b, sizeof(b), "%s Average Bytes", prefix);
	snprintf(l, sizeof(l), "%s Average Latency (msec)", prefix);
	c->iops = cell(t, row, column(t, a));
	c->avg_bytes = cell(t, row, column(t, b));
	c->lat_us.mean = cell(t, row, column(t, l)) * 1e3;
	c->mbps = c->iops * c->avg_bytes / 1e6;
}

/* Sum of rates, rate-weighted averages of latency and size (what the overall figures are). */
static void overall(struct fslab_result *r, int cls)
{
	struct class_result *o = &r->classes[cls];
	double iops = 0, lat = 0, bytes = 0;
	bool any = false, lat_ok = true, bytes_ok = true;

	for (size_t i = 0; i < r->ninstances; i++) {
		const struct class_result *c = &r->instances[i].classes[cls];

		if (isnan(c->iops))
			continue;
		any = true;
		iops += c->iops;
		lat_ok &= !isnan(c->lat_us.mean);
		bytes_ok &= !isnan(c->avg_bytes);
		lat += c->iops * c->lat_us.mean;
		bytes += c->iops * c->avg_bytes;
	}
	if (!any)
		return;
	o->iops = iops;
	o->lat_us.mean = lat_ok && iops > 0 ? lat / iops : NAN;
	o->avg_bytes = bytes_ok && iops > 0 ? bytes / iops : NAN;
	o->mbps = bytes_ok ? bytes / 1e6 : NAN;
}

/* "12/3/2026 10:04:12 AM" (the reports' US format) as seconds, or NAN. */
static double when(const char *s)
{
	int64_t t;

	if (!s)
		return NAN;
	t = os_strptime_utc(s, "%m/%d/%Y %I:%M:%S %p");
	if (t < 0)
		t = os_strptime_utc(s, "%m/%d/%Y %H:%M:%S");
	return t >= 0 ? (double)t : NAN;
}

/* The report kind from the file name or the title: Performance, Stress, ... */
static const char *kind_of(const char *file, const struct jdoc *d)
{
	static const char *const kinds[] = { "Performance", "Stress", "DatabaseBackup",
					     "SoftRecovery" };
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	const char *desc = field(d, "Test Description");

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncasecmp(base, kinds[i], strlen(kinds[i])))
			return kinds[i];
	for (size_t i = 0; desc && i < ARRAY_SIZE(kinds); i++)
		if (os_strcasestr(desc, kinds[i]))
			return kinds[i];
	return NULL;
}

/* The name/value rows of the report into r: rates, target, threads, times, duration. */
static int summary_fields(struct fslab_result *r, const struct jdoc *d, const char *file)
{
	double t0, t1, tc = number(field(d, "Thread Count"));

	r->transactional_iops = number(field(d, "Achieved Transactional I/O per Second"));
	r->config.target_iops = number(field(d, "Target Transactional I/O per Second"));
	if (isnan(r->config.target_iops))
		r->config.target_iops = 0;
	r->config.workload = xstrdup("jetstress");
	r->config.engine = xstrdup("ese");
	/* what the report says; seed, sizes, cache and the verdict's settings it does not */
	import_recorded(r, workload);
	import_recorded(r, engine);
	import_recorded(r, target_iops);
	import_recorded(r, duration_s);
	import_recorded(r, databases);
	if (field(d, "ESE Version"))
		result_add_note(r, "ESE version %s", field(d, "ESE Version"));
	/* a count is never cut to a field's width (2^32 + 1 threads read as 1) */
	if (!isnan(tc) && (tc != floor(tc) || tc < 0 || tc > 1e6))
		return input_error("%s: Jetstress \"Thread Count\" is '%.24s', not a thread count "
				   "(an integer up to a million); the report is damaged", file,
				   field(d, "Thread Count"));
	if (tc >= 1) {
		r->config.threads = (unsigned int)tc;
		import_recorded(r, threads);
	} else {
		r->config.threads = 1;
	}
	r->started_at = field(d, "Test Start Time") ? xstrdup(field(d, "Test Start Time")) : NULL;
	r->ended_at = field(d, "Test End Time") ? xstrdup(field(d, "Test End Time")) : NULL;
	t0 = when(field(d, "Collection Start Time") ? field(d, "Collection Start Time")
						      : r->started_at);
	t1 = when(field(d, "Collection End Time") ? field(d, "Collection End Time")
						    : r->ended_at);
	r->duration_s = t1 > t0 ? t1 - t0 : NAN;
	r->config.duration_s = isfinite(r->duration_s) ? r->duration_s : 0;
	return 0;
}

/*
 * BDM rows matched to the instances by name, each row to every instance of its name: the
 * names through a jansson object as the hash table (a pairwise match was quadratic).
 */
static void bdm_rows(struct fslab_result *r, const struct jtable *bdm)
{
	json_t *index = json_object();
	size_t *same = xcalloc(r->ninstances + 1, sizeof(size_t));

	/* each name's instances chained in order: index -> the first, same[] -> the next */
	for (size_t i = r->ninstances; i-- > 0;) {
		json_t *k = json_object_get(index, r->instances[i].name);

		same[i] = k ? (size_t)json_integer_value(k) : SIZE_MAX;
		json_object_set_new_nocheck(index, r->instances[i].name, json_integer((json_int_t)i));
	}
	for (size_t b = bdm ? bdm->hdr + 1 : 0; bdm && b < bdm->nrows; b++) {
		json_t *k = bdm->rows[b].nr ? json_object_get(index, bdm->rows[b].v[0]) : NULL;

		for (size_t i = k ? (size_t)json_integer_value(k) : SIZE_MAX; i != SIZE_MAX;
		     i = same[i])
			inst_class(bdm, b, "Database Maintenance IO Reads",
				   &r->instances[i].classes[CLS_BDM_READ]);
	}
	json_decref(index);
	free(same);
}

/* The per-instance rows of the Transactional I/O table (tio) into r's instances, their BDM
 * rows from bdm, and the overall classes from them; without tio one database.  0, or
 * -FSLAB_EINPUT beyond IMPORT_MAX_INSTANCES. */
static int instance_rows(struct fslab_result *r, const struct jtable *tio,
			 const struct jtable *bdm, const char *file)
{
	size_t h;

	if (!tio) {
		r->config.databases = 1;
		return 0;
	}
	h = tio->hdr + 1;
	if (tio->nrows - h > IMPORT_MAX_INSTANCES)
		return input_error("%s: a Jetstress report of %zu database instances, more than "
				   "the %d fslab reads; the report is damaged, or name a report of "
				   "fewer instances", file, tio->nrows - h, IMPORT_MAX_INSTANCES);
	r->ninstances = tio->nrows - h;
	r->instances = xcalloc(r->ninstances, sizeof(*r->instances));
	for (size_t i = 0; i < r->ninstances; i++) {
		struct instance_result *in = &r->instances[i];

		in->name = xstrdup(tio->rows[i + h].nr ? tio->rows[i + h].v[0] : "?");
		for (int c = 0; c < CLS_NR; c++) {
			in->classes[c].iops = in->classes[c].mbps = NAN;
			in->classes[c].avg_bytes = NAN;
			import_lat_na(&in->classes[c]);
		}
		inst_class(tio, i + h, "I/O Database Reads", &in->classes[CLS_DB_READ]);
		inst_class(tio, i + h, "I/O Database Writes", &in->classes[CLS_DB_WRITE]);
		inst_class(tio, i + h, "I/O Log Writes", &in->classes[CLS_LOG_WRITE]);
		in->pass = r->verdict.pass;
	}
	bdm_rows(r, bdm);
	for (int c = 0; c < CLS_NR; c++)
		overall(r, c);
	r->config.databases = (unsigned int)r->ninstances;
	return 0;
}

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static int jetstress_parse(const char *buf, size_t len, const char *file,
			   struct import_list *out)
{
	struct jdoc d = { 0 };
	const struct jtable *tio, *hostp;
	const char *overall_res, *ver, *kind;
	struct fslab_result *r;
	char fmt[64];
	htmlDocPtr doc;
	int ret;

	xmlSetGenericErrorFunc(NULL, quiet);
	if (len > INT32_MAX)
		return input_error("%s: too large for a Jetstress report", file);
	doc = htmlReadMemory(buf, (int)len, NULL, NULL, HTML_PARSE_NONET | HTML_PARSE_NOERROR |
			     HTML_PARSE_NOWARNING | HTML_PARSE_RECOVER);
	if (!doc)
		return input_error("%s: HTML that libxml2 cannot read at all; name the Jetstress "
				   "report (Performance_*.html, ...)", file);
	walk(xmlDocGetRootElement(doc), &d);
	xmlFreeDoc(doc);
	overall_res = field(&d, "Overall Test Result");
	if (!overall_res) {
		jdoc_free(&d);
		return input_error("%s: an HTML file without Jetstress's \"Overall Test Result\" "
				   "row: not a complete Jetstress report; name the *.html report "
				   "Jetstress wrote (Performance_*, Stress_*, ...)", file);
	}
	if (strcasecmp(overall_res, "Pass") && strcasecmp(overall_res, "Fail")) {
		int ret = input_error("%s: Jetstress \"Overall Test Result\" is '%.40s', expected "
				      "Pass or Fail; the report is damaged", file, overall_res);

		jdoc_free(&d);
		return ret;
	}
	ver = field(&d, "Jetstress Version");
	kind = kind_of(file, &d);
	tio = instance_table(&d, "Transactional I/O Performance", "I/O Database Reads/sec");
	/* database backup and soft recovery reports have other tables; the load tests these */
	if ((!kind || !strcmp(kind, "Performance") || !strcmp(kind, "Stress")) &&
	    (!tio || !field(&d, "Achieved Transactional I/O per Second"))) {
		int ret = input_error("%s: a Jetstress report without its %s: truncated or not a "
				      "complete Performance/Stress report; name the whole *.html "
				      "Jetstress wrote", file, tio ? "\"Achieved Transactional I/O "
				      "per Second\" row" : "Transactional I/O Performance table");

		jdoc_free(&d);
		return ret;
	}
	snprintf(fmt, sizeof(fmt), "Jetstress HTML%s%s", kind ? ", " : "", kind ? kind : "");
	r = import_add(out, NULL, "jetstress", ver, fmt, file, field(&d, "Machine Name"));
	r->verdict.present = true;
	r->verdict.pass = !strcasecmp(overall_res, "Pass");
	ret = summary_fields(r, &d, file);
	if (!ret)
		ret = instance_rows(r, tio, instance_table(&d, "Background Database Maintenance",
							   "Database Maintenance IO Reads/sec"), file);
	if (ret) {
		jdoc_free(&d);
		return ret;
	}
	hostp = instance_table(&d, "Host System Performance", "Counter");
	for (size_t i = hostp ? hostp->hdr + 1 : 0; hostp && i < hostp->nrows; i++)
		if (hostp->rows[i].nr && !strcasecmp(hostp->rows[i].v[0], "% Processor Time")) {
			r->host.cpu_pct_avg = cell(hostp, i, column(hostp, "Average"));
			r->host.cpu_pct_max = cell(hostp, i, column(hostp, "Maximum"));
		}
	result_add_note(r, "imported from %s (Jetstress %s%s%s): rates and average latencies "
			"from the report's tables; counts, percentiles and maxima are not in it",
			file, ver ? ver : "?", kind ? ", " : "", kind ? kind : "");
	if (!tio)
		result_add_note(r, "the report has no Transactional I/O Performance table");
	import_finish(r);
	jdoc_free(&d);
	return 0;
}

const struct importer import_jetstress = {
	.tool = "jetstress",
	.name = "Jetstress HTML",
	.format = "Jetstress HTML report",
	.sniff = jetstress_sniff,
	.parse = jetstress_parse,
};
