// SPDX-License-Identifier: MIT
/*
 * notes.c: the notes of a label's runs said once per label: the notes that say the
 * same thing with other numbers grouped, each number shown as its range over the runs.
 * Reads the model only.
 */
#include "compare/reportP.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

/*
 * A note is grouped with the notes of other runs that say the same thing with other numbers:
 * its template is the text with every free-standing number ("116", "0.18", not "db1",
 * "ext4", "2022.10.3" or a path's "/lab1") replaced by a marker.  Each marker then shows
 * the range of its numbers over the runs: "db1: 93-116 log rolls; ... 0.15-0.21 ms on
 * average".
 */
#define NUM_MARK '\x01'

static bool word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The template of note s (heap) and its numbers (heap array, count in *n). */
static char *note_template(const char *s, double **nums, char ***texts, size_t *n)
{
	size_t len = strlen(s);
	char *out = xmalloc(len + 1), *o = out;

	*nums = NULL;
	*texts = NULL;
	*n = 0;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		bool before_ok = !i || (!word_char(s[i - 1]) && s[i - 1] != '.' && s[i - 1] != '/' &&
					s[i - 1] != '-' && s[i - 1] != NUM_MARK);

		while (j < len && isdigit((unsigned char)s[j]))
			j++;
		if (j > i && j + 1 < len && s[j] == '.' && isdigit((unsigned char)s[j + 1]))
			for (j++; j < len && isdigit((unsigned char)s[j]); j++)
				;
		if (j > i && before_ok && (j == len || (!word_char(s[j]) &&
			   !(s[j] == '.' && j + 1 < len && word_char(s[j + 1])) && s[j] != '/'))) {
			*nums = xrealloc(*nums, (*n + 1) * sizeof(double));
			*texts = xrealloc(*texts, (*n + 1) * sizeof(char *));
			(*nums)[*n] = strtod(s + i, NULL);
			(*texts)[(*n)++] = xasprintf("%.*s", (int)(j - i), s + i);
			*o++ = NUM_MARK;
			i = j;
			continue;
		}
		if (j == i)
			j = i + 1;
		/* the marker byte in the note itself (a control character from a result file or
		 * an import, blank when shown anyway) is no marker: note_text() would read a
		 * number the note does not have (found by fuzz_import_diskspd_text) */
		for (size_t m = i; m < j; m++)
			*o++ = s[m] == NUM_MARK ? ' ' : s[m];
		i = j;
	}
	*o = 0;
	return out;
}

struct note_group {
	char *tmpl;
	size_t nnum;
	double *lo, *hi;
	char **lo_text, **hi_text;
	size_t runs, last_run;
};

struct note_set {
	size_t n;
	struct note_group *v;
};

static void note_add(struct note_set *ns, const char *note, size_t run)
{
	double *nums;
	char **texts;
	size_t n, k;
	char *tmpl = note_template(note, &nums, &texts, &n);
	struct note_group *ng;

	for (k = 0; k < ns->n && strcmp(ns->v[k].tmpl, tmpl); k++)
		;
	if (k == ns->n) {
		ns->v = xrealloc(ns->v, (ns->n + 1) * sizeof(*ns->v));
		ng = &ns->v[ns->n++];
		*ng = (struct note_group){ .tmpl = tmpl, .nnum = n, .last_run = SIZE_MAX };
		ng->lo = xcalloc(n + 1, sizeof(double));
		ng->hi = xcalloc(n + 1, sizeof(double));
		if (n) {
			memcpy(ng->lo, nums, n * sizeof(double));
			memcpy(ng->hi, nums, n * sizeof(double));
		}
		ng->lo_text = xcalloc(n + 1, sizeof(char *));
		ng->hi_text = xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			ng->lo_text[i] = xstrdup(texts[i]);
			ng->hi_text[i] = xstrdup(texts[i]);
		}
	} else {
		ng = &ns->v[k];
		free(tmpl);
		for (size_t i = 0; i < n; i++) {
			if (nums[i] < ng->lo[i]) {
				ng->lo[i] = nums[i];
				free(ng->lo_text[i]);
				ng->lo_text[i] = xstrdup(texts[i]);
			}
			if (nums[i] > ng->hi[i]) {
				ng->hi[i] = nums[i];
				free(ng->hi_text[i]);
				ng->hi_text[i] = xstrdup(texts[i]);
			}
		}
	}
	if (ng->last_run != run) {
		ng->runs++;
		ng->last_run = run;
	}
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	free(nums);
}

/* The template with each marker replaced by its value or range; heap. */
static char *note_text(const struct note_group *ng)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k = 0;

	for (const char *p = ng->tmpl; *p; p++) {
		if (*p != NUM_MARK) {
			strbuf_addch(&sb, *p);
			continue;
		}
		if (ng->lo[k] == ng->hi[k])
			strbuf_addstr(&sb, ng->lo_text[k]);
		else
			strbuf_addf(&sb, "%s-%s", ng->lo_text[k], ng->hi_text[k]);
		k++;
	}
	return strbuf_detach(&sb, NULL);
}

static void note_set_release(struct note_set *ns)
{
	for (size_t k = 0; k < ns->n; k++) {
		for (size_t i = 0; i < ns->v[k].nnum; i++) {
			free(ns->v[k].lo_text[i]);
			free(ns->v[k].hi_text[i]);
		}
		free(ns->v[k].tmpl);
		free(ns->v[k].lo);
		free(ns->v[k].hi);
		free(ns->v[k].lo_text);
		free(ns->v[k].hi_text);
	}
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
}

void report_result_notes(const struct fslab_result *r, json_t *out[2])
{
	out[0] = r->notes;
	out[1] = json_object_get(json_object_get(r->environment, "prep"), "notes");
}

void report_notes(struct doc *d, const struct compare *c)
{
	bool any = false;

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		struct note_set ns = { 0 };

		for (size_t i = 0; i < grp->nruns; i++) {
			json_t *notes[2], *n;
			size_t k;

			report_result_notes(&c->results[grp->runs[i]], notes);
			for (int j = 0; j < 2; j++)
				json_array_foreach(notes[j], k, n)
					if (json_is_string(n))
						note_add(&ns, json_string_value(n), i);
		}
		for (size_t k = 0; k < ns.n; k++) {
			char *text = note_text(&ns.v[k]);

			if (!any)
				doc_para(d, "Notes recorded in the results, per label (numbers that differ "
					 "between runs as their range; each run's own notes are under "
					 "Per-run detail):");
			any = true;
			doc_item(d, "%s: %s (in %zu of %zu runs)", grp->label, text, ns.v[k].runs,
				 grp->nruns);
			free(text);
		}
		note_set_release(&ns);
	}
}
