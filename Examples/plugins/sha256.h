/*
 * sha256.h: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), small and dependency-free, so a
 * plugin can sign requests without linking a crypto library.
 */
#ifndef COURIER_EXAMPLE_SHA256_H
#define COURIER_EXAMPLE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LENGTH 32
#define SHA256_BLOCK_LENGTH 64

/** A hash in progress: feed it with sha256_update, finish it with sha256_final. */
typedef struct sha256_context {
    uint32_t state[8];
    uint64_t bit_count;
    uint8_t block[SHA256_BLOCK_LENGTH];
    size_t block_used;
} sha256_context;

/** Starts a hash with the initial hash value of FIPS 180-4 section 5.3.3. */
void sha256_init(sha256_context *context);

/** Adds `length` bytes of `data` to the hash. */
void sha256_update(sha256_context *context, const void *data, size_t length);

/** Pads the message (section 5.1.1), writes the 32-byte digest and wipes the context. */
void sha256_final(sha256_context *context, uint8_t digest[SHA256_DIGEST_LENGTH]);

/** The SHA-256 digest of one buffer. */
void sha256(const void *data, size_t length, uint8_t digest[SHA256_DIGEST_LENGTH]);

/** A keyed MAC in progress: HMAC-SHA256 with any key length (RFC 2104, FIPS 198-1). */
typedef struct hmac_sha256_context {
    sha256_context inner;
    uint8_t outer_key[SHA256_BLOCK_LENGTH];
} hmac_sha256_context;

/** Starts a MAC with `key`; a key longer than a block is hashed first. */
void hmac_sha256_init(hmac_sha256_context *context, const void *key, size_t key_length);

/** Adds `length` bytes of the message. */
void hmac_sha256_update(hmac_sha256_context *context, const void *data, size_t length);

/** Writes the 32-byte MAC and wipes the context. */
void hmac_sha256_final(hmac_sha256_context *context, uint8_t mac[SHA256_DIGEST_LENGTH]);

/** Writes `length` bytes as lowercase hex plus a NUL into `hex`, which holds 2 * length + 1 bytes. */
void sha256_hex(const uint8_t *bytes, size_t length, char *hex);

#endif /* COURIER_EXAMPLE_SHA256_H */
