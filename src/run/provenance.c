// SPDX-License-Identifier: MIT
/* provenance.c: where a run stood in a lab (--lab-*), into its result's "lab" (provenance.h). */
#include "run/provenance.h"

#include "lib/base.h"
#include "lib/msg.h"

int run_lab_check(const struct run_params *p)
{
	static const enum run_opt_id need[] = { RO_LAB_ID, RO_LAB_CELL, RO_LAB_ROUND,
						RO_LAB_POSITION };
	size_t given = 0;

	for (size_t i = 0; i < ARRAY_SIZE(need); i++)
		given += run_params_given(p, need[i]);
	if (run_params_given(p, RO_LAB_FRESH_VOLUME) && !given)
		given = 1; /* a lab flag alone: the same refusal */
	if (given && given != ARRAY_SIZE(need))
		return input_error("--lab-id, --lab-cell, --lab-round and --lab-position go together "
				   "(fslab lab sets them for its cells); give all four or none");
	return 0;
}

void run_lab_fill(const struct run_config *c, struct fslab_result *r)
{
	if (!c->lab_id)
		return;
	r->lab.id = xstrdup(c->lab_id);
	r->lab.cell = xstrdup(c->lab_cell);
	r->lab.round = (unsigned int)c->lab_round;
	r->lab.position = (unsigned int)c->lab_position;
	r->lab.volume_formatted = c->lab_fresh_volume;
	r->lab.database_created = r->init.created > 0 && !r->init.reused;
}
