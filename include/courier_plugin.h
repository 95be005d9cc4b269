/*
 * courier_plugin.h: everything a Courier interceptor plugin needs.
 *
 * A plugin is a shared object that a host loads with courier_plugin_load (C) or
 * `courier --plugin path.so[=config]` (the command-line tool). It exports two symbols:
 *
 *  - `courier_plugin_info`, a const courier_plugin_metadata: the plugin's name and version and
 *    the ABI it was built for. The host reads it before running any plugin code and refuses a
 *    plugin built for another COURIER_ABI_MAJOR.
 *  - `courier_plugin_init`, a courier_plugin_init_fn: registers the plugin's interceptors.
 *
 * A plugin does not link libcourier. It calls the host only through the function table it
 * receives in init (SQLite's loadable-extension model), so it loads under RTLD_LOCAL into any
 * host, the command-line tool included. This header declares no library functions: calling
 * courier_* directly would fail to compile (with -Werror) or to load.
 *
 * A minimal plugin, built with `cc -shared -fPIC -o stamp.so stamp.c`:
 *
 *     #include <courier_plugin.h>
 *     #include <stdio.h>
 *
 *     static const courier_host_api *host;
 *     static char stamp_value[128] = "stamped";
 *
 *     static courier_action stamp(void *user_data, courier_exchange *exchange) {
 *         courier_request *request = NULL;
 *         if (host->exchange_request(exchange, &request, NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
 *         host->request_set_header(request, "X-Stamp", (const char *)user_data, NULL);
 *         return COURIER_ACTION_CONTINUE;
 *     }
 *
 *     COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
 *         sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "stamp", "1.0.0"
 *     };
 *
 *     COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
 *                                                   const char *config, char *errbuf, size_t errbuf_len) {
 *         (void)errbuf; (void)errbuf_len;
 *         host = api;
 *         if (config) snprintf(stamp_value, sizeof stamp_value, "%s", config);
 *         courier_interceptor interceptor;
 *         api->interceptor_init(&interceptor);
 *         interceptor.name = "stamp";
 *         interceptor.on_request = stamp;
 *         interceptor.user_data = stamp_value;
 *         return api->register_interceptor(registrar, &interceptor, NULL) == COURIER_OK ? 0 : 1;
 *     }
 *
 * Rules for plugin code:
 *  - `config` and `errbuf` are valid only during init; copy what you keep.
 *  - init returns 0 on success. On failure it returns non-zero and writes a NUL-terminated reason
 *    of at most errbuf_len bytes into errbuf; the host reports it and unregisters everything the
 *    plugin registered.
 *  - The `api` pointer stays valid for the life of the process.
 *  - Unloading a plugin unregisters its interceptors (their destroy callbacks run) but never
 *    unmaps it, so static data stays valid.
 *  - Callbacks follow the thread rules in courier.h.
 */
#ifndef COURIER_PLUGIN_H
#define COURIER_PLUGIN_H

#define COURIER_NO_PROTOTYPES
#include "courier.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the two plugin symbols as exported even under -fvisibility=hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define COURIER_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define COURIER_PLUGIN_EXPORT
#endif

/** The name of the metadata symbol a plugin exports. */
#define COURIER_PLUGIN_INFO_SYMBOL "courier_plugin_info"
/** The name of the init function a plugin exports. */
#define COURIER_PLUGIN_INIT_SYMBOL "courier_plugin_init"

/** What a plugin says about itself, exported as `const courier_plugin_metadata courier_plugin_info`. */
typedef struct courier_plugin_metadata {
    /** sizeof(courier_plugin_metadata) as the plugin was built. */
    size_t struct_size;
    /** COURIER_ABI_MAJOR as the plugin was built; the host refuses any other value. */
    uint32_t abi_major;
    /** COURIER_ABI_MINOR as the plugin was built; the host accepts plugins built for older minors. */
    uint32_t abi_minor;
    /** The plugin's name, such as "hmac-signer". */
    const char *name;
    /** The plugin's version, such as "1.0.0". */
    const char *version;
} courier_plugin_metadata;

/** Collects what a plugin registers during init. Valid only during init. */
typedef struct courier_registrar courier_registrar;

/**
 * The host's functions, handed to courier_plugin_init. Each member behaves exactly as the
 * courier.h function of the same name without the `courier_` prefix. Members are only ever
 * appended, and `struct_size` tells how many the host has: a plugin built against a newer minor
 * may be loaded by an older host, so it checks `struct_size` before using a member added after
 * COURIER_ABI_MINOR 0, and does without it when the host is older:
 *
 *     #include <stddef.h>
 *     #define HOST_HAS(api, member) \
 *         ((api)->struct_size >= offsetof(courier_host_api, member) + sizeof((api)->member))
 *
 *     if (HOST_HAS(api, some_later_member)) { api->some_later_member(...); } else { ... }
 */
typedef struct courier_host_api {
    size_t struct_size;
    uint32_t abi_major;
    uint32_t abi_minor;

    /* Registration (only during init). */
    courier_code (*register_interceptor)(courier_registrar *registrar, const courier_interceptor *interceptor,
                                         courier_error **error);
    /* courier_interceptor_init's exported form: fills the fields of the struct's first version
     * and sets struct_size to that size. To set a field added later, zero the struct first and
     * set struct_size to sizeof(courier_interceptor) after, as courier.h's inline init does. */
    void (*interceptor_init)(courier_interceptor *interceptor);

    /* Errors. */
    const char *(*strerror)(courier_code code);
    courier_code (*error_code)(const courier_error *error);
    const char *(*error_message)(const courier_error *error);
    courier_code (*error_free)(courier_error *error);

    /* Exchanges. */
    courier_code (*exchange_request)(courier_exchange *exchange, courier_request **request, courier_error **error);
    courier_code (*exchange_response)(courier_exchange *exchange, courier_response **response, courier_error **error);
    courier_code (*exchange_respond)(courier_exchange *exchange, courier_response *response, courier_error **error);
    courier_code (*exchange_fail)(courier_exchange *exchange, courier_code code, const char *message,
                                  courier_error **error);
    courier_code (*exchange_proceed)(courier_exchange *exchange, courier_error **error);
    courier_code (*exchange_attempt)(const courier_exchange *exchange, int *attempt, courier_error **error);
    courier_code (*exchange_request_id)(const courier_exchange *exchange, const char **request_id,
                                        courier_error **error);

    /* Requests. */
    courier_code (*request_method)(const courier_request *request, const char **method, courier_error **error);
    courier_code (*request_url)(const courier_request *request, const char **url, courier_error **error);
    courier_code (*request_header)(const courier_request *request, const char *name, const char **value,
                                   courier_error **error);
    courier_code (*request_header_count)(const courier_request *request, size_t *count, courier_error **error);
    courier_code (*request_header_at)(const courier_request *request, size_t index, const char **name,
                                      const char **value, courier_error **error);
    courier_code (*request_body)(const courier_request *request, const void **data, size_t *length,
                                 courier_error **error);
    courier_code (*request_set_header)(courier_request *request, const char *name, const char *value,
                                       courier_error **error);
    courier_code (*request_add_header)(courier_request *request, const char *name, const char *value,
                                       courier_error **error);
    courier_code (*request_remove_header)(courier_request *request, const char *name, courier_error **error);
    courier_code (*request_add_query)(courier_request *request, const char *name, const char *value,
                                      courier_error **error);
    courier_code (*request_set_body_bytes)(courier_request *request, const void *data, size_t length,
                                           const char *content_type, courier_error **error);

    /* Responses. */
    courier_code (*response_new)(int status, courier_response **response, courier_error **error);
    courier_code (*response_free)(courier_response *response);
    courier_code (*response_status)(const courier_response *response, int *status, courier_error **error);
    courier_code (*response_header)(const courier_response *response, const char *name, const char **value,
                                    courier_error **error);
    courier_code (*response_header_count)(const courier_response *response, size_t *count, courier_error **error);
    courier_code (*response_header_at)(const courier_response *response, size_t index, const char **name,
                                       const char **value, courier_error **error);
    courier_code (*response_body)(const courier_response *response, const void **data, size_t *length,
                                  courier_error **error);
    courier_code (*response_set_status)(courier_response *response, int status, courier_error **error);
    courier_code (*response_set_header)(courier_response *response, const char *name, const char *value,
                                        courier_error **error);
    courier_code (*response_add_header)(courier_response *response, const char *name, const char *value,
                                        courier_error **error);
    courier_code (*response_remove_header)(courier_response *response, const char *name, courier_error **error);
    courier_code (*response_set_body)(courier_response *response, const void *data, size_t length,
                                      courier_error **error);
} courier_host_api;

/**
 * The init function a plugin exports as `courier_plugin_init`: register interceptors through
 * `api->register_interceptor(registrar, …)` and return 0, or write a reason into errbuf and
 * return non-zero. Runs once per load, on the loading thread.
 */
typedef int (*courier_plugin_init_fn)(const courier_host_api *api, courier_registrar *registrar, const char *config,
                                      char *errbuf, size_t errbuf_len);

#ifdef __cplusplus
}
#endif

#endif /* COURIER_PLUGIN_H */
