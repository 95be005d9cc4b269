/*
 * Fixture: a plugin built against a newer minor whose courier_plugin_metadata has one more field,
 * left zero, and which registers an interceptor whose struct also has an extra, zero field. An
 * ABI 1.0 host loads it and runs the interceptor.
 */
#include <courier_plugin.h>

#include <stdint.h>

typedef struct newer_metadata {
    courier_plugin_metadata base;
    const char *description;
} newer_metadata;

typedef struct newer_interceptor {
    courier_interceptor base;
    int64_t priority;
} newer_interceptor;

COURIER_PLUGIN_EXPORT const newer_metadata courier_plugin_info = {
    {sizeof(newer_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "newer-zero-tail", "1.1.0"},
    NULL,
};

static const courier_host_api *host;

static courier_action stamp(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    courier_request *request = NULL;
    if (host->exchange_request(exchange, &request, NULL) != COURIER_OK
        || host->request_set_header(request, "X-Newer-Plugin", "zero-tail", NULL) != COURIER_OK) {
        return COURIER_ACTION_FAIL;
    }
    return COURIER_ACTION_CONTINUE;
}

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)config;
    (void)errbuf;
    (void)errbuf_len;
    host = api;
    newer_interceptor interceptor = {{0}, 0};
    api->interceptor_init(&interceptor.base);
    interceptor.base.struct_size = sizeof interceptor;
    interceptor.base.name = "newer-stamp";
    interceptor.base.on_request = stamp;
    return api->register_interceptor(registrar, &interceptor.base, NULL) == COURIER_OK ? 0 : 1;
}
