// SPDX-License-Identifier: MIT
/* record.c: the selftest's JSON record where others use it: `fslab run --selftest FILE` checks
 * and embeds it (environment.selftest), compare's Setup and the result's notes sum it up. */
#include "selftest/selftest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "platform/sampler.h"
#include "lib/msg.h"
#include "lib/strbuf.h"

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* Text from the record that may be echoed in a message: short, no control characters. */
static bool printable(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return n <= 255;
}

/* Does the record hold a volume with v's device and mount point? */
static bool covers(json_t *rec, const struct volume *v)
{
	json_t *vols = json_object_get(rec, "volumes"), *rv;
	size_t i;

	json_array_foreach(vols, i, rv)
		if (!strcmp(str(rv, "source"), v->source ? v->source : "") &&
		    !strcmp(str(rv, "mountpoint"), v->mountpoint ? v->mountpoint : ""))
			return true;
	return false;
}

int selftest_attach(const char *path, const struct volume *const *vols, size_t n, json_t **out)
{
	json_t *rec, *host;
	json_error_t err;
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	/* read_file: a UTF-8 path on Windows too (json_load_file's fopen takes the code page) */
	ret = read_file(path, &text, &len);
	if (ret)
		return input_error("--selftest %s: cannot be read (%s); make the record with fslab "
				   "selftest --dir DIR --json %s", path, strerror(-ret), path);
	rec = json_loadb(text, len, 0, &err);
	free(text);
	if (!rec)
		return input_error("--selftest %s: not a JSON record (line %d: %s); make one with "
				   "fslab selftest --dir DIR --json %s", path, err.line, err.text, path);
	host = sampler_environment();
	if (strcmp(str(rec, "schema"), SELFTEST_SCHEMA) || !json_is_array(json_object_get(rec, "checks")))
		ret = input_error("--selftest %s: not an fslab selftest record (%s); make one with "
				  "fslab selftest --dir DIR --json %s", path, SELFTEST_SCHEMA, path);
	else if (json_is_true(json_object_get(rec, "buffered")))
		ret = input_error("--selftest %s: made with --buffered, which shows buffered I/O, not "
				  "this machine's unbuffered I/O; run fslab selftest without --buffered",
				  path);
	else if (strcmp(str(json_object_get(rec, "host"), "hostname"), str(host, "hostname")))
		ret = input_error("--selftest %s: made on '%s', this is '%s'; run fslab selftest on "
				  "this machine", path,
				  printable(str(json_object_get(rec, "host"), "hostname"))
				  ? str(json_object_get(rec, "host"), "hostname") : "another host",
				  str(host, "hostname"));
	for (size_t i = 0; i < n && !ret; i++)
		if (!covers(rec, vols[i]))
			ret = input_error("--selftest %s: does not cover %s (%s on %s); run fslab "
					  "selftest with --dir %s too", path, vols[i]->dir,
					  vols[i]->mountpoint ? vols[i]->mountpoint : "?",
					  vols[i]->source ? vols[i]->source : "?", vols[i]->dir);
	json_decref(host);
	if (ret) {
		json_decref(rec);
		return ret;
	}
	*out = rec;
	return 0;
}

/* Is id one of the ", "-separated names in list? */
static bool listed(const char *list, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = list; p && *p; p = strstr(p, ", ") ? strstr(p, ", ") + 2 : NULL)
		if (!strncmp(p, id, n) && (!p[n] || p[n] == ','))
			return true;
	return false;
}

/* "FAIL: a, b; UNKNOWN: c" of the record's checks that did not pass (heap), or NULL. */
static char *not_passed(json_t *rec)
{
	static const char *const st[] = { "FAIL", "UNKNOWN" };
	json_t *checks = json_object_get(rec, "checks"), *ch;
	struct strbuf out = STRBUF_INIT, ids = STRBUF_INIT;
	size_t i;

	for (size_t k = 0; k < ARRAY_SIZE(st); k++) {
		strbuf_reset(&ids);
		json_array_foreach(checks, i, ch) {
			if (strcmp(str(ch, "status"), st[k]) ||
			    listed(ids.len ? ids.buf : NULL, str(ch, "id")))
				continue;
			strbuf_add_sep(&ids, ", ");
			strbuf_addstr(&ids, str(ch, "id"));
		}
		if (ids.len) {
			strbuf_add_sep(&out, "; ");
			strbuf_addf(&out, "%s: %s", st[k], ids.buf);
		}
	}
	strbuf_release(&ids);
	return strbuf_detach_or_null(&out);
}

char *selftest_fact(json_t *rec)
{
	char *bad, *out;

	if (!json_is_object(rec))
		return xstrdup("none recorded");
	bad = not_passed(rec);
	out = bad ? xasprintf("%s (%s)", bad, str(rec, "at"))
		  : xasprintf("PASS (%lld checks passed, %lld n/a; %s)",
			      json_integer_value(json_object_get(json_object_get(rec, "summary"),
								 "PASS")),
			      json_integer_value(json_object_get(json_object_get(rec, "summary"),
								 "N/A")), str(rec, "at"));
	free(bad);
	return out;
}

char *selftest_note(json_t *rec, const char *path)
{
	char *bad = not_passed(rec), *out = NULL;

	if (bad)
		out = xasprintf("fslab selftest (%s, %s) did not pass every check: %s; what the "
				"numbers of this run rest on does not all hold or could not be "
				"measured here (environment.selftest has each check's measured fact)",
				path, str(rec, "at"), bad);
	free(bad);
	return out;
}
