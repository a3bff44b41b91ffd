// SPDX-License-Identifier: MIT
/*
 * result_lab.c: where a lab run stood, in fslab-result/1 ("lab": the lab's id, the cell, its
 * round and place in the run order, whether the lab formatted the volumes and the run created
 * its databases); left out for a hand run.  result_fields.c's table names it.
 */
#include <stdlib.h>

#include "lib/base.h"
#include "result/resultP.h"
#include "lib/units.h"

#define F(s, k, t, m, ...) { .key = k, .type = t, .off = offsetof(s, m), __VA_ARGS__ }

/* "lab": where a lab run stood; left out for a hand run (so older files and hand runs read
 * and write the same) */
static const struct rfield lab_fields[] = {
	F(struct lab_provenance, "id", RF_STR, id),
	F(struct lab_provenance, "cell", RF_STR, cell),
	F(struct lab_provenance, "round", RF_UINT, round),
	F(struct lab_provenance, "position", RF_UINT, position),
	F(struct lab_provenance, "volume_formatted", RF_BOOL, volume_formatted),
	F(struct lab_provenance, "database_created", RF_BOOL, database_created),
	{ NULL },
};

json_t *rf_lab_write(const void *p)
{
	const struct lab_provenance *l = p;

	return l->id ? rf_to_json(lab_fields, l) : NULL;
}

void rf_lab_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = json_object_get(parent, key);
	struct lab_provenance *l = p;

	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		rd_fail(rd, "\"lab\" is not an object; the file was edited or damaged: re-run it");
		return;
	}
	rf_from_json(rd, o, lab_fields, l, key);
	if (!rd->err && (!l->id || !l->round || !l->position))
		rd_fail(rd, "\"lab\" lacks its id, round or position; the file was edited or "
			"damaged: re-run it");
	/* both land in reports (Method, tables.csv): the label rule keeps them plain */
	else if (!rd->err && (label_problem(l->id) || (l->cell && label_problem(l->cell))))
		rd_fail(rd, "\"lab\" id or cell is not plain text (%s); the file was edited or "
			"damaged: re-run it", label_problem(l->id) ? label_problem(l->id)
							   : label_problem(l->cell));
}
