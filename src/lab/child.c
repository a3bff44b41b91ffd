// SPDX-License-Identifier: MIT
/* child.c: the lab's child steps (prep, run, teardown, compare) through the step runner
 * (step.h: log, progress lines, stop and kill) and what the lab prints meanwhile (log, live
 * line). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"
#include "lab/step.h"
#include "strbuf.h"

/* ---- log and live line ---- */

/*
 * After writing to stdout: a terminal that hung up (EIO) or a pipe without a reader (EPIPE,
 * SIGPIPE handled) will not take anything any more; the lab stops printing there.  Nothing
 * else stops: the cell's cleanup, lab.log and lab-state.json go on.
 */
static void check_stdout(struct lab *L)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	if (errno == EPIPE || errno == EIO)
		L->stdout_dead = true;
	clearerr(stdout);
}

void lab_clear_line(struct lab *L)
{
	if (L->tty && !L->stdout_dead) {
		fputs("\r\033[K", stdout);
		check_stdout(L);
	}
}

static void log_line(struct lab *L, const char *ts, const char *msg)
{
	if (L->log) {
		fprintf(L->log, "%s %s\n", ts, msg);
		fflush(L->log);
	}
}

/* lines of any length: a path or a resume command is never cut */
void lab_log(struct lab *L, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	char ts[32];
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	iso8601_now(ts, sizeof(ts));
	log_line(L, ts, msg.buf);
	if (!L->stdout_dead) {
		lab_clear_line(L);
		printf("%s %s\n", ts + 11, msg.buf);
		check_stdout(L);
	}
	strbuf_release(&msg);
}

void lab_note(struct lab *L, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	char ts[32];
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	iso8601_now(ts, sizeof(ts));
	log_line(L, ts, msg.buf);
	lab_clear_line(L);
	/* a dead stderr (EIO, EPIPE) fails this write and nothing else */
	fprintf(stderr, "fslab: %s\n", msg.buf);
	strbuf_release(&msg);
}

static double cell_estimate(const struct lab *L)
{
	return (L->cfg.wl.warmup_s + L->cfg.wl.duration_s) + L->overhead_est;
}

/*
 * Each host's state, compactly: "h1 950, h2 wait, h3 FAILED" (IOPS while it measures) for
 * up to four hosts; beyond, the count in each state and the slowest measuring host.
 */
static void hosts_live(const struct lab *L, struct strbuf *sb)
{
	size_t slow = L->nhosts, measuring = 0, failed = 0;

	if (!L->nhosts || !L->hlive)
		return;
	strbuf_addstr(sb, " |");
	for (size_t i = 0; i < L->nhosts; i++) {
		const struct lab_host_live *h = &L->hlive[i];
		bool m = !strcmp(h->phase, "measure");

		if (m && (slow == L->nhosts || h->iops < L->hlive[slow].iops))
			slow = i;
		measuring += m;
		failed += !strcmp(h->phase, "FAILED");
		if (L->nhosts > 4)
			continue;
		if (m)
			strbuf_addf(sb, "%s %s %.0f", i ? "," : "", L->cfg.hosts.v[i].name, h->iops);
		else
			strbuf_addf(sb, "%s %s %.4s", i ? "," : "", L->cfg.hosts.v[i].name,
				    !strcmp(h->phase, "waiting") ? "wait" : h->phase);
	}
	if (L->nhosts <= 4)
		return;
	strbuf_addf(sb, " %zu hosts, %zu measuring", L->nhosts, measuring);
	if (slow < L->nhosts)
		strbuf_addf(sb, ", slowest %s %.0f", L->cfg.hosts.v[slow].name,
			    L->hlive[slow].iops);
	if (failed)
		strbuf_addf(sb, ", %zu FAILED", failed);
}

void lab_live_line(struct lab *L)
{
	const struct cell *c;
	double elapsed = (now_ns() - L->t0) / 1e9, cell_left, lab_left;
	unsigned int left = 0;
	char e[32], ce[32], le[32];

	/* before the lab started (the hosts' preflight) there is nothing to show */
	if (!L->tty || L->stdout_dead || !L->t0 || !L->step)
		return;
	fmt_hms(e, sizeof(e), elapsed);
	if (L->cur >= L->ncells) {
		/* after the last cell: the compare */
		printf("\r[%s] lab %s\033[K", L->step, e);
		check_stdout(L);
		return;
	}
	c = &L->cells[L->order[L->cur]];
	for (unsigned int i = L->cur + 1; i < L->ncells; i++)
		left += L->cells[L->order[i]].status != CELL_DONE;
	cell_left = L->run_total > 0 ? L->run_total - L->run_elapsed + L->overhead_est / 2
				     : cell_estimate(L);
	lab_left = cell_left + left * cell_estimate(L);
	fmt_hms(ce, sizeof(ce), cell_left);
	fmt_hms(le, sizeof(le), lab_left);
	printf("\r[cell %u/%u %s] %-9s lab %s, cell ETA %s, lab ETA %s", L->cur + 1, L->ncells,
	       c->id, L->step, e, ce, le);
	if (L->iops > 0)
		printf(", %.0f IOPS", L->iops);
	{
		struct strbuf sb = STRBUF_INIT;

		hosts_live(L, &sb);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
	}
	fputs("\033[K", stdout);
	check_stdout(L);
}

/* ---- child processes: the step runner (step.h) ---- */

/* A progress line of fslab run ({"fslab_progress": 1, "phase", "elapsed_s", ...}). */
static void on_progress(void *ctx, const char *line)
{
	struct lab *L = ctx;
	json_t *o = json_loads(line, 0, NULL);

	if (!o)
		return;
	L->run_elapsed = json_number_value(json_object_get(o, "elapsed_s"));
	L->run_total = json_number_value(json_object_get(o, "total_s"));
	L->iops = json_number_value(json_object_get(o, "iops"));
	json_decref(o);
}

int lab_child(struct lab *L, const struct strvec *args, const char *logpath, bool progress,
	      bool interruptible)
{
	struct step_io io = { .progress = progress ? on_progress : NULL, .ctx = L };
	unsigned int flags = (interruptible ? STEP_STOPPABLE : 0) |
			     (lab_system_killable(L->target.sys, args) ? STEP_KILLABLE : 0);
	struct step *s;
	int status = 0, ret;
	sig_atomic_t handled = 0;

	/* a stop asked for before the step began: the step is not started at all */
	if (interruptible && lab_nsignals)
		return 128 + SIGINT;
	io.log = os_fopen(logpath, "a");
	if (!io.log)
		return errno ? -errno : -EIO;
	ret = step_start(&L->target, args, flags, &io, &s);
	if (ret) {
		fprintf(io.log, "fslab lab: cannot start fslab %s on %s: %s\n", args->v[0],
			L->target.name, strerror(-ret));
		fclose(io.log);
		return ret;
	}
	L->run_elapsed = L->run_total = L->iops = 0;
	for (;;) {
		/* the first stop request closes the step's stdin (it stops cleanly, as on
		 * Ctrl-C); a second one (SIGINT, SIGTERM: never SIGHUP or SIGPIPE) kills it */
		if (interruptible && lab_nsignals > handled) {
			if (!handled)
				step_stop(s);
			else
				step_kill(s);
			handled = lab_nsignals;
		}
		ret = step_poll(s, progress ? 1000 : 200, &status);
		if (ret)
			break;
		lab_live_line(L);
	}
	step_free(s);
	fclose(io.log);
	return ret < 0 ? ret : status;
}

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

/* A cell's prep (none on volumes the user prepared: said in the log).  0, or -1 with
 * cell->error set. */
int lab_prep_cell(struct lab *L, struct cell *cell, const char *plog)
{
	struct strvec a = STRVEC_INIT;
	char where[48];
	int rc;

	lab_cell_where(L, cell, where, sizeof(where));
	if (cell->fs->prepared) {
		lab_log(L, "cell %u/%u %s: no prep: volumes you prepared (%s), not reformatted; the "
			"run deletes and re-creates its databases and logs (%s, label %s)", L->cur + 1,
			L->ncells, cell->id, cell->fs->db_dirs.v[0], where, cell->label);
		return 0;
	}
	L->step = "prep";
	lab_log(L, "cell %u/%u %s: prep %s (%s, label %s, %s)", L->cur + 1, L->ncells, cell->id,
		cell->fs->fs, where, cell->label, lab_devices_words(L));
	lab_prep_args(L, cell, &a);
	rc = lab_child(L, &a, plog, false, true);
	strvec_clear(&a);
	if (!rc)
		return 0;
	cell->error = lab_prep_failure(L, rc, plog);
	return -1;
}
