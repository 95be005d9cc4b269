/*
 * ABI 1.1's connection options by their effect, on both transports: the test server's
 * /inflight/{ms} route answers how many requests it was handling when each arrived, so a limit
 * that held is read from the answers themselves, with no timing in the checks.
 *
 *   test_limits BASE_URL                       max_connections_per_host and max_connections hold
 *   test_limits BASE_URL idle|reuse TRANSPORT  two sequential sends 2.2 s apart with a 100 ms idle
 *                                              timeout (idle; curl counts idle time in whole
 *                                              seconds, so 100 ms is 1 s, passed once idle 2 s),
 *                                              or at once with the default (reuse); the Swift
 *                                              driver counts the connections the server accepted
 *                                              (2 and 1)
 *
 * TRANSPORT is curl or ahc.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>

enum { SENDS = 6 };

static courier_error *error;
static const char *base;

/* The most `inFlight` any answer reported. */
static int most_in_flight(courier_response *const *responses, size_t count)
{
    int most = 0;
    for (size_t index = 0; index < count; index++) {
        const void *body = NULL;
        size_t length = 0;
        int status = 0;
        if (!responses[index]) continue;
        courier_response_status(responses[index], &status, NULL);
        CHECK_INT(status, 200);
        courier_response_body(responses[index], &body, &length, NULL);
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)length, (const char *)body);
        const char *field = strstr(text, "\"inFlight\":");
        CHECK(field != NULL);
        if (field && atoi(field + strlen("\"inFlight\":")) > most) most = atoi(field + strlen("\"inFlight\":"));
    }
    return most;
}

static void keep(void *user_data, courier_response *response, courier_error *failure)
{
    courier_response **slot = user_data;
    if (failure) fprintf(stderr, "test_limits: a send failed: %s\n", courier_error_message(failure));
    CHECK(failure == NULL);
    courier_error_free(failure);
    *slot = response;
}

/* Sends SENDS requests to `path` at once through a client with `options`; returns the most
 * requests the server saw at once. */
static int burst(const courier_client_options *options, const char *path)
{
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *responses[SENDS] = {NULL};
    courier_call *calls[SENDS] = {NULL};
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    for (size_t index = 0; index < SENDS; index++)
        CHECK_OK(courier_client_send_async(client, request, NULL, keep, &responses[index], &calls[index], &error));
    for (size_t index = 0; index < SENDS; index++) {
        CHECK_OK(courier_call_wait(calls[index], &error));
        courier_call_free(calls[index]);
    }
    int most = most_in_flight(responses, SENDS);
    for (size_t index = 0; index < SENDS; index++) courier_response_free(responses[index]);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return most;
}

/* A blocking send on a thread of its own, for mixed_burst. */
struct blocking_send {
    courier_client *client;
    courier_request *request;
    courier_response *response;
};

static void *send_blocking(void *argument)
{
    struct blocking_send *send = argument;
    courier_error *failure = NULL;
    if (courier_client_send(send->client, send->request, &send->response, &failure) != COURIER_OK) {
        fprintf(stderr, "test_limits: a blocking send failed: %s\n", courier_error_message(failure));
        CHECK(0);
    }
    courier_error_free(failure);
    return NULL;
}

/* SENDS requests at once, half asynchronous and half blocking (each on its own thread), through
 * one client with `options`: the most requests the server saw at once. max_connections counts
 * both kinds: on curl, blocking sends otherwise drive connections of their own. */
static int mixed_burst(const courier_client_options *options, const char *path)
{
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *responses[SENDS] = {NULL};
    courier_call *calls[SENDS / 2] = {NULL};
    struct blocking_send sends[SENDS / 2];
    pthread_t threads[SENDS / 2];
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    for (size_t index = 0; index < SENDS / 2; index++) {
        sends[index] = (struct blocking_send){client, request, NULL};
        CHECK(pthread_create(&threads[index], NULL, send_blocking, &sends[index]) == 0);
        CHECK_OK(courier_client_send_async(client, request, NULL, keep, &responses[index], &calls[index], &error));
    }
    for (size_t index = 0; index < SENDS / 2; index++) {
        pthread_join(threads[index], NULL);
        responses[SENDS / 2 + index] = sends[index].response;
        CHECK_OK(courier_call_wait(calls[index], &error));
        courier_call_free(calls[index]);
    }
    int most = most_in_flight(responses, SENDS);
    for (size_t index = 0; index < SENDS; index++) courier_response_free(responses[index]);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return most;
}

static courier_transport transport_named(const char *name)
{
    return strcmp(name, "ahc") == 0 ? COURIER_TRANSPORT_ASYNC_HTTP_CLIENT : COURIER_TRANSPORT_CURL;
}

/* Two blocking sends `pause_ms` apart through one client. */
static void two_sends(courier_transport transport, int64_t idle_timeout_ms, long pause_ms)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    options.ignore_environment_proxy = 1;
    options.connect_timeout_ms = 60000; /* valgrind on a loaded 2-core machine: not the thing under test */
    options.idle_timeout_ms = idle_timeout_ms;
    courier_client *client = NULL;
    courier_request *request = NULL;
    char url[512];
    snprintf(url, sizeof url, "%s/anything/idle", base);
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    for (int send = 0; send < 2; send++) {
        courier_response *response = NULL;
        int status = 0;
        if (send == 1) sleep_ms(pause_ms);
        if (CHECK_OK(courier_client_send(client, request, &response, &error))) {
            courier_response_status(response, &status, NULL);
            CHECK_INT(status, 200);
        }
        courier_response_free(response);
    }
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: %s BASE_URL [idle|reuse curl|ahc]\n", argv[0]);
        return 2;
    }
    base = argv[1];
    if (argc == 4) {
        int idle = strcmp(argv[2], "idle") == 0;
        two_sends(transport_named(argv[3]), idle ? 100 : 0, idle ? 2200 : 0);
        return check_finish("test_limits");
    }
    const courier_transport transports[] = {COURIER_TRANSPORT_CURL, COURIER_TRANSPORT_ASYNC_HTTP_CLIENT};
    for (size_t index = 0; index < 2; index++) {
        courier_client_options options;
        courier_client_options_init(&options);
        options.transport = transports[index];
        options.ignore_environment_proxy = 1;
        /* Valgrind on a loaded 2-core machine: with one connection in all, AsyncHTTPClient counts a
         * send's wait for the pool's connection against the connect timeout (fresh-clone run 43). */
        options.connect_timeout_ms = 60000;
        options.callback_threads = SENDS;

        /* Two connections to the host: never more than two requests at the server at once. */
        options.max_connections_per_host = 2;
        int most = burst(&options, "/inflight/150");
        CHECK(most >= 1 && most <= 2);
        if (most > 2) fprintf(stderr, "test_limits: transport %zu had %d in flight with 2 per host\n", index, most);

        /* One connection in all, whatever the per-host limit. */
        options.max_connections_per_host = -1;
        options.max_connections = 1;
        most = burst(&options, "/inflight/50");
        CHECK_INT(most, 1);

        /* Two connections in all, for blocking and asynchronous sends together. */
        options.max_connections = 2;
        most = mixed_burst(&options, "/inflight/150");
        CHECK(most >= 1 && most <= 2);
        if (most > 2) fprintf(stderr, "test_limits: transport %zu had %d in flight with 2 in all\n", index, most);
    }
    return check_finish("test_limits");
}
