// SPDX-License-Identifier: MIT
/* jetstress_model.c: transaction mix, log file naming, Jetstress-style verdict. */
#include "jetstress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const unsigned int js_txn_weights[JS_TXN_NR] = {
	[JS_INSERT] = 40, [JS_DELETE] = 20, [JS_REPLACE] = 5, [JS_READ] = 35,
};
const char *const js_txn_names[JS_TXN_NR] = {
	[JS_INSERT] = "insert", [JS_DELETE] = "delete", [JS_REPLACE] = "replace", [JS_READ] = "read",
};

enum js_txn js_pick_txn(struct rng *r)
{
	unsigned int x = (unsigned int)rng_below(r, 100);

	for (int t = 0; t < JS_TXN_NR; t++) {
		if (x < js_txn_weights[t])
			return (enum js_txn)t;
		x -= js_txn_weights[t];
	}
	return JS_READ;
}

char *js_log_name(char *buf, size_t len, uint64_t gen)
{
	snprintf(buf, len, "E00%08llX.log", (unsigned long long)gen);
	return buf;
}

uint64_t js_log_gen(const char *name)
{
	unsigned long long g = 0;
	char *end;

	if (strlen(name) != 15 || strncmp(name, "E00", 3) || strcmp(name + 11, ".log"))
		return 0;
	for (int i = 3; i < 11; i++)
		if (!strchr("0123456789ABCDEF", name[i]))
			return 0;
	g = strtoull(name + 3, &end, 16);
	return end == name + 11 ? g : 0;
}

bool js_verdict_scope(struct verdict *v, const char *scope, const struct class_result *cls,
		      const uint64_t *breaches, uint64_t io_errors, uint64_t checksum_errors)
{
	static const struct {
		int cls;
		const char *avg_name, *max_name;
		double avg_limit;
	} lim[] = {
		{ CLS_DB_READ, "db_read_avg_latency", "db_read_max_latency", JS_DB_READ_AVG_MS },
		{ CLS_LOG_WRITE, "log_write_avg_latency", "log_write_max_latency", JS_LOG_WRITE_AVG_MS },
	};
	bool all = true;
	char note[128];

	for (size_t i = 0; i < ARRAY_SIZE(lim); i++) {
		const struct class_result *c = &cls[lim[i].cls];
		double avg = c->lat_us.mean / 1e3, max = c->lat_us.max / 1e3;
		uint64_t b = breaches[lim[i].cls];
		bool ok_avg = c->ops > 0 && avg <= lim[i].avg_limit;
		bool ok_max = c->ops > 0 && b <= JS_MAX_BREACHES;

		verdict_add(v, scope, lim[i].avg_name, avg, lim[i].avg_limit, "ms", ok_avg,
			    c->ops ? NULL : "no I/O of this class was measured");
		snprintf(note, sizeof(note), "%llu I/Os above %.0f ms (%d tolerated)",
			 (unsigned long long)b, JS_MAX_LAT_MS, JS_MAX_BREACHES);
		verdict_add(v, scope, lim[i].max_name, max, JS_MAX_LAT_MS, "ms", ok_max, note);
		all = all && ok_avg && ok_max;
	}
	verdict_add(v, scope, "io_errors", (double)io_errors, 0, "count", io_errors == 0, NULL);
	verdict_add(v, scope, "checksum_errors", (double)checksum_errors, 0, "count",
		    checksum_errors == 0, NULL);
	return all && io_errors == 0 && checksum_errors == 0;
}
