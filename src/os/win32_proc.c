// SPDX-License-Identifier: MIT
/*
 * win32_proc.c: processes on Windows: os_run() and child processes with CreateProcessW (their
 * output through pipes read by threads, a job object so that they end with the lab), programs
 * on the PATH.
 */
#include "os/osP.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/argv_quote.h"
#include "lib/base.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* ---- processes ---- */

int os_run(const char *const argv[], char **out)
{
	SECURITY_ATTRIBUTES sa = { .nLength = sizeof(sa), .bInheritHandle = TRUE };
	STARTUPINFOW si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	HANDLE rd = NULL, wr = NULL;
	struct strbuf line = STRBUF_INIT;
	wchar_t *cmd = NULL;
	DWORD code = 0;
	BOOL ok;

	/* quoted as the C runtime parses it back (argv_quote.c) */
	if (!argv_quote_win(&line, argv))
		cmd = os_widen(line.buf);
	strbuf_release(&line);
	if (!cmd)
		return -EINVAL;
	if (out) {
		if (!CreatePipe(&rd, &wr, &sa, 0)) {
			free(cmd);
			return last_err();
		}
		SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
		si.dwFlags = STARTF_USESTDHANDLES;
		si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
		si.hStdOutput = si.hStdError = wr;
	}
	ok = CreateProcessW(NULL, cmd, NULL, NULL, out != NULL, 0, NULL, NULL, &si, &pi);
	free(cmd);
	if (out)
		CloseHandle(wr);
	if (!ok) {
		DWORD e = GetLastError();

		if (out)
			CloseHandle(rd);
		/* as exec failing in the child on POSIX */
		return e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? 127
									: os_errno_from_win(e);
	}
	if (out) {
		size_t blen = 0, bcap = 4096;
		char *buf = xmalloc(bcap);
		DWORD n;

		for (;;) {
			if (bcap - blen < 1024)
				buf = xrealloc(buf, bcap *= 2);
			if (!ReadFile(rd, buf + blen, (DWORD)(bcap - blen - 1), &n, NULL) || !n)
				break;
			blen += n;
		}
		buf[blen] = 0;
		CloseHandle(rd);
		*out = buf;
	}
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	return (int)MIN(code, 255);
}

/*
 * Child processes.  Anonymous pipes cannot be waited on with their process, so a thread per
 * output stream reads into a buffer and signals an event; os_proc_poll() waits for that
 * event, the process and the stop event together.  The threads and the poller share the
 * buffers under a lock, and the struct lives until the last of them lets go of it (a
 * grandchild may keep a pipe open after the child exited: its reader is left to finish).
 */
struct proc_stream {
	struct os_proc *p;
	HANDLE rd;          /* the parent's end, owned by the reader thread */
	HANDLE thread;
	int id;             /* OS_PROC_STDOUT, OS_PROC_STDERR */
	char *buf;          /* read, not yet handed over */
	size_t len, cap;
	bool eof;
};

struct os_proc {
	CRITICAL_SECTION lock;
	HANDLE ev;          /* auto-reset: output or EOF arrived */
	HANDLE proc, job, in;
	DWORD pid;
	volatile LONG refs; /* the poller's and each reader's */
	struct proc_stream s[2];
	bool exited, killed;
	int status;
	uint64_t exited_at;
};

static void proc_unref(struct os_proc *p)
{
	if (InterlockedDecrement(&p->refs))
		return;
	DeleteCriticalSection(&p->lock);
	CloseHandle(p->ev);
	free(p->s[0].buf);
	free(p->s[1].buf);
	free(p);
}

static DWORD WINAPI proc_reader(void *arg)
{
	struct proc_stream *st = arg;
	struct os_proc *p = st->p;
	char buf[8192];
	DWORD n;

	while (ReadFile(st->rd, buf, sizeof(buf), &n, NULL) && n) {
		EnterCriticalSection(&p->lock);
		if (st->len + n > st->cap) {
			st->cap = (st->len + n) * 2;
			st->buf = xrealloc(st->buf, st->cap);
		}
		memcpy(st->buf + st->len, buf, n);
		st->len += n;
		LeaveCriticalSection(&p->lock);
		SetEvent(p->ev);
	}
	CloseHandle(st->rd);
	EnterCriticalSection(&p->lock);
	st->eof = true;
	LeaveCriticalSection(&p->lock);
	SetEvent(p->ev);
	proc_unref(p);
	return 0;
}

/* Spawns are one at a time: the child ends of one spawn's pipes are inheritable only while
 * it runs CreateProcessW, so no other child inherits them (it would hold them open). */
static SRWLOCK spawn_lock = SRWLOCK_INIT;

/* A job that kills its processes when its last handle closes (the parent's end, even by
 * TerminateProcess), or NULL where one cannot be had. */
static HANDLE kill_on_close_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li = { 0 };
	HANDLE job = CreateJobObjectW(NULL, NULL);

	li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	if (job && !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li,
					    sizeof(li))) {
		CloseHandle(job);
		job = NULL;
	}
	return job;
}

/* The child's standard handles: stdout and stderr pipes (rd[] ours, wr[] the child's), stdin
 * a pipe (OS_PROC_STDIN_PIPE: *in_wr ours) or NUL.  Only the child's ends are inheritable.
 * 0 or -errno (what was made is in the arrays, for the caller to close). */
static int std_handles(unsigned int flags, HANDLE rd[2], HANDLE wr[2], HANDLE *in_rd,
		       HANDLE *in_wr)
{
	SECURITY_ATTRIBUTES sa = { .nLength = sizeof(sa), .bInheritHandle = TRUE };

	for (int i = 0; i < 2; i++)
		if (!CreatePipe(&rd[i], &wr[i], &sa, 0) ||
		    !SetHandleInformation(rd[i], HANDLE_FLAG_INHERIT, 0))
			return last_err();
	if (flags & OS_PROC_STDIN_PIPE) {
		if (!CreatePipe(in_rd, in_wr, &sa, 0) ||
		    !SetHandleInformation(*in_wr, HANDLE_FLAG_INHERIT, 0))
			return last_err();
		return 0;
	}
	*in_rd = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
			     &sa, OPEN_EXISTING, 0, NULL);
	if (*in_rd == INVALID_HANDLE_VALUE) {
		*in_rd = NULL;
		return last_err();
	}
	return 0;
}

/* The started child's os_proc: a reader thread on each of its output pipes rd[]. */
static struct os_proc *proc_new(const PROCESS_INFORMATION *pi, HANDLE job, HANDLE in_wr,
				HANDLE rd[2])
{
	struct os_proc *p = xcalloc(1, sizeof(*p));

	InitializeCriticalSection(&p->lock);
	p->ev = CreateEventW(NULL, FALSE, FALSE, NULL);
	p->proc = pi->hProcess;
	p->pid = pi->dwProcessId;
	p->job = job;
	p->in = in_wr;
	p->refs = 1;
	for (int i = 0; i < 2; i++) {
		struct proc_stream *st = &p->s[i];

		st->p = p;
		st->id = i ? OS_PROC_STDERR : OS_PROC_STDOUT;
		st->rd = rd[i];
		InterlockedIncrement(&p->refs);
		st->thread = CreateThread(NULL, 0, proc_reader, st, 0, NULL);
		if (!st->thread) { /* no reader: the stream is lost, the child still runs */
			CloseHandle(st->rd);
			st->eof = true;
			InterlockedDecrement(&p->refs);
		}
	}
	return p;
}

int os_proc_spawn(const char *const argv[], unsigned int flags, struct os_proc **out)
{
	STARTUPINFOW si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	HANDLE rd[2] = { NULL, NULL }, wr[2] = { NULL, NULL }, in_rd = NULL, in_wr = NULL;
	HANDLE job = NULL;
	struct strbuf cmd = STRBUF_INIT;
	wchar_t *wcmd;
	DWORD cflags = CREATE_UNICODE_ENVIRONMENT;
	int ret = argv_quote_win(&cmd, argv);

	if (ret) {
		strbuf_release(&cmd);
		return ret;
	}
	wcmd = os_widen(cmd.buf);
	strbuf_release(&cmd);
	if (!wcmd)
		return -EINVAL;
	/* a job of its own: the child and everything it starts die with this process */
	if (flags & OS_PROC_DIE_WITH_PARENT)
		job = kill_on_close_job();
	if (job)
		cflags |= CREATE_SUSPENDED;
	if (flags & OS_PROC_OWN_GROUP)
		cflags |= CREATE_NEW_PROCESS_GROUP;
	AcquireSRWLockExclusive(&spawn_lock);
	ret = std_handles(flags, rd, wr, &in_rd, &in_wr);
	if (!ret) {
		si.dwFlags = STARTF_USESTDHANDLES;
		si.hStdInput = in_rd;
		si.hStdOutput = wr[0];
		si.hStdError = wr[1];
		if (!CreateProcessW(NULL, wcmd, NULL, NULL, TRUE, cflags, NULL, NULL, &si, &pi))
			ret = last_err();
	}
	/* the child's ends are the child's now */
	for (int i = 0; i < 2; i++)
		if (wr[i])
			CloseHandle(wr[i]);
	if (in_rd)
		CloseHandle(in_rd);
	ReleaseSRWLockExclusive(&spawn_lock);
	free(wcmd);
	if (ret) {
		for (int i = 0; i < 2; i++)
			if (rd[i])
				CloseHandle(rd[i]);
		if (in_wr)
			CloseHandle(in_wr);
		if (job)
			CloseHandle(job);
		return ret;
	}
	if (job) {
		/* in the job before it runs a single instruction, so nothing it starts escapes */
		if (!AssignProcessToJobObject(job, pi.hProcess)) {
			CloseHandle(job);
			job = NULL;
		}
		ResumeThread(pi.hThread);
	}
	CloseHandle(pi.hThread);
	*out = proc_new(&pi, job, in_wr, rd);
	return 0;
}

/* Hand what the readers collected to fn, outside the lock. */
static void proc_drain(struct os_proc *p, os_proc_output_fn fn, void *ctx)
{
	for (int i = 0; i < 2; i++) {
		struct proc_stream *st = &p->s[i];
		char *buf;
		size_t len;

		EnterCriticalSection(&p->lock);
		buf = st->buf;
		len = st->len;
		st->buf = NULL;
		st->len = st->cap = 0;
		LeaveCriticalSection(&p->lock);
		if (len && fn)
			fn(ctx, st->id, buf, len);
		free(buf);
	}
}

static bool proc_eof(struct os_proc *p)
{
	bool eof;

	EnterCriticalSection(&p->lock);
	eof = p->s[0].eof && p->s[1].eof;
	LeaveCriticalSection(&p->lock);
	return eof;
}

static void proc_check_exit(struct os_proc *p)
{
	DWORD code;

	if (p->exited || WaitForSingleObject(p->proc, 0) != WAIT_OBJECT_0)
		return;
	p->exited = true;
	p->exited_at = now_ns();
	if (!GetExitCodeProcess(p->proc, &code))
		code = 255;
	p->status = p->killed ? OS_PROC_KILLED : (int)MIN(code, 255);
}

int os_proc_poll(struct os_proc *p, int timeout_ms, os_proc_output_fn fn, void *ctx,
		 int *status)
{
	/* the stop event wakes the wait once (a Ctrl-C is seen at once, as EINTR on POSIX);
	 * it stays set, so after that it is left out (no busy loop) */
	bool stop = stop_event && WaitForSingleObject(stop_event, 0) != WAIT_OBJECT_0;
	HANDLE h[3] = { p->ev, p->proc, stop_event };
	DWORD nh = stop ? 3 : 2;

	proc_check_exit(p);
	if (p->exited) {
		h[1] = stop_event;
		nh--;
		/* a grandchild may still hold the pipes: 200 ms after the exit, then done */
		timeout_ms = (now_ns() - p->exited_at) / NSEC_PER_MSEC >= 200 ? 0
			     : MIN(timeout_ms, 50);
	}
	if (WaitForMultipleObjects(nh, h, FALSE, (DWORD)timeout_ms) == WAIT_FAILED)
		return last_err();
	proc_drain(p, fn, ctx);
	proc_check_exit(p);
	if (!p->exited)
		return 0;
	if (!proc_eof(p) && (now_ns() - p->exited_at) / NSEC_PER_MSEC < 200)
		return 0;
	proc_drain(p, fn, ctx);
	*status = p->status;
	return 1;
}

int os_proc_write(struct os_proc *p, const void *buf, size_t len)
{
	while (len) {
		DWORD n = 0;

		if (!p->in)
			return -EPIPE;
		if (!WriteFile(p->in, buf, (DWORD)MIN(len, (size_t)1 << 30), &n, NULL)) {
			DWORD e = GetLastError();

			return e == ERROR_BROKEN_PIPE || e == ERROR_NO_DATA ? -EPIPE : last_err();
		}
		buf = (const char *)buf + n;
		len -= n;
	}
	return 0;
}

int os_proc_close_stdin(struct os_proc *p)
{
	int ret = 0;

	if (p->in && !CloseHandle(p->in))
		ret = last_err();
	p->in = NULL;
	return ret;
}

int os_proc_kill(struct os_proc *p)
{
	proc_check_exit(p);
	if (p->exited)
		return 0;
	p->killed = true;
	if (p->job && TerminateJobObject(p->job, OS_PROC_KILLED))
		return 0;
	return TerminateProcess(p->proc, OS_PROC_KILLED) ? 0 : last_err();
}

long os_proc_pid(const struct os_proc *p)
{
	return (long)p->pid;
}

void os_proc_free(struct os_proc *p)
{
	if (!p)
		return;
	proc_check_exit(p);
	if (!p->exited) {
		os_proc_kill(p);
		WaitForSingleObject(p->proc, INFINITE);
	}
	os_proc_close_stdin(p);
	for (int i = 0; i < 2; i++)
		if (p->s[i].thread) {
			/* a reader still blocked (a grandchild holds its pipe): unblock it */
			if (WaitForSingleObject(p->s[i].thread, 0) != WAIT_OBJECT_0)
				CancelSynchronousIo(p->s[i].thread);
			CloseHandle(p->s[i].thread);
		}
	if (p->job)
		CloseHandle(p->job);
	CloseHandle(p->proc);
	proc_unref(p);
}

bool os_have_program(const char *name)
{
	wchar_t *w = os_widen(name), found[MAX_PATH + 1];
	DWORD n;

	if (!w)
		return false;
	n = SearchPathW(NULL, w, L".exe", ARRAY_SIZE(found), found, NULL);
	free(w);
	return n > 0 && n <= MAX_PATH;
}
