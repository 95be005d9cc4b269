/*
 * abi_probe.c: one function per public type of courier.h and courier_plugin.h, so that this file
 * built with -g describes every struct, enum and callback type in DWARF for `abidw`. The library
 * itself is Swift, whose DWARF does not describe the C types; its exported symbols are compared
 * separately (see scripts/update-abi-baseline).
 */
#include <courier.h>
#include <courier_plugin.h>

#define PROBE(type) \
    void courier_abi_probe_##type(type *value); \
    void courier_abi_probe_##type(type *value) { (void)value; }

PROBE(courier_code)
PROBE(courier_transport)
PROBE(courier_action)
PROBE(courier_client_options)
PROBE(courier_send_options)
PROBE(courier_metrics)
PROBE(courier_interceptor)
PROBE(courier_plugin_metadata)
PROBE(courier_host_api)
PROBE(courier_completion_fn)
PROBE(courier_data_fn)
PROBE(courier_progress_fn)
PROBE(courier_exchange_fn)
PROBE(courier_destroy_fn)
PROBE(courier_read_fn)
PROBE(courier_plugin_init_fn)
