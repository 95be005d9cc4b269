/*
 * The cost of crossing into a C interceptor, without a network: a chain of N interceptors that
 * each set a header, ending in one that answers on its own (RESPOND), sent with
 * courier_client_send. The slope of time per send over N is the cost of one crossing.
 *
 *     capi_interceptor_bench [sends]                     the table, timed
 *     capi_interceptor_bench sends pass|stamp chain      one configuration, untimed, for
 *                                                        `valgrind --tool=callgrind` instruction counts
 */
#define _POSIX_C_SOURCE 199309L
#include <courier.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sets X-Stamp, to a value other than the one the previous stamp set, as a signature would. */
static courier_action stamp(void *user_data, courier_exchange *exchange) {
    static int flip;
    (void)user_data;
    courier_request *request = NULL;
    flip = !flip;
    if (courier_exchange_request(exchange, &request, NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
    if (courier_request_set_header(request, "X-Stamp", flip ? "1" : "2", NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
    return COURIER_ACTION_CONTINUE;
}

static courier_action pass(void *user_data, courier_exchange *exchange) {
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_CONTINUE;
}

static courier_action answer(void *user_data, courier_exchange *exchange) {
    (void)user_data;
    courier_response *response = NULL;
    if (courier_response_new(204, &response, NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
    if (courier_exchange_respond(exchange, response, NULL) != COURIER_OK) return COURIER_ACTION_FAIL;
    return COURIER_ACTION_RESPOND;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds per send through `stamps` interceptors running `callback` and the answering one. */
static double measure(courier_exchange_fn callback, int stamps, long sends) {
    courier_client *client = NULL;
    courier_request *request = NULL;
    if (courier_client_new(NULL, &client, NULL) != COURIER_OK) exit(1);
    courier_interceptor interceptor;
    for (int i = 0; i < stamps; i++) {
        courier_interceptor_init(&interceptor);
        interceptor.name = "stamp";
        interceptor.on_request = callback;
        if (courier_client_add_interceptor(client, &interceptor, NULL) != COURIER_OK) exit(1);
    }
    courier_interceptor_init(&interceptor);
    interceptor.name = "answer";
    interceptor.on_request = answer;
    if (courier_client_add_interceptor(client, &interceptor, NULL) != COURIER_OK) exit(1);
    if (courier_request_new("GET", "http://127.0.0.1:9/never-sent", &request, NULL) != COURIER_OK) exit(1);

    double best = 1e18;
    for (int round = 0; round < 5; round++) {
        double start = now_ns();
        for (long i = 0; i < sends; i++) {
            courier_response *response = NULL;
            if (courier_client_send(client, request, &response, NULL) != COURIER_OK) exit(2);
            courier_response_free(response);
        }
        double per_send = (now_ns() - start) / (double)sends;
        if (per_send < best) best = per_send;
    }
    courier_request_free(request);
    courier_client_free(client);
    return best;
}

/* Sends `sends` requests through one chain, for counting instructions rather than time. */
static int run_once(long sends, const char *kind, int stamps) {
    measure(strcmp(kind, "stamp") == 0 ? stamp : pass, stamps, sends);
    return 0;
}

int main(int argc, char **argv) {
    long sends = argc > 1 ? atol(argv[1]) : 20000;
    if (argc > 3) return run_once(sends, argv[2], atoi(argv[3]));
    int chains[] = {0, 1, 4, 16};
    double pass_ns[4], stamp_ns[4];
    for (int i = 0; i < 4; i++) {
        pass_ns[i] = measure(pass, chains[i], sends);
        stamp_ns[i] = measure(stamp, chains[i], sends);
        printf("c-interceptors-%d: %.0f ns per send passing on, %.0f ns setting a header\n", chains[i], pass_ns[i],
               stamp_ns[i]);
    }
    printf("c-interceptor crossing: %.0f ns per interceptor that passes on, %.0f ns per interceptor that sets a header "
           "(slope 0..16); the first one to set a header in a send adds %.0f ns, which includes making the request "
           "editable\n", (pass_ns[3] - pass_ns[0]) / 16.0, (stamp_ns[3] - stamp_ns[0]) / 16.0, stamp_ns[1] - stamp_ns[0]);
    return 0;
}
