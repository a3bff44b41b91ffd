// SPDX-License-Identifier: MIT
/*
 * import_diskspd.c: DiskSpd's XML results (-Rxml; 2.0.x and 2.1/2.2) as results, read with
 * libxml2.  Structure from microsoft/diskspd's XmlResultParser.cpp:
 *
 *   <Results> <System> ComputerName, Tool/Version, RunTime </System>
 *             <Profile> ... <TimeSpans><TimeSpan> Duration, Warmup, RandSeed, Targets/Target
 *                       (BlockSize, Random, WriteRatio, RequestCount, FileSize) </Profile>
 *             <TimeSpan> TestTimeSeconds, ThreadCount, ProcCount, CpuUtilization/Average,
 *                        Latency (-L: averages, stdev, Bucket Percentile/ReadMilliseconds/...),
 *                        Iops (-D: Bucket SampleMillisecond= Read= Write= ...),
 *                        Thread/Target (BytesCount, ReadBytes, ReadCount, WriteBytes, ...)
 *                        or <Error> (interrupted before measuring) </TimeSpan> ... </Results>
 *
 * Only the top-level TimeSpans are results (one each; the Profile's TimeSpans are the
 * configuration).  DiskSpd reads -> database reads, writes -> database writes.  Without -L
 * latencies are n/a; without -D there is no timeline.
 */
#include "compare/import.h"

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/base.h"
#include "lib/msg.h"

static bool diskspd_sniff(const char *buf, size_t len)
{
	(void)len;
	return strstr(buf, "<Results") && (strstr(buf, "<System") || strstr(buf, "<TimeSpan"));
}

/* First child element called name, or NULL. */
static xmlNode *child(xmlNode *n, const char *name)
{
	for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, name))
			return c;
	return NULL;
}

/* Text of a child element (heap, trimmed), or NULL. */
static char *text(xmlNode *n, const char *name)
{
	xmlNode *c = name ? child(n, name) : n;
	xmlChar *t;
	char *s, *e;

	if (!c)
		return NULL;
	t = xmlNodeGetContent(c);
	if (!t)
		return NULL;
	s = (char *)t;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	s = xstrdup(s);
	xmlFree(t);
	for (e = s + strlen(s); e > s && strchr(" \t\r\n", e[-1]); e--)
		e[-1] = 0;
	return s;
}

/* A child element's number, NAN when absent or not a number. */
static double dnum(xmlNode *n, const char *name)
{
	char *s = text(n, name), *end;
	double v = NAN;

	if (s) {
		v = strtod(s, &end);
		if (end == s || *end || !isfinite(v))
			v = NAN;
	}
	free(s);
	return v;
}

static double attr(xmlNode *n, const char *name)
{
	xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
	char *end;
	double v = NAN;

	if (a) {
		v = strtod((const char *)a, &end);
		if (end == (char *)a || *end || !isfinite(v))
			v = NAN;
		xmlFree(a);
	}
	return v;
}

/* The first count that is not one (the file is then refused, naming it). */
struct bad_count {
	const char *name;
	char text[40];
};

/*
 * A child element's count: an integer in 0..max, 0 when absent.  Anything else (a fraction,
 * a negative, 2^32 + 1 threads where at most a million are meant, text) is recorded in bad:
 * never cut to a field's width, never read as 0.
 */
static uint64_t count(xmlNode *n, const char *name, uint64_t max, struct bad_count *bad)
{
	char *s = n ? text(n, name) : NULL, *end;
	double v;

	if (!s)
		return 0;
	v = strtod(s, &end);
	if (end == s || *end || !(v >= 0) || v != floor(v) || v > (double)max) {
		if (!bad->name) {
			bad->name = name;
			snprintf(bad->text, sizeof(bad->text), "%.32s", s);
		}
		free(s);
		return 0;
	}
	free(s);
	return v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}

/* What DiskSpd's counts can be: bytes and I/Os (2^63), threads, processors, -o. */
#define DS_MAX_U64 (1ULL << 63)
#define DS_MAX_THREADS 1000000
#define DS_MAX_PROCS 65536
#define DS_MAX_QD (1u << 20)

/* The workload name of the Profile's first TimeSpan's targets. */
static char *workload_of(xmlNode *pts, uint64_t *bs, unsigned int *qd, uint64_t *size,
			 struct bad_count *bad)
{
	xmlNode *targets = child(pts, "Targets"), *t = child(targets, "Target");
	double w = dnum(t, "WriteRatio");
	bool random = child(t, "Random") != NULL;

	if (!t)
		return NULL;
	*bs = count(t, "BlockSize", DS_MAX_U64, bad);
	*qd = (unsigned int)count(t, "RequestCount", DS_MAX_QD, bad);
	*size = count(t, "FileSize", DS_MAX_U64, bad);
	if (isnan(w))
		w = 0;
	if (random && w == 0)
		return xstrdup("randread");
	if (random && w == 100)
		return xstrdup("randwrite");
	if (random)
		return xstrdup("randrw");
	if (w == 100)
		return xstrdup("seqwrite");
	return xasprintf("diskspd:sequential-w%g", w);
}

/* Latency percentiles of one kind ("Read", "Write") from <Latency>. */
static void latency(xmlNode *lat, const char *kind, struct class_result *c)
{
	char avg[32], sd[32], ms[32];

	import_lat_na(c);
	if (!lat || !c->ops)
		return;
	snprintf(avg, sizeof(avg), "Average%sMilliseconds", kind);
	snprintf(sd, sizeof(sd), "%sLatencyStdev", kind);
	snprintf(ms, sizeof(ms), "%sMilliseconds", kind);
	c->lat_us.mean = dnum(lat, avg) * 1e3;
	c->lat_us.stddev = dnum(lat, sd) * 1e3;
	for (xmlNode *b = lat->children; b; b = b->next) {
		double p, v;

		if (b->type != XML_ELEMENT_NODE || strcmp((const char *)b->name, "Bucket"))
			continue;
		p = dnum(b, "Percentile");
		v = dnum(b, ms) * 1e3;
		if (p == 0)
			c->lat_us.min = v;
		else if (p == 50)
			c->lat_us.p50 = v;
		else if (p == 90)
			c->lat_us.p90 = v;
		else if (p == 99)
			c->lat_us.p99 = v;
		else if (fabs(p - 99.9) < 1e-9)
			c->lat_us.p99_9 = v;
		else if (fabs(p - 99.99) < 1e-9)
			c->lat_us.p99_99 = v;
		else if (p == 100)
			c->lat_us.max = v;
	}
}

/* -D buckets as the timeline: per-second read and write rates and average latencies.
 * Returns the number of buckets (beyond TIMELINE_MAX_ROWS: stopped there, the file refused). */
static size_t timeline(xmlNode *iops, struct timeline *t)
{
	static const char *const cols[] = {
		"t_s", "db_read_ops", "db_read_lat_mean_us", "db_write_ops", "db_write_lat_mean_us",
	};
	bool any = false;

	for (xmlNode *b = iops ? iops->children : NULL; b; b = b->next) {
		double row[5];

		if (b->type != XML_ELEMENT_NODE || strcmp((const char *)b->name, "Bucket"))
			continue;
		row[0] = attr(b, "SampleMillisecond") / 1e3;
		row[1] = attr(b, "Read");
		row[2] = attr(b, "ReadAvgLatencyMilliseconds") * 1e3;
		row[3] = attr(b, "Write");
		row[4] = attr(b, "WriteAvgLatencyMilliseconds") * 1e3;
		if (isnan(row[0]) || isnan(row[1]) || isnan(row[3]))
			continue;
		if (!any)
			timeline_init(t, cols, ARRAY_SIZE(cols));
		any = true;
		if (t->nrows == TIMELINE_MAX_ROWS)
			return t->nrows + 1;
		timeline_add_row(t, row);
		/* a long one goes to a temporary file (in memory when that fails) */
		if (t->nrows == TIMELINE_MEM_ROWS && !t->spill)
			(void)timeline_spill(t);
	}
	return t->nrows;
}

/* The refusal of the first count that is not one, naming its element and range. */
static int bad_count_error(const char *file, const struct bad_count *bad)
{
	uint64_t max = !strcmp(bad->name, "ThreadCount") ? DS_MAX_THREADS :
		       !strcmp(bad->name, "ProcCount") ? DS_MAX_PROCS :
		       !strcmp(bad->name, "RequestCount") ? DS_MAX_QD :
		       !strcmp(bad->name, "RandSeed") ? UINT64_MAX : DS_MAX_U64;

	return input_error("%s: DiskSpd <%s> is '%s', not a count DiskSpd writes (an integer "
			   "0..%llu); the file is damaged, re-run diskspd -Rxml", file, bad->name,
			   bad->text, (unsigned long long)max);
}

/* The run's start (from <System>) and the load its <Profile> time span pts describes. */
static void profile_config(struct fslab_result *r, xmlNode *sys, xmlNode *pts,
			   struct bad_count *bad)
{
	r->started_at = text(sys, "RunTime");
	r->config.workload = workload_of(pts, &r->config.bs, &r->config.iodepth, &r->config.db_size,
					 bad);
	r->config.duration_s = isfinite(dnum(pts, "Duration")) ? dnum(pts, "Duration") : 0;
	r->config.warmup_s = isfinite(dnum(pts, "Warmup")) ? dnum(pts, "Warmup") : 0;
	r->config.seed = count(pts, "RandSeed", UINT64_MAX, bad);
	r->config.databases = 1;
	r->config.engine = xstrdup("diskspd");
	/* what the Profile says; DiskSpd has no databases, cache, verification or verdict */
	import_recorded(r, workload);
	import_recorded(r, bs);
	import_recorded(r, iodepth);
	import_recorded(r, db_size);
	import_recorded(r, duration_s);
	import_recorded(r, warmup_s);
	import_recorded(r, seed);
	import_recorded(r, engine);
	import_recorded(r, threads);
}

static int one_timespan(struct import_list *out, xmlNode *ts, xmlNode *sys, xmlNode *pts,
			const char *file, const char *suffix)
{
	char *version = text(child(sys, "Tool"), "Version"), *host = text(sys, "ComputerName");
	struct fslab_result *r = import_add(out, suffix, "diskspd", version, "DiskSpd XML", file,
					    host && *host ? host : NULL);
	struct class_result *rd = &r->classes[CLS_DB_READ], *wr = &r->classes[CLS_DB_WRITE];
	xmlNode *cpu = child(child(ts, "CpuUtilization"), "Average");
	char *err = text(ts, "Error");
	double secs = dnum(ts, "TestTimeSeconds");
	struct bad_count bad = { 0 };
	int nthreads = 0;

	free(version);
	free(host);
	profile_config(r, sys, pts, &bad);
	if (err) {
		r->aborted = true;
		r->abort_reason = xasprintf("DiskSpd: %.200s", err);
		free(err);
		r->config.threads = 1;
		import_finish(r);
		return 0;
	}
	if (!(secs > 0))
		return input_error("%s: a DiskSpd <TimeSpan> without <TestTimeSeconds> or <Error>; "
				   "the file is truncated or damaged, re-run diskspd -Rxml", file);
	r->duration_s = secs;
	rd->ops = wr->ops = rd->bytes = wr->bytes = 0;
	for (xmlNode *th = ts->children; th; th = th->next) {
		if (th->type != XML_ELEMENT_NODE || strcmp((const char *)th->name, "Thread"))
			continue;
		nthreads++;
		for (xmlNode *tg = th->children; tg; tg = tg->next) {
			if (tg->type != XML_ELEMENT_NODE || strcmp((const char *)tg->name, "Target"))
				continue;
			rd->ops = sat_add(rd->ops, count(tg, "ReadCount", DS_MAX_U64, &bad));
			rd->bytes = sat_add(rd->bytes, count(tg, "ReadBytes", DS_MAX_U64, &bad));
			wr->ops = sat_add(wr->ops, count(tg, "WriteCount", DS_MAX_U64, &bad));
			wr->bytes = sat_add(wr->bytes, count(tg, "WriteBytes", DS_MAX_U64, &bad));
		}
	}
	if (!nthreads)
		return input_error("%s: a DiskSpd <TimeSpan> without any <Thread>; the file is "
				   "truncated or damaged, re-run diskspd -Rxml", file);
	for (int k = 0; k < 2; k++) {
		struct class_result *c = k ? wr : rd;

		c->iops = (double)c->ops / secs;
		c->mbps = (double)c->bytes / secs / 1e6;
		c->avg_bytes = c->ops ? (double)c->bytes / (double)c->ops : NAN;
		latency(child(ts, "Latency"), k ? "Write" : "Read", c);
	}
	for (int c = CLS_LOG_WRITE; c < CLS_NR; c++)
		r->classes[c].iops = r->classes[c].mbps = 0;
	r->config.threads = (unsigned int)count(ts, "ThreadCount", DS_MAX_THREADS, &bad);
	if (!r->config.threads)
		r->config.threads = (unsigned int)nthreads;
	r->host.cpu_pct_avg = dnum(cpu, "UsagePercent");
	r->host.cpu_user_pct = dnum(cpu, "UserPercent");
	r->host.cpu_sys_pct = dnum(cpu, "KernelPercent");
	r->host.ncpus = (int)count(ts, "ProcCount", DS_MAX_PROCS, &bad);
	if (bad.name)
		return bad_count_error(file, &bad);
	if (timeline(child(ts, "Iops"), &r->timeline) > TIMELINE_MAX_ROWS)
		return input_error("%s: a DiskSpd -D timeline of more than %u buckets, more than "
				   "fslab reads (48 days at one per second); the file is damaged",
				   file, TIMELINE_MAX_ROWS);
	result_add_note(r, "imported from %s (DiskSpd %s)%s%s", file,
			r->src.version ? r->src.version : "?",
			child(ts, "Latency") ? "" : "; no -L: latencies n/a",
			r->timeline.nrows ? "" : "; no -D: no per-interval timeline");
	import_finish(r);
	return 0;
}

/* Does the XML declaration at the start of buf name UTF-16 (or UCS-2) as the encoding? */
static bool declares_utf16(const char *buf, size_t len)
{
	char decl[256], *end, *enc;

	/* the declaration alone (at most 255 bytes, NUL-terminated for the string functions) */
	snprintf(decl, sizeof(decl), "%.*s", (int)MIN(len, sizeof(decl) - 1), buf);
	end = !strncmp(decl, "<?xml", 5) ? strstr(decl, "?>") : NULL;
	if (!end)
		return false;
	*end = 0;
	enc = strstr(decl, "encoding");
	if (!enc)
		return false;
	enc += 8;
	while (*enc && strchr(" \t\r\n=\"'", *enc))
		enc++;
	return !strncasecmp(enc, "UTF-16", 6) || !strncasecmp(enc, "UTF16", 5) ||
	       !strncasecmp(enc, "UCS-2", 5) || !strncasecmp(enc, "UCS2", 4);
}

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/*
 * The XML tree of buf, or NULL with *ret the refusal (one line printed).  Entities are not
 * substituted (no XML_PARSE_NOENT), blank text between elements is dropped (a long -D run:
 * millions of nodes less).  A file that declares UTF-16 reached here as UTF-8 (import.c
 * converts UTF-16 with its byte order mark): read as such.
 */
static xmlDoc *read_doc(const char *buf, size_t len, const char *file, int *ret)
{
	bool utf16 = declares_utf16(buf, len);
	xmlDoc *doc = xmlReadMemory(buf, (int)len, NULL, utf16 ? "UTF-8" : NULL,
				    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
				    XML_PARSE_NOBLANKS | XML_PARSE_COMPACT |
				    (utf16 ? XML_PARSE_IGNORE_ENC : 0));

	if (!doc) {
		const xmlError *e = xmlGetLastError();
		char *msg = xstrdup(e && e->message ? e->message : "parse error");

		/* one line: libxml2's message ends in a newline, may hold more */
		for (char *p = msg; *p; p++)
			if (*p == '\n' || *p == '\r' || (unsigned char)*p < 0x20)
				*p = ' ';
		for (size_t k = strlen(msg); k && msg[k - 1] == ' '; k--)
			msg[k - 1] = 0;
		*ret = input_error("%s: DiskSpd XML that is not well-formed (line %d: %s); the file "
				   "is truncated or damaged, re-run diskspd -Rxml", file,
				   e ? e->line : 0, msg);
		free(msg);
		xmlResetLastError();
		return NULL;
	}
	/*
	 * Entities (<!ENTITY> in a DOCTYPE) are refused, not expanded: libxml2 bounds their
	 * expansion while parsing, but reading the text later (xmlNodeGetContent, xmlGetProp)
	 * expands references again without a bound: a 143 KB billion-laughs file took 9 s and
	 * 320 MB.  DiskSpd writes no DOCTYPE.
	 */
	if (doc->intSubset && doc->intSubset->entities &&
	    xmlHashSize((xmlHashTablePtr)doc->intSubset->entities) > 0) {
		xmlFreeDoc(doc);
		*ret = input_error("%s: XML that declares entities (<!ENTITY> in its DOCTYPE); "
				   "DiskSpd writes none, and fslab does not expand them (a "
				   "billion-laughs guard): name the file diskspd -Rxml wrote", file);
		return NULL;
	}
	return doc;
}

static int diskspd_parse(const char *buf, size_t len, const char *file,
			 struct import_list *out)
{
	xmlDoc *doc;
	xmlNode *root, *sys, *pts;
	int ret = 0, nts = 0, i = 0;

	xmlSetGenericErrorFunc(NULL, quiet);
	if (len > INT32_MAX)
		return input_error("%s: too large for an XML result", file);
	doc = read_doc(buf, len, file, &ret);
	if (!doc)
		return ret;
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "Results")) {
		xmlFreeDoc(doc);
		return input_error("%s: XML whose root is not <Results>: not DiskSpd's -Rxml output; "
				   "name the file diskspd -Rxml wrote", file);
	}
	sys = child(root, "System");
	pts = child(child(child(root, "Profile"), "TimeSpans"), "TimeSpan");
	for (xmlNode *ts = root->children; ts; ts = ts->next)
		nts += ts->type == XML_ELEMENT_NODE && !strcmp((const char *)ts->name, "TimeSpan");
	if (!nts)
		ret = input_error("%s: DiskSpd XML without a top-level <TimeSpan> (the results); the "
				  "run did not finish, re-run diskspd -Rxml", file);
	else if (nts > IMPORT_MAX_RESULTS)
		ret = input_error("%s: DiskSpd XML of %d result <TimeSpan>s, more than the %d "
				  "results fslab reads from one file; the file is damaged", file,
				  nts, IMPORT_MAX_RESULTS);
	for (xmlNode *ts = root->children; ts && !ret; ts = ts->next) {
		char sfx[32];

		if (ts->type != XML_ELEMENT_NODE || strcmp((const char *)ts->name, "TimeSpan"))
			continue;
		snprintf(sfx, sizeof(sfx), "ts%d", ++i);
		ret = one_timespan(out, ts, sys, pts, file, nts > 1 ? sfx : NULL);
		/* the n-th result TimeSpan belongs to the n-th profile TimeSpan */
		pts = pts ? pts->next : NULL;
		while (pts && pts->type != XML_ELEMENT_NODE)
			pts = pts->next;
	}
	xmlFreeDoc(doc);
	return ret;
}

const struct importer import_diskspd = {
	.tool = "diskspd",
	.name = "DiskSpd XML",
	.format = "DiskSpd XML (-Rxml)",
	.sniff = diskspd_sniff,
	.parse = diskspd_parse,
};
