/* Fixture: an on_request callback that returns 42, which is no courier_action. */
#include <courier_plugin.h>

static courier_action bogus(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return (courier_action)42;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "unknown-action", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)config;
    (void)errbuf;
    (void)errbuf_len;
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "unknown-action";
    interceptor.on_request = bogus;
    return api->register_interceptor(registrar, &interceptor, NULL) == COURIER_OK ? 0 : 1;
}
