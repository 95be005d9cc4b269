/*
 * Courier's C API against the raw libcurl baseline (curl_easy_bench.c).
 *
 *   capi_bench URL COUNT SECONDS INTERCEPTORS
 *
 * One client (curl transport), one request object reused for every send: sequential keep-alive
 * GETs of URL through courier_client_send, each response freed at once. INTERCEPTORS C
 * interceptors (0 or more) each set a header in on_request, so the difference between the
 * 0 and 1 rows is the cost of one crossing from the pipeline into C and back, with an edit.
 * A warm-up of 200 sends opens the connection first; then the measured phase stops after COUNT
 * sends or SECONDS seconds, whichever comes first. Prints "requests/s: N" and a
 * "RESULT scenario=... requests=... rps=... ns_per_request=..." line for run.sh.
 * Exits 1 on any failed send or non-200 status.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -o capi_bench capi_bench.c $(pkg-config --cflags --libs courier)
 */
#define _POSIX_C_SOURCE 200809L
#include <courier.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP 200L
#define MAX_INTERCEPTORS 64

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* Sends up to count requests until the deadline; returns how many, or -1 after saying why. */
static long run(courier_client *client, const courier_request *request, long count, double deadline)
{
    long done = 0;
    while (done < count && now_seconds() < deadline) {
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

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: capi_bench URL COUNT SECONDS INTERCEPTORS\n");
        return 2;
    }
    const char *url = argv[1];
    long count = strtol(argv[2], NULL, 10);
    double seconds = strtod(argv[3], NULL);
    long interceptors = strtol(argv[4], NULL, 10);
    if (count < 1 || seconds <= 0 || interceptors < 0 || interceptors > MAX_INTERCEPTORS) {
        fprintf(stderr, "usage: capi_bench URL COUNT SECONDS INTERCEPTORS (0 to %d)\n", MAX_INTERCEPTORS);
        return 2;
    }
    if (strncmp(url, "http://127.0.0.1:", 17) != 0 && strncmp(url, "http://localhost:", 17) != 0) {
        fprintf(stderr, "capi_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }

    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_error *error = NULL;
    if (courier_client_new(NULL, &client, &error) != COURIER_OK
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

    long warmed = run(client, request, WARMUP, now_seconds() + seconds);
    double start = now_seconds();
    long done = warmed < 0 ? -1 : run(client, request, count, start + seconds);
    double elapsed = now_seconds() - start;
    courier_request_free(request);
    courier_client_free(client);
    if (done <= 0) {
        return 1;
    }

    char scenario[64];
    snprintf(scenario, sizeof scenario, "capi-%ld-interceptors", interceptors);
    long rate = (long)((double)done / elapsed + 0.5);
    printf("%s: %ld requests in %.3f s, requests/s: %ld\n", scenario, done, elapsed, rate);
    printf("RESULT scenario=%s requests=%ld rps=%ld ns_per_request=%.0f\n", scenario, done, rate,
           elapsed * 1e9 / (double)done);
    return 0;
}
