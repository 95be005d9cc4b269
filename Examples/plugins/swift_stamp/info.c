/*
 * The metadata symbol of the swift_stamp plugin. Swift can export functions to C (@c) but not
 * a C data symbol, so this one-line object is linked into the same shared object.
 */
#include <courier_plugin.h>

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "swift-stamp", "1.0.0",
};
