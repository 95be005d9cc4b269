/*
 * Completions in the program's own poll() loop (queue_completions): the example of courier.h's
 * "Completions in the program's own event loop" section, made complete and checked. Each
 * completion runs on the thread that calls courier_client_run_completions, once; the descriptor
 * is readable exactly while completions wait; courier_client_free runs those still waiting;
 * several threads running the queue at once run each completion exactly once; cancelling a send
 * whose completion still waits in the queue never cancels a later send.
 *
 * Usage: test_event_loop BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <poll.h>
#include <pthread.h>

static courier_error *error;
static const char *base;

/* What the loop tracks: sends still pending, and where their completions ran. */
typedef struct loop_state {
    int pending;
    int completed;
    int statuses_ok;
    pthread_t loop_thread;
    int ran_on_loop_thread;
} loop_state;

static void on_done(void *user_data, courier_response *response, courier_error *failure)
{
    loop_state *state = user_data;
    int status = 0;
    if (response) courier_response_status(response, &status, NULL);
    if (failure) fprintf(stderr, "send failed: %s\n", courier_error_message(failure));
    state->statuses_ok += status == 200;
    state->ran_on_loop_thread += pthread_equal(pthread_self(), state->loop_thread) != 0;
    state->completed += 1;
    state->pending -= 1;
    courier_response_free(response);
    courier_error_free(failure);
}

/* Whether `fd` is readable right now. */
static int readable(int fd)
{
    struct pollfd watched = {.fd = fd, .events = POLLIN};
    return poll(&watched, 1, 0) > 0 && (watched.revents & POLLIN);
}

static void start(courier_client *client, loop_state *state, const char *path)
{
    char url[512];
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, path), &request, &error));
    state->pending += 1;
    CHECK_OK(courier_client_send_async(client, request, NULL, on_done, state, NULL, &error));
    courier_request_free(request);
}

/* A client whose completions wait in its queue; generous timeouts, for valgrind on a busy machine. */
static courier_client *new_queued_client(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    options.queue_completions = 1;
    /* Under valgrind on a busy machine a loopback connect can take seconds. */
    options.timeout_ms = 120000;
    options.connect_timeout_ms = 60000;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    return client;
}

static void completions_run_in_the_programs_own_poll_loop(courier_transport transport)
{
    courier_client *client = new_queued_client(transport);
    int fd = -1;
    CHECK_OK(courier_client_completion_fd(client, &fd, &error));
    CHECK(fd >= 0);
    CHECK(!readable(fd));

    loop_state state = {0};
    state.loop_thread = pthread_self();
    start(client, &state, "/anything/1");
    start(client, &state, "/delay/50");
    start(client, &state, "/anything/3");
    size_t total = 0;
    while (state.pending > 0) {
        struct pollfd watched = {.fd = fd, .events = POLLIN};
        if (poll(&watched, 1, 120000) <= 0) {
            CHECK(!"poll timed out with sends pending");
            break;
        }
        if (watched.revents & POLLIN) {
            size_t ran = 0;
            CHECK_OK(courier_client_run_completions(client, &ran, &error));
            total += ran;
        }
    }
    CHECK_INT(total, 3);
    CHECK_INT(state.completed, 3);
    CHECK_INT(state.statuses_ok, 3);
    CHECK_INT(state.ran_on_loop_thread, 3);
    CHECK(!readable(fd));
    size_t ran = 99;
    CHECK_OK(courier_client_run_completions(client, &ran, &error));
    CHECK_INT(ran, 0);

    /* Completions still waiting when the client is freed run inside courier_client_free. */
    start(client, &state, "/anything/left-waiting");
    for (int waited = 0; !readable(fd) && waited < 2000; waited++) sleep_ms(10);
    CHECK_INT(state.completed, 3);
    CHECK_OK(courier_client_free(client));
    CHECK_INT(state.completed, 4);
    CHECK_INT(state.ran_on_loop_thread, 4);
}

enum { SHARED_SENDS = 24, RUNNER_THREADS = 3 };

/* The queue shared by several runner threads: how often each send's completion ran. */
typedef struct shared_queue {
    courier_client *client;
    int fd;
    int runs[SHARED_SENDS];
    int completed;
    int ran_total;
} shared_queue;

typedef struct shared_send {
    shared_queue *queue;
    int index;
} shared_send;

static void on_shared_done(void *user_data, courier_response *response, courier_error *failure)
{
    shared_send *send = user_data;
    CHECK(response != NULL && failure == NULL);
    courier_response_free(response);
    courier_error_free(failure);
    __atomic_fetch_add(&send->queue->runs[send->index], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&send->queue->completed, 1, __ATOMIC_RELEASE);
}

/* One of the runners: waits on the descriptor and runs what waits, until every send completed. */
static void *run_shared_completions(void *argument)
{
    shared_queue *queue = argument;
    courier_error *failure = NULL;
    for (int rounds = 0; __atomic_load_n(&queue->completed, __ATOMIC_ACQUIRE) < SHARED_SENDS && rounds < 6000; rounds++) {
        struct pollfd watched = {.fd = queue->fd, .events = POLLIN};
        if (poll(&watched, 1, 20) <= 0) continue;
        size_t ran = 0;
        courier_code code = courier_client_run_completions(queue->client, &ran, &failure);
        check_code_at(code, COURIER_OK, &failure, __FILE__, __LINE__, "courier_client_run_completions");
        __atomic_fetch_add(&queue->ran_total, (int)ran, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void several_threads_running_the_queue_run_each_completion_once(courier_transport transport)
{
    shared_queue queue = {0};
    shared_send sends[SHARED_SENDS];
    queue.client = new_queued_client(transport);
    CHECK_OK(courier_client_completion_fd(queue.client, &queue.fd, &error));
    pthread_t runners[RUNNER_THREADS];
    for (int index = 0; index < RUNNER_THREADS; index++)
        CHECK_INT(pthread_create(&runners[index], NULL, run_shared_completions, &queue), 0);
    char url[512];
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything/shared"), &request, &error));
    for (int index = 0; index < SHARED_SENDS; index++) {
        sends[index] = (shared_send){&queue, index};
        CHECK_OK(courier_client_send_async(queue.client, request, NULL, on_shared_done, &sends[index], NULL, &error));
    }
    courier_request_free(request);
    for (int index = 0; index < RUNNER_THREADS; index++) pthread_join(runners[index], NULL);
    CHECK_INT(queue.completed, SHARED_SENDS);
    CHECK_INT(queue.ran_total, SHARED_SENDS);
    for (int index = 0; index < SHARED_SENDS; index++) CHECK_INT(queue.runs[index], 1);
    CHECK_OK(courier_client_free(queue.client));
}

/*
 * A send has ended and its completion waits in the queue: cancelling its call then must leave
 * every later send alone, even one the library runs on the task that ran the first (a cancel
 * reaching that task's next send once failed it with COURIER_E_CANCELLED).
 */
static void cancelling_a_send_whose_completion_waits_leaves_later_sends_alone(void)
{
    courier_client *client = new_queued_client(COURIER_TRANSPORT_CURL);
    int fd = -1;
    CHECK_OK(courier_client_completion_fd(client, &fd, &error));
    char url[512];
    loop_state state = {0};
    state.loop_thread = pthread_self();
    for (int round = 0; round < 3; round++) {
        courier_request *request = NULL;
        courier_call *ended = NULL;
        courier_call *later = NULL;
        CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything/first"), &request, &error));
        state.pending += 1;
        CHECK_OK(courier_client_send_async(client, request, NULL, on_done, &state, &ended, &error));
        courier_request_free(request);
        for (int waited = 0; !readable(fd) && waited < 12000; waited++) sleep_ms(10);
        CHECK(readable(fd));
        sleep_ms(20); /* lets the send's task go back to waiting for the next send */
        CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/delay/300"), &request, &error));
        state.pending += 1;
        CHECK_OK(courier_client_send_async(client, request, NULL, on_done, &state, &later, &error));
        courier_request_free(request);
        sleep_ms(50);
        CHECK_OK(courier_call_cancel(ended, &error));
        while (state.pending > 0) {
            struct pollfd watched = {.fd = fd, .events = POLLIN};
            if (poll(&watched, 1, 120000) <= 0) {
                CHECK(!"poll timed out with sends pending");
                break;
            }
            CHECK_OK(courier_client_run_completions(client, NULL, &error));
        }
        CHECK_OK(courier_call_free(ended));
        CHECK_OK(courier_call_free(later));
    }
    CHECK_INT(state.completed, 6);
    CHECK_INT(state.statuses_ok, 6);
    CHECK_OK(courier_client_free(client));
}

static void a_client_without_the_queue_has_no_descriptor(void)
{
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    int fd = -1;
    size_t ran = 0;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_completion_fd(client, &fd, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_run_completions(client, &ran, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_completion_fd(client, NULL, &error));
    CHECK_OK(courier_client_free(client));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_client_run_completions(client, &ran, &error));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    base = argv[1];
    completions_run_in_the_programs_own_poll_loop(COURIER_TRANSPORT_CURL);
    completions_run_in_the_programs_own_poll_loop(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    several_threads_running_the_queue_run_each_completion_once(COURIER_TRANSPORT_CURL);
    several_threads_running_the_queue_run_each_completion_once(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    cancelling_a_send_whose_completion_waits_leaves_later_sends_alone();
    a_client_without_the_queue_has_no_descriptor();
    return check_finish("test_event_loop");
}
