// SPDX-License-Identifier: MIT
/* plan.c: the lab's cells and their run order (labplan.c), recorded in lab-plan.json for the
 * report and in lab-state.json for --resume. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"
#include "result/result.h"

#define STATE_SCHEMA "fslab-lab-state/1"
#define PLAN_SCHEMA "fslab-lab-plan/1"

static const char *const status_names[] = { "pending", "running", "done", "failed",
					    "interrupted" };

/* The raw-device baseline: the same load on the devices without a filesystem. */
static const struct lab_fs raw_fs = { .name = (char *)"raw", .fs = (char *)"raw" };

/* ---- state (resume) ---- */

/* The plan's seed: null unless the order is shuffled (no other order uses it). */
static json_t *seed_json(const struct lab *L)
{
	return L->order_kind == LAB_ORDER_SHUFFLED ? json_integer((json_int_t)L->seed) : json_null();
}

void lab_set_plan(struct lab *L, enum lab_order kind, uint64_t seed, const char *source);

int lab_save_state(struct lab *L)
{
	json_t *root = json_object(), *cells = json_array();
	char *s;
	int ret;

	/* in run order: a resumed lab runs what is left in this order */
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		json_array_append_new(cells, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:f, s:f, s:s?}",
						       "id", c->id, "label", c->label,
						       "round", (json_int_t)c->round,
						       "position", (json_int_t)c->position,
						       "status", status_names[c->status],
						       "result", c->result, "seconds", c->seconds,
						       "wall_s", c->wall, "error", c->error));
	}
	json_object_set_new(root, "schema", json_string(STATE_SCHEMA));
	json_object_set_new(root, "config", json_string(L->cfg.path));
	json_object_set_new(root, "config_text", json_string(L->config_text));
	json_object_set_new(root, "order", json_string(lab_order_name(L->order_kind)));
	json_object_set_new(root, "seed", seed_json(L));
	json_object_set_new(root, "seed_source", L->order_kind == LAB_ORDER_SHUFFLED
			    ? json_string(L->seed_source) : json_null());
	json_object_set_new(root, "rounds", json_integer(L->cfg.repeats));
	/* how this lab ends: the next start says it (a "running" lab that is gone was killed) */
	json_object_set_new(root, "lab", json_pack("{s:s, s:I, s:s?, s:s?, s:s?}",
						   "status", L->status ? L->status : "running",
						   "pid", (json_int_t)os_pid(),
						   "signal", L->stop_signal[0] ? L->stop_signal : NULL,
						   "stopped_at", L->stopped_at[0] ? L->stopped_at : NULL,
						   "resume", L->resume_cmd));
	json_object_set_new(root, "lab_id", json_string(L->lab_id));
	json_object_set_new(root, "elapsed_s", json_real(lab_elapsed(L)));
	json_object_set_new(root, "checked_round", json_integer(L->checked_round));
	json_object_set_new(root, "rounds_done", json_integer(L->rounds_done));
	json_object_set_new(root, "widest_mde_pct", isfinite(L->worst_mde) ? json_real(L->worst_mde)
									     : json_null());
	json_object_set_new(root, "stop_reason", L->stop_reason ? json_string(L->stop_reason)
								 : json_null());
	json_object_set_new(root, "final_look", json_boolean(L->final_look));
	json_object_set_new(root, "cells", cells);
	s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	ret = write_file_atomic(L->state_path, s, strlen(s));
	free(s);
	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("%s: cannot save the lab state: %s", L->state_path, strerror(-ret));
	return ret;
}

/* A finished cell's result: present, readable, complete. */
static bool result_ok(const char *path)
{
	struct fslab_result r;
	bool ok;

	if (os_stat(path, NULL, NULL))
		return false;
	fslab_set_quiet(true);
	ok = result_read(path, &r) == 0 && !r.aborted;
	result_release(&r);
	fslab_set_quiet(false);
	return ok;
}

/* A JSON file read through the platform layer (UTF-8 paths on Windows, where jansson's
 * fopen takes the code page).  NULL with jerr->text set when it cannot be read or parsed. */
static json_t *load_json(const char *path, json_error_t *jerr)
{
	char *text;
	size_t len;
	json_t *j;
	int ret = read_file(path, &text, &len);

	if (ret) {
		snprintf(jerr->text, sizeof(jerr->text), "%s", strerror(-ret));
		return NULL;
	}
	j = json_loadb(text, len, 0, jerr);
	free(text);
	return j;
}

/*
 * The state's lab id and the time it ran.  Why it stopped and what its last look saw are
 * never read back: the stop rule looks at the results again before the next cell (or after
 * the last), so a state that says "precision reached" after 5 of 12 cells stops nothing.
 */
static void load_progress(struct lab *L, json_t *root)
{
	const char *id = json_string_value(json_object_get(root, "lab_id"));

	/* a state from before lab ids: the rest of the lab gets one */
	free(L->lab_id);
	L->lab_id = id && !label_problem(id) ? xstrdup(id) : lab_new_id();
	L->elapsed_before = json_number_value(json_object_get(root, "elapsed_s"));
	L->checked_round = 0;
	free(L->stop_reason);
	L->stop_reason = NULL;
	L->rounds_done = 0;
	L->worst_mde = NAN;
	L->final_look = false; /* recomputed at the next look */
}

/* The recorded run order, whatever this binary would compute: 0 or -FSLAB_EINPUT (said). */
static int load_order(struct lab *L, json_t *root, json_t *cells)
{
	const char *order = json_string_value(json_object_get(root, "order"));
	json_t *seed = json_object_get(root, "seed"), *c;
	const char *src = json_string_value(json_object_get(root, "seed_source"));
	enum lab_order kind;
	unsigned int n = 0;
	bool *seen;
	size_t i;

	if (!order) {
		/* a lab from before rounds: it ran sequentially, and so it goes on */
		lab_set_plan(L, LAB_ORDER_SEQUENTIAL, 0, "state");
		return 0;
	}
	if (lab_order_parse(order, &kind) || (kind == LAB_ORDER_SHUFFLED && !json_is_integer(seed)) ||
	    json_array_size(cells) != L->ncells)
		goto mismatch;
	L->order_kind = kind;
	L->seed = json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : 0;
	L->seed_source = src && !strcmp(src, "config") ? "config" : "clock";
	seen = xcalloc(L->ncells, sizeof(*seen));
	json_array_foreach(cells, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		unsigned int k;

		for (k = 0; id && k < L->ncells && strcmp(L->cells[k].id, id); k++)
			;
		if (!id || k == L->ncells || seen[k])
			break;
		seen[k] = true;
		L->order[n] = k;
		L->cells[k].position = ++n;
	}
	free(seen);
	if (n == L->ncells)
		return 0;
mismatch:
	return input_error("%s: the recorded plan does not match the cells of %s; start a new lab "
			   "with another --output", L->state_path, L->cfg.path);
}

/* Which cells are done (their results still complete), and what every attempted cell cost. */
static void load_cells(struct lab *L, json_t *cells)
{
	json_t *c;
	size_t i;

	json_array_foreach(cells, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		const char *st = json_string_value(json_object_get(c, "status"));

		for (unsigned int k = 0; id && st && k < L->ncells; k++) {
			struct cell *cell = &L->cells[k];

			if (strcmp(cell->id, id))
				continue;
			if (!strcmp(st, "done") && result_ok(cell->result)) {
				cell->status = CELL_DONE;
				cell->seconds = json_number_value(json_object_get(c, "seconds"));
			}
			/* what every attempted cell cost, for the budget of a resumed lab */
			cell->wall = json_number_value(json_object_get(c, "wall_s"));
		}
	}
}

int lab_load_state(struct lab *L)
{
	json_error_t jerr;
	json_t *root = load_json(L->state_path, &jerr), *cells;
	const char *text;
	int ret;

	if (!root)
		return input_error("%s: cannot read the lab state (%s); start a new lab with another "
				   "--output", L->state_path, jerr.text);
	text = json_string_value(json_object_get(root, "config_text"));
	if (!text || strcmp(text, L->config_text)) {
		ret = input_error("%s changed since this lab started in %s: a resumed lab must run "
				  "the same cells; restore the config or start a new lab with another "
				  "--output", L->cfg.path, L->out);
		goto out;
	}
	cells = json_object_get(root, "cells");
	load_progress(L, root);
	ret = load_order(L, root, cells);
	if (!ret)
		load_cells(L, cells);
out:
	json_decref(root);
	return ret;
}

/* Does another fslab lab hold the output directory's lock now? */
static bool lab_running_now(const struct lab *L)
{
	long holder;
	int fd = os_lock_path(L->out, &holder);

	if (fd >= 0)
		os_unlock(fd);
	return fd == -EWOULDBLOCK;
}

char *lab_state_describe(const struct lab *L, bool *running_now, char **resume)
{
	json_error_t jerr;
	json_t *root = load_json(L->state_path, &jerr), *cells, *c, *lab;
	const char *status, *sig, *at, *running = NULL;
	unsigned int done = 0, n = 0;
	json_int_t pid;
	char *out;
	size_t i;

	*running_now = false;
	*resume = NULL;
	if (!root)
		return NULL;
	cells = json_object_get(root, "cells");
	json_array_foreach(cells, i, c) {
		const char *st = json_string_value(json_object_get(c, "status"));

		n++;
		done += st && !strcmp(st, "done");
		if (st && !strcmp(st, "running"))
			running = json_string_value(json_object_get(c, "id"));
	}
	lab = json_object_get(root, "lab");
	status = json_string_value(json_object_get(lab, "status"));
	sig = json_string_value(json_object_get(lab, "signal"));
	at = json_string_value(json_object_get(lab, "stopped_at"));
	pid = json_integer_value(json_object_get(lab, "pid"));
	if (json_is_string(json_object_get(lab, "resume")))
		*resume = xstrdup(json_string_value(json_object_get(lab, "resume")));
	if (status && !strcmp(status, "interrupted"))
		out = xasprintf("was interrupted by %s at %s, with %u of %u cell(s) done",
				sig ? sig : "a signal", at ? at : "an unknown time", done, n);
	else if (status && !strcmp(status, "finished"))
		out = xasprintf("finished with %u of %u cell(s) done", done, n);
	else if ((status || running) && (*running_now = lab_running_now(L)))
		out = xasprintf("is running now (fslab lab, pid %lld), with %u of %u cell(s) done",
				(long long)pid, done, n);
	else if (status || running)
		/* "running" but nobody holds the lock: killed (kill -9, OOM) or the machine went */
		out = xasprintf("stopped without finishing (fslab lab, pid %lld, was killed%s%s%s), "
				"with %u of %u cell(s) done", (long long)pid,
				running ? " while cell " : "", running ? running : "",
				running ? " ran" : "", done, n);
	else
		out = xasprintf("has %u of %u cell(s) done", done, n);
	json_decref(root);
	return out;
}

/* ---- cells ---- */

/*
 * Every cell, slot-major: the slots (a label at one thread count, labplan.c) in config order:
 * the raw baseline, the filesystems, the A/A copy of the baseline last (in an interleaved
 * round it then runs as far from the baseline as the round allows); within a slot its
 * repeats.
 */
void lab_build_cells(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct lab_slot *slots;
	unsigned int n = 0;

	L->nslots = lab_plan_slots(c, &slots);
	L->nround_cells = L->ncells = L->nslots * c->repeats;
	/* room for a qualification run per slot (the raw baseline and the A/A copy have none) */
	L->cells = xcalloc(L->ncells + (c->qualify_ns ? L->nslots : 0) + 1, sizeof(*L->cells));
	L->order = xcalloc(L->ncells + (c->qualify_ns ? L->nslots : 0) + 1, sizeof(*L->order));
	for (unsigned int s = 0; s < L->nslots; s++) {
		const struct lab_slot *x = &slots[s];
		const struct lab_fs *fs = x->fs < 0 ? &raw_fs : &c->fs[x->fs];

		if (x->aa_of) {
			/* the same filesystem and options under the A/A name */
			if (!L->aa_fs.name) {
				L->aa_fs = *fs;
				L->aa_fs.name = xstrdup(x->name);
			}
			fs = &L->aa_fs;
		}
		for (unsigned int r = 1; r <= c->repeats; r++) {
			struct cell *cell = &L->cells[n++];

			cell->fs = fs;
			cell->threads = x->threads;
			cell->repeat = cell->round = r;
			/* threads = auto (0): the count is each cell's tuner's */
			cell->id = x->threads ? xasprintf("%s-%ut-r%u", x->name, x->threads, r)
					      : xasprintf("%s-auto-r%u", x->name, r);
			cell->label = xstrdup(x->label);
			cell->aa_of = x->aa_of ? xstrdup(x->aa_of) : NULL;
			cell->rel_result = xasprintf("results/%s.json", cell->id);
			cell->result = xasprintf("%s/%s.json", L->results, cell->id);
		}
	}
	for (unsigned int s = 0; s < L->nslots && c->qualify_ns; s++) {
		const struct lab_slot *x = &slots[s];
		struct cell *cell;

		if (x->aa_of || x->fs < 0)
			continue;
		cell = &L->cells[L->ncells++];
		cell->fs = &c->fs[x->fs];
		cell->threads = x->threads;
		cell->round = c->repeats + 1;
		cell->qualify = true;
		cell->id = x->threads ? xasprintf("%s-%ut-qualify", x->name, x->threads)
				      : xasprintf("%s-auto-qualify", x->name);
		cell->label = xstrdup(x->label);
		cell->rel_result = xasprintf("results/%s.json", cell->id);
		cell->result = xasprintf("%s/%s.json", L->results, cell->id);
	}
	lab_slots_free(slots, L->nslots);
}

/* What a result file belongs to, for a message: cell c's own (h == the number of hosts),
 * or host h's of cell c. */
static char *stem_owner(const struct lab *L, unsigned int c, size_t h)
{
	if (h == L->cfg.hosts.n)
		return xasprintf("cell %s's %sresult (label '%s')", L->cells[c].id,
				 L->cfg.hosts.n ? "cluster " : "", L->cells[c].label);
	return xasprintf("[host %s]'s result of cell %s (label '%s')", L->cfg.hosts.v[h].name,
			 L->cells[c].id, L->cells[c].label);
}

int lab_check_names(const struct lab *L)
{
	const size_t nh = L->cfg.hosts.n;
	json_t *seen = json_object();
	int ret = 0;

	/* each name with its owner, numbered c * (nh + 1) + h */
	for (unsigned int c = 0; c < L->ncells && !ret; c++) {
		for (size_t h = 0; h <= nh && !ret; h++) {
			char *stem = h == nh ? xstrdup(L->cells[c].id)
					     : xasprintf("%s.%s", L->cells[c].id, L->cfg.hosts.v[h].name);
			json_t *k = json_object_get(seen, stem);

			if (k) {
				size_t o = (size_t)json_integer_value(k);
				char *a = stem_owner(L, (unsigned int)(o / (nh + 1)), o % (nh + 1));
				char *b = stem_owner(L, c, h);

				ret = input_error("%s: %s and %s would both be results/%s.json (and share "
						  "its logs), one overwriting the other; rename the [host] "
						  "or the [fs] section (a host name without '.' and '-' "
						  "cannot look like the end of a cell's name)", L->cfg.path,
						  a, b, stem);
				free(a);
				free(b);
			} else {
				json_object_set_new(seen, stem,
						    json_integer((json_int_t)(c * (nh + 1) + h)));
			}
			free(stem);
		}
	}
	json_decref(seen);
	return ret;
}

const char *lab_cell_where(const struct lab *L, const struct cell *c, char *buf, size_t len)
{
	if (c->qualify)
		snprintf(buf, len, "the qualification run");
	else
		snprintf(buf, len, "round %u/%u", c->round, L->cfg.repeats);
	return buf;
}

/* The run order from the order kind and seed (labplan.c); positions follow. */
void lab_set_plan(struct lab *L, enum lab_order kind, uint64_t seed, const char *source)
{
	unsigned int rounds = L->cfg.repeats;

	L->order_kind = kind;
	L->seed = seed;
	L->seed_source = source;
	lab_plan_order(kind, seed, L->nslots, rounds, L->order);
	for (unsigned int i = 0; i < L->nround_cells; i++) {
		/* cell number round * nslots + slot -> the slot-major index */
		unsigned int k = L->order[i], slot = k % L->nslots, round = k / L->nslots;

		L->order[i] = slot * rounds + round;
		L->cells[L->order[i]].position = i + 1;
	}
	/* the qualification runs after every round, in config order */
	for (unsigned int i = L->nround_cells; i < L->ncells; i++) {
		L->order[i] = i;
		L->cells[i].position = i + 1;
	}
}

/* lab.log: how the cells are ordered and why, then one line per cell in run order. */
void lab_log_plan(struct lab *L)
{
	static const char *const how[] = {
		[LAB_ORDER_SHUFFLED] = "round-robin rounds, the order inside each round shuffled",
		[LAB_ORDER_INTERLEAVED] = "round-robin rounds in config order",
		[LAB_ORDER_SEQUENTIAL] = "all repeats of a label back to back",
	};
	char seed[160] = "";

	if (L->order_kind == LAB_ORDER_SHUFFLED) {
		if (!strcmp(L->seed_source, "config"))
			snprintf(seed, sizeof(seed), ", seed %llu from [lab] order_seed",
				 (unsigned long long)L->seed);
		else
			snprintf(seed, sizeof(seed), ", seed %llu from the clock ([lab] order_seed = "
				 "%llu repeats this order)", (unsigned long long)L->seed,
				 (unsigned long long)L->seed);
	}
	lab_log(L, "plan: order %s (%s)%s, %u round(s) of %u cell(s), in %s",
		lab_order_name(L->order_kind), how[L->order_kind], seed, L->cfg.repeats, L->nslots,
		L->plan_path);
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		if (c->qualify)
			lab_log(L, "plan %u/%u qualification: %s (label %s, %llu s)%s", i + 1,
				L->ncells, c->id, c->label,
				(unsigned long long)(L->cfg.qualify_ns / NSEC_PER_SEC),
				c->status == CELL_DONE ? " [done, kept]" : "");
		else
			lab_log(L, "plan %u/%u round %u: %s (label %s)%s", i + 1, L->ncells, c->round,
				c->id, c->label, c->status == CELL_DONE ? " [done, kept]" : "");
	}
}

/*
 * lab-plan.json (fslab-lab-plan/1), for the report's Method: the order, its seed, the
 * rounds and every cell in run order.  Written atomically.
 */
int lab_write_plan(struct lab *L)
{
	json_t *root = json_object(), *cells = json_array();
	char *s;
	int ret;

	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		/* threads = auto (0): the count is each run's tuner's */
		json_t *threads = c->threads ? json_integer(c->threads) : json_string("auto");

		if (c->qualify) {
			json_array_append_new(cells, json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:s, "
				"s:b, s:f}", "position", (json_int_t)c->position, "round",
				(json_int_t)c->round, "id", c->id, "label", c->label, "fs",
				c->fs->fs, "threads", threads, "result_file",
				c->rel_result, "qualification", 1, "duration_s",
				L->cfg.qualify_ns / 1e9));
			continue;
		}
		json_array_append_new(cells, json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:I, s:s, s:s?}",
						       "position", (json_int_t)c->position,
						       "round", (json_int_t)c->round,
						       "id", c->id, "label", c->label,
						       "fs", c->fs->fs,
						       "threads", threads,
						       "repeat", (json_int_t)c->repeat,
						       "result_file", c->rel_result,
						       "aa_of", c->aa_of));
	}
	json_object_set_new(root, "schema", json_string(PLAN_SCHEMA));
	json_object_set_new(root, "order", json_string(lab_order_name(L->order_kind)));
	json_object_set_new(root, "seed", seed_json(L));
	json_object_set_new(root, "seed_source", L->order_kind == LAB_ORDER_SHUFFLED
			    ? json_string(L->seed_source) : json_null());
	json_object_set_new(root, "rounds", json_integer(L->cfg.repeats));
	json_object_set_new(root, "cells_per_round", json_integer(L->nslots));
	json_object_set_new(root, "aa_check", json_boolean(L->cfg.aa_check));
	json_object_set_new(root, "config", json_string(L->cfg.path));
	json_object_set_new(root, "lab_id", json_string(L->lab_id));
	if (L->cfg.adaptive)
		json_object_set_new(root, "adaptive", json_pack(
			"{s:s, s:o, s:b, s:o, s:o, s:I, s:I, s:I, s:o, s:o}",
			"stop", L->cfg.stop == LAB_STOP_DECIDED ? "decided" : "precision",
			"equivalence_pct", L->cfg.equivalence > 0 ? json_real(L->cfg.equivalence) :
			L->cfg.equivalence < 0 ? json_string("none") : json_null(),
			"final_look", L->final_look,
			"precision_pct", L->cfg.precision > 0 ? json_real(L->cfg.precision)
							     : json_null(),
			"budget_s", L->cfg.budget_ns ? json_real(L->cfg.budget_ns / 1e9) : json_null(),
			"min_rounds", (json_int_t)L->cfg.min_rounds,
			"max_rounds", (json_int_t)L->cfg.max_rounds,
			"rounds_done", (json_int_t)L->rounds_done,
			"widest_mde_pct", isfinite(L->worst_mde) && L->rounds_done
					  ? json_real(L->worst_mde) : json_null(),
			"stop_reason", L->stop_reason ? json_string(L->stop_reason) : json_null()));
	json_object_set_new(root, "cells", cells);
	s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	ret = write_file_atomic(L->plan_path, s, strlen(s));
	free(s);
	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("%s: cannot write the lab plan: %s", L->plan_path, strerror(-ret));
	return ret;
}

