// SPDX-License-Identifier: MIT
/*
 * win32.c: the platform layer on Windows: QueryPerformanceCounter and high-resolution waitable
 * timers, files opened as ESE opens them (unbuffered, write-through, overlapped), MoveFileExW,
 * console control handlers, CreateProcessW.  UTF-8 paths become wide strings here.
 */
#include "os/osP.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <shlwapi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "argv_quote.h"
#include "strbuf.h"
#include "util.h"

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif

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

static int last_err(void)
{
	return os_errno_from_win(GetLastError());
}

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

/* Signalled by the console control handler: sleepers wake at once, as a signal wakes them. */
static HANDLE stop_event;
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

/* ---- files ---- */

/* Sector size for unbuffered I/O on the volume of h (FILE_STORAGE_INFO), or 512. */
static unsigned int handle_sector(HANDLE h)
{
	FILE_STORAGE_INFO si;

	if (GetFileInformationByHandleEx(h, FileStorageInfo, &si, sizeof(si)) &&
	    si.LogicalBytesPerSector >= 512)
		return (unsigned int)MAX(si.LogicalBytesPerSector,
					 si.PhysicalBytesPerSectorForPerformance);
	return 512;
}

int os_open(const char *path, unsigned int flags, struct os_file **out)
{
	DWORD access = GENERIC_READ, disp = OPEN_EXISTING;
	DWORD attr = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OVERLAPPED;
	wchar_t *w = os_widen(path);
	struct os_file *f;
	HANDLE h;

	if (!w)
		return -EINVAL;
	if (flags & OS_RDWR)
		access |= GENERIC_WRITE;
	if ((flags & OS_CREATE) && (flags & OS_TRUNC))
		disp = CREATE_ALWAYS;
	else if (flags & OS_CREATE)
		disp = OPEN_ALWAYS;
	else if (flags & OS_TRUNC)
		disp = TRUNCATE_EXISTING;
	/* ESE's flags: the cache manager is bypassed and every write is stable on return */
	if (flags & OS_DIRECT)
		attr |= FILE_FLAG_NO_BUFFERING;
	if (flags & OS_WRITE_THROUGH)
		attr |= FILE_FLAG_WRITE_THROUGH;
	if (flags & OS_DIR) {
		access = GENERIC_READ;
		disp = OPEN_EXISTING;
		attr = FILE_FLAG_BACKUP_SEMANTICS;
	}
	h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			disp, attr, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return last_err();
	f = xmalloc(sizeof(*f));
	f->h = h;
	f->flags = flags;
	f->sector = handle_sector(h);
	*out = f;
	return 0;
}

int os_close(struct os_file *f)
{
	int ret = 0;

	if (!f)
		return 0;
	if (!CloseHandle(f->h))
		ret = last_err();
	free(f);
	return ret;
}

/*
 * One event per thread for positional I/O on overlapped handles.  Its low bit set keeps the
 * completion from being queued to a completion port (documented for GetQueuedCompletionStatus);
 * fslab binds no handle to a port, but the rule costs nothing.
 */
static __thread HANDLE io_event;

static ssize_t rw(struct os_file *f, void *buf, size_t len, uint64_t off, bool write)
{
	OVERLAPPED ov = { 0 };
	DWORD n = 0, want = (DWORD)MIN(len, (size_t)1 << 30);
	BOOL ok;

	if (!io_event) {
		io_event = CreateEventW(NULL, TRUE, FALSE, NULL);
		if (!io_event)
			return last_err();
	}
	ov.Offset = (DWORD)off;
	ov.OffsetHigh = (DWORD)(off >> 32);
	ov.hEvent = (HANDLE)((uintptr_t)io_event | 1);
	ok = write ? WriteFile(f->h, buf, want, NULL, &ov) : ReadFile(f->h, buf, want, NULL, &ov);
	if (!ok && GetLastError() != ERROR_IO_PENDING) {
		if (GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		return last_err();
	}
	if (!GetOverlappedResult(f->h, &ov, &n, TRUE)) {
		if (GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		return last_err();
	}
	return (ssize_t)n;
}

ssize_t os_pread(struct os_file *f, void *buf, size_t len, uint64_t off)
{
	return rw(f, buf, len, off, false);
}

ssize_t os_pwrite(struct os_file *f, const void *buf, size_t len, uint64_t off)
{
	return rw(f, (void *)buf, len, off, true);
}

int os_file_sync(struct os_file *f)
{
	if (!(f->flags & OS_RDWR))
		return 0; /* FlushFileBuffers needs write access; nothing was written */
	return FlushFileBuffers(f->h) ? 0 : last_err();
}

int os_file_datasync(struct os_file *f)
{
	return os_file_sync(f);
}

int os_file_allocate(struct os_file *f, uint64_t size)
{
	FILE_ALLOCATION_INFO ai = { .AllocationSize.QuadPart = (LONGLONG)size };
	LARGE_INTEGER end = { .QuadPart = (LONGLONG)size };
	int e;

	/* clusters reserved (Wine 8 does not implement it: then only the size is set) and the
	 * size set, as fallocate() does */
	if (!SetFileInformationByHandle(f->h, FileAllocationInfo, &ai, sizeof(ai))) {
		e = last_err();
		if (e != -EOPNOTSUPP && e != -EINVAL)
			return e;
	}
	if (SetFilePointerEx(f->h, end, NULL, FILE_BEGIN) && SetEndOfFile(f->h))
		return 0;
	e = last_err();
	return e == -EINVAL ? -EOPNOTSUPP : e;
}

int os_file_size(struct os_file *f, uint64_t *size)
{
	LARGE_INTEGER s;

	if (!GetFileSizeEx(f->h, &s))
		return last_err();
	*size = (uint64_t)s.QuadPart;
	return 0;
}

unsigned int os_file_sector(struct os_file *f)
{
	return f->sector;
}

/* ---- names ---- */

int os_rename_replace(const char *from, const char *to)
{
	wchar_t *a = os_widen(from), *b = os_widen(to);
	int ret = 0;

	if (!a || !b)
		ret = -EINVAL;
	else if (!MoveFileExW(a, b, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
		ret = last_err();
	free(a);
	free(b);
	return ret;
}

int os_unlink(const char *path)
{
	wchar_t *w = os_widen(path);
	int ret = 0;

	if (!w)
		return -EINVAL;
	if (!DeleteFileW(w))
		ret = last_err();
	free(w);
	return ret;
}

int os_mkdir(const char *path, unsigned int mode)
{
	wchar_t *w = os_widen(path);
	int ret = 0;

	(void)mode;
	if (!w)
		return -EINVAL;
	if (!CreateDirectoryW(w, NULL))
		ret = last_err();
	free(w);
	return ret;
}

int os_rmdir(const char *path)
{
	wchar_t *w = os_widen(path);
	int ret = 0;

	if (!w)
		return -EINVAL;
	if (!RemoveDirectoryW(w))
		ret = last_err();
	free(w);
	return ret;
}

int os_dir_sync(const char *dir)
{
	(void)dir; /* MoveFileExW(MOVEFILE_WRITE_THROUGH) made the rename stable */
	return 0;
}

FILE *os_fopen(const char *path, const char *mode)
{
	wchar_t *w = os_widen(path), wm[8];
	size_t i = 0;
	FILE *f;

	if (!w)
		return NULL;
	for (const char *m = mode; *m && i < ARRAY_SIZE(wm) - 3; m++)
		if (*m != 'e')
			wm[i++] = (wchar_t)*m;
	/* binary (no CRLF translation: files are byte-identical to Linux's), not inherited */
	wm[i++] = L'b';
	wm[i++] = L'N';
	wm[i] = 0;
	f = _wfopen(w, wm);
	free(w);
	return f;
}

struct os_tmpfile {
	char *path, *tmp;
	FILE *f;
};

int os_tmpfile_open(const char *path, struct os_tmpfile **out, FILE **f)
{
	struct os_tmpfile *t = xcalloc(1, sizeof(*t));
	HANDLE h = INVALID_HANDLE_VALUE;
	int ret = 0, fd;

	t->path = xstrdup(path);
	for (unsigned int n = 0; n < 100; n++) {
		wchar_t *w;

		free(t->tmp);
		t->tmp = n ? xasprintf("%s.tmp.%lu.%u", path, os_pid(), n)
			   : xasprintf("%s.tmp.%lu", path, os_pid());
		w = os_widen(t->tmp);
		if (!w) {
			ret = -EINVAL;
			break;
		}
		/* CREATE_NEW: any existing name (a file, a symbolic link, a junction) fails; shared
		 * for writing and deleting so that gnuplot can write it by name */
		h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
				NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
		free(w);
		ret = h == INVALID_HANDLE_VALUE ? last_err() : 0;
		if (ret != -EEXIST)
			break;
	}
	if (h == INVALID_HANDLE_VALUE) {
		free(t->path);
		free(t->tmp);
		free(t);
		return ret ? ret : -EEXIST;
	}
	fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
	t->f = fd < 0 ? NULL : _fdopen(fd, "wb");
	if (!t->f) {
		if (fd < 0)
			CloseHandle(h);
		else
			_close(fd);
		t->f = NULL;
		os_tmpfile_abort(t);
		return -EIO;
	}
	*out = t;
	*f = t->f;
	return 0;
}

const char *os_tmpfile_name(const struct os_tmpfile *t)
{
	return t->tmp;
}

void os_tmpfile_abort(struct os_tmpfile *t)
{
	if (t->f)
		fclose(t->f);
	if (t->tmp)
		os_unlink(t->tmp);
	free(t->path);
	free(t->tmp);
	free(t);
}

int os_tmpfile_commit(struct os_tmpfile *t)
{
	int ret = 0;

	errno = 0;
	if (fflush(t->f) || ferror(t->f) || os_stream_sync(t->f))
		ret = errno ? -errno : -EIO;
	if (fclose(t->f) && !ret)
		ret = errno ? -errno : -EIO;
	t->f = NULL;
	if (!ret)
		ret = os_rename_replace(t->tmp, t->path);
	if (!ret) {
		free(t->tmp);
		t->tmp = NULL; /* it is the file now */
	}
	os_tmpfile_abort(t);
	return ret;
}

int os_stream_sync(FILE *f)
{
	HANDLE h = (HANDLE)_get_osfhandle(_fileno(f));

	if (h == INVALID_HANDLE_VALUE)
		return -EBADF;
	return FlushFileBuffers(h) ? 0 : last_err();
}

int os_stat(const char *path, int *kind, uint64_t *size)
{
	WIN32_FILE_ATTRIBUTE_DATA fa;
	wchar_t *w = os_widen(path);
	BOOL ok;

	if (!w)
		return -EINVAL;
	ok = GetFileAttributesExW(w, GetFileExInfoStandard, &fa);
	free(w);
	if (!ok)
		return last_err();
	if (kind)
		*kind = fa.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? OS_KIND_DIR
			: fa.dwFileAttributes & FILE_ATTRIBUTE_DEVICE ? OS_KIND_OTHER : OS_KIND_FILE;
	if (size)
		*size = (uint64_t)fa.nFileSizeHigh << 32 | fa.nFileSizeLow;
	return 0;
}

int os_dir_writable(const char *dir)
{
	(void)dir; /* ACLs are not mode bits: the first file created there tells */
	return 0;
}

bool os_is_dir(const char *path)
{
	int kind;

	return !os_stat(path, &kind, NULL) && kind == OS_KIND_DIR;
}

bool os_is_symlink(const char *path)
{
	wchar_t *w = os_widen(path);
	DWORD a = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;

	free(w);
	return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT);
}

struct os_dir {
	HANDLE h;
	WIN32_FIND_DATAW fd;
	bool first, end;
	char *name;
};

int os_opendir(const char *path, struct os_dir **out)
{
	char *pat = path_join(path, "*");
	wchar_t *w = os_widen(pat);
	struct os_dir *d;

	free(pat);
	if (!w)
		return -EINVAL;
	d = xcalloc(1, sizeof(*d));
	d->h = FindFirstFileW(w, &d->fd);
	free(w);
	if (d->h == INVALID_HANDLE_VALUE) {
		DWORD e = GetLastError();

		free(d);
		if (e != ERROR_FILE_NOT_FOUND)
			return os_errno_from_win(e);
		/* an empty directory still has "." and ".."; no match means no directory */
		return -ENOENT;
	}
	d->first = true;
	*out = d;
	return 0;
}

const char *os_readdir(struct os_dir *d)
{
	for (;;) {
		if (d->end)
			return NULL;
		if (!d->first && !FindNextFileW(d->h, &d->fd)) {
			d->end = true;
			return NULL;
		}
		d->first = false;
		if (!wcscmp(d->fd.cFileName, L".") || !wcscmp(d->fd.cFileName, L".."))
			continue;
		free(d->name);
		d->name = os_narrow(d->fd.cFileName);
		if (d->name)
			return d->name;
	}
}

void os_closedir(struct os_dir *d)
{
	if (!d)
		return;
	FindClose(d->h);
	free(d->name);
	free(d);
}

/* Cut a path at its last separator (either kind); false when it has none. */
static bool cut_last(char *p)
{
	char *a = strrchr(p, '\\'), *b = strrchr(p, '/');
	char *s = a > b ? a : b;

	if (!s)
		return false;
	*s = 0;
	return true;
}

char *os_exe_dir(void)
{
	wchar_t w[MAX_PATH * 4];
	DWORD n = GetModuleFileNameW(NULL, w, ARRAY_SIZE(w));
	char *s;

	if (!n || n >= ARRAY_SIZE(w))
		return NULL;
	s = os_narrow(w);
	if (s && !cut_last(s)) {
		free(s);
		return NULL;
	}
	return s;
}

char *os_tmp_dir(void)
{
	wchar_t w[MAX_PATH + 1];
	DWORD n = GetTempPathW(ARRAY_SIZE(w), w);
	char *s;

	if (!n || n > MAX_PATH)
		return xstrdup(".");
	if (n > 1 && (w[n - 1] == L'\\' || w[n - 1] == L'/'))
		w[n - 1] = 0;
	s = os_narrow(w);
	return s ? s : xstrdup(".");
}

FILE *os_memstream_open(struct os_memstream *ms, char **buf, size_t *len)
{
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];

	*buf = NULL;
	*len = 0;
	ms->buf = buf;
	ms->len = len;
	ms->f = NULL;
	if (!GetTempPathW(ARRAY_SIZE(dir), dir) || !GetTempFileNameW(dir, L"fsl", 0, name))
		return NULL;
	/* T: kept in memory where possible; D: deleted when closed */
	ms->f = _wfopen(name, L"w+bTD");
	return ms->f;
}

int os_memstream_done(struct os_memstream *ms)
{
	long n;
	int ret = 0;

	fflush(ms->f);
	n = ftell(ms->f);
	if (n < 0) {
		n = 0;
		ret = -EIO;
	}
	*ms->buf = xmalloc((size_t)n + 1);
	rewind(ms->f);
	*ms->len = fread(*ms->buf, 1, (size_t)n, ms->f);
	if (*ms->len != (size_t)n)
		ret = -EIO;
	(*ms->buf)[*ms->len] = 0;
	fclose(ms->f);
	return ret;
}

/* ---- stop requests ---- */

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

int os_proc_spawn(const char *const argv[], unsigned int flags, struct os_proc **out)
{
	SECURITY_ATTRIBUTES sa = { .nLength = sizeof(sa), .bInheritHandle = TRUE };
	STARTUPINFOW si = { .cb = sizeof(si) };
	PROCESS_INFORMATION pi;
	HANDLE rd[2] = { NULL, NULL }, wr[2] = { NULL, NULL }, in_rd = NULL, in_wr = NULL;
	HANDLE job = NULL;
	struct strbuf cmd = STRBUF_INIT;
	struct os_proc *p;
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
	if (flags & OS_PROC_DIE_WITH_PARENT) {
		JOBOBJECT_EXTENDED_LIMIT_INFORMATION li = { 0 };

		/* a job of its own: closing the parent's handle (the parent's end, even by
		 * TerminateProcess) kills the child and everything it started */
		job = CreateJobObjectW(NULL, NULL);
		li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
		if (job && !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li,
						    sizeof(li))) {
			CloseHandle(job);
			job = NULL;
		}
		if (job)
			cflags |= CREATE_SUSPENDED;
	}
	if (flags & OS_PROC_OWN_GROUP)
		cflags |= CREATE_NEW_PROCESS_GROUP;
	AcquireSRWLockExclusive(&spawn_lock);
	for (int i = 0; i < 2 && !ret; i++)
		if (!CreatePipe(&rd[i], &wr[i], &sa, 0) ||
		    !SetHandleInformation(rd[i], HANDLE_FLAG_INHERIT, 0))
			ret = last_err();
	if (!ret && (flags & OS_PROC_STDIN_PIPE)) {
		if (!CreatePipe(&in_rd, &in_wr, &sa, 0) ||
		    !SetHandleInformation(in_wr, HANDLE_FLAG_INHERIT, 0))
			ret = last_err();
	} else if (!ret) {
		in_rd = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE,
				    FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
		if (in_rd == INVALID_HANDLE_VALUE) {
			in_rd = NULL;
			ret = last_err();
		}
	}
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
	p = xcalloc(1, sizeof(*p));
	InitializeCriticalSection(&p->lock);
	p->ev = CreateEventW(NULL, FALSE, FALSE, NULL);
	p->proc = pi.hProcess;
	p->pid = pi.dwProcessId;
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
	*out = p;
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
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		_write(fd, buf, (unsigned int)MIN((size_t)n, sizeof(buf) - 1));
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

/* ---- paths, identities and locks ---- */

int os_dir_can_create(const char *dir)
{
	char *name = xasprintf("%s\\fslab-probe-%lu.tmp", dir, os_pid());
	wchar_t *w = os_widen(name);
	HANDLE h;
	int ret = 0;

	free(name);
	if (!w)
		return -EINVAL;
	h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_NEW,
			FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		ret = last_err();
	else
		CloseHandle(h);
	return ret;
}

static HANDLE open_any(const char *path)
{
	wchar_t *w = os_widen(path);
	HANDLE h;

	if (!w) {
		SetLastError(ERROR_INVALID_NAME);
		return INVALID_HANDLE_VALUE;
	}
	/* BACKUP_SEMANTICS: directories too; no access asked, so nothing is refused by sharing */
	h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	return h;
}

char *os_abs_path(const char *path)
{
	wchar_t *w = os_widen(path), buf[32768];
	DWORD n = w ? GetFullPathNameW(w, ARRAY_SIZE(buf), buf, NULL) : 0;
	char *out = n && n < ARRAY_SIZE(buf) ? os_narrow(buf) : NULL;

	free(w);
	return out ? out : xstrdup(path);
}

char *os_realpath(const char *path)
{
	HANDLE h = open_any(path);
	wchar_t buf[32768];
	DWORD n;
	char *out, *p;

	if (h == INVALID_HANDLE_VALUE) {
		errno = -last_err();
		return NULL;
	}
	n = GetFinalPathNameByHandleW(h, buf, sizeof(buf) / sizeof(buf[0]), VOLUME_NAME_DOS);
	CloseHandle(h);
	if (!n || n >= sizeof(buf) / sizeof(buf[0])) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	out = os_narrow(wcsncmp(buf, L"\\\\?\\", 4) ? buf : buf + 4);
	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	for (p = out; *p; p++)
		if (*p == '\\')
			*p = '/';
	return out;
}

bool os_fnmatch(const char *pattern, const char *name)
{
	return PathMatchSpecA(name, pattern);
}

uint64_t os_file_allocated(const char *path)
{
	wchar_t *w = os_widen(path);
	DWORD hi = 0, lo;

	if (!w)
		return 0;
	lo = GetCompressedFileSizeW(w, &hi);
	free(w);
	if (lo == INVALID_FILE_SIZE && GetLastError() != NO_ERROR)
		return 0;
	return (uint64_t)hi << 32 | lo;
}

int os_path_id(const char *path, struct os_id *id)
{
	BY_HANDLE_FILE_INFORMATION fi;
	HANDLE h = open_any(path);
	BOOL ok;

	if (h == INVALID_HANDLE_VALUE)
		return last_err();
	ok = GetFileInformationByHandle(h, &fi);
	CloseHandle(h);
	if (!ok)
		return last_err();
	id->dev = fi.dwVolumeSerialNumber;
	id->ino = (uint64_t)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
	return 0;
}

int os_lock_path(const char *path, long *holder)
{
	struct os_id id;
	wchar_t name[96];
	HANDLE m;
	int ret = os_path_id(path, &id);

	*holder = 0;
	if (ret)
		return ret;
	/* Global\: one lock for every session on the machine (Administrators may create it) */
	swprintf(name, sizeof(name) / sizeof(name[0]), L"Global\\fslab-lock-%llx-%llx",
		 (unsigned long long)id.dev, (unsigned long long)id.ino);
	m = CreateMutexW(NULL, FALSE, name);
	if (!m && GetLastError() == ERROR_ACCESS_DENIED) {
		swprintf(name, sizeof(name) / sizeof(name[0]), L"Local\\fslab-lock-%llx-%llx",
			 (unsigned long long)id.dev, (unsigned long long)id.ino);
		m = CreateMutexW(NULL, FALSE, name);
	}
	if (!m)
		return last_err();
	if (GetLastError() == ERROR_ALREADY_EXISTS) {
		CloseHandle(m);
		return -EWOULDBLOCK;
	}
	/* Windows handles are 32-bit values even in 64-bit processes */
	return (int)(intptr_t)m;
}

void os_unlock(int lock)
{
	if (lock >= 0)
		CloseHandle((HANDLE)(intptr_t)lock);
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
