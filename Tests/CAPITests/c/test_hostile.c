/*
 * test_hostile: what a slow reader, an impatient caller and a hostile server may not do to a
 * client, on both transports.
 *
 * - Slow readers hold only themselves: two asynchronous sends whose on_data blocks occupy the
 *   client's two callback threads, and a third send still completes (the pool adds a thread).
 * - A blocking send stops when its should_cancel says so (ABI 1.2), waiting on curl or not;
 *   an asynchronous send refuses should_cancel.
 * - Error messages quote a server's bytes with terminal controls escaped: an invalid status line
 *   or header line carrying ESC ] 0 ; … BEL and ESC [ 2 J reaches courier_error_message as text.
 *
 * Usage: test_hostile BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <limits.h>
#include <pthread.h>
#include <time.h>

static courier_error *error;
static const char *base;

static double now_seconds(void)
{
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static courier_client *new_client(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    options.ignore_environment_proxy = 1;
    options.connect_timeout_ms = 60000;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    return client;
}

static courier_request *new_request(const char *path)
{
    char url[512];
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, path), &request, &error));
    return request;
}

/* ---- Slow readers ------------------------------------------------------------------------- */

/* A gate the blocked on_data callbacks wait at until the test opens it. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_changed = PTHREAD_COND_INITIALIZER;
static int gate_open;
static int readers_blocked;

static int blocking_reader(void *user_data, const void *data, size_t length)
{
    (void)user_data;
    (void)data;
    (void)length;
    pthread_mutex_lock(&gate_lock);
    readers_blocked += 1;
    pthread_cond_broadcast(&gate_changed);
    while (!gate_open) pthread_cond_wait(&gate_changed, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    return 1; /* stop the download: the test is done with it */
}

/* Waits until `*value` reaches `target` or `seconds` pass; whether it did. */
static int wait_for(int *value, int target, double seconds)
{
    double deadline = now_seconds() + seconds;
    pthread_mutex_lock(&gate_lock);
    while (*value < target && now_seconds() < deadline) {
        pthread_mutex_unlock(&gate_lock);
        sleep_ms(5);
        pthread_mutex_lock(&gate_lock);
    }
    int reached = *value >= target;
    pthread_mutex_unlock(&gate_lock);
    return reached;
}

static int completions;

static void count_completion(void *user_data, courier_response *response, courier_error *failure)
{
    (void)user_data;
    courier_response_free(response);
    courier_error_free(failure);
    pthread_mutex_lock(&gate_lock);
    completions += 1;
    pthread_mutex_unlock(&gate_lock);
}

static void slow_readers_hold_only_themselves(courier_transport transport)
{
    courier_client *client = new_client(transport); /* two callback threads, the default */
    courier_request *large = new_request("/stream-bytes/50000000?chunk_size=1024");
    courier_request *plain = new_request("/anything/plain");
    courier_send_options streaming;
    courier_send_options_init(&streaming);
    streaming.on_data = blocking_reader;
    gate_open = 0;
    readers_blocked = 0;
    completions = 0;
    CHECK_OK(courier_client_send_async(client, large, &streaming, count_completion, NULL, NULL, &error));
    CHECK_OK(courier_client_send_async(client, large, &streaming, count_completion, NULL, NULL, &error));
    CHECK(wait_for(&readers_blocked, 2, 60));

    /* Both callback threads are held; a plain send must still finish, and soon. */
    CHECK_OK(courier_client_send_async(client, plain, NULL, count_completion, NULL, NULL, &error));
    int finished = wait_for(&completions, 1, 30);
    CHECK(finished);
    if (!finished) fprintf(stderr, "test_hostile: a plain send waited behind two blocked readers\n");

    pthread_mutex_lock(&gate_lock);
    gate_open = 1;
    pthread_cond_broadcast(&gate_changed);
    pthread_mutex_unlock(&gate_lock);
    CHECK(wait_for(&completions, 3, 60));
    courier_request_free(large);
    courier_request_free(plain);
    CHECK_OK(courier_client_free(client));
}

/* ---- should_cancel ------------------------------------------------------------------------ */

/* Gives up at the give_up_at-th question: counting questions, not time, keeps the test exact on
 * a loaded machine. */
struct patience {
    int give_up_at;
    int asked;
};

static int impatient(void *user_data)
{
    struct patience *patience = user_data;
    patience->asked += 1;
    return patience->asked >= patience->give_up_at;
}

static void a_blocking_send_stops_when_its_check_says_so(courier_transport transport)
{
    courier_client *client = new_client(transport);
    courier_request *slow = new_request("/delay/30000");
    courier_send_options options;
    courier_send_options_init(&options);
    struct patience patience = {3, 0};
    options.should_cancel = impatient;
    options.user_data = &patience;
    courier_response *response = NULL;
    double started = now_seconds();
    CHECK_CODE(COURIER_E_CANCELLED, courier_client_send_with(client, slow, &options, &response, &error));
    double waited = now_seconds() - started;
    CHECK(response == NULL);
    CHECK_INT(patience.asked, 3);
    CHECK(waited < 10); /* the answer would take 30 s; the check asks every 100 ms */
    if (waited >= 10) fprintf(stderr, "test_hostile: the cancelled send took %.1f s\n", waited);

    /* The client still sends, and a check that never says stop changes nothing. */
    courier_request *plain = new_request("/anything/after");
    patience.give_up_at = INT_MAX;
    CHECK_OK(courier_client_send_with(client, plain, &options, &response, &error));
    courier_response_free(response);

    CHECK_CODE(COURIER_E_INVALID_ARGUMENT,
               courier_client_send_async(client, plain, &options, count_completion, NULL, NULL, &error));
    courier_request_free(plain);
    courier_request_free(slow);
    CHECK_OK(courier_client_free(client));
}

/* ---- Escapes ------------------------------------------------------------------------------ */

static void server_bytes_reach_messages_escaped(courier_transport transport)
{
    const char *paths[] = {"/hostile/escapes/status-line", "/hostile/escapes/header-line"};
    courier_client *client = new_client(transport);
    for (size_t index = 0; index < 2; index++) {
        courier_request *request = new_request(paths[index]);
        courier_response *response = NULL;
        courier_error *failure = NULL;
        CHECK(courier_client_send(client, request, &response, &failure) == COURIER_E_INVALID_RESPONSE);
        const char *message = failure ? courier_error_message(failure) : "";
        for (const unsigned char *byte = (const unsigned char *)message; *byte; byte++) {
            int control = *byte < 0x20 || *byte == 0x7F || (byte[0] == 0xC2 && byte[1] >= 0x80 && byte[1] < 0xA0);
            if (control) fprintf(stderr, "test_hostile: a control byte 0x%02X in: %s\n", *byte, message);
            CHECK(!control);
        }
        courier_error_free(failure);
        courier_response_free(response);
        courier_request_free(request);
    }
    CHECK_OK(courier_client_free(client));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    base = argv[1];
    const courier_transport transports[] = {COURIER_TRANSPORT_CURL, COURIER_TRANSPORT_ASYNC_HTTP_CLIENT};
    for (size_t index = 0; index < 2; index++) {
        slow_readers_hold_only_themselves(transports[index]);
        a_blocking_send_stops_when_its_check_says_so(transports[index]);
        server_bytes_reach_messages_escaped(transports[index]);
    }
    return check_finish("test_hostile");
}
