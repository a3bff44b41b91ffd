// SPDX-License-Identifier: MIT
/*
 * fuzz_merge.c: libFuzzer target: any bytes as the results of a cluster's hosts (fslab merge):
 * split at the first 0x1e into two hosts' files (without one, both hosts get the input), a
 * third host missing; merged, written back to JSON.  A hostile host's file must make the
 * result partial or be refused, never crash or leak.
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "merge/merge.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = memchr(data, 0x1e, size);
	size_t a = cut ? (size_t)(cut - data) : size;
	char pa[64], pb[64];
	int fa = fuzz_file(data, a, pa, sizeof(pa));
	int fb = cut ? fuzz_file(cut + 1, size - a - 1, pb, sizeof(pb))
		     : fuzz_file(data, size, pb, sizeof(pb));
	struct merge_input in[] = {
		{ .name = "node1", .file = pa, .offset_s = 0.001, .rtt_s = 0.0002 },
		{ .name = "node2", .file = pb, .offset_s = NAN, .rtt_s = NAN },
		{ .name = "node3", .missing = "lost", .offset_s = NAN, .rtt_s = NAN },
	};
	struct merge_opts o = { .clock_limit_s = 0.5 };
	struct fslab_result r;

	if (fa >= 0 && fb >= 0) {
		if (!merge_results(in, 3, &o, &r)) {
			json_t *j = result_to_json(&r);

			json_decref(j);
		}
		result_release(&r);
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return 0;
}
