/* SPDX-License-Identifier: MIT */
/*
 * sha256.h: SHA-256 (FIPS 180-4), for the hash of a result file fetched from another host
 * (fslab cat-result, fslab merge's hosts[].sha256) and the lab's remote directory name.
 * None of fslab's chosen libraries has it (ISA-L's hashes are in isa-l_crypto, not Debian's
 * libisal; jansson, libxml2, libblkid, libmount, libext2fs, inih: none) and the kernel's
 * AF_ALG is not built into every kernel (not this lab machine's): so a small implementation
 * of the standard, checked against the FIPS 180-4 examples and coreutils' sha256sum
 * (tests/unit/test_sha256.c, t_lab_hosts.sh).  docs/HOSTS.md says why.
 */
#ifndef FSLAB_SHA256_H
#define FSLAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
#define SHA256_HEX_LEN 64

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;     /* message length so far */
	uint8_t buf[64];    /* a partial block */
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest into out; s must be initialised again before reuse. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);
/* The digest of data as 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);
/* Digest bytes as lowercase hex (64 digits and a NUL). */
void sha256_to_hex(const uint8_t d[SHA256_LEN], char hex[SHA256_HEX_LEN + 1]);
/* Is s 64 lowercase hex digits? */
int sha256_hex_valid(const char *s);

#endif
