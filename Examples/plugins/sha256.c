/*
 * sha256.c: SHA-256 as specified in FIPS 180-4, sections 4.1.2, 4.2.2, 5.1.1, 5.3.3 and 6.2,
 * and HMAC over it as in RFC 2104. Verified against the RFC 4231 vectors by
 * Tests/CAPITests/c/test_sha256.c.
 */
#include "sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes (4.2.2). */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
static uint32_t ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
static uint32_t maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
static uint32_t big_sigma0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
static uint32_t big_sigma1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
static uint32_t small_sigma0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
static uint32_t small_sigma1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

/* Processes one 512-bit block (6.2.2, steps 1-4). */
static void compress(uint32_t state[8], const uint8_t block[SHA256_BLOCK_LENGTH])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++) {
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 | (uint32_t)block[4 * t + 2] << 8
            | (uint32_t)block[4 * t + 3];
    }
    for (int t = 16; t < 64; t++) {
        w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = h + big_sigma1(e) + ch(e, f, g) + round_constants[t] + w[t];
        uint32_t t2 = big_sigma0(a) + maj(a, b, c);
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void sha256_init(sha256_context *context)
{
    static const uint32_t initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(context->state, initial, sizeof initial);
    context->bit_count = 0;
    context->block_used = 0;
}

void sha256_update(sha256_context *context, const void *data, size_t length)
{
    const uint8_t *bytes = data;
    context->bit_count += (uint64_t)length * 8;
    while (length > 0) {
        size_t take = SHA256_BLOCK_LENGTH - context->block_used;
        if (take > length) {
            take = length;
        }
        memcpy(context->block + context->block_used, bytes, take);
        context->block_used += take;
        bytes += take;
        length -= take;
        if (context->block_used == SHA256_BLOCK_LENGTH) {
            compress(context->state, context->block);
            context->block_used = 0;
        }
    }
}

void sha256_final(sha256_context *context, uint8_t digest[SHA256_DIGEST_LENGTH])
{
    uint64_t bits = context->bit_count;
    context->block[context->block_used++] = 0x80;
    if (context->block_used > SHA256_BLOCK_LENGTH - 8) {
        memset(context->block + context->block_used, 0, SHA256_BLOCK_LENGTH - context->block_used);
        compress(context->state, context->block);
        context->block_used = 0;
    }
    memset(context->block + context->block_used, 0, SHA256_BLOCK_LENGTH - 8 - context->block_used);
    for (int i = 0; i < 8; i++) {
        context->block[SHA256_BLOCK_LENGTH - 1 - i] = (uint8_t)(bits >> (8 * i));
    }
    compress(context->state, context->block);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(context->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(context->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(context->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)context->state[i];
    }
    memset(context, 0, sizeof *context);
}

void sha256(const void *data, size_t length, uint8_t digest[SHA256_DIGEST_LENGTH])
{
    sha256_context context;
    sha256_init(&context);
    sha256_update(&context, data, length);
    sha256_final(&context, digest);
}

void hmac_sha256_init(hmac_sha256_context *context, const void *key, size_t key_length)
{
    uint8_t block_key[SHA256_BLOCK_LENGTH] = {0};
    uint8_t inner_key[SHA256_BLOCK_LENGTH];
    if (key_length > SHA256_BLOCK_LENGTH) {
        sha256(key, key_length, block_key);
    } else if (key_length > 0) {
        memcpy(block_key, key, key_length);
    }
    for (int i = 0; i < SHA256_BLOCK_LENGTH; i++) {
        inner_key[i] = block_key[i] ^ 0x36;
        context->outer_key[i] = block_key[i] ^ 0x5c;
    }
    sha256_init(&context->inner);
    sha256_update(&context->inner, inner_key, sizeof inner_key);
    memset(block_key, 0, sizeof block_key);
    memset(inner_key, 0, sizeof inner_key);
}

void hmac_sha256_update(hmac_sha256_context *context, const void *data, size_t length)
{
    sha256_update(&context->inner, data, length);
}

void hmac_sha256_final(hmac_sha256_context *context, uint8_t mac[SHA256_DIGEST_LENGTH])
{
    uint8_t inner_digest[SHA256_DIGEST_LENGTH];
    sha256_context outer;
    sha256_final(&context->inner, inner_digest);
    sha256_init(&outer);
    sha256_update(&outer, context->outer_key, sizeof context->outer_key);
    sha256_update(&outer, inner_digest, sizeof inner_digest);
    sha256_final(&outer, mac);
    memset(inner_digest, 0, sizeof inner_digest);
    memset(context, 0, sizeof *context);
}

void sha256_hex(const uint8_t *bytes, size_t length, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        hex[2 * i] = digits[bytes[i] >> 4];
        hex[2 * i + 1] = digits[bytes[i] & 0x0f];
    }
    hex[2 * length] = '\0';
}
