// SPDX-License-Identifier: MIT
/*
 * cluster.c: `fslab lab` with [host NAME] sections (docs/HOSTS.md): how the one cell runner
 * (cell.c) reaches the hosts (struct lab_reach): every step on every host at once over
 * OpenSSH through the step runner's host targets (step.h), the clocks measured before each
 * run and `fslab run --start-at` on all (the same instant as each host's clock reads it),
 * each result fetched with its sha256 and merged exactly into the cell's cluster result.  A host lost mid-cell (its ssh ends: keepalives,
 * a killed fslab) fails that host's part of the cell; the others' results are kept and the
 * cluster result is partial; a host that cannot be reached any more stops the lab, and its
 * teardown waits for `fslab lab --resume`.  Linux only (fslab.exe does not drive hosts).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/hosts.h"
#include "lab/labP.h"
#include "merge/merge.h"
#include "result/result.h"
#include "lib/strbuf.h"
#include "lib/utctime.h"

/* ssh's exit status for its own failure (the connection, not the command) */
#define SSH_FAILED HOSTS_SSH_FAILED

/* The result files a host may send back: far above any result (a few MB). */
#define HOST_RESULT_MAX (1ULL << 30)

/* ---- the lab's hosts ---- */

static const struct lab_reach hosts_reach;

int lab_hosts_open(struct lab *L)
{
	const struct lab_hosts *cfg = &L->cfg.hosts;
	int ret;

	L->nhosts = cfg->n;
	L->hs = xcalloc(1, sizeof(*L->hs));
	if (L->dry_run) {
		/* nothing is contacted or created: the commands as they would be sent */
		L->hs->cfg = cfg;
		L->hs->self = L->target.fslab;
		L->hs->ctl_dir = xstrdup("/tmp/fslab-ssh.XXXXXX");
		L->hs->lab_id = hosts_lab_id(L->out);
		L->hs->st = xcalloc(cfg->n + 1, sizeof(*L->hs->st));
		ret = 0;
	} else {
		ret = hosts_session_init(L->hs, cfg, L->target.fslab, L->out);
	}
	L->htarget = xcalloc(cfg->n, sizeof(*L->htarget));
	for (size_t i = 0; i < cfg->n; i++)
		step_target_host(&L->htarget[i], L->hs, i);
	/* the cells run on every host, reached over ssh */
	L->place = L->htarget;
	L->nplaces = cfg->n;
	L->reach = &hosts_reach;
	return ret;
}

static void lab_hosts_free_paths(struct lab *L)
{
	for (size_t i = 0; L->hmnt && i < L->nhosts; i++)
		free(L->hmnt[i]);
	free(L->hmnt);
	L->hmnt = NULL;
}

static void hosts_close(struct lab *L)
{
	if (!L->hs)
		return;
	lab_hosts_free_paths(L);
	for (size_t i = 0; i < L->nhosts; i++)
		step_target_release(&L->htarget[i]);
	free(L->htarget);
	hosts_session_end(L->hs);
	free(L->hs);
	free(L->lost);
	L->hs = NULL;
	L->htarget = NULL;
	L->place = NULL;
	L->nplaces = 0;
	L->lost = NULL;
}

static void hosts_paths(struct lab *L)
{
	if (L->hmnt)
		return;
	L->hmnt = xcalloc(L->nhosts, sizeof(char *));
	for (size_t i = 0; i < L->nhosts; i++)
		L->hmnt[i] = hosts_remote_path(&L->cfg.hosts.v[i], L->hs->lab_id, "mnt");
}

/* Where host i's steps run: its system, mount root, owner and devices (its own [devices]
 * keys, else the [devices] section's). */
static void host_where(struct lab *L, size_t i, struct lab_where *w)
{
	const struct lab_host *h = &L->cfg.hosts.v[i];
	const struct lab_cfg *c = &L->cfg;
	char *owner = lab_owner(L);

	hosts_paths(L);
	memset(w, 0, sizeof(*w));
	w->sys = L->htarget[i].sys;
	w->mnt = L->hmnt[i];
	/* one lab, many hosts on one machine (ssh = local, or the test's namespaces): the host
	 * in the owner keeps their preps apart */
	w->owner = xasprintf("%s host %s", owner, h->name);
	free(owner);
	w->image_dir = lab_host_image_dir(h, c);
	w->db_dev = lab_host_db_dev(h, c);
	w->log_dev = lab_host_log_dev(h, c);
	w->db_image_size = lab_host_db_image_size(h, c);
	w->log_image_size = lab_host_log_image_size(h, c);
	w->db_disk = w->db_dev ? atoi(w->db_dev) : -1;
	w->log_disk = w->log_dev ? atoi(w->log_dev) : -1;
}

/* The result of a cell on host i: there (WORKDIR/<cell>.json: prep made WORKDIR) and here. */
static char *host_remote_result(const struct lab *L, size_t i, const struct cell *cell)
{
	char *rel = xasprintf("%s.json", cell->id);
	char *p = hosts_remote_path(&L->cfg.hosts.v[i], L->hs->lab_id, rel);

	free(rel);
	return p;
}

static char *host_local_result(const struct lab *L, size_t i, const struct cell *cell)
{
	char *name = xasprintf("%s.%s.json", cell->id, L->cfg.hosts.v[i].name);
	char *p = path_join(L->results, name);

	free(name);
	return p;
}

/* ---- the hosts' preflight ---- */

/* The lines of a step's log that say what failed ("fslab: error: ..."), one line. */
static char *log_errors(FILE *f, const char *fallback)
{
	struct strbuf sb = STRBUF_INIT;
	char line[1024];

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, "error: ");

		if (!e)
			continue;
		line[strcspn(line, "\r\n")] = 0;
		strbuf_addf(&sb, "%s%s", sb.len ? "; " : "", e + strlen("error: "));
	}
	if (!sb.len)
		strbuf_addstr(&sb, fallback);
	return strbuf_detach(&sb, NULL);
}

static int hosts_preflight_all(struct lab *L)
{
	size_t n = L->nhosts;
	struct strvec *args = xcalloc(n, sizeof(*args));
	char **logs = xcalloc(n, sizeof(char *));
	FILE **tmp = xcalloc(n, sizeof(FILE *));
	int *status = xcalloc(n, sizeof(int));
	unsigned int bad = 0;
	int ret;

	/* reachable in BatchMode, the same fslab build, arguments arriving as data, clocks */
	ret = hosts_preflight(L->hs, 8);
	if (ret)
		goto out;
	hosts_paths(L);
	/*
	 * A resumed lab first takes back what it left on its hosts (a lost host's volumes, a
	 * lab killed mid-cell): its own preps only (--owner), which the dry runs below would
	 * otherwise find in the way.  A new lab has none.
	 */
	if (L->resume)
		lab_teardown_places(L, "resume", NULL);
	/*
	 * Each host's own preflight: its prep of every filesystem as a dry run there (root,
	 * mkfs tools, kernel drivers, its devices or image space: what prep checks before it
	 * changes anything), all hosts at once, one filesystem after the other.  Nothing is
	 * created: the logs are temporary files.
	 */
	for (int f = -1; f < L->cfg.nfs && !lab_nsignals; f++) {
		static const struct lab_fs raw = { .name = (char *)"raw", .fs = (char *)"raw" };
		struct cell c = { .id = (char *)"preflight" };

		if (f < 0 && !L->cfg.raw_baseline)
			continue;
		c.fs = f < 0 ? &raw : &L->cfg.fs[f];
		for (size_t i = 0; i < n; i++) {
			struct lab_where w;

			host_where(L, i, &w);
			strvec_clear(&args[i]);
			lab_where_prep_args(L, &w, &c, &args[i]);
			strvec_push(&args[i], "--dry-run");
			lab_where_release(&w);
			tmp[i] = tmpfile();
			free(logs[i]);
			logs[i] = tmp[i] ? xasprintf("/proc/self/fd/%d", fileno(tmp[i])) : xstrdup("/dev/null");
		}
		lab_steps(L, L->place, n, "preflight", args, logs, 0, NULL, status);
		for (size_t i = 0; i < n; i++) {
			if (status[i]) {
				char *why = tmp[i] ? log_errors(tmp[i], "no message") : xstrdup("?");

				fslab_err("preflight: host %s: fslab prep --fs %s --dry-run exited %d: %s",
					  L->cfg.hosts.v[i].name, c.fs->fs, status[i], why);
				free(why);
				bad++;
			}
			if (tmp[i])
				fclose(tmp[i]);
			tmp[i] = NULL;
		}
	}
	lab_clear_line(L);
	if (bad) {
		fslab_err("preflight of the hosts found %u problem(s); nothing was changed on any "
			  "host", bad);
		ret = -FSLAB_EINPUT;
	}
out:
	for (size_t i = 0; i < n; i++) {
		strvec_clear(&args[i]);
		free(logs[i]);
	}
	free(args);
	free(logs);
	free(tmp);
	free(status);
	return ret;
}

/* ---- a cell on every host ---- */

/*
 * Why host i's run gave no result: its exit status, the connection lost (the host's kept
 * connection gone: keepalives found no answer), or a session that ended without one (its
 * fslab killed).  *lost: the host cannot be reached any more.
 */
static char *run_failure(struct lab *L, size_t i, int st, const char *log, double secs,
			 bool *lost)
{
	FILE *f = os_fopen(log, "r");
	char *errs = f ? log_errors(f, "") : xstrdup(""), *why;

	if (f)
		fclose(f);
	*lost = false;
	if (st < 0) {
		why = xasprintf("its run could not be started (%s)", strerror(-st));
	} else if (st == SSH_FAILED && !lab_host_local(&L->cfg.hosts.v[i]) &&
		   !hosts_connected(L->hs, i)) {
		*lost = true;
		why = xasprintf("lost after %.1f s of its run: the ssh connection ended (no answer "
				"to keepalives within %d s: host down or network cut)%s%s", secs,
				HOSTS_ALIVE_INTERVAL * (HOSTS_ALIVE_COUNT + 1), *errs ? ": " : "",
				errs);
	} else if (st == SSH_FAILED && !lab_host_local(&L->cfg.hosts.v[i])) {
		why = xasprintf("its run ended after %.1f s without an exit status (the fslab "
				"there was killed, or its ssh session failed)%s%s", secs,
				*errs ? ": " : "", errs);
	} else if (st >= 128 && st < SSH_FAILED) {
		why = xasprintf("its run was ended by signal %d after %.1f s%s%s", st - 128, secs,
				*errs ? ": " : "", errs);
	} else {
		why = xasprintf("its run exited %d after %.1f s%s%s (see %s)", st, secs,
				*errs ? ": " : "", errs, log);
	}
	free(errs);
	return why;
}

/* The seconds the hosts need from their run's start to the end of its initialisation, with
 * a margin: the longest seen so far, else an estimate (50 MB/s, conservative) */
static double start_ahead(const struct lab *L)
{
	double init = L->init_max > 0 ? L->init_max * 1.5 + 2
				       : L->cfg.wl.databases * (double)L->cfg.wl.db_size / 50e6 + 10;

	return MAX(init, 3.0);
}

/* A raw cell runs on the devices each host's prep attached: its prep.json, fetched.  0 or
 * -1 (cell->error). */
static int hosts_prepped(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;

	if (strcmp(cell->fs->fs, "raw"))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		char *rel = xasprintf("%s.%s.prep.json", cell->id, L->cfg.hosts.v[i].name);
		char *remote = path_join(L->hmnt[i], "prep.json");
		char hex[SHA256_HEX_LEN + 1];
		struct strbuf msg = STRBUF_INIT;
		int ret;

		c->prep_json[i] = path_join(L->logs, rel);
		free(rel);
		ret = hosts_fetch(L->hs, i, remote, c->prep_json[i], 16 << 20, hex, &msg);
		if (ret == -ENOTCONN)
			lab_cell_lost(c, i, "during prep");
		if (ret)
			lab_cell_error(c, i, msg.buf);
		strbuf_release(&msg);
		free(remote);
	}
	return cell->error ? -1 : 0;
}

/* The clocks again (drift since the last cell), then one start for all: starts[], and
 * where each run writes its result there: remote[].  0 or -1 (cell->error says why). */
static int hosts_start(struct ccell *c)
{
	struct lab *L = c->L;
	double lo = INFINITY, hi = -INFINITY;
	char when[40];
	int64_t t;

	for (size_t i = 0; i < c->n; i++) {
		struct host_state *st = &L->hs->st[i];

		free(st->problem);
		st->problem = NULL;
		if (hosts_clock(L->hs, i, 4)) {
			if (!hosts_connected(L->hs, i))
				lab_cell_lost(c, i, "before its run");
			lab_cell_error(c, i, st->problem ? st->problem : "no clock");
		}
	}
	if (c->cell->error)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		lo = MIN(lo, L->hs->st[i].offset_s);
		hi = MAX(hi, L->hs->st[i].offset_s);
	}
	if (hi - lo > L->cfg.hosts.clock_limit_s) {
		c->cell->error = xasprintf("the hosts' clocks are %.3f s apart, more than "
					   "clock_limit = %g s: synchronise them (chrony or NTP)",
					   hi - lo, L->cfg.hosts.clock_limit_s);
		return -1;
	}
	hosts_start_times(L->hs, (int64_t)(start_ahead(L) * 1e9), &t, c->starts);
	for (size_t i = 0; i < c->n; i++)
		c->remote[i] = host_remote_result(L, i, c->cell);
	L->step = "run";
	lab_log(L, "cell %u/%u %s: run %s, %u threads, on %zu hosts, starting together at "
		"%s (this machine's clock; in %.1f s), clocks within %.1f ms", L->cur + 1,
		L->ncells, c->cell->id, L->cfg.wl.workload, c->cell->threads, c->n,
		utc_format(when, sizeof(when), t), start_ahead(L), (hi - lo) * 1e3);
	return 0;
}

/* Host i's result fetched (sha256 checked) into local[i], or missing[i] says why not.  true
 * if it is there. */
static bool cc_fetch_result(struct ccell *c, size_t i)
{
	struct lab *L = c->L;
	const struct lab_host_live *hl = &L->hlive[i];
	double secs = (hl->end_ns && hl->start_ns ? hl->end_ns - hl->start_ns
						 : now_ns() - c->t_run) / 1e9;
	int ret;

	if (c->status[i] == 0 || c->status[i] == FSLAB_EXIT_VERDICT) {
		char hex[SHA256_HEX_LEN + 1];
		struct strbuf msg = STRBUF_INIT;

		c->verdict_fail |= c->status[i] == FSLAB_EXIT_VERDICT;
		ret = hosts_fetch(L->hs, i, c->remote[i], c->local[i], HOST_RESULT_MAX, hex, &msg);
		if (ret == -ENOTCONN) {
			/* its link went down meanwhile: lost, its volumes left for --resume */
			c->missing[i] = xasprintf("lost while its result was fetched: %s", msg.buf);
			lab_cell_lost(c, i, "while its result was fetched");
		} else if (ret) {
			c->missing[i] = xasprintf("its result could not be fetched: %s", msg.buf);
		}
		strbuf_release(&msg);
	} else {
		c->missing[i] = run_failure(L, i, c->status[i], c->logs[i], secs, &c->lost[i]);
		if (c->lost[i])
			lab_cell_lost(c, i, "during its run");
	}
	if (c->missing[i])
		lab_log(L, "cell %u/%u %s: host %s: %s", L->cur + 1, L->ncells, c->cell->id,
			L->cfg.hosts.v[i].name, c->missing[i]);
	return !c->missing[i];
}

/* Each host's result back; what failed is missing, with why; all merged exactly into the
 * cell's result.  0, or -1 with cell->error (none, or only a partial cluster result); -1 as
 * well after a stop request: a cluster cell then stops where it is. */
static int hosts_collect(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;
	struct merge_input *in = xcalloc(c->n, sizeof(*in));
	struct merge_opts mo = { .label = cell->label, .clock_limit_s = L->cfg.hosts.clock_limit_s };
	struct fslab_result r;
	unsigned int complete = 0;
	int ret;

	if (lab_nsignals) {
		free(in);
		return -1;
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct host_state *st = &L->hs->st[i];

		in[i] = (struct merge_input){ .name = L->cfg.hosts.v[i].name,
					      .offset_s = st->clock ? st->offset_s : NAN,
					      .rtt_s = st->clock ? st->rtt_s : NAN };
		if (cc_fetch_result(c, i)) {
			in[i].file = c->local[i];
			complete++;
		}
		in[i].missing = c->missing[i];
	}
	if (!complete) {
		cell->error = xasprintf("no host has a result (%s: %s)", in[0].name,
					c->missing[0] ? c->missing[0] : "?");
		free(in);
		return -1;
	}
	fslab_set_quiet(true);
	ret = merge_results(in, c->n, &mo, &r);
	fslab_set_quiet(false);
	if (!ret)
		ret = result_write(&r, cell->result);
	if (ret) {
		cell->error = xasprintf("the hosts' results could not be merged into %s (%s): "
					"fslab merge %s/%s.*.json says why", cell->result,
					ret == -FSLAB_EINPUT ? "they are not one cell" : strerror(-ret),
					L->results, cell->id);
	} else if (r.cluster.partial) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < c->n; i++)
			if (c->missing[i])
				strbuf_addf(&sb, "%s%s: %s", sb.len ? "; " : "", in[i].name,
					    c->missing[i]);
		cell->error = xasprintf("partial cluster result %s: %u of %zu hosts complete (%s)",
					cell->result, r.cluster.complete, c->n, sb.buf);
		strbuf_release(&sb);
	} else {
		lab_log(L, "cell %u/%u %s: merged %zu hosts into %s: loads started within %.1f ms",
			L->cur + 1, L->ncells, cell->id, c->n, cell->result,
			isfinite(r.cluster.start_spread_s) ? r.cluster.start_spread_s * 1e3 : NAN);
	}
	result_release(&r);
	free(in);
	return cell->error ? -1 : 0;
}

/* Lost hosts: their volumes stay until --resume reaches them; how to tear them down by hand
 * (L->lost). */
static void hosts_lost(struct ccell *c)
{
	struct lab *L = c->L;

	strbuf_addstr(&c->lostmsg, "; its volumes stay until fslab lab --resume reaches it, or "
		      "tear them down there with:");
	for (size_t i = 0; i < c->n; i++) {
		struct strvec a = STRVEC_INIT;
		struct lab_where w;

		if (!c->lost[i])
			continue;
		host_where(L, i, &w);
		strvec_push(&a, lab_host_fslab(&L->cfg.hosts.v[i]));
		lab_where_teardown_args(&w, &a);
		strbuf_addf(&c->lostmsg, " (on %s) ", L->cfg.hosts.v[i].name);
		strbuf_add_argv_sq(&c->lostmsg, a.v);
		strvec_clear(&a);
		lab_where_release(&w);
	}
	free(L->lost);
	L->lost = strbuf_detach(&c->lostmsg, NULL);
}

/* A cell begins: each host's result here from an earlier attempt removed. */
static void hosts_begin(struct ccell *c)
{
	for (size_t i = 0; i < c->n; i++) {
		c->local[i] = host_local_result(c->L, i, c->cell);
		os_unlink(c->local[i]);
	}
}

/* Host i's step ended with its kept connection gone: the host is lost. */
static bool hosts_gone(struct lab *L, size_t i, int status)
{
	return status == SSH_FAILED && !hosts_connected(L->hs, i);
}

static char *hosts_log(const struct lab *L, size_t i, const char *id, const char *step)
{
	char *name = xasprintf("%s.%s.%s.log", id, L->cfg.hosts.v[i].name, step);
	char *p = path_join(L->logs, name);

	free(name);
	return p;
}

/* ---- --dry-run ---- */

/* A command line as a user would type it in a POSIX shell. */
static void print_argv(const char *prefix, const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	for (size_t i = 0; i < v->nr; i++) {
		strbuf_addch(&sb, ' ');
		strbuf_add_sq(&sb, v->v[i]);
	}
	puts(sb.buf);
	strbuf_release(&sb);
}

/* One step on host i as it would be sent: the command string ssh hands the host's shell
 * (exactly), or for ssh = local the argv this machine runs. */
static void dry_step(struct lab *L, size_t i, struct strvec *args, bool stoppable)
{
	struct strvec argv = STRVEC_INIT;
	const char *why = NULL;
	char *prefix = xasprintf("  [%s]", L->cfg.hosts.v[i].name);

	if (step_argv(&L->htarget[i], args, stoppable, &argv, &why))
		printf("%s cannot be sent: %s\n", prefix, why);
	else if (lab_host_local(&L->cfg.hosts.v[i]))
		print_argv(prefix, &argv);
	else
		printf("%s %s\n", prefix, argv.v[argv.nr - 1]);
	free(prefix);
	strvec_clear(&argv);
}

static void hosts_dry_run_head(struct lab *L)
{
	struct strvec a = STRVEC_INIT;

	hosts_ssh_argv(&L->cfg.hosts, &L->cfg.hosts.v[0], L->hs->ctl_dir, "COMMAND", &a);
	strvec_pop(&a);
	strvec_pop(&a);
	strvec_pushl(&a, "DESTINATION", "COMMAND", NULL);
	print_argv("Each step on a host (over its kept connection):", &a);
	printf("  with DESTINATION its ssh = ... and the COMMAND shown for it below, as the host's "
	       "shell receives it (ssh = local: the command this machine runs)\n");
	strvec_clear(&a);
}

static void hosts_dry_run(struct lab *L, const struct cell *c)
{
	hosts_paths(L);
	for (size_t i = 0; i < L->nhosts; i++) {
		struct strvec a = STRVEC_INIT;
		struct lab_where w;
		char *remote = host_remote_result(L, i, c);

		host_where(L, i, &w);
		lab_where_prep_args(L, &w, c, &a);
		dry_step(L, i, &a, true);
		strvec_clear(&a);
		w.output = remote;
		w.start_at = "<the common start, on this host's clock>";
		lab_where_run_args(L, &w, c, &a);
		dry_step(L, i, &a, true);
		strvec_clear(&a);
		lab_where_teardown_args(&w, &a);
		dry_step(L, i, &a, false);
		strvec_clear(&a);
		lab_where_release(&w);
		free(remote);
	}
}

/* The hosts of a lab, as the cell runner reaches them. */
static const struct lab_reach hosts_reach = {
	.where = host_where,
	.log = hosts_log,
	.begin = hosts_begin,
	.gone = hosts_gone,
	.prepped = hosts_prepped,
	.start = hosts_start,
	.collect = hosts_collect,
	.lost = hosts_lost,
	.preflight = hosts_preflight_all,
	.dry_run_head = hosts_dry_run_head,
	.dry_run_cell = hosts_dry_run,
	.close = hosts_close,
};
