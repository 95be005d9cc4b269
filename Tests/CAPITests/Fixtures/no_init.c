/* Fixture: a plugin with valid info but no courier_plugin_init symbol. */
#include <courier_plugin.h>

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "no-init", "1.0.0",
};
