/* SPDX-License-Identifier: MIT */
/*
 * os.h: the platform layer: what fslab asks of the operating system outside the Linux-only
 * parts (prep, lab, io_uring, libblkid/libmount): time and sleeps, aligned memory, files for
 * the engine, renames, stop requests, processes.  src/os/posix.c or src/os/win32.c implements
 * it (the Makefile picks one); nothing above it calls POSIX or Win32 file or time functions
 * directly.  Paths are UTF-8 everywhere; win32.c converts them to wide strings.
 */
#ifndef FSLAB_OS_H
#define FSLAB_OS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- time ---- */

/* Monotonic clock in ns (CLOCK_MONOTONIC; QueryPerformanceCounter on Windows). */
uint64_t now_ns(void);
/*
 * sleep_until_ns - sleep until the monotonic clock reaches t_ns (absolute, so a loop of
 * them does not drift).  Returns 0, or -EINTR when a signal handler ran (callers that poll a
 * stop flag want to see it at once).  Windows: a high-resolution waitable timer.
 */
int sleep_until_ns(uint64_t t_ns);
/*
 * The wall clock (src/os/wall.c): os_wall_ns() is UTC in ns since 1970 (CLOCK_REALTIME;
 * GetSystemTimePreciseAsFileTime), for times other hosts must agree on (fslab run
 * --start-at, the lab's clock offsets).  os_sleep_until_wall_ns() sleeps until the wall clock
 * reaches t_ns: clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) on Linux, so a clock stepped
 * meanwhile (NTP) still wakes it at t_ns; on Windows the monotonic sleep to what is left, at
 * most 1 s at a time, so a step is seen within a second.  0, or -EINTR when a stop request
 * came (callers loop and check their stop flag).
 */
int64_t os_wall_ns(void);
int os_sleep_until_wall_ns(int64_t t_ns);

/* ---- memory ---- */

/* n bytes aligned to align (a power of two, >= sizeof(void *)), or NULL.  Free with
 * os_free_aligned() only (Windows' _aligned_malloc needs its own free). */
void *os_alloc_aligned(size_t align, size_t n);
void os_free_aligned(void *p);
/* Page-aligned (4 KiB) buffer for O_DIRECT / FILE_FLAG_NO_BUFFERING that cannot fail (out of
 * memory: die_oom()); free with free_aligned() (never free(): Windows' aligned allocations
 * have their own free).  Both systems: os/alloc.c. */
void *xmalloc_aligned(size_t n);
void free_aligned(void *p);

/* ---- files for the engine ---- */

/*
 * Open flags.  OS_DIRECT: no page cache (O_DIRECT; FILE_FLAG_NO_BUFFERING): buffers, offsets
 * and lengths must then be sector multiples.  OS_WRITE_THROUGH: a write returns when it is
 * stable (O_DSYNC; FILE_FLAG_WRITE_THROUGH), as ESE opens its files.  On Windows every file
 * is also opened FILE_FLAG_OVERLAPPED so the win32 back end can keep I/Os in flight.
 */
enum {
	OS_RDONLY = 0,
	OS_RDWR = 1 << 0,
	OS_CREATE = 1 << 1,        /* create when missing */
	OS_TRUNC = 1 << 2,         /* truncate an existing file */
	OS_DIRECT = 1 << 3,
	OS_WRITE_THROUGH = 1 << 4,
	OS_DIR = 1 << 5,           /* a directory, for os_file_sync() (log rolls) */
};

/* What OS_DIRECT is called here, for summaries. */
#ifdef _WIN32
#define OS_DIRECT_NAME "FILE_FLAG_NO_BUFFERING"
#else
#define OS_DIRECT_NAME "O_DIRECT"
#endif

/* An open file: an fd on POSIX, a HANDLE on Windows (src/os/osP.h). */
struct os_file;

/* os_open - open (or create, mode 0644) path with OS_* flags into *out.  0 or -errno. */
int os_open(const char *path, unsigned int flags, struct os_file **out)
	__attribute__((warn_unused_result));
/* Close and free f (NULL is a no-op).  0 or -errno. */
int os_close(struct os_file *f);
/* Positional I/O of up to len bytes at off: bytes transferred (0 at the end of the file for
 * a read) or -errno.  Thread-safe on one file; short transfers are the caller's to continue. */
ssize_t os_pread(struct os_file *f, void *buf, size_t len, uint64_t off);
ssize_t os_pwrite(struct os_file *f, const void *buf, size_t len, uint64_t off);
/* os_pread_nowait - os_pread() that must not block (Linux: preadv2 with RWF_NOWAIT): bytes,
 * -EAGAIN (it would have blocked), -EOPNOTSUPP (the file cannot start I/O without
 * blocking: tmpfs, FUSE), or -ENOSYS where the system has no such read (Windows). */
ssize_t os_pread_nowait(struct os_file *f, void *buf, size_t len, uint64_t off);
/* Make written data and metadata stable (fsync; FlushFileBuffers).  0 or -errno. */
int os_file_sync(struct os_file *f);
/* The data (and the metadata needed to read it back) stable (fdatasync; FlushFileBuffers). */
int os_file_datasync(struct os_file *f);
/* Reserve size bytes for the file (fallocate; the end of file on Windows).  0, -EOPNOTSUPP
 * when the filesystem cannot, or -errno. */
int os_file_allocate(struct os_file *f, uint64_t size);
/* The file's size in bytes.  0 or -errno. */
int os_file_size(struct os_file *f, uint64_t *size);
/* Sector size the file's unbuffered I/O must be a multiple of (512 when unknown). */
unsigned int os_file_sector(struct os_file *f);
#ifndef _WIN32
/* The descriptor behind f, for POSIX back ends (io_uring, psync). */
int os_file_fd(const struct os_file *f);
#endif

/* ---- names ---- */

/* rename from over to, replacing it (MoveFileExW REPLACE_EXISTING|WRITE_THROUGH).  0/-errno. */
int os_rename_replace(const char *from, const char *to);
int os_unlink(const char *path);
/* mkdir with mode (ignored on Windows); an existing directory is -EEXIST. */
int os_mkdir(const char *path, unsigned int mode);
/* Remove an empty directory (rmdir; RemoveDirectoryW).  0 or -errno. */
int os_rmdir(const char *path);
/*
 * os_dir_sync - make renames and creations in dir stable (fsync of the directory).  Windows
 * has no directory fsync; MoveFileExW(WRITE_THROUGH) made the rename stable already: 0.
 */
int os_dir_sync(const char *dir);
/* fopen with a UTF-8 path (and "e"/close-on-exec where it exists). */
FILE *os_fopen(const char *path, const char *mode);
/*
 * os_fopen_regular - path opened for reading, only when it is a regular file: opened without
 * blocking (a FIFO's open waits for a writer) and checked on the open descriptor itself (no
 * race with a rename), so a FIFO or a device can neither hang nor flood the reader.  0 with
 * *f (fclose it), -errno, or -EINVAL with *kind (may be NULL) saying what the path is.
 */
int os_fopen_regular(const char *path, FILE **f, int *kind)
	__attribute__((warn_unused_result));
/* "a FIFO", "a directory", "a device", ... for messages about an OS_KIND_* */
const char *os_kind_name(int kind);
/* Make what was written to stream f stable (fsync of its descriptor).  0 or -errno. */
int os_stream_sync(FILE *f);
/*
 * A temporary file that will replace path atomically (files.h's atomic_open() and
 * write_file_atomic() are built on it): the one way fslab writes an output.  Only a regular
 * file is ever replaced: a path that is a directory, a device, a FIFO or a symbolic link (a
 * reparse point on Windows) is refused when the file is opened and again just before the
 * rename.  The temporary file is created exclusively and never through a symbolic link, so
 * that nothing planted at path or at a temporary name receives the data: POSIX: an unnamed
 * O_TMPFILE file in path's directory, or where the filesystem has none "NAME.tmp.PID" created
 * O_CREAT|O_EXCL|O_NOFOLLOW, both relative to a descriptor of the directory opened once;
 * commit links the unnamed file to a fresh temporary name (linkat, which never follows or
 * replaces) and renames that over NAME (renameat, in the same directory descriptor).
 * Windows: "NAME.tmp.PID" created CREATE_NEW (an existing name, a link included, fails),
 * then MoveFileExW.  The directory part of path is the caller's and is followed.
 *
 * os_tmpfile_open - *out and *f (write through f; both belong to *out).  0, -errno, or
 *   -EINVAL with *kind (OS_KIND_*) when path exists and is not a regular file.
 * os_tmpfile_name - a name another process (gnuplot) can open the file by, to write it:
 *   "/proc/PID/fd/N" (the open file itself, whatever happens to names), or the temporary
 *   path on Windows.
 * os_tmpfile_commit - flush, sync, give it path's name, sync the directory; frees t (and f).
 *   0, -errno, or -EINVAL with *kind when path became something else than a regular file
 *   meanwhile (the temporary file is gone then).
 * os_tmpfile_abort - remove it and free t (and f).
 */
struct os_tmpfile;
int os_tmpfile_open(const char *path, struct os_tmpfile **out, FILE **f, int *kind)
	__attribute__((warn_unused_result));
const char *os_tmpfile_name(const struct os_tmpfile *t);
int os_tmpfile_commit(struct os_tmpfile *t, int *kind);
void os_tmpfile_abort(struct os_tmpfile *t);
/* What a path is (os_stat; OS_KIND_LINK only from functions that do not follow links). */
enum { OS_KIND_FILE, OS_KIND_DIR, OS_KIND_BLOCK, OS_KIND_CHAR, OS_KIND_FIFO, OS_KIND_OTHER,
       OS_KIND_LINK };
/* os_lstat_kind - *kind of path itself, a final symbolic link (reparse point) not followed:
 * 0, or -ENOENT when nothing is there, or -errno. */
int os_lstat_kind(const char *path, int *kind);
/* os_stat - *kind of path and, for a regular file, its *size (either may be NULL).  0 or
 * -errno (-ENOENT when it does not exist). */
int os_stat(const char *path, int *kind, uint64_t *size);
/* May this process create files in dir?  0 or -errno (access(W_OK|X_OK); Windows: 0, a
 * refusal shows when the file is created). */
int os_dir_writable(const char *dir);
/* Is path a directory? */
bool os_is_dir(const char *path);
/* Is path itself a symbolic link (lstat; Windows: a reparse point: link or junction)? */
bool os_is_symlink(const char *path);
/*
 * os_dir_can_create - can a file be created in dir?  0 or -errno.  Root passes access(), a
 * read-only mount or a full quota does not: POSIX tries an unnamed O_TMPFILE file (access()
 * where the filesystem has none); Windows creates a delete-on-close file.  Nothing is left.
 */
int os_dir_can_create(const char *dir);
/* The canonical absolute path of an existing path, '/'-separated (realpath; Windows: the final
 * path of a handle to it, "\\?\" dropped and '\\' as '/'); heap, caller frees; NULL + errno. */
char *os_realpath(const char *path);
/* path made absolute without resolving links and without needing it to exist (the current
 * directory joined to a relative path; GetFullPathNameW, '\\'-separated, on Windows); heap. */
char *os_abs_path(const char *path);
/* Does name match the shell pattern (fnmatch without flags; PathMatchSpecA on Windows, which
 * ignores case as the filesystems there do)? */
bool os_fnmatch(const char *pattern, const char *name);
/* Bytes the filesystem allocated to the regular file path (st_blocks; GetCompressedFileSizeW),
 * 0 when it is not a regular file or cannot be told. */
uint64_t os_file_allocated(const char *path);
/* Identity of the file or directory at path (device and inode; volume serial and file index). */
struct os_id {
	uint64_t dev, ino;
};
int os_path_id(const char *path, struct os_id *id);
/*
 * os_lock_path - one holder at a time for a directory or device, with nothing created and
 * nothing stale after the holder dies (even by kill -9): flock(LOCK_EX | LOCK_NB) on the path
 * itself on POSIX; on Windows a named mutex for the path's os_id (the kernel drops it with
 * the process).  Returns the lock (>= 0; os_unlock() releases it), or -errno: -EWOULDBLOCK
 * when another process holds it, with *holder its pid (from /proc/locks; 0 when it cannot
 * be told, always on Windows).
 */
int os_lock_path(const char *path, long *holder) __attribute__((warn_unused_result));
void os_unlock(int lock);
/* strcasestr (StrStrIA on Windows, whose C library has none). */
char *os_strcasestr(const char *haystack, const char *needle);
/*
 * os_strptime_utc - strptime(s, fmt) read as UTC seconds (timegm), or -1 when s does not
 * match.  Windows has no strptime: there only the two formats of Jetstress reports are
 * known ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S"), read with sscanf, and _mkgmtime.
 */
int64_t os_strptime_utc(const char *s, const char *fmt);
/* UTF-16LE text (without its byte order mark) as UTF-8 (iconv; WideCharToMultiByte):
 * heap, NUL-terminated, length in *outlen; NULL when it does not convert. */
char *os_utf16le_to_utf8(const void *buf, size_t len, size_t *outlen);
/* Directory listing: os_opendir() 0 or -errno; os_readdir() the next name (".", ".."
 * skipped; valid until the next call) or NULL at the end. */
struct os_dir;
int os_opendir(const char *path, struct os_dir **out) __attribute__((warn_unused_result));
const char *os_readdir(struct os_dir *d);
void os_closedir(struct os_dir *d);

/*
 * ---- directories someone else may write (docs/DESIGN.md "Prepared directories") ----
 *
 * A directory the user prepared (run's --db and --log, selftest's --dir, a lab's db_dir and
 * log_dir) may be writable by other accounts while fslab works there as root or Administrator.
 * Nothing in it is looked up by path twice: the directory is opened once (O_DIRECTORY |
 * O_NOFOLLOW; FILE_FLAG_OPEN_REPARSE_POINT, a reparse point refused) and every name in it is
 * created, inspected, renamed and deleted relative to that handle without following a link
 * (openat, fstatat, unlinkat, renameat with AT_SYMLINK_NOFOLLOW / O_NOFOLLOW; NtCreateFile
 * with a RootDirectory and FILE_OPEN_REPARSE_POINT, FILE_DISPOSITION_INFO and FILE_RENAME_INFO
 * by handle on Windows).  Every create is exclusive: a name someone planted meanwhile (a file,
 * a link) makes it fail (-EEXIST), never write through.
 */
struct os_dirh;
/* What these functions and their callers say of a name that holds another file than the one
 * looked at, or is a link, where the C library has no such code (mingw): Linux's values. */
#ifndef ESTALE
#define ESTALE 116
#endif
#ifndef ELOOP
#define ELOOP 40
#endif
/*
 * os_dirh_open - open the directory path once.  The path is the caller's (the user named it):
 * it is resolved once (its links followed), and the directory it resolves to is opened without
 * following a link: a directory exchanged for a link in between is refused (-ELOOP).  0 or
 * -errno (-ENOTDIR when it is not a directory).
 */
int os_dirh_open(const char *path, struct os_dirh **out) __attribute__((warn_unused_result));
/*
 * os_dirh_sub - the subdirectory name of d: created first (mode 0755) when create and missing,
 * then opened without following a link (mkdirat + openat(O_DIRECTORY | O_NOFOLLOW); on Windows
 * one NtCreateFile, FILE_OPEN_IF).  *created says whether this call made it (may be NULL).
 * 0, or -ELOOP (a link), -ENOTDIR (not a directory), -ENOENT (missing, !create), -errno.
 */
int os_dirh_sub(struct os_dirh *d, const char *name, bool create, bool *created,
		struct os_dirh **out) __attribute__((warn_unused_result));
/* Close d (NULL is a no-op). */
void os_dirh_close(struct os_dirh *d);
/* The path d was opened by (the parent's path joined to its name for a subdirectory): for
 * messages only, never to reach the directory again. */
const char *os_dirh_path(const struct os_dirh *d);
/* Identity of the directory itself (device and inode; volume serial and file index). */
int os_dirh_id(const struct os_dirh *d, struct os_id *id);
/*
 * os_dirh_open_file - name in d as an os_file (OS_* flags as os_open).  With OS_CREATE the
 * file is created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW; FILE_CREATE): an existing name
 * of any kind is -EEXIST; OS_TRUNC is not allowed.  Without it an existing regular file is
 * opened, never through a link (-ELOOP), and anything else than a regular file (a FIFO, a
 * device, a directory) is refused with -EINVAL before any I/O.  0 or -errno.
 */
int os_dirh_open_file(struct os_dirh *d, const char *name, unsigned int flags,
		      struct os_file **out) __attribute__((warn_unused_result));
/* What a name in a directory is, never following it (fstatat(AT_SYMLINK_NOFOLLOW)). */
struct os_entry {
	int kind;            /* OS_KIND_*, OS_KIND_LINK for a symbolic link or reparse point */
	uint64_t size;       /* bytes of a regular file */
	uint64_t allocated;  /* bytes the filesystem allocated to it (st_blocks) */
	struct os_id id;
	bool mine;           /* owned by the user fslab runs as (never on Windows: ACLs) */
};
/* os_dirh_stat - *e for name in d.  0, -ENOENT, or -errno. */
int os_dirh_stat(struct os_dirh *d, const char *name, struct os_entry *e)
	__attribute__((warn_unused_result));
/* Identity of an open file (fstat; the volume serial and file index on Windows).  0/-errno. */
int os_file_id(struct os_file *f, struct os_id *id);
/* Remove the name of a file (never a directory; a link itself, never its target), or of an
 * empty subdirectory, in d.  0 or -errno. */
int os_dirh_unlink(struct os_dirh *d, const char *name);
int os_dirh_rmdir(struct os_dirh *d, const char *name);
/*
 * os_dirh_remove_file - remove the regular file name in d if it is still the file ino (an
 * os_id.ino found before): opened without following anything and checked, emptied first
 * (its blocks free at once, even while another process's I/O still holds it: a run killed
 * with requests in flight), then its name removed (Windows: all through that one handle,
 * FILE_DISPOSITION_INFO).  0, -ENOENT, -ESTALE (another file, a link, not a regular file),
 * or -errno.
 */
int os_dirh_remove_file(struct os_dirh *d, const char *name, uint64_t ino);
/* Rename from to to inside d, replacing to (a link at to is replaced, never followed). */
int os_dirh_rename(struct os_dirh *d, const char *from, const char *to);
/*
 * os_dirh_rename_new - rename from to to inside d only while to is free: a name someone put
 * there (a file, a link) makes it -EEXIST and stays as it was (renameat2 RENAME_NOREPLACE, or
 * linkat then unlinkat on a filesystem without it; FILE_RENAME_INFORMATION without
 * ReplaceIfExists).  0 or -errno.
 */
int os_dirh_rename_new(struct os_dirh *d, const char *from, const char *to);
/* List d (os_readdir(), os_closedir()); d stays open and usable meanwhile.  0 or -errno. */
int os_dirh_list(struct os_dirh *d, struct os_dir **out) __attribute__((warn_unused_result));
/* Make creations, renames and deletions in d stable (fsync; nothing to do on Windows). */
int os_dirh_sync(struct os_dirh *d);
/* Directory of the running executable (heap, caller frees), or NULL. */
char *os_exe_dir(void);
/* Temporary directory: $TMPDIR or /tmp; GetTempPathW on Windows (heap, caller frees). */
char *os_tmp_dir(void);

/*
 * An in-memory stream: open_memstream on POSIX, a delete-on-close temporary file read back on
 * Windows.  os_memstream_done() closes the stream and leaves the text in *buf (NUL-terminated,
 * caller frees) and its length in *len; 0 or -errno.
 */
struct os_memstream {
	FILE *f;
	char **buf;
	size_t *len;
};
FILE *os_memstream_open(struct os_memstream *ms, char **buf, size_t *len);
int os_memstream_done(struct os_memstream *ms);

/* ---- stop requests ---- */

enum { OS_STOP_INT = 1, OS_STOP_TERM = 2, OS_STOP_HUP = 3, OS_STOP_PIPE = 4, OS_STOP_EOF = 5 };
/*
 * os_stop_handler_set - call fn(why) when the process is asked to stop: SIGINT, SIGTERM,
 * SIGHUP (its terminal or ssh session closed) and SIGPIPE (the reader of its output went, as
 * in `fslab run ... | head -1`; the write then fails with EPIPE instead of killing the
 * process) (sigaction, no SA_RESTART: sleeps return -EINTR); on Windows Ctrl-C, Ctrl-Break and
 * console close (SetConsoleCtrlHandler; fn runs on a thread of its own).  fn must only store
 * flags.  A SIGHUP or SIGPIPE ignored when this is called stays ignored (`nohup fslab run`
 * goes on after its terminal closes).  os_stop_handler_clear() restores what was there.
 */
void os_stop_handler_set(void (*fn)(int why));
void os_stop_handler_clear(void);
/* "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE"; "Ctrl-C", "Ctrl-Break or console close" on
 * Windows; "the end of standard input" (OS_STOP_EOF) on both. */
const char *os_stop_name(int why);
/*
 * os_stop_on_stdin_eof - from now on the end of standard input is a stop request, as Ctrl-C
 * is (the --stop-on-stdin-eof of run and prep: a parent that can reach the process only
 * through its standard streams, as over ssh or on Windows, stops it by closing its stdin;
 * docs/DESIGN.md "Step runner").  A thread reads stdin and throws away what it reads; at
 * EOF or a read error it calls the stop handler with OS_STOP_EOF (os_stop_handler_set) and
 * POSIX also sends the process SIGINT, so that blocking calls return EINTR and code with a
 * SIGINT handler of its own (prep) stops as on Ctrl-C; Windows sets the event sleeps wait
 * on.  Only for a stdin the parent holds open: the null device is EOF at once.  0 or -errno.
 */
int os_stop_on_stdin_eof(void);
/* Has the end of standard input been seen (after os_stop_on_stdin_eof())? */
bool os_stdin_eof_seen(void);

/* ---- processes and the host ---- */

/* run argv (no shell), wait, return its exit status (>= 0) or -errno.  With out != NULL,
 * stdout+stderr are captured into *out (heap, caller frees). */
int os_run(const char *const argv[], char **out) __attribute__((warn_unused_result));
/* Is name an executable in PATH (and /sbin, /usr/sbin)?  ".exe" is tried on Windows. */
bool os_have_program(const char *name);
unsigned long os_pid(void);
/* Running as root / as an elevated Administrator. */
bool os_is_admin(void);
/* Is stderr a terminal (the live progress line)? */
bool os_stderr_tty(void);
/* Is stdout a terminal (the lab's live line)?  Windows: a console, whose escape sequences
 * (\r, ESC[K) are then switched on (ENABLE_VIRTUAL_TERMINAL_PROCESSING). */
bool os_stdout_tty(void);
/* printf to a file descriptor (dprintf). */
#ifdef _WIN32
void os_fdprintf(int fd, const char *fmt, ...) __attribute__((format(gnu_printf, 2, 3)));
#else
void os_fdprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
/*
 * os_drop_caches - write back and drop the page cache so the load starts cold: sync and
 * /proc/sys/vm/drop_caches as root on Linux; Windows: false (unbuffered files bypass the
 * cache manager, so there is nothing of fslab's to drop).  True when the cache was dropped.
 */
bool os_drop_caches(void);
/* Number of online CPUs. */
int os_ncpus(void);
/* The running executable's full path (heap, caller frees): /proc/self/exe, GetModuleFileNameW;
 * NULL when it cannot be told. */
char *os_exe_path(void);

/* ---- child processes (the lab's steps: docs/DESIGN.md "Step runner") ---- */

/*
 * A child process whose standard streams the parent holds: stdout and stderr are pipes it
 * reads (os_proc_poll), stdin a pipe it can close (OS_PROC_STDIN_PIPE) or the null device.
 * Everything between the lab and a step travels over these three streams, since only they
 * survive ssh and exist on both systems: output and progress on stdout, messages on stderr,
 * "stop" as the end of stdin.
 */
struct os_proc;
enum {
	/* stdin is a pipe the parent closes with os_proc_close_stdin(): the child reads EOF
	 * (--stop-on-stdin-eof makes that its stop request); without it, the null device */
	OS_PROC_STDIN_PIPE = 1 << 0,
	/* its own process group (setpgid; CREATE_NEW_PROCESS_GROUP): a Ctrl-C on the terminal
	 * reaches the parent alone, which decides what it means */
	OS_PROC_OWN_GROUP = 1 << 1,
	/* dies with the parent, even when the parent is killed by SIGKILL or TerminateProcess:
	 * PR_SET_PDEATHSIG = SIGKILL; a job object of its own with KILL_ON_JOB_CLOSE, which takes
	 * the child's own children too (the parent's handle to it is the last one) */
	OS_PROC_DIE_WITH_PARENT = 1 << 2,
};
enum { OS_PROC_STDOUT = 1, OS_PROC_STDERR = 2 };
/* Called with what the child wrote on one stream, in pieces as they arrive (not lines). */
typedef void (*os_proc_output_fn)(void *ctx, int stream, const char *buf, size_t len);
/*
 * os_proc_spawn - start argv[0] (a path, or a name searched in PATH; ".exe" tried on
 * Windows) with argv, no shell.  0 or -errno (a program that cannot be started is -ENOENT
 * or the system's reason; on POSIX the exec fails in the child: exit status 127 and a line
 * on its stderr).
 */
int os_proc_spawn(const char *const argv[], unsigned int flags, struct os_proc **out)
	__attribute__((warn_unused_result));
/*
 * os_proc_poll - wait up to timeout_ms for output or the end of the child, handing its
 * output to fn.  Returns 1 once the child has exited and its output was read to the end (or
 * for 200 ms after its exit: a grandchild may hold the pipes), with *status its exit status
 * (128 + signal when a signal ended it on POSIX; OS_PROC_KILLED after os_proc_kill(); Windows
 * codes above 255 as 255); 0 while it runs (also when a signal cut the wait short); -errno.
 */
int os_proc_poll(struct os_proc *p, int timeout_ms, os_proc_output_fn fn, void *ctx,
		 int *status);
/*
 * os_proc_write - len bytes to the child's stdin (OS_PROC_STDIN_PIPE), blocking: what the lab
 * says to a helper that reads its stdin (fslab clock).  0, or -EPIPE when the child's stdin
 * is closed or it went (never a SIGPIPE: the parent's stop handler would take it for a stop
 * request), or -errno.
 */
int os_proc_write(struct os_proc *p, const void *buf, size_t len);
/* Close the child's stdin (OS_PROC_STDIN_PIPE): its graceful stop.  0 or -errno. */
int os_proc_close_stdin(struct os_proc *p);
/* Kill the child at once (and, with its own group or job, what it started): its hard stop.
 * 0 or -errno. */
int os_proc_kill(struct os_proc *p);
/* The status a killed child reports: 128 + SIGKILL, on both systems. */
#define OS_PROC_KILLED 137
long os_proc_pid(const struct os_proc *p);
/* Release p; a child still running is killed first and reaped. */
void os_proc_free(struct os_proc *p);

#endif
