// SPDX-License-Identifier: MIT
/* scratch.c: fslab's scratch files, known by the header fslab wrote in them (scratch.h). */
#include "os/scratch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"

/* The header text for the file of identity id, in buf (SCRATCH_HDR bytes, zero-padded). */
static void header(char *buf, const struct os_id *id)
{
	memset(buf, 0, SCRATCH_HDR);
	/* the inode (file index) alone: a copy in the same directory has another one, while the
	 * device number of a volume may change between mounts */
	snprintf(buf, SCRATCH_HDR, "%sfile %" PRIu64 "\n", SCRATCH_MAGIC, id->ino);
}

int scratch_create(struct os_dirh *d, const char *name, unsigned int flags, struct os_file **out)
{
	char *buf = xmalloc_aligned(SCRATCH_HDR);
	struct os_id id;
	ssize_t n;
	int ret = os_dirh_open_file(d, name, flags | OS_CREATE | OS_RDWR, out);

	if (ret) {
		free_aligned(buf);
		return ret;
	}
	ret = os_file_id(*out, &id);
	if (!ret) {
		header(buf, &id);
		n = os_pwrite(*out, buf, SCRATCH_HDR, 0);
		ret = n == SCRATCH_HDR ? 0 : n < 0 ? (int)n : -EIO;
	}
	free_aligned(buf);
	if (ret) {
		os_close(*out);
		*out = NULL;
		(void)os_dirh_unlink(d, name); /* ours: created exclusively a moment ago */
	}
	return ret;
}

bool scratch_is_ours(struct os_dirh *d, const char *name)
{
	char *want = xmalloc_aligned(SCRATCH_HDR), *got = xmalloc_aligned(SCRATCH_HDR);
	struct os_file *f;
	struct os_id id;
	bool ours = false;

	if (!os_dirh_open_file(d, name, OS_RDONLY, &f)) {
		if (!os_file_id(f, &id) && os_pread(f, got, SCRATCH_HDR, 0) == SCRATCH_HDR) {
			header(want, &id);
			ours = !memcmp(got, want, SCRATCH_HDR);
		}
		os_close(f);
	}
	free_aligned(want);
	free_aligned(got);
	return ours;
}
