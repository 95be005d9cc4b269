/*
 * Misbehaving callers: double frees, use after free, foreign pointers (a stack variable, a
 * heap block) and handles of the wrong kind, for every kind of handle. Each call must return
 * COURIER_E_INVALID_HANDLE (or the documented answer for accessors without a code), never crash,
 * and, under valgrind, never touch memory it does not own. Usage: test_handles BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

static courier_error *error;
static const char *base;

/* Every request reader and writer on `request`, each expecting `want`. */
static void request_calls(courier_request *request, courier_code want)
{
    const char *text = NULL;
    const char *value = NULL;
    size_t count = 0;
    const void *data = NULL;
    courier_request *clone = NULL;
    CHECK_CODE(want, courier_request_method(request, &text, &error));
    CHECK_CODE(want, courier_request_url(request, &text, &error));
    CHECK_CODE(want, courier_request_header(request, "Accept", &value, &error));
    CHECK_CODE(want, courier_request_header_count(request, &count, &error));
    CHECK_CODE(want, courier_request_header_at(request, 0, &text, &value, &error));
    CHECK_CODE(want, courier_request_body(request, &data, &count, &error));
    CHECK_CODE(want, courier_request_set_method(request, "GET", &error));
    CHECK_CODE(want, courier_request_set_header(request, "Accept", "*/*", &error));
    CHECK_CODE(want, courier_request_add_header(request, "Accept", "*/*", &error));
    CHECK_CODE(want, courier_request_remove_header(request, "Accept", &error));
    CHECK_CODE(want, courier_request_add_query(request, "q", "1", &error));
    CHECK_CODE(want, courier_request_set_timeout_ms(request, 10, &error));
    CHECK_CODE(want, courier_request_set_body_bytes(request, "x", 1, NULL, &error));
    CHECK_CODE(want, courier_request_clone(request, &clone, &error));
    CHECK(clone == NULL);
}

static void response_calls(courier_response *response, courier_code want)
{
    int status = 0;
    const char *text = NULL;
    const char *value = NULL;
    size_t count = 0;
    const void *data = NULL;
    CHECK_CODE(want, courier_response_status(response, &status, &error));
    CHECK_CODE(want, courier_response_url(response, &text, &error));
    CHECK_CODE(want, courier_response_header(response, "Accept", &value, &error));
    CHECK_CODE(want, courier_response_header_count(response, &count, &error));
    CHECK_CODE(want, courier_response_header_at(response, 0, &text, &value, &error));
    CHECK_CODE(want, courier_response_body(response, &data, &count, &error));
    CHECK_CODE(want, courier_response_set_status(response, 200, &error));
    CHECK_CODE(want, courier_response_set_header(response, "A", "b", &error));
    CHECK_CODE(want, courier_response_add_header(response, "A", "b", &error));
    CHECK_CODE(want, courier_response_remove_header(response, "A", &error));
    CHECK_CODE(want, courier_response_set_body(response, "x", 1, &error));
}

static void never_called(void *user_data, courier_response *response, courier_error *failure)
{
    (void)user_data;
    (void)response;
    (void)failure;
    fprintf(stderr, "completion ran for a send that was refused\n");
    abort();
}

static courier_action never_runs(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_CONTINUE;
}

static void client_calls(courier_client *client, courier_request *valid_request, courier_code want)
{
    courier_response *response = NULL;
    courier_call *call = NULL;
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    interceptor.name = "never-added";
    interceptor.on_request = never_runs;
    CHECK_CODE(want, courier_client_add_interceptor(client, &interceptor, &error));
    CHECK_CODE(want, courier_client_send(client, valid_request, &response, &error));
    CHECK_CODE(want, courier_client_send_with(client, valid_request, NULL, &response, &error));
    CHECK(response == NULL);
    CHECK_CODE(want, courier_client_remove_interceptor(client, "x", &error));
    CHECK_CODE(want, courier_plugin_load(client, "/nonexistent/plugin.so", NULL, NULL, &error));
    CHECK_CODE(want, courier_client_send_async(client, valid_request, NULL, never_called, NULL, &call, &error));
    CHECK(call == NULL);
}


static void free_outcome(void *user_data, courier_response *response, courier_error *failure)
{
    (void)user_data;
    courier_response_free(response);
    courier_error_free(failure);
}

static void error_calls(courier_error *bad)
{
    CHECK(courier_error_code(bad) == COURIER_E_INVALID_HANDLE);
    CHECK(courier_error_message(bad) != NULL);
    CHECK(courier_error_stage(bad) == NULL);
    CHECK(courier_error_status(bad) == 0);
}

static void double_free_and_use_after_free(void)
{
    char url[512];
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_client *client = NULL;
    courier_error *made = NULL;
    courier_call *call = NULL;

    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));
    CHECK_OK(courier_request_free(request));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_request_free(request));
    request_calls(request, COURIER_E_INVALID_HANDLE);

    CHECK_OK(courier_response_new(200, &response, &error));
    CHECK_OK(courier_response_free(response));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_response_free(response));
    response_calls(response, COURIER_E_INVALID_HANDLE);

    CHECK(courier_request_new("GET", "nope", &request, &made) == COURIER_E_INVALID_REQUEST);
    CHECK_OK(courier_error_free(made));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_error_free(made));
    error_calls(made);

    courier_request *valid = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &valid, &error));
    CHECK_OK(courier_client_new(NULL, &client, &error));
    CHECK_OK(courier_client_send_async(client, valid, NULL, free_outcome, NULL, &call, &error));
    CHECK_OK(courier_call_wait(call, &error));
    CHECK_OK(courier_call_free(call));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_free(call));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_wait(call, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_cancel(call, &error));
    CHECK_OK(courier_client_free(client));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_client_free(client));
    call = NULL;
    client_calls(client, valid, COURIER_E_INVALID_HANDLE);
    CHECK_OK(courier_request_free(valid));
}

static void foreign_pointers_and_wrong_kinds(void)
{
    char url[512];
    long stack_words[16] = {0};
    void *heap = calloc(1, 256);
    void *foreign[] = {stack_words, heap};
    courier_request *valid_request = NULL;
    courier_response *valid_response = NULL;
    courier_client *valid_client = NULL;
    courier_error *valid_error = NULL;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &valid_request, &error));
    CHECK_OK(courier_response_new(200, &valid_response, &error));
    CHECK_OK(courier_client_new(NULL, &valid_client, &error));
    courier_request *unused = NULL; /* a failed new must not touch the request used below */
    CHECK(courier_request_new("GET", "nope", &unused, &valid_error) == COURIER_E_INVALID_REQUEST);

    for (int i = 0; i < 2; i++) {
        request_calls((courier_request *)foreign[i], COURIER_E_INVALID_HANDLE);
        response_calls((courier_response *)foreign[i], COURIER_E_INVALID_HANDLE);
        client_calls((courier_client *)foreign[i], valid_request, COURIER_E_INVALID_HANDLE);
        error_calls((courier_error *)foreign[i]);
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_request_free((courier_request *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_response_free((courier_response *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_client_free((courier_client *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_error_free((courier_error *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_free((courier_call *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_cancel((courier_call *)foreign[i], &error));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_wait((courier_call *)foreign[i], &error));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_free((courier_plugin *)foreign[i]));
        CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_unload((courier_plugin *)foreign[i], &error));
        CHECK_CODE(COURIER_E_INVALID_HANDLE,
                   courier_exchange_proceed((courier_exchange *)foreign[i], &error));
        courier_response *unsent = NULL;
        CHECK_CODE(COURIER_E_INVALID_HANDLE,
                   courier_client_send(valid_client, (courier_request *)foreign[i], &unsent, &error));
        CHECK(unsent == NULL);
    }
    CHECK(stack_words[0] == 0 && stack_words[15] == 0);

    /* A live handle of one kind passed where another is expected. */
    request_calls((courier_request *)valid_response, COURIER_E_INVALID_HANDLE);
    request_calls((courier_request *)valid_client, COURIER_E_INVALID_HANDLE);
    request_calls((courier_request *)valid_error, COURIER_E_INVALID_HANDLE);
    response_calls((courier_response *)valid_request, COURIER_E_INVALID_HANDLE);
    client_calls((courier_client *)valid_request, valid_request, COURIER_E_INVALID_HANDLE);
    error_calls((courier_error *)valid_request);
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_response_free((courier_response *)valid_request));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_client_free((courier_client *)valid_response));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_error_free((courier_error *)valid_client));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_call_free((courier_call *)valid_request));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_plugin_free((courier_plugin *)valid_client));

    /* The victims of the mix-ups are still intact. */
    const char *method = NULL;
    int status = 0;
    CHECK_OK(courier_request_method(valid_request, &method, &error));
    CHECK_STR(method, "GET");
    CHECK_OK(courier_response_status(valid_response, &status, &error));
    CHECK(status == 200);
    CHECK(courier_error_code(valid_error) == COURIER_E_INVALID_REQUEST);

    CHECK_OK(courier_request_free(valid_request));
    CHECK_OK(courier_response_free(valid_response));
    CHECK_OK(courier_client_free(valid_client));
    CHECK_OK(courier_error_free(valid_error));
    free(heap);
}

/* An exchange kept past its callback is dead afterwards. */
static courier_exchange *kept_exchange;

static courier_action keep_exchange(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    kept_exchange = exchange;
    return COURIER_ACTION_CONTINUE;
}

static void exchanges_die_with_their_callback(void)
{
    char url[512];
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_interceptor interceptor;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    courier_interceptor_init(&interceptor);
    interceptor.name = "keeper";
    interceptor.on_request = keep_exchange;
    CHECK_OK(courier_client_add_interceptor(client, &interceptor, &error));
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/anything"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    CHECK(kept_exchange != NULL);
    courier_request *borrowed = NULL;
    courier_response *borrowed_response = NULL;
    int attempt = 0;
    const char *id = NULL;
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_request(kept_exchange, &borrowed, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_response(kept_exchange, &borrowed_response, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_respond(kept_exchange, response, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_fail(kept_exchange, COURIER_E_INTERNAL, "late", &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_proceed(kept_exchange, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_attempt(kept_exchange, &attempt, &error));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_exchange_request_id(kept_exchange, &id, &error));
    /* The response was not taken by the refused respond. */
    CHECK_OK(courier_response_free(response));
    CHECK_OK(courier_request_free(request));
    CHECK_OK(courier_client_free(client));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_handles BASE_URL\n");
        return 2;
    }
    base = argv[1];
    CHECK_OK(courier_request_free(NULL));
    CHECK_OK(courier_response_free(NULL));
    CHECK_OK(courier_client_free(NULL));
    CHECK_OK(courier_call_free(NULL));
    CHECK_OK(courier_plugin_free(NULL));
    CHECK_OK(courier_error_free(NULL));
    double_free_and_use_after_free();
    foreign_pointers_and_wrong_kinds();
    exchanges_die_with_their_callback();
    return check_finish("test_handles");
}
