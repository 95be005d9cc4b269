/*
 * The call the hmac_signer plugin signs with, OpenSSL's HMAC(EVP_sha256(), …), against all seven
 * RFC 4231 HMAC-SHA256 test cases.
 * cc -std=c99 test_hmac_sha256.c -lcrypto
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures;

/* Checks an HMAC; `truncate` bytes of the MAC when non-zero (RFC 4231 case 5). */
static void expect_hmac(const char *name, const void *key, size_t key_length, const void *data, size_t data_length,
                        size_t truncate, const char *want)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_length = 0;
    char hex[2 * EVP_MAX_MD_SIZE + 1] = "";
    if (HMAC(EVP_sha256(), key, (int)key_length, data, data_length, mac, &mac_length) == NULL || mac_length != 32) {
        fprintf(stderr, "%s: HMAC failed or gave %u bytes\n", name, mac_length);
        failures++;
        return;
    }
    size_t shown = truncate ? truncate : mac_length;
    for (size_t i = 0; i < shown; i++) {
        snprintf(hex + 2 * i, 3, "%02x", mac[i]);
    }
    if (strcmp(hex, want) != 0) {
        fprintf(stderr, "%s: got %s, want %s\n", name, hex, want);
        failures++;
    }
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
    rfc4231_vectors();
    printf("test_hmac_sha256: %d vectors failed\n", failures);
    return failures == 0 ? 0 : 1;
}
