// SPDX-License-Identifier: MIT
/* jetstress_model.c: transaction mix, log file naming (the verdict: verdict.c). */
#include "jetstress.h"
#include "random.h"

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
