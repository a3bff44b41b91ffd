// SPDX-License-Identifier: MIT
/*
 * runs.c: how the runs of each label were made, from the results themselves: lab or hand
 * runs, a freshly formatted or a reused volume, a database created or reused.  The Method and
 * the statistics paragraph say this instead of what the lab would have done.
 */
#include "compare/reportP.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base.h"

/* The filesystem UUID fslab prep recorded for the database volume, or NULL (borrowed). */
static const char *volume_uuid(const struct fslab_result *r)
{
	json_t *v = json_object_get(r->environment, "prep");

	v = json_object_get(json_object_get(json_object_get(v, "volumes"), "db"), "verified");
	return json_string_value(json_object_get(v, "uuid"));
}

/* What the runs of one group say. */
struct made {
	size_t runs, lab, formatted, created, reused, db_unknown, uuids, no_uuid;
	unsigned int first_round, last_round;
};

static void count(const struct compare *c, const struct cmp_group *g, struct made *m)
{
	const char **seen = xcalloc(g->nruns + 1, sizeof(char *));

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < g->nruns; i++) {
		const struct fslab_result *r = &c->results[g->runs[i]];
		const char *u = volume_uuid(r);
		bool dup = false;

		m->runs++;
		if (r->lab.id) {
			m->lab++;
			m->formatted += r->lab.volume_formatted;
			if (!m->first_round || r->lab.round < m->first_round)
				m->first_round = r->lab.round;
			m->last_round = MAX(m->last_round, r->lab.round);
		}
		if (r->init.created && !r->init.reused)
			m->created++;
		else if (r->init.reused)
			m->reused++;
		else
			m->db_unknown++;
		if (!u) {
			m->no_uuid++;
			continue;
		}
		for (size_t k = 0; k < m->uuids && !dup; k++)
			dup = !strcmp(seen[k], u);
		if (!dup)
			seen[m->uuids++] = u;
	}
	free(seen);
}

bool report_all_fresh(const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		struct made m;

		if (c->groups[g].aborted)
			continue;
		count(c, &c->groups[g], &m);
		if (m.lab != m.runs || m.formatted != m.runs || m.created != m.runs)
			return false;
	}
	return true;
}

/* "a database created by each run", "the database reused by 2 of 3 runs", ... */
static char *db_words(const struct made *m)
{
	if (m->db_unknown == m->runs)
		return xstrdup("whether the database was created or reused is not recorded");
	if (m->created == m->runs)
		return xstrdup(m->runs == 1 ? "its database created by the run"
				: "a database created by each run");
	if (m->reused == m->runs)
		return xasprintf("an existing database reused by %s", m->runs == 1 ? "the run" :
				 "every run");
	return xasprintf("a database created by %zu and reused by %zu of the %zu runs%s",
			 m->created, m->reused, m->runs, m->db_unknown ? " (the others: not recorded)"
								       : "");
}

/* "each on a filesystem formatted for it", "all on one filesystem (the same UUID)", ... */
static char *volume_words(const struct made *m)
{
	size_t known = m->runs - m->no_uuid;

	if (m->lab == m->runs && m->formatted == m->runs)
		return xstrdup(m->runs == 1 ? "on a volume the lab formatted for it"
				: "each on a volume the lab formatted for it");
	/* a lab formats every cell's volumes but those of labels on volumes the user prepared
	 * ([fs] db_dir/log_dir: fslab run --fresh; the raw baseline is said by the caller) */
	if (m->lab == m->runs && !m->formatted && !known)
		return xstrdup("on volumes prepared by the user, not reformatted between repeats (the "
			       "volume ages from round to round)");
	if (!known)
		return xstrdup("on a volume not formatted by fslab prep (whether it was fresh is "
			       "not recorded)");
	if (m->uuids == 1 && known > 1)
		return xasprintf("all %zu on one and the same filesystem (one UUID): the volume "
				 "was reused", known);
	if (m->uuids == known)
		return xasprintf("%s on a filesystem of its own (a UUID each)%s",
				 known == 1 ? "the run" : "each run",
				 m->no_uuid ? "; some runs not on a volume of fslab prep" : "");
	return xasprintf("%zu filesystems for %zu runs: some volumes were reused", m->uuids, known);
}

void report_runs(struct doc *d, const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		char *vol, *db, rounds[64] = "";
		struct made m;

		count(c, grp, &m);
		/* the raw-device baseline has no filesystem to format */
		vol = !strcmp(grp->fs, "raw") ? xstrdup("on the raw devices (no filesystem)")
					      : volume_words(&m);
		db = db_words(&m);
		if (m.lab && m.first_round)
			snprintf(rounds, sizeof(rounds), m.first_round == m.last_round ? ", round %u"
				 : ", rounds %u-%u", m.first_round, m.last_round);
		if (m.lab == m.runs)
			doc_item(d, "Runs, %s: %zu lab run%s (lab %s%s), %s, %s", grp->label, m.runs,
				 m.runs == 1 ? "" : "s", c->results[grp->runs[0]].lab.id, rounds, vol,
				 db);
		else if (!m.lab)
			doc_item(d, "Runs, %s: %zu hand run%s (fslab run by itself: no lab recorded "
				 "a round or a fresh volume), %s, %s", grp->label, m.runs,
				 m.runs == 1 ? "" : "s", vol, db);
		else
			doc_item(d, "Runs, %s: %zu runs, %zu from a lab%s and %zu by hand, %s, %s",
				 grp->label, m.runs, m.lab, rounds, m.runs - m.lab, vol, db);
		free(vol);
		free(db);
	}
}
