/*
 * The SHA-256 and HMAC-SHA256 code of the hmac_signer plugin against published vectors:
 * FIPS 180-4 examples (via NIST's SHA examples) and all seven RFC 4231 HMAC-SHA256 cases.
 * Needs no library: cc -std=c99 -I Examples/plugins test_sha256.c Examples/plugins/sha256.c
 */
#include <stdio.h>
#include <string.h>

#include "sha256.h"

static int failures;

static void expect_hex(const char *name, const uint8_t *bytes, size_t length, const char *want)
{
    char hex[2 * SHA256_DIGEST_LENGTH + 1];
    sha256_hex(bytes, length, hex);
    if (strcmp(hex, want) != 0) {
        fprintf(stderr, "%s: got %s, want %s\n", name, hex, want);
        failures++;
    }
}

static void expect_sha256(const char *name, const char *message, const char *want)
{
    uint8_t digest[SHA256_DIGEST_LENGTH];
    sha256(message, strlen(message), digest);
    expect_hex(name, digest, sizeof digest, want);
}

/* Checks an HMAC; `truncate` bytes of the MAC when non-zero (RFC 4231 case 5). */
static void expect_hmac(const char *name, const void *key, size_t key_length, const void *data, size_t data_length,
                        size_t truncate, const char *want)
{
    uint8_t mac[SHA256_DIGEST_LENGTH];
    hmac_sha256_context context;
    hmac_sha256_init(&context, key, key_length);
    hmac_sha256_update(&context, data, data_length);
    hmac_sha256_final(&context, mac);
    expect_hex(name, mac, truncate ? truncate : sizeof mac, want);
}

static void sha256_vectors(void)
{
    expect_sha256("empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_sha256("abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect_sha256("two blocks", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

    /* One million 'a', fed in uneven pieces to exercise the block buffering. */
    static char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    sha256_context context;
    uint8_t digest[SHA256_DIGEST_LENGTH];
    size_t left = 1000000;
    sha256_init(&context);
    while (left > 0) {
        size_t take = left < sizeof chunk ? left : sizeof chunk;
        sha256_update(&context, chunk, take);
        left -= take;
    }
    sha256_final(&context, digest);
    expect_hex("million a", digest, sizeof digest, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void rfc4231_vectors(void)
{
    uint8_t key[131];
    uint8_t data[50];

    memset(key, 0x0b, 20);
    expect_hmac("RFC 4231 case 1", key, 20, "Hi There", 8, 0,
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");

    expect_hmac("RFC 4231 case 2", "Jefe", 4, "what do ya want for nothing?", 28, 0,
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");

    memset(key, 0xaa, 20);
    memset(data, 0xdd, 50);
    expect_hmac("RFC 4231 case 3", key, 20, data, 50, 0,
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");

    for (int i = 0; i < 25; i++) {
        key[i] = (uint8_t)(i + 1);
    }
    memset(data, 0xcd, 50);
    expect_hmac("RFC 4231 case 4", key, 25, data, 50, 0,
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");

    memset(key, 0x0c, 20);
    expect_hmac("RFC 4231 case 5", key, 20, "Test With Truncation", 20, 16, "a3b6167473100ee06e0c796c2955552b");

    memset(key, 0xaa, 131);
    const char *case6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    expect_hmac("RFC 4231 case 6", key, 131, case6, strlen(case6), 0,
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");

    const char *case7 = "This is a test using a larger than block-size key and a larger than block-size data. "
                        "The key needs to be hashed before being used by the HMAC algorithm.";
    expect_hmac("RFC 4231 case 7", key, 131, case7, strlen(case7), 0,
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

int main(void)
{
    sha256_vectors();
    rfc4231_vectors();
    printf("test_sha256: %d vectors failed\n", failures);
    return failures == 0 ? 0 : 1;
}
