/*
 * libcourier with the Swift runtime linked in (-static-stdlib) and another Swift library on the
 * toolchain's shared runtime, in one process: both are linked into this program, and threads
 * use both at once (sends through Courier, work of the neighbour's own that needs its runtime:
 * metadata, protocols, classes, tasks). Passing means neither runtime disturbs the other.
 *
 * Usage: test_two_runtimes BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>

long long swift_neighbour_work(int rounds);
long long swift_neighbour_live_counters(void);

enum { THREADS = 4, SENDS = 20 };

static const char *base_url;
static courier_client *client;

static void *send_and_work(void *argument)
{
    (void)argument;
    char url[512];
    snprintf(url, sizeof url, "%s/get", base_url);
    for (int index = 0; index < SENDS; index++) {
        courier_error *error = NULL;
        courier_request *request = NULL;
        courier_response *response = NULL;
        if (CHECK_OK(courier_request_new("GET", url, &request, &error)) &&
            CHECK_OK(courier_client_send(client, request, &response, &error))) {
            int status = 0;
            courier_response_status(response, &status, NULL);
            CHECK_INT(status, 200);
        }
        courier_response_free(response);
        courier_request_free(request);
        CHECK(swift_neighbour_work(3) > 0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    base_url = argv[1];
    courier_error *error = NULL;
    CHECK(swift_neighbour_work(1) > 0);
    courier_client_options options;
    courier_client_options_init(&options);
    if (!CHECK_OK(courier_client_new(&options, &client, &error))) return check_finish("test_two_runtimes");
    pthread_t threads[THREADS];
    for (int index = 0; index < THREADS; index++) pthread_create(&threads[index], NULL, send_and_work, NULL);
    for (int index = 0; index < THREADS; index++) pthread_join(threads[index], NULL);
    courier_client_free(client);
    CHECK_INT(swift_neighbour_live_counters(), 0);
    return check_finish("test_two_runtimes");
}
