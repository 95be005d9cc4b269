/* Fixture: fails every request in on_request with COURIER_E_INTERCEPTOR and a fixed message. */
#include <courier_plugin.h>

static const courier_host_api *host;

static courier_action refuse(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    host->exchange_fail(exchange, COURIER_E_INTERCEPTOR, "fail-every refuses every request", NULL);
    return COURIER_ACTION_FAIL;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "fail-every", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)config;
    (void)errbuf;
    (void)errbuf_len;
    host = api;
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "fail-every";
    interceptor.on_request = refuse;
    return api->register_interceptor(registrar, &interceptor, NULL) == COURIER_OK ? 0 : 1;
}
