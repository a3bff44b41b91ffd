// SPDX-License-Identifier: MIT
/* run.c: `fslab run`, the driver: checks, initialisation, the timed load, result and summary
 * in that order (the steps live in cli.c, checks.c, measure.c, summary.c). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "cmds.h"
#include "io/ioengine.h"
#ifndef _WIN32
#include "io/uring.h"
#endif
#include "lib/msg.h"
#include "os/os.h"
#include "run/provenance.h"
#include "run/run.h"
#include "run/runP.h"
#include "selftest/selftest.h"
#include "lib/units.h"

atomic_int run_stop_flag;
volatile sig_atomic_t run_stop_signal;

/*
 * why: OS_STOP_INT / TERM / HUP / PIPE (SIGINT, SIGTERM, a closed terminal or session, a gone
 * reader of the output; Ctrl-C / Ctrl-Break on Windows): each stops the run with a result
 * marked aborted.  The first one names the reason (a Ctrl-C that also ended `| tee` is
 * followed by SIGPIPEs).
 */
static void on_signal(int sig)
{
	int expected = 0;

	if (!run_stop_signal)
		run_stop_signal = sig;
	/* the first reason wins: a signal after a failure leaves RUN_STOP_FAILED */
	atomic_compare_exchange_strong(&run_stop_flag, &expected, RUN_STOP_SIGNAL);
}

#ifndef _WIN32
/*
 * The kinds of io_uring ring the run set up (src/io/uring.c): the set-up flags the kernel
 * took, how their threads waited ("sleep": in io_uring_enter(); "yield": sched_yield() while
 * an io-wq worker completes, then io_uring_enter()), for which files, and how many rings.
 */
static json_t *uring_environment(void)
{
	struct uring_used u[8];
	size_t n = uring_used(u, ARRAY_SIZE(u));
	json_t *a = json_array();

	for (size_t i = 0; i < n && i < ARRAY_SIZE(u); i++) {
		struct strbuf sb = STRBUF_INIT;

		uring_flags_name(u[i].flags, &sb);
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:i}", "setup_flags", sb.buf,
						   "wait", u[i].yield ? "yield" : "sleep", "files",
						   u[i].hints & IO_HINT_NO_NOWAIT ? "no_nowait" : "any",
						   "rings", (int)u[i].rings));
		strbuf_release(&sb);
	}
	return a;
}
#endif

static json_t *environment(struct run_state *s)
{
	json_t *env = sampler_environment(), *vols = json_array();
	json_t *prep = NULL;

	for (size_t i = 0; i < s->ndb_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.db_vols[i]));
	for (size_t i = 0; i < s->nlog_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.log_vols[i]));
	json_object_set_new(env, "engine", json_string(s->res.config.engine));
#ifndef _WIN32
	if (!strcmp(s->res.config.engine, "io_uring"))
		json_object_set_new(env, "io_uring", uring_environment());
#endif
	json_object_set_new(env, "volumes", vols);
	for (size_t i = 0; i < s->ndb_vols && !prep; i++)
		prep = volume_prep_json(&s->rc.db_vols[i]);
	/* the words the report shows for a volume fslab did not format (docs/DESIGN.md) */
	if (s->res.config.fresh && !prep)
		result_add_note(&s->res, "%s", RUN_NOTE_USER_VOLUMES);
	json_object_set_new(env, "prep", prep ? prep : json_null());
	json_object_set_new(env, "direct_io", json_boolean(s->rc.direct));
	json_object_set_new(env, "caches_dropped", json_boolean(s->caches_dropped));
	if (s->selftest) {
		char *note = selftest_note(s->selftest, s->res.config.selftest);

		json_object_set(env, "selftest", s->selftest);
		if (note)
			result_add_note(&s->res, "%s", note);
		free(note);
	}
	if (json_is_string(json_object_get(env, "wine")))
		result_add_note(&s->res, "ran under Wine %s: Wine opens files buffered (it ignores "
				"FILE_FLAG_NO_BUFFERING and FILE_FLAG_WRITE_THROUGH) and reports every "
				"filesystem as NTFS, so no figure here says anything about Windows "
				"performance", json_string_value(json_object_get(env, "wine")));
	return env;
}

static void drop_caches(struct run_state *s)
{
	s->caches_dropped = os_drop_caches();
}

/* The config records the directories as the volumes resolved them (absolute, real paths). */
static void record_dirs(struct run_state *s)
{
	struct run_config *c = &s->res.config;

	for (size_t i = 0; i < c->ndb_dirs && i < s->ndb_vols; i++) {
		free(c->db_dirs[i]);
		c->db_dirs[i] = xstrdup(s->rc.db_vols[i].dir);
	}
	for (size_t i = 0; i < c->nlog_dirs && i < s->nlog_vols; i++) {
		free(c->log_dirs[i]);
		c->log_dirs[i] = xstrdup(s->rc.log_vols[i].dir);
	}
}

static char *default_output(const char *label)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	return xasprintf("fslab-%s-%s.json", label, ts);
}

static void free_state(struct run_state *s)
{
	run_params_release(&s->p);
	for (size_t i = 0; i < s->ndb_vols; i++)
		volume_release(&s->rc.db_vols[i]);
	for (size_t i = 0; i < s->nlog_vols; i++)
		volume_release(&s->rc.log_vols[i]);
	free(s->rc.db_vols);
	free(s->rc.log_vols);
	free(s->dev_before);
	free(s->dev_after);
	json_decref(s->selftest);
	wl_files_release(&s->rc);
	run_samplers_free(&s->smp);
	engine_release(&s->rc.eng);
	result_release(&s->res);
}

/* --selftest FILE: checked against this run's volumes now, before anything is created */
static int run_attach_selftest(struct run_state *s)
{
	const struct volume **v = xcalloc(s->ndb_vols + s->nlog_vols, sizeof(*v));
	size_t n = 0;
	int ret;

	for (size_t i = 0; i < s->ndb_vols; i++)
		v[n++] = &s->rc.db_vols[i];
	for (size_t i = 0; i < s->nlog_vols; i++)
		v[n++] = &s->rc.log_vols[i];
	ret = selftest_attach(s->res.config.selftest, v, n, &s->selftest);
	free(v);
	return ret;
}

/*
 * Everything before the run creates anything: the directories, their volumes, the selftest
 * record, the locks, the label and output, the back end, the workload's own checks.  0, or
 * the exit status to end with.
 */
static int run_setup(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;
	struct run_config *c = &s->res.config;
	int ret;

	/* I/Os above the threshold set's maximum are counted per class (information; the
	 * database classes without a limit of their own use the database read maximum) */
	for (int k = 0; k < CLS_NR; k++)
		rc->eng.breach_ns[k] = (uint64_t)(s->th->max_ms[k == CLS_LOG_WRITE ? LS_LOG_WRITE
									: LS_DB_READ] *
					       NSEC_PER_MSEC);
	ret = run_check_dirs(s);
	if (!ret)
		ret = run_probe_volumes(s);
	if (!ret && c->selftest)
		ret = run_attach_selftest(s);
	/* before the workload looks at its files: another run may be creating them */
	if (!ret)
		ret = run_lock_dirs(s);
	/* --fresh: what else the directories hold, before anything is deleted */
	if (!ret)
		ret = run_fresh_check(s);
	if (ret)
		return FSLAB_EXIT_USAGE;
	/* the default workload's runs are labelled by their filesystem alone */
	if (!c->label)
		c->label = strcmp(c->workload, run_options[RO_WORKLOAD].def)
			? xasprintf("%s-%s", rc->db_vols[0].fsname, c->workload)
			: xstrdup(rc->db_vols[0].fsname);
	if (!c->output)
		c->output = default_output(c->label);
	run_pick_engine(s);
	rc->o = c;
	rc->res = &s->res;
	rc->stop = &run_stop_flag;
	return 0;
}

/* The workload's preparation (databases) and its measured load.  0 or -errno. */
static int run_measure(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;
	int ret = s->wl->prepare(rc);
	uint64_t end;

	/* --precondition's first stage: the files written over before anything is measured */
	if (!ret && !run_stop_flag)
		ret = run_precondition_files(s);
	if (ret || run_stop_flag)
		return ret;
	if (s->drop_caches)
		drop_caches(s);
	/* initialised and cold: the load starts when every host's does */
	if (s->start_at_ns) {
		run_wait_start(s);
		if (run_stop_flag)
			return 0;
	}
	run_load(s);
	engine_set_phase(&rc->eng, PH_STOP);
	/* a finite load's measurement ends when it did */
	end = __atomic_load_n(&rc->done_ns, __ATOMIC_ACQUIRE);
	if (rc->eng.t_measure)
		s->res.duration_s = ((end ? end : now_ns()) - rc->eng.t_measure) / 1e9;
	run_snapshot_devices(s, s->dev_after);
	s->wl->stop(rc);
	return 0;
}

/* The result from what was measured: environment, classes, devices, how it ended, the
 * workload's verdict.  @ret is what the preparation returned. */
static void run_gather(struct run_state *s, int ret)
{
	struct run_ctx *rc = &s->rc;
	struct fslab_result *r = &s->res;
	struct collect_extra x;
	char ts[32];

	for (size_t i = 0; i < s->ndb_vols; i++)
		if (volume_statfs(&rc->db_vols[i]))
			rc->db_vols[i].fs_free = 0;
	r->ended_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	run_start_fields(s);
	record_dirs(s);
	if (rc->eng.t_measure)
		run_samplers_finish(s);
	run_steady_finish(s);
	r->environment = environment(s);
	engine_collect(&rc->eng, -1, r->duration_s, r->classes, &x);
	/* a load judged by throughput has no transactional IOPS (n/a, not its reads/s) */
	r->transactional_iops = s->wl->flags & (WL_THROUGHPUT | WL_REPLAY) ? NAN
		: r->classes[CLS_DB_READ].iops + r->classes[CLS_DB_WRITE].iops;
	r->transactions = x.transactions;
	r->transactions_per_s = r->duration_s > 0 ? x.transactions / r->duration_s : 0;
	sampler_finish(&s->host, &r->host);
	if (rc->eng.t_measure)
		run_device_results(s, &x);
	if (ret || run_stop_flag || !rc->eng.t_measure) {
		r->aborted = true;
		r->abort_reason = run_stop_flag == RUN_STOP_SIGNAL
			? xasprintf("interrupted by %s", os_stop_name(run_stop_signal))
			: xstrdup(ret ? "failed during initialisation"
				      : rc->fail_reason ? rc->fail_reason : "an I/O thread failed");
	}
	/* a load thread that failed ends the run with a verdict naming it, even when it failed
	 * before the measurement started */
	if (!ret && (rc->eng.t_measure || run_stop_flag == RUN_STOP_FAILED) && s->wl->finish(rc)) {
		/* no verdict could be formed: the run cannot count as complete */
		fslab_err("the %s workload could not evaluate the run", r->config.workload);
		r->verdict.pass = false;
		if (!r->aborted) {
			r->aborted = true;
			r->abort_reason = xstrdup("the workload could not evaluate the run");
		}
	}
	run_lab_fill(&r->config, r);
}

/* The result written atomically and summed up; the exit status. */
static int run_write(struct run_state *s)
{
	const struct fslab_result *r = &s->res;
	const struct run_config *c = &r->config;
	int ret = result_write(r, c->output);

	if (ret == -FSLAB_EINPUT) /* named by result_write: --output is no longer a file */
		return FSLAB_EXIT_USAGE;
	if (ret) {
		fslab_err("cannot write the result to %s: %s", c->output, strerror(-ret));
		return FSLAB_EXIT_FAIL;
	}
	if (!c->quiet)
		run_print_summary(s, stdout);
	printf("\nResult: %s\n", c->output);
	/* written while a gone reader is still a stop request, not a kill at exit */
	fflush(stdout);
	return r->aborted ? FSLAB_EXIT_FAIL
			  : (r->verdict.present && !r->verdict.pass ? FSLAB_EXIT_VERDICT
								    : FSLAB_EXIT_OK);
}

int cmd_run(int argc, char **argv)
{
	struct run_state *s = xcalloc(1, sizeof(*s));
	struct run_ctx *rc = &s->rc;
	struct fslab_result *r = &s->res;
	char ts[32];
	int ret, status = FSLAB_EXIT_FAIL;

	result_init(r);
	engine_init(&rc->eng);
	ret = run_parse_args(s, argc, argv);
	if (ret) {
		status = ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
		goto out;
	}
	fslab_set_quiet(r->config.quiet);
	status = run_setup(s);
	if (status)
		goto out;
	ret = s->wl->check(rc);
	if (ret) {
		status = ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
		goto out_wl;
	}
	/* the workload checked the space (a database it found occupies its own); now delete */
	if (run_fresh_clear(s)) {
		status = FSLAB_EXIT_FAIL;
		goto out_wl;
	}
	run_probe_odirect(s);

	/* from here on, an interruption still produces a result marked aborted */
	run_stop_flag = 0;
	run_stop_signal = 0;
	os_stop_handler_set(on_signal);
	/* a lab (also over ssh, also on Windows) stops its step by closing its stdin */
	if (r->config.stop_on_stdin_eof && os_stop_on_stdin_eof())
		fslab_warn("cannot watch standard input (--stop-on-stdin-eof): stop the run with "
			   "Ctrl-C instead");
	r->label = xstrdup(r->config.label);
	r->fslab_version = xasprintf("%s (%s)", fslab_version, fslab_git);
	r->started_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	s->dev_before = xcalloc(MAX_DEVS, sizeof(struct devstat));
	s->dev_after = xcalloc(MAX_DEVS, sizeof(struct devstat));
	ret = run_measure(s);
	run_progress_end(s);
	run_gather(s, ret);
	status = run_write(s);
	os_stop_handler_clear();
out_wl:
	s->wl->cleanup(rc);
	free(rc->fail_reason);
out:
	run_unlock_dirs(s);
	free_state(s);
	free(s);
	return status;
}
