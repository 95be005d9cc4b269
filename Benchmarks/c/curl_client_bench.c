/*
 * libcurl as an HTTP client library built on it does the job: the fair neighbour of the raw
 * multi row, which does none of this work.
 *
 *   curl_client_bench URL COUNT SECONDS INFLIGHT [CAFILE]
 *
 * With CAFILE the URL is https and the INFLIGHT transfers are HTTP/2 streams multiplexed on one
 * connection (PIPEWAIT, CURLPIPE_MULTIPLEX, one connection per host), as the raw multi row
 * curl_easy_bench h2 runs them: the neighbour of Courier's HTTP/2 row.
 *
 * An I/O thread owns one multi handle (at most INFLIGHT connections to the host). The main thread
 * plays the application: it submits GETs to a queue and wakes the I/O thread with
 * curl_multi_wakeup. For each transfer the I/O thread resets a recycled easy handle and sets every
 * option again (URL, timeouts, compression, callbacks); the header callback copies each line into
 * the transfer's own list and the write callback appends the body to a growing buffer; when the
 * transfer ends its completion goes onto a queue and an eventfd wakes the main thread, which checks
 * the status, frees the lines and the body, and submits the next GET. That is two thread handoffs
 * per request, as in any client whose callers are not the I/O thread.
 *
 * Warm-up, stop rule and output as in curl_easy_bench.c (bench_common.h's RESULT line).
 *
 * Build: cc -O2 -Wall -Wextra -Werror -pthread -o curl_client_bench curl_client_bench.c $(pkg-config --cflags --libs libcurl)
 */
#include "bench_common.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define WARMUP_PER_SLOT 4L
#define MAX_INFLIGHT 1024

/* One request and what came back for it. */
typedef struct transfer {
    CURL *easy;
    const char *url;
    char **header_lines;
    size_t header_count;
    size_t header_capacity;
    char *body;
    size_t body_length;
    size_t body_capacity;
    CURLcode result;
    long status;
    long http_version;
} transfer;

/* A fixed-size queue of transfers under a mutex; both directions use one. */
typedef struct queue {
    pthread_mutex_t lock;
    transfer *items[MAX_INFLIGHT];
    size_t count;
} queue;

static CURLM *multi;
static queue submitted = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
static queue completed = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
static int completion_fd;
static atomic_int stopping;
/* The CA file of the HTTP/2 mode; NULL for HTTP/1.1. */
static const char *ca_file;

static void push(queue *q, transfer *item)
{
    pthread_mutex_lock(&q->lock);
    q->items[q->count++] = item;
    pthread_mutex_unlock(&q->lock);
}

/* Moves every queued transfer into out; returns how many. */
static size_t take_all(queue *q, transfer **out)
{
    pthread_mutex_lock(&q->lock);
    size_t count = q->count;
    memcpy(out, q->items, count * sizeof *out);
    q->count = 0;
    pthread_mutex_unlock(&q->lock);
    return count;
}

static size_t copy_header_line(char *data, size_t size, size_t count, void *user_data)
{
    transfer *t = user_data;
    size_t length = size * count;
    if (t->header_count == t->header_capacity) {
        t->header_capacity = t->header_capacity == 0 ? 16 : t->header_capacity * 2;
        t->header_lines = realloc(t->header_lines, t->header_capacity * sizeof *t->header_lines);
    }
    char *line = malloc(length + 1);
    memcpy(line, data, length);
    line[length] = 0;
    t->header_lines[t->header_count++] = line;
    return length;
}

static size_t append_body(char *data, size_t size, size_t count, void *user_data)
{
    transfer *t = user_data;
    size_t length = size * count;
    if (t->body_length + length > t->body_capacity) {
        t->body_capacity = (t->body_length + length) * 2;
        t->body = realloc(t->body, t->body_capacity);
    }
    memcpy(t->body + t->body_length, data, length);
    t->body_length += length;
    return length;
}

/* Sets every option of one transfer on its (reset) easy handle, as a client does per request. */
static void configure(transfer *t)
{
    curl_easy_reset(t->easy);
    curl_easy_setopt(t->easy, CURLOPT_URL, t->url);
    curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
    /* Courier's defaults: 60 s in all (a 64 MiB body at 32 in flight can take more than 10 s on a
     * busy core), 10 s to connect. */
    curl_easy_setopt(t->easy, CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(t->easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(t->easy, CURLOPT_HEADERFUNCTION, copy_header_line);
    curl_easy_setopt(t->easy, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
    if (ca_file != NULL) {
        curl_easy_setopt(t->easy, CURLOPT_CAINFO, ca_file);
        curl_easy_setopt(t->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(t->easy, CURLOPT_PIPEWAIT, 1L);
    }
}

static void *io_thread(void *unused)
{
    (void)unused;
    transfer *batch[MAX_INFLIGHT];
    while (!stopping) {
        size_t count = take_all(&submitted, batch);
        for (size_t i = 0; i < count; i++) {
            configure(batch[i]);
            curl_multi_add_handle(multi, batch[i]->easy);
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int queued;
        int finished = 0;
        while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
            if (message->msg != CURLMSG_DONE) {
                continue;
            }
            transfer *t = NULL;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&t);
            t->result = message->data.result;
            curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
            curl_easy_getinfo(t->easy, CURLINFO_HTTP_VERSION, &t->http_version);
            curl_multi_remove_handle(multi, t->easy);
            push(&completed, t);
            finished = 1;
        }
        if (finished) {
            uint64_t one = 1;
            ssize_t written = write(completion_fd, &one, sizeof one);
            (void)written;
        }
        curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    return NULL;
}

static void submit(transfer *t)
{
    push(&submitted, t);
    curl_multi_wakeup(multi);
}

/* Frees what a finished transfer received; returns 0 for a 200 with its head (its body may be
 * empty: the body-size rows ask for 0 bytes too; curl fails a body shorter than its framing says),
 * -1 after saying why. */
static int finish(transfer *t)
{
    int ok = t->result == CURLE_OK && t->status == 200 && t->header_count > 0
             && (ca_file == NULL || t->http_version == CURL_HTTP_VERSION_2_0);
    if (!ok) {
        fprintf(stderr, "curl_client_bench: %s, status %ld, HTTP version %ld, %zu body bytes\n",
                curl_easy_strerror(t->result), t->status, t->http_version, t->body_length);
    }
    for (size_t i = 0; i < t->header_count; i++) {
        free(t->header_lines[i]);
    }
    free(t->header_lines);
    free(t->body);
    t->header_lines = NULL;
    t->header_count = t->header_capacity = 0;
    t->body = NULL;
    t->body_length = t->body_capacity = 0;
    return ok ? 0 : -1;
}

/* Keeps inflight GETs going until count were started or the deadline passed; returns how many completed, or -1. */
static long run(transfer *transfers, long inflight, long count, double deadline)
{
    long started = 0;
    long done = 0;
    for (long i = 0; i < inflight && started < count; i++, started++) {
        submit(&transfers[i]);
    }
    transfer *batch[MAX_INFLIGHT];
    while (done < started) {
        uint64_t ready;
        if (read(completion_fd, &ready, sizeof ready) != sizeof ready) {
            return -1;
        }
        size_t count_ready = take_all(&completed, batch);
        for (size_t i = 0; i < count_ready; i++) {
            if (finish(batch[i]) != 0) {
                return -1;
            }
            done++;
            if (started < count && bench_now() < deadline) {
                submit(batch[i]);
                started++;
            }
        }
    }
    return done;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: curl_client_bench URL COUNT SECONDS INFLIGHT [CAFILE]\n");
        return 2;
    }
    const char *url = argv[1];
    long count = strtol(argv[2], NULL, 10);
    double seconds = strtod(argv[3], NULL);
    long inflight = strtol(argv[4], NULL, 10);
    ca_file = argc == 6 ? argv[5] : NULL;
    if (count < 1 || seconds <= 0 || inflight < 1 || inflight > MAX_INFLIGHT) {
        fprintf(stderr, "usage: curl_client_bench URL COUNT SECONDS INFLIGHT (1 to %d) [CAFILE]\n", MAX_INFLIGHT);
        return 2;
    }
    if (!bench_is_loopback(url)) {
        fprintf(stderr, "curl_client_bench: the URL must be on the loopback (http://127.0.0.1:PORT/...)\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        return 1;
    }
    multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, ca_file != NULL ? 1L : inflight);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, inflight);
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, ca_file != NULL ? (long)CURLPIPE_MULTIPLEX : (long)CURLPIPE_NOTHING);
    completion_fd = eventfd(0, EFD_CLOEXEC);
    transfer *transfers = calloc((size_t)inflight, sizeof *transfers);
    for (long i = 0; i < inflight; i++) {
        transfers[i].easy = curl_easy_init();
        transfers[i].url = url;
    }
    pthread_t thread;
    pthread_create(&thread, NULL, io_thread, NULL);

    long warmed = run(transfers, inflight, inflight * WARMUP_PER_SLOT, bench_now() + seconds);
    bench_phase phase = bench_phase_start();
    long done = warmed < 0 ? -1 : run(transfers, inflight, count, phase.wall + seconds);
    if (done > 0) {
        /* per_host: the connections it may open, one for HTTP/2. */
        bench_report(ca_file != NULL ? "libcurl-client-h2" : inflight > 1 ? "libcurl-client-multi" : "libcurl-client", phase,
                     done, ca_file != NULL ? 1 : inflight, 0);
    }

    stopping = 1;
    curl_multi_wakeup(multi);
    pthread_join(thread, NULL);
    for (long i = 0; i < inflight; i++) {
        curl_easy_cleanup(transfers[i].easy);
    }
    free(transfers);
    curl_multi_cleanup(multi);
    close(completion_fd);
    curl_global_cleanup();
    return done > 0 ? 0 : 1;
}
