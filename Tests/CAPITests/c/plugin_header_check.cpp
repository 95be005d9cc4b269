// Compiles courier_plugin.h as C++, as a plugin written in C++ would include it.
#include <courier_plugin.h>

extern "C" COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "cxx-check", "1.0.0",
};

extern "C" COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                                         const char *config, char *errbuf, size_t errbuf_len)
{
    static_cast<void>(config);
    static_cast<void>(errbuf);
    static_cast<void>(errbuf_len);
    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "cxx-check";
    return api->register_interceptor(registrar, &interceptor, nullptr) == COURIER_OK ? 0 : 1;
}
