// SPDX-License-Identifier: MIT
/* test_selftest.c: the selftest record where run and compare use it (src/selftest/record.c):
 * which records a run accepts (this host, not --buffered, covering every volume of the run),
 * the Setup fact and the result's note.  The checks themselves are measured by t_selftest
 * (Linux, loop devices and tmpfs) and t_windows_selftest (Wine).  Runs under Wine too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "platform/sampler.h"
#include "lib/msg.h"
#include "os/os.h"
#include "selftest/selftest.h"

/* A record of this host covering (source, mountpoint) pairs, checks as "id=STATUS" pairs. */
static json_t *record(const char *const *vols, size_t nv, const char *const *checks, size_t nc)
{
	json_t *host = sampler_environment(), *v = json_array(), *c = json_array();
	json_t *sum = json_pack("{s:i, s:i, s:i, s:i}", "PASS", 0, "FAIL", 0, "UNKNOWN", 0, "N/A", 0);

	for (size_t i = 0; i < nv; i += 2)
		json_array_append_new(v, json_pack("{s:s, s:s}", "source", vols[i], "mountpoint",
						   vols[i + 1]));
	for (size_t i = 0; i < nc; i++) {
		char *id = xstrdup(checks[i]), *eq = strchr(id, '=');

		*eq = 0;
		json_array_append_new(c, json_pack("{s:s, s:s, s:s}", "id", id, "status", eq + 1,
						   "fact", "measured"));
		json_object_set_new(sum, eq + 1,
				    json_integer(json_integer_value(json_object_get(sum, eq + 1)) + 1));
		free(id);
	}
	return json_pack("{s:s, s:s, s:o, s:b, s:o, s:o, s:o}", "schema", SELFTEST_SCHEMA, "at",
			 "2026-12-03T10:00:00Z", "host", host, "buffered", 0, "volumes", v,
			 "checks", c, "summary", sum);
}

static char *save(json_t *rec)
{
	char *dir = os_tmp_dir(), *path = xasprintf("%s/fslab-test-selftest.%lu.json", dir, os_pid());

	assert_int_equal(json_dump_file(rec, path, 0), 0);
	json_decref(rec);
	free(dir);
	return path;
}

static struct volume vol(const char *source, const char *mnt)
{
	struct volume v = { .dir = (char *)"/x/db", .source = (char *)source,
			    .mountpoint = (char *)mnt };

	return v;
}

static void test_attach_rules(void **state)
{
	static const char *const vols[] = { "/dev/loop1", "/mnt/db", "/dev/loop2", "/mnt/log" };
	static const char *const ok[] = { "clock=PASS", "unbuffered_reads=PASS" };
	struct volume db = vol("/dev/loop1", "/mnt/db"), lg = vol("/dev/loop2", "/mnt/log");
	struct volume other = vol("/dev/loop1", "/mnt/elsewhere");
	const struct volume *both[] = { &db, &lg }, *wrong[] = { &db, &other };
	json_t *rec, *out;
	char *path;

	(void)state;
	path = save(record(vols, 4, ok, 2));
	assert_int_equal(selftest_attach(path, both, 2, &out), 0);
	assert_string_equal(json_string_value(json_object_get(out, "schema")), SELFTEST_SCHEMA);
	json_decref(out);
	/* a volume of the run that the record does not cover (same device, other mount) */
	assert_int_equal(selftest_attach(path, wrong, 2, &out), -FSLAB_EINPUT);
	assert_null(out);
	os_unlink(path);
	free(path);

	rec = record(vols, 4, ok, 2);
	json_object_set_new(rec, "buffered", json_true());
	path = save(rec);
	assert_int_equal(selftest_attach(path, both, 2, &out), -FSLAB_EINPUT);
	os_unlink(path);
	free(path);

	rec = record(vols, 4, ok, 2);
	json_object_set_new(json_object_get(rec, "host"), "hostname", json_string("elsewhere"));
	path = save(rec);
	assert_int_equal(selftest_attach(path, both, 2, &out), -FSLAB_EINPUT);
	os_unlink(path);
	free(path);

	rec = record(vols, 4, ok, 2);
	json_object_set_new(rec, "schema", json_string("fslab-result/1"));
	path = save(rec);
	assert_int_equal(selftest_attach(path, both, 2, &out), -FSLAB_EINPUT);
	os_unlink(path);
	assert_int_equal(selftest_attach(path, both, 2, &out), -FSLAB_EINPUT); /* missing */
	free(path);
}

static void test_fact_and_note(void **state)
{
	static const char *const vols[] = { "/dev/loop1", "/mnt/db" };
	static const char *const pass[] = { "clock=PASS", "timer=PASS", "integrity_streams=N/A" };
	static const char *const mixed[] = {
		"clock=PASS", "unaligned_refused=FAIL", "unbuffered_reads=UNKNOWN",
		"write_through=UNKNOWN", "device_counters=FAIL", "unaligned_refused=FAIL",
	};
	json_t *rec = record(vols, 2, pass, 3);
	char *s;

	(void)state;
	s = selftest_fact(rec);
	assert_string_equal(s, "PASS (2 checks passed, 1 n/a; 2026-12-03T10:00:00Z)");
	free(s);
	assert_null(selftest_note(rec, "st.json"));
	json_decref(rec);

	/* a check failing on two volumes is named once; FAIL before UNKNOWN */
	rec = record(vols, 2, mixed, ARRAY_SIZE(mixed));
	s = selftest_fact(rec);
	assert_string_equal(s, "FAIL: unaligned_refused, device_counters; UNKNOWN: "
			       "unbuffered_reads, write_through (2026-12-03T10:00:00Z)");
	free(s);
	s = selftest_note(rec, "st.json");
	assert_non_null(strstr(s, "fslab selftest (st.json, 2026-12-03T10:00:00Z) did not pass every "
				  "check: FAIL: unaligned_refused, device_counters; UNKNOWN:"));
	free(s);
	json_decref(rec);
	s = selftest_fact(NULL);
	assert_string_equal(s, "none recorded");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_rules),
		cmocka_unit_test(test_fact_and_note),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
