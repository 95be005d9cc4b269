/*
 * Fixture: a plugin built against a newer minor that sets a courier_plugin_metadata field an
 * ABI 1.0 host does not know. The host refuses it before running any of its code.
 */
#include <courier_plugin.h>

typedef struct newer_metadata {
    courier_plugin_metadata base;
    const char *description;
} newer_metadata;

COURIER_PLUGIN_EXPORT const newer_metadata courier_plugin_info = {
    {sizeof(newer_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "newer-set-tail", "1.1.0"},
    "a field from the future",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    (void)api;
    (void)registrar;
    (void)config;
    (void)errbuf;
    (void)errbuf_len;
    return 1;
}
