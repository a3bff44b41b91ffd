// SPDX-License-Identifier: MIT
/*
 * cell.c: the one cell runner (labP.h lab_cell_run()): prep, run and teardown of a cell on
 * every place of the lab at once, through lab_steps().  A local lab is a one-host cluster:
 * its one place is this machine (lab_reach_local, below), whose run writes the cell's result
 * itself (the merge of one place is the identity); a lab with [host] sections reaches its
 * hosts through cluster.c's ops (clocks and a common start, results fetched and merged).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

void lab_count_overhead(struct lab *L, const struct cell *cell)
{
	double over = cell->seconds - (L->cfg.wl.warmup_s + L->cfg.wl.duration_s);

	L->overhead_est = (L->overhead_est * L->overhead_n + MAX(over, 0.0)) / (L->overhead_n + 1);
	L->overhead_n++;
}

/* "host NAME: " before what place i says, for a lab of hosts; nothing for this machine. */
static char *place_who(const struct lab *L, size_t i)
{
	return L->nhosts ? xasprintf("host %s: ", L->cfg.hosts.v[i].name) : xstrdup("");
}

static void cc_init(struct ccell *c, struct lab *L, struct cell *cell)
{
	size_t n = L->nplaces;

	*c = (struct ccell){ .L = L, .cell = cell, .n = n, .t0 = now_ns(),
			     .lostmsg = STRBUF_INIT };
	c->args = xcalloc(n, sizeof(*c->args));
	c->logs = xcalloc(n, sizeof(char *));
	c->starts = xcalloc(n, sizeof(char *));
	c->remote = xcalloc(n, sizeof(char *));
	c->local = xcalloc(n, sizeof(char *));
	c->missing = xcalloc(n, sizeof(char *));
	c->prep_json = xcalloc(n, sizeof(char *));
	c->status = xcalloc(n, sizeof(int));
	c->lost = xcalloc(n, sizeof(bool));
}

static void cc_release(struct ccell *c)
{
	for (size_t i = 0; i < c->n; i++) {
		strvec_clear(&c->args[i]);
		free(c->logs[i]);
		free(c->starts[i]);
		free(c->remote[i]);
		free(c->local[i]);
		free(c->missing[i]);
		free(c->prep_json[i]);
	}
	free(c->args);
	free(c->logs);
	free(c->starts);
	free(c->remote);
	free(c->local);
	free(c->missing);
	free(c->prep_json);
	free(c->status);
	free(c->lost);
	strbuf_release(&c->lostmsg);
}

void lab_cell_lost(struct ccell *c, size_t i, const char *when)
{
	c->lost[i] = c->any_lost = true;
	strbuf_addf(&c->lostmsg, "%s%s lost (%s)", c->lostmsg.len ? ", " : "",
		    c->L->cfg.hosts.v[i].name, when);
}

void lab_cell_error(struct ccell *c, size_t i, const char *why)
{
	char *who;

	if (c->cell->error)
		return;
	who = place_who(c->L, i);
	c->cell->error = xasprintf("%s%s", who, why);
	free(who);
}

/* Every place's log of STEP and its argv (from scratch). */
static void cc_logs(struct ccell *c, const char *step)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->logs[i]);
		c->logs[i] = c->L->reach->log(c->L, i, c->cell->id, step);
		strvec_clear(&c->args[i]);
	}
}

/* The prep's opening line (none on volumes the user prepared: said in the log).  true when
 * there is a prep. */
static bool cc_prep_line(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;
	char where[48], on[48] = "";

	lab_cell_where(L, cell, where, sizeof(where));
	if (cell->fs->prepared) {
		lab_log(L, "cell %u/%u %s: no prep: volumes you prepared (%s), not reformatted; the "
			"run deletes and re-creates its databases and logs (%s, label %s)", L->cur + 1,
			L->ncells, cell->id, cell->fs->db_dirs.v[0], where, cell->label);
		return false;
	}
	L->step = "prep";
	if (L->nhosts)
		snprintf(on, sizeof(on), " on %zu hosts", c->n);
	lab_log(L, "cell %u/%u %s: prep %s%s (%s, label %s%s%s)", L->cur + 1, L->ncells, cell->id,
		cell->fs->fs, on, where, cell->label, L->nhosts ? "" : ", ",
		L->nhosts ? "" : lab_devices_words(L));
	return true;
}

/*
 * prep on every place at once.  0 or -1 (failed or interrupted).  A lab of hosts stops at a
 * stop request; this machine's lab goes on to its run, which is not started and says so.
 */
static int cc_prep(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;

	if (!cc_prep_line(c))
		return 0;
	cc_logs(c, "prep");
	for (size_t i = 0; i < c->n; i++) {
		struct lab_where w;

		L->reach->where(L, i, &w);
		lab_where_prep_args(L, &w, cell, &c->args[i]);
		lab_where_release(&w);
	}
	lab_steps(L, L->place, c->n, "prep", c->args, c->logs, LAB_STEP_STOPPABLE, NULL, c->status);
	for (size_t i = 0; i < c->n; i++) {
		char *why;

		if (!c->status[i] || (lab_nsignals && L->nhosts))
			continue;
		if (L->reach->gone && L->reach->gone(L, i, c->status[i]))
			lab_cell_lost(c, i, "during prep");
		if (cell->error)
			continue;
		why = lab_prep_failure(L, c->status[i], c->logs[i]);
		lab_cell_error(c, i, why);
		free(why);
	}
	if ((lab_nsignals && L->nhosts) || cell->error)
		return -1;
	return L->reach->prepped ? L->reach->prepped(c) : 0;
}

/* The run on every place (at one common start when there are several).  0 or -1. */
static int cc_run(struct ccell *c)
{
	struct lab *L = c->L;

	cc_logs(c, "run");
	if (L->reach->start(c))
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		struct lab_where w;

		L->reach->where(L, i, &w);
		w.output = c->remote[i];
		w.start_at = c->starts[i];
		w.prep_json = c->prep_json[i];
		lab_where_run_args(L, &w, c->cell, &c->args[i]);
		lab_where_release(&w);
	}
	c->t_run = now_ns();
	lab_steps(L, L->place, c->n, "run", c->args, c->logs,
		  LAB_STEP_PROGRESS | LAB_STEP_STOPPABLE, NULL, c->status);
	for (size_t i = 0; i < c->n; i++)
		if (L->hlive[i].init_s > L->init_max)
			L->init_max = L->hlive[i].init_s;
	return L->reach->collect(c);
}

void lab_teardown_places(struct lab *L, const char *prefix, const bool *skip)
{
	size_t n = L->nplaces;
	struct strvec *args = xcalloc(n, sizeof(*args));
	char **logs = xcalloc(n, sizeof(char *)), **mnt = xcalloc(n, sizeof(char *));
	int *status = xcalloc(n, sizeof(int));
	const char *step = L->step;

	L->step = "teardown";
	for (size_t i = 0; i < n; i++) {
		struct lab_where w;

		L->reach->where(L, i, &w);
		lab_where_teardown_args(&w, &args[i]);
		mnt[i] = xstrdup(w.mnt);
		lab_where_release(&w);
		logs[i] = L->reach->log(L, i, prefix, "teardown");
	}
	lab_steps(L, L->place, n, "teardown", args, logs, 0, skip, status);
	for (size_t i = 0; i < n; i++) {
		if (!(skip && skip[i]) && status[i]) {
			char *who = place_who(L, i);

			lab_log(L, "%steardown of %s exited %d (see %s)", who, mnt[i], status[i],
				logs[i]);
			free(who);
		}
		strvec_clear(&args[i]);
		free(logs[i]);
		free(mnt[i]);
	}
	L->step = step;
	free(args);
	free(logs);
	free(mnt);
	free(status);
}

static void cc_done(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;
	char on[48] = "";

	cell->status = CELL_DONE;
	cell->seconds = (now_ns() - c->t0) / 1e9;
	lab_save_state(L);
	/* done as soon as its result is complete: a lab killed during the teardown keeps it
	 * (the next start tears down what is left) */
	if (!cell->fs->prepared)
		lab_teardown_places(L, cell->id, NULL);
	lab_count_overhead(L, cell);
	cell->wall = (now_ns() - c->t0) / 1e9;
	if (L->nhosts)
		snprintf(on, sizeof(on), " on %zu hosts", c->n);
	lab_log(L, "cell %u/%u %s: done in %.0f s%s%s, result %s", L->cur + 1, L->ncells, cell->id,
		cell->seconds, on, !c->verdict_fail ? "" : L->nhosts ?
		" (Jetstress verdict FAIL on a host)" : " (Jetstress verdict FAIL)", cell->result);
}

/* The cell failed or was interrupted: teardown at once on every place that can be reached,
 * a lost one at --resume.  1 if interrupted, 2 if a host was lost, else 0. */
static int cc_fail(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;

	if (!cell->fs->prepared)
		lab_teardown_places(L, cell->id, c->lost);
	cell->seconds = (now_ns() - c->t0) / 1e9;
	cell->wall = cell->seconds; /* a failed cell's time counts for the budget too */
	if (lab_nsignals) {
		cell->status = CELL_INTERRUPTED;
		lab_log(L, "cell %u/%u %s: interrupted; %s", L->cur + 1, L->ncells, cell->id,
			cell->fs->prepared ? "its databases stay on your volumes until the next "
			"cell deletes them" : L->nhosts ? "everything it mounted or attached on the "
			"hosts is removed" : "everything it mounted or attached is removed");
	} else {
		cell->status = CELL_FAILED;
		lab_log(L, "cell %u/%u %s: FAILED: %s", L->cur + 1, L->ncells, cell->id, cell->error);
	}
	if (!c->any_lost)
		return lab_nsignals ? 1 : 0;
	L->reach->lost(c);
	return 2;
}

int lab_cell_run(struct lab *L, struct cell *cell)
{
	struct ccell c;
	int ret = 0;

	cc_init(&c, L, cell);
	cell->status = CELL_RUNNING;
	free(cell->error);
	cell->error = NULL;
	os_unlink(cell->result);
	if (L->reach->begin)
		L->reach->begin(&c);
	lab_save_state(L);

	if (cc_prep(&c) || cc_run(&c))
		ret = cc_fail(&c);
	else
		cc_done(&c);
	lab_save_state(L);
	cc_release(&c);
	return ret;
}

/* ---- this machine, the local lab's one place ---- */

int lab_teardown(struct lab *L, const char *logpath)
{
	struct strvec args = STRVEC_INIT;
	int rc;

	lab_teardown_args(L, &args);
	rc = lab_child(L, &args, logpath, false, false);
	strvec_clear(&args);
	if (rc)
		lab_log(L, "teardown of %s exited %d (see %s)", L->mnt, rc, logpath);
	return rc;
}

static void local_where(struct lab *L, size_t i, struct lab_where *w)
{
	(void)i;
	lab_where_local(L, w);
}

static char *local_log(const struct lab *L, size_t i, const char *id, const char *step)
{
	char *name = xasprintf("%s.%s.log", id, step), *p = path_join(L->logs, name);

	(void)i;
	free(name);
	return p;
}

static int local_start(struct ccell *c)
{
	struct lab *L = c->L;
	char nthreads[16];

	L->step = "run";
	snprintf(nthreads, sizeof(nthreads), c->cell->threads ? "%u" : "auto", c->cell->threads);
	lab_log(L, "cell %u/%u %s: run %s, %s threads (log %s)", L->cur + 1, L->ncells,
		c->cell->id, L->cfg.wl.workload, nthreads, c->logs[0]);
	return 0;
}

/* The run wrote the cell's result itself: one place merged is that place's result. */
static int local_collect(struct ccell *c)
{
	int rc = c->status[0];

	if (rc != 0 && rc != FSLAB_EXIT_VERDICT) {
		c->cell->error = xasprintf("run exited %d (see %s)", rc, c->logs[0]);
		return -1;
	}
	c->verdict_fail = rc == FSLAB_EXIT_VERDICT;
	return 0;
}

/* --dry-run: a cell's steps here, as a user would type them. */
static void local_dry_run_cell(struct lab *L, const struct cell *c)
{
	struct strvec a = STRVEC_INIT;

	if (c->fs->prepared) {
		printf("  (no prep: volumes you prepared, not reformatted; the run deletes "
		       "and re-creates its databases and logs)\n");
	} else {
		lab_prep_args(L, c, &a);
		lab_print_args(&a);
		/* a disk lab with a saved disk query: the script each cell's prep runs */
		lab_dry_run_script(L, &a);
		strvec_clear(&a);
	}
	lab_run_args(L, c, &a);
	lab_print_args(&a);
	strvec_clear(&a);
	if (!c->fs->prepared) {
		lab_teardown_args(L, &a);
		lab_print_args(&a);
		strvec_clear(&a);
	}
}

const struct lab_reach lab_reach_local = {
	.dry_run_cell = local_dry_run_cell,
	.where = local_where,
	.log = local_log,
	.start = local_start,
	.collect = local_collect,
};
