// SPDX-License-Identifier: MIT
/* child.c: supervision of the lab's child processes (prep, run, teardown, compare: log,
 * progress pipe, signal forwarding) and what the lab prints meanwhile (log, live line). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab/labP.h"
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

static void live_line(struct lab *L)
{
	const struct cell *c = &L->cells[L->order[L->cur]];
	double elapsed = (now_ns() - L->t0) / 1e9, cell_left, lab_left;
	unsigned int left = 0;
	char e[32], ce[32], le[32];

	if (!L->tty || L->stdout_dead)
		return;
	for (unsigned int i = L->cur + 1; i < L->ncells; i++)
		left += L->cells[L->order[i]].status != CELL_DONE;
	cell_left = L->run_total > 0 ? L->run_total - L->run_elapsed + L->overhead_est / 2
				     : cell_estimate(L);
	lab_left = cell_left + left * cell_estimate(L);
	fmt_hms(e, sizeof(e), elapsed);
	fmt_hms(ce, sizeof(ce), cell_left);
	fmt_hms(le, sizeof(le), lab_left);
	printf("\r[cell %u/%u %s] %-9s lab %s, cell ETA %s, lab ETA %s", L->cur + 1, L->ncells,
	       c->id, L->step, e, ce, le);
	if (L->iops > 0)
		printf(", %.0f IOPS", L->iops);
	fputs("\033[K", stdout);
	check_stdout(L);
}

/* ---- child processes ---- */

/* Read progress lines ({"phase", "elapsed_s", "total_s", "iops"}) from fslab run. */
static void read_progress(struct lab *L, int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	char *line, *save = NULL;

	if (n <= 0)
		return;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(line, 0, NULL);

		if (!o)
			continue;
		L->run_elapsed = json_number_value(json_object_get(o, "elapsed_s"));
		L->run_total = json_number_value(json_object_get(o, "total_s"));
		L->iops = json_number_value(json_object_get(o, "iops"));
		json_decref(o);
	}
}

int lab_child(struct lab *L, const struct strvec *args, const char *logpath, bool progress,
	      bool interruptible)
{
	struct strvec argv = STRVEC_INIT;
	int pfd[2] = { -1, -1 }, status, forwarded = 0;
	pid_t pid, parent;

	/* a stop asked for before the step began: the step is not started at all */
	if (interruptible && lab_nsignals)
		return 128 + SIGINT;

	/* built before the fork: the child only execs (no allocation after fork) */
	strvec_push(&argv, "fslab");
	strvec_pushv(&argv, args->v);
	if (progress && pipe2(pfd, O_CLOEXEC)) {
		strvec_clear(&argv);
		return -errno;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		int e = errno;

		if (progress) {
			close(pfd[0]);
			close(pfd[1]);
		}
		strvec_clear(&argv);
		return -e;
	}
	if (pid == 0) {
		int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		sigset_t none;

		/* a lab killed by SIGKILL takes its child with it: nothing runs on unsupervised
		 * (a run would go on writing on volumes the next teardown removes) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(128 + SIGKILL);
		setpgid(0, 0);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (progress)
			dup2(pfd[1], 3); /* dup2 clears close-on-exec */
		execv(L->self, (char *const *)argv.v);
		_exit(127);
	}
	strvec_clear(&argv);
	setpgid(pid, pid);
	if (progress)
		close(pfd[1]);
	L->run_elapsed = L->run_total = L->iops = 0;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		pid_t w;

		if (interruptible && lab_nsignals > forwarded) {
			kill(pid, forwarded ? SIGKILL : SIGINT);
			forwarded = lab_nsignals;
		}
		if (progress && pfd[0] >= 0) {
			if (poll(&p, 1, 1000) > 0) {
				if (p.revents & POLLIN)
					read_progress(L, pfd[0]);
				else if (p.revents & (POLLHUP | POLLERR)) {
					close(pfd[0]);
					pfd[0] = -1;
				}
			}
		} else {
			struct timespec ts = { 0, 200 * 1000000L };

			nanosleep(&ts, NULL);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		live_line(L);
	}
	if (pfd[0] >= 0) {
		read_progress(L, pfd[0]);
		close(pfd[0]);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int lab_teardown(struct lab *L, const char *logpath)
{
	/* only what this lab's own preps made (issue 16 item 3): not a user's prep on OUT/mnt */
	char *owner = lab_owner(L);
	struct strvec args = STRVEC_INIT;
	int rc;

	strvec_pushl(&args, "teardown", "--mount-root", L->mnt, "--owner", owner, NULL);
	rc = lab_child(L, &args, logpath, false, false);
	strvec_clear(&args);
	free(owner);
	if (rc)
		lab_log(L, "teardown of %s exited %d (see %s)", L->mnt, rc, logpath);
	return rc;
}
