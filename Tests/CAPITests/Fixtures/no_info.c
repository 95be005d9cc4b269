/* Fixture: a plugin without the courier_plugin_info symbol; init aborts if the host runs it. */
#include <courier_plugin.h>

#include <stdlib.h>

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)api;
    (void)registrar;
    (void)config;
    (void)errbuf;
    (void)errbuf_len;
    abort();
}
