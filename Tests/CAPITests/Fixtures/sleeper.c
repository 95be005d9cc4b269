/*
 * Fixture: an `around` interceptor that sleeps past the request's deadline before proceeding.
 * Config: the sleep in milliseconds (default 600).
 */
#define _POSIX_C_SOURCE 200809L
#include <courier_plugin.h>

#include <stdlib.h>
#include <time.h>

static const courier_host_api *host;
static long sleep_ms = 600;

static courier_action sleep_then_proceed(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    struct timespec pause = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    courier_error *error = NULL;
    if (host->exchange_proceed(exchange, &error) == COURIER_OK) {
        return COURIER_ACTION_CONTINUE;
    }
    host->exchange_fail(exchange, host->error_code(error), host->error_message(error), NULL);
    host->error_free(error);
    return COURIER_ACTION_FAIL;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "sleeper", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)errbuf;
    (void)errbuf_len;
    host = api;
    if (config != NULL) {
        sleep_ms = strtol(config, NULL, 10);
    }
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "sleeper";
    interceptor.around = sleep_then_proceed;
    return api->register_interceptor(registrar, &interceptor, NULL) == COURIER_OK ? 0 : 1;
}
