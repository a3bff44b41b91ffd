// SPDX-License-Identifier: MIT
/* run.c: `fslab run`, the driver: checks, initialisation, the timed load, result and summary
 * in that order (the steps live in cli.c, checks.c, measure.c, summary.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "fsprep/prep.h"
#include "run/run.h"
#include "run/runP.h"
#include "selftest/selftest.h"
#include "util.h"

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

static json_t *environment(struct run_state *s)
{
	json_t *env = host_environment(), *vols = json_array();
	json_t *prep = NULL;

	for (size_t i = 0; i < s->ndb_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.db_vols[i]));
	for (size_t i = 0; i < s->nlog_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.log_vols[i]));
	json_object_set_new(env, "engine", json_string(s->o.engine));
	json_object_set_new(env, "volumes", vols);
	for (size_t i = 0; i < s->ndb_vols && !prep; i++)
		prep = run_find_prep(s->rc.db_vols[i].dir);
	json_object_set_new(env, "prep", prep ? prep : json_null());
	json_object_set_new(env, "direct_io", json_boolean(s->o.direct));
	json_object_set_new(env, "caches_dropped", json_boolean(s->caches_dropped));
	if (s->selftest) {
		char *note = selftest_note(s->selftest, s->p.selftest);

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

static void fill_config(struct run_state *s)
{
	const struct run_opts *o = &s->o;
	struct run_config *c = &s->res.config;

	c->workload = xstrdup(o->workload);
	c->engine = xstrdup(o->engine);
	c->threads = o->threads;
	c->databases = strcmp(o->workload, "jetstress") ? 0 : o->databases;
	c->iodepth = o->iodepth;
	c->db_size = o->db_size;
	c->bs = strcmp(o->workload, "jetstress") ? o->bs : 32 * KiB;
	c->cache_size = o->cache_size;
	c->duration_s = o->duration_ns / 1e9;
	c->warmup_s = o->warmup_ns / 1e9;
	c->seed = o->seed;
	c->compressibility = o->compressibility;
	c->bdm_mbps = strcmp(o->workload, "jetstress") ? 0 : o->bdm_mbps;
	c->db_dirs = xcalloc(o->ndb_dirs + 1, sizeof(char *));
	for (size_t i = 0; i < o->ndb_dirs; i++)
		c->db_dirs[c->ndb_dirs++] = xstrdup(s->rc.db_vols[i].dir);
	c->log_dirs = xcalloc(o->nlog_dirs + 1, sizeof(char *));
	for (size_t i = 0; i < o->nlog_dirs; i++)
		c->log_dirs[c->nlog_dirs++] = xstrdup(s->rc.log_vols[i].dir);
	if (strcmp(o->workload, "jetstress"))
		return; /* no verdict */
	c->sample_interval_s = s->vc.interval_s;
	c->thresholds = xstrdup(s->vc.th->name);
	c->max_latency_errors = s->vc.max_latency_errors;
	c->strict_io_tail = s->vc.strict_io_tail;
	c->target_iops = s->vc.target_iops;
	if (s->vc.target_iops > 0)
		c->target_iops_origin = xstrdup(s->vc.mailboxes ? "mailboxes" : "target-iops");
	c->mailboxes = s->vc.mailboxes;
	c->iops_per_mailbox = s->vc.mailboxes ? s->vc.iops_per_mailbox : 0;
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
	free(s->label_buf);
	free(s->output_buf);
	json_decref(s->selftest);
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
	ret = selftest_attach(s->p.selftest, v, n, &s->selftest);
	free(v);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_state *s = xcalloc(1, sizeof(*s));
	struct run_ctx *rc = &s->rc;
	struct fslab_result *r = &s->res;
	struct collect_extra x;
	char ts[32];
	int ret, status = FSLAB_EXIT_FAIL;

	result_init(r);
	engine_init(&rc->eng);
	ret = run_parse_args(s, argc, argv);
	if (ret) {
		status = ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
		goto out;
	}
	fslab_set_quiet(s->quiet);
	/* I/Os above the threshold set's maximum are counted per class (information; the
	 * database classes without a limit of their own use the database read maximum) */
	for (int c = 0; c < CLS_NR; c++)
		rc->eng.breach_ns[c] = (uint64_t)(s->vc.th->max_ms[c == CLS_LOG_WRITE ? LS_LOG_WRITE
									: LS_DB_READ] *
					       NSEC_PER_MSEC);
	ret = run_check_dirs(s);
	if (!ret)
		ret = run_probe_volumes(s);
	if (!ret && s->p.selftest)
		ret = run_attach_selftest(s);
	/* before the workload looks at its files: another run may be creating them */
	if (!ret)
		ret = run_lock_dirs(s);
	if (ret) {
		status = FSLAB_EXIT_USAGE;
		goto out;
	}
	if (!s->o.label)
		s->o.label = s->label_buf = strcmp(s->o.workload, "jetstress")
			? xasprintf("%s-%s", rc->db_vols[0].fsname, s->o.workload)
			: xstrdup(rc->db_vols[0].fsname);
	if (!s->o.output)
		s->o.output = s->output_buf = default_output(s->o.label);
	run_pick_engine(s);
	rc->o = &s->o;
	rc->res = r;
	rc->stop = &run_stop_flag;
	ret = s->wl->check(rc);
	if (ret) {
		status = ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
		goto out_wl;
	}
	run_probe_odirect(s);

	/* from here on, an interruption still produces a result marked aborted */
	run_stop_flag = 0;
	run_stop_signal = 0;
	os_stop_handler_set(on_signal);

	r->label = xstrdup(s->o.label);
	r->fslab_version = xasprintf("%s (%s)", fslab_version, fslab_git);
	r->started_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	s->dev_before = xcalloc(MAX_DEVS, sizeof(struct devstat));
	s->dev_after = xcalloc(MAX_DEVS, sizeof(struct devstat));

	ret = s->wl->prepare(rc);
	if (!ret && !run_stop_flag) {
		if (s->drop_caches)
			drop_caches(s);
		/* initialised and cold: the load starts when every host's does */
		if (s->start_at_ns)
			run_wait_start(s);
	}
	if (!ret && !run_stop_flag) {
		run_load(s);
		engine_set_phase(&rc->eng, PH_STOP);
		if (rc->eng.t_measure)
			r->duration_s = (now_ns() - rc->eng.t_measure) / 1e9;
		run_snapshot_devices(s, s->dev_after);
		s->wl->stop(rc);
	}
	run_progress_end(s);
	for (size_t i = 0; i < s->ndb_vols; i++)
		if (volume_statfs(&rc->db_vols[i]))
			rc->db_vols[i].fs_free = 0;
	r->ended_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	run_start_fields(s);
	fill_config(s);
	if (rc->eng.t_measure)
		run_samplers_finish(s);
	r->environment = environment(s);
	engine_collect(&rc->eng, -1, r->duration_s, r->classes, &x);
	r->transactional_iops = r->classes[CLS_DB_READ].iops + r->classes[CLS_DB_WRITE].iops;
	r->transactions = x.transactions;
	r->transactions_per_s = r->duration_s > 0 ? x.transactions / r->duration_s : 0;
	host_sampler_finish(&s->host, &r->host);
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
		fslab_err("the %s workload could not evaluate the run", s->o.workload);
		r->verdict.pass = false;
		if (!r->aborted) {
			r->aborted = true;
			r->abort_reason = xstrdup("the workload could not evaluate the run");
		}
	}
	ret = result_write(r, s->o.output);
	if (ret) {
		fslab_err("cannot write the result to %s: %s", s->o.output, strerror(-ret));
		status = FSLAB_EXIT_FAIL;
	} else {
		if (!s->quiet)
			run_print_summary(s, stdout);
		printf("\nResult: %s\n", s->o.output);
		/* written while a gone reader is still a stop request, not a kill at exit */
		fflush(stdout);
		status = r->aborted ? FSLAB_EXIT_FAIL
				    : (r->verdict.present && !r->verdict.pass ? FSLAB_EXIT_VERDICT
									       : FSLAB_EXIT_OK);
	}
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

json_t *run_find_prep(const char *dir)
{
	return prep_json_for_dir(dir);
}
