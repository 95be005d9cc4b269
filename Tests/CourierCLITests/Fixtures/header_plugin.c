/*
 * header_plugin.c: a test plugin for `courier --plugin header_plugin.so=VALUE`.
 *
 * Registers one interceptor, "x-plugin-header", whose on_request sets `X-Plugin: VALUE` (the
 * config; "on" without one). A config of "fail" makes init fail with a reason, so the tests can
 * check how the command-line tool reports a plugin that refuses to load.
 */
#include <courier_plugin.h>
#include <stdio.h>
#include <string.h>

static const courier_host_api *host;
static char header_value[256] = "on";

static courier_action add_header(void *user_data, courier_exchange *exchange) {
    courier_request *request = NULL;
    if (host->exchange_request(exchange, &request, NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
    if (host->request_set_header(request, "X-Plugin", (const char *)user_data, NULL) != COURIER_OK) {
        return COURIER_ACTION_FAIL;
    }
    return COURIER_ACTION_CONTINUE;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "x-plugin-header", "1.0.0"
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len) {
    host = api;
    if (config != NULL && strcmp(config, "fail") == 0) {
        snprintf(errbuf, errbuf_len, "asked to fail");
        return 1;
    }
    if (config != NULL) snprintf(header_value, sizeof header_value, "%s", config);
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "x-plugin-header";
    interceptor.on_request = add_header;
    interceptor.user_data = header_value;
    return api->register_interceptor(registrar, &interceptor, NULL) == COURIER_OK ? 0 : 1;
}
