/*
 * C interceptors: every action (CONTINUE with edits, RESPOND, FAIL, RETRY, an unknown value),
 * around with courier_exchange_proceed called twice, chain order, attempts and request ids,
 * removal and destroy callbacks, blocking calls from inside callbacks, which must fail with
 * COURIER_E_WOULD_BLOCK instead of deadlocking, and consecutive interceptors, which run as one
 * stage yet must act as separate ones. Usage: test_interceptors BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>

static courier_error *error;
static const char *base;

/* Sends GET base+path through `client`; the response or NULL, the code in *code. */
static courier_response *get(courier_client *client, const char *path, courier_code *code, courier_error **failure)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_error *own = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, path), &request, &error));
    *code = courier_client_send(client, request, &response, failure ? failure : &own);
    if (own != NULL) {
        fprintf(stderr, "  (GET %s failed: %s)\n", path, courier_error_message(own));
        courier_error_free(own);
    }
    courier_request_free(request);
    return response;
}

static const char *body_text(const courier_response *response)
{
    const void *body = NULL;
    size_t length = 0;
    return courier_response_body(response, &body, &length, NULL) == COURIER_OK ? body : NULL;
}

static int status_of(const courier_response *response)
{
    int status = 0;
    courier_response_status(response, &status, NULL);
    return status;
}

static courier_client *new_client(void)
{
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    return client;
}

static void add(courier_client *client, const char *name, courier_exchange_fn on_request, courier_exchange_fn on_response,
                courier_exchange_fn around, void *user_data, courier_destroy_fn destroy)
{
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    interceptor.name = name;
    interceptor.on_request = on_request;
    interceptor.on_response = on_response;
    interceptor.around = around;
    interceptor.user_data = user_data;
    interceptor.destroy = destroy;
    CHECK_OK(courier_client_add_interceptor(client, &interceptor, &error));
}

/* A counter shared with callbacks, which may run on other threads. */
typedef struct counter {
    pthread_mutex_t lock;
    int value;
    int attempts[16];
    char request_ids[16][64];
    courier_code codes[16];
} counter;

static int bump(counter *count)
{
    pthread_mutex_lock(&count->lock);
    int value = ++count->value;
    pthread_mutex_unlock(&count->lock);
    return value;
}

static void counter_init(counter *count)
{
    memset(count, 0, sizeof *count);
    pthread_mutex_init(&count->lock, NULL);
}

static courier_action count_pass(void *user_data, courier_exchange *exchange)
{
    (void)exchange;
    bump(user_data);
    return COURIER_ACTION_CONTINUE;
}

/* Adds "X-Order: <name>" on the way in and appends <name> to the response's X-Order on the way out. */
static courier_action order_in(void *user_data, courier_exchange *exchange)
{
    courier_request *request = NULL;
    CHECK_OK(courier_exchange_request(exchange, &request, &error));
    CHECK_OK(courier_request_add_header(request, "X-Order", user_data, &error));
    return COURIER_ACTION_CONTINUE;
}

static courier_action order_out(void *user_data, courier_exchange *exchange)
{
    courier_response *response = NULL;
    CHECK_OK(courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_response_add_header(response, "X-Order", user_data, &error));
    return COURIER_ACTION_CONTINUE;
}

static void continue_with_edits_in_chain_order(void)
{
    courier_client *client = new_client();
    add(client, "outer", order_in, order_out, NULL, "outer", NULL);
    add(client, "inner", order_in, order_out, NULL, "inner", NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/headers", &code, NULL);
    const char *value = NULL;
    CHECK(code == COURIER_OK);
    CHECK_CONTAINS(body_text(response), "[\"X-Order\",\"outer\"],[\"X-Order\",\"inner\"]");
    CHECK_OK(courier_response_header(response, "X-Order", &value, &error));
    CHECK_STR(value, "inner, outer");
    courier_response_free(response);
    courier_client_free(client);
}

static courier_action answer_teapot(void *user_data, courier_exchange *exchange)
{
    courier_response *response = NULL;
    courier_response *none = NULL;
    (void)user_data;
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_exchange_response(exchange, &none, &error));
    CHECK_OK(courier_response_new(418, &response, &error));
    CHECK_OK(courier_response_set_body(response, "short and stout", 15, &error));
    CHECK_OK(courier_exchange_respond(exchange, response, &error));
    return COURIER_ACTION_RESPOND;
}

static courier_action respond_without_response(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_RESPOND;
}

static void respond_short_circuits_the_chain(void)
{
    counter inner;
    counter_init(&inner);
    courier_client *client = new_client();
    add(client, "teapot", answer_teapot, NULL, NULL, NULL, NULL);
    add(client, "inner", count_pass, NULL, NULL, &inner, NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/status/500", &code, NULL);
    CHECK(code == COURIER_OK && status_of(response) == 418);
    CHECK_STR(body_text(response), "short and stout");
    CHECK(inner.value == 0);
    courier_response_free(response);
    courier_client_free(client);

    client = new_client();
    add(client, "mute", respond_without_response, NULL, NULL, NULL, NULL);
    courier_error *failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code == COURIER_E_INTERCEPTOR);
    CHECK_CONTAINS(courier_error_message(failure), "mute");
    courier_error_free(failure);
    courier_client_free(client);
}

static courier_action refuse(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    CHECK_OK(courier_exchange_fail(exchange, COURIER_E_UNACCEPTABLE_STATUS, "refused by policy", &error));
    return COURIER_ACTION_FAIL;
}

static courier_action reject_server_errors(void *user_data, courier_exchange *exchange)
{
    courier_response *response = NULL;
    int status = 0;
    (void)user_data;
    CHECK_OK(courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    if (status >= 500) {
        CHECK_OK(courier_exchange_fail(exchange, COURIER_E_UNACCEPTABLE_STATUS, "server error", &error));
        return COURIER_ACTION_FAIL;
    }
    return COURIER_ACTION_CONTINUE;
}

static courier_action return_42(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return (courier_action)42;
}

static void fail_and_unknown_actions_fail_the_send(void)
{
    courier_client *client = new_client();
    add(client, "policy", refuse, NULL, NULL, NULL, NULL);
    courier_code code = COURIER_OK;
    courier_error *failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code == COURIER_E_UNACCEPTABLE_STATUS && courier_error_code(failure) == COURIER_E_UNACCEPTABLE_STATUS);
    CHECK_CONTAINS(courier_error_message(failure), "refused by policy");
    CHECK_STR(courier_error_stage(failure), "policy");
    courier_error_free(failure);
    courier_client_free(client);

    client = new_client();
    add(client, "validate", NULL, reject_server_errors, NULL, NULL, NULL);
    failure = NULL;
    CHECK(get(client, "/status/503", &code, &failure) == NULL);
    CHECK(code == COURIER_E_UNACCEPTABLE_STATUS);
    CHECK_INT(courier_error_status(failure), 503);
    courier_error_free(failure);
    courier_response *response = get(client, "/status/204", &code, NULL);
    CHECK(code == COURIER_OK && status_of(response) == 204);
    courier_response_free(response);
    courier_client_free(client);

    client = new_client();
    add(client, "forty-two", return_42, NULL, NULL, NULL, NULL);
    failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code == COURIER_E_INTERCEPTOR);
    CHECK_CONTAINS(courier_error_message(failure), "forty-two");
    courier_error_free(failure);
    courier_client_free(client);

    client = new_client();
    add(client, "forty-two-late", NULL, return_42, NULL, NULL, NULL);
    failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code == COURIER_E_INTERCEPTOR);
    courier_error_free(failure);
    courier_client_free(client);
}

/* Records the attempt and request id of each pass; asks for a retry while attempt < user's limit. */
static courier_action record_pass(void *user_data, courier_exchange *exchange)
{
    counter *count = user_data;
    int attempt = 0;
    const char *id = NULL;
    CHECK_OK(courier_exchange_attempt(exchange, &attempt, &error));
    CHECK_OK(courier_exchange_request_id(exchange, &id, &error));
    pthread_mutex_lock(&count->lock);
    int index = count->value < 16 ? count->value : 15;
    count->attempts[index] = attempt;
    snprintf(count->request_ids[index], sizeof count->request_ids[index], "%s", id ? id : "");
    count->value++;
    pthread_mutex_unlock(&count->lock);
    return COURIER_ACTION_CONTINUE;
}

/* Retries until its own pass count, courier_exchange_attempt, reaches 3; records each attempt seen. */
static courier_action retry_twice(void *user_data, courier_exchange *exchange)
{
    counter *seen = user_data;
    courier_request *request = NULL;
    int attempt = 0;
    CHECK_OK(courier_exchange_attempt(exchange, &attempt, &error));
    int pass = bump(seen);
    seen->attempts[(pass - 1) % 16] = attempt;
    if (attempt >= 3 || pass >= 3) {
        return COURIER_ACTION_CONTINUE;
    }
    CHECK_OK(courier_exchange_request(exchange, &request, &error));
    CHECK_OK(courier_request_set_header(request, "X-Retry", attempt == 1 ? "1" : "2", &error));
    return COURIER_ACTION_RETRY;
}

static courier_action retry_forever(void *user_data, courier_exchange *exchange)
{
    (void)exchange;
    bump(user_data);
    return COURIER_ACTION_RETRY;
}

static courier_action retry_from_on_request(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_RETRY;
}

static void retry_from_on_response_resends(void)
{
    counter passes;
    counter retries;
    counter_init(&passes);
    counter_init(&retries);
    courier_client *client = new_client();
    add(client, "retry", NULL, retry_twice, NULL, &retries, NULL);
    add(client, "record", record_pass, NULL, NULL, &passes, NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/headers", &code, NULL);
    CHECK(code == COURIER_OK && status_of(response) == 200);
    CHECK(passes.value == 3);
    CHECK(passes.attempts[0] == 1 && passes.attempts[1] == 2 && passes.attempts[2] == 3);
    CHECK_INT(retries.value, 3);
    CHECK(retries.attempts[0] == 1 && retries.attempts[1] == 2 && retries.attempts[2] == 3);
    CHECK(passes.request_ids[0][0] != '\0' && strcmp(passes.request_ids[0], passes.request_ids[2]) == 0);
    CHECK_CONTAINS(body_text(response), "[\"X-Retry\",\"2\"]");
    courier_response_free(response);
    courier_client_free(client);

    /* Retries are bounded: 8 a send. */
    counter forever;
    counter_init(&forever);
    client = new_client();
    add(client, "loop", NULL, retry_forever, NULL, &forever, NULL);
    courier_error *failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code != COURIER_OK);
    CHECK(forever.value >= 8 && forever.value <= 9);
    courier_error_free(failure);
    courier_client_free(client);

    /* RETRY is for on_response only. */
    client = new_client();
    add(client, "early-retry", retry_from_on_request, NULL, NULL, NULL, NULL);
    failure = NULL;
    CHECK(get(client, "/anything", &code, &failure) == NULL);
    CHECK(code == COURIER_E_INTERCEPTOR);
    courier_error_free(failure);
    courier_client_free(client);
}

/* Calls proceed twice and keeps the second response, marking it. */
static courier_action proceed_twice(void *user_data, courier_exchange *exchange)
{
    courier_response *response = NULL;
    courier_request *request = NULL;
    int status = 0;
    (void)user_data;
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_exchange_request(exchange, &request, &error));
    CHECK_OK(courier_request_set_header(request, "X-Around", "first", &error));
    CHECK_OK(courier_exchange_proceed(exchange, &error));
    CHECK_OK(courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    CHECK(status == 200);
    CHECK_OK(courier_request_set_header(request, "X-Around", "second", &error));
    CHECK_OK(courier_exchange_proceed(exchange, &error));
    CHECK_OK(courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_response_set_header(response, "X-Proceeded", "2", &error));
    return COURIER_ACTION_CONTINUE;
}

/* Fails the first pass through it, lets the second go. */
static courier_action fail_first(void *user_data, courier_exchange *exchange)
{
    if (bump(user_data) == 1) {
        courier_exchange_fail(exchange, COURIER_E_CANNOT_CONNECT, "transient", NULL);
        return COURIER_ACTION_FAIL;
    }
    return COURIER_ACTION_CONTINUE;
}

/* Proceeds until a pass succeeds, at most three times. */
static courier_action proceed_until_success(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    for (int i = 0; i < 3; i++) {
        courier_error *failure = NULL;
        if (courier_exchange_proceed(exchange, &failure) == COURIER_OK) {
            return COURIER_ACTION_CONTINUE;
        }
        CHECK(courier_error_code(failure) == COURIER_E_CANNOT_CONNECT);
        courier_error_free(failure);
    }
    return COURIER_ACTION_FAIL;
}

static courier_action proceed_outside_around(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    CHECK(courier_exchange_proceed(exchange, &error) != COURIER_OK);
    courier_error_free(error);
    error = NULL;
    return COURIER_ACTION_CONTINUE;
}

static void around_may_proceed_twice(void)
{
    counter passes;
    counter_init(&passes);
    courier_client *client = new_client();
    add(client, "twice", NULL, NULL, proceed_twice, NULL, NULL);
    add(client, "count", count_pass, NULL, NULL, &passes, NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/headers", &code, NULL);
    const char *value = NULL;
    CHECK(code == COURIER_OK);
    CHECK(passes.value == 2);
    CHECK_CONTAINS(body_text(response), "[\"X-Around\",\"second\"]");
    CHECK_OK(courier_response_header(response, "X-Proceeded", &value, &error));
    CHECK_STR(value, "2");
    courier_response_free(response);
    courier_client_free(client);

    counter failures;
    counter_init(&failures);
    client = new_client();
    add(client, "until-success", NULL, NULL, proceed_until_success, NULL, NULL);
    add(client, "flaky", fail_first, NULL, NULL, &failures, NULL);
    response = get(client, "/anything", &code, NULL);
    CHECK(code == COURIER_OK && status_of(response) == 200 && failures.value == 2);
    courier_response_free(response);
    courier_client_free(client);

    client = new_client();
    add(client, "misplaced-proceed", proceed_outside_around, NULL, NULL, NULL, NULL);
    response = get(client, "/anything", &code, NULL);
    CHECK(code == COURIER_OK);
    courier_response_free(response);
    courier_client_free(client);
}

/* The client a callback tries to send through, and the codes it got. */
static courier_client *reentrant_client;
static char reentrant_url[512];

static courier_action send_from_callback(void *user_data, courier_exchange *exchange)
{
    counter *codes = user_data;
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_error *failure = NULL;
    (void)exchange;
    CHECK_OK(courier_request_new("GET", reentrant_url, &request, &error));
    courier_code code = courier_client_send(reentrant_client, request, &response, &failure);
    courier_request_free(request);
    courier_response_free(response);
    courier_error_free(failure);
    pthread_mutex_lock(&codes->lock);
    codes->codes[codes->value++ % 16] = code;
    pthread_mutex_unlock(&codes->lock);
    return COURIER_ACTION_CONTINUE;
}

static courier_action send_from_around(void *user_data, courier_exchange *exchange)
{
    send_from_callback(user_data, exchange);
    return courier_exchange_proceed(exchange, NULL) == COURIER_OK ? COURIER_ACTION_CONTINUE : COURIER_ACTION_FAIL;
}

/* A completion that tries to wait for its own call. */
typedef struct waiting_completion {
    pthread_mutex_t lock;
    pthread_cond_t done;
    courier_call *call;
    int calls;
    courier_code wait_code;
} waiting_completion;

static void complete_and_wait(void *user_data, courier_response *response, courier_error *failure)
{
    waiting_completion *state = user_data;
    pthread_mutex_lock(&state->lock);
    courier_call *call = state->call;
    pthread_mutex_unlock(&state->lock);
    courier_code code = courier_call_wait(call, NULL);
    pthread_mutex_lock(&state->lock);
    state->wait_code = code;
    state->calls++;
    pthread_cond_broadcast(&state->done);
    pthread_mutex_unlock(&state->lock);
    courier_response_free(response);
    courier_error_free(failure);
}

static void blocking_calls_from_callbacks_would_block(void)
{
    counter codes;
    counter_init(&codes);
    courier_client *client = new_client();
    reentrant_client = client;
    url_at(reentrant_url, sizeof reentrant_url, base, "/anything/inner");
    add(client, "reenter", send_from_callback, send_from_callback, NULL, &codes, NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/anything/outer", &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK(codes.value == 2 && codes.codes[0] == COURIER_E_WOULD_BLOCK && codes.codes[1] == COURIER_E_WOULD_BLOCK);
    courier_response_free(response);
    courier_client_free(client);

    counter around_codes;
    counter_init(&around_codes);
    client = new_client();
    reentrant_client = client;
    add(client, "reenter-around", NULL, NULL, send_from_around, &around_codes, NULL);
    response = get(client, "/anything/outer", &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK(around_codes.value == 1 && around_codes.codes[0] == COURIER_E_WOULD_BLOCK);
    courier_response_free(response);

    /* courier_call_wait from the completion of the same call. */
    waiting_completion state;
    memset(&state, 0, sizeof state);
    pthread_mutex_init(&state.lock, NULL);
    pthread_cond_init(&state.done, NULL);
    courier_request *request = NULL;
    char url[512];
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/delay/100"), &request, &error));
    pthread_mutex_lock(&state.lock);
    CHECK_OK(courier_client_send_async(client, request, NULL, complete_and_wait, &state, &state.call, &error));
    pthread_mutex_unlock(&state.lock);
    courier_request_free(request);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 30;
    pthread_mutex_lock(&state.lock);
    while (state.calls == 0 && pthread_cond_timedwait(&state.done, &state.lock, &deadline) == 0) {
    }
    pthread_mutex_unlock(&state.lock);
    CHECK(state.calls == 1 && state.wait_code == COURIER_E_WOULD_BLOCK);
    CHECK_OK(courier_call_free(state.call));
    pthread_mutex_destroy(&state.lock);
    pthread_cond_destroy(&state.done);
    courier_client_free(client);
}

/* Destroy callbacks run once no send uses the interceptor, which may be just after removal returns. */
static int value_within(counter *count, int expected, int milliseconds)
{
    for (int waited = 0;; waited += 10) {
        pthread_mutex_lock(&count->lock);
        int value = count->value;
        pthread_mutex_unlock(&count->lock);
        if (value == expected || waited >= milliseconds) {
            return value;
        }
        sleep_ms(10);
    }
}

/* The counters of a removable interceptor: passes it ran, and whether its destroy ran. */
typedef struct pass_and_release {
    counter *passes;
    counter *destroyed;
} pass_and_release;

static courier_action count_pass_of(void *user_data, courier_exchange *exchange)
{
    pass_and_release *counts = user_data;
    return count_pass(counts->passes, exchange);
}

static void release_of(void *user_data)
{
    pass_and_release *counts = user_data;
    bump(counts->destroyed);
}

static void removal_and_destroy_callbacks(void)
{
    counter passes;
    counter destroyed;
    counter_init(&passes);
    counter_init(&destroyed);
    pass_and_release counts = {&passes, &destroyed};
    courier_client *client = new_client();
    add(client, "removable", count_pass_of, NULL, NULL, &counts, release_of);
    add(client, "removable", count_pass_of, NULL, NULL, &counts, release_of);
    add(client, "kept", count_pass_of, NULL, NULL, &counts, release_of);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/anything", &code, NULL);
    CHECK(code == COURIER_OK && passes.value == 3);
    courier_response_free(response);
    CHECK_OK(courier_client_remove_interceptor(client, "removable", &error));
    CHECK(value_within(&destroyed, 2, 2000) == 2);
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_client_remove_interceptor(client, "removable", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_remove_interceptor(client, NULL, &error));
    response = get(client, "/anything", &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK(passes.value == 4);
    courier_response_free(response);
    CHECK_OK(courier_client_free(client));
    CHECK(value_within(&destroyed, 3, 2000) == 3);
}

/*
 * Consecutive on_request/on_response interceptors run together in one stage; they must behave
 * exactly as separate ones: order, RESPOND, FAIL, RETRY, attempts, and handles that stop working
 * when their callback returns. Each traced interceptor notes "name>" on the way in and "<name"
 * on the way out.
 */
static char trace[512];

static void note(const char *before, const char *name, const char *after)
{
    size_t used = strlen(trace);
    snprintf(trace + used, sizeof trace - used, "%s%s%s%s", used > 0 ? " " : "", before, name, after);
}

typedef struct traced {
    const char *name;
    courier_action on_request_action; /* CONTINUE, RESPOND (418) or FAIL */
    int retries;                      /* on_response asks for RETRY this many times */
    int passes;
    int attempts[8];     /* courier_exchange_attempt in on_request, pass by pass */
    int out_passes;
    int out_attempts[8]; /* and in on_response */
} traced;

static courier_action traced_in(void *user_data, courier_exchange *exchange)
{
    traced *self = user_data;
    int attempt = 0;
    CHECK_OK(courier_exchange_attempt(exchange, &attempt, &error));
    self->attempts[self->passes++ % 8] = attempt;
    note("", self->name, ">");
    if (self->on_request_action == COURIER_ACTION_RESPOND) {
        courier_response *response = NULL;
        CHECK_OK(courier_response_new(418, &response, &error));
        CHECK_OK(courier_exchange_respond(exchange, response, &error));
    } else if (self->on_request_action == COURIER_ACTION_FAIL) {
        CHECK_OK(courier_exchange_fail(exchange, COURIER_E_INTERCEPTOR, "refused", &error));
    }
    return self->on_request_action;
}

static courier_action traced_out(void *user_data, courier_exchange *exchange)
{
    traced *self = user_data;
    courier_response *response = NULL;
    int attempt = 0;
    CHECK_OK(courier_exchange_response(exchange, &response, &error));
    CHECK_OK(courier_exchange_attempt(exchange, &attempt, &error));
    self->out_attempts[self->out_passes++ % 8] = attempt;
    note("<", self->name, "");
    if (self->retries > 0) {
        self->retries--;
        return COURIER_ACTION_RETRY;
    }
    return COURIER_ACTION_CONTINUE;
}

static courier_action traced_around(void *user_data, courier_exchange *exchange)
{
    traced *self = user_data;
    note("", self->name, "(");
    courier_code code = courier_exchange_proceed(exchange, &error);
    note(")", self->name, "");
    return code == COURIER_OK ? COURIER_ACTION_CONTINUE : COURIER_ACTION_FAIL;
}

static void add_traced(courier_client *client, traced *self)
{
    add(client, self->name, traced_in, traced_out, NULL, self, NULL);
}

/* Sends GET /anything through `client`; the status, or 0 on failure with *failure set. */
static int traced_send(courier_client *client, courier_error **failure)
{
    trace[0] = '\0';
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/anything", &code, failure);
    int status = response != NULL ? status_of(response) : 0;
    courier_response_free(response);
    return status;
}

/* The handles an interceptor kept from its callback, for the next one to try. */
static courier_exchange *kept_exchange;
static courier_request *kept_request;

static courier_action keep_handles(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    kept_exchange = exchange;
    CHECK_OK(courier_exchange_request(exchange, &kept_request, &error));
    return COURIER_ACTION_CONTINUE;
}

static courier_action use_kept_handles(void *user_data, courier_exchange *exchange)
{
    int attempt = 0;
    courier_request *request = NULL;
    (void)user_data;
    CHECK(exchange != kept_exchange);
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_attempt(kept_exchange, &attempt, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_request_set_header(kept_request, "X-Late", "1", &error));
    CHECK_OK(courier_exchange_request(exchange, &request, &error));
    CHECK_OK(courier_request_set_header(request, "X-Fresh", "1", &error));
    return COURIER_ACTION_CONTINUE;
}

static void consecutive_interceptors_act_as_separate_ones(void)
{
    traced a = {"a", COURIER_ACTION_CONTINUE, 0, 0, {0}, 0, {0}};
    traced b = {"b", COURIER_ACTION_CONTINUE, 0, 0, {0}, 0, {0}};
    traced c = {"c", COURIER_ACTION_CONTINUE, 0, 0, {0}, 0, {0}};
    traced x = {"x", COURIER_ACTION_CONTINUE, 0, 0, {0}, 0, {0}};
    courier_client *client = new_client();
    add_traced(client, &a);
    add_traced(client, &b);
    add(client, "x", NULL, NULL, traced_around, &x, NULL);
    add_traced(client, &c);
    CHECK_INT(traced_send(client, NULL), 200);
    CHECK_STR(trace, "a> b> x( c> <c )x <b <a");

    /* RESPOND skips the rest and the responder's own on_response. */
    b.on_request_action = COURIER_ACTION_RESPOND;
    CHECK_INT(traced_send(client, NULL), 418);
    CHECK_STR(trace, "a> b> <a");

    /* FAIL ends the send, naming the interceptor; no on_response runs. */
    b.on_request_action = COURIER_ACTION_FAIL;
    courier_error *failure = NULL;
    CHECK_INT(traced_send(client, &failure), 0);
    CHECK_STR(trace, "a> b>");
    CHECK_STR(courier_error_stage(failure), "b");
    courier_error_free(failure);

    /* RETRY from b's on_response resends through what follows b, counting attempts. */
    b.on_request_action = COURIER_ACTION_CONTINUE;
    b.retries = 1;
    c.passes = 0;
    CHECK_INT(traced_send(client, NULL), 200);
    CHECK_STR(trace, "a> b> x( c> <c )x <b x( c> <c )x <b <a");
    CHECK_INT(c.passes, 2);
    CHECK(c.attempts[0] == 1 && c.attempts[1] == 2);

    /* Removing the around interceptor joins a, b and c; removing b leaves a and c. */
    CHECK_OK(courier_client_remove_interceptor(client, "x", &error));
    b.retries = 1;
    b.out_passes = 0;
    c.passes = 0;
    c.out_passes = 0;
    CHECK_INT(traced_send(client, NULL), 200);
    CHECK_STR(trace, "a> b> c> <c <b c> <c <b <a");
    CHECK(c.attempts[0] == 1 && c.attempts[1] == 2);
    CHECK(c.out_attempts[0] == 1 && c.out_attempts[1] == 2);
    CHECK(b.out_attempts[0] == 1 && b.out_attempts[1] == 2);
    CHECK_OK(courier_client_remove_interceptor(client, "b", &error));
    CHECK_INT(traced_send(client, NULL), 200);
    CHECK_STR(trace, "a> c> <c <a");
    courier_client_free(client);

    /* A handle kept from one callback does not work in the next, even in the same stage. */
    client = new_client();
    add(client, "keep", keep_handles, NULL, NULL, NULL, NULL);
    add(client, "use", use_kept_handles, NULL, NULL, NULL, NULL);
    courier_code code = COURIER_OK;
    courier_response *response = get(client, "/headers", &code, NULL);
    CHECK(code == COURIER_OK);
    CHECK_CONTAINS(body_text(response), "[\"X-Fresh\",\"1\"]");
    CHECK(strstr(body_text(response), "X-Late") == NULL);
    courier_response_free(response);
    courier_client_free(client);
}

/* Sends asynchronously through an interceptor and checks it ran before the completion. */
static courier_action note_thread(void *user_data, courier_exchange *exchange)
{
    courier_request *request = NULL;
    (void)user_data;
    CHECK_OK(courier_exchange_request(exchange, &request, &error));
    CHECK_OK(courier_request_set_header(request, "X-Async", "edited", &error));
    return COURIER_ACTION_CONTINUE;
}

typedef struct body_holder {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int calls;
    int saw_header;
} body_holder;

static void check_async_body(void *user_data, courier_response *response, courier_error *failure)
{
    body_holder *holder = user_data;
    int saw = response != NULL && body_text(response) != NULL && strstr(body_text(response), "X-Async") != NULL;
    pthread_mutex_lock(&holder->lock);
    holder->calls++;
    holder->saw_header = saw;
    pthread_cond_broadcast(&holder->done);
    pthread_mutex_unlock(&holder->lock);
    courier_response_free(response);
    courier_error_free(failure);
}

static void interceptors_run_for_async_sends(void)
{
    courier_client *client = new_client();
    add(client, "async-edit", note_thread, NULL, NULL, NULL, NULL);
    body_holder holder;
    memset(&holder, 0, sizeof holder);
    pthread_mutex_init(&holder.lock, NULL);
    pthread_cond_init(&holder.done, NULL);
    courier_request *request = NULL;
    courier_call *call = NULL;
    char url[512];
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/headers"), &request, &error));
    CHECK_OK(courier_client_send_async(client, request, NULL, check_async_body, &holder, &call, &error));
    courier_request_free(request);
    CHECK_OK(courier_call_wait(call, &error));
    CHECK(holder.calls == 1 && holder.saw_header);
    courier_call_free(call);
    pthread_mutex_destroy(&holder.lock);
    pthread_cond_destroy(&holder.done);
    courier_client_free(client);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_interceptors BASE_URL\n");
        return 2;
    }
    base = argv[1];
    continue_with_edits_in_chain_order();
    respond_short_circuits_the_chain();
    fail_and_unknown_actions_fail_the_send();
    retry_from_on_response_resends();
    around_may_proceed_twice();
    blocking_calls_from_callbacks_would_block();
    removal_and_destroy_callbacks();
    interceptors_run_for_async_sends();
    consecutive_interceptors_act_as_separate_ones();
    return check_finish("test_interceptors");
}
