/*
 * test_load: many sends through one C client, natively (valgrind's pace would make it minutes).
 *
 * - 1,000 asynchronous sends in flight at once through one client all complete with 200.
 * - Three rounds of ROUND_SIZE sends (32 in flight): resident memory after the third round is
 *   within 16 MiB of the first's, and no file descriptor is left over from a round.
 * - A client that owns its transport (AsyncHTTPClient) gives back every descriptor once freed,
 *   SwiftNIO's event loops aside (started by the first such client, kept for the process).
 *
 * Usage: test_load BASE_URL [ROUND_SIZE]
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <dirent.h>
#include <pthread.h>
#include <unistd.h>

static courier_error *error;
static const char *base;

/* Completions of many sends: how many ended, how many with a 200, and a limit on those in flight. */
typedef struct tally {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long ended;
    long ok;
} tally;

static tally sends = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void count_completion(void *user_data, courier_response *response, courier_error *failure)
{
    tally *count = user_data;
    int status = 0;
    int ok = response && courier_response_status(response, &status, NULL) == COURIER_OK && status == 200;
    courier_response_free(response);
    courier_error_free(failure);
    pthread_mutex_lock(&count->lock);
    count->ended++;
    count->ok += ok;
    pthread_cond_broadcast(&count->changed);
    pthread_mutex_unlock(&count->lock);
}

/* Waits until at least `ended` sends have ended, for at most `seconds`; returns how many have. */
static long wait_until_ended(long ended, int seconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += seconds;
    pthread_mutex_lock(&sends.lock);
    while (sends.ended < ended) {
        if (pthread_cond_timedwait(&sends.changed, &sends.lock, &deadline) != 0) break;
    }
    long now = sends.ended;
    pthread_mutex_unlock(&sends.lock);
    return now;
}

/* Sends `count` requests with at most `in_flight` of them under way; returns how many answered 200. */
static long send_many(courier_client *client, const courier_request *request, long count, long in_flight)
{
    pthread_mutex_lock(&sends.lock);
    long ended_before = sends.ended;
    long ok_before = sends.ok;
    pthread_mutex_unlock(&sends.lock);
    for (long issued = 0; issued < count; issued++) {
        if (issued - in_flight >= 0) wait_until_ended(ended_before + issued - in_flight + 1, 60);
        if (courier_client_send_async(client, request, NULL, count_completion, &sends, NULL, &error) != COURIER_OK) {
            CHECK_OK(COURIER_E_INTERNAL);
            return 0;
        }
    }
    CHECK_INT(wait_until_ended(ended_before + count, 120) - ended_before, count);
    pthread_mutex_lock(&sends.lock);
    long ok = sends.ok - ok_before;
    pthread_mutex_unlock(&sends.lock);
    return ok;
}

static long resident_kib(void)
{
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm) return -1;
    if (fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(statm);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int open_descriptors(void)
{
    int count = 0;
    DIR *directory = opendir("/proc/self/fd");
    if (!directory) return -1;
    while (readdir(directory)) count++;
    closedir(directory);
    return count - 3; /* ".", ".." and the directory's own descriptor */
}

static courier_client *new_client(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    return client;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_load BASE_URL [ROUND_SIZE]\n");
        return 2;
    }
    base = argv[1];
    long round_size = argc > 2 ? atol(argv[2]) : 10000;
    char url[512];
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));

    courier_client *client = new_client(COURIER_TRANSPORT_CURL);
    CHECK_INT(send_many(client, request, 1000, 1000), 1000);

    long rss[3];
    int descriptors[3];
    for (int round = 0; round < 3; round++) {
        CHECK_INT(send_many(client, request, round_size, 32), round_size);
        rss[round] = resident_kib();
        descriptors[round] = open_descriptors();
        printf("round %d: %ld sends, resident %ld KiB, %d descriptors open\n", round + 1, round_size, rss[round],
               descriptors[round]);
    }
    CHECK(rss[2] - rss[0] <= 16 * 1024);
    CHECK(descriptors[2] <= descriptors[0]);
    CHECK_OK(courier_client_free(client));

    /* The first AsyncHTTPClient client starts SwiftNIO's event loops, which live as long as the
       process; a client freed after that must give back everything it opened. */
    courier_client *warm_up = new_client(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    CHECK_INT(send_many(warm_up, request, 10, 10), 10);
    CHECK_OK(courier_client_free(warm_up));
    sleep_ms(1000);
    int before = open_descriptors();
    courier_client *owner = new_client(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    CHECK_INT(send_many(owner, request, 1000, 64), 1000);
    CHECK_OK(courier_client_free(owner));
    int after = open_descriptors();
    for (int waited = 0; after > before && waited < 100; waited++) {
        sleep_ms(100);
        after = open_descriptors();
    }
    printf("AsyncHTTPClient client: %d descriptors before, %d after it was freed\n", before, after);
    CHECK(after <= before);

    courier_request_free(request);
    return check_finish("test_load");
}
