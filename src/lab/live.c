// SPDX-License-Identifier: MIT
/* live.c: what the lab prints while it runs: lab.log and stdout lines, the live line (the
 * cell, its step, times, IOPS and each host's state). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"
#include "lab/step.h"
#include "lib/strbuf.h"

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

/* A line in lab.log (timestamped), then on stdout (timestamped: lab_log()) or on stderr
 * ("fslab: ...": lab_note()).  Lines of any length: a path or a resume command is never
 * cut. */
static void say(struct lab *L, bool note, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT;
	char ts[32];

	strbuf_vaddf(&msg, fmt, ap);
	iso8601_now(ts, sizeof(ts));
	if (L->log) {
		fprintf(L->log, "%s %s\n", ts, msg.buf);
		fflush(L->log);
	}
	if (note) {
		lab_clear_line(L);
		/* a dead stderr (EIO, EPIPE) fails this write and nothing else */
		fprintf(stderr, "fslab: %s\n", msg.buf);
	} else if (!L->stdout_dead) {
		lab_clear_line(L);
		printf("%s %s\n", ts + 11, msg.buf);
		check_stdout(L);
	}
	strbuf_release(&msg);
}

void lab_log(struct lab *L, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(L, false, fmt, ap);
	va_end(ap);
}

void lab_note(struct lab *L, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(L, true, fmt, ap);
	va_end(ap);
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
