/*
 * hmac_signer: a Courier plugin that signs every request.
 *
 * It sets `X-Signature` to the lowercase hex HMAC-SHA256, keyed with the plugin's config
 * string, of
 *
 *     METHOD "\n" PATH "\n" BODY
 *
 * where METHOD is the request method, PATH the URL's path as sent (percent-encoded, without
 * the query; "/" when empty) and BODY the body bytes (nothing when there is no body). A body
 * streamed from a file or a callback cannot be read ahead, so such a request fails rather than
 * going out unsigned.
 *
 * Load it with a key: courier_plugin_load(client, "hmac_signer.so", "secret", …) or
 * `courier --plugin hmac_signer.so=secret`. Without a key, init refuses to load.
 * The signature is computed in on_request, so every pass (retries, redirects) is signed anew.
 *
 * The MAC is OpenSSL's one-shot HMAC(EVP_sha256(), …), as real signing code would use a vetted
 * library rather than its own hash.
 *
 * Build: cc -std=c99 -shared -fPIC -I../../include -o hmac_signer.so hmac_signer.c -lcrypto
 */
#include <courier_plugin.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const courier_host_api *host;

/* The key, owned by the interceptor and freed by its destroy callback. */
typedef struct signer_key {
    size_t length;
    char bytes[];
} signer_key;

/* Finds the path of an absolute URL: its start and length, "/" when the URL has none. */
static void url_path(const char *url, const char **path, size_t *length)
{
    const char *scheme_end = strstr(url, "://");
    const char *authority = scheme_end ? scheme_end + 3 : url;
    const char *start = authority + strcspn(authority, "/?#");
    if (*start != '/') {
        *path = "/";
        *length = 1;
        return;
    }
    *path = start;
    *length = strcspn(start, "?#");
}

/* Writes `length` bytes as lowercase hex, NUL-terminated, into `hex` (2 * length + 1 bytes). */
static void to_hex(const unsigned char *bytes, size_t length, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        hex[2 * i] = digits[bytes[i] >> 4];
        hex[2 * i + 1] = digits[bytes[i] & 0x0f];
    }
    hex[2 * length] = '\0';
}

/* Fails the exchange with `message` and says so to the chain. */
static courier_action fail(courier_exchange *exchange, const char *message)
{
    host->exchange_fail(exchange, COURIER_E_INTERCEPTOR, message, NULL);
    return COURIER_ACTION_FAIL;
}

static courier_action sign(void *user_data, courier_exchange *exchange)
{
    const signer_key *key = user_data;
    courier_request *request = NULL;
    const char *method = NULL;
    const char *url = NULL;
    const void *body = NULL;
    size_t body_length = 0;
    if (host->exchange_request(exchange, &request, NULL) != COURIER_OK
        || host->request_method(request, &method, NULL) != COURIER_OK
        || host->request_url(request, &url, NULL) != COURIER_OK) {
        return fail(exchange, "hmac-signer: cannot read the request");
    }
    if (host->request_body(request, &body, &body_length, NULL) != COURIER_OK) {
        return fail(exchange, "hmac-signer: cannot sign a body streamed from a file or a callback");
    }
    const char *path = NULL;
    size_t path_length = 0;
    url_path(url, &path, &path_length);

    /* The signed text in one buffer, for the one-shot HMAC. */
    size_t method_length = strlen(method);
    size_t length = method_length + 1 + path_length + 1 + body_length;
    unsigned char *text = malloc(length);
    if (text == NULL) {
        return fail(exchange, "hmac-signer: out of memory");
    }
    memcpy(text, method, method_length);
    text[method_length] = '\n';
    memcpy(text + method_length + 1, path, path_length);
    text[method_length + 1 + path_length] = '\n';
    if (body_length > 0) {
        memcpy(text + method_length + 1 + path_length + 1, body, body_length);
    }

    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_length = 0;
    const unsigned char *signed_mac = HMAC(EVP_sha256(), key->bytes, (int)key->length, text, length, mac, &mac_length);
    free(text);
    if (signed_mac == NULL) {
        return fail(exchange, "hmac-signer: HMAC-SHA256 failed");
    }
    char hex[2 * EVP_MAX_MD_SIZE + 1];
    to_hex(mac, mac_length, hex);
    if (host->request_set_header(request, "X-Signature", hex, NULL) != COURIER_OK) {
        return fail(exchange, "hmac-signer: cannot set X-Signature");
    }
    return COURIER_ACTION_CONTINUE;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "hmac-signer", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    if (config == NULL || config[0] == '\0') {
        snprintf(errbuf, errbuf_len, "hmac-signer needs a key: load it as hmac_signer.so=KEY");
        return 1;
    }
    size_t length = strlen(config);
    if (length > INT_MAX) { /* HMAC takes the key's length as an int */
        snprintf(errbuf, errbuf_len, "hmac-signer: the key is too long");
        return 1;
    }
    signer_key *key = malloc(sizeof *key + length);
    if (key == NULL) {
        snprintf(errbuf, errbuf_len, "hmac-signer: out of memory");
        return 1;
    }
    key->length = length;
    memcpy(key->bytes, config, length);
    host = api;

    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "hmac-signer";
    interceptor.on_request = sign;
    interceptor.user_data = key;
    interceptor.destroy = free;
    courier_error *error = NULL;
    if (api->register_interceptor(registrar, &interceptor, &error) != COURIER_OK) {
        snprintf(errbuf, errbuf_len, "hmac-signer: %s", api->error_message(error));
        api->error_free(error);
        free(key);
        return 1;
    }
    return 0;
}
