// SPDX-License-Identifier: MIT
/* merge.c: one cell's per-host results into a cluster result (merge.h): the members read and
 * checked, the sums, histograms, devices, verdict and notes (the timeline: merge_timeline.c). */
#include "merge/mergeP.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/sha256.h"
#include "engine/steady.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "lib/utctime.h"

/* A result file larger than this is not one fslab run wrote (a 30-day run's is ~400 MiB). */
#define MERGE_MAX_FILE (2 * GiB)

const char *merge_name_problem(const char *name)
{
	if (strlen(name) > 32)
		return "longer than 32 characters";
	return label_problem(name);
}

/* ---- reading the members ---- */

static void set_why(struct member *m, const char *status, const char *fmt, ...) __printf(3, 4);
static void set_why(struct member *m, const char *status, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	m->status = status;
	free(m->why);
	m->why = strbuf_detach(&sb, NULL);
}

/* The file's bytes hashed, then read by the result reader as any result is. */
static void read_member(struct member *m)
{
	json_error_t jerr;
	json_t *root;
	uint64_t size = 0;
	char *buf = NULL;
	size_t len = 0;
	int kind, ret;

	m->status = "ok";
	if (!m->in->file) {
		set_why(m, "missing", "%s", m->in->missing ? m->in->missing : "no result");
		return;
	}
	ret = os_stat(m->in->file, &kind, &size);
	if (!ret && kind != OS_KIND_FILE)
		ret = -EISDIR;
	if (!ret && size > MERGE_MAX_FILE)
		ret = -EFBIG;
	if (!ret)
		ret = read_file(m->in->file, &buf, &len);
	if (ret) {
		set_why(m, "failed", "its result %s cannot be read (%s)", m->in->file,
			strerror(-ret));
		return;
	}
	sha256_hex(buf, len, m->sha256);
	m->has_sha = true;
	root = json_loadb(buf, len, 0, &jerr);
	free(buf);
	if (!root) {
		set_why(m, "failed", "its result %s is not valid JSON (line %d: %s)", m->in->file,
			jerr.line, jerr.text);
		return;
	}
	/* the reader prints one line naming the problem (stderr) */
	ret = result_from_json(root, m->in->file, &m->r);
	json_decref(root);
	m->loaded = true;
	if (ret) {
		set_why(m, "failed", "its result %s is not a readable fslab result (the reader's "
			"message is above)", m->in->file);
		return;
	}
	if (m->r.nhosts || m->r.cluster.present) {
		set_why(m, "failed", "%s is itself a cluster result; merge the hosts' own results",
			m->in->file);
		return;
	}
	if (m->r.aborted) {
		set_why(m, "aborted", "its run was aborted: %s",
			m->r.abort_reason ? m->r.abort_reason : "no reason recorded");
		return;
	}
	m->complete = true;
}

/* One run is one host: the same result given for two hosts (a file twice, or a copy) would
 * count its I/Os twice.  0, or -FSLAB_EINPUT naming both. */
static int check_one_run_each(const struct merge *mg)
{
	char (*id)[RESULT_ID_LEN + 1] = xcalloc(mg->n, sizeof(*id));
	int ret = 0;

	for (size_t i = 0; i < mg->n && !ret; i++) {
		const struct member *b = &mg->m[i];

		if (!b->loaded || !strcmp(b->status, "failed"))
			continue;
		result_identity(&b->r, id[i]);
		for (size_t k = 0; k < i && !ret; k++) {
			const struct member *a = &mg->m[k];

			if (a->loaded && strcmp(a->status, "failed") && !strcmp(id[k], id[i]))
				ret = input_error("hosts %s (%s) and %s (%s) have the same run: one "
						  "result given for two hosts would count its I/Os twice; "
						  "give each host its own result", a->in->name, a->in->file,
						  b->in->name, b->in->file);
		}
	}
	free(id);
	return ret;
}

/* Complete members must be one cell: what compare would refuse to pool. */
static int check_same_cell(struct merge *mg)
{
	const struct member *a = NULL;

	for (size_t i = 0; i < mg->n; i++) {
		const struct member *b = &mg->m[i];
		const struct run_config *x, *y;
		char *what = NULL;

		if (!b->complete)
			continue;
		if (!a) {
			a = b;
			continue;
		}
		x = &a->r.config;
		y = &b->r.config;
		if (!mg->o->label && strcmp(a->r.label, b->r.label))
			what = xasprintf("label '%s' vs '%s'", a->r.label, b->r.label);
		else if (strcmp(x->workload, y->workload))
			what = xasprintf("workload %s vs %s", x->workload, y->workload);
		else if (x->threads != y->threads)
			what = xasprintf("threads %u vs %u", x->threads, y->threads);
		else if (x->databases != y->databases)
			what = xasprintf("databases %u vs %u", x->databases, y->databases);
		else if (x->db_size != y->db_size)
			what = xasprintf("database size %llu vs %llu bytes",
					 (unsigned long long)x->db_size, (unsigned long long)y->db_size);
		else if (x->duration_s != y->duration_s)
			what = xasprintf("duration %gs vs %gs", x->duration_s, y->duration_s);
		else if (x->seed != y->seed)
			what = xasprintf("seed %llu vs %llu", (unsigned long long)x->seed,
					 (unsigned long long)y->seed);
		else if (strcmp(a->r.fslab_version ? a->r.fslab_version : "?",
				b->r.fslab_version ? b->r.fslab_version : "?"))
			what = xasprintf("fslab version %s vs %s",
					 a->r.fslab_version ? a->r.fslab_version : "?",
					 b->r.fslab_version ? b->r.fslab_version : "?");
		if (what) {
			int ret = input_error("hosts %s (%s) and %s (%s) did not run the same cell: %s; "
					      "merge the results of one cell%s", a->in->name, a->in->file,
					      b->in->name, b->in->file, what,
					      strstr(what, "label") ? ", or give --label" : "");

			free(what);
			return ret;
		}
	}
	return 0;
}

/* ---- the sums ---- */

static char *prefixed(const char *host, const char *s)
{
	return xasprintf("%s:%s", host, s ? s : "");
}

void merge_copy_classes_nohist(struct class_result *dst, const struct class_result *src)
{
	for (int c = 0; c < CLS_NR; c++) {
		dst[c] = src[c];
		dst[c].hist = NULL;
	}
}

static void merge_classes(struct merge *mg)
{
	struct fslab_result *out = mg->out;
	bool hist_all[CLS_NR];

	for (int c = 0; c < CLS_NR; c++)
		hist_all[c] = true;
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];

		if (!m->complete)
			continue;
		for (int c = 0; c < CLS_NR; c++) {
			const struct class_result *s = &m->r.classes[c];
			struct class_result *d = &out->classes[c];

			d->ops += s->ops;
			d->bytes += s->bytes;
			d->errors += s->errors;
			d->ios_above_max_limit += s->ios_above_max_limit;
			if (s->ops && (!d->min_bytes || s->min_bytes < d->min_bytes))
				d->min_bytes = s->min_bytes;
			d->max_bytes = MAX(d->max_bytes, s->max_bytes);
			/* each host's rate over its own measured window: the cluster's rate is their
			 * sum (ops / duration when the windows are equal) */
			d->iops += s->iops;
			d->mbps += s->mbps;
			if (!s->hist) {
				hist_all[c] &= !s->ops;
				continue;
			}
			if (!d->hist) {
				d->hist = xmalloc(sizeof(*d->hist));
				hist_init(d->hist);
			}
			hist_merge(d->hist, s->hist);
		}
	}
	for (int c = 0; c < CLS_NR; c++) {
		struct class_result *d = &out->classes[c];

		d->avg_bytes = d->ops ? (double)d->bytes / (double)d->ops : 0;
		if (!hist_all[c]) {
			/* percentiles of some hosts only would be presented as the cluster's */
			free(d->hist);
			d->hist = NULL;
			result_add_note(out, "%s: a host's result has no latency histogram (an older "
					"fslab): the cluster's %s latencies are not given", io_class_names[c],
					io_class_names[c]);
		}
		class_result_latency(d);
	}
}

static void merge_instances(struct merge *mg)
{
	struct fslab_result *out = mg->out;
	size_t total = 0;

	for (size_t i = 0; i < mg->n; i++)
		if (mg->m[i].complete)
			total += mg->m[i].r.ninstances;
	if (!total)
		return;
	out->instances = xcalloc(total, sizeof(*out->instances));
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];

		for (size_t k = 0; m->complete && k < m->r.ninstances; k++) {
			const struct instance_result *s = &m->r.instances[k];
			struct instance_result *d = &out->instances[out->ninstances++];

			*d = *s;
			d->name = prefixed(m->in->name, s->name);
			d->db_file = prefixed(m->in->name, s->db_file);
			d->log_dir = prefixed(m->in->name, s->log_dir);
			merge_copy_classes_nohist(d->classes, s->classes);
		}
	}
}

void merge_copy_device(struct device_result *d, const struct device_result *s)
{
	*d = *s;
	d->role = xstrdup(s->role ? s->role : "");
	d->name = xstrdup(s->name ? s->name : "");
	d->model = xstrdup(s->model ? s->model : "");
}

/*
 * One device entry per role for the cluster: counters summed, write amplification and read
 * ratio as sums of device bytes over sums of the bytes the workload moved (each host's from
 * its own ratio), utilisation the busiest host's.  Every host's own devices stay in hosts[].
 */
static void merge_devices(struct merge *mg)
{
	static const char *const roles[] = { "db", "log", "db+log" };
	struct fslab_result *out = mg->out;

	out->devices = xcalloc(ARRAY_SIZE(roles), sizeof(*out->devices));
	for (size_t ri = 0; ri < ARRAY_SIZE(roles); ri++) {
		struct device_result d = { 0 };
		double wl_w = 0, wl_r = 0;
		unsigned int nd = 0;

		for (size_t i = 0; i < mg->n; i++) {
			const struct member *m = &mg->m[i];

			for (size_t k = 0; m->complete && k < m->r.ndevices; k++) {
				const struct device_result *s = &m->r.devices[k];

				if (!s->role || strcmp(s->role, roles[ri]))
					continue;
				nd++;
				d.read_ios += s->read_ios;
				d.read_bytes += s->read_bytes;
				d.write_ios += s->write_ios;
				d.write_bytes += s->write_bytes;
				d.discard_ios += s->discard_ios;
				d.io_ticks_ms = MAX(d.io_ticks_ms, s->io_ticks_ms);
				d.util_pct = MAX(d.util_pct, s->util_pct);
				d.cache_served_reads |= s->cache_served_reads;
				if (s->write_amplification > 0)
					wl_w += (double)s->write_bytes / s->write_amplification;
				if (s->read_ratio > 0)
					wl_r += (double)s->read_bytes / s->read_ratio;
			}
		}
		if (!nd)
			continue;
		d.role = xstrdup(roles[ri]);
		d.name = xasprintf("%u devices on %u hosts", nd, mg->complete);
		d.model = xstrdup("");
		d.write_amplification = wl_w > 0 ? (double)d.write_bytes / wl_w : 0;
		d.read_ratio = wl_r > 0 ? (double)d.read_bytes / wl_r : 0;
		out->devices[out->ndevices++] = d;
	}
}

static void merge_host_stats(struct merge *mg)
{
	struct fslab_result *out = mg->out;
	struct host_result *h = &out->host;
	unsigned int k = 0;
	double init_s = 0, ck_s = 0;

	out->checksum.ran = true;
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		const struct fslab_result *r = &m->r;

		if (!m->complete)
			continue;
		k++;
		h->cpu_pct_avg += r->host.cpu_pct_avg;
		h->cpu_pct_max = MAX(h->cpu_pct_max, r->host.cpu_pct_max);
		h->cpu_user_pct += r->host.cpu_user_pct;
		h->cpu_sys_pct += r->host.cpu_sys_pct;
		h->cpu_iowait_pct += r->host.cpu_iowait_pct;
		h->mem_total += r->host.mem_total;
		h->mem_used_avg += r->host.mem_used_avg;
		h->mem_used_max += r->host.mem_used_max;
		h->fslab_rss_max = MAX(h->fslab_rss_max, r->host.fslab_rss_max);
		h->ncpus += r->host.ncpus;
		out->init.bytes_written += r->init.bytes_written;
		out->init.reused += r->init.reused;
		out->init.created += r->init.created;
		init_s = MAX(init_s, r->init.seconds);
		out->checksum.ran &= r->checksum.ran;
		out->checksum.pages += r->checksum.pages;
		out->checksum.bad_pages += r->checksum.bad_pages;
		out->checksum.bytes += r->checksum.bytes;
		ck_s = MAX(ck_s, r->checksum.seconds);
		if (r->checksum.first_bad && !out->checksum.first_bad)
			out->checksum.first_bad = prefixed(m->in->name, r->checksum.first_bad);
		out->transactional_iops += r->transactional_iops;
		out->transactions += r->transactions;
		out->transactions_per_s += r->transactions_per_s;
		out->db_page_fault_stalls += r->db_page_fault_stalls;
		out->duration_s += r->duration_s;
	}
	/* CPU shares are per host: their mean; memory adds up; the slowest host's time */
	h->cpu_pct_avg /= k;
	h->cpu_user_pct /= k;
	h->cpu_sys_pct /= k;
	h->cpu_iowait_pct /= k;
	out->duration_s /= k;
	out->init.seconds = init_s;
	out->init.mbps = init_s > 0 ? out->init.bytes_written / init_s / 1e6 : 0;
	out->checksum.seconds = ck_s;
	out->checksum.mbps = ck_s > 0 ? out->checksum.bytes / ck_s / 1e6 : 0;
}

static void merge_samples(struct merge *mg)
{
	struct latency_samples *ls = &mg->out->latency_samples;
	size_t total = 0;

	for (size_t i = 0; i < mg->n; i++)
		if (mg->m[i].complete && mg->m[i].r.latency_samples.present)
			total += mg->m[i].r.latency_samples.nscopes;
	if (!total)
		return;
	ls->present = true;
	ls->scopes = xcalloc(total, sizeof(*ls->scopes));
	ls->intervals = UINT64_MAX;
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		const struct latency_samples *s = &m->r.latency_samples;

		if (!m->complete || !s->present)
			continue;
		if (!ls->interval_s)
			ls->interval_s = s->interval_s;
		ls->intervals = MIN(ls->intervals, s->intervals);
		ls->partial |= s->partial;
		for (size_t k = 0; k < s->nscopes; k++) {
			struct latency_series *d = &ls->scopes[ls->nscopes++];

			d->scope = prefixed(m->in->name, s->scopes[k].scope);
			for (int c = 0; c < LS_NR; c++) {
				d->n[c] = s->scopes[k].n[c];
				d->avg_ms[c] = xcalloc(d->n[c] + 1, sizeof(double));
				if (d->n[c])
					memcpy(d->avg_ms[c], s->scopes[k].avg_ms[c], d->n[c] * sizeof(double));
			}
		}
	}
}

/* Each host's checks under its name, then the cluster's own two. */
static void merge_verdict(struct merge *mg)
{
	struct verdict *v = &mg->out->verdict;
	struct strbuf lost = STRBUF_INIT, failed = STRBUF_INIT;
	unsigned int passed = 0;
	bool any = false;

	for (size_t i = 0; i < mg->n; i++)
		any |= mg->m[i].complete && mg->m[i].r.verdict.present;
	if (!any)
		return;
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		const struct verdict *hv = &m->r.verdict;

		if (!m->complete) {
			strbuf_addf(&lost, "%s%s: %s (%s)", lost.len ? "; " : "", m->in->name, m->status,
				    m->why);
			continue;
		}
		if (!hv->present || hv->pass) {
			passed++;
		} else {
			bool first = true;

			strbuf_addf(&failed, "%s%s (", failed.len ? "; " : "", m->in->name);
			for (size_t k = 0; k < hv->nchecks; k++)
				if (!hv->checks[k].pass) {
					strbuf_addf(&failed, "%s%s", first ? "" : ", ", hv->checks[k].name);
					first = false;
				}
			strbuf_addch(&failed, ')');
		}
		for (size_t k = 0; k < hv->nchecks; k++) {
			const struct verdict_check *c = &hv->checks[k];
			char *scope = prefixed(m->in->name, c->scope);

			verdict_add_rule(v, scope, c->name, c->value, c->limit, c->unit, c->rule, c->pass,
					 c->note);
			free(scope);
		}
	}
	verdict_add_rule(v, "cluster", "hosts_complete", mg->complete, (double)mg->n, "hosts",
			 "hosts with a complete result == hosts", mg->complete == mg->n,
			 lost.len ? lost.buf : NULL);
	verdict_add_rule(v, "cluster", "hosts_passed", passed, (double)mg->complete, "hosts",
			 "hosts whose verdict passed == hosts with a complete result",
			 passed == mg->complete, failed.len ? failed.buf : NULL);
	v->present = true;
	v->pass = mg->complete == mg->n && passed == mg->complete;
	strbuf_release(&lost);
	strbuf_release(&failed);
}

/* The first complete member's config, each host's directories under its name. */
static void merge_config(struct merge *mg, const struct fslab_result *first)
{
	struct run_config *d = &mg->out->config;
	const struct run_config *s = &first->config;
	size_t ndb = 0, nlog = 0;

	*d = *s;
	d->workload = xstrdup(s->workload);
	d->engine = s->engine ? xstrdup(s->engine) : NULL;
	d->thresholds = s->thresholds ? xstrdup(s->thresholds) : NULL;
	d->target_iops_origin = s->target_iops_origin ? xstrdup(s->target_iops_origin) : NULL;
	for (size_t i = 0; i < mg->n; i++)
		if (mg->m[i].complete) {
			ndb += mg->m[i].r.config.ndb_dirs;
			nlog += mg->m[i].r.config.nlog_dirs;
		}
	d->db_dirs = xcalloc(ndb + 1, sizeof(char *));
	d->log_dirs = xcalloc(nlog + 1, sizeof(char *));
	d->ndb_dirs = d->nlog_dirs = 0;
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];

		for (size_t k = 0; m->complete && k < m->r.config.ndb_dirs; k++)
			d->db_dirs[d->ndb_dirs++] = prefixed(m->in->name, m->r.config.db_dirs[k]);
		for (size_t k = 0; m->complete && k < m->r.config.nlog_dirs; k++)
			d->log_dirs[d->nlog_dirs++] = prefixed(m->in->name, m->r.config.log_dirs[k]);
	}
}

/* ---- the driver ---- */

static int check_inputs(const struct merge_input *in, size_t n)
{
	if (!n)
		return input_error("no host results given; name each with --host NAME=FILE");
	for (size_t i = 0; i < n; i++) {
		const char *why = merge_name_problem(in[i].name);

		if (why)
			return input_error("host name '%s': %s; use 1-32 letters, digits, '.', '_', '+' "
					   "or '-' (it names files)", in[i].name, why);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(in[i].name, in[k].name))
				return input_error("host %s is given twice; one result per host",
						   in[i].name);
	}
	return 0;
}

/* Every host's result read and checked into mg->m; *first the first complete one.  0, or
 * -FSLAB_EINPUT when none is complete. */
static int read_members(struct merge *mg, const struct fslab_result **first)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*first = NULL;
	mg->m = xcalloc(mg->n, sizeof(*mg->m));
	for (size_t i = 0; i < mg->n; i++) {
		/* zeroed: result_from_json() initialises it, result_release() takes it zeroed */
		mg->m[i].in = &mg->in[i];
		read_member(&mg->m[i]);
		if (mg->m[i].complete) {
			mg->complete++;
			if (!*first)
				*first = &mg->m[i].r;
		}
	}
	if (*first)
		return 0;
	for (size_t i = 0; i < mg->n; i++)
		strbuf_addf(&sb, "%s%s: %s (%s)", i ? "; " : "", mg->in[i].name, mg->m[i].status,
			    mg->m[i].why);
	ret = input_error("no host has a complete result, nothing to merge: %s", sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* What names the cluster result: schema, label, version, the earliest start and the latest
 * end of the complete hosts, the hosts counted. */
static void cluster_header(struct merge *mg, const struct fslab_result *first)
{
	struct fslab_result *out = mg->out;

	out->schema = xstrdup(RESULT_SCHEMA);
	out->label = xstrdup(mg->o->label ? mg->o->label : first->label);
	out->fslab_version = first->fslab_version ? xstrdup(first->fslab_version) : NULL;
	for (size_t i = 0; i < mg->n; i++) {
		const struct fslab_result *r = &mg->m[i].r;

		if (!mg->m[i].complete)
			continue;
		if (r->started_at && (!out->started_at || strcmp(r->started_at, out->started_at) < 0)) {
			free(out->started_at);
			out->started_at = xstrdup(r->started_at);
		}
		if (r->ended_at && (!out->ended_at || strcmp(r->ended_at, out->ended_at) > 0)) {
			free(out->ended_at);
			out->ended_at = xstrdup(r->ended_at);
		}
	}
	out->cluster.present = true;
	out->cluster.hosts = (unsigned int)mg->n;
	out->cluster.complete = mg->complete;
	out->cluster.partial = mg->complete < mg->n;
	out->cluster.clock_limit_s = mg->o->clock_limit_s > 0 ? mg->o->clock_limit_s
							      : MERGE_CLOCK_LIMIT_S;
}

/* A partial cluster result is an aborted one: which hosts are missing and why. */
static void partial_reason(struct merge *mg)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < mg->n; i++)
		if (!mg->m[i].complete)
			strbuf_addf(&sb, "%s%s: %s", sb.len ? "; " : "", mg->in[i].name, mg->m[i].why);
	mg->out->aborted = true;
	mg->out->abort_reason = xasprintf("partial cluster result: %u of %zu hosts complete (%s)",
					  mg->complete, mg->n, sb.buf);
	strbuf_release(&sb);
}

int merge_results(const struct merge_input *in, size_t n, const struct merge_opts *o,
		  struct fslab_result *out)
{
	struct merge mg = { .in = in, .n = n, .o = o, .out = out };
	const struct fslab_result *first;
	int ret;

	result_init(out);
	ret = check_inputs(in, n);
	if (ret)
		return ret;
	ret = read_members(&mg, &first);
	if (!ret)
		ret = check_one_run_each(&mg);
	if (!ret)
		ret = check_same_cell(&mg);
	if (ret)
		goto out;
	cluster_header(&mg, first);
	merge_starts(&mg);
	merge_config(&mg, first);
	merge_environment(&mg, first);
	merge_classes(&mg);
	merge_host_stats(&mg);
	merge_instances(&mg);
	merge_devices(&mg);
	merge_samples(&mg);
	merge_timeline(&mg);
	/* the steady-state rule on the cluster's seconds, as each host judged its own */
	if (first->steady.present) {
		struct steady_rule rule;

		steady_rule_of(&out->config, &rule);
		if (steady_from_timeline(&out->timeline, &rule, &out->steady))
			fslab_warn("the merged timeline cannot be read back: no steady state");
	}
	merge_verdict(&mg);
	out->hosts = xcalloc(n, sizeof(*out->hosts));
	for (size_t i = 0; i < n; i++)
		merge_member_entry(&mg, &mg.m[i], &out->hosts[out->nhosts++]);
	if (out->cluster.partial)
		partial_reason(&mg);
	merge_notes(&mg);
out:
	for (size_t i = 0; i < n; i++) {
		result_release(&mg.m[i].r);
		free(mg.m[i].why);
	}
	free(mg.m);
	return ret;
}
