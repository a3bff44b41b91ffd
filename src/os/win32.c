// SPDX-License-Identifier: MIT
/*
 * win32.c: the platform layer on Windows, its core: UTF-8 and wide strings, Win32 errors as
 * -errno, QueryPerformanceCounter and high-resolution waitable timers, aligned memory, the
 * process and console facts, text helpers.  Files: win32_file.c; stop requests:
 * win32_stop.c; child processes: win32_proc.c (as posix.c's sections on Linux).
 */
#include "os/osP.h"

#include <errno.h>
#include <io.h>
#include <limits.h>
#include <shlwapi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* ---- strings and errors ---- */

wchar_t *os_widen(const char *utf8)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, NULL, 0);
	wchar_t *w;

	if (n <= 0) {
		errno = EINVAL;
		return NULL;
	}
	w = xmalloc((size_t)n * sizeof(wchar_t));
	MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, w, n);
	return w;
}

char *os_narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s;

	if (n <= 0)
		return NULL;
	s = xmalloc((size_t)n);
	WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
	return s;
}

int os_errno_from_win(DWORD err)
{
	static const struct {
		DWORD win;
		int err;
	} map[] = {
		{ ERROR_FILE_NOT_FOUND, ENOENT },    { ERROR_PATH_NOT_FOUND, ENOENT },
		{ ERROR_INVALID_NAME, ENOENT },      { ERROR_ACCESS_DENIED, EACCES },
		{ ERROR_SHARING_VIOLATION, EBUSY },  { ERROR_LOCK_VIOLATION, EBUSY },
		{ ERROR_FILE_EXISTS, EEXIST },       { ERROR_ALREADY_EXISTS, EEXIST },
		{ ERROR_DISK_FULL, ENOSPC },         { ERROR_HANDLE_DISK_FULL, ENOSPC },
		{ ERROR_INVALID_PARAMETER, EINVAL }, { ERROR_INVALID_FUNCTION, EINVAL },
		{ ERROR_NOT_SUPPORTED, EOPNOTSUPP }, { ERROR_NOT_ENOUGH_MEMORY, ENOMEM },
		{ ERROR_OUTOFMEMORY, ENOMEM },       { ERROR_OPERATION_ABORTED, ECANCELED },
		{ ERROR_DIRECTORY, ENOTDIR },        { ERROR_DIR_NOT_EMPTY, ENOTEMPTY },
		{ ERROR_WRITE_PROTECT, EROFS },      { ERROR_BUFFER_OVERFLOW, ENAMETOOLONG },
		{ ERROR_FILENAME_EXCED_RANGE, ENAMETOOLONG }, { ERROR_BROKEN_PIPE, EPIPE },
		{ ERROR_INVALID_HANDLE, EBADF },     { ERROR_CRC, EIO },
		{ ERROR_CALL_NOT_IMPLEMENTED, EOPNOTSUPP }, { ERROR_HANDLE_EOF, ENODATA },
		{ ERROR_INVALID_USER_BUFFER, EINVAL }, { ERROR_NOT_READY, EAGAIN },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i].win == err)
			return -map[i].err;
	return -EIO;
}

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

/* ---- time ---- */

uint64_t now_ns(void)
{
	static LARGE_INTEGER freq;
	LARGE_INTEGER c;
	uint64_t f;

	if (!freq.QuadPart)
		QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&c);
	f = (uint64_t)freq.QuadPart;
	return (uint64_t)c.QuadPart / f * NSEC_PER_SEC + (uint64_t)c.QuadPart % f * NSEC_PER_SEC / f;
}

static __thread HANDLE sleep_timer;

/*
 * A high-resolution waitable timer per thread (Windows 10 1803+; the plain timer of ~15.6 ms
 * granularity where it is refused).  Waitable timers take absolute times only on the wall
 * clock (FILETIME), which can jump: the absolute monotonic deadline is kept here and each wait
 * is relative to what is left of it, so a loop of sleeps still does not drift.
 */
int sleep_until_ns(uint64_t t_ns)
{
	HANDLE h[2];
	DWORD nh = 1;

	if (!sleep_timer) {
		sleep_timer = CreateWaitableTimerExW(NULL, NULL,
						     CREATE_WAITABLE_TIMER_HIGH_RESOLUTION,
						     TIMER_ALL_ACCESS);
		if (!sleep_timer)
			sleep_timer = CreateWaitableTimerExW(NULL, NULL, 0, TIMER_ALL_ACCESS);
	}
	h[0] = sleep_timer;
	if (stop_event)
		h[nh++] = stop_event;
	for (;;) {
		uint64_t now = now_ns();
		LARGE_INTEGER due;
		DWORD w;

		if (now >= t_ns)
			return 0;
		if (!sleep_timer) {
			Sleep((DWORD)MAX(1, (t_ns - now) / NSEC_PER_MSEC));
			continue;
		}
		/* negative: relative, in 100 ns units */
		due.QuadPart = -(LONGLONG)MAX(1, (t_ns - now) / 100);
		if (!SetWaitableTimer(sleep_timer, &due, 0, NULL, NULL, FALSE))
			return last_err();
		w = WaitForMultipleObjects(nh, h, FALSE, INFINITE);
		if (w == WAIT_OBJECT_0 + 1)
			return -EINTR;
		if (w == WAIT_FAILED)
			return last_err();
	}
}

/* ---- memory ---- */

void *os_alloc_aligned(size_t align, size_t n)
{
	return _aligned_malloc(n ? n : align, align);
}

void os_free_aligned(void *p)
{
	_aligned_free(p);
}

unsigned long os_pid(void)
{
	return GetCurrentProcessId();
}

bool os_is_admin(void)
{
	SID_IDENTIFIER_AUTHORITY nt = { SECURITY_NT_AUTHORITY };
	BOOL member = FALSE;
	PSID admins;

	if (!AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID,
				      DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0, &admins))
		return false;
	if (!CheckTokenMembership(NULL, admins, &member))
		member = FALSE;
	FreeSid(admins);
	return member;
}

bool os_stderr_tty(void)
{
	DWORD mode;

	return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

bool os_stdout_tty(void)
{
	HANDLE h = GetStdHandle(STD_OUTPUT_HANDLE);
	DWORD mode;

	if (!GetConsoleMode(h, &mode))
		return false;
	/* "\r" and ESC[K for the live line (Windows 10 consoles; older ones print them) */
	if (!(mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING))
		SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
	return true;
}

char *os_exe_path(void)
{
	wchar_t w[MAX_PATH * 4];
	DWORD n = GetModuleFileNameW(NULL, w, ARRAY_SIZE(w));

	if (!n || n >= ARRAY_SIZE(w))
		return NULL;
	return os_narrow(w);
}

void os_fdprintf(int fd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* the whole text in one write (a fixed buffer cut it at 1023 bytes) */
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (sb.len)
		_write(fd, sb.buf, (unsigned int)MIN(sb.len, (size_t)UINT_MAX));
	strbuf_release(&sb);
}

bool os_drop_caches(void)
{
	return false;
}

int os_ncpus(void)
{
	DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);

	return n ? (int)n : 1;
}

char *os_utf16le_to_utf8(const void *buf, size_t len, size_t *outlen)
{
	int nw = (int)(len / 2), n;
	char *out;

	if (len % 2 || len / 2 > INT_MAX)
		return NULL;
	if (!nw) {
		*outlen = 0;
		return xstrdup("");
	}
	n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, buf, nw, NULL, 0, NULL, NULL);
	if (n <= 0)
		return NULL;
	out = xmalloc((size_t)n + 1);
	WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, buf, nw, out, n, NULL, NULL);
	out[n] = 0;
	*outlen = (size_t)n;
	return out;
}

char *os_strcasestr(const char *haystack, const char *needle)
{
	return StrStrIA(haystack, needle);
}

int64_t os_strptime_utc(const char *s, const char *fmt)
{
	struct tm tm = { 0 };
	char ampm[3] = "";

	if (!strcmp(fmt, "%m/%d/%Y %I:%M:%S %p")) {
		if (sscanf(s, "%d/%d/%d %d:%d:%d %2[AaPpMm]", &tm.tm_mon, &tm.tm_mday, &tm.tm_year,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, ampm) != 7 ||
		    tm.tm_hour < 1 || tm.tm_hour > 12 || !strchr("AaPp", ampm[0]) ||
		    (ampm[1] != 'M' && ampm[1] != 'm'))
			return -1;
		tm.tm_hour = tm.tm_hour % 12 + (ampm[0] == 'P' || ampm[0] == 'p' ? 12 : 0);
	} else if (!strcmp(fmt, "%m/%d/%Y %H:%M:%S")) {
		if (sscanf(s, "%d/%d/%d %d:%d:%d", &tm.tm_mon, &tm.tm_mday, &tm.tm_year, &tm.tm_hour,
			   &tm.tm_min, &tm.tm_sec) != 6 || tm.tm_hour > 23)
			return -1;
	} else {
		return -1;
	}
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_min > 59 || tm.tm_sec > 60 || tm.tm_year < 1900)
		return -1;
	tm.tm_mon--;
	tm.tm_year -= 1900;
	return (int64_t)_mkgmtime64(&tm);
}
