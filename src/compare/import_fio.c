// SPDX-License-Identifier: MIT
/*
 * import_fio.c: fio's JSON output (--output-format=json and json+, fio 3.x) as results.
 *
 * - "jobs": every job of the file is merged into one result; "client_stats" of a
 *   client/server run: one result per host (suffix host-port) and fio's "All clients" entry
 *   (no suffix).
 * - read -> database reads, write -> database writes (fslab's simple workloads record their
 *   I/O in these classes); trim is not a class fslab has: counted in a note.
 * - Latency: fio's lat_ns (submission to completion, what fslab times) when the run has its
 *   percentiles (lat_percentiles=1, as `fslab export --to fio` writes), else clat_ns; the note
 *   says which.  json+ "bins" (value = fio's bucket midpoint, fio's layout = fslab's, hist.h)
 *   are re-bucketed into a struct hist, so merged jobs and hosts get exact percentiles ("All
 *   clients" has no bins of its own: its histogram is the sum of the hosts').  Without bins
 *   the percentiles of a single job are fio's own; those of merged jobs are n/a.
 * - Text before the JSON object (fio prints notes and errors there) is skipped.
 */
#include "compare/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "lib/units.h"

#define FIO_FORMAT "fio JSON"

static bool fio_sniff(const char *buf, size_t len)
{
	(void)len;
	return strstr(buf, "\"fio version\"") != NULL;
}

/* One class summed over jobs. */
struct acc {
	uint64_t ops, bytes;
	double iops, bw_bytes;
	uint64_t n;                 /* latency samples */
	long double sum, sumsq;     /* ns, from each job's mean and stddev */
	double min, max;            /* ns */
	struct hist *h;             /* bins, when every job with I/O had them */
	bool bins_missing;          /* a job with I/O had none */
	size_t jobs;                /* jobs with I/O */
	double pct[5];              /* the single job's own percentiles (ns), else NAN */
};

static const char *const pct_keys[5] = {
	"50.000000", "90.000000", "99.000000", "99.900000", "99.990000",
};

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A finite count >= 0, or 0. */
static uint64_t count(json_t *o, const char *key)
{
	double v = num(o, key);

	return isfinite(v) && v >= 0 && v < 1.8e19 ? (uint64_t)v : 0;
}

static const char *opt(json_t *job, json_t *global, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(job, "job options"),
							  key));

	return s ? s : json_string_value(json_object_get(global, key));
}

/* Which latency object the file's jobs report with percentiles: "lat_ns" or "clat_ns". */
static const char *lat_key(json_t *jobs)
{
	size_t i;
	json_t *j;

	json_array_foreach(jobs, i, j) {
		json_t *l = json_object_get(json_object_get(j, "read"), "lat_ns");

		if (!json_object_get(l, "percentile"))
			l = json_object_get(json_object_get(j, "write"), "lat_ns");
		if (json_object_get(l, "percentile") || json_object_get(l, "bins"))
			return "lat_ns";
	}
	return "clat_ns";
}

static int add_dir(struct acc *a, json_t *d, const char *lk, const char *file)
{
	json_t *lat = json_object_get(d, lk), *bins, *pct, *v;
	uint64_t ops = count(d, "total_ios"), n = count(lat, "N");
	double mean = num(lat, "mean"), sd = num(lat, "stddev");
	const char *k;

	if (!json_is_object(d))
		return 0;
	a->ops += ops;
	a->bytes += count(d, "io_bytes");
	if (isfinite(num(d, "iops")) && num(d, "iops") >= 0)
		a->iops += num(d, "iops");
	if (isfinite(num(d, "bw_bytes")) && num(d, "bw_bytes") >= 0)
		a->bw_bytes += num(d, "bw_bytes");
	if (!ops || !n)
		return 0;
	/*
	 * 1e15 ns (11.6 days) is compare's own plausibility bound for a latency; beyond it the
	 * sums below would leave the 128-bit histogram sums (a 1e300 mean: undefined behaviour).
	 */
	if (!isfinite(mean) || mean < 0 || !isfinite(sd) || sd < 0 || mean > 1e15 || sd > 1e15)
		return input_error("%s: a fio job's %s has no usable mean or stddev (%g, %g; at most "
				   "1e15 ns); the file is damaged, re-run fio", file, lk, mean, sd);
	a->jobs++;
	a->n += n;
	a->sum += (long double)mean * n;
	a->sumsq += (long double)sd * sd * (n > 1 ? n - 1 : 0) + (long double)mean * mean * n;
	if (isfinite(num(lat, "min")) && (a->jobs == 1 || num(lat, "min") < a->min))
		a->min = num(lat, "min");
	if (isfinite(num(lat, "max")) && (a->jobs == 1 || num(lat, "max") > a->max))
		a->max = num(lat, "max");
	pct = json_object_get(lat, "percentile");
	for (int i = 0; i < 5; i++)
		a->pct[i] = a->jobs == 1 ? num(pct, pct_keys[i]) : NAN;
	bins = json_object_get(lat, "bins");
	if (!json_is_object(bins)) {
		a->bins_missing = true;
		return 0;
	}
	if (!a->h) {
		a->h = xcalloc(1, sizeof(*a->h));
		hist_init(a->h);
	}
	json_object_foreach(bins, k, v) {
		uint64_t val, c;

		if (parse_u64(k, 0, UINT64_MAX, &val) || !json_is_number(v) ||
		    json_number_value(v) < 0 || json_number_value(v) > 1e18)
			return input_error("%s: a json+ latency bin '%.20s' is not a value with a "
					   "count; the file is damaged, re-run fio", file, k);
		c = (uint64_t)json_number_value(v);
		a->h->buckets[hist_index(val)] += c;
		a->h->n += c;
	}
	return 0;
}

static uint64_t clamp_ns(double v)
{
	return isfinite(v) && v > 0 ? (v < 1.8e19 ? (uint64_t)v : UINT64_MAX) : 0;
}

/* The summed class into c: counts, rates, latency summary and histogram (ns -> us).
 * 0, or -FSLAB_EINPUT when the sums do not fit the histogram's 128-bit sums. */
static int acc_finish(struct acc *a, struct class_result *c, const char *file)
{
	c->ops = a->ops;
	c->bytes = a->bytes;
	c->iops = a->iops;
	c->mbps = a->bw_bytes / 1e6;
	c->avg_bytes = a->ops ? (double)a->bytes / (double)a->ops : NAN;
	import_lat_na(c);
	if (!a->n) {
		free(a->h);
		a->h = NULL;
		return 0;
	}
	c->lat_us.mean = (double)(a->sum / a->n) / 1e3;
	c->lat_us.stddev = a->n > 1 ? sqrt(fmaxl(0, (a->sumsq - a->sum * a->sum / a->n) /
						     (a->n - 1))) / 1e3 : 0;
	c->lat_us.min = a->min / 1e3;
	c->lat_us.max = a->max / 1e3;
	if (a->h && !a->bins_missing && a->h->n) {
		struct hist *h = a->h;
		double p[5] = { 50, 90, 99, 99.9, 99.99 };
		double *dst[5] = { &c->lat_us.p50, &c->lat_us.p90, &c->lat_us.p99,
				   &c->lat_us.p99_9, &c->lat_us.p99_99 };

		/* a value outside 0..2^127 converted to unsigned __int128 is undefined */
		if (!(a->sum < 0x1p127L && a->sumsq < 0x1p127L)) {
			free(a->h);
			a->h = NULL;
			return input_error("%s: fio latency sums beyond any run (means and stddevs "
					   "times %llu samples); the file is damaged, re-run fio", file,
					   (unsigned long long)a->n);
		}
		h->min = clamp_ns(a->min);
		h->max = clamp_ns(a->max);
		h->sum = (unsigned __int128)fmaxl(0, a->sum);
		h->sumsq = (unsigned __int128)fmaxl(0, a->sumsq);
		for (int i = 0; i < 5; i++)
			*dst[i] = (double)hist_percentile(h, p[i]) / 1e3;
		c->hist = h;
		a->h = NULL;
		return 0;
	}
	free(a->h);
	a->h = NULL;
	c->lat_us.p50 = a->pct[0] / 1e3;
	c->lat_us.p90 = a->pct[1] / 1e3;
	c->lat_us.p99 = a->pct[2] / 1e3;
	c->lat_us.p99_9 = a->pct[3] / 1e3;
	c->lat_us.p99_99 = a->pct[4] / 1e3;
	return 0;
}

/*
 * The class of a job's direction: `fslab export --to fio` names the jetstress jobs
 * fslab-db<N>, fslab-log<N> and fslab-bdm<N>; a log job's writes are log writes, a BDM job's
 * reads BDM reads; everything else is database reads and writes.
 */
static int cls_of(json_t *job, int write)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));

	if (name && !strncmp(name, "fslab-log", 9) && write)
		return CLS_LOG_WRITE;
	if (name && !strncmp(name, "fslab-bdm", 9) && !write)
		return CLS_BDM_READ;
	return write ? CLS_DB_WRITE : CLS_DB_READ;
}

/* fio's rw= as an fslab workload name where one matches. */
static const char *workload_of(const char *rw)
{
	if (!rw)
		return NULL;
	if (!strcmp(rw, "randread") || !strcmp(rw, "randwrite") || !strcmp(rw, "randrw"))
		return rw;
	if (!strcmp(rw, "write"))
		return "seqwrite";
	return NULL;
}

struct fio_src {
	const char *file, *version, *lk;
	json_t *global;
};

/* What summing a result's jobs gives besides its classes. */
struct fio_sum {
	const char *rw0;   /* the first job's rw= */
	bool rw_differs;   /* another job has another rw= */
	uint64_t trims;
	double runtime;    /* s: the longest direction of any job */
};

/* A job's own "steadystate" object (fio --steadystate), when it has one, into r->fio_ss. */
static void steadystate_of(struct fslab_result *r, json_t *job)
{
	json_t *ss = json_object_get(job, "steadystate"), *data;
	struct fio_steadystate *f;
	const char *v;

	if (!json_is_object(ss))
		return;
	data = json_object_get(ss, "data");
	r->fio_ss = xrealloc(r->fio_ss, (r->nfio_ss + 1) * sizeof(*r->fio_ss));
	f = &r->fio_ss[r->nfio_ss++];
	memset(f, 0, sizeof(*f));
	v = json_string_value(json_object_get(job, "jobname"));
	f->job = v ? xstrdup(v) : NULL;
	v = json_string_value(json_object_get(ss, "ss"));
	f->ss = v ? xstrdup(v) : NULL;
	v = json_string_value(json_object_get(ss, "criterion"));
	f->criterion = v ? xstrdup(v) : NULL;
	f->duration_s = num(ss, "duration");
	f->attained = isfinite(num(ss, "attained")) && num(ss, "attained") != 0;
	f->max_deviation = num(ss, "max_deviation");
	f->slope = num(ss, "slope");
	f->iops_mean = num(data, "iops_mean");
	f->bw_mean = num(data, "bw_mean");
}

/* jobs[0..n) summed into r's classes, its threads and sum; the histograms come from
 * bin_jobs[0..nbin) instead when nbin ("All clients": see one_result()). */
static int sum_jobs(struct fslab_result *r, const struct fio_src *s, json_t **jobs, size_t n,
		    json_t **bin_jobs, size_t nbin, struct fio_sum *sum)
{
	struct acc acc[CLS_NR] = { 0 }, hacc[CLS_NR] = { 0 };
	const char *dirs[2] = { "read", "write" };
	uint64_t v;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		json_t *j = jobs[i], *o = nbin ? bin_jobs[0] : j;
		const char *rw = opt(o, s->global, "rw"), *nj = opt(o, s->global, "numjobs");
		double err = num(j, "error");

		if (!json_is_object(j)) {
			ret = input_error("%s: a fio job is not an object; the file is damaged, "
					  "re-run fio", s->file);
			break;
		}
		/* group_reporting: one entry stands for numjobs jobs (fio's own limit: 4096) */
		if (nj && parse_u64(nj, 1, 4096, &v) == -ERANGE) {
			ret = input_error("%s: a fio job's numjobs is %.24s, outside 1..4096; the file "
					  "is damaged, re-run fio", s->file, nj);
			break;
		}
		if (isfinite(err) && err != 0 && !r->aborted) {
			const char *name = json_string_value(json_object_get(j, "jobname"));

			r->aborted = true;
			r->abort_reason = xasprintf("fio job '%.40s' ended with error %g (%s)",
						    name ? name : "?", err,
						    err > 0 && err < 4096 ? strerror((int)err) : "?");
		}
		if (i == 0)
			sum->rw0 = rw;
		else if (!sum->rw0 || !rw || strcmp(sum->rw0, rw))
			sum->rw_differs = true;
		for (int d = 0; d < 2 && !ret; d++) {
			json_t *dj = json_object_get(j, dirs[d]);

			ret = add_dir(&acc[cls_of(j, d)], dj, s->lk, s->file);
			sum->runtime = fmax(sum->runtime, num(dj, "runtime") / 1e3);
		}
		sum->trims += count(json_object_get(j, "trim"), "total_ios");
		steadystate_of(r, j);
		r->config.threads += nj && !parse_u64(nj, 1, 4096, &v) && n == 1 ? (unsigned)v : 1;
	}
	for (size_t i = 0; i < nbin && !ret; i++)
		for (int d = 0; d < 2 && !ret; d++)
			ret = add_dir(&hacc[cls_of(bin_jobs[i], d)],
				      json_object_get(bin_jobs[i], dirs[d]), s->lk, s->file);
	for (int d = 0; d < CLS_NR; d++) {
		if (nbin) {
			/* totals from the entry itself, the histogram from the hosts */
			free(acc[d].h);
			acc[d].h = hacc[d].h;
			acc[d].bins_missing = hacc[d].bins_missing || !hacc[d].h;
			hacc[d].h = NULL;
		}
		if (!ret) {
			ret = acc_finish(&acc[d], &r->classes[d], s->file);
		} else {
			free(acc[d].h); /* the file is refused: one message is enough */
			acc[d].h = NULL;
		}
		free(hacc[d].h);
	}
	return ret;
}

/* What the job options of oj say (a value fio's JSON does not carry stays not recorded).
 * 0, or -FSLAB_EINPUT for an option out of fio's own range. */
static int job_config(struct fslab_result *r, const struct fio_src *s, json_t *oj)
{
	uint64_t v;

	if (oj && opt(oj, s->global, "ioengine")) {
		r->config.engine = xstrdup(opt(oj, s->global, "ioengine"));
		import_recorded(r, engine);
	}
	if (oj && opt(oj, s->global, "bs") && !parse_size(opt(oj, s->global, "bs"), &v)) {
		r->config.bs = v;
		import_recorded(r, bs);
	}
	if (oj && opt(oj, s->global, "iodepth")) {
		int e = parse_u64(opt(oj, s->global, "iodepth"), 1, 1 << 20, &v);

		if (e == -ERANGE)
			return input_error("%s: a fio job's iodepth is %.24s, outside 1..%d; the file "
					   "is damaged, re-run fio", s->file,
					   opt(oj, s->global, "iodepth"), 1 << 20);
		if (!e) {
			r->config.iodepth = (unsigned)v;
			import_recorded(r, iodepth);
		}
	}
	if (oj && opt(oj, s->global, "size") && !parse_size(opt(oj, s->global, "size"), &v)) {
		uint64_t off = 0;

		/* the file's extent: fslab's data file = its 32 KiB header + the region fio used */
		if (opt(oj, s->global, "offset") && parse_size(opt(oj, s->global, "offset"), &off))
			off = 0;
		r->config.db_size = v + off;
		import_recorded(r, db_size);
	}
	if (oj && opt(oj, s->global, "randseed") &&
	    !parse_u64(opt(oj, s->global, "randseed"), 0, INT64_MAX, &v)) {
		r->config.seed = v;
		import_recorded(r, seed);
	}
	if (oj && opt(oj, s->global, "runtime") &&
	    !parse_duration(opt(oj, s->global, "runtime"), &v))
		r->config.duration_s = (double)v / 1e9;
	else
		r->config.duration_s = isfinite(r->duration_s) ? round(r->duration_s) : 0;
	return 0;
}

/* jobs[0..n) into one result; "All clients" may bring its own totals (jobs = that entry) while
 * hists come from hosts (bin_jobs: the per-host jobs to take bins from), or NULL. */
static int one_result(struct import_list *out, const struct fio_src *s, json_t **jobs,
		      size_t n, json_t **bin_jobs, size_t nbin, const char *suffix,
		      const char *host)
{
	struct fslab_result *r = import_add(out, suffix, "fio", s->version, NULL, s->file, host);
	struct fio_sum sum = { 0 };
	const char *rw0;
	int ret = sum_jobs(r, s, jobs, n, bin_jobs, nbin, &sum);

	if (ret)
		return ret;
	rw0 = sum.rw0;
	r->src.format = xasprintf("%s, %s", r->classes[CLS_DB_READ].hist ||
				  r->classes[CLS_DB_WRITE].hist ? FIO_FORMAT "+" : FIO_FORMAT,
				  strcmp(s->lk, "lat_ns") ? "clat" : "lat");
	r->duration_s = sum.runtime > 0 ? sum.runtime : NAN;
	r->config.workload = xstrdup(sum.rw_differs ? "fio:mixed" : workload_of(rw0)
				     ? workload_of(rw0) : rw0 ? rw0 : "fio");
	if (!workload_of(rw0) && !sum.rw_differs) {
		char *w = xasprintf("fio:%s", r->config.workload);

		free(r->config.workload);
		r->config.workload = w;
	}
	import_recorded(r, workload);
	import_recorded(r, threads);
	import_recorded(r, duration_s);
	import_recorded(r, databases);
	/* "All clients" has no job options: its hosts' are the same job file */
	ret = job_config(r, s, nbin ? bin_jobs[0] : n ? jobs[0] : NULL);
	if (ret)
		return ret;
	/* jetstress exports name their database jobs fslab-db<N>; simple workloads have none */
	for (size_t i = 0; i < n; i++) {
		const char *name = json_string_value(json_object_get(jobs[i], "jobname"));

		r->config.databases += name && !strncmp(name, "fslab-db", 8);
	}
	if (!r->config.threads)
		r->config.threads = 1;
	result_add_note(r, "imported from %s (fio %s): latency is fio's %s%s", s->file,
			s->version ? s->version : "?",
			strcmp(s->lk, "lat_ns") ? "clat (completion only, submission not included)"
						: "lat (submission to completion)",
			r->classes[CLS_DB_READ].hist || r->classes[CLS_DB_WRITE].hist
				? "; percentiles from json+ bins" : "");
	if (sum.trims)
		result_add_note(r, "fio trimmed %llu times; fslab has no trim class: not shown",
				(unsigned long long)sum.trims);
	import_finish(r);
	return 0;
}

/* A client_stats entry's host as fio's client names it: "host-port", or "host". */
static char *host_key(json_t *j)
{
	const char *h = json_string_value(json_object_get(j, "hostname"));
	json_t *port = json_object_get(j, "port");

	return json_is_integer(port) ? xasprintf("%.40s-%lld", h ? h : "host",
						 (long long)json_integer_value(port))
				     : xstrdup(h ? h : "host");
}

/*
 * client_stats of a client/server run: one result per host (its entries in file order) and,
 * with several hosts, "All clients".  Linear in the entries: each entry's host is looked up
 * in a jansson object used as a hash table, then the entries are grouped by a counting sort.
 */
static int client_results(struct import_list *out, const struct fio_src *s, json_t *cs)
{
	size_t nc = json_array_size(cs), nhost = 0, i;
	json_t **all = xcalloc(nc, sizeof(json_t *)), **grp = xcalloc(nc, sizeof(json_t *));
	size_t *host_of = xcalloc(nc, sizeof(size_t)), *first = xcalloc(nc + 1, sizeof(size_t));
	char **hosts = xcalloc(nc, sizeof(char *));
	json_t *index = json_object(), *total = NULL, *j;
	int ret = 0;

	/* the hosts, in order of first appearance */
	json_array_foreach(cs, i, j) {
		const char *name = json_string_value(json_object_get(j, "jobname"));
		char *key;
		json_t *k;

		if (name && !strcmp(name, "All clients")) {
			total = j;
			continue;
		}
		all[i] = j;
		key = host_key(j);
		k = json_object_get(index, key);
		if (k) {
			host_of[i] = (size_t)json_integer_value(k);
			free(key);
			continue;
		}
		/* nocheck: "%.40s" may have cut a UTF-8 sequence; the key is only looked up */
		json_object_set_new_nocheck(index, key, json_integer((json_int_t)nhost));
		host_of[i] = nhost;
		hosts[nhost++] = key;
	}
	if (nhost > IMPORT_MAX_RESULTS) {
		ret = input_error("%s: fio client_stats of %zu hosts, more than the %d results fslab "
				  "reads from one file; compare the hosts in smaller groups", s->file,
				  nhost, IMPORT_MAX_RESULTS);
		goto out;
	}
	/* counting sort of the entries by host, file order kept within a host */
	for (i = 0; i < nc; i++)
		if (all[i])
			first[host_of[i] + 1]++;
	for (size_t k = 0; k < nhost; k++)
		first[k + 1] += first[k];
	{
		size_t *next = xcalloc(nhost + 1, sizeof(size_t));

		memcpy(next, first, nhost * sizeof(size_t));
		for (i = 0; i < nc; i++)
			if (all[i])
				grp[next[host_of[i]]++] = all[i];
		free(next);
	}
	for (size_t k = 0; k < nhost && !ret; k++)
		ret = one_result(out, s, grp + first[k], first[k + 1] - first[k], NULL, 0,
				 nhost > 1 ? hosts[k] : NULL, hosts[k]);
	if (!ret && total && nhost > 1) {
		size_t nb = 0;

		for (i = 0; i < nc; i++)
			if (all[i])
				grp[nb++] = all[i];
		ret = one_result(out, s, &total, 1, grp, nb, NULL, "All clients");
	}
out:
	for (size_t k = 0; k < nhost; k++)
		free(hosts[k]);
	free(hosts);
	free(all);
	free(grp);
	free(host_of);
	free(first);
	json_decref(index);
	return ret;
}

static int fio_parse(const char *buf, size_t len, const char *file, struct import_list *out)
{
	const char *p = buf, *vs;
	struct fio_src s = { .file = file };
	json_error_t err;
	json_t *root, *jobs, *cs;
	int ret = 0;

	/* text before the JSON object: the object starts with '{' at the start of a line */
	while (p && *p != '{')
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	if (!p)
		return input_error("%s: mentions \"fio version\" but holds no JSON object; save fio's "
				   "output with --output-format=json (or json+)", file);
	root = json_loadb(p, len - (size_t)(p - buf), JSON_DISABLE_EOF_CHECK, &err);
	if (!root)
		return input_error("%s: fio JSON that does not parse (line %d: %s); the file is "
				   "truncated or damaged, re-run fio with --output-format=json",
				   file, err.line + (int)0, err.text);
	vs = json_string_value(json_object_get(root, "fio version"));
	if (!vs) {
		json_decref(root);
		return input_error("%s: JSON without a \"fio version\" string; name fio's own "
				   "--output-format=json file", file);
	}
	s.version = !strncmp(vs, "fio-", 4) ? vs + 4 : vs;
	s.global = json_object_get(root, "global options");
	jobs = json_object_get(root, "jobs");
	cs = json_object_get(root, "client_stats");
	if (json_is_array(jobs) && json_array_size(jobs)) {
		json_t **v = xcalloc(json_array_size(jobs), sizeof(json_t *));
		size_t i;
		json_t *j;

		s.lk = lat_key(jobs);
		json_array_foreach(jobs, i, j)
			v[i] = j;
		ret = one_result(out, &s, v, json_array_size(jobs), NULL, 0, NULL, NULL);
		free(v);
	} else if (json_is_array(cs) && json_array_size(cs)) {
		s.lk = lat_key(cs);
		ret = client_results(out, &s, cs);
	} else {
		ret = input_error("%s: fio JSON without jobs or client_stats (fio %s); the run "
				  "ended before any job reported, re-run fio", file, s.version);
	}
	json_decref(root);
	return ret;
}

const struct importer import_fio = {
	.tool = "fio",
	.name = "fio JSON",
	.format = "fio JSON (--output-format=json or json+)",
	.sniff = fio_sniff,
	.parse = fio_parse,
};
