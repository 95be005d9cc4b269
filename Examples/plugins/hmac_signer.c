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
 * Build: cc -std=c99 -shared -fPIC -I../../include -o hmac_signer.so hmac_signer.c sha256.c
 */
#include <courier_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

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

    hmac_sha256_context context;
    uint8_t mac[SHA256_DIGEST_LENGTH];
    char hex[2 * SHA256_DIGEST_LENGTH + 1];
    hmac_sha256_init(&context, key->bytes, key->length);
    hmac_sha256_update(&context, method, strlen(method));
    hmac_sha256_update(&context, "\n", 1);
    hmac_sha256_update(&context, path, path_length);
    hmac_sha256_update(&context, "\n", 1);
    if (body_length > 0) {
        hmac_sha256_update(&context, body, body_length);
    }
    hmac_sha256_final(&context, mac);
    sha256_hex(mac, sizeof mac, hex);
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
