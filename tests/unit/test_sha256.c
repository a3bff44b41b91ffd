// SPDX-License-Identifier: MIT
/* test_sha256.c: SHA-256 against the FIPS 180-4 examples and lengths around the block and
 * padding boundaries (references from Python's hashlib), one-shot equal to any split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sha256.h"

static void test_fips_examples(void **state)
{
	char hex[SHA256_HEX_LEN + 1];
	struct sha256 s;
	uint8_t d[SHA256_LEN], a[1000];

	(void)state;
	sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a', in pieces of 1000 */
	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sha256_update(&s, a, sizeof(a));
	sha256_final(&s, d);
	sha256_to_hex(d, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	assert_true(sha256_hex_valid(hex));
	assert_false(sha256_hex_valid("CDC76E5C9914FB9281A1C7E284D73E67F1809A48A497200E046D39CCC7112CD0"));
	assert_false(sha256_hex_valid("abc"));
}

/* Lengths at the padding edges (55: the length fits the last block; 56: it does not) */
static void test_boundaries_and_splits(void **state)
{
	static const struct {
		size_t n;
		const char *hex;
	} t[] = {
		{ 55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b" },
		{ 56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27" },
		{ 63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
		{ 64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
		{ 65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e" },
		{ 119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
		{ 120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5" },
		{ 1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371" },
	};
	uint8_t buf[1000], d[SHA256_LEN];
	char hex[SHA256_HEX_LEN + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		sha256_hex(buf, t[k].n, hex);
		assert_string_equal(hex, t[k].hex);
		/* every split point of the input gives the same digest */
		for (size_t cut = 0; cut <= t[k].n; cut += 1 + cut / 8) {
			struct sha256 s;

			sha256_init(&s);
			sha256_update(&s, buf, cut);
			sha256_update(&s, buf + cut, 0);
			sha256_update(&s, buf + cut, t[k].n - cut);
			sha256_final(&s, d);
			sha256_to_hex(d, hex);
			assert_string_equal(hex, t[k].hex);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_boundaries_and_splits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
