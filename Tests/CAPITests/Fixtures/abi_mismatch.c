/*
 * Fixture: a plugin built for the next ABI major. The host must refuse it from its info alone;
 * init aborts the process, so a host that ran it fails the test loudly.
 */
#include <courier_plugin.h>

#include <stdlib.h>

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR + 1, 0, "abi-mismatch", "2.0.0",
};

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
