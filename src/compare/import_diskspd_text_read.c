// SPDX-License-Identifier: MIT
/*
 * import_diskspd_text_read.c: DiskSpd's text output read line by line for
 * import_diskspd_text.c (the layout is described there): lines, fields, numbers and sizes;
 * Input parameters, System information, a timespan's IO tables and latency charts, each
 * checked against what DiskSpd prints.
 */
#include "compare/import_diskspd_textP.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "lib/strbuf.h"

/* ---- lines and fields ---- */

/* buf split at '\n' (a '\r' before it dropped) into a copy; the lines point into it. */
char *dt_split_lines(const char *buf, size_t len, struct dt_lines *ls)
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

/* s past its leading blanks */
const char *dt_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Does line (leading blanks skipped) start with prefix? */
bool dt_starts(const char *line, const char *prefix)
{
	return !strncmp(dt_skip_ws(line), prefix, strlen(prefix));
}

/* Is line, without leading and trailing blanks, exactly s? */
bool dt_is_line(const char *line, const char *s)
{
	const char *p = dt_skip_ws(line);
	size_t n = strlen(s);

	return !strncmp(p, s, n) && !*dt_skip_ws(p + n);
}

static bool dashes(const char *line)
{
	const char *p = dt_skip_ws(line);

	return *p == '-' && strspn(p, "-") >= 10 && !*dt_skip_ws(p + strspn(p, "-"));
}

/* The value after "key:" on a line starting with key (blanks trimmed), into v (whole, however
 * long); false if the line is not that key's. */
bool dt_value_of(const char *line, const char *key, struct strbuf *v)
{
	const char *p = dt_skip_ws(line);
	size_t k = strlen(key), n;

	if (strncmp(p, key, k) || p[k] != ':')
		return false;
	p = dt_skip_ws(p + k + 1);
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	strbuf_reset(v);
	strbuf_add(v, p, n);
	return true;
}

/* A whole unsigned decimal (blanks around allowed); false for anything else. */
bool dt_num_u64(const char *s, uint64_t *out)
{
	char *end;

	s = dt_skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*dt_skip_ws(end);
}

/* A finite decimal, optionally followed by suffix (e.g. "%", "s"); false for anything else. */
bool dt_num_d(const char *s, const char *suffix, double *out)
{
	char *end;

	s = dt_skip_ws(s);
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '.')
		return false;
	*out = strtod(s, &end);
	if (end == s || !isfinite(*out))
		return false;
	if (suffix && !strncmp(end, suffix, strlen(suffix)))
		end += strlen(suffix);
	return !*dt_skip_ws(end);
}

/* Split line at '|' into at most max trimmed fields (the line is modified). */
size_t dt_fields(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (p && n < max) {
		char *bar = strchr(p, '|'), *e;

		if (bar)
			*bar = 0;
		p = (char *)dt_skip_ws(p);
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

	s = dt_skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return false;
	*exact = !memchr(s, '.', (size_t)(end - s));
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(dt_skip_ws(end), units[i].u)) {
			v = ldexp(v, (int)units[i].shift);
			*out = v < 1.8e19 ? (uint64_t)llround(v) : 0;
			return v < 1.8e19;
		}
	}
	if (*dt_skip_ws(end))
		return false;
	*out = v < 1.8e19 ? (uint64_t)llround(v) : 0;
	return v < 1.8e19;
}

/* ---- what the text says ---- */




/* The one message of a text that was cut or edited: line (0-based) and what is wrong. */
int dt_damaged(const struct dt_text *t, size_t line, const char *what)
{
	return input_error("%s: line %zu: %s; DiskSpd's text output is cut or edited: save its whole "
			   "output again (diskspd ... > FILE), or use -Rxml", t->file, line + 1, what);
}

/* Input parameters: the timespans and the first target of each (the load it describes). */
size_t dt_read_params(struct dt_text *t, size_t i)
{
	struct dt_params *p = NULL;
	struct strbuf v = STRBUF_INIT;

	for (; i < t->ls.n; i++) {
		const char *l = t->ls.l[i];
		uint64_t q;
		unsigned int r, w;
		bool exact;

		if (dt_starts(l, "System information:") || dt_starts(l, "Results for timespan"))
			break;
		if (dt_value_of(l, "timespan", &v)) {
			t->params = xrealloc(t->params, (t->nparams + 1) * sizeof(*t->params));
			p = &t->params[t->nparams++];
			*p = (struct dt_params){ .duration = NAN, .warmup = NAN, .write_pct = -1,
						 .random = -1 };
			continue;
		}
		if (!p)
			continue;
		if (dt_value_of(l, "duration", &v) && !dt_num_d(v.buf, "s", &p->duration))
			p->duration = NAN;
		else if (dt_value_of(l, "warm up time", &v) && !dt_num_d(v.buf, "s", &p->warmup))
			p->warmup = NAN;
		else if (dt_value_of(l, "random seed", &v) && !dt_num_u64(v.buf, &p->seed))
			p->seed = 0;
		if (dt_starts(l, "path:"))
			p->targets++;
		if (p->targets != 1)
			continue;
		if (dt_starts(l, "performing read test"))
			p->write_pct = 0;
		else if (dt_starts(l, "performing write test"))
			p->write_pct = 100;
		else if (sscanf(dt_skip_ws(l), "performing mix test (read/write ratio: %u/%u)", &r, &w) == 2
			 && w <= 100)
			p->write_pct = (int)w;
		else if (dt_value_of(l, "block size", &v) && size_of(v.buf, &p->bs, &exact))
			p->bs_exact = exact;
		else if (dt_starts(l, "using random I/O"))
			p->random = 1;
		else if (dt_starts(l, "using mixed random/sequential I/O"))
			p->random = sscanf(dt_skip_ws(l), "using mixed random/sequential I/O (%u%%",
					   &p->random_pct) == 1 ? 2 : -1;
		else if (dt_starts(l, "using sequential I/O") || dt_starts(l, "using interlocked sequential"))
			p->random = 0;
		else if ((dt_value_of(l, "number of outstanding I/O operations per thread", &v) ||
			  dt_value_of(l, "number of outstanding I/O operations", &v)) &&
			 dt_num_u64(v.buf, &q) && q <= 1u << 20)
			p->qd = (unsigned int)q;
	}
	strbuf_release(&v);
	return i;
}

/* System information (its title at line i): computer name, start time, cpu count. */
size_t dt_read_system(struct dt_text *t, size_t i)
{
	struct strbuf v = STRBUF_INIT;

	for (i++; i < t->ls.n && !dt_starts(t->ls.l[i], "Results for timespan"); i++) {
		uint64_t n;

		if (dt_value_of(t->ls.l[i], "computer name", &v) && !t->host)
			t->host = xstrdup(v.buf);
		else if (dt_value_of(t->ls.l[i], "start time", &v) && !t->start)
			t->start = xstrdup(v.buf);
		else if (dt_value_of(t->ls.l[i], "cpu count", &v) && dt_num_u64(v.buf, &n) &&
			 n <= 1u << 16)
			t->cpu_count = (unsigned int)n;
	}
	strbuf_release(&v);
	return i;
}

/* Column indices of an IO section's header (-1 absent). */
struct dt_cols {
	int n, bytes, ios, mibps, iops, avglat, iopssd, latsd, file;
};

static bool header_cols(char *line, struct dt_cols *c)
{
	char *f[16];
	size_t n = dt_fields(line, f, ARRAY_SIZE(f));

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
	return dt_num_d(s, NULL, out) && *out >= 0;
}

/* Does printed rate r (2 decimals) fit count n over time t (printed with 2 decimals)? */
static bool rate_fits(double n, double t, double r)
{
	double lo = n / (t + 0.005) - 0.005, hi = n / MAX(t - 0.005, 1e-9) + 0.005;

	return r >= lo - 1e-6 * hi - 1e-9 && r <= hi + 1e-6 * hi + 1e-9;
}

/* One thread's row of an IO table (columns c): valid, and its rates fit its counts over secs?
 * Its thread number, bytes and I/Os into th, b, o; the first row's target size into s. */
static bool section_row(const char *line, const struct dt_cols *c, double secs,
			struct dt_section *s, uint64_t *th, uint64_t *b, uint64_t *o)
{
	char *row = xstrdup(line), *f[16], *fs, *open;
	double d, mibps = NAN, iops = NAN;
	size_t n = dt_fields(row, f, ARRAY_SIZE(f));
	bool ok, exact;

	ok = (int)n == c->n && dt_num_u64(f[0], th) && *th < 1u << 24 && dt_num_u64(f[c->bytes], b) &&
	     dt_num_u64(f[c->ios], o) && dt_num_d(f[c->mibps], NULL, &mibps) &&
	     dt_num_d(f[c->iops], NULL, &iops) &&
	     (c->avglat < 0 || dt_num_d(f[c->avglat], NULL, &d)) &&
	     (c->iopssd < 0 || dt_num_d(f[c->iopssd], NULL, &d)) &&
	     (c->latsd < 0 || lat_field(f[c->latsd], &d)) &&
	     rate_fits((double)*o, secs, iops) && rate_fits((double)*b / 1048576.0, secs, mibps);
	if (ok && !s->rows) {
		/* "testfile.dat (1024MiB)": the target's size in the last parentheses */
		fs = f[c->file];
		open = strrchr(fs, '(');
		if (open && fs[strlen(fs) - 1] == ')') {
			fs[strlen(fs) - 1] = 0;
			if (size_of(open + 1, &s->file_size, &exact) && !exact)
				s->file_size = 0;
		}
	}
	free(row);
	return ok;
}

/* An IO table's total line (the row's columns c without "thread" and "file") into s. */
static bool total_line(const char *line, const struct dt_cols *c, struct dt_section *s)
{
	char *row = xstrdup(dt_skip_ws(line) + strlen("total:")), *f[16];
	size_t n = dt_fields(row, f, ARRAY_SIZE(f));
	bool ok;

	ok = (int)n == c->n - 2 && dt_num_u64(f[0], &s->bytes) && dt_num_u64(f[1], &s->ios) &&
	     dt_num_d(f[2], NULL, &s->mibps) && dt_num_d(f[3], NULL, &s->iops) &&
	     (c->avglat < 0 || dt_num_d(f[c->avglat - 1], NULL, &s->avglat)) &&
	     (c->iopssd < 0 || dt_num_d(f[c->iopssd - 1], NULL, &(double){ 0 })) &&
	     (c->latsd < 0 || lat_field(f[c->latsd - 1], &s->latsd));
	free(row);
	return ok;
}

/* One IO section starting at its title line i, of a timespan of secs seconds; *next is the
 * line after its total line. */
int dt_read_section(struct dt_text *t, size_t i, const char *title, double secs,
		    struct dt_section *s, size_t *next)
{
	struct dt_cols c;
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
		return dt_damaged(t, MIN(i + 1, t->ls.n - 1), "an IO table whose column names are not "
			       "DiskSpd's (thread | bytes | I/Os | MiB/s | I/O per s | ... | file)");
	if (!dashes(t->ls.l[i + 2]))
		return dt_damaged(t, i + 2, "no dashed line under the column names");
	s->has_lat = c.avglat >= 0;
	for (i += 3; i < t->ls.n && !dashes(t->ls.l[i]); i++) {
		uint64_t th, b, o;

		if (!section_row(t->ls.l[i], &c, secs, s, &th, &b, &o)) {
			char *what = xasprintf("a %s row that is not DiskSpd's (thread | bytes | I/Os "
					       "| MiB/s | I/O per s ...: its columns, numbers, or rates "
					       "over the actual test time)", title);

			ret = dt_damaged(t, i, what);
			free(what);
			return ret;
		}
		if (__builtin_add_overflow(s->sum_bytes, b, &s->sum_bytes) ||
		    __builtin_add_overflow(s->sum_ios, o, &s->sum_ios))
			return dt_damaged(t, i, "byte or I/O counts beyond 64 bits");
		s->threads = xrealloc(s->threads, (s->rows + 1) * sizeof(unsigned int));
		s->threads[s->rows++] = (unsigned int)th;
	}
	if (i + 1 >= t->ls.n || !dt_starts(t->ls.l[i + 1], "total:"))
		return dt_damaged(t, MIN(i + 1, t->ls.n - 1), "an IO table without its total line");
	i++;
	if (!total_line(t->ls.l[i], &c, s))
		return dt_damaged(t, i, "a total line that is not DiskSpd's");
	if (!s->rows)
		return dt_damaged(t, i, "an IO table without rows");
	if (s->sum_bytes != s->bytes || s->sum_ios != s->ios)
		return dt_damaged(t, i, "the rows of an IO table do not add up to its total line");
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
int dt_read_chart(struct dt_text *t, size_t i, struct dt_chart *ch)
{
	double prev[3] = { -1, -1, -1 };

	ch->present = true;
	if (i + 2 >= t->ls.n || !dt_starts(t->ls.l[i + 1], "%-ile |") || !dashes(t->ls.l[i + 2]))
		return dt_damaged(t, MIN(i + 1, t->ls.n - 1), "a latency chart without its "
			       "\"%-ile | Read (ms) | Write (ms) | Total (ms)\" header");
	for (size_t k = 0; k < ARRAY_SIZE(chart_rows); k++) {
		size_t at = i + 3 + k;
		char *row, *f[6];
		double v[3];
		bool ok;

		if (at >= t->ls.n)
			return dt_damaged(t, t->ls.n - 1, "the latency chart ends early");
		row = xstrdup(t->ls.l[at]);
		ok = dt_fields(row, f, ARRAY_SIZE(f)) == 4 && !strcmp(f[0], chart_rows[k]) &&
		     lat_field(f[1], &v[0]) && lat_field(f[2], &v[1]) && dt_num_d(f[3], NULL, &v[2]);
		free(row);
		if (!ok)
			return dt_damaged(t, at, "a latency chart row that is not DiskSpd's");
		for (int d = 0; d < 3; d++) {
			/* percentiles never decrease; a direction is N/A in every row or none */
			if (!isnan(v[d]) && v[d] < prev[d])
				return dt_damaged(t, at, "latency percentiles that decrease");
			if (k && (bool)isnan(v[d]) != (prev[d] == -2))
				return dt_damaged(t, at, "a latency column with N/A in some rows only");
			prev[d] = isnan(v[d]) ? -2 : v[d];
		}
		if (chart_slot[k] >= 0) {
			ch->v[0][chart_slot[k]] = v[0];
			ch->v[1][chart_slot[k]] = v[1];
		}
	}
	return 0;
}

/* Do a section's total rates fit its counts over secs? */
bool dt_rates_fit(const struct dt_section *s, double secs)
{
	return rate_fits((double)s->ios, secs, s->iops) &&
	       rate_fits((double)s->bytes / 1048576.0, secs, s->mibps);
}
