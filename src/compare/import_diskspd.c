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

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "msg.h"

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

static uint64_t cnt(double v)
{
	return isfinite(v) && v >= 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

/* The workload name of the Profile's first TimeSpan's targets. */
static char *workload_of(xmlNode *pts, uint64_t *bs, unsigned int *qd, uint64_t *size)
{
	xmlNode *targets = child(pts, "Targets"), *t = child(targets, "Target");
	double w = dnum(t, "WriteRatio");
	bool random = child(t, "Random") != NULL;

	if (!t)
		return NULL;
	*bs = cnt(dnum(t, "BlockSize"));
	*qd = (unsigned int)MIN(cnt(dnum(t, "RequestCount")), 1u << 20);
	*size = cnt(dnum(t, "FileSize"));
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

/* -D buckets as the timeline: per-second read and write rates and average latencies. */
static void timeline(xmlNode *iops, struct timeline *t)
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
		timeline_add_row(t, row);
	}
}

/* The run's start (from <System>) and the load its <Profile> time span pts describes. */
static void profile_config(struct fslab_result *r, xmlNode *sys, xmlNode *pts)
{
	r->started_at = text(sys, "RunTime");
	r->config.workload = workload_of(pts, &r->config.bs, &r->config.iodepth, &r->config.db_size);
	r->config.duration_s = isfinite(dnum(pts, "Duration")) ? dnum(pts, "Duration") : 0;
	r->config.warmup_s = isfinite(dnum(pts, "Warmup")) ? dnum(pts, "Warmup") : 0;
	r->config.seed = cnt(dnum(pts, "RandSeed"));
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
	int nthreads = 0;

	free(version);
	free(host);
	profile_config(r, sys, pts);
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
			rd->ops += cnt(dnum(tg, "ReadCount"));
			rd->bytes += cnt(dnum(tg, "ReadBytes"));
			wr->ops += cnt(dnum(tg, "WriteCount"));
			wr->bytes += cnt(dnum(tg, "WriteBytes"));
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
	r->config.threads = isfinite(dnum(ts, "ThreadCount")) && dnum(ts, "ThreadCount") >= 1
			    ? (unsigned int)MIN(dnum(ts, "ThreadCount"), 1e6) : (unsigned)nthreads;
	r->host.cpu_pct_avg = dnum(cpu, "UsagePercent");
	r->host.cpu_user_pct = dnum(cpu, "UserPercent");
	r->host.cpu_sys_pct = dnum(cpu, "KernelPercent");
	r->host.ncpus = (int)MIN(cnt(dnum(ts, "ProcCount")), 1u << 16);
	timeline(child(ts, "Iops"), &r->timeline);
	result_add_note(r, "imported from %s (DiskSpd %s)%s%s", file,
			r->src.version ? r->src.version : "?",
			child(ts, "Latency") ? "" : "; no -L: latencies n/a",
			r->timeline.nrows ? "" : "; no -D: no per-interval timeline");
	import_finish(r);
	return 0;
}

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
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
	doc = xmlReadMemory(buf, (int)len, NULL, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *e = xmlGetLastError();
		char *msg = xstrdup(e && e->message ? e->message : "parse error");

		/* one line: libxml2's message ends in a newline, may hold more */
		for (char *p = msg; *p; p++)
			if (*p == '\n' || *p == '\r' || (unsigned char)*p < 0x20)
				*p = ' ';
		for (size_t k = strlen(msg); k && msg[k - 1] == ' '; k--)
			msg[k - 1] = 0;
		ret = input_error("%s: DiskSpd XML that is not well-formed (line %d: %s); the file "
				  "is truncated or damaged, re-run diskspd -Rxml", file,
				  e ? e->line : 0, msg);
		free(msg);
		xmlResetLastError();
		return ret;
	}
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
	.format = "DiskSpd XML (-Rxml)",
	.sniff = diskspd_sniff,
	.parse = diskspd_parse,
};
