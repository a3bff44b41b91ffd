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

/* ---- log and live line ---- */

void lab_clear_line(struct lab *L)
{
	if (L->tty)
		fputs("\r\033[K", stdout);
}

void lab_log(struct lab *L, const char *fmt, ...)
{
	char ts[32], msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	iso8601_now(ts, sizeof(ts));
	if (L->log) {
		fprintf(L->log, "%s %s\n", ts, msg);
		fflush(L->log);
	}
	lab_clear_line(L);
	printf("%s %s\n", ts + 11, msg);
	fflush(stdout);
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

	if (!L->tty)
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
	fflush(stdout);
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

int lab_child(struct lab *L, const char *const *args, const char *logpath, bool progress,
		 bool interruptible)
{
	const char *argv[64];
	int pfd[2] = { -1, -1 }, status, forwarded = 0;
	size_t n = 0;
	pid_t pid, parent;

	argv[n++] = "fslab";
	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (progress && pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0)
		return -errno;
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
		execv(L->self, (char *const *)argv);
		_exit(127);
	}
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
	const char *args[] = { "teardown", "--mount-root", L->mnt, NULL };
	int rc = lab_child(L, args, logpath, false, false);

	if (rc)
		lab_log(L, "teardown of %s exited %d (see %s)", L->mnt, rc, logpath);
	return rc;
}
