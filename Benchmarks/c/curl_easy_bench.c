/*
 * Raw libcurl baseline for Courier's HTTP benchmarks.
 *
 *   curl_easy_bench easy  URL COUNT SECONDS           one easy handle, GETs one after another
 *   curl_easy_bench multi URL COUNT SECONDS INFLIGHT  one multi handle, INFLIGHT transfers at once
 *
 * Every transfer is a keep-alive GET of URL whose body goes to a discarding write callback.
 * A warm-up of 200 transfers (or 4 per in-flight slot) opens the connections first; then the
 * measured phase stops after COUNT transfers or SECONDS seconds, whichever comes first.
 * Prints "requests/s: N" and a "RESULT scenario=... requests=... rps=..." line for run.sh.
 * Exits 1 on any failed transfer or non-200 status: a baseline that fails must not count.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -o curl_easy_bench curl_easy_bench.c $(pkg-config --cflags --libs libcurl)
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP_EASY 200L
#define WARMUP_PER_SLOT 4L
#define MAX_INFLIGHT 1024L

static size_t discard_body(char *data, size_t size, size_t count, void *user_data)
{
    (void)data;
    (void)user_data;
    return size * count;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static CURL *make_handle(const char *url)
{
    CURL *handle = curl_easy_init();
    if (handle == NULL) {
        return NULL;
    }
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard_body);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT, 10L);
    return handle;
}

/* Checks a finished transfer: 0 when it succeeded with a 200, else -1 after saying why. */
static int check_transfer(CURL *handle, CURLcode result)
{
    long status = 0;
    if (result != CURLE_OK) {
        fprintf(stderr, "curl_easy_bench: transfer failed: %s\n", curl_easy_strerror(result));
        return -1;
    }
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        fprintf(stderr, "curl_easy_bench: status %ld, expected 200\n", status);
        return -1;
    }
    return 0;
}

/* Runs up to count transfers on one reused easy handle until the deadline; returns how many, or -1. */
static long run_easy(CURL *handle, long count, double deadline)
{
    long done = 0;
    while (done < count && now_seconds() < deadline) {
        if (check_transfer(handle, curl_easy_perform(handle)) != 0) {
            return -1;
        }
        done++;
    }
    return done;
}

/* Keeps inflight transfers going on multi until count were started or the deadline passed, then
 * lets the started ones finish; returns how many completed, or -1. */
static long run_multi(CURLM *multi, CURL **handles, long inflight, long count, double deadline)
{
    long started = 0;
    long done = 0;
    int running = 0;
    for (long i = 0; i < inflight && started < count; i++, started++) {
        curl_multi_add_handle(multi, handles[i]);
    }
    do {
        CURLMsg *message;
        int queued;
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            fprintf(stderr, "curl_easy_bench: curl_multi_perform failed\n");
            return -1;
        }
        while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
            if (message->msg != CURLMSG_DONE) {
                continue;
            }
            CURL *handle = message->easy_handle;
            if (check_transfer(handle, message->data.result) != 0) {
                return -1;
            }
            done++;
            curl_multi_remove_handle(multi, handle);
            if (started < count && now_seconds() < deadline) {
                curl_multi_add_handle(multi, handle);
                started++;
                running++;
            }
        }
        if (running > 0 && curl_multi_poll(multi, NULL, 0, 1000, NULL) != CURLM_OK) {
            fprintf(stderr, "curl_easy_bench: curl_multi_poll failed\n");
            return -1;
        }
    } while (running > 0);
    return done;
}

static int usage(void)
{
    fprintf(stderr, "usage: curl_easy_bench easy URL COUNT SECONDS\n"
                    "       curl_easy_bench multi URL COUNT SECONDS INFLIGHT\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        return usage();
    }
    const char *mode = argv[1];
    const char *url = argv[2];
    long count = strtol(argv[3], NULL, 10);
    double seconds = strtod(argv[4], NULL);
    int multi_mode = strcmp(mode, "multi") == 0;
    long inflight = multi_mode && argc > 5 ? strtol(argv[5], NULL, 10) : 1;
    if ((!multi_mode && strcmp(mode, "easy") != 0) || (multi_mode && argc != 6) || (!multi_mode && argc != 5)
        || count < 1 || seconds <= 0 || inflight < 1 || inflight > MAX_INFLIGHT) {
        return usage();
    }
    if (strncmp(url, "http://127.0.0.1:", 17) != 0 && strncmp(url, "http://localhost:", 17) != 0) {
        fprintf(stderr, "curl_easy_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return 1;
    }

    CURL *handles[MAX_INFLIGHT];
    for (long i = 0; i < inflight; i++) {
        handles[i] = make_handle(url);
        if (handles[i] == NULL) {
            fprintf(stderr, "curl_easy_bench: curl_easy_init failed\n");
            return 1;
        }
    }
    CURLM *multi = NULL;
    if (multi_mode) {
        multi = curl_multi_init();
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
    }

    double warmup_deadline = now_seconds() + seconds;
    long warmed = multi_mode ? run_multi(multi, handles, inflight, inflight * WARMUP_PER_SLOT, warmup_deadline)
                             : run_easy(handles[0], WARMUP_EASY, warmup_deadline);
    double start = now_seconds();
    long done = warmed < 0 ? -1
              : multi_mode ? run_multi(multi, handles, inflight, count, start + seconds)
                           : run_easy(handles[0], count, start + seconds);
    double elapsed = now_seconds() - start;

    for (long i = 0; i < inflight; i++) {
        if (multi != NULL) {
            curl_multi_remove_handle(multi, handles[i]);
        }
        curl_easy_cleanup(handles[i]);
    }
    if (multi != NULL) {
        curl_multi_cleanup(multi);
    }
    curl_global_cleanup();
    if (done < 0) {
        return 1;
    }

    const char *scenario = multi_mode ? "libcurl-multi" : "libcurl-easy";
    long rate = elapsed > 0 ? (long)((double)done / elapsed + 0.5) : 0;
    printf("%s: %ld requests in %.3f s (%ld in flight), requests/s: %ld\n", scenario, done, elapsed, inflight, rate);
    printf("RESULT scenario=%s requests=%ld rps=%ld\n", scenario, done, rate);
    return 0;
}
