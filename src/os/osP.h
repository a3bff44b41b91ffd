/* SPDX-License-Identifier: MIT */
/* osP.h: the platform layer's private part: what an open file is, for the I/O back ends. */
#ifndef FSLAB_OSP_H
#define FSLAB_OSP_H

#include "os/os.h"

#ifdef _WIN32
#include <windows.h>

struct os_file {
	HANDLE h;             /* opened FILE_FLAG_OVERLAPPED, never bound to a completion port */
	unsigned int flags;   /* OS_* */
	unsigned int sector;  /* bytes unbuffered I/O must be a multiple of */
};

/* A directory listing: FindFirstFileW's, or (os_dirh_list) every name read at once. */
struct os_dir {
	HANDLE h;
	WIN32_FIND_DATAW fd;
	bool first, end;
	char *name;
	char **names;
	size_t n, i;
};

/* Sector size for unbuffered I/O on the volume of h (FILE_STORAGE_INFO), or 512. */
unsigned int os_handle_sector(HANDLE h);

/* UTF-8 to a wide string (heap, caller frees), or NULL (errno EINVAL). */
wchar_t *os_widen(const char *utf8);
/* A wide string to UTF-8 (heap, caller frees), or NULL. */
char *os_narrow(const wchar_t *w);
/* A Win32 error code as -errno (ERROR_FILE_NOT_FOUND -> -ENOENT, ...). */
int os_errno_from_win(DWORD err);

/* The calling thread's last Win32 error as -errno. */
static inline int last_err(void)
{
	return os_errno_from_win(GetLastError());
}

/* win32_stop.c: set by a stop request (console control event, the end of stdin); sleeps
 * (win32.c) and waits for child processes (win32_proc.c) end at once when it is set. */
extern HANDLE stop_event;
#else
#include <dirent.h>
#include <sys/types.h>

struct os_file {
	int fd;
	unsigned int flags;
};

struct os_dir {
	DIR *d;
};

/* OS_KIND_* of a st_mode. */
int os_kind_of_mode(mode_t m);
#endif

#endif
