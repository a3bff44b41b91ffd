// SPDX-License-Identifier: MIT
/* sampler_win32.c: the sampler's readers on Windows (GetSystemTimes, GlobalMemoryStatusEx); the
 * environment from RtlGetVersion and the registry (Wine is detected and named). */
#include "platform/samplerP.h"

#include <windows.h>
#include <psapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/os.h"
#include "os/osP.h"

static uint64_t ft(FILETIME f)
{
	return (uint64_t)f.dwHighDateTime << 32 | f.dwLowDateTime;
}

/* v: total, idle, user, system (kernel minus idle), iowait (none on Windows: 0); 100 ns. */
int sampler_read_cpu(uint64_t v[5])
{
	FILETIME idle, kernel, user;

	if (!GetSystemTimes(&idle, &kernel, &user))
		return -1;
	v[1] = ft(idle);
	v[2] = ft(user);
	v[3] = ft(kernel) - ft(idle); /* kernel time includes the idle time */
	v[4] = 0;
	v[0] = ft(kernel) + ft(user);
	return 0;
}

void sampler_read_mem(uint64_t *total, uint64_t *used)
{
	MEMORYSTATUSEX m = { .dwLength = sizeof(m) };

	*total = *used = 0;
	if (!GlobalMemoryStatusEx(&m))
		return;
	*total = m.ullTotalPhys;
	*used = m.ullTotalPhys - m.ullAvailPhys;
}

/* The peak working set of this process, bytes. */
uint64_t sampler_peak_rss(void)
{
	PROCESS_MEMORY_COUNTERS pmc = { .cb = sizeof(pmc) };

	if (GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof(pmc)))
		return pmc.PeakWorkingSetSize;
	return 0;
}

/* A REG_SZ value under HKEY_LOCAL_MACHINE as UTF-8 (heap), or NULL. */
static char *reg_string(const wchar_t *key, const wchar_t *name)
{
	wchar_t buf[512];
	DWORD len = sizeof(buf) - sizeof(wchar_t);

	if (RegGetValueW(HKEY_LOCAL_MACHINE, key, name, RRF_RT_REG_SZ, NULL, buf, &len))
		return NULL;
	buf[ARRAY_SIZE(buf) - 1] = 0;
	return os_narrow(buf);
}

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);
typedef const char *(CDECL *wine_get_version_fn)(void);

/* Wine's version when this runs under Wine (ntdll exports wine_get_version), else NULL. */
static const char *wine_version(void)
{
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");
	FARPROC p = nt ? GetProcAddress(nt, "wine_get_version") : NULL;
	wine_get_version_fn fn;

	if (!p)
		return NULL;
	memcpy(&fn, &p, sizeof(fn));
	return fn();
}

json_t *sampler_environment(void)
{
	static const wchar_t cur[] = L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
	OSVERSIONINFOW vi = { .dwOSVersionInfoSize = sizeof(vi) };
	HMODULE nt = GetModuleHandleW(L"ntdll.dll");
	FARPROC p = nt ? GetProcAddress(nt, "RtlGetVersion") : NULL;
	char *product = reg_string(cur, L"ProductName");
	char *display = reg_string(cur, L"DisplayVersion");
	char *cpu = reg_string(L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
			       L"ProcessorNameString");
	wchar_t hostw[256];
	DWORD hl = ARRAY_SIZE(hostw);
	char *host = NULL, *kernel, *os;
	const char *wine = wine_version();
	uint64_t total, used;
	json_t *o;

	/* GetVersionEx lies to programs without a manifest; RtlGetVersion does not */
	if (p) {
		rtl_get_version_fn fn;

		memcpy(&fn, &p, sizeof(fn));
		fn(&vi);
	}
	if (GetComputerNameExW(ComputerNameDnsHostname, hostw, &hl))
		host = os_narrow(hostw);
	kernel = xasprintf("%lu.%lu.%lu", vi.dwMajorVersion, vi.dwMinorVersion, vi.dwBuildNumber);
	os = xasprintf("%s%s%s (build %lu)%s%s", product ? product : "Windows",
		       display ? " " : "", display ? display : "", vi.dwBuildNumber,
		       wine ? ", under Wine " : "", wine ? wine : "");
	sampler_read_mem(&total, &used);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:s, s:s}",
		      "platform", "windows", "hostname", host ? host : "", "kernel", kernel,
		      "kernel_version", kernel, "os", os, "cpu_model", cpu ? cpu : "",
		      "ncpus", os_ncpus(), "mem_total", (json_int_t)total,
		      "fslab_version", fslab_version, "fslab_git", fslab_git);
	json_object_set_new(o, "fslab_git_describe", json_string(fslab_git_describe));
	json_object_set_new(o, "wine", wine ? json_string(wine) : json_null());
	free(product);
	free(display);
	free(cpu);
	free(host);
	free(kernel);
	free(os);
	return o;
}
