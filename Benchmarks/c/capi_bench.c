/*
 * Courier's C API against the raw libcurl baselines (curl_easy_bench.c).
 *
 *   capi_bench URL COUNT SECONDS INTERCEPTORS [INFLIGHT]
 *
 * One client (curl transport) allowed INFLIGHT connections to the host (1 when sequential), one
 * request object reused for every send. Without INFLIGHT:
 * sequential keep-alive GETs through the blocking courier_client_send. With INFLIGHT: that many
 * courier_client_send_async calls in flight, each completion (on the client's callback pool)
 * freeing its response and starting the next send. INTERCEPTORS C interceptors (0 or more) each
 * set a header in on_request, so the difference between the 0 and 1 rows is the cost of one
 * crossing from the pipeline into C and back, with an edit.
 *
 * Warm-up, stop rule and output as in curl_easy_bench.c (bench_common.h's RESULT line). Exits 1
 * on any failed send or non-200 status.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -pthread -o capi_bench capi_bench.c $(pkg-config --cflags --libs courier)
 */
#include "bench_common.h"

#include <courier.h>

#include <pthread.h>
#include <stdlib.h>

#define WARMUP 200L
#define MAX_INTERCEPTORS 64
#define MAX_INFLIGHT 1024L
/* The body-size rows reach 64 MiB, which is exactly the default limit: leave room above it. */
#define MAX_BODY_BYTES (128LL << 20)

/* Sets X-Bench on the request: a real edit, as an auth or tracing interceptor makes. */
static courier_action stamp(void *user_data, courier_exchange *exchange)
{
    courier_request *request = NULL;
    if (courier_exchange_request(exchange, &request, NULL) != COURIER_OK
        || courier_request_set_header(request, "X-Bench", user_data, NULL) != COURIER_OK) {
        return COURIER_ACTION_FAIL;
    }
    return COURIER_ACTION_CONTINUE;
}

/* Sends up to count requests one after another until the deadline; returns how many, or -1 after saying why. */
static long run_blocking(courier_client *client, const courier_request *request, long count, double deadline)
{
    long done = 0;
    while (done < count && bench_now() < deadline) {
        courier_response *response = NULL;
        courier_error *error = NULL;
        int status = 0;
        if (courier_client_send(client, request, &response, &error) != COURIER_OK) {
            fprintf(stderr, "capi_bench: send failed: %s\n", courier_error_message(error));
            courier_error_free(error);
            return -1;
        }
        courier_response_status(response, &status, NULL);
        courier_response_free(response);
        if (status != 200) {
            fprintf(stderr, "capi_bench: status %d, expected 200\n", status);
            return -1;
        }
        done++;
    }
    return done;
}

/* The state of one asynchronous phase, shared by the completions. */
typedef struct async_phase {
    pthread_mutex_t lock;
    pthread_cond_t finished;
    courier_client *client;
    const courier_request *request;
    long count;
    double deadline;
    long started;
    long done;
    int failed;
} async_phase;

static void start_send(async_phase *phase);

/* A send ended: count it, then start the next one while the phase lasts. */
static void completed(void *user_data, courier_response *response, courier_error *error)
{
    async_phase *phase = user_data;
    int status = 0;
    if (response != NULL) {
        courier_response_status(response, &status, NULL);
        courier_response_free(response);
    } else {
        fprintf(stderr, "capi_bench: send failed: %s\n", courier_error_message(error));
        courier_error_free(error);
    }
    pthread_mutex_lock(&phase->lock);
    phase->done++;
    if (status != 200) {
        phase->failed = 1;
    }
    int more = !phase->failed && phase->started < phase->count && bench_now() < phase->deadline;
    if (more) {
        phase->started++;
    }
    int all_done = phase->done == phase->started;
    pthread_mutex_unlock(&phase->lock);
    if (more) {
        start_send(phase);
    } else if (all_done) {
        pthread_cond_signal(&phase->finished);
    }
}

/* Starts one counted send; a refusal counts as a failed completion. */
static void start_send(async_phase *phase)
{
    courier_error *error = NULL;
    if (courier_client_send_async(phase->client, phase->request, NULL, completed, phase, NULL, &error) != COURIER_OK) {
        completed(phase, NULL, error);
    }
}

/* Keeps inflight sends going until count were started or the deadline passed; returns how many completed, or -1. */
static long run_async(courier_client *client, const courier_request *request, long inflight, long count, double deadline)
{
    async_phase phase = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, client, request, count, deadline, 0, 0, 0};
    long first = inflight < count ? inflight : count;
    pthread_mutex_lock(&phase.lock);
    phase.started = first;
    pthread_mutex_unlock(&phase.lock);
    for (long i = 0; i < first; i++) {
        start_send(&phase);
    }
    pthread_mutex_lock(&phase.lock);
    while (phase.done < phase.started) {
        pthread_cond_wait(&phase.finished, &phase.lock);
    }
    long done = phase.failed ? -1 : phase.done;
    pthread_mutex_unlock(&phase.lock);
    return done;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: capi_bench URL COUNT SECONDS INTERCEPTORS [INFLIGHT]\n");
        return 2;
    }
    const char *url = argv[1];
    long count = strtol(argv[2], NULL, 10);
    double seconds = strtod(argv[3], NULL);
    long interceptors = strtol(argv[4], NULL, 10);
    long inflight = argc == 6 ? strtol(argv[5], NULL, 10) : 0;
    if (count < 1 || seconds <= 0 || interceptors < 0 || interceptors > MAX_INTERCEPTORS || inflight < 0
        || inflight > MAX_INFLIGHT) {
        fprintf(stderr, "usage: capi_bench URL COUNT SECONDS INTERCEPTORS (0 to %d) [INFLIGHT (1 to %ld)]\n",
                MAX_INTERCEPTORS, MAX_INFLIGHT);
        return 2;
    }
    if (!bench_is_loopback(url)) {
        fprintf(stderr, "capi_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }

    /* Equal connections: at INFLIGHT sends, as many connections to the host as the raw rows open. */
    courier_client_options options;
    courier_client_options_init(&options);
    options.max_connections_per_host = inflight > 0 ? (int32_t)inflight : 1;
    options.max_body_bytes = MAX_BODY_BYTES;
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_error *error = NULL;
    if (courier_client_new(&options, &client, &error) != COURIER_OK
        || courier_request_new("GET", url, &request, &error) != COURIER_OK) {
        fprintf(stderr, "capi_bench: %s\n", courier_error_message(error));
        return 1;
    }
    for (long i = 0; i < interceptors; i++) {
        courier_interceptor interceptor;
        courier_interceptor_init(&interceptor);
        interceptor.name = "bench-stamp";
        interceptor.on_request = stamp;
        interceptor.user_data = "1";
        if (courier_client_add_interceptor(client, &interceptor, &error) != COURIER_OK) {
            fprintf(stderr, "capi_bench: %s\n", courier_error_message(error));
            return 1;
        }
    }

    long warmed = inflight > 0 ? run_async(client, request, inflight, inflight * 4, bench_now() + seconds)
                               : run_blocking(client, request, WARMUP, bench_now() + seconds);
    bench_phase phase = bench_phase_start();
    long done = warmed < 0 ? -1
              : inflight > 0 ? run_async(client, request, inflight, count, phase.wall + seconds)
                             : run_blocking(client, request, count, phase.wall + seconds);
    if (done > 0) {
        char scenario[64];
        snprintf(scenario, sizeof scenario, inflight > 0 ? "capi-async-%ld-interceptors" : "capi-%ld-interceptors",
                 interceptors);
        bench_report(scenario, phase, done, inflight > 0 ? inflight : 1, interceptors);
    }
    courier_request_free(request);
    courier_client_free(client);
    return done > 0 ? 0 : 1;
}
