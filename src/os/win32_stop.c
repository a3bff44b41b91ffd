// SPDX-License-Identifier: MIT
/*
 * win32_stop.c: stop requests on Windows: console control handlers (Ctrl-C, Ctrl-Break,
 * console close) and the end of standard input, each setting stop_event so that sleeps and
 * waits end at once, as a signal ends them on Linux.
 */
#include "os/osP.h"

#include "os/os.h"

/* ---- stop requests ---- */

/* Signalled by the console control handler: sleepers wake at once, as a signal wakes them. */
HANDLE stop_event;

static void (*stop_fn)(int why);

static BOOL WINAPI on_ctrl(DWORD type)
{
	if (!stop_fn)
		return FALSE;
	stop_fn(type == CTRL_C_EVENT ? OS_STOP_INT : OS_STOP_TERM);
	if (stop_event)
		SetEvent(stop_event);
	return TRUE;
}

void os_stop_handler_set(void (*fn)(int why))
{
	if (!stop_event)
		stop_event = CreateEventW(NULL, TRUE, FALSE, NULL);
	else
		ResetEvent(stop_event);
	stop_fn = fn;
	SetConsoleCtrlHandler(on_ctrl, TRUE);
}

void os_stop_handler_clear(void)
{
	SetConsoleCtrlHandler(on_ctrl, FALSE);
	stop_fn = NULL;
}

const char *os_stop_name(int why)
{
	if (why == OS_STOP_EOF)
		return "the end of standard input";
	return why == OS_STOP_TERM ? "Ctrl-Break or console close" : "Ctrl-C";
}

static volatile LONG stdin_eof;

static DWORD WINAPI stdin_watch(void *arg)
{
	HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
	char buf[512];
	DWORD n;

	(void)arg;
	/* EOF (0 bytes), a broken pipe (the writer is gone) or no stdin at all: stop */
	while (in && in != INVALID_HANDLE_VALUE && ReadFile(in, buf, sizeof(buf), &n, NULL) && n)
		;
	InterlockedExchange(&stdin_eof, 1);
	if (stop_fn)
		stop_fn(OS_STOP_EOF);
	if (stop_event)
		SetEvent(stop_event);
	return 0;
}

int os_stop_on_stdin_eof(void)
{
	HANDLE t;

	if (!stop_event)
		stop_event = CreateEventW(NULL, TRUE, FALSE, NULL);
	t = CreateThread(NULL, 0, stdin_watch, NULL, 0, NULL);
	if (!t)
		return last_err();
	CloseHandle(t);
	return 0;
}

bool os_stdin_eof_seen(void)
{
	return InterlockedCompareExchange(&stdin_eof, 0, 0) != 0;
}
