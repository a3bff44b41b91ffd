// SPDX-License-Identifier: MIT
/* load.c: result files into a comparison: regular files only, each through the importers
 * (fslab's own JSON, fio, DiskSpd, Jetstress), --label FILE=NAME, and the checks every result
 * passes (plausible numbers, a safe label, not aborted unless allowed, one tool per label);
 * the comparability guard: every option that shapes the load (comparable.c), the tool and
 * its version. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/units.h"

/*
 * A hand-edited or hostile file: a label names files and lands in HTML, Markdown, CSV and
 * gnuplot, so one outside the safe set is refused rather than escaped everywhere.  The message
 * shows at most 40 characters of it, anything unprintable as '?'.
 */
static int bad_label(const char *file, const char *label)
{
	char shown[41];
	size_t n = 0;

	for (; label[n] && n < 40; n++)
		shown[n] = isgraph((unsigned char)label[n]) ? label[n] : '?';
	shown[n] = 0;
	return input_error("%s: label '%s%s' cannot be used: %s; relabel the run (fslab run --label "
			   "NAME)", file, shown, label[n] ? "..." : "", label_problem(label));
}

/* A result is a regular file: a FIFO or a device would block the reader or never end. */
static int not_regular(const char *file)
{
	int kind;

	if (os_stat(file, &kind, NULL))
		return 0; /* result_read() names a missing file */
	if (kind == OS_KIND_FILE)
		return 0;
	return input_error("%s: not a regular file (a %s); name a result file written by fslab run",
			   file, kind == OS_KIND_FIFO ? "FIFO" : kind == OS_KIND_DIR ? "directory" :
			   kind == OS_KIND_CHAR || kind == OS_KIND_BLOCK ? "device" : "special file");
}

/* The checks every loaded result passes. */
static int check_result(const struct compare *c, size_t i, const struct compare_opts *o)
{
	const struct fslab_result *r = &c->results[i];
	const char *file = c->files[i];

	/* fslab's own files were checked by the reader; imported ones are checked here */
	if (result_implausible(r))
		return input_error("%s: not a plausible result (%s); it was edited or damaged: "
				   "re-run it", file, result_implausible(r));
	if (label_problem(r->label))
		return bad_label(file, r->label);
	if (r->aborted && !o->allow_aborted)
		return input_error("%s: run '%s' was aborted (%s); an aborted run is never mixed "
				   "into a comparison: re-run it, or pass --allow-aborted to show it "
				   "marked ABORTED", file, r->label,
				   r->abort_reason ? r->abort_reason : "no reason recorded");
	return 0;
}

size_t compare_first_of_label(json_t *index, const struct compare *c, size_t i)
{
	json_t *k = json_object_get(index, c->results[i].label);

	if (k)
		return (size_t)json_integer_value(k);
	json_object_set_new_nocheck(index, c->results[i].label, json_integer((json_int_t)i));
	return i;
}

/* "host lab1, started 2026-12-01T10:00:00Z, lab cell xfs-8t-r3": the run, for a message. */
static char *run_text(const struct fslab_result *r)
{
	const char *host = json_string_value(json_object_get(r->environment, "hostname"));
	struct strbuf sb = STRBUF_INIT;

	if (host)
		strbuf_addf(&sb, "host %s", host);
	if (r->started_at) {
		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "started %s", r->started_at);
	}
	if (r->lab.cell) {
		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "lab cell %s", r->lab.cell);
	}
	if (!sb.len)
		strbuf_addstr(&sb, "the same measurements");
	return strbuf_detach(&sb, NULL);
}

/*
 * One run is one repeat: a result given twice (the same path twice, a copy beside the
 * original) would be two repeats that agree exactly, and the comparison would claim a
 * difference no measurement supports (result_identity()).  Results of one file (an importer's
 * jobs) are never the same run as each other.  arg[i]: the argument result i came from.
 */
static int one_run_once(const struct compare *c, const size_t *arg)
{
	json_t *seen = json_object();
	int ret = 0;

	for (size_t i = 0; i < c->nresults && !ret; i++) {
		char id[RESULT_ID_LEN + 1];
		json_t *k;
		size_t j;
		char *run;

		result_identity(&c->results[i], id);
		k = json_object_get(seen, id);
		if (!k) {
			json_object_set_new(seen, id, json_integer((json_int_t)i));
			continue;
		}
		j = (size_t)json_integer_value(k);
		if (arg[j] == arg[i])
			continue;
		run = run_text(&c->results[i]);
		if (!strcmp(c->files[j], c->files[i]))
			ret = input_error("%s is given twice: one run counts once (%s); name each "
					  "result file once", c->files[i], run);
		else
			ret = input_error("%s and %s are the same run (label '%s', %s): one run counts "
					  "once, a copy would be a repeat that agrees exactly; give one of "
					  "them", c->files[j], c->files[i], c->results[i].label, run);
		free(run);
	}
	json_decref(seen);
	return ret;
}

/* The label --label gives file, or NULL. */
static const char *label_for(const struct compare_opts *o, const char *file)
{
	for (size_t i = 0; i < o->nlabels; i++)
		if (!strcmp(o->label_files[i], file))
			return o->label_names[i];
	return NULL;
}

int compare_load(struct compare *c, char *const *files, size_t n, const struct compare_opts *o)
{
	json_t *index;
	size_t *arg = NULL;
	int ret = 0;

	if (!n)
		return input_error("no result files given; usage: fslab compare RESULT.json...");
	for (size_t i = 0; i < o->nlabels; i++) {
		bool named = false;

		for (size_t k = 0; k < n && !named; k++)
			named = !strcmp(files[k], o->label_files[i]);
		if (!named)
			return input_error("--label %s=%s: %s is not one of the files given; name it "
					   "exactly as on the command line", o->label_files[i],
					   o->label_names[i], o->label_files[i]);
	}
	for (size_t i = 0; i < n; i++) {
		struct import_list l = { 0 };
		int r = not_regular(files[i]);
		bool refused = false;

		if (!r)
			r = import_file(files[i], label_for(o, files[i]), &l);
		if (r) {
			ret = r;
			import_list_release(&l);
			continue;
		}
		c->results = xrealloc(c->results, (c->nresults + l.n) * sizeof(*c->results));
		c->files = xrealloc(c->files, (c->nresults + l.n) * sizeof(char *));
		arg = xrealloc(arg, (c->nresults + l.n) * sizeof(*arg));
		for (size_t k = 0; k < l.n; k++) {
			size_t j = c->nresults++;

			arg[j] = i;

			c->results[j] = l.r[k];
			result_init(&l.r[k]);
			c->files[j] = xstrdup(files[i]);
			/* one message per file: a file of thousands of results is refused once */
			if (!refused && (r = check_result(c, j, o))) {
				ret = r;
				refused = true;
			}
		}
		import_list_release(&l);
	}
	n = c->nresults;
	if (!ret)
		ret = one_run_once(c, arg);
	free(arg);
	if (ret)
		return ret;
	index = json_object();
	for (size_t i = 0; i < n && !ret; i++) {
		size_t k = compare_first_of_label(index, c, i);

		c->foreign |= strcmp(compare_tool(&c->results[i]), "fslab") != 0;
		/* one label = repeats of one configuration: never two tools under one label */
		if (strcmp(compare_tool(&c->results[k]), compare_tool(&c->results[i])))
			ret = input_error("%s and %s: both labelled '%s' but measured by %s and %s; "
					  "give them different labels (--label FILE=NAME)",
					  c->files[k], c->files[i], c->results[i].label,
					  compare_tool(&c->results[k]), compare_tool(&c->results[i]));
	}
	json_decref(index);
	return ret;
}

char *compare_differences(const struct fslab_result *r, const struct fslab_result *ref)
{
	const char *va = r->fslab_version ? r->fslab_version : "?";
	const char *vb = ref->fslab_version ? ref->fslab_version : "?";
	char *load = compare_load_diff(r, ref);
	struct strbuf out = STRBUF_INIT;

	if (load)
		strbuf_addstr(&out, load);
	free(load);
	if (strcmp(compare_tool(r), compare_tool(ref))) {
		char *ta = compare_tool_text(r), *tb = compare_tool_text(ref);

		strbuf_add_sep(&out, ", ");
		strbuf_addf(&out, "tool %s vs %s", ta, tb);
		free(ta);
		free(tb);
	} else if (r->src.tool && strcmp(r->src.tool, "fslab")) {
		const char *xa = r->src.version ? r->src.version : "?";
		const char *xb = ref->src.version ? ref->src.version : "?";

		if (strcmp(xa, xb)) {
			strbuf_add_sep(&out, ", ");
			strbuf_addf(&out, "%s version %s vs %s", r->src.tool, xa, xb);
		}
	} else if (strcmp(va, vb)) {
		strbuf_add_sep(&out, ", ");
		strbuf_addf(&out, "fslab version %s vs %s", va, vb);
	}
	/* a cluster of N hosts measures N hosts' load: not comparable with one host's */
	if (r->nhosts != ref->nhosts) {
		strbuf_add_sep(&out, ", ");
		strbuf_addf(&out, "%zu host(s) vs %zu (a cluster result of fslab merge against %s)",
			    r->nhosts ? r->nhosts : 1, ref->nhosts ? ref->nhosts : 1,
			    r->nhosts && ref->nhosts ? "another cluster's" : "one host's result");
	}
	return strbuf_detach_or_null(&out);
}
