// SPDX-License-Identifier: MIT
/*
 * plot_tuning.c: the chart of --threads auto (plots/tuning.gp): each tuned label's steps,
 * their means per thread count over its runs, as transactional IOPS and both average
 * latencies against threads, the verdict's limits drawn.
 */
#include "compare/plotP.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/base.h"
#include "os/os.h"

/* the most thread counts a label's steps try (doubling and bisection to 256 threads) */
#define MAX_COUNTS 256
/* three panels side by side */
#define TUNING_SIZE "1500,520"

int plot_tuning(struct plot_ctx *x)
{
	const struct compare *c = x->c;
	const char **labels = xcalloc(c->ngroups + 1, sizeof(char *));
	unsigned int t[MAX_COUNTS];
	double iops[MAX_COUNTS], rd[MAX_COUNTS], lg[MAX_COUNTS], ok[MAX_COUNTS];
	char *buf = NULL, *la, ns[24], rl[32], ll[32];
	size_t len = 0, n = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		size_t k;

		if (!c->groups[g].tuned || c->groups[g].aborted)
			continue;
		k = compare_tuning_curve(c, g, t, iops, rd, lg, ok, MAX_COUNTS);
		if (!k)
			continue;
		labels[n++] = c->groups[g].label;
		fprintf(m, "# %s: threads, transactional IOPS, db read ms, log write ms, passed\n",
			c->groups[g].label);
		for (size_t i = 0; i < k; i++) {
			fprintf(m, "%u", t[i]);
			plot_put_num(m, iops[i]);
			plot_put_num(m, rd[i]);
			plot_put_num(m, lg[i]);
			plot_put_num(m, ok[i]);
			fputc('\n', m);
		}
		fputs("\n\n", m);
	}
	os_memstream_done(&ms);
	if (n) {
		const char *kv[] = {
			"TITLE", "Automatic tuning: the steps (filled: passed, open: failed)", "N", ns,
			"LABELS", NULL, "READ_LIMIT", rl, "LOG_LIMIT", ll, NULL,
		};

		la = plot_gp_str_array(labels, n);
		kv[5] = la;
		snprintf(ns, sizeof(ns), "%zu", n);
		snprintf(rl, sizeof(rl), "%g", compare_limit(c, "db_read_avg_latency", 20));
		snprintf(ll, sizeof(ll), "%g", compare_limit(c, "log_write_avg_latency", 10));
		ret = plot_draw_sized(x, "tuning", "Automatic tuning (--threads auto): transactional "
				      "IOPS and average latencies against threads, the verdict's "
				      "limits dashed", "tuning", TUNING_SIZE, buf, len, kv);
		free(la);
	}
	free(labels);
	free(buf);
	return ret;
}
