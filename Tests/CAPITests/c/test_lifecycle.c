/*
 * test_lifecycle: the promises of libcourier.so.1 about time and versions.
 *
 * - Extensible structs: exactly struct_size bytes are read (each struct is given in a heap block
 *   of exactly that size, so valgrind sees any over-read); a struct from a newer header is accepted
 *   when its unknown tail is zero and refused, naming the struct, when it is not; one below its
 *   ABI 1.0 size is refused. For courier_client_options, courier_send_options,
 *   courier_interceptor and a plugin's courier_plugin_metadata.
 * - Freeing a client with sends in flight: each completes exactly once, with its response, on
 *   both transports.
 * - courier_client_send_async racing courier_client_free from another thread: the completion runs
 *   exactly once, or the call fails; never neither.
 *
 * Usage: test_lifecycle BASE_URL PLUGIN_DIRECTORY [RACE_ITERATIONS]
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <courier_plugin.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static courier_error *error;
static const char *base;
static const char *plugins;

/* A copy of `value` in a heap block of exactly `size` bytes, zero past `value`'s own size. */
static void *exact_block(const void *value, size_t value_size, size_t size)
{
    unsigned char *block = calloc(1, size);
    memcpy(block, value, value_size < size ? value_size : size);
    return block;
}

/* The error's message, or a placeholder when there is none. */
static const char *error_text(const courier_error *failure)
{
    const char *message = failure ? courier_error_message(failure) : NULL;
    return message ? message : "(no error)";
}

/* Checks that `call` failed with COURIER_E_INVALID_ARGUMENT and a message containing `needle`. */
#define CHECK_REFUSED(call, needle)                                                   \
    do {                                                                              \
        courier_code refused_code = (call);                                           \
        CHECK_INT(refused_code, COURIER_E_INVALID_ARGUMENT);                          \
        CHECK_CONTAINS(error_text(error), needle);          \
        if (error) {                                                                  \
            courier_error_free(error);                                                \
            error = NULL;                                                             \
        }                                                                             \
    } while (0)

static void client_options_are_read_by_their_size(void)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.timeout_ms = 1234;
    courier_client *client = NULL;

    courier_client_options *exact = exact_block(&options, sizeof options, sizeof options);
    CHECK_OK(courier_client_new(exact, &client, &error));
    courier_client_free(client);
    free(exact);

    struct newer { courier_client_options base; int64_t future; } newer = {options, 0};
    newer.base.struct_size = sizeof newer;
    courier_client_options *zero_tail = exact_block(&newer, sizeof newer, sizeof newer);
    CHECK_OK(courier_client_new(zero_tail, &client, &error));
    courier_client_free(client);
    ((struct newer *)(void *)zero_tail)->future = 7;
    client = NULL;
    CHECK_REFUSED(courier_client_new(zero_tail, &client, &error), "courier_client_options sets a field");
    CHECK(client == NULL);
    free(zero_tail);

    options.struct_size = offsetof(courier_client_options, callback_threads);
    courier_client_options *older = exact_block(&options, sizeof options, options.struct_size);
    CHECK_REFUSED(courier_client_new(older, &client, &error), "smaller than its first version");
    free(older);
}

static void send_options_are_read_by_their_size(courier_client *client)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));
    courier_send_options options;
    courier_send_options_init(&options);

    courier_send_options *exact = exact_block(&options, sizeof options, sizeof options);
    CHECK_OK(courier_client_send_with(client, request, exact, &response, &error));
    courier_response_free(response);
    free(exact);

    struct newer { courier_send_options base; void *future; } newer = {options, NULL};
    newer.base.struct_size = sizeof newer;
    courier_send_options *tail = exact_block(&newer, sizeof newer, sizeof newer);
    response = NULL;
    CHECK_OK(courier_client_send_with(client, request, tail, &response, &error));
    courier_response_free(response);
    ((struct newer *)(void *)tail)->future = &newer;
    response = NULL;
    CHECK_REFUSED(courier_client_send_with(client, request, tail, &response, &error), "courier_send_options sets a field");
    CHECK(response == NULL);
    free(tail);

    options.struct_size = sizeof(size_t);
    courier_send_options *older = exact_block(&options, sizeof options, options.struct_size);
    CHECK_REFUSED(courier_client_send_with(client, request, older, &response, &error), "smaller than its first version");
    free(older);
    courier_request_free(request);
}

static courier_action pass_on(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_CONTINUE;
}

static void interceptors_are_read_by_their_size(courier_client *client)
{
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    interceptor.name = "exact";
    interceptor.on_request = pass_on;

    courier_interceptor *exact = exact_block(&interceptor, sizeof interceptor, sizeof interceptor);
    CHECK_OK(courier_client_add_interceptor(client, exact, &error));
    free(exact);

    struct newer { courier_interceptor base; int64_t priority; } newer = {interceptor, 0};
    newer.base.struct_size = sizeof newer;
    newer.base.name = "newer";
    courier_interceptor *tail = exact_block(&newer, sizeof newer, sizeof newer);
    CHECK_OK(courier_client_add_interceptor(client, tail, &error));
    ((struct newer *)(void *)tail)->priority = 5;
    ((struct newer *)(void *)tail)->base.name = "newer-set";
    CHECK_REFUSED(courier_client_add_interceptor(client, tail, &error), "courier_interceptor sets a field");
    free(tail);

    interceptor.struct_size = offsetof(courier_interceptor, destroy);
    interceptor.name = "older";
    courier_interceptor *older = exact_block(&interceptor, sizeof interceptor, interceptor.struct_size);
    CHECK_REFUSED(courier_client_add_interceptor(client, older, &error), "smaller than its first version");
    free(older);

    CHECK_OK(courier_client_remove_interceptor(client, "exact", &error));
    CHECK_OK(courier_client_remove_interceptor(client, "newer", &error));
}

static void plugins_from_a_newer_minor_load_unless_they_set_a_new_field(courier_client *client)
{
    char path[1024];
    char url[512];
    courier_plugin *plugin = NULL;
    snprintf(path, sizeof path, "%s/newer_info_zero_tail.so", plugins);
    CHECK_OK(courier_plugin_load(client, path, NULL, &plugin, &error));
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    const void *body = NULL;
    size_t length = 0;
    CHECK_OK(courier_response_body(response, &body, &length, &error));
    char text[8192];
    snprintf(text, sizeof text, "%.*s", (int)(length < sizeof text - 1 ? length : sizeof text - 1), (const char *)body);
    CHECK_CONTAINS(text, "zero-tail");
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_plugin_unload(plugin, &error));
    courier_plugin_free(plugin);

    snprintf(path, sizeof path, "%s/newer_info_set_tail.so", plugins);
    plugin = NULL;
    courier_code code = courier_plugin_load(client, path, NULL, &plugin, &error);
    CHECK_INT(code, COURIER_E_PLUGIN);
    CHECK_CONTAINS(error_text(error), "courier_plugin_info sets a field");
    CHECK(plugin == NULL);
    if (error) {
        courier_error_free(error);
        error = NULL;
    }
}

/* Counts one send's completions and whether it brought a 200 response. */
typedef struct completion_count {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int calls;
    int responses;
} completion_count;

static void count_completion(void *user_data, courier_response *response, courier_error *failure)
{
    completion_count *count = user_data;
    int status = 0;
    int ok = response && courier_response_status(response, &status, NULL) == COURIER_OK && status == 200;
    if (!ok) {
        /* Said on stderr, so a failed check below comes with its cause. */
        fprintf(stderr, "completion without a 200: status %d, error %d (%s) in stage %s\n", status,
                failure ? (int)courier_error_code(failure) : 0, failure ? courier_error_message(failure) : "none",
                failure && courier_error_stage(failure) ? courier_error_stage(failure) : "none");
    }
    courier_response_free(response);
    courier_error_free(failure);
    pthread_mutex_lock(&count->lock);
    count->calls++;
    count->responses += ok;
    pthread_cond_broadcast(&count->changed);
    pthread_mutex_unlock(&count->lock);
}

/* Waits until `count` has `calls` completions, for at most `seconds`. */
static void wait_for_calls(completion_count *count, int calls, int seconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += seconds;
    pthread_mutex_lock(&count->lock);
    while (count->calls < calls) {
        if (pthread_cond_timedwait(&count->changed, &count->lock, &deadline) != 0) break;
    }
    pthread_mutex_unlock(&count->lock);
}

static courier_client *new_client(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    /* This program is about lifetimes, not deadlines: under valgrind on a loaded machine, eight
     * connections at once may take longer than the default 10 s to be made. */
    options.connect_timeout_ms = 60000;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    return client;
}

enum { IN_FLIGHT = 8 };

static void freeing_a_client_lets_every_send_finish_with_its_response(courier_transport transport)
{
    char url[512];
    completion_count counts[IN_FLIGHT];
    courier_client *client = new_client(transport);
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/delay/300"), &request, &error));
    for (int i = 0; i < IN_FLIGHT; i++) {
        counts[i] = (completion_count){PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
        CHECK_OK(courier_client_send_async(client, request, NULL, count_completion, &counts[i], NULL, &error));
    }
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    for (int i = 0; i < IN_FLIGHT; i++) {
        wait_for_calls(&counts[i], 1, 60);
    }
    sleep_ms(100);
    for (int i = 0; i < IN_FLIGHT; i++) {
        CHECK_INT(counts[i].calls, 1);
        CHECK_INT(counts[i].responses, 1);
    }
}

/* One side of a race: frees the client once both threads are at the start line. */
typedef struct race {
    pthread_barrier_t start;
    courier_client *client;
} race;

static void *free_at_start(void *argument)
{
    race *race = argument;
    pthread_barrier_wait(&race->start);
    courier_client_free(race->client);
    return NULL;
}

static void sends_racing_a_free_complete_once_or_fail(courier_transport transport, int iterations)
{
    char url[512];
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));
    int accepted = 0;
    int refused = 0;
    int wrong = 0;
    for (int i = 0; i < iterations; i++) {
        race race;
        pthread_barrier_init(&race.start, NULL, 2);
        race.client = new_client(transport);
        completion_count count = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
        pthread_t freer;
        pthread_create(&freer, NULL, free_at_start, &race);
        pthread_barrier_wait(&race.start);
        courier_error *failure = NULL;
        courier_code code = courier_client_send_async(race.client, request, NULL, count_completion, &count, NULL, &failure);
        pthread_join(freer, NULL);
        if (code == COURIER_OK) {
            accepted++;
            wait_for_calls(&count, 1, 60);
            if (count.calls != 1 || count.responses != 1) wrong++;
        } else {
            refused++;
            if (code != COURIER_E_INVALID_HANDLE || count.calls != 0) wrong++;
        }
        courier_error_free(failure);
        pthread_barrier_destroy(&race.start);
    }
    sleep_ms(100);
    printf("race on transport %d: %d accepted, %d refused, %d wrong\n", (int)transport, accepted, refused, wrong);
    CHECK_INT(wrong, 0);
    CHECK_INT(accepted + refused, iterations);
    courier_request_free(request);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_lifecycle BASE_URL PLUGIN_DIRECTORY [RACE_ITERATIONS]\n");
        return 2;
    }
    base = argv[1];
    plugins = argv[2];
    int iterations = argc > 3 ? atoi(argv[3]) : 20;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    client_options_are_read_by_their_size();
    send_options_are_read_by_their_size(client);
    interceptors_are_read_by_their_size(client);
    plugins_from_a_newer_minor_load_unless_they_set_a_new_field(client);
    CHECK_OK(courier_client_free(client));
    freeing_a_client_lets_every_send_finish_with_its_response(COURIER_TRANSPORT_CURL);
    freeing_a_client_lets_every_send_finish_with_its_response(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    sends_racing_a_free_complete_once_or_fail(COURIER_TRANSPORT_CURL, iterations);
    sends_racing_a_free_complete_once_or_fail(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT, iterations);
    return check_finish("test_lifecycle");
}
