/* SPDX-License-Identifier: MIT */
/* fuzz.h: what the libFuzzer targets share: quiet messages, input as a NUL-terminated string
 * or as a file. */
#ifndef FSLAB_FUZZ_H
#define FSLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* fslab's messages (one line per bad input) would flood the fuzzer's output: drop them.
 * libFuzzer and the sanitizers report through their own stream and write(2). */
static inline void fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
}

/* The input as a NUL-terminated heap string (caller frees). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* The input as a file: a memfd named by its /proc path in path[] (len >= 32).  Returns the fd
 * (close it after use), or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fslab-fuzz", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
