// SPDX-License-Identifier: MIT
/*
 * import_diskspd_text.c: DiskSpd's default text output (-Rtext; 2.0.x, 2.1 and 2.2) as results:
 * what Windows administrators paste into tickets and blogs.  The layout is ResultParser.cpp of
 * microsoft/diskspd (v2.0.21a, v2.1 and v2.2 read side by side):
 *
 *   Command Line: ...                         (optional in pasted text)
 *   Input parameters:   timespan: N / duration / warm up time / random seed / measuring
 *                       latency / gathering IOPS / path: '...' and its target lines
 *   System information: computer name / start time / (2.2) cpu count ...
 *   Results for timespan N:                   (one result each; "The test was interrupted
 *                                              before the measurements began." instead)
 *     actual test time (%.2f s) / thread count / (2.0, 2.1) proc count
 *     CPU table ending in "avg.|  Usage% |  User% |  Kernel% |  Idle%"
 *     Total IO / Read IO / Write IO: "thread | bytes | I/Os | MiB/s | I/O per s [| AvgLat]
 *       [| IopsStdDev] [| LatStdDev] | file" rows per thread and target, then "total: ..."
 *     with -L: per-target latency charts (>1 target), then the total one: "total:" (2.0, 2.1)
 *       or "Total latency distribution:" (2.2), "%-ile | Read (ms) | Write (ms) | Total (ms)",
 *       rows min, 25th ... 99th, 3-nines ... 9-nines, max (N/A where a direction had no I/O)
 *
 * Reads -> database reads, writes -> database writes, as the XML importer does, and with the
 * same arithmetic (IOPS and MB/s from the counts and the actual test time) so one run gives the
 * same numbers from its XML and from its text.  The text carries no per-interval data (no
 * timeline) and no version (the version is the layout's: "2.0.x", "2.1" or "2.2").  Text whose
 * rows do not add up to its totals, whose rates disagree with its counts and time, or whose
 * rows cover fewer threads than it ran was cut or edited: refused.
 */
#include "compare/import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "msg.h"

/* ---- lines and fields ---- */

struct lines {
	char **l;
	size_t n;
};

/* buf split at '\n' (a '\r' before it dropped) into a copy; the lines point into it. */
static char *split_lines(const char *buf, size_t len, struct lines *ls)
{
	char *copy = xmalloc(len + 1), *p = copy;
	size_t cap = 64;

	memcpy(copy, buf, len);
	copy[len] = 0;
	ls->n = 0;
	ls->l = xmalloc(cap * sizeof(char *));
	while (p) {
		char *nl = strchr(p, '\n');
		size_t k;

		if (nl)
			*nl = 0;
		k = strlen(p);
		if (k && p[k - 1] == '\r')
			p[k - 1] = 0;
		if (ls->n == cap)
			ls->l = xrealloc(ls->l, (cap *= 2) * sizeof(char *));
		ls->l[ls->n++] = p;
		p = nl ? nl + 1 : NULL;
	}
	return copy;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Does line (leading blanks skipped) start with prefix? */
static bool starts(const char *line, const char *prefix)
{
	return !strncmp(skip_ws(line), prefix, strlen(prefix));
}

/* Is line, without leading and trailing blanks, exactly s? */
static bool is_line(const char *line, const char *s)
{
	const char *p = skip_ws(line);
	size_t n = strlen(s);

	return !strncmp(p, s, n) && !*skip_ws(p + n);
}

static bool dashes(const char *line)
{
	const char *p = skip_ws(line);

	return *p == '-' && strspn(p, "-") >= 10 && !*skip_ws(p + strspn(p, "-"));
}

/* The value after "key:" on a line starting with key (blanks trimmed), into buf; NULL if the
 * line is not that key's. */
static const char *value_of(const char *line, const char *key, char *buf, size_t len)
{
	const char *p = skip_ws(line);
	size_t k = strlen(key), n;

	if (strncmp(p, key, k) || p[k] != ':')
		return NULL;
	p = skip_ws(p + k + 1);
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

/* A whole unsigned decimal (blanks around allowed); false for anything else. */
static bool num_u64(const char *s, uint64_t *out)
{
	char *end;

	s = skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*skip_ws(end);
}

/* A finite decimal, optionally followed by suffix (e.g. "%", "s"); false for anything else. */
static bool num_d(const char *s, const char *suffix, double *out)
{
	char *end;

	s = skip_ws(s);
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '.')
		return false;
	*out = strtod(s, &end);
	if (end == s || !isfinite(*out))
		return false;
	if (suffix && !strncmp(end, suffix, strlen(suffix)))
		end += strlen(suffix);
	return !*skip_ws(end);
}

/* Split line at '|' into at most max trimmed fields (the line is modified). */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (p && n < max) {
		char *bar = strchr(p, '|'), *e;

		if (bar)
			*bar = 0;
		p = (char *)skip_ws(p);
		for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = 0;
		f[n++] = p;
		p = bar ? bar + 1 : NULL;
	}
	return p ? max + 1 : n; /* more fields than max: max + 1 */
}

/* "4096", "4KiB", "1024MiB", "496GiB", "1.50KiB": bytes into *out; *exact false when the
 * number had decimals (DiskSpd 2.1+ prints sizes that are not whole units that way). */
static bool size_of(const char *s, uint64_t *out, bool *exact)
{
	static const struct {
		const char *u;
		unsigned int shift;
	} units[] = { { "TiB", 40 }, { "GiB", 30 }, { "MiB", 20 }, { "KiB", 10 }, { "B", 0 } };
	char *end;
	double v;

	s = skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return false;
	*exact = !memchr(s, '.', (size_t)(end - s));
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(skip_ws(end), units[i].u)) {
			v = ldexp(v, (int)units[i].shift);
			*out = v < 1.8e19 ? (uint64_t)llround(v) : 0;
			return v < 1.8e19;
		}
	}
	if (*skip_ws(end))
		return false;
	*out = v < 1.8e19 ? (uint64_t)llround(v) : 0;
	return v < 1.8e19;
}

/* ---- what the text says ---- */

/* The first target of one timespan in "Input parameters". */
struct dt_params {
	double duration, warmup;
	uint64_t seed, bs;
	bool bs_exact;
	unsigned int qd, random_pct, targets;
	int write_pct;  /* -1 unknown */
	int random;     /* 1 random, 0 sequential, 2 mixed, -1 unknown */
};

/* One IO section (Total, Read or Write) of a timespan. */
struct dt_section {
	bool present;
	size_t rows;
	uint64_t sum_bytes, sum_ios, bytes, ios;
	double mibps, iops, avglat, latsd; /* of the total line; NAN when not printed / N/A */
	bool has_lat;
	uint64_t file_size;                /* first row's target size, 0 when not exact */
	unsigned int *threads;             /* thread numbers of the rows */
};

/* The total latency chart: per direction (0 read, 1 write) min, p50, p90, p99, p99.9, p99.99,
 * max in ms, NAN for N/A. */
struct dt_chart {
	bool present;
	double v[2][7];
};

struct dt_text {
	const char *file;
	struct lines ls;
	char *cmdline, *host, *start;
	unsigned int cpu_count;          /* 2.2: System information's "cpu count" */
	struct dt_params *params;        /* per timespan of Input parameters */
	size_t nparams;
	const char *version;             /* of the layout (layout_version()), or NULL */
};

static int damaged(const struct dt_text *t, size_t line, const char *what)
{
	return input_error("%s: line %zu: %s; DiskSpd's text output is cut or edited: save its whole "
			   "output again (diskspd ... > FILE), or use -Rxml", t->file, line + 1, what);
}

/* Input parameters: the timespans and the first target of each (the load it describes). */
static size_t read_params(struct dt_text *t, size_t i)
{
	struct dt_params *p = NULL;
	char v[256];

	for (; i < t->ls.n; i++) {
		const char *l = t->ls.l[i];
		uint64_t q;
		unsigned int r, w;
		bool exact;

		if (starts(l, "System information:") || starts(l, "Results for timespan"))
			break;
		if (value_of(l, "timespan", v, sizeof(v))) {
			t->params = xrealloc(t->params, (t->nparams + 1) * sizeof(*t->params));
			p = &t->params[t->nparams++];
			*p = (struct dt_params){ .duration = NAN, .warmup = NAN, .write_pct = -1,
						 .random = -1 };
			continue;
		}
		if (!p)
			continue;
		if (value_of(l, "duration", v, sizeof(v)) && !num_d(v, "s", &p->duration))
			p->duration = NAN;
		else if (value_of(l, "warm up time", v, sizeof(v)) && !num_d(v, "s", &p->warmup))
			p->warmup = NAN;
		else if (value_of(l, "random seed", v, sizeof(v)) && !num_u64(v, &p->seed))
			p->seed = 0;
		if (starts(l, "path:"))
			p->targets++;
		if (p->targets != 1)
			continue;
		if (starts(l, "performing read test"))
			p->write_pct = 0;
		else if (starts(l, "performing write test"))
			p->write_pct = 100;
		else if (sscanf(skip_ws(l), "performing mix test (read/write ratio: %u/%u)", &r, &w) == 2
			 && w <= 100)
			p->write_pct = (int)w;
		else if (value_of(l, "block size", v, sizeof(v)) && size_of(v, &p->bs, &exact))
			p->bs_exact = exact;
		else if (starts(l, "using random I/O"))
			p->random = 1;
		else if (starts(l, "using mixed random/sequential I/O"))
			p->random = sscanf(skip_ws(l), "using mixed random/sequential I/O (%u%%",
					   &p->random_pct) == 1 ? 2 : -1;
		else if (starts(l, "using sequential I/O") || starts(l, "using interlocked sequential"))
			p->random = 0;
		else if ((value_of(l, "number of outstanding I/O operations per thread", v, sizeof(v)) ||
			  value_of(l, "number of outstanding I/O operations", v, sizeof(v))) &&
			 num_u64(v, &q) && q <= 1u << 20)
			p->qd = (unsigned int)q;
	}
	return i;
}

static size_t read_system(struct dt_text *t, size_t i)
{
	char v[256];

	for (i++; i < t->ls.n && !starts(t->ls.l[i], "Results for timespan"); i++) {
		uint64_t n;

		if (value_of(t->ls.l[i], "computer name", v, sizeof(v)) && !t->host)
			t->host = xstrdup(v);
		else if (value_of(t->ls.l[i], "start time", v, sizeof(v)) && !t->start)
			t->start = xstrdup(v);
		else if (value_of(t->ls.l[i], "cpu count", v, sizeof(v)) && num_u64(v, &n) &&
			 n <= 1u << 16)
			t->cpu_count = (unsigned int)n;
	}
	return i;
}

/* Column indices of an IO section's header (-1 absent). */
struct dt_cols {
	int n, bytes, ios, mibps, iops, avglat, iopssd, latsd, file;
};

static bool header_cols(char *line, struct dt_cols *c)
{
	char *f[16];
	size_t n = fields(line, f, ARRAY_SIZE(f));

	*c = (struct dt_cols){ .n = (int)n, -1, -1, -1, -1, -1, -1, -1, -1 };
	if (n < 6 || n > ARRAY_SIZE(f) || strcmp(f[0], "thread"))
		return false;
	for (size_t k = 1; k < n; k++) {
		int *slot = !strcmp(f[k], "bytes") ? &c->bytes : !strcmp(f[k], "I/Os") ? &c->ios
			  : !strcmp(f[k], "MiB/s") ? &c->mibps : !strcmp(f[k], "I/O per s") ? &c->iops
			  : !strcmp(f[k], "AvgLat") ? &c->avglat : !strcmp(f[k], "IopsStdDev") ? &c->iopssd
			  : !strcmp(f[k], "LatStdDev") ? &c->latsd : !strcmp(f[k], "file") ? &c->file
			  : NULL;

		if (!slot || *slot >= 0)
			return false;
		*slot = (int)k;
	}
	/* the columns DiskSpd always prints, "file" last */
	return c->bytes == 1 && c->ios == 2 && c->mibps == 3 && c->iops == 4 && c->file == (int)n - 1 &&
	       (c->avglat < 0) == (c->latsd < 0);
}

/* A latency column: a number, or "N/A" (no I/O of that kind) as NAN. */
static bool lat_field(const char *s, double *out)
{
	if (!strcmp(s, "N/A")) {
		*out = NAN;
		return true;
	}
	return num_d(s, NULL, out) && *out >= 0;
}

/* Does printed rate r (2 decimals) fit count n over time t (printed with 2 decimals)? */
static bool rate_fits(double n, double t, double r)
{
	double lo = n / (t + 0.005) - 0.005, hi = n / MAX(t - 0.005, 1e-9) + 0.005;

	return r >= lo - 1e-6 * hi - 1e-9 && r <= hi + 1e-6 * hi + 1e-9;
}

/* One IO section starting at its title line i, of a timespan of secs seconds; *next is the
 * line after its total line. */
static int read_section(struct dt_text *t, size_t i, const char *title, double secs,
			struct dt_section *s, size_t *next)
{
	struct dt_cols c;
	char *f[16];
	size_t n;
	int ret;

	*s = (struct dt_section){ .present = true, .avglat = NAN, .latsd = NAN };
	if (i + 2 < t->ls.n) {
		char *h = xstrdup(t->ls.l[i + 1]);
		bool ok = header_cols(h, &c);

		free(h);
		if (!ok)
			i = t->ls.n;
	}
	if (i + 2 >= t->ls.n)
		return damaged(t, MIN(i + 1, t->ls.n - 1), "an IO table whose column names are not "
			       "DiskSpd's (thread | bytes | I/Os | MiB/s | I/O per s | ... | file)");
	if (!dashes(t->ls.l[i + 2]))
		return damaged(t, i + 2, "no dashed line under the column names");
	s->has_lat = c.avglat >= 0;
	for (i += 3; i < t->ls.n && !dashes(t->ls.l[i]); i++) {
		char *row = xstrdup(t->ls.l[i]), *fs, *open;
		uint64_t th, b, o;
		double d, mibps = NAN, iops = NAN;
		bool ok, exact;

		n = fields(row, f, ARRAY_SIZE(f));
		ok = (int)n == c.n && num_u64(f[0], &th) && th < 1u << 24 && num_u64(f[c.bytes], &b) &&
		     num_u64(f[c.ios], &o) && num_d(f[c.mibps], NULL, &mibps) &&
		     num_d(f[c.iops], NULL, &iops) &&
		     (c.avglat < 0 || num_d(f[c.avglat], NULL, &d)) &&
		     (c.iopssd < 0 || num_d(f[c.iopssd], NULL, &d)) &&
		     (c.latsd < 0 || lat_field(f[c.latsd], &d)) &&
		     rate_fits((double)o, secs, iops) && rate_fits((double)b / 1048576.0, secs, mibps);
		if (ok && !s->rows) {
			/* "testfile.dat (1024MiB)": the target's size in the last parentheses */
			fs = f[c.file];
			open = strrchr(fs, '(');
			if (open && fs[strlen(fs) - 1] == ')') {
				fs[strlen(fs) - 1] = 0;
				if (size_of(open + 1, &s->file_size, &exact) && !exact)
					s->file_size = 0;
			}
		}
		free(row);
		if (!ok) {
			char *what = xasprintf("a %s row that is not DiskSpd's (thread | bytes | I/Os "
					       "| MiB/s | I/O per s ...: its columns, numbers, or rates "
					       "over the actual test time)", title);

			ret = damaged(t, i, what);
			free(what);
			return ret;
		}
		if (__builtin_add_overflow(s->sum_bytes, b, &s->sum_bytes) ||
		    __builtin_add_overflow(s->sum_ios, o, &s->sum_ios))
			return damaged(t, i, "byte or I/O counts beyond 64 bits");
		s->threads = xrealloc(s->threads, (s->rows + 1) * sizeof(unsigned int));
		s->threads[s->rows++] = (unsigned int)th;
	}
	if (i + 1 >= t->ls.n || !starts(t->ls.l[i + 1], "total:"))
		return damaged(t, MIN(i + 1, t->ls.n - 1), "an IO table without its total line");
	i++;
	{
		char *row = xstrdup(skip_ws(t->ls.l[i]) + strlen("total:"));
		bool ok;

		n = fields(row, f, ARRAY_SIZE(f));
		/* the total line has the row's columns without "thread" and "file" */
		ok = (int)n == c.n - 2 && num_u64(f[0], &s->bytes) && num_u64(f[1], &s->ios) &&
		     num_d(f[2], NULL, &s->mibps) && num_d(f[3], NULL, &s->iops) &&
		     (c.avglat < 0 || num_d(f[c.avglat - 1], NULL, &s->avglat)) &&
		     (c.iopssd < 0 || num_d(f[c.iopssd - 1], NULL, &(double){ 0 })) &&
		     (c.latsd < 0 || lat_field(f[c.latsd - 1], &s->latsd));
		free(row);
		if (!ok)
			return damaged(t, i, "a total line that is not DiskSpd's");
	}
	if (!s->rows)
		return damaged(t, i, "an IO table without rows");
	if (s->sum_bytes != s->bytes || s->sum_ios != s->ios)
		return damaged(t, i, "the rows of an IO table do not add up to its total line");
	*next = i + 1;
	return 0;
}

static const char *const chart_rows[] = {
	"min", "25th", "50th", "75th", "90th", "95th", "99th", "3-nines", "4-nines", "5-nines",
	"6-nines", "7-nines", "8-nines", "9-nines", "max",
};
/* chart row -> dt_chart slot (min, p50, p90, p99, p99.9, p99.99, max), -1 not kept */
static const int chart_slot[] = { 0, -1, 1, -1, 2, -1, 3, 4, 5, -1, -1, -1, -1, -1, 6 };

/* The latency chart whose title is line i. */
static int read_chart(struct dt_text *t, size_t i, struct dt_chart *ch)
{
	double prev[3] = { -1, -1, -1 };

	ch->present = true;
	if (i + 2 >= t->ls.n || !starts(t->ls.l[i + 1], "%-ile |") || !dashes(t->ls.l[i + 2]))
		return damaged(t, MIN(i + 1, t->ls.n - 1), "a latency chart without its "
			       "\"%-ile | Read (ms) | Write (ms) | Total (ms)\" header");
	for (size_t k = 0; k < ARRAY_SIZE(chart_rows); k++) {
		size_t at = i + 3 + k;
		char *row, *f[6];
		double v[3];
		bool ok;

		if (at >= t->ls.n)
			return damaged(t, t->ls.n - 1, "the latency chart ends early");
		row = xstrdup(t->ls.l[at]);
		ok = fields(row, f, ARRAY_SIZE(f)) == 4 && !strcmp(f[0], chart_rows[k]) &&
		     lat_field(f[1], &v[0]) && lat_field(f[2], &v[1]) && num_d(f[3], NULL, &v[2]);
		free(row);
		if (!ok)
			return damaged(t, at, "a latency chart row that is not DiskSpd's");
		for (int d = 0; d < 3; d++) {
			/* percentiles never decrease; a direction is N/A in every row or none */
			if (!isnan(v[d]) && v[d] < prev[d])
				return damaged(t, at, "latency percentiles that decrease");
			if (k && (bool)isnan(v[d]) != (prev[d] == -2))
				return damaged(t, at, "a latency column with N/A in some rows only");
			prev[d] = isnan(v[d]) ? -2 : v[d];
		}
		if (chart_slot[k] >= 0) {
			ch->v[0][chart_slot[k]] = v[0];
			ch->v[1][chart_slot[k]] = v[1];
		}
	}
	return 0;
}

static bool section_rates_fit(const struct dt_section *s, double secs)
{
	return rate_fits((double)s->ios, secs, s->iops) &&
	       rate_fits((double)s->bytes / 1048576.0, secs, s->mibps);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static size_t distinct(unsigned int *v, size_t n)
{
	size_t d = 0;

	qsort(v, n, sizeof(*v), cmp_uint);
	for (size_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/*
 * The layout's DiskSpd version (the text names none), or NULL when it does not tell, from
 * lines only some versions print: 2.2 alone has "cpu count" in System information and "Total
 * latency distribution:", and no "proc count" in the results; 2.1 and 2.2 say "number of
 * outstanding I/O operations per thread" (or "relative IO weight in thread pool"), 2.0.x
 * "number of outstanding I/O operations".
 */
static const char *layout_version(const struct lines *ls)
{
	bool per_thread = false, plain_qd = false, proc = false, results = false;

	for (size_t i = 0; i < ls->n; i++) {
		const char *l = ls->l[i];

		if (starts(l, "cpu count:") || is_line(l, "Total latency distribution:"))
			return "2.2";
		per_thread |= starts(l, "number of outstanding I/O operations per thread:") ||
			      starts(l, "relative IO weight in thread pool:");
		plain_qd |= starts(l, "number of outstanding I/O operations:");
		proc |= starts(l, "proc count:");
		results |= starts(l, "actual test time:");
	}
	if (per_thread)
		return proc ? "2.1" : results ? "2.2" : NULL;
	if (plain_qd)
		return "2.0.x";
	return proc || !results ? NULL : "2.2";
}

static char *workload_name(const struct dt_params *p)
{
	int w = p->write_pct;

	if (p->random < 0 || w < 0)
		return NULL;
	if (p->random == 1)
		return xstrdup(!w ? "randread" : w == 100 ? "randwrite" : "randrw");
	if (p->random == 2)
		return xasprintf("diskspd:mixed-r%u-w%d", p->random_pct, w);
	return w == 100 ? xstrdup("seqwrite") : xasprintf("diskspd:sequential-w%d", w);
}

/* One "Results for timespan N:" block, lines [i, end). */
static int one_timespan(struct dt_text *t, size_t i, size_t end, size_t k, size_t nts,
			struct import_list *out)
{
	const struct dt_params *p = k < t->nparams ? &t->params[k] : NULL;
	struct dt_section sec[3] = { 0 };
	struct dt_chart ch = { 0 };
	static const char *const titles[3] = { "Total IO", "Read IO", "Write IO" };
	char sfx[32], v[256];
	double secs = NAN, cpu[3] = { NAN, NAN, NAN };
	uint64_t threads = 0, procs = 0;
	bool interrupted = false, cpu_seen = false;
	struct fslab_result *r;
	size_t start = i;
	int ret = 0;

	for (i++; i < end && !ret; i++) {
		const char *l = t->ls.l[i];

		if (starts(l, "The test was interrupted before the measurements began")) {
			interrupted = true;
		} else if (value_of(l, "actual test time", v, sizeof(v))) {
			if (!num_d(v, "s", &secs) || !(secs > 0))
				ret = damaged(t, i, "an actual test time that is not a positive number");
		} else if (value_of(l, "thread count", v, sizeof(v))) {
			if (!num_u64(v, &threads) || !threads || threads > 1u << 20)
				ret = damaged(t, i, "a thread count that is not a number");
		} else if (value_of(l, "proc count", v, sizeof(v))) {
			if (!num_u64(v, &procs) || procs > 1u << 16)
				ret = damaged(t, i, "a proc count that is not a number");
		} else if (starts(l, "avg.|")) {
			char *row = xstrdup(skip_ws(l)), *f[6];

			cpu_seen = fields(row, f, ARRAY_SIZE(f)) == 5 && num_d(f[1], "%", &cpu[0]) &&
				   num_d(f[2], "%", &cpu[1]) && num_d(f[3], "%", &cpu[2]);
			free(row);
			if (!cpu_seen)
				ret = damaged(t, i, "a CPU average line that is not DiskSpd's");
		} else if (is_line(l, "Total IO") || is_line(l, "Read IO") || is_line(l, "Write IO")) {
			int s = is_line(l, "Total IO") ? 0 : is_line(l, "Read IO") ? 1 : 2;
			size_t next = i + 1;

			if (sec[s].present)
				ret = damaged(t, i, "an IO table twice in one timespan");
			else if (!(secs > 0))
				ret = damaged(t, i, "an IO table before the actual test time");
			else if (!(ret = read_section(t, i, titles[s], secs, &sec[s], &next)))
				i = next - 1;
		} else if (is_line(l, "Total latency distribution:") || is_line(l, "total:")) {
			if (ch.present)
				ret = damaged(t, i, "two total latency charts in one timespan");
			else
				ret = read_chart(t, i, &ch);
		}
	}
	if (ret)
		goto out;
	snprintf(sfx, sizeof(sfx), "ts%zu", k + 1);
	r = import_add(out, nts > 1 ? sfx : NULL, "diskspd", t->version, NULL, t->file,
		       t->host && *t->host ? t->host : NULL);
	r->src.format = t->version ? xasprintf("DiskSpd text, %s layout", t->version)
				   : xstrdup("DiskSpd text");
	r->started_at = t->start ? xstrdup(t->start) : NULL;
	r->config.engine = xstrdup("diskspd");
	r->config.databases = 1;
	if (p) {
		r->config.workload = workload_name(p);
		r->config.duration_s = isfinite(p->duration) ? p->duration : 0;
		r->config.warmup_s = isfinite(p->warmup) ? p->warmup : 0;
		r->config.seed = p->seed;
		r->config.bs = p->bs_exact ? p->bs : 0;
		r->config.iodepth = p->qd;
		/* what the Input parameters say (issue 19: the rest is not recorded) */
		import_recorded(r, workload);
		import_recorded(r, bs);
		import_recorded(r, iodepth);
		import_recorded(r, duration_s);
		import_recorded(r, warmup_s);
		import_recorded(r, seed);
	}
	import_recorded(r, engine);
	if (t->cmdline)
		result_add_note(r, "DiskSpd command line: %.300s", t->cmdline);
	if (interrupted) {
		r->aborted = true;
		r->abort_reason = xstrdup("DiskSpd: The test was interrupted before the measurements "
					  "began. No results are displayed.");
		r->config.threads = 1;
		import_finish(r);
		goto out;
	}
	/* what every finished timespan prints */
	if (!(secs > 0) || !threads || !cpu_seen || !sec[0].present || !sec[1].present ||
	    !sec[2].present) {
		ret = damaged(t, end - 1, !(secs > 0) ? "a timespan without its actual test time"
				 : !threads ? "a timespan without its thread count"
				 : !cpu_seen ? "a timespan without the CPU table's avg. line"
				 : "a timespan without all three IO tables (Total IO, Read IO, Write IO)");
		goto out;
	}
	if (sec[0].bytes != sec[1].bytes + sec[2].bytes || sec[0].ios != sec[1].ios + sec[2].ios) {
		ret = damaged(t, start, "Total IO is not Read IO + Write IO");
		goto out;
	}
	for (int s = 0; s < 3; s++) {
		if (!section_rates_fit(&sec[s], secs)) {
			ret = damaged(t, start, "MiB/s or I/O per s of a total line disagree with "
				      "its bytes, I/Os and the actual test time");
			goto out;
		}
		if (sec[s].rows != sec[0].rows || sec[s].has_lat != sec[0].has_lat) {
			ret = damaged(t, start, "IO tables of different shapes");
			goto out;
		}
	}
	/* DiskSpd prints a row for every thread and target: fewer threads means rows were cut */
	if (distinct(sec[0].threads, sec[0].rows) != threads) {
		char *what = xasprintf("the IO tables have rows of %zu threads but the thread count "
				       "is %llu", distinct(sec[0].threads, sec[0].rows),
				       (unsigned long long)threads);

		ret = damaged(t, start, what);
		free(what);
		goto out;
	}
	if (sec[0].has_lat && !ch.present) {
		ret = damaged(t, end - 1, "latencies measured (-L: AvgLat columns) but no total "
			      "latency chart");
		goto out;
	}
	r->duration_s = secs;
	r->config.threads = (unsigned int)threads;
	r->config.db_size = sec[0].file_size;
	import_recorded(r, threads);
	import_recorded(r, db_size);
	for (int d = 0; d < 2; d++) {
		const struct dt_section *s = &sec[1 + d];
		struct class_result *c = &r->classes[d ? CLS_DB_WRITE : CLS_DB_READ];

		c->ops = s->ios;
		c->bytes = s->bytes;
		c->iops = (double)s->ios / secs;
		c->mbps = (double)s->bytes / secs / 1e6;
		c->avg_bytes = s->ios ? (double)s->bytes / (double)s->ios : NAN;
		import_lat_na(c);
		if (!s->has_lat)
			continue;
		/* isnan() is any nonzero int (mingw's is not 1): compared as bool */
		if ((bool)isnan(ch.v[d][0]) != !s->ios) {
			ret = damaged(t, start, "a latency chart with N/A for a direction that has I/O, "
				      "or values for one that has none");
			goto out;
		}
		if (!s->ios)
			continue;
		c->lat_us.mean = s->avglat * 1e3;
		c->lat_us.stddev = s->latsd * 1e3;
		c->lat_us.min = ch.v[d][0] * 1e3;
		c->lat_us.p50 = ch.v[d][1] * 1e3;
		c->lat_us.p90 = ch.v[d][2] * 1e3;
		c->lat_us.p99 = ch.v[d][3] * 1e3;
		c->lat_us.p99_9 = ch.v[d][4] * 1e3;
		c->lat_us.p99_99 = ch.v[d][5] * 1e3;
		c->lat_us.max = ch.v[d][6] * 1e3;
	}
	for (int c = CLS_LOG_WRITE; c < CLS_NR; c++)
		r->classes[c].iops = r->classes[c].mbps = 0;
	r->host.cpu_pct_avg = cpu[0];
	r->host.cpu_user_pct = cpu[1];
	r->host.cpu_sys_pct = cpu[2];
	r->host.ncpus = (int)(procs ? procs : t->cpu_count);
	result_add_note(r, "imported from %s (%s)%s; the text has no per-interval data: no "
			"timeline", t->file, r->src.format, sec[0].has_lat ? ""
			: "; no -L: latencies n/a");
	import_finish(r);
out:
	for (int s = 0; s < 3; s++)
		free(sec[s].threads);
	return ret;
}

/* ---- the importer ---- */

static bool diskspd_text_sniff(const char *buf, size_t len)
{
	const char *p = skip_ws(buf);

	(void)len;
	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	if (*p == '{' || *p == '<')
		return false;
	/* DiskSpd's section titles at the start of a line */
	for (const char *s = buf; s; s = strchr(s, '\n')) {
		s += *s == '\n';
		if (starts(s, "Command Line:") || starts(s, "Input parameters:") ||
		    starts(s, "Results for timespan "))
			return true;
	}
	return false;
}

static int diskspd_text_parse(const char *buf, size_t len, const char *file,
			      struct import_list *out)
{
	struct dt_text t = { .file = file };
	char *copy = split_lines(buf, len, &t.ls), v[1024];

	size_t i = 0, nts = 0, k = 0, *at = NULL;
	bool params = false;
	int ret = 0;

	t.version = layout_version(&t.ls);
	for (i = 0; i < t.ls.n; i++) {
		const char *l = t.ls.l[i];

		if (value_of(l, "Command Line", v, sizeof(v)) && !t.cmdline) {
			t.cmdline = xstrdup(v);
		} else if (starts(l, "Input parameters:") && !params) {
			params = true;
			i = read_params(&t, i + 1) - 1;
		} else if (starts(l, "System information:")) {
			i = read_system(&t, i) - 1;
		} else if (starts(l, "Results for timespan ")) {
			if (i + 1 >= t.ls.n || strspn(skip_ws(t.ls.l[i + 1]), "*") < 10) {
				ret = damaged(&t, i, "\"Results for timespan\" without its line of "
					      "asterisks");
				break;
			}
			at = xrealloc(at, (nts + 1) * sizeof(size_t));
			at[nts++] = i;
		} else if (is_line(l, "Totals:")) {
			/* the sum over timespans: each timespan is a result already */
			at = xrealloc(at, (nts + 1) * sizeof(size_t));
			at[nts] = i;
			break;
		}
	}
	if (!ret && !nts)
		ret = input_error("%s: DiskSpd text output without \"Results for timespan\": the run "
				  "did not finish or the output was cut; save its whole output again "
				  "(diskspd ... > FILE)", file);
	else if (!ret && nts > IMPORT_MAX_RESULTS)
		ret = input_error("%s: DiskSpd text output of %zu timespans, more than the %d results "
				  "fslab reads from one file; the file is damaged", file, nts,
				  IMPORT_MAX_RESULTS);
	for (k = 0; k < nts && !ret; k++)
		ret = one_timespan(&t, at[k], k + 1 < nts ? at[k + 1]
					      : (i < t.ls.n ? i : t.ls.n), k, nts, out);
	free(at);
	free(t.params);
	free(t.cmdline);
	free(t.host);
	free(t.start);
	free(t.ls.l);
	free(copy);
	return ret;
}

const struct importer import_diskspd_text = {
	.tool = "diskspd",
	.format = "DiskSpd text output (-Rtext, the default)",
	.sniff = diskspd_text_sniff,
	.parse = diskspd_text_parse,
};
