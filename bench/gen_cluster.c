// SPDX-License-Identifier: MIT
/*
 * gen_cluster.c: make bench's cluster case: synthetic but valid per-host results of a lab on
 * many hosts, as fslab run writes them (the result writer itself): HOSTS hosts x CELLS cells,
 * cells of three labels (ext4, xfs, btrfs) in rounds, each result with four classes and their
 * histograms (20,000 latencies each), a 60-second timeline, the verdict's checks, devices
 * and start times within a few milliseconds of each other.  Files DIR/<cell>.h<NN>.json.
 *	usage: gen_cluster DIR HOSTS CELLS
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "engine/engine.h"
#include "lib/random.h"
#include "result/result.h"
#include "lib/utctime.h"

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);

	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/* per class: mean latency (us at speed 1), rate (IOPS at speed 1), I/O size */
static const double lat_us[CLS_NR] = { 1200, 900, 700, 1800 };
static const double rate[CLS_NR] = { 3000, 1900, 1500, 4 };
static const unsigned int size[CLS_NR] = { 32768, 32768, 8192, 262144 };

/* What fslab run records of the load and the host: a 60 s jetstress run on label. */
static void set_config(struct fslab_result *res, const char *label, unsigned int host)
{
	char buf[40];

	res->duration_s = 60;
	res->config.workload = xstrdup("jetstress");
	res->config.engine = xstrdup("io_uring");
	res->config.threads = 8;
	res->config.databases = 1;
	res->config.db_size = 4 * GiB;
	res->config.duration_s = 60;
	res->config.warmup_s = 5;
	res->config.seed = 1;
	res->config.sample_interval_s = 15;
	res->config.thresholds = xstrdup("strict");
	res->config.max_latency_errors = 6;
	res->config.db_dirs = xcalloc(1, sizeof(char *));
	res->config.db_dirs[res->config.ndb_dirs++] = xstrdup("/mnt/lab/db");
	res->config.log_dirs = xcalloc(1, sizeof(char *));
	res->config.log_dirs[res->config.nlog_dirs++] = xstrdup("/mnt/lab/log");
	res->environment = json_pack("{s:s, s:s, s:i, s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}]}",
				     "hostname", "", "kernel", "6.1.0-18-amd64", "ncpus",
				     16, "volumes", "role", "db", "fstype", label, "device", "sdb",
				     "role", "log", "fstype", label, "device", "sdc");
	snprintf(buf, sizeof(buf), "node%02u", host);
	json_object_set_new(res->environment, "hostname", json_string(buf));
}

/* The four classes with their histograms (20,000 latencies each) at speed. */
static void set_classes(struct fslab_result *res, struct rng *r, double speed)
{
	for (int c = 0; c < CLS_NR; c++) {
		struct class_result *cl = &res->classes[c];

		cl->hist = xmalloc(sizeof(*cl->hist));
		hist_init(cl->hist);
		for (int i = 0; i < 20000; i++)
			hist_add(cl->hist, (uint64_t)(lat_us[c] / speed * 1000 *
						      exp(0.4 * gauss(r))));
		cl->ops = (uint64_t)(rate[c] * speed * 60);
		cl->bytes = cl->ops * size[c];
		cl->min_bytes = cl->max_bytes = size[c];
		class_result_finish(cl, 60);
	}
	res->transactional_iops = res->classes[CLS_DB_READ].iops + res->classes[CLS_DB_WRITE].iops;
	res->transactions = res->classes[CLS_DB_WRITE].ops;
	res->transactions_per_s = res->transactions / 60.0;
}

/* The database's creation and checksum pass, the two devices, the verdict's checks. */
static void set_rest(struct fslab_result *res)
{
	res->init.bytes_written = 4 * GiB;
	res->init.seconds = 20;
	res->init.mbps = 214;
	res->init.created = 1;
	res->checksum.ran = true;
	res->checksum.pages = 131072;
	res->checksum.bytes = 4 * GiB;
	res->checksum.seconds = 10;
	res->checksum.mbps = 429;
	res->devices = xcalloc(2, sizeof(*res->devices));
	for (int d = 0; d < 2; d++) {
		struct device_result *dv = &res->devices[res->ndevices++];

		dv->role = xstrdup(d ? "log" : "db");
		dv->name = xstrdup(d ? "sdc" : "sdb");
		dv->model = xstrdup("synthetic");
		dv->write_bytes = d ? res->classes[CLS_LOG_WRITE].bytes
				    : res->classes[CLS_DB_WRITE].bytes;
		dv->read_bytes = d ? 0 : res->classes[CLS_DB_READ].bytes;
		dv->write_ios = d ? res->classes[CLS_LOG_WRITE].ops : res->classes[CLS_DB_WRITE].ops;
		dv->write_amplification = 1.01;
		dv->read_ratio = d ? 0 : 1;
		dv->util_pct = 60;
	}
	for (int k = 0; k < 12; k++)
		verdict_add_rule(&res->verdict, k < 6 ? "db1" : "overall", "db_read_avg_latency",
				 1.2, 20, "ms", "avg <= limit", true, NULL);
	res->verdict.pass = true;
}

/* 60 seconds of timeline at speed. */
static void set_timeline(struct fslab_result *res, struct rng *r, double speed)
{
	double row[TIMELINE_NCOLS];

	timeline_init(&res->timeline, timeline_columns, TIMELINE_NCOLS);
	for (int s = 0; s < 60; s++) {
		row[0] = s + 1;
		for (int c = 0; c < CLS_NR; c++) {
			row[1 + 4 * c] = round(rate[c] * speed * (1 + 0.05 * gauss(r)));
			row[2 + 4 * c] = row[1 + 4 * c] * size[c];
			row[3 + 4 * c] = lat_us[c] / speed * (1 + 0.1 * gauss(r));
			row[4 + 4 * c] = row[3 + 4 * c] * 4;
		}
		row[TL_TRANSACTIONS] = row[5];
		row[TL_CPU] = 20;
		timeline_add_row(&res->timeline, row);
	}
}

static void one(const char *path, const char *label, unsigned int cell, unsigned int host,
		double speed)
{
	struct rng r;
	struct fslab_result res;
	int64_t t0 = 1796306700LL * 1000000000 + (int64_t)cell * 600 * 1000000000LL;
	char buf[40];

	rng_seed(&r, cell * 1000003ULL + host);
	result_init(&res);
	res.label = xstrdup(label);
	res.fslab_version = xasprintf("%s (%s)", fslab_version, fslab_git);
	res.started_at = xstrdup("2026-12-03T14:00:00Z");
	res.ended_at = xstrdup("2026-12-03T14:02:00Z");
	res.start_at = xstrdup(utc_format(buf, sizeof(buf), t0));
	res.load_started_at = xstrdup(utc_format(buf, sizeof(buf), t0 + 300000 +
						 (int64_t)(rng_double(&r) * 3e6)));
	res.measure_started_at = xstrdup(utc_format(buf, sizeof(buf), t0 + 5000300000LL));
	set_config(&res, label, host);
	/* the random numbers in the order they always came: classes, CPU, timeline */
	set_classes(&res, &r, speed);
	res.host.cpu_pct_avg = 20 + 5 * rng_double(&r);
	res.host.cpu_pct_max = 40;
	res.host.ncpus = 16;
	res.host.mem_total = 64 * GiB;
	set_rest(&res);
	set_timeline(&res, &r, speed);
	if (result_write(&res, path)) {
		fprintf(stderr, "gen_cluster: cannot write %s\n", path);
		exit(1);
	}
	result_release(&res);
}

int main(int argc, char **argv)
{
	static const char *const labels[] = { "ext4", "xfs", "btrfs" };
	unsigned int hosts, cells;

	if (argc != 4 || !(hosts = (unsigned int)atoi(argv[2])) || !(cells = (unsigned int)atoi(argv[3]))) {
		fprintf(stderr, "usage: gen_cluster DIR HOSTS CELLS\n");
		return 2;
	}
	for (unsigned int c = 0; c < cells; c++) {
		const char *label = labels[c % 3];

		for (unsigned int h = 1; h <= hosts; h++) {
			/* one slow host: the straggler the report shows */
			double speed = (h == hosts ? 0.6 : 1.0) * (c % 3 == 1 ? 1.1 : 1.0);
			char *path = xasprintf("%s/%s-r%u.h%02u.json", argv[1], label, c / 3 + 1, h);

			one(path, label, c, h, speed);
			free(path);
		}
	}
	return 0;
}
