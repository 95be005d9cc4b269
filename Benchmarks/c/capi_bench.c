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
 * Scale mode (BENCH_SCALE=1, with INFLIGHT; the in-flight ladder, see bench_common.h): a warm-up
 * cycle of INFLIGHT x 2 sends on a client of its own, freed after it; the "before" snapshot; the
 * measured cycle on a new client, whose sends go on until the deadline (or COUNT were started),
 * when this thread, woken by a timed wait and not by a completion, takes the "during" snapshot
 * with every send still in flight, then stops starting sends and waits for the rest; the client
 * freed (and its transport's shutdown waited for); the "after" snapshot. Each send's latency runs from just before courier_client_send_async
 * to its completion callback, which receives the whole response. INFLIGHT goes to 10,000
 * (ulimit -n 65536 first).
 *
 * Build: cc -O2 -Wall -Wextra -Werror -pthread -o capi_bench capi_bench.c $(pkg-config --cflags --libs courier)
 */
#include "bench_common.h"

#include <courier.h>

#include <pthread.h>
#include <stdlib.h>

#define WARMUP 200L
#define MAX_INTERCEPTORS 64
#define MAX_INFLIGHT 10000L
#define SCALE_WARMUP_PER_SLOT 2L
/* The body-size rows reach 64 MiB, which is exactly the default limit: leave room above it. */
#define MAX_BODY_BYTES (128LL << 20)
/* A deadline that never comes: scale mode's warm-up ends by its count alone. */
#define NO_DEADLINE 1e18

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
    pthread_cond_t changed; /* every started send completed, or the last allowed one was started */
    courier_client *client;
    const courier_request *request;
    long count;
    double deadline;
    long started;
    long done;
    int failed;
    int held_open;              /* scale mode: sends go on until `stopped`, which the measuring thread sets */
    int stopped;
    bench_latencies *latencies; /* scale mode: each send's latency; NULL otherwise */
} async_phase;

/* One in-flight slot: each completion starts the slot's next send. */
typedef struct async_slot {
    async_phase *phase;
    double sent_at;
} async_slot;

static void start_send(async_slot *slot);

/* Whether a completion starts another send (lock held). */
static int goes_on(const async_phase *phase)
{
    return !phase->failed && phase->started < phase->count
        && (phase->held_open ? !phase->stopped : bench_now() < phase->deadline);
}

/* A send ended: count it, then start the next one while the phase lasts. */
static void completed(void *user_data, courier_response *response, courier_error *error)
{
    async_slot *slot = user_data;
    async_phase *phase = slot->phase;
    double finished_at = phase->latencies != NULL ? bench_now() : 0;
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
    if (phase->latencies != NULL && bench_latencies_add(phase->latencies, finished_at - slot->sent_at) != 0) {
        phase->failed = 1;
    }
    int more = goes_on(phase);
    if (more) {
        phase->started++;
    }
    /* Signalled under the lock: once the waiter sees the phase over, it may free the phase. */
    if (phase->done == phase->started || (more && phase->started == phase->count)) {
        pthread_cond_signal(&phase->changed);
    }
    pthread_mutex_unlock(&phase->lock);
    if (more) {
        start_send(slot);
    }
}

/* Starts one counted send; a refusal counts as a failed completion. */
static void start_send(async_slot *slot)
{
    async_phase *phase = slot->phase;
    courier_error *error = NULL;
    if (phase->latencies != NULL) {
        slot->sent_at = bench_now();
    }
    if (courier_client_send_async(phase->client, phase->request, NULL, completed, slot, NULL, &error) != COURIER_OK) {
        completed(slot, NULL, error);
    }
}

/* Scale mode (lock held): sleeps until the deadline, or until COUNT sends were started or none is
 * left in flight, whichever comes first. A timed wait, so the measuring thread wakes at the
 * deadline whatever the completions do. */
static void wait_for_stop_point(async_phase *phase)
{
    double whole = (double)(time_t)phase->deadline;
    struct timespec until = {(time_t)phase->deadline, (long)((phase->deadline - whole) * 1e9)};
    while (phase->done < phase->started && phase->started < phase->count && bench_now() < phase->deadline) {
        pthread_cond_timedwait(&phase->changed, &phase->lock, &until);
    }
}

/* Keeps inflight sends going until count were started or the deadline passed; returns how many
 * completed, or -1. With scale, records each latency into it and takes its "during" snapshot at
 * the deadline, before the sends in flight drain. */
static long run_async(courier_client *client, const courier_request *request, long inflight, long count, double deadline,
                      bench_scale *scale)
{
    async_slot *slots = calloc((size_t)inflight, sizeof *slots);
    if (slots == NULL) {
        return -1;
    }
    async_phase phase = {.client = client, .request = request, .count = count, .deadline = deadline,
                         .held_open = scale != NULL, .latencies = scale != NULL ? &scale->latencies : NULL};
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&phase.changed, &attributes);
    pthread_condattr_destroy(&attributes);
    pthread_mutex_init(&phase.lock, NULL);

    long first = inflight < count ? inflight : count;
    pthread_mutex_lock(&phase.lock);
    phase.started = first;
    pthread_mutex_unlock(&phase.lock);
    for (long i = 0; i < first; i++) {
        slots[i].phase = &phase;
        start_send(&slots[i]);
    }
    pthread_mutex_lock(&phase.lock);
    if (scale != NULL) {
        wait_for_stop_point(&phase);
        pthread_mutex_unlock(&phase.lock);
        scale->during = bench_snapshot_take();
        pthread_mutex_lock(&phase.lock);
        phase.stopped = 1;
    }
    while (phase.done < phase.started) {
        pthread_cond_wait(&phase.changed, &phase.lock);
    }
    long done = phase.failed ? -1 : phase.done;
    pthread_mutex_unlock(&phase.lock);
    pthread_cond_destroy(&phase.changed);
    pthread_mutex_destroy(&phase.lock);
    free(slots);
    return done;
}

/* A client (curl transport) with `per_host` connections to the host and `interceptors` stamping
 * C interceptors; NULL after saying why. */
static courier_client *make_client(long per_host, long interceptors)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.max_connections_per_host = (int32_t)per_host;
    /* Keep every slot's connection when a round ends many transfers at once, as the Swift rows
     * and raw multi (4 per handle) do. The library's default does so since 8116a06; set here so
     * an A/B against an older commit (whose default kept 32) compares like with like. */
    options.max_idle_connections = per_host > 32 ? (int32_t)per_host : 0;
    options.max_body_bytes = MAX_BODY_BYTES;
    courier_client *client = NULL;
    courier_error *error = NULL;
    if (courier_client_new(&options, &client, &error) != COURIER_OK) {
        fprintf(stderr, "capi_bench: %s\n", courier_error_message(error));
        courier_error_free(error);
        return NULL;
    }
    for (long i = 0; i < interceptors; i++) {
        courier_interceptor interceptor;
        courier_interceptor_init(&interceptor);
        interceptor.name = "bench-stamp";
        interceptor.on_request = stamp;
        interceptor.user_data = "1";
        if (courier_client_add_interceptor(client, &interceptor, &error) != COURIER_OK) {
            fprintf(stderr, "capi_bench: %s\n", courier_error_message(error));
            courier_error_free(error);
            courier_client_free(client);
            return NULL;
        }
    }
    return client;
}

/* Frees a client and waits until it is entirely gone. courier_client_free returns once the
 * client's threads are done, but the transport it owned shuts down just after, on a task of its
 * own, closing its connections then: a snapshot taken at once would count them (and their
 * memory). So wait until the process's descriptors stop changing: unchanged for 100 ms, checked
 * every 5 ms (the shutdown takes a few ms at 1,024 connections), 5 s at most. */
static void free_client_entirely(courier_client *client)
{
    courier_client_free(client);
    long fds = bench_count_fds();
    double unchanged_since = bench_now();
    double give_up = unchanged_since + 5;
    while (bench_now() - unchanged_since < 0.1 && bench_now() < give_up) {
        usleep(5000);
        long now = bench_count_fds();
        if (now != fds) {
            fds = now;
            unchanged_since = bench_now();
        }
    }
}

/* Scale mode: the warm-up cycle, then the measured cycle between the snapshots; the exit status. */
static int run_scale(const courier_request *request, long count, double seconds, long interceptors, long inflight)
{
    bench_scale scale = {0};
    if (bench_latencies_reserve(&scale.latencies, count) != 0) {
        fprintf(stderr, "capi_bench: out of memory\n");
        return 1;
    }
    courier_client *client = make_client(inflight, interceptors);
    long warmed = client == NULL ? -1
                : run_async(client, request, inflight, inflight * SCALE_WARMUP_PER_SLOT, NO_DEADLINE, NULL);
    free_client_entirely(client);
    long done = -1;
    if (warmed >= 0) {
        scale.before = bench_snapshot_take();
        client = make_client(inflight, interceptors);
        bench_phase phase = bench_phase_start();
        done = client == NULL ? -1 : run_async(client, request, inflight, count, phase.wall + seconds, &scale);
        bench_totals totals = bench_phase_end(phase, done);
        free_client_entirely(client);
        scale.after = bench_snapshot_take();
        if (done > 0) {
            char scenario[64];
            snprintf(scenario, sizeof scenario, "capi-async-%ld-interceptors", interceptors);
            bench_report_scale(scenario, totals, inflight, interceptors, &scale);
        }
    }
    bench_latencies_free(&scale.latencies);
    return done > 0 ? 0 : 1;
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
    int scale = bench_scale_enabled();
    if (count < 1 || seconds <= 0 || interceptors < 0 || interceptors > MAX_INTERCEPTORS || inflight < 0
        || inflight > MAX_INFLIGHT || (scale && inflight < 1)) {
        fprintf(stderr, "usage: capi_bench URL COUNT SECONDS INTERCEPTORS (0 to %d) [INFLIGHT (1 to %ld)]\n"
                        "       BENCH_SCALE=1 needs INFLIGHT (scale mode measures the asynchronous send)\n",
                MAX_INTERCEPTORS, MAX_INFLIGHT);
        return 2;
    }
    if (!bench_is_loopback(url)) {
        fprintf(stderr, "capi_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }

    courier_request *request = NULL;
    courier_error *error = NULL;
    if (courier_request_new("GET", url, &request, &error) != COURIER_OK) {
        fprintf(stderr, "capi_bench: %s\n", courier_error_message(error));
        return 1;
    }
    if (scale) {
        int status = run_scale(request, count, seconds, interceptors, inflight);
        courier_request_free(request);
        return status;
    }

    /* Equal connections: at INFLIGHT sends, as many connections to the host as the raw rows open. */
    courier_client *client = make_client(inflight > 0 ? inflight : 1, interceptors);
    if (client == NULL) {
        return 1;
    }
    long warmed = inflight > 0 ? run_async(client, request, inflight, inflight * 4, bench_now() + seconds, NULL)
                               : run_blocking(client, request, WARMUP, bench_now() + seconds);
    bench_phase phase = bench_phase_start();
    long done = warmed < 0 ? -1
              : inflight > 0 ? run_async(client, request, inflight, count, phase.wall + seconds, NULL)
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
