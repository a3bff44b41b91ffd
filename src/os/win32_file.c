// SPDX-License-Identifier: MIT
/*
 * win32_file.c: files and names on Windows: files opened as ESE opens them (unbuffered,
 * write-through, overlapped), MoveFileExW renames, temporary files committed by rename,
 * directories, memory streams, paths, file identities and locks.  UTF-8 paths become wide
 * strings here.
 */
#include "os/osP.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <shlwapi.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "lib/base.h"
#include "lib/path.h"
#include "os/os.h"

/* ---- files ---- */

unsigned int os_handle_sector(HANDLE h)
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
	f->sector = os_handle_sector(h);
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

ssize_t os_pread_nowait(struct os_file *f, void *buf, size_t len, uint64_t off)
{
	(void)f, (void)buf, (void)len, (void)off;
	return -ENOSYS;
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

int os_fopen_regular(const char *path, FILE **f, int *kind)
{
	int k = OS_KIND_FILE;
	HANDLE h;

	*f = os_fopen(path, "r");
	if (!*f) {
		int e = errno ? errno : EIO;

		/* _wfopen of a directory fails with EACCES: say what it is */
		if (os_is_dir(path)) {
			if (kind)
				*kind = OS_KIND_DIR;
			return -EINVAL;
		}
		return -e;
	}
	/* a named pipe, a console, a device: anything that is not a file on a disk */
	h = (HANDLE)_get_osfhandle(_fileno(*f));
	if (h == INVALID_HANDLE_VALUE || GetFileType(h) != FILE_TYPE_DISK)
		k = GetFileType(h) == FILE_TYPE_PIPE ? OS_KIND_FIFO : OS_KIND_CHAR;
	if (kind)
		*kind = k;
	if (k != OS_KIND_FILE) {
		fclose(*f);
		*f = NULL;
		return -EINVAL;
	}
	return 0;
}

struct os_tmpfile {
	char *path, *tmp;
	FILE *f;
};

/* The target must be nothing yet or a regular file (a reparse point is not followed): 0,
 * or -EINVAL with *kind. */
static int target_ok(const char *path, int *kind)
{
	int ret = os_lstat_kind(path, kind);

	if (ret)
		return ret == -ENOENT ? 0 : ret;
	return *kind == OS_KIND_FILE ? 0 : -EINVAL;
}

int os_tmpfile_open(const char *path, struct os_tmpfile **out, FILE **f, int *kind)
{
	struct os_tmpfile *t;
	HANDLE h = INVALID_HANDLE_VALUE;
	int ret = target_ok(path, kind), fd;

	if (ret)
		return ret;
	t = xcalloc(1, sizeof(*t));
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

int os_tmpfile_commit(struct os_tmpfile *t, int *kind)
{
	int ret = 0;

	errno = 0;
	if (fflush(t->f) || ferror(t->f) || os_stream_sync(t->f))
		ret = errno ? -errno : -EIO;
	if (fclose(t->f) && !ret)
		ret = errno ? -errno : -EIO;
	t->f = NULL;
	/* what the name is now, just before it is replaced */
	if (!ret)
		ret = target_ok(t->path, kind);
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

int os_lstat_kind(const char *path, int *kind)
{
	FILE_ATTRIBUTE_TAG_INFO ti;
	wchar_t *w = os_widen(path);
	DWORD type;
	HANDLE h;

	if (!w)
		return -EINVAL;
	/* the name itself: a link or junction is not followed, a device ("NUL") is opened */
	h = CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE |
			FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return last_err();
	type = GetFileType(h);
	if (type == FILE_TYPE_CHAR)
		*kind = OS_KIND_CHAR;
	else if (type == FILE_TYPE_PIPE)
		*kind = OS_KIND_FIFO;
	else if (!GetFileInformationByHandleEx(h, FileAttributeTagInfo, &ti, sizeof(ti)))
		*kind = OS_KIND_OTHER;
	else if (ti.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
		*kind = OS_KIND_LINK;
	else if (ti.FileAttributes & FILE_ATTRIBUTE_DIRECTORY)
		*kind = OS_KIND_DIR;
	else
		*kind = OS_KIND_FILE;
	CloseHandle(h);
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
	if (d->names) /* a listing by handle (os_dirh_list), read whole */
		return d->i < d->n ? d->names[d->i++] : NULL;
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
	if (d->names) {
		for (size_t i = 0; i < d->n; i++)
			free(d->names[i]);
		free(d->names);
	} else {
		FindClose(d->h);
	}
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
