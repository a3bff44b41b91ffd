// SPDX-License-Identifier: MIT
/*
 * lab.c: `fslab lab CONFIG.ini`: one config runs the whole A/B experiment.  For every cell
 * (filesystem x thread count x repeat): prep, run (initialise, drop caches, timed load),
 * teardown; then compare everything into one report.  Cells run in rounds (round r = repeat
 * r of every label and thread count), each round shuffled by default (labplan.h), so that
 * the drift of a shared machine spreads over every filesystem instead of landing on one.
 * prep, run, teardown and compare run as child processes of this binary (their own signal
 * handling and cleanup stay theirs), in their own process group so that the lab decides what
 * a Ctrl-C means.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "compare/compare.h"
#include "lab/labP.h"
#include "lib/strbuf.h"

volatile sig_atomic_t lab_nsignals, lab_signal;

/*
 * A stop request (os_stop_handler_set: SIGINT, SIGTERM, SIGHUP, SIGPIPE; Ctrl-C, Ctrl-Break
 * and console close on Windows) stops the lab like Ctrl-C: the cell stops cleanly, the state
 * is resumable.
 */
static void on_stop(int why)
{
	if (!lab_signal)
		lab_signal = why;
	/* a closed terminal or a gone reader says so more than once: it never escalates */
	if ((why == OS_STOP_HUP || why == OS_STOP_PIPE) && lab_nsignals)
		return;
	lab_nsignals++;
}

/*
 * Temporary files of atomic writes (NAME.tmp.PID) that a lab or run killed by SIGKILL left in
 * results/: never a result (results appear only by rename), removed at the next start.  Only
 * this lab writes there (it holds the output directory's lock, its children are gone).
 */
static void remove_stale_tmp(struct lab *L)
{
	struct os_dir *d;
	const char *name;

	if (os_opendir(L->results, &d))
		return;
	while ((name = os_readdir(d))) {
		char *p;

		if (!strstr(name, ".json.tmp."))
			continue;
		p = path_join(L->results, name);
		if (!os_unlink(p))
			lab_log(L, "removed %s, left by an interrupted write", p);
		free(p);
	}
	os_closedir(d);
}

static int compare_all(struct lab *L)
{
	static const char *const files[] = { "report.md", "report.html" };
	struct {
		char *path;
		struct os_id id;
		bool had;
	} before[ARRAY_SIZE(files)];
	struct strvec a = STRVEC_INIT;
	char *clog = xasprintf("%s/compare.log", L->logs);
	/* test hook (t_lab_many): compare writes elsewhere than the report the lab announces */
	const char *test_out = getenv("FSLAB_TEST_LAB_COMPARE_OUTPUT");
	unsigned int n = 0;
	int rc;

	strvec_push(&a, "compare");
	/* config order, whatever the run order: compare's default baseline is the first label */
	for (unsigned int i = 0; i < L->ncells; i++)
		if (L->cells[i].status == CELL_DONE) {
			strvec_push(&a, L->cells[i].result);
			n++;
		}
	if (!n) {
		lab_log(L, "no cell finished: no report");
		strvec_clear(&a);
		free(clog);
		return 1;
	}
	strvec_pushf(&a, "--output=%s", test_out && *test_out ? test_out : L->report);
	strvec_push(&a, "--force");
	strvec_pushf(&a, "--lab-plan=%s", L->plan_path);
	if (L->cfg.title)
		strvec_pushf(&a, "--title=%s", L->cfg.title);
	if (L->cfg.equivalence > 0)
		strvec_pushf(&a, "--equivalence=%g", L->cfg.equivalence);
	else if (L->cfg.equivalence < 0)
		strvec_push(&a, "--equivalence=none");
	{
		char *base = lab_compare_baseline(L);

		if (base)
			strvec_pushf(&a, "--baseline=%s", base);
		free(base);
	}
	L->step = "compare";
	lab_log(L, "compare: %u result(s) into %s", n, L->report);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		before[i].path = path_join(L->report, files[i]);
		before[i].had = !os_path_id(before[i].path, &before[i].id);
	}
	rc = lab_child(L, &a, clog, false, false);
	strvec_clear(&a);
	if (rc && rc != FSLAB_EXIT_VERDICT)
		lab_log(L, "compare exited %d (see %s)", rc, clog);
	/*
	 * The report the lab is about to announce must be one this compare wrote: each file
	 * exists and is a new file (written atomically: a rename, so a new inode), not a
	 * leftover of an earlier compare.  A lab never announces a report path, nor exits 0,
	 * without the report it names.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(files) && (rc == 0 || rc == FSLAB_EXIT_VERDICT); i++) {
		struct os_id now;

		if (os_path_id(before[i].path, &now) ||
		    (before[i].had && now.dev == before[i].id.dev && now.ino == before[i].id.ino)) {
			lab_log(L, "compare exited %d but did not write %s: no report; see %s", rc,
				before[i].path, clog);
			fslab_err("compare did not write %s (see %s); the results are kept in %s: "
				  "compare them with fslab compare, or report this as a bug",
				  before[i].path, clog, L->results);
			rc = FSLAB_EXIT_FAIL;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		free(before[i].path);
	free(clog);
	return rc;
}

/*
 * The lab stopped on a signal: lab-state.json says so (and how to resume), lab.log and stderr
 * say how to continue.  Ctrl-C, kill, a closed terminal (SIGHUP) and a gone reader of stdout
 * (SIGPIPE) all end here; the next start says it too (lab_state_describe()).
 */
static void lab_interrupted(struct lab *L)
{
	char ts[32];
	int sig = lab_signal;

	/* SIGINT, SIGTERM, SIGHUP, SIGPIPE; Ctrl-C, Ctrl-Break or console close on Windows */
	snprintf(L->stop_signal, sizeof(L->stop_signal), "%s", os_stop_name(sig ? sig : OS_STOP_INT));
	snprintf(L->stopped_at, sizeof(L->stopped_at), "%s", iso8601_now(ts, sizeof(ts)));
	L->status = "interrupted";
	lab_save_state(L);
	lab_clear_line(L);
	lab_note(L, "lab interrupted by %s: nothing it mounted or attached is left, finished cells "
		 "are kept in %s; continue with: %s%s", L->stop_signal, L->results, L->resume_cmd,
		 sig == OS_STOP_HUP ? " (a lab that outlives its terminal: start it with nohup, or "
		 "in tmux or screen)" : "");
}

/*
 * A host was lost (cluster.c): every cell needs every host, so the lab stops as if
 * interrupted, resumable; the lost host's volumes are torn down when --resume reaches it.
 */
static void lab_host_lost(struct lab *L)
{
	char ts[32];

	snprintf(L->stop_signal, sizeof(L->stop_signal), "a lost host");
	snprintf(L->stopped_at, sizeof(L->stopped_at), "%s", iso8601_now(ts, sizeof(ts)));
	L->status = "interrupted";
	lab_save_state(L);
	lab_clear_line(L);
	lab_note(L, "lab stopped: host %s; every cell needs every host. The other hosts' volumes "
		 "are removed, finished cells are kept in %s. When the host is back, continue "
		 "with: %s", L->lost, L->results, L->resume_cmd);
}

static char *default_out(const char *config)
{
	const char *base = strrchr(config, '/'), *bs = strrchr(config, '\\');

	if (bs && (!base || bs > base)) /* configs\demo.ini on Windows */
		base = bs;
	char *name = xstrdup(base ? base + 1 : config), *dot = strrchr(name, '.'), *out;

	if (dot)
		*dot = 0;
	out = xasprintf("lab-%s", name);
	free(name);
	return out;
}

static void lab_free(struct lab *L)
{
	for (unsigned int i = 0; i < L->ncells; i++) {
		free(L->cells[i].id);
		free(L->cells[i].label);
		free(L->cells[i].aa_of);
		free(L->cells[i].rel_result);
		free(L->cells[i].result);
		free(L->cells[i].error);
	}
	free(L->cells);
	free(L->order);
	free(L->aa_fs.name);
	free(L->plan_path);
	free(L->lab_id);
	free(L->stop_reason);
	free(L->config_text);
	free(L->out);
	free(L->mnt);
	free(L->results);
	free(L->logs);
	free(L->report);
	free(L->state_path);
	free(L->log_path);
	free(L->resume_cmd);
	free(L->prev);
	if (L->log)
		fclose(L->log);
	os_unlock(L->lock_fd);
	if (L->reach && L->reach->close)
		L->reach->close(L);
	step_target_release(&L->target);
	free(L->hlive);
	lab_cfg_release(&L->cfg);
}

static void dry_run(struct lab *L)
{
	printf("Lab %s: %u cell(s), results in %s\n", L->cfg.path, L->ncells, L->out);
	printf("Order %s, %u round(s)%s of %u cell(s)", lab_order_name(L->order_kind),
	       L->cfg.repeats, L->cfg.adaptive ? " at most" : "", L->nslots);
	if (L->order_kind == LAB_ORDER_SHUFFLED)
		printf(", seed %llu%s", (unsigned long long)L->seed,
		       !strcmp(L->seed_source, "clock")
		       ? " (from the clock: the real run draws its own unless [lab] order_seed is set)"
		       : "");
	printf("\n");
	lab_adaptive_dry_run(L);
	if (L->reach->dry_run_head)
		L->reach->dry_run_head(L);
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];
		char where[48];

		printf("cell %u/%u %s (%s, label %s)%s:\n", i + 1, L->ncells, c->id,
		       lab_cell_where(L, c, where, sizeof(where)), c->label,
		       c->status == CELL_DONE ? " [done, kept]" : "");
		L->reach->dry_run_cell(L, c);
	}
	if (L->nhosts)
		printf("(every host's step at once, each over its own ssh connection, which the "
		       "preflight opens; no host was contacted: 'fslab hosts %s check' does that)\n",
		       L->cfg.path);
	else
		printf("(steps that can be stopped also get --stop-on-stdin-eof: the lab stops them "
		       "by closing their standard input)\n");
	printf("then: " LAB_FSLAB " compare <results> --output %s --lab-plan %s\n", L->report,
	       L->plan_path);
}

/* The config, the output's paths, the binary to run and the cells.  0, or the exit status
 * (an error said). */
static int lab_setup(struct lab *L, const char *config, const char *out_opt)
{
	struct strbuf sb = STRBUF_INIT;

	if (lab_cfg_load(&L->cfg, config))
		return FSLAB_EXIT_USAGE;
	/* the controller of a lab's hosts is fslab on a SYS_CONTROLLER system (ssh, its kept
	 * connections) */
	if (L->cfg.hosts.n && !(lab_system_here()->flags & SYS_CONTROLLER)) {
		input_error("%s: [host %s]: fslab.exe does not drive hosts; run the lab with fslab "
			    "on a Linux machine (its hosts may be Windows ones)", L->cfg.path,
			    L->cfg.hosts.v[0].name);
		return FSLAB_EXIT_USAGE;
	}
	if (read_file(L->cfg.path, &L->config_text, NULL))
		return FSLAB_EXIT_USAGE;
	if (out_opt || L->cfg.output)
		L->out = xstrdup(out_opt ? out_opt : L->cfg.output);
	else
		L->out = default_out(L->cfg.path);
	if (step_target_local(&L->target)) {
		fslab_err("cannot find the fslab binary (/proc/self/exe, GetModuleFileNameW)");
		return FSLAB_EXIT_FAIL;
	}
	/* a local lab is a one-host cluster: its one place is this machine */
	L->place = &L->target;
	L->nplaces = 1;
	L->reach = &lab_reach_local;
#ifndef _WIN32
	if (L->cfg.hosts.n && lab_hosts_open(L))
		return FSLAB_EXIT_FAIL;
#endif
	L->hlive = xcalloc(L->nplaces, sizeof(*L->hlive));
	L->mnt = lab_mount_root(L);
	L->results = path_join(L->out, "results");
	L->logs = path_join(L->out, "logs");
	L->report = path_join(L->out, "report");
	L->state_path = path_join(L->out, "lab-state.json");
	L->log_path = path_join(L->out, "lab.log");
	L->plan_path = path_join(L->out, "lab-plan.json");
	L->tty = os_stdout_tty();
	strbuf_addstr(&sb, LAB_FSLAB " lab ");
	lab_quote_arg(&sb, L->cfg.path);
	strbuf_addstr(&sb, " --output ");
	lab_quote_arg(&sb, L->out);
	strbuf_addstr(&sb, " --resume");
	L->resume_cmd = strbuf_detach(&sb, NULL);
	/* a cell's time beyond its load before any was measured (prep, initialisation at
	 * ~300 MB/s twice over, checksum pass, teardown) */
	L->overhead_est = 15 + 2.0 * L->cfg.wl.databases * L->cfg.wl.db_size / 300e6;
	lab_build_cells(L);
	return lab_check_names(L) ? FSLAB_EXIT_USAGE : 0;
}

/* A new lab's plan, or the state of the lab in the output directory when resuming it
 * (refused without --resume, or with nothing to resume).  0, or -1 (an error said). */
static int lab_open_state(struct lab *L)
{
	bool running;
	char *rec, *how;
	const char *cmd;

	/* a directory the lab did not make is not the lab's to fill (nor a dry run's) */
	if (lab_check_output(L))
		return -1;
	if (os_stat(L->state_path, NULL, NULL) != 0) {
		if (L->resume) {
			input_error("%s: nothing to resume (no lab-state.json); run without "
				    "--resume to start the lab", L->out);
			return -1;
		}
		/* a new lab; a resumed one runs the order its state recorded, under its id (a dry
		 * run shows a placeholder: the real run draws its own) */
		if (!L->dry_run)
			L->lab_id = lab_new_id();
		if (L->cfg.order_seed_set)
			lab_set_plan(L, L->cfg.order, L->cfg.order_seed, "config");
		else
			lab_set_plan(L, L->cfg.order, lab_plan_time_seed(), "clock");
		return 0;
	}
	how = lab_state_describe(L, &running, &rec);
	/* the command its lab recorded: the lab of another config names that config */
	cmd = rec ? rec : L->resume_cmd;
	if (!L->resume) {
		if (running)
			input_error("%s already holds a lab (%s) that %s: wait for it, or stop it "
				    "(Ctrl-C) and continue it with: %s; or choose another --output",
				    L->out, L->state_path, how, cmd);
		else
			input_error("%s already holds a lab (%s) that %s: continue it with: %s; or "
				    "choose another --output", L->out, L->state_path,
				    how ? how : "cannot be read", cmd);
		free(how);
		free(rec);
		return -1;
	}
	free(rec);
	if (lab_load_state(L)) {
		free(how);
		return -1;
	}
	L->prev = how;
	return 0;
}

/* The output directory made, locked and marked as the lab's, with its subdirectories and
 * the prepared volumes' directories.  0, or the exit status (an error said). */
static int lab_take_output(struct lab *L)
{
	long pid;
	int ret = mkdir_p(L->out, 0755);

	if (ret) {
		fslab_err("%s: cannot create the lab directory: %s", L->out, strerror(-ret));
		return FSLAB_EXIT_FAIL;
	}
	L->lock_fd = os_lock_path(L->out, &pid);
	if (L->lock_fd == -EWOULDBLOCK) {
		char who[32] = "pid unknown";

		if (pid)
			snprintf(who, sizeof(who), "pid %ld", pid);
		input_error("%s is in use by another fslab lab (%s); wait for it, or stop it "
			    "(Ctrl-C) and resume", L->out, who);
		return FSLAB_EXIT_USAGE;
	}
	if (L->lock_fd < 0) {
		fslab_err("%s: cannot lock it: %s", L->out, strerror(-L->lock_fd));
		return FSLAB_EXIT_FAIL;
	}
	/* the marker first: a lab stopped at any later point finds its directory its own */
	if (lab_mark_output(L))
		return FSLAB_EXIT_FAIL;
	if ((ret = mkdir_p(L->results, 0755)) || (ret = mkdir_p(L->logs, 0755)) ||
	    (!L->nhosts && (ret = mkdir_p(L->mnt, 0755)))) {
		fslab_err("%s: cannot create the lab directories: %s", L->out, strerror(-ret));
		return FSLAB_EXIT_FAIL;
	}
	/* directories on volumes the user prepared that do not exist yet: made empty, so they
	 * hold nothing but what fslab makes */
	if (lab_make_prepared_dirs(L))
		return FSLAB_EXIT_FAIL;
	return 0;
}

/* lab.log's opening lines: the adaptive plan, the cells, what is resumed, the order. */
static void lab_log_start(struct lab *L)
{
	if (L->cfg.adaptive) {
		char b[32], r[32], what[96];

		if (L->cfg.stop == LAB_STOP_DECIDED)
			snprintf(what, sizeof(what), "every claim decided against ±%g %%",
				 L->cfg.equivalence > 0 ? L->cfg.equivalence : COMPARE_EQUIVALENCE_DEFAULT);
		else
			snprintf(what, sizeof(what), "precision %g %% for every claim", L->cfg.precision);
		lab_log(L, "adaptive: %s, rounds %u to %u%s%s; a round "
			"of %u cell(s) about %s", what, L->cfg.min_rounds,
			L->cfg.max_rounds, L->cfg.budget_ns ? ", budget " : "",
			L->cfg.budget_ns ? fmt_hms(b, sizeof(b), L->cfg.budget_ns / 1e9) : "",
			L->nslots, fmt_hms(r, sizeof(r), lab_cell_wall(L) * L->nslots));
		if (L->cfg.budget_ns && lab_cell_wall(L) * L->nslots * L->cfg.min_rounds >
		    L->cfg.budget_ns / 1e9)
			lab_log(L, "adaptive: WARNING: min_rounds = %u rounds will take longer than "
				"the budget (they run anyway); raise the budget or shorten the cells",
				L->cfg.min_rounds);
	}
	lab_log(L, "lab %s: %u cell(s) = (%d filesystem(s)%s%s) x %d thread count(s) x %u "
		"repeat(s), output %s%s", L->cfg.path, L->ncells, L->cfg.nfs,
		L->cfg.raw_baseline ? " + raw baseline" : "",
		L->cfg.aa_check ? " + A/A copy of the baseline" : "", L->cfg.nthreads,
		L->cfg.repeats, L->out, L->resume ? ", resuming in the recorded order" : "");
	if (L->prev)
		lab_log(L, "resuming: the previous lab in %s %s", L->out, L->prev);
	lab_log_plan(L);
}

/* The cells in the lab's order, until all ran, a stop request, a lost host or the adaptive
 * stop.  The number of cells that failed. */
static unsigned int lab_run_cells(struct lab *L)
{
	unsigned int failed = 0;

	for (L->cur = 0; L->cur < L->ncells && !lab_nsignals; L->cur++) {
		struct cell *cell = &L->cells[L->order[L->cur]];
		int r;

		/* an adaptive stop ends the rounds; the qualification runs follow whatever
		 * ended them */
		if (cell->status != CELL_DONE && !L->stop_reason)
			lab_adaptive_look(L, false);
		if (L->stop_reason && !cell->qualify)
			continue;
		if (cell->status == CELL_DONE) {
			lab_log(L, "cell %u/%u %s: already done, kept", L->cur + 1, L->ncells, cell->id);
			continue;
		}
		r = lab_cell_run(L, cell);
		failed += cell->status == CELL_FAILED;
		if (r)
			break; /* interrupted, or a host lost: no cell can run without it */
	}
	return failed;
}

/* After the cells: the adaptive lab's last look, the report, the closing lines.  The exit
 * status. */
static int lab_finish(struct lab *L, unsigned int failed)
{
	int ret, status = FSLAB_EXIT_FAIL;

	if (L->cfg.adaptive) {
		/* every round ran: the last look says whether the precision was reached */
		if (!L->stop_reason)
			lab_adaptive_look(L, true);
		lab_save_state(L);
		lab_write_plan(L); /* the report says why the lab stopped */
	}
	ret = compare_all(L);
	lab_clear_line(L);
	if (ret == 0 || ret == FSLAB_EXIT_VERDICT) {
		char *md = path_join(L->report, "report.md"), *html = path_join(L->report, "report.html");
		unsigned int done = 0;

		for (unsigned int i = 0; i < L->ncells; i++)
			done += L->cells[i].status == CELL_DONE;
		lab_log(L, "lab finished in %.0f s: %u cell(s) done, %u failed%s%s",
			(now_ns() - L->t0) / 1e9, done, failed, L->stop_reason ? "; " : "",
			L->stop_reason ? L->stop_reason : "");
		if (!L->stdout_dead) {
			printf("\nReport: %s\n        %s\n", html, md);
			fflush(stdout);
		}
		free(md);
		free(html);
		status = failed ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
	}
	L->status = "finished";
	lab_save_state(L);
	return status;
}

int cmd_lab(int argc, char **argv)
{
	struct lab *L = xcalloc(1, sizeof(*L));
	const char *config = NULL, *out_opt = NULL;
	unsigned int failed;
	int status;

	L->lock_fd = -1;
	L->worst_mde = NAN;
	status = lab_args(L, argc, argv, &config, &out_opt);
	if (status >= 0) {
		free(L);
		return status;
	}
	status = lab_setup(L, config, out_opt);
	if (status)
		goto out;
	status = FSLAB_EXIT_USAGE;
	if (lab_open_state(L))
		goto out;
	if (L->dry_run) {
		dry_run(L);
		status = lab_preflight(L) ? FSLAB_EXIT_USAGE : FSLAB_EXIT_OK;
		goto out;
	}
	if (lab_preflight(L))
		goto out;
	/* the places' own preflight (every host reached, the same build, clocks, each host's
	 * prep as a dry run): before anything is made, here or there */
	if (L->reach->preflight && L->reach->preflight(L))
		goto out;
	status = lab_take_output(L);
	if (status)
		goto out;
	status = FSLAB_EXIT_FAIL;
	/* from here on a stop request (Ctrl-C, kill, a closed terminal, a gone reader of stdout)
	 * stops the current cell cleanly and leaves a resumable state; `nohup fslab lab`: a
	 * SIGHUP (and SIGPIPE) ignored from the start stays ignored (os_stop_handler_set) */
	os_stop_handler_set(on_stop);
	L->log = os_fopen(L->log_path, "a");
	remove_stale_tmp(L);
	L->t0 = now_ns();
	lab_log_start(L);
	if (lab_write_plan(L))
		goto out_sig;
	/* a crashed earlier lab may have left its volumes prepared (only the lab's own: labels
	 * on volumes the user prepared have nothing to tear down) */
	/* (a lab with hosts did it on them in its preflight: lab_hosts_preflight()) */
	if (!L->nhosts && lab_cfg_has_prepped(&L->cfg))
		lab_teardown(L, L->log_path);
	lab_save_state(L);
	failed = lab_run_cells(L);
	if (lab_nsignals)
		lab_interrupted(L);
	else if (L->lost)
		lab_host_lost(L);
	else
		status = lab_finish(L, failed);
out_sig:
	os_stop_handler_clear();
out:
	lab_free(L);
	free(L);
	return status;
}
