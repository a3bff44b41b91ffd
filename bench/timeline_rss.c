// SPDX-License-Identifier: MIT
/*
 * timeline_rss.c: what a long run's timeline costs in memory.  `fslab run` keeps one timeline
 * row per measured second and serialises the whole result at the end; a 20 s bench run cannot
 * show that cost, so this builds a result with N rows (N = seconds of a long run), writes it
 * with result_write() as `fslab run` does, and prints the peak RSS growth.
 *
 * usage: timeline_rss ROWS OUTPUT.json
 * prints: "<rows> <KiB after filling the timeline> <KiB after result_write>", both as growth
 * of VmHWM over the start.  Built and run by bench/bench.sh against build/libfslab.a.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "result/result.h"

/* VmHWM (peak RSS) of this process in KiB, or -1. */
static long vm_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			v = strtol(line + 6, NULL, 10);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	struct fslab_result r;
	double row[TIMELINE_NCOLS];
	long base, filled, written;
	unsigned long rows;
	int ret;

	if (argc != 3 || (rows = strtoul(argv[1], NULL, 10)) > 100000000UL) {
		fprintf(stderr, "usage: timeline_rss ROWS OUTPUT.json\n");
		return 2;
	}
	result_init(&r);
	timeline_init(&r.timeline, timeline_columns, TIMELINE_NCOLS);
	/* as run_load() in src/run/measure.c does: rows go to a temporary file */
	ret = timeline_spill(&r.timeline);
	if (ret)
		fprintf(stderr, "timeline_rss: timeline_spill: %s (rows stay in memory, as in "
			"fslab run then)\n", strerror(-ret));
	base = vm_hwm_kib();
	/* values of the magnitude a real run stores (counts, bytes, microseconds) */
	for (unsigned long i = 0; i < rows; i++) {
		row[0] = (double)(i + 1);
		for (int c = 1; c < TIMELINE_NCOLS; c++)
			row[c] = 1234.567 * c + (double)(i % 977);
		timeline_add_row(&r.timeline, row);
	}
	filled = vm_hwm_kib();
	ret = result_write(&r, argv[2]);
	written = vm_hwm_kib();
	result_release(&r);
	if (ret) {
		fprintf(stderr, "timeline_rss: result_write %s: %s\n", argv[2], strerror(-ret));
		return 1;
	}
	printf("%lu %ld %ld\n", rows, filled - base, written - base);
	return 0;
}
