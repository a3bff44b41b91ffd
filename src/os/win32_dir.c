// SPDX-License-Identifier: MIT
/*
 * win32_dir.c: the directories someone else may write (os.h), on Windows: the directory opened
 * once without following a reparse point (FILE_FLAG_OPEN_REPARSE_POINT; a directory that is
 * one is refused), every name in it opened relative to that handle (NtCreateFile with the
 * handle as RootDirectory and FILE_OPEN_REPARSE_POINT: a link or junction is opened as itself,
 * then refused, never followed), created exclusively (FILE_CREATE), deleted and renamed by
 * the handle of what was opened (FILE_DISPOSITION_INFO; FILE_RENAME_INFORMATION with the
 * directory as RootDirectory).
 */
#include "os/osP.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <winternl.h>

#include "lib/base.h"
#include "lib/path.h"
#include "os/os.h"

#ifndef STATUS_FILE_IS_A_DIRECTORY
#define STATUS_FILE_IS_A_DIRECTORY ((NTSTATUS)0xC00000BAL)
#endif
#ifndef STATUS_NOT_A_DIRECTORY
#define STATUS_NOT_A_DIRECTORY ((NTSTATUS)0xC0000103L)
#endif

struct os_dirh {
	HANDLE h;
	char *path; /* for messages */
};

static const DWORD share_all = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

/* A name for a relative open: one component, no separator, no stream, not "." or "..". */
static bool plain_name(const char *name)
{
	return *name && !strpbrk(name, "/\\:") && strcmp(name, ".") && strcmp(name, "..");
}

/* NtCreateFile of name relative to dir: 0 with *out (and *created), or -errno. */
static int nt_open(HANDLE dir, const char *name, ACCESS_MASK access, ULONG disp, ULONG opts,
		   HANDLE *out, bool *created)
{
	wchar_t *w = plain_name(name) ? os_widen(name) : NULL;
	UNICODE_STRING us;
	OBJECT_ATTRIBUTES oa;
	IO_STATUS_BLOCK io;
	NTSTATUS st;

	if (!w)
		return -EINVAL;
	RtlInitUnicodeString(&us, w);
	InitializeObjectAttributes(&oa, &us, OBJ_CASE_INSENSITIVE, dir, NULL);
	st = NtCreateFile(out, access, &oa, &io, NULL, FILE_ATTRIBUTE_NORMAL, share_all, disp,
			  opts | FILE_OPEN_REPARSE_POINT, NULL, 0);
	free(w);
	if (st == STATUS_FILE_IS_A_DIRECTORY)
		return -EINVAL;
	if (st == STATUS_NOT_A_DIRECTORY)
		return -ENOTDIR;
	if (!NT_SUCCESS(st))
		return os_errno_from_win(RtlNtStatusToDosError(st));
	if (created)
		*created = io.Information == FILE_CREATED;
	return 0;
}

/* Is the object behind h a reparse point (a link, a junction)? */
static bool is_reparse(HANDLE h, DWORD *attrs)
{
	FILE_ATTRIBUTE_TAG_INFO ti;

	if (!GetFileInformationByHandleEx(h, FileAttributeTagInfo, &ti, sizeof(ti)))
		return true; /* cannot be told: treated as one, never used */
	if (attrs)
		*attrs = ti.FileAttributes;
	return ti.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT;
}

static struct os_dirh *dirh_new(HANDLE h, char *path)
{
	struct os_dirh *d = xmalloc(sizeof(*d));

	d->h = h;
	d->path = path;
	return d;
}

int os_dirh_open(const char *path, struct os_dirh **out)
{
	char *real = os_realpath(path);
	wchar_t *w;
	DWORD attrs = 0;
	HANDLE h;

	if (!real)
		return errno ? -errno : -ENOENT;
	w = os_widen(real);
	if (!w) {
		free(real);
		return -EINVAL;
	}
	/* the resolved path: a reparse point planted since is opened as itself, and refused */
	h = CreateFileW(w, FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES | SYNCHRONIZE,
			share_all, NULL, OPEN_EXISTING,
			FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		free(real);
		return last_err();
	}
	if (is_reparse(h, &attrs) || !(attrs & FILE_ATTRIBUTE_DIRECTORY)) {
		CloseHandle(h);
		free(real);
		return attrs & FILE_ATTRIBUTE_DIRECTORY ? -ELOOP : -ENOTDIR;
	}
	*out = dirh_new(h, real);
	return 0;
}

int os_dirh_sub(struct os_dirh *d, const char *name, bool create, bool *created,
		struct os_dirh **out)
{
	DWORD attrs = 0;
	bool made = false;
	HANDLE h;
	int ret = nt_open(d->h, name, FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES |
			  SYNCHRONIZE, create ? FILE_OPEN_IF : FILE_OPEN,
			  FILE_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT, &h, &made);

	if (ret)
		return ret;
	if (is_reparse(h, &attrs)) {
		CloseHandle(h);
		return -ELOOP;
	}
	if (created)
		*created = made;
	*out = dirh_new(h, path_join(d->path, name));
	return 0;
}

void os_dirh_close(struct os_dirh *d)
{
	if (!d)
		return;
	CloseHandle(d->h);
	free(d->path);
	free(d);
}

const char *os_dirh_path(const struct os_dirh *d)
{
	return d->path;
}

static int handle_id(HANDLE h, struct os_id *id)
{
	BY_HANDLE_FILE_INFORMATION fi;

	if (!GetFileInformationByHandle(h, &fi))
		return last_err();
	id->dev = fi.dwVolumeSerialNumber;
	id->ino = (uint64_t)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
	return 0;
}

int os_dirh_id(const struct os_dirh *d, struct os_id *id)
{
	return handle_id(d->h, id);
}

int os_file_id(struct os_file *f, struct os_id *id)
{
	return handle_id(f->h, id);
}

int os_dirh_open_file(struct os_dirh *d, const char *name, unsigned int flags,
		      struct os_file **out)
{
	ACCESS_MASK access = GENERIC_READ | SYNCHRONIZE | (flags & OS_RDWR ? GENERIC_WRITE : 0);
	ULONG opts = FILE_NON_DIRECTORY_FILE;
	struct os_file *f;
	HANDLE h;
	int ret;

	if (flags & (OS_TRUNC | OS_DIR))
		return -EINVAL;
	/* ESE's flags; no FILE_SYNCHRONOUS_IO_*: overlapped I/O, as os_open() */
	if (flags & OS_DIRECT)
		opts |= FILE_NO_INTERMEDIATE_BUFFERING;
	if (flags & OS_WRITE_THROUGH)
		opts |= FILE_WRITE_THROUGH;
	ret = nt_open(d->h, name, access, flags & OS_CREATE ? FILE_CREATE : FILE_OPEN, opts, &h,
		      NULL);
	if (ret)
		return ret;
	ret = is_reparse(h, NULL) ? -ELOOP : GetFileType(h) != FILE_TYPE_DISK ? -EINVAL : 0;
	if (ret) {
		CloseHandle(h);
		return ret;
	}
	f = xmalloc(sizeof(*f));
	f->h = h;
	f->flags = flags;
	f->sector = os_handle_sector(h);
	*out = f;
	return 0;
}

/* What the object behind h is. */
static void entry_of(HANDLE h, struct os_entry *e)
{
	BY_HANDLE_FILE_INFORMATION fi;
	FILE_STANDARD_INFO si;
	DWORD attrs = 0;

	memset(e, 0, sizeof(*e));
	e->mine = false; /* owners are ACLs here: not told, so never taken for this user's */
	if (is_reparse(h, &attrs))
		e->kind = OS_KIND_LINK;
	else if (attrs & FILE_ATTRIBUTE_DIRECTORY)
		e->kind = OS_KIND_DIR;
	else
		e->kind = GetFileType(h) == FILE_TYPE_DISK ? OS_KIND_FILE : OS_KIND_OTHER;
	if (GetFileInformationByHandle(h, &fi)) {
		e->size = (uint64_t)fi.nFileSizeHigh << 32 | fi.nFileSizeLow;
		e->id.dev = fi.dwVolumeSerialNumber;
		e->id.ino = (uint64_t)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
	}
	if (GetFileInformationByHandleEx(h, FileStandardInfo, &si, sizeof(si)))
		e->allocated = (uint64_t)si.AllocationSize.QuadPart;
}

int os_dirh_stat(struct os_dirh *d, const char *name, struct os_entry *e)
{
	HANDLE h;
	int ret;

	if (!strcmp(name, ".")) {
		entry_of(d->h, e);
		return 0;
	}
	ret = nt_open(d->h, name, FILE_READ_ATTRIBUTES | SYNCHRONIZE, FILE_OPEN,
		      FILE_SYNCHRONOUS_IO_NONALERT, &h, NULL);
	if (ret)
		return ret == -EINVAL ? -ENOENT : ret;
	entry_of(h, e);
	CloseHandle(h);
	return 0;
}

/* Delete name (a file, or with dir an empty directory) through a handle of its own. */
static int remove_name(struct os_dirh *d, const char *name, bool dir)
{
	FILE_DISPOSITION_INFO di = { .DeleteFile = TRUE };
	HANDLE h;
	int ret = nt_open(d->h, name, DELETE | FILE_READ_ATTRIBUTES | SYNCHRONIZE, FILE_OPEN,
			  (dir ? FILE_DIRECTORY_FILE : FILE_NON_DIRECTORY_FILE) |
			  FILE_SYNCHRONOUS_IO_NONALERT, &h, NULL);

	if (ret)
		return ret;
	if (!SetFileInformationByHandle(h, FileDispositionInfo, &di, sizeof(di)))
		ret = last_err();
	CloseHandle(h);
	return ret;
}

int os_dirh_unlink(struct os_dirh *d, const char *name)
{
	return remove_name(d, name, false);
}

int os_dirh_rmdir(struct os_dirh *d, const char *name)
{
	return remove_name(d, name, true);
}

int os_dirh_remove_file(struct os_dirh *d, const char *name, uint64_t ino)
{
	FILE_DISPOSITION_INFO di = { .DeleteFile = TRUE };
	FILE_END_OF_FILE_INFO eof = { .EndOfFile.QuadPart = 0 };
	struct os_id id = { 0, 0 };
	HANDLE h;
	int ret = nt_open(d->h, name, DELETE | GENERIC_READ | GENERIC_WRITE | SYNCHRONIZE,
			  FILE_OPEN, FILE_NON_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT, &h,
			  NULL);

	if (ret)
		return ret == -EINVAL ? -ESTALE : ret;
	if (is_reparse(h, NULL) || GetFileType(h) != FILE_TYPE_DISK)
		ret = -ESTALE;
	else if (!(ret = handle_id(h, &id)) && id.ino != ino)
		ret = -ESTALE;
	if (!ret && !SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof(eof)))
		ret = last_err();
	if (!ret && !SetFileInformationByHandle(h, FileDispositionInfo, &di, sizeof(di)))
		ret = last_err();
	CloseHandle(h);
	return ret;
}

/* from becomes to inside d; an existing to is replaced only with replace. */
static int rename_in(struct os_dirh *d, const char *from, const char *to, bool replace)
{
	wchar_t *wto = plain_name(to) ? os_widen(to) : NULL;
	size_t len = wto ? wcslen(wto) * sizeof(wchar_t) : 0;
	FILE_RENAME_INFORMATION *ri;
	IO_STATUS_BLOCK io;
	NTSTATUS st;
	HANDLE h;
	int ret;

	if (!wto)
		return -EINVAL;
	ret = nt_open(d->h, from, DELETE | SYNCHRONIZE, FILE_OPEN, FILE_SYNCHRONOUS_IO_NONALERT,
		      &h, NULL);
	if (ret) {
		free(wto);
		return ret;
	}
	/*
	 * The new name relative to the directory's handle (RootDirectory).  NtSetInformationFile
	 * itself: SetFileInformationByHandle(FileRenameInfo) takes the name through the DOS path
	 * rules on some systems (Wine makes it absolute, against the current directory).
	 */
	ri = xcalloc(1, sizeof(*ri) + len);
	ri->ReplaceIfExists = replace;
	ri->RootDirectory = d->h;
	ri->FileNameLength = (ULONG)len;
	memcpy(ri->FileName, wto, len);
	st = NtSetInformationFile(h, &io, ri, (ULONG)(sizeof(*ri) + len), FileRenameInformation);
	if (!NT_SUCCESS(st))
		ret = os_errno_from_win(RtlNtStatusToDosError(st));
	CloseHandle(h);
	free(ri);
	free(wto);
	return ret;
}

int os_dirh_rename(struct os_dirh *d, const char *from, const char *to)
{
	return rename_in(d, from, to, true);
}

int os_dirh_rename_new(struct os_dirh *d, const char *from, const char *to)
{
	return rename_in(d, from, to, false);
}

/* Every name of the directory behind h, read at once (the handle's scan restarted). */
static int read_names(HANDLE h, struct os_dir *dir)
{
	union {
		FILE_ID_BOTH_DIR_INFO info;
		char bytes[64 * 1024];
	} *buf = xmalloc(sizeof(*buf));
	FILE_INFO_BY_HANDLE_CLASS cls = FileIdBothDirectoryRestartInfo;
	size_t cap = 0;

	while (GetFileInformationByHandleEx(h, cls, buf, sizeof(*buf))) {
		const char *p = buf->bytes;

		cls = FileIdBothDirectoryInfo;
		for (;;) {
			const FILE_ID_BOTH_DIR_INFO *e = (const FILE_ID_BOTH_DIR_INFO *)p;
			size_t n = e->FileNameLength / sizeof(wchar_t);
			wchar_t *w = xcalloc(n + 1, sizeof(wchar_t));
			char *name;

			memcpy(w, e->FileName, n * sizeof(wchar_t));
			name = wcscmp(w, L".") && wcscmp(w, L"..") ? os_narrow(w) : NULL;
			free(w);
			if (name) {
				if (dir->n == cap) {
					cap = cap ? 2 * cap : 16;
					dir->names = xrealloc(dir->names, cap * sizeof(char *));
				}
				dir->names[dir->n++] = name;
			}
			if (!e->NextEntryOffset)
				break;
			p += e->NextEntryOffset;
		}
	}
	free(buf);
	return GetLastError() == ERROR_NO_MORE_FILES ? 0 : last_err();
}

int os_dirh_list(struct os_dirh *d, struct os_dir **out)
{
	struct os_dir *dir = xcalloc(1, sizeof(*dir));
	int ret = read_names(d->h, dir);

	if (!dir->names)
		dir->names = xcalloc(1, sizeof(char *)); /* marks a listing by handle */
	if (ret) {
		os_closedir(dir);
		return ret;
	}
	*out = dir;
	return 0;
}

int os_dirh_sync(struct os_dirh *d)
{
	(void)d; /* no directory fsync on Windows: creations and renames are the volume's */
	return 0;
}
