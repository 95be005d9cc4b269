/*
 * Courier's own interceptors added from C by name and JSON (courier_client_add_builtin): retry
 * with a C interceptor inside it, validation, logging to a file with redaction, the concurrency
 * limit, Digest authentication, the HTTP cache in memory and in a directory, removal by name, and
 * every kind of bad configuration, which must fail naming the option and add nothing.
 * Usage: test_builtins BASE_URL
 */
#define _XOPEN_SOURCE 700
#include "check.h"

#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>

static courier_error *error;
static const char *base;

static courier_client *new_client(void)
{
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    return client;
}

/* Sends `method` base+path through `client`; the response or NULL, the code in *code, the error
 * in *failure when given (freed here otherwise). */
static courier_response *send_to(courier_client *client, const char *method, const char *path, const char *bearer,
                                 courier_code *code, courier_error **failure)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_error *own = NULL;
    CHECK_OK(courier_request_new(method, url_at(url, sizeof url, base, path), &request, &error));
    if (bearer != NULL) CHECK_OK(courier_request_set_bearer_auth(request, bearer, &error));
    *code = courier_client_send(client, request, &response, failure ? failure : &own);
    courier_error_free(own);
    courier_request_free(request);
    return response;
}

static int status_of(const courier_response *response)
{
    int status = 0;
    courier_response_status(response, &status, NULL);
    return status;
}

static const char *header_of(const courier_response *response, const char *name)
{
    const char *value = NULL;
    return courier_response_header(response, name, &value, NULL) == COURIER_OK ? value : NULL;
}

/* Counts the passes through the C interceptor placed inside the retry. */
static int passes;

static courier_action count_pass(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    __atomic_fetch_add(&passes, 1, __ATOMIC_RELAXED);
    return COURIER_ACTION_CONTINUE;
}

static void retry_resends_through_the_interceptors_inside_it(void)
{
    courier_client *client = new_client();
    courier_code code = COURIER_OK;
    CHECK_OK(courier_client_add_builtin(client, "retry",
                                        "{\"max_attempts\": 4, \"initial_backoff_ms\": 1, \"jitter\": \"none\","
                                        " \"budget\": \"unlimited\"}",
                                        &error));
    courier_interceptor counter;
    courier_interceptor_init(&counter);
    counter.name = "counter";
    counter.on_request = count_pass;
    CHECK_OK(courier_client_add_interceptor(client, &counter, &error));

    courier_response *response = send_to(client, "GET", "/flaky/builtin-retry/2", NULL, &code, NULL);
    CHECK_INT(code, COURIER_OK);
    CHECK_INT(status_of(response), 200);
    CHECK_STR(header_of(response, "X-Attempt"), "3");
    CHECK_INT(__atomic_load_n(&passes, __ATOMIC_RELAXED), 3);
    courier_response_free(response);

    /* Three attempts at most: the third failure is the answer. */
    CHECK_OK(courier_client_remove_interceptor(client, "retry", &error));
    CHECK_OK(courier_client_add_builtin(client, "retry", "{\"name\": \"twice\", \"max_attempts\": 2, \"initial_backoff_ms\": 1}", &error));
    response = send_to(client, "GET", "/flaky/builtin-retry-spent/5", NULL, &code, NULL);
    CHECK_INT(code, COURIER_OK);
    CHECK_INT(status_of(response), 503);
    CHECK_STR(header_of(response, "X-Attempt"), "2");
    courier_response_free(response);

    /* POST is not retried without an Idempotency-Key unless "methods" says so. */
    response = send_to(client, "POST", "/flaky/builtin-retry-post/1", NULL, &code, NULL);
    CHECK_INT(status_of(response), 503);
    courier_response_free(response);
    CHECK_OK(courier_client_remove_interceptor(client, "twice", &error));
    CHECK_OK(courier_client_add_builtin(client, "retry", "{\"methods\": [\"POST\"], \"initial_backoff_ms\": 1}", &error));
    response = send_to(client, "POST", "/flaky/builtin-retry-post/1", NULL, &code, NULL);
    CHECK_INT(status_of(response), 200);
    courier_response_free(response);
    courier_client_free(client);
}

static void validation_fails_unacceptable_responses_with_their_status(void)
{
    courier_client *client = new_client();
    courier_code code = COURIER_OK;
    courier_error *failure = NULL;
    CHECK_OK(courier_client_add_builtin(client, "validation", NULL, &error));
    courier_response *response = send_to(client, "GET", "/status/404", NULL, &code, &failure);
    CHECK_INT(code, COURIER_E_UNACCEPTABLE_STATUS);
    CHECK(response == NULL);
    CHECK_INT(courier_error_status(failure), 404);
    CHECK_STR(courier_error_stage(failure), "validation");
    courier_error_free(failure);

    CHECK_OK(courier_client_remove_interceptor(client, "validation", &error));
    CHECK_OK(courier_client_add_builtin(client, "validation", "{\"statuses\": [\"200-299\", 404], \"content_types\": \"any\"}", &error));
    response = send_to(client, "GET", "/status/404", NULL, &code, NULL);
    CHECK_INT(code, COURIER_OK);
    CHECK_INT(status_of(response), 404);
    courier_response_free(response);

    CHECK_OK(courier_client_remove_interceptor(client, "validation", &error));
    CHECK_OK(courier_client_add_builtin(client, "validation", "{\"content_types\": [\"application/json\"]}", &error));
    response = send_to(client, "GET", "/anything", NULL, &code, NULL);
    CHECK_INT(code, COURIER_OK);
    courier_response_free(response);
    failure = NULL;
    response = send_to(client, "GET", "/bytes/16", NULL, &code, &failure);
    CHECK_INT(code, COURIER_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK_INT(courier_error_status(failure), 200);
    courier_error_free(failure);
    courier_client_free(client);
}

/* Reads the whole file at `path` into a new string (NULL on failure). */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    char *text = calloc(1, 65536);
    size_t length = text ? fread(text, 1, 65535, file) : 0;
    (void)length;
    fclose(file);
    return text;
}

static void logging_writes_redacted_lines_to_its_file(void)
{
    char path[] = "/tmp/courier-builtin-log-XXXXXX";
    int descriptor = mkstemp(path);
    CHECK(descriptor >= 0);
    if (descriptor < 0) return;
    close(descriptor);
    char config[256];
    snprintf(config, sizeof config, "{\"path\": \"%s\", \"level\": \"debug\", \"redact_headers\": [\"X-Secret\"]}", path);

    courier_client *client = new_client();
    courier_code code = COURIER_OK;
    CHECK_OK(courier_client_add_builtin(client, "logging", config, &error));
    courier_response *response = send_to(client, "GET", "/anything/logged", "t0ps3cret", &code, NULL);
    CHECK_INT(code, COURIER_OK);
    courier_response_free(response);
    courier_client_free(client);

    char *log = read_file(path);
    CHECK_CONTAINS(log, "GET ");
    CHECK_CONTAINS(log, "/anything/logged");
    CHECK_CONTAINS(log, " 200");
    CHECK_CONTAINS(log, "request-id=");
    CHECK(log != NULL && strstr(log, "t0ps3cret") == NULL);
    free(log);
    unlink(path);

    /* "notice" writes nothing for a success. */
    descriptor = mkstemp(strcpy(path, "/tmp/courier-builtin-log-XXXXXX"));
    CHECK(descriptor >= 0);
    if (descriptor < 0) return;
    close(descriptor);
    snprintf(config, sizeof config, "{\"path\": \"%s\", \"level\": \"notice\"}", path);
    client = new_client();
    CHECK_OK(courier_client_add_builtin(client, "logging", config, &error));
    response = send_to(client, "GET", "/anything/quiet", NULL, &code, NULL);
    courier_response_free(response);
    courier_client_free(client);
    log = read_file(path);
    CHECK(log != NULL && log[0] == '\0');
    free(log);
    unlink(path);
}

/* The largest in-flight count /inflight reported to the completions below. */
static int most_in_flight;

static void record_in_flight(void *user_data, courier_response *response, courier_error *failure)
{
    (void)user_data;
    const void *body = NULL;
    size_t length = 0;
    if (response != NULL && courier_response_body(response, &body, &length, NULL) == COURIER_OK) {
        const char *field = strstr(body, "\"inFlight\"");
        int count = field ? atoi(strchr(field, ':') + 1) : 0;
        int seen = __atomic_load_n(&most_in_flight, __ATOMIC_RELAXED);
        while (count > seen && !__atomic_compare_exchange_n(&most_in_flight, &seen, count, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    }
    courier_response_free(response);
    courier_error_free(failure);
}

static void the_concurrency_limit_holds_sends_back(void)
{
    courier_client *client = new_client();
    CHECK_OK(courier_client_add_builtin(client, "concurrency_limit", "{\"max_requests\": 1}", &error));
    courier_call *calls[4] = {NULL};
    char url[512];
    for (int index = 0; index < 4; index++) {
        courier_request *request = NULL;
        CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/inflight/100"), &request, &error));
        CHECK_OK(courier_client_send_async(client, request, NULL, record_in_flight, NULL, &calls[index], &error));
        courier_request_free(request);
    }
    for (int index = 0; index < 4; index++) {
        CHECK_OK(courier_call_wait(calls[index], &error));
        courier_call_free(calls[index]);
    }
    CHECK_INT(__atomic_load_n(&most_in_flight, __ATOMIC_RELAXED), 1);
    courier_client_free(client);
}

static void digest_auth_answers_the_servers_challenge(void)
{
    courier_client *client = new_client();
    CHECK_OK(courier_client_add_builtin(client, "digest_auth", "{\"user\": \"ada\", \"password\": \"s3cret\"}", &error));
    const char *paths[] = {"/digest-auth/auth/ada/s3cret/SHA-256", "/digest-auth/auth/ada/s3cret/MD5-sess"};
    for (size_t index = 0; index < 2; index++) {
        courier_code code = COURIER_OK;
        courier_response *response = send_to(client, "GET", paths[index], NULL, &code, NULL);
        CHECK_INT(code, COURIER_OK);
        CHECK_INT(status_of(response), 200);
        courier_response_free(response);
    }
    courier_client_free(client);

    client = new_client();
    CHECK_OK(courier_client_add_builtin(client, "digest_auth", "{\"user\": \"ada\", \"password\": \"wrong\"}", &error));
    courier_code code = COURIER_OK;
    courier_response *response = send_to(client, "GET", "/digest-auth/auth/ada/s3cret/MD5", NULL, &code, NULL);
    CHECK_INT(status_of(response), 401);
    courier_response_free(response);
    courier_client_free(client);
}

/* GETs base+path through `client` with `cache_control` (or none) and checks the status, that the
 * body is "KEY #answer" (answer 0: no check), and that Cache-Status begins with `cache_status`
 * ("" for none: no cache on the way). */
static void expect_cached(courier_client *client, const char *path, const char *cache_control, int want_status,
                          const char *key, int answer, const char *cache_status)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, path), &request, &error));
    if (cache_control != NULL) CHECK_OK(courier_request_set_header(request, "Cache-Control", cache_control, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    courier_request_free(request);
    if (response == NULL) return;
    CHECK_INT(status_of(response), want_status);
    const char *status = header_of(response, "Cache-Status");
    int matches = cache_status[0] == '\0' ? status == NULL
                                          : status != NULL && strncmp(status, cache_status, strlen(cache_status)) == 0;
    CHECK(matches);
    if (!matches) {
        fprintf(stderr, "  %s: Cache-Status \"%s\", wanted \"%s...\"\n", path, status ? status : "(none)", cache_status);
    }
    if (answer > 0) {
        const void *data = NULL;
        size_t length = 0;
        char want[64];
        snprintf(want, sizeof want, "%s #%d\n", key, answer);
        CHECK_OK(courier_response_body(response, &data, &length, &error));
        CHECK(length == strlen(want) && memcmp(data, want, length) == 0);
    }
    courier_response_free(response);
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *walk)
{
    (void)info;
    (void)flag;
    (void)walk;
    return remove(path);
}

static void the_cache_answers_from_memory_and_from_a_directory_other_clients_share(void)
{
    courier_client *client = new_client();
    CHECK_OK(courier_client_add_builtin(client, "cache", NULL, &error));
    expect_cached(client, "/cache/c-memory?cc=max-age%3D60", NULL, 200, "c-memory", 1,
                  "Courier; fwd=uri-miss; fwd-status=200; stored");
    expect_cached(client, "/cache/c-memory?cc=max-age%3D60", NULL, 200, "c-memory", 1, "Courier; hit");
    expect_cached(client, "/cache/c-missing", "only-if-cached", 504, "", 0, "Courier; detail=only-if-cached");
    expect_cached(client, "/cache/c-memory?cc=max-age%3D60", "no-cache", 200, "c-memory", 2,
                  "Courier; fwd=request; fwd-status=200; stored");
    CHECK_OK(courier_client_remove_interceptor(client, "cache", &error));
    expect_cached(client, "/cache/c-memory?cc=max-age%3D60", NULL, 200, "c-memory", 3, "");
    courier_client_free(client);

    char directory[] = "/tmp/courier-c-cache-XXXXXX";
    CHECK(mkdtemp(directory) != NULL);
    char config[256];
    snprintf(config, sizeof config, "{\"directory\": \"%s/entries\", \"max_bytes\": 1048576}", directory);
    courier_client *writer = new_client();
    CHECK_OK(courier_client_add_builtin(writer, "cache", config, &error));
    expect_cached(writer, "/cache/c-disk?cc=max-age%3D60", NULL, 200, "c-disk", 1,
                  "Courier; fwd=uri-miss; fwd-status=200; stored");
    courier_client_free(writer);
    courier_client *reader = new_client();
    CHECK_OK(courier_client_add_builtin(reader, "cache", config, &error));
    expect_cached(reader, "/cache/c-disk?cc=max-age%3D60", NULL, 200, "c-disk", 1, "Courier; hit");
    courier_client_free(reader);
    CHECK_INT(nftw(directory, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* Adds `kind` with `config`, expects `want`, and that the message names `named`. */
static void refused(courier_client *client, const char *kind, const char *config, courier_code want, const char *named)
{
    courier_error *failure = NULL;
    CHECK_INT(courier_client_add_builtin(client, kind, config, &failure), want);
    CHECK(failure != NULL);
    if (failure == NULL) return;
    const char *message = courier_error_message(failure);
    if (strstr(message, named) == NULL) fprintf(stderr, "  message \"%s\" does not name \"%s\"\n", message, named);
    CHECK_CONTAINS(message, named);
    courier_error_free(failure);
}

static void bad_configurations_fail_naming_the_option_and_add_nothing(void)
{
    courier_client *client = new_client();
    refused(client, "retrying", NULL, COURIER_E_NOT_FOUND, "retrying");
    refused(client, "retry", "{\"max_attempt\": 3}", COURIER_E_INVALID_ARGUMENT, "max_attempt");
    refused(client, "retry", "{\"max_attempts\": \"3\"}", COURIER_E_INVALID_ARGUMENT, "max_attempts: expected an integer");
    refused(client, "retry", "{\"max_attempts\": 0}", COURIER_E_INVALID_ARGUMENT, "max_attempts");
    refused(client, "retry", "{\"max_attempts\": 2, \"max_attempts\": 5}", COURIER_E_INVALID_ARGUMENT, "max_attempts: given twice");
    refused(client, "retry", "{\"budget\": {\"max_tokens\": 1, \"max_tokens\": 2}}", COURIER_E_INVALID_ARGUMENT, "max_tokens: given twice");
    refused(client, "retry", "{\"jitter\": \"some\"}", COURIER_E_INVALID_ARGUMENT, "jitter");
    refused(client, "retry", "{\"errors\": [\"cancelled\"]}", COURIER_E_INVALID_ARGUMENT, "cancelled");
    refused(client, "retry", "{\"budget\": {\"tokens\": 1}}", COURIER_E_INVALID_ARGUMENT, "budget.tokens");
    refused(client, "retry", "[1, 2]", COURIER_E_INVALID_ARGUMENT, "retry config");
    refused(client, "retry", "{\"max_attempts\": 3", COURIER_E_INVALID_ARGUMENT, "retry config");
    refused(client, "logging", "{\"level\": \"loud\"}", COURIER_E_INVALID_ARGUMENT, "loud");
    refused(client, "logging", "{\"path\": \"/nonexistent-dir/courier.log\"}", COURIER_E_INVALID_ARGUMENT, "/nonexistent-dir/courier.log");
    refused(client, "logging", "{\"fd\": 1, \"path\": \"/tmp/x\"}", COURIER_E_INVALID_ARGUMENT, "not both");
    refused(client, "logging", "{\"fd\": 999}", COURIER_E_INVALID_ARGUMENT, "fd 999");
    refused(client, "logging", "{\"redact_headers\": [\"Bad Name\"]}", COURIER_E_INVALID_ARGUMENT, "Bad Name");
    refused(client, "validation", "{\"statuses\": [\"299-200\"]}", COURIER_E_INVALID_ARGUMENT, "statuses[0]");
    refused(client, "validation", "{\"content_types\": [\"json\"]}", COURIER_E_INVALID_ARGUMENT, "json");
    refused(client, "concurrency_limit", "{\"max_requests_per_host\": 0}", COURIER_E_INVALID_ARGUMENT, "max_requests_per_host");
    refused(client, "concurrency_limit", "{\"hold_until_body_read\": 1}", COURIER_E_INVALID_ARGUMENT, "true or false");
    refused(client, "digest_auth", NULL, COURIER_E_INVALID_ARGUMENT, "user and password are required");
    refused(client, "digest_auth", "{\"user\": \"ada\"}", COURIER_E_INVALID_ARGUMENT, "password");
    refused(client, "digest_auth", "{\"user\": \"ada\", \"password\": 7}", COURIER_E_INVALID_ARGUMENT, "password");
    refused(client, "cache", "{\"max_bytes\": -1}", COURIER_E_INVALID_ARGUMENT, "max_bytes");
    refused(client, "cache", "{\"directory\": \"\"}", COURIER_E_INVALID_ARGUMENT, "directory");
    refused(client, "cache", "{\"size\": 10}", COURIER_E_INVALID_ARGUMENT, "size");
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_builtin(client, NULL, NULL, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_client_add_builtin(NULL, "retry", NULL, &error));
    const char bad_utf8[] = {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (char)0xff, '"', '}', 0};
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_builtin(client, "retry", bad_utf8, &error));

    /* Nothing was added: every name is unknown to the client, and a send passes untouched. */
    const char *names[] = {"retry", "logging", "validation", "concurrency_limit", "digest_auth", "cache"};
    for (size_t index = 0; index < sizeof names / sizeof *names; index++) {
        CHECK_CODE(COURIER_E_NOT_FOUND, courier_client_remove_interceptor(client, names[index], &error));
    }
    courier_code code = COURIER_OK;
    courier_response *response = send_to(client, "GET", "/status/503", NULL, &code, NULL);
    CHECK_INT(code, COURIER_OK);
    CHECK_INT(status_of(response), 503);
    courier_response_free(response);
    courier_client_free(client);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    base = argv[1];
    retry_resends_through_the_interceptors_inside_it();
    validation_fails_unacceptable_responses_with_their_status();
    logging_writes_redacted_lines_to_its_file();
    the_concurrency_limit_holds_sends_back();
    digest_auth_answers_the_servers_challenge();
    the_cache_answers_from_memory_and_from_a_directory_other_clients_share();
    bad_configurations_fail_naming_the_option_and_add_nothing();
    return check_finish("test_builtins");
}
