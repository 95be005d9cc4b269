/*
 * test_fork: a client belongs to the process that created it (the header's fork rule).
 *
 * The parent makes a curl client and an AsyncHTTPClient client, sends on both (keep-alive
 * connections pooled), starts asynchronous sends that are still running, and forks workers while
 * they run. In each worker:
 * - every call on the parent's clients fails at once with COURIER_E_FORKED (blocking and
 *   asynchronous sends, adding an interceptor, waiting for the parent's call), and freeing them
 *   returns at once: no response meant for another process, no hang (each worker has an alarm);
 * - a client the worker makes sends blocking and asynchronous requests and gets its own answers;
 * - an AsyncHTTPClient client made in the worker refuses its sends with COURIER_E_FORKED, since
 *   SwiftNIO's shared event loops stayed in the parent.
 * The parent's clients still get their own answers afterwards.
 *
 * Usage: test_fork BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

enum { WORKERS = 4, SENDS = 20 };

static courier_error *error;
static const char *base;

static courier_client *new_client(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    options.connect_timeout_ms = 60000;
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(transport == COURIER_TRANSPORT_CURL ? NULL : &options, &client, &error));
    return client;
}

/* Sends GET base/anything/<tag> and checks the answer names <tag>; the code the send returned. */
static courier_code send_tagged(courier_client *client, const char *tag)
{
    char url[512];
    snprintf(url, sizeof url, "%s/anything/%s", base, tag);
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_error *failure = NULL;
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    courier_code code = courier_client_send(client, request, &response, &failure);
    if (code == COURIER_OK) {
        const void *body = NULL;
        size_t length = 0;
        courier_response_body(response, &body, &length, NULL);
        char text[4096];
        snprintf(text, sizeof text, "%.*s", (int)length, (const char *)body);
        char expected[256];
        snprintf(expected, sizeof expected, "/anything/%s\"", tag);
        if (!strstr(text, expected)) fprintf(stderr, "test_fork: %d asked for %s and got: %.200s\n", getpid(), tag, text);
        CHECK(strstr(text, expected) != NULL);
    } else if (code != COURIER_E_FORKED) {
        fprintf(stderr, "test_fork: %d: %s\n", getpid(), failure ? courier_error_message(failure) : "?");
    }
    courier_error_free(failure);
    courier_response_free(response);
    courier_request_free(request);
    return code;
}

/* Asynchronous sends, counted as they complete. */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int completed;
static int completed_ok;

static void count(void *user_data, courier_response *response, courier_error *failure)
{
    const char *tag = user_data;
    int ok = 0;
    if (response) {
        const void *body = NULL;
        size_t length = 0;
        courier_response_body(response, &body, &length, NULL);
        char text[4096];
        snprintf(text, sizeof text, "%.*s", (int)length, (const char *)body);
        ok = strstr(text, tag) != NULL;
    }
    pthread_mutex_lock(&count_lock);
    completed += 1;
    completed_ok += ok;
    pthread_mutex_unlock(&count_lock);
    courier_response_free(response);
    courier_error_free(failure);
}

static courier_code send_async_tagged(courier_client *client, const char *tag, courier_call **call)
{
    char url[512];
    snprintf(url, sizeof url, "%s/anything/%s", base, tag);
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    courier_error *failure = NULL;
    courier_code code = courier_client_send_async(client, request, NULL, count, (void *)tag, call, &failure);
    courier_error_free(failure);
    courier_request_free(request);
    return code;
}

static courier_action nothing_interceptor(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_CONTINUE;
}

static void worker(courier_client *parent_curl, courier_client *parent_ahc, courier_call *parent_call)
{
    alarm(120); /* a hang is a failure: SIGALRM ends the worker, and the parent sees it */
    char tag[64];
    /* The parent's completions may have held this lock when it forked: a child starts it afresh. */
    pthread_mutex_init(&count_lock, NULL);
    completed = 0;
    completed_ok = 0;

    /* The parent's clients refuse everything at once. */
    courier_client *inherited[] = {parent_curl, parent_ahc};
    for (size_t index = 0; index < 2; index++) {
        snprintf(tag, sizeof tag, "inherited-%d", (int)getpid());
        CHECK_INT(send_tagged(inherited[index], tag), COURIER_E_FORKED);
        courier_call *call = NULL;
        CHECK_INT(send_async_tagged(inherited[index], tag, &call), COURIER_E_FORKED);
        CHECK(call == NULL);
        courier_interceptor interceptor;
        courier_interceptor_init(&interceptor);
        interceptor.name = "nothing";
        interceptor.on_request = nothing_interceptor;
        CHECK_CODE(COURIER_E_FORKED, courier_client_add_interceptor(inherited[index], &interceptor, &error));
    }
    CHECK_CODE(COURIER_E_FORKED, courier_call_wait(parent_call, &error));
    CHECK_CODE(COURIER_E_FORKED, courier_call_cancel(parent_call, &error));
    CHECK_OK(courier_client_free(parent_curl));
    CHECK_OK(courier_client_free(parent_ahc));
    courier_call_free(parent_call);

    /* A client made here works, blocking and asynchronous, with its own answers. */
    courier_client *own = new_client(COURIER_TRANSPORT_CURL);
    static char tags[SENDS][64];
    courier_call *calls[SENDS] = {NULL};
    for (int index = 0; index < SENDS; index++) {
        snprintf(tag, sizeof tag, "worker-%d-blocking-%d", (int)getpid(), index);
        CHECK_INT(send_tagged(own, tag), COURIER_OK);
        snprintf(tags[index], sizeof tags[index], "worker-%d-async-%d", (int)getpid(), index);
        CHECK_INT(send_async_tagged(own, tags[index], &calls[index]), COURIER_OK);
    }
    for (int index = 0; index < SENDS; index++) {
        CHECK_OK(courier_call_wait(calls[index], &error));
        courier_call_free(calls[index]);
    }
    CHECK_INT(completed_ok, SENDS);
    CHECK_OK(courier_client_free(own));

    /* SwiftNIO's shared event loops stayed with the parent: a new AsyncHTTPClient client says so. */
    courier_client *ahc = new_client(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    snprintf(tag, sizeof tag, "worker-%d-ahc", (int)getpid());
    CHECK_INT(send_tagged(ahc, tag), COURIER_E_FORKED);
    CHECK_OK(courier_client_free(ahc));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    base = argv[1];
    courier_client *curl = new_client(COURIER_TRANSPORT_CURL);
    courier_client *ahc = new_client(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    CHECK_INT(send_tagged(curl, "parent-before"), COURIER_OK);
    CHECK_INT(send_tagged(ahc, "parent-before"), COURIER_OK);
    /* Sends still running when the workers are forked: their threads hold the library's locks now and then. */
    courier_call *running[8] = {NULL};
    for (int index = 0; index < 8; index++)
        CHECK_INT(send_async_tagged(index % 2 ? curl : ahc, "parent-running", &running[index]), COURIER_OK);

    fflush(stdout);
    fflush(stderr);
    pid_t workers[WORKERS];
    for (int index = 0; index < WORKERS; index++) {
        workers[index] = fork();
        if (workers[index] == 0) {
            worker(curl, ahc, running[0]);
            int status = check_finish("test_fork (worker)");
            fflush(stdout);
            fflush(stderr);
            _exit(status);
        }
    }
    for (int index = 0; index < WORKERS; index++) {
        int status = 0;
        CHECK(waitpid(workers[index], &status, 0) == workers[index]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "test_fork: worker %d ended with status %d (signal %d)\n", (int)workers[index],
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }

    for (int index = 0; index < 8; index++) {
        CHECK_OK(courier_call_wait(running[index], &error));
        courier_call_free(running[index]);
    }
    CHECK_INT(completed_ok, 8);
    CHECK_INT(send_tagged(curl, "parent-after"), COURIER_OK);
    CHECK_INT(send_tagged(ahc, "parent-after"), COURIER_OK);
    CHECK_OK(courier_client_free(curl));
    CHECK_OK(courier_client_free(ahc));
    return check_finish("test_fork");
}
