// SPDX-License-Identifier: MIT
/*
 * steps.c: the lab's steps at once on each of its places (labP.h lab_steps()): one loop for
 * this machine alone and for every host of a cluster, through the step runner (step.h): each
 * step's log, its progress lines into the live line, the lab's stop requests passed on (the
 * first closes every stdin, the second kills what may be killed).
 */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

struct place_ctx {
	struct lab *L;
	size_t i;
};

/* A progress line of fslab run ({"fslab_progress": 1, "phase", "elapsed_s", ...}) on this
 * machine, the lab's only place: the lab's own figures. */
static void on_progress(void *ctx, const char *line)
{
	struct lab *L = ((struct place_ctx *)ctx)->L;
	json_t *o = json_loads(line, 0, NULL);

	if (!o)
		return;
	L->run_elapsed = json_number_value(json_object_get(o, "elapsed_s"));
	L->run_total = json_number_value(json_object_get(o, "total_s"));
	L->iops = json_number_value(json_object_get(o, "iops"));
	json_decref(o);
}

/* The lab's figures from its hosts': the longest host's time, the cluster's IOPS. */
static void hosts_figures(struct lab *L)
{
	L->run_elapsed = L->run_total = L->iops = 0;
	for (size_t k = 0; k < L->nhosts; k++) {
		const struct lab_host_live *x = &L->hlive[k];

		if (!strcmp(x->phase, "measure"))
			L->iops += x->iops;
		if (x->total > L->run_total) {
			L->run_total = x->total;
			L->run_elapsed = x->elapsed;
		}
	}
}

/* A progress line of host i's fslab run: its part of the live line. */
static void on_host_progress(void *ctx, const char *line)
{
	struct place_ctx *pc = ctx;
	struct lab_host_live *hl = &pc->L->hlive[pc->i];
	json_t *o = json_loads(line, 0, NULL);
	const char *phase;

	if (!o)
		return;
	phase = json_string_value(json_object_get(o, "phase"));
	if (phase) {
		/* the end of its initialisation: the first line (waiting, or warm-up when it
		 * started late) */
		if (!hl->init_s && hl->start_ns)
			hl->init_s = (now_ns() - hl->start_ns) / 1e9 -
				     (strcmp(phase, "waiting") ? 1.0 : 0.0);
		snprintf(hl->phase, sizeof(hl->phase), "%s", phase);
	}
	hl->elapsed = json_number_value(json_object_get(o, "elapsed_s"));
	hl->total = json_number_value(json_object_get(o, "total_s"));
	hl->iops = json_number_value(json_object_get(o, "iops"));
	json_decref(o);
	hosts_figures(pc->L);
}

/* Start WHAT on place i (its log appended to LOGPATH): the step, or NULL with *status set
 * (not started: a stop asked for before it began, its log, or the step itself). */
static struct step *place_start(struct lab *L, const struct step_target *t, size_t i,
				const char *what, const struct strvec *args, const char *logpath,
				unsigned int how, struct place_ctx *ctx, FILE **log, int *status)
{
	struct step_io io = { .ctx = ctx };
	unsigned int flags = ((how & LAB_STEP_STOPPABLE) ? STEP_STOPPABLE : 0) |
			     (lab_system_killable(t->sys, args) ? STEP_KILLABLE : 0);
	struct lab_host_live *hl = &L->hlive[i];
	struct step *s;
	int ret;

	if (how & LAB_STEP_PROGRESS)
		io.progress = L->nhosts ? on_host_progress : on_progress;
	*ctx = (struct place_ctx){ L, i };
	memset(hl, 0, sizeof(*hl));
	snprintf(hl->phase, sizeof(hl->phase), "%s", what);
	hl->start_ns = now_ns();
	if ((how & LAB_STEP_STOPPABLE) && lab_nsignals) {
		*status = 128 + SIGINT; /* asked to stop before it began: not started */
		return NULL;
	}
	*log = os_fopen(logpath, "a");
	if (!*log) {
		*status = errno ? -errno : -EIO;
		return NULL;
	}
	io.log = *log;
	ret = step_start(t, args, flags, &io, &s);
	if (ret) {
		fprintf(*log, "fslab lab: cannot start fslab %s on %s: %s\n", args->v[0], t->name,
			strerror(-ret));
		*status = ret;
		return NULL;
	}
	return s;
}

/* Place i's step ended with STATUS; RUNNING steps are left. */
static void place_ended(struct lab *L, size_t i, const char *what, int status, size_t running,
			unsigned int how)
{
	struct lab_host_live *hl = &L->hlive[i];
	bool ok = status == 0 || status == FSLAB_EXIT_VERDICT;

	hl->end_ns = now_ns();
	snprintf(hl->phase, sizeof(hl->phase), "%s", ok ? "done" : "FAILED");
	if (!ok && running && !lab_nsignals && (how & LAB_STEP_PROGRESS))
		lab_log(L, "host %s: %s ended with status %d after %.1f s (%zu host(s) still "
			"running)", L->cfg.hosts.v[i].name, what, status,
			(hl->end_ns - hl->start_ns) / 1e9, running);
}

/* The lab's stop requests, passed on to every running step: the first closes its stdin (it
 * stops cleanly, as on Ctrl-C), a later one (SIGINT, SIGTERM: never SIGHUP or SIGPIPE)
 * kills what may be killed. */
static void pass_stop(struct step **s, size_t n, sig_atomic_t *handled)
{
	if (lab_nsignals <= *handled)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!s[i])
			continue;
		if (!*handled)
			step_stop(s[i]);
		else
			step_kill(s[i]);
	}
	*handled = lab_nsignals;
}

/* Collect the steps that ended; the number still running. */
static size_t reap(struct lab *L, struct step **s, size_t n, const char *what, unsigned int how,
		   size_t running, int *status)
{
	for (size_t i = 0; i < n; i++) {
		int st = 0, r;

		if (!s[i])
			continue;
		/* the output of each as it comes; a short wait on the first still running */
		r = step_poll(s[i], 0, &st);
		if (r == 0)
			continue;
		status[i] = r < 0 ? r : st;
		step_free(s[i]);
		s[i] = NULL;
		running--;
		place_ended(L, i, what, status[i], running, how);
	}
	return running;
}

void lab_steps(struct lab *L, const struct step_target *t, size_t n, const char *what,
	       const struct strvec *args, char *const *logs, unsigned int how, const bool *skip,
	       int *status)
{
	struct step **s = xcalloc(n, sizeof(*s));
	FILE **log = xcalloc(n, sizeof(*log));
	struct place_ctx *ctx = xcalloc(n, sizeof(*ctx));
	sig_atomic_t handled = 0;
	uint64_t last_line = 0;
	size_t running = 0;

	L->run_elapsed = L->run_total = L->iops = 0;
	for (size_t i = 0; i < n; i++) {
		status[i] = 0;
		if (skip && skip[i])
			continue;
		s[i] = place_start(L, &t[i], i, what, &args[i], logs[i], how, &ctx[i], &log[i],
				   &status[i]);
		running += !!s[i];
	}
	while (running) {
		if (how & LAB_STEP_STOPPABLE)
			pass_stop(s, n, &handled);
		running = reap(L, s, n, what, how, running, status);
		if (!running)
			break;
		/* no busy loop: up to 100 ms on the first still running, for its output or its
		 * end (collected in the next round; the others' output waits in their pipes) */
		for (size_t i = 0; i < n; i++)
			if (s[i]) {
				int st;

				step_poll(s[i], 100, &st);
				break;
			}
		if (now_ns() - last_line >= NSEC_PER_SEC) {
			lab_live_line(L);
			last_line = now_ns();
		}
	}
	for (size_t i = 0; i < n; i++)
		if (log[i])
			fclose(log[i]);
	free(s);
	free(log);
	free(ctx);
}

int lab_child(struct lab *L, const struct strvec *args, const char *logpath, bool progress,
	      bool interruptible)
{
	char *logs[] = { (char *)logpath };
	int status;

	lab_steps(L, &L->target, 1, args->v[0], args, logs,
		  (progress ? LAB_STEP_PROGRESS : 0) | (interruptible ? LAB_STEP_STOPPABLE : 0),
		  NULL, &status);
	return status;
}
