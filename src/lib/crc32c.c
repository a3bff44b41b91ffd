// SPDX-License-Identifier: MIT
/* crc32c.c: CRC-32C through ISA-L (the page checksums of the database files). */
#include "lib/crc32c.h"

#include <isa-l/crc.h>

uint32_t crc32c(uint32_t seed, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* crc32_iscsi takes an int length (and a non-const buffer it does not write) */
	while (len) {
		int n = len > (1U << 30) ? 1 << 30 : (int)len;

		seed = crc32_iscsi((unsigned char *)p, n, seed);
		p += n;
		len -= (size_t)n;
	}
	return seed;
}
