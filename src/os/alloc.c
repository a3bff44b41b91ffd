// SPDX-License-Identifier: MIT
/* alloc.c: aligned buffers that cannot fail, on either system's os_alloc_aligned(). */
#include "os/os.h"

#include "lib/base.h"

void *xmalloc_aligned(size_t n)
{
	void *p = os_alloc_aligned(4096, n);

	if (!p)
		die_oom(n);
	return p;
}

void free_aligned(void *p)
{
	os_free_aligned(p);
}
