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
 * Scale mode (BENCH_SCALE=1, multi only; the in-flight ladder, see bench_common.h): a cycle is a
 * multi handle and its INFLIGHT easy handles, made, run and cleaned up (every connection closed).
 * A warm-up cycle of INFLIGHT x 2 transfers; the "before" snapshot; the measured cycle, whose
 * transfers go on until the deadline (or COUNT were started), when the loop, whose poll wakes at
 * the deadline, takes the "during" snapshot with every transfer still added, then stops adding and
 * lets the rest finish; the cleanup; the "after" snapshot. A transfer's latency runs from just
 * before curl_multi_add_handle to its CURLMSG_DONE. INFLIGHT goes to 10,000 (ulimit -n 65536).
 *
 * Build: cc -O2 -Wall -Wextra -Werror -o curl_easy_bench curl_easy_bench.c $(pkg-config --cflags --libs libcurl)
 */
#include "bench_common.h"

#include <curl/curl.h>
#include <stdlib.h>

#define WARMUP_EASY 200L
#define WARMUP_PER_SLOT 4L
#define SCALE_WARMUP_PER_SLOT 2L
#define MAX_INFLIGHT 10000L
/* A deadline that never comes: scale mode's warm-up ends by its count alone. */
#define NO_DEADLINE 1e18

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

/* Scale mode: adds a transfer, noting when, for its latency. Its CURLOPT_PRIVATE is its start time. */
static void add_timed(CURLM *multi, CURL *handle)
{
    double *sent_at = NULL;
    curl_easy_getinfo(handle, CURLINFO_PRIVATE, (char **)&sent_at);
    *sent_at = bench_now();
    curl_multi_add_handle(multi, handle);
}

/* Scale mode: records a finished transfer's latency; -1 when out of memory. */
static int record_latency(bench_scale *scale, CURL *handle)
{
    double *sent_at = NULL;
    curl_easy_getinfo(handle, CURLINFO_PRIVATE, (char **)&sent_at);
    return bench_latencies_add(&scale->latencies, bench_now() - *sent_at);
}

/* How long the poll may sleep: 1 s, or in scale mode no later than the deadline (rounded up to the
 * millisecond, so the loop never wakes just before it and spins), so the "during" snapshot is
 * taken on time even when no transfer ends then. */
static int poll_timeout_ms(double deadline, int timed)
{
    if (!timed) {
        return 1000;
    }
    double left = (deadline - bench_now()) * 1e3;
    return left >= 1000 ? 1000 : left <= 0 ? 0 : (int)left + 1;
}

/* Keeps inflight transfers going on multi until count were started or the deadline passed, then
 * lets the started ones finish; returns how many completed, or -1. With scale, records each
 * latency into it and takes its "during" snapshot at the deadline, with every transfer still
 * added, before the rest drain. */
static long run_multi(CURLM *multi, CURL **handles, long inflight, long count, double deadline, int h2,
                      bench_scale *scale)
{
    long started = 0;
    long done = 0;
    int running = 0;
    int stopping = 0; /* scale mode: the snapshot is taken, no more transfers are added */
    for (long i = 0; i < inflight && started < count; i++, started++) {
        if (scale != NULL) {
            add_timed(multi, handles[i]);
        } else {
            curl_multi_add_handle(multi, handles[i]);
        }
    }
    do {
        CURLMsg *message;
        int queued;
        if (scale != NULL && !stopping && (started >= count || bench_now() >= deadline)) {
            scale->during = bench_snapshot_take();
            stopping = 1;
        }
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            fprintf(stderr, "curl_easy_bench: curl_multi_perform failed\n");
            return -1;
        }
        while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
            if (message->msg != CURLMSG_DONE) {
                continue;
            }
            CURL *handle = message->easy_handle;
            if (check_transfer(handle, message->data.result, h2) != 0
                || (scale != NULL && record_latency(scale, handle) != 0)) {
                return -1;
            }
            done++;
            curl_multi_remove_handle(multi, handle);
            if (scale != NULL) {
                if (!stopping && started < count) {
                    add_timed(multi, handle);
                    started++;
                    running++;
                }
            } else if (started < count && bench_now() < deadline) {
                curl_multi_add_handle(multi, handle);
                started++;
                running++;
            }
        }
        if (running > 0
            && curl_multi_poll(multi, NULL, 0, poll_timeout_ms(deadline, scale != NULL && !stopping), NULL) != CURLM_OK) {
            fprintf(stderr, "curl_easy_bench: curl_multi_poll failed\n");
            return -1;
        }
    } while (running > 0);
    return done;
}

/* A multi handle (or none, for easy) and its transfers' easy handles, which a cycle makes and cleans up. */
typedef struct transfers {
    CURLM *multi;
    CURL **handles;
    double *sent_at; /* scale mode: each handle's start time, its CURLOPT_PRIVATE */
    long count;
} transfers;

static void close_transfers(transfers *set)
{
    for (long i = 0; i < set->count; i++) {
        if (set->multi != NULL) {
            curl_multi_remove_handle(set->multi, set->handles[i]);
        }
        curl_easy_cleanup(set->handles[i]);
    }
    if (set->multi != NULL) {
        curl_multi_cleanup(set->multi);
    }
    free(set->handles);
    free(set->sent_at);
    memset(set, 0, sizeof *set);
}

/* Makes inflight easy handles, and the multi handle unless easy; with timed, each handle's
 * CURLOPT_PRIVATE points to its start time. Returns -1 after saying why. */
static int open_transfers(transfers *set, const char *url, const char *ca_file, long inflight, int multi_mode, int h2,
                          int timed)
{
    memset(set, 0, sizeof *set);
    set->handles = calloc((size_t)inflight, sizeof *set->handles);
    set->sent_at = timed ? calloc((size_t)inflight, sizeof *set->sent_at) : NULL;
    if (set->handles == NULL || (timed && set->sent_at == NULL)) {
        fprintf(stderr, "curl_easy_bench: out of memory\n");
        close_transfers(set);
        return -1;
    }
    for (; set->count < inflight; set->count++) {
        CURL *handle = make_handle(url, ca_file);
        if (handle == NULL) {
            fprintf(stderr, "curl_easy_bench: curl_easy_init failed\n");
            close_transfers(set);
            return -1;
        }
        if (timed) {
            curl_easy_setopt(handle, CURLOPT_PRIVATE, (void *)&set->sent_at[set->count]);
        }
        set->handles[set->count] = handle;
    }
    if (multi_mode) {
        /* Connections per host: one for HTTP/2 (every stream shares it), one per transfer otherwise;
         * the cache keeps all INFLIGHT open between transfers, so each is reused. */
        set->multi = curl_multi_init();
        curl_multi_setopt(set->multi, CURLMOPT_MAXCONNECTS, inflight);
        curl_multi_setopt(set->multi, CURLMOPT_MAX_HOST_CONNECTIONS, h2 ? 1L : inflight);
        curl_multi_setopt(set->multi, CURLMOPT_PIPELINING, h2 ? (long)CURLPIPE_MULTIPLEX : (long)CURLPIPE_NOTHING);
    }
    return 0;
}

/* Scale mode (multi): the warm-up cycle, then the measured cycle between the snapshots; the exit status. */
static int run_scale(const char *url, long count, double seconds, long inflight)
{
    bench_scale scale = {0};
    transfers set;
    if (bench_latencies_reserve(&scale.latencies, count) != 0) {
        fprintf(stderr, "curl_easy_bench: out of memory\n");
        return 1;
    }
    long done = -1;
    if (open_transfers(&set, url, NULL, inflight, 1, 0, 1) == 0) {
        long warmed = run_multi(set.multi, set.handles, inflight, inflight * SCALE_WARMUP_PER_SLOT, NO_DEADLINE, 0, NULL);
        close_transfers(&set);
        scale.before = bench_snapshot_take();
        if (warmed >= 0 && open_transfers(&set, url, NULL, inflight, 1, 0, 1) == 0) {
            bench_phase phase = bench_phase_start();
            done = run_multi(set.multi, set.handles, inflight, count, phase.wall + seconds, 0, &scale);
            bench_totals totals = bench_phase_end(phase, done);
            close_transfers(&set);
            scale.after = bench_snapshot_take();
            if (done > 0) {
                bench_report_scale("libcurl-multi", totals, inflight, 0, &scale);
            }
        }
    }
    bench_latencies_free(&scale.latencies);
    return done > 0 ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: curl_easy_bench easy  URL COUNT SECONDS\n"
                    "       curl_easy_bench multi URL COUNT SECONDS INFLIGHT\n"
                    "       curl_easy_bench h2    URL COUNT SECONDS INFLIGHT CAFILE\n"
                    "INFLIGHT 1 to %ld; BENCH_SCALE=1 (scale mode) with multi only\n",
            MAX_INFLIGHT);
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
    int scale = bench_scale_enabled();
    if (!(easy_mode || multi_mode) || argc != (easy_mode ? 5 : h2 ? 7 : 6) || count < 1 || seconds <= 0
        || inflight < 1 || inflight > MAX_INFLIGHT || (scale && (easy_mode || h2))) {
        return usage();
    }
    if (!bench_is_loopback(url)) {
        fprintf(stderr, "curl_easy_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return 1;
    }
    if (scale) {
        int status = run_scale(url, count, seconds, inflight);
        curl_global_cleanup();
        return status;
    }

    transfers set;
    if (open_transfers(&set, url, ca_file, inflight, multi_mode, h2, 0) != 0) {
        return 1;
    }
    long per_host = h2 ? 1 : inflight;
    long warmed = multi_mode ? run_multi(set.multi, set.handles, inflight, inflight * WARMUP_PER_SLOT,
                                         bench_now() + seconds, h2, NULL)
                             : run_easy(set.handles[0], WARMUP_EASY, bench_now() + seconds);
    bench_phase phase = bench_phase_start();
    long done = warmed < 0 ? -1
              : multi_mode ? run_multi(set.multi, set.handles, inflight, count, phase.wall + seconds, h2, NULL)
                           : run_easy(set.handles[0], count, phase.wall + seconds);
    if (done > 0) {
        bench_report(h2 ? "libcurl-h2" : multi_mode ? "libcurl-multi" : "libcurl-easy", phase, done, per_host, 0);
    }

    close_transfers(&set);
    curl_global_cleanup();
    return done > 0 ? 0 : 1;
}
