/*
 * Plugins: the three example plugins (hmac_signer, memory_cache, swift_stamp) loaded and used,
 * and every way a load can fail (fixtures in Tests/CAPITests/Fixtures): an ABI major mismatch,
 * a missing info or init symbol, init reporting failure, a missing file, a file that is not a
 * shared object; then misbehaving callbacks: an unknown action, a failure on every request, a
 * callback sleeping past the request's deadline.
 * Usage: test_plugins BASE_URL PLUGIN_DIR (the directory holding the built .so files)
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <unistd.h>

static courier_error *error;
static const char *base;
static const char *plugin_dir;

static const char *plugin_path(char *buffer, size_t size, const char *name)
{
    snprintf(buffer, size, "%s/%s", plugin_dir, name);
    return buffer;
}

static courier_client *new_client(void)
{
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    return client;
}

/* Loads a plugin expected to load; returns its handle. */
static courier_plugin *load(courier_client *client, const char *name, const char *config)
{
    char path[1024];
    courier_plugin *plugin = NULL;
    CHECK_OK(courier_plugin_load(client, plugin_path(path, sizeof path, name), config, &plugin, &error));
    return plugin;
}

/* Loads a plugin expected to fail with COURIER_E_PLUGIN; returns the message (caller frees `*failure`). */
static const char *load_fails(courier_client *client, const char *path, const char *config, courier_error **failure)
{
    courier_plugin *plugin = NULL;
    courier_code code = courier_plugin_load(client, path, config, &plugin, failure);
    CHECK(code == COURIER_E_PLUGIN);
    CHECK(plugin == NULL);
    if (code != COURIER_E_PLUGIN) {
        fprintf(stderr, "  loading %s gave %s\n", path, courier_strerror(code));
    }
    return courier_error_message(*failure);
}

static courier_response *send_request(courier_client *client, const char *method, const char *path, const char *body,
                                      courier_code *code, courier_error **failure)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_request_new(method, url_at(url, sizeof url, base, path), &request, &error));
    if (body != NULL) {
        CHECK_OK(courier_request_set_body_string(request, body, NULL, &error));
    }
    *code = courier_client_send(client, request, &response, failure);
    courier_request_free(request);
    return response;
}

static const char *body_text(const courier_response *response)
{
    const void *body = NULL;
    size_t length = 0;
    return courier_response_body(response, &body, &length, NULL) == COURIER_OK ? body : NULL;
}

static void hmac_signer_signs_method_path_and_body(void)
{
    courier_client *client = new_client();
    courier_plugin *plugin = load(client, "hmac_signer.so", "top secret");
    const char *text = NULL;
    CHECK_OK(courier_plugin_name(plugin, &text, &error));
    CHECK_STR(text, "hmac-signer");
    CHECK_OK(courier_plugin_version(plugin, &text, &error));
    CHECK_STR(text, "1.0.0");

    /* HMAC-SHA256 keyed "top secret" of "POST\n/echo/signed\n{\"amount\": 5}", by Python's hmac module. */
    const char *expected = "[\"X-Signature\",\"285d965bdb458d339876085cfe0aff264b4e1b8d5c41353e66170cd30a5d1c9a\"]";

    courier_code code = COURIER_OK;
    courier_response *response = send_request(client, "POST", "/echo/signed?ignored=1", "{\"amount\": 5}", &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK(body_text(response) != NULL && strstr(body_text(response), expected) != NULL);
    if (body_text(response) == NULL || strstr(body_text(response), expected) == NULL) {
        fprintf(stderr, "  expected %s in %s\n", expected, body_text(response) ? body_text(response) : "(no body)");
    }
    courier_response_free(response);

    /* Unloading removes the interceptor; the handle still answers. */
    CHECK_OK(courier_plugin_unload(plugin, &error));
    response = send_request(client, "GET", "/headers", NULL, &code, NULL);
    CHECK(code == COURIER_OK && strstr(body_text(response), "X-Signature") == NULL);
    courier_response_free(response);
    CHECK_OK(courier_plugin_name(plugin, &text, &error));
    CHECK_OK(courier_plugin_free(plugin));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_free(plugin));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_name(plugin, &text, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_version(plugin, &text, &error));

    /* Without a key, init refuses and says why. */
    char path[1024];
    courier_error *failure = NULL;
    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "hmac_signer.so"), NULL, &failure), "needs a key");
    courier_error_free(failure);
    courier_client_free(client);
}

/* Counts requests that reach the network side of the chain. */
static pthread_mutex_t reached_lock = PTHREAD_MUTEX_INITIALIZER;
static int reached;

static courier_action count_reached(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    pthread_mutex_lock(&reached_lock);
    reached++;
    pthread_mutex_unlock(&reached_lock);
    return COURIER_ACTION_CONTINUE;
}

static void add_counter(courier_client *client)
{
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    interceptor.name = "reached";
    interceptor.on_request = count_reached;
    CHECK_OK(courier_client_add_interceptor(client, &interceptor, &error));
}

/* GETs path and tells whether the answer came from the cache; checks the body matches `body` when given. */
static int cached_get(courier_client *client, const char *path, char *body, size_t body_size)
{
    courier_code code = COURIER_OK;
    courier_response *response = send_request(client, "GET", path, NULL, &code, NULL);
    const char *hit = NULL;
    int from_cache = code == COURIER_OK && courier_response_header(response, "X-Cache", &hit, NULL) == COURIER_OK;
    CHECK(code == COURIER_OK);
    if (body != NULL && body_text(response) != NULL) {
        if (body[0] == '\0') {
            snprintf(body, body_size, "%s", body_text(response));
        } else {
            CHECK(strcmp(body, body_text(response)) == 0);
        }
    }
    courier_response_free(response);
    return from_cache;
}

static void *hammer_cache(void *argument)
{
    courier_client *client = argument;
    char path[64];
    for (int i = 0; i < 12; i++) {
        snprintf(path, sizeof path, "/anything/shared/%d", i % 2);
        cached_get(client, path, NULL, 0);
    }
    return NULL;
}

static void memory_cache_answers_repeated_gets(void)
{
    courier_client *client = new_client();
    courier_plugin *plugin = load(client, "memory_cache.so", "2");
    add_counter(client);
    char first[4096] = "";
    reached = 0;
    CHECK(!cached_get(client, "/anything/a", first, sizeof first));
    CHECK(cached_get(client, "/anything/a", first, sizeof first));
    CHECK(reached == 1);

    /* POSTs and non-200 answers are never kept. */
    courier_code code = COURIER_OK;
    courier_response *response = send_request(client, "POST", "/anything/a", "x", &code, NULL);
    courier_response_free(response);
    CHECK(!cached_get(client, "/status/404", NULL, 0));
    CHECK(!cached_get(client, "/status/404", NULL, 0));
    CHECK(reached == 4);

    /* Capacity 2: a third URL evicts the least recently used. */
    CHECK(!cached_get(client, "/anything/b", NULL, 0));
    CHECK(cached_get(client, "/anything/a", NULL, 0));
    CHECK(!cached_get(client, "/anything/c", NULL, 0));
    CHECK(!cached_get(client, "/anything/b", NULL, 0));
    CHECK(reached == 7);

    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        CHECK(pthread_create(&threads[i], NULL, hammer_cache, client) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
    }
    /* Two URLs fit the cache: after the first misses (at most one per thread and URL) all hit. */
    CHECK(reached <= 7 + 8);
    CHECK_OK(courier_plugin_free(plugin));

    char path[1024];
    courier_error *failure = NULL;
    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "memory_cache.so"), "zero", &failure),
                   "entry count");
    courier_error_free(failure);
    courier_client_free(client);
}

static void swift_plugin_stamps_requests(void)
{
    courier_client *client = new_client();
    courier_plugin *plugin = load(client, "swift_stamp.so", "from swift");
    const char *text = NULL;
    CHECK_OK(courier_plugin_name(plugin, &text, &error));
    CHECK_STR(text, "swift-stamp");
    courier_code code = COURIER_OK;
    courier_response *response = send_request(client, "GET", "/headers", NULL, &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK_CONTAINS(body_text(response), "[\"X-Swift-Stamp\",\"from swift attempt=1\"]");
    courier_response_free(response);
    courier_plugin_free(plugin);
    courier_client_free(client);
}

static void broken_plugins_are_refused(void)
{
    courier_client *client = new_client();
    char path[1024];
    courier_error *failure = NULL;

    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "abi_mismatch.so"), NULL, &failure), "ABI");
    courier_error_free(failure);
    failure = NULL;
    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "no_info.so"), NULL, &failure),
                   "courier_plugin_info");
    courier_error_free(failure);
    failure = NULL;
    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "no_init.so"), NULL, &failure),
                   "courier_plugin_init");
    courier_error_free(failure);
    failure = NULL;
    CHECK_CONTAINS(load_fails(client, plugin_path(path, sizeof path, "init_fails.so"), "x=1", &failure),
                   "init-fails refused config 'x=1'");
    courier_error_free(failure);
    failure = NULL;
    CHECK(load_fails(client, plugin_path(path, sizeof path, "does_not_exist.so"), NULL, &failure) != NULL);
    courier_error_free(failure);
    failure = NULL;
    /* A name without a slash is refused: dlopen would find the system's libc.so.6, not a file here. */
    CHECK_CONTAINS(load_fails(client, "libc.so.6", NULL, &failure), "write ./libc.so.6");
    courier_error_free(failure);
    failure = NULL;

    char junk[] = "/tmp/courier-not-a-plugin-XXXXXX";
    int fd = mkstemp(junk);
    CHECK(fd >= 0 && write(fd, "#!/bin/sh\necho not ELF\n", 23) == 23);
    close(fd);
    CHECK(load_fails(client, junk, NULL, &failure) != NULL);
    courier_error_free(failure);
    failure = NULL;
    unlink(junk);
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_plugin_load(client, NULL, NULL, NULL, &error));

    /* After all those failures nothing is registered: init-fails' interceptor did not stay. */
    courier_code code = COURIER_OK;
    courier_response *response = send_request(client, "GET", "/headers", NULL, &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK(body_text(response) != NULL && strstr(body_text(response), "X-Init-Fails") == NULL);
    courier_response_free(response);
    courier_client_free(client);
}

static void misbehaving_callbacks_fail_the_send(void)
{
    courier_client *client = new_client();
    courier_error *failure = NULL;
    courier_code code = COURIER_OK;
    courier_plugin *plugin = load(client, "unknown_action.so", NULL);
    CHECK(send_request(client, "GET", "/anything", NULL, &code, &failure) == NULL);
    CHECK(code == COURIER_E_INTERCEPTOR);
    CHECK_CONTAINS(courier_error_message(failure), "unknown-action");
    courier_error_free(failure);
    failure = NULL;
    CHECK_OK(courier_plugin_unload(plugin, &error));
    courier_plugin_free(plugin);

    plugin = load(client, "fail_every.so", NULL);
    for (int i = 0; i < 3; i++) {
        CHECK(send_request(client, "GET", "/anything", NULL, &code, &failure) == NULL);
        CHECK(code == COURIER_E_INTERCEPTOR);
        CHECK_CONTAINS(courier_error_message(failure), "fail-every refuses every request");
        CHECK_STR(courier_error_stage(failure), "fail-every");
        courier_error_free(failure);
        failure = NULL;
    }
    CHECK_OK(courier_plugin_unload(plugin, &error));
    courier_plugin_free(plugin);

    /* A callback that sleeps 600 ms against a 200 ms deadline: the send times out. */
    plugin = load(client, "sleeper.so", "600");
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything/slow"), &request, &error));
    CHECK_OK(courier_request_set_timeout_ms(request, 200, &error));
    CHECK_CODE(COURIER_E_TIMED_OUT, courier_client_send(client, request, &response, &error));
    CHECK(response == NULL);
    courier_request_free(request);
    CHECK_OK(courier_plugin_unload(plugin, &error));
    courier_plugin_free(plugin);

    response = send_request(client, "GET", "/anything", NULL, &code, NULL);
    CHECK(code == COURIER_OK);
    courier_response_free(response);
    courier_client_free(client);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_plugins BASE_URL PLUGIN_DIR\n");
        return 2;
    }
    base = argv[1];
    plugin_dir = argv[2];
    hmac_signer_signs_method_path_and_body();
    memory_cache_answers_repeated_gets();
    swift_plugin_stamps_requests();
    broken_plugins_are_refused();
    misbehaving_callbacks_fail_the_send();
    return check_finish("test_plugins");
}
