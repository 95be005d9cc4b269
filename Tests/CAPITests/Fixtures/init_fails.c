/*
 * Fixture: init registers an interceptor that would stamp X-Init-Fails, then reports failure
 * with a message naming its config. The host must report the message and unregister what init
 * registered: the test sends a request afterwards and checks that no X-Init-Fails arrived.
 */
#include <courier_plugin.h>

#include <stdio.h>

static const courier_host_api *host;

static courier_action stamp(void *user_data, courier_exchange *exchange)
{
    courier_request *request = NULL;
    (void)user_data;
    host->exchange_request(exchange, &request, NULL);
    host->request_set_header(request, "X-Init-Fails", "registered anyway", NULL);
    return COURIER_ACTION_CONTINUE;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "init-fails", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    host = api;
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "init-fails";
    interceptor.on_request = stamp;
    api->register_interceptor(registrar, &interceptor, NULL);
    snprintf(errbuf, errbuf_len, "init-fails refused config '%s'", config ? config : "(none)");
    return 7;
}
