// SPDX-License-Identifier: MIT
/* wall.c: the wall clock and absolute sleeps on it (os.h), for both systems: what several
 * hosts agree on when they start a load together (fslab run --start-at). */
#include "os/os.h"

#include <errno.h>
#include <time.h>

#include "lib/base.h"

#ifdef _WIN32
#include <windows.h>

/* FILETIME counts 100 ns from 1601-01-01; 11644473600 s separate it from 1970 */
#define FILETIME_EPOCH_DIFF 116444736000000000LL

int64_t os_wall_ns(void)
{
	FILETIME ft;
	ULARGE_INTEGER u;

	GetSystemTimePreciseAsFileTime(&ft);
	u.LowPart = ft.dwLowDateTime;
	u.HighPart = ft.dwHighDateTime;
	return ((int64_t)u.QuadPart - FILETIME_EPOCH_DIFF) * 100;
}

/*
 * Windows' waitable timers take absolute times only at the plain timer's ~15.6 ms
 * granularity: the high-resolution monotonic sleep (sleep_until_ns) to what is left of the
 * wall-clock deadline, one second at most, so a clock step is followed within a second.
 */
int os_sleep_until_wall_ns(int64_t t_ns)
{
	int64_t left = t_ns - os_wall_ns();

	if (left <= 0)
		return 0;
	return sleep_until_ns(now_ns() + (uint64_t)MIN(left, (int64_t)NSEC_PER_SEC));
}
#else
int64_t os_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * (int64_t)NSEC_PER_SEC + ts.tv_nsec;
}

int os_sleep_until_wall_ns(int64_t t_ns)
{
	struct timespec ts;

	if (t_ns <= 0)
		return 0;
	ts.tv_sec = (time_t)(t_ns / (int64_t)NSEC_PER_SEC);
	ts.tv_nsec = (long)(t_ns % (int64_t)NSEC_PER_SEC);
	/* absolute on CLOCK_REALTIME: the kernel wakes it at t_ns even if the clock is set */
	return -clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
}
#endif
