/*
 * Raw libcurl: the engine ceiling the Courier rows are measured against.
 *
 *   curl_easy_bench easy  URL COUNT SECONDS                    one easy handle, GETs one after another
 *   curl_easy_bench multi URL COUNT SECONDS INFLIGHT           one multi handle, INFLIGHT transfers at
 *                                                              once, at most INFLIGHT connections to the host
 *   curl_easy_bench h2    URL COUNT SECONDS INFLIGHT CAFILE    INFLIGHT HTTP/2 streams multiplexed on ONE
 *                                                              TLS connection (CURLPIPE_MULTIPLEX, PIPEWAIT)
 *
 * Every transfer is a keep-alive GET of URL, asking for compressed bodies as every row does
 * (CURLOPT_ACCEPT_ENCODING ""), whose body goes to a discarding write callback: nothing is
 * copied, parsed or handed to another thread, which is what makes this the ceiling. Handles are
 * set up once and re-added as they are. A warm-up of 200 transfers (or 4 per in-flight slot)
 * opens the connections first; then the measured phase stops after COUNT transfers or SECONDS
 * seconds, whichever comes first. Prints the RESULT line of bench_common.h. Exits 1 on any failed
 * transfer or non-200 status: a baseline that fails must not count.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -o curl_easy_bench curl_easy_bench.c $(pkg-config --cflags --libs libcurl)
 */
#include "bench_common.h"

#include <curl/curl.h>
#include <stdlib.h>

#define WARMUP_EASY 200L
#define WARMUP_PER_SLOT 4L
#define MAX_INFLIGHT 1024L

static size_t discard_body(char *data, size_t size, size_t count, void *user_data)
{
    (void)data;
    (void)user_data;
    return size * count;
}

static CURL *make_handle(const char *url, const char *ca_file)
{
    CURL *handle = curl_easy_init();
    if (handle == NULL) {
        return NULL;
    }
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard_body);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    /* Courier's default deadline: a 64 MiB body at 32 in flight, or a transfer at 10,000 in
     * flight, can take more than the 10 s this was. */
    curl_easy_setopt(handle, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
    if (ca_file != NULL) {
        curl_easy_setopt(handle, CURLOPT_CAINFO, ca_file);
        curl_easy_setopt(handle, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(handle, CURLOPT_PIPEWAIT, 1L);
    }
    return handle;
}

/* Checks a finished transfer: 0 when it succeeded with a 200 (over HTTP/2 when h2 is set), else -1. */
static int check_transfer(CURL *handle, CURLcode result, int h2)
{
    long status = 0;
    long version = 0;
    if (result != CURLE_OK) {
        fprintf(stderr, "curl_easy_bench: transfer failed: %s\n", curl_easy_strerror(result));
        return -1;
    }
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        fprintf(stderr, "curl_easy_bench: status %ld, expected 200\n", status);
        return -1;
    }
    curl_easy_getinfo(handle, CURLINFO_HTTP_VERSION, &version);
    if (h2 && version != CURL_HTTP_VERSION_2_0) {
        fprintf(stderr, "curl_easy_bench: answered over HTTP version %ld, expected HTTP/2\n", version);
        return -1;
    }
    return 0;
}

/* Runs up to count transfers on one reused easy handle until the deadline; returns how many, or -1. */
static long run_easy(CURL *handle, long count, double deadline)
{
    long done = 0;
    while (done < count && bench_now() < deadline) {
        if (check_transfer(handle, curl_easy_perform(handle), 0) != 0) {
            return -1;
        }
        done++;
    }
    return done;
}

/* Keeps inflight transfers going on multi until count were started or the deadline passed, then
 * lets the started ones finish; returns how many completed, or -1. */
static long run_multi(CURLM *multi, CURL **handles, long inflight, long count, double deadline, int h2)
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
            if (check_transfer(handle, message->data.result, h2) != 0) {
                return -1;
            }
            done++;
            curl_multi_remove_handle(multi, handle);
            if (started < count && bench_now() < deadline) {
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
    fprintf(stderr, "usage: curl_easy_bench easy  URL COUNT SECONDS\n"
                    "       curl_easy_bench multi URL COUNT SECONDS INFLIGHT\n"
                    "       curl_easy_bench h2    URL COUNT SECONDS INFLIGHT CAFILE\n");
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
    int easy_mode = strcmp(mode, "easy") == 0;
    int h2 = strcmp(mode, "h2") == 0;
    int multi_mode = h2 || strcmp(mode, "multi") == 0;
    long inflight = multi_mode && argc > 5 ? strtol(argv[5], NULL, 10) : 1;
    const char *ca_file = h2 && argc > 6 ? argv[6] : NULL;
    if (!(easy_mode || multi_mode) || argc != (easy_mode ? 5 : h2 ? 7 : 6) || count < 1 || seconds <= 0
        || inflight < 1 || inflight > MAX_INFLIGHT) {
        return usage();
    }
    if (!bench_is_loopback(url)) {
        fprintf(stderr, "curl_easy_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return 1;
    }

    CURL *handles[MAX_INFLIGHT];
    for (long i = 0; i < inflight; i++) {
        handles[i] = make_handle(url, ca_file);
        if (handles[i] == NULL) {
            fprintf(stderr, "curl_easy_bench: curl_easy_init failed\n");
            return 1;
        }
    }
    /* Connections per host: one for HTTP/2 (every stream shares it), one per transfer otherwise. */
    long per_host = h2 ? 1 : inflight;
    CURLM *multi = NULL;
    if (multi_mode) {
        multi = curl_multi_init();
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
        curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, per_host);
        curl_multi_setopt(multi, CURLMOPT_PIPELINING, h2 ? (long)CURLPIPE_MULTIPLEX : (long)CURLPIPE_NOTHING);
    }

    long warmed = multi_mode ? run_multi(multi, handles, inflight, inflight * WARMUP_PER_SLOT, bench_now() + seconds, h2)
                             : run_easy(handles[0], WARMUP_EASY, bench_now() + seconds);
    bench_phase phase = bench_phase_start();
    long done = warmed < 0 ? -1
              : multi_mode ? run_multi(multi, handles, inflight, count, phase.wall + seconds, h2)
                           : run_easy(handles[0], count, phase.wall + seconds);
    if (done > 0) {
        bench_report(h2 ? "libcurl-h2" : multi_mode ? "libcurl-multi" : "libcurl-easy", phase, done, per_host, 0);
    }

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
    return done > 0 ? 0 : 1;
}
