/*
 * Fuzzes the C API with sequences of calls written by the fuzzer: requests and responses built,
 * edited, cloned, read back, sent through a client whose interceptor answers (so nothing leaves
 * the process) and freed, with any string NULL, empty, huge or not UTF-8. Whatever the sequence,
 * each call returns a code (and the error it describes), never traps; handles are never used after
 * their free (that is the caller's contract, not something to fuzz). Built-in interceptors are
 * added, with fuzzed kinds and JSON configurations, to a client of their own, and removed.
 *
 * Built with -fsanitize=fuzzer,address by scripts/fuzz; built with the replay driver
 * (-DCOURIER_FUZZ_DEFINE_MAIN) and the sanitizers by CAPITests, which replays Fuzz/Corpus/fuzz-capi.
 */
#include <courier.h>

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum { REQUEST_SLOTS = 4, RESPONSE_SLOTS = 2 };

/* The input, consumed from the front. */
typedef struct reader {
    const uint8_t *data;
    size_t size;
} reader;

static uint8_t take_byte(reader *input) {
    if (input->size == 0) return 0;
    input->size--;
    return *input->data++;
}

/* A fresh NUL-terminated copy of the next run of bytes (length from one byte, 255 meaning NULL). */
static char *take_string(reader *input) {
    uint8_t length = take_byte(input);
    if (length == 255) return NULL;
    size_t count = length < input->size ? length : input->size;
    char *text = malloc(count + 1);
    if (text == NULL) abort();
    memcpy(text, input->data, count);
    text[count] = '\0';
    input->data += count;
    input->size -= count;
    return text;
}

static int64_t take_int64(reader *input) {
    uint64_t value = 0;
    for (int i = 0; i < 8; i++) value = value << 8 | take_byte(input);
    return (int64_t)value;
}

/* Frees the error a failed call left, after reading it as a caller would. */
static void check(courier_code code, courier_error *error) {
    if (error != NULL) {
        (void)courier_error_code(error);
        (void)courier_error_message(error);
        (void)courier_error_stage(error);
        (void)courier_error_status(error);
        courier_error_free(error);
    }
    (void)courier_strerror(code);
}

/* The interceptor of the shared client: reads the request and answers with its body, so sends
 * exercise the chain without a network. */
static courier_action answer_locally(void *user_data, courier_exchange *exchange) {
    (void)user_data;
    courier_request *request = NULL;
    courier_response *response = NULL;
    if (courier_exchange_request(exchange, &request, NULL) != COURIER_OK) return COURIER_ACTION_CONTINUE;
    const void *body = NULL;
    size_t length = 0;
    const char *url = NULL;
    size_t count = 0;
    (void)courier_request_url(request, &url, NULL);
    (void)courier_request_header_count(request, &count, NULL);
    (void)courier_request_body(request, &body, &length, NULL);
    if (courier_response_new(200, &response, NULL) != COURIER_OK) return COURIER_ACTION_CONTINUE;
    (void)courier_response_set_body(response, body, length, NULL);
    if (courier_exchange_respond(exchange, response, NULL) != COURIER_OK) {
        courier_response_free(response);
        return COURIER_ACTION_CONTINUE;
    }
    return COURIER_ACTION_RESPOND;
}

static courier_client *shared_client;

static void free_shared_client(void) {
    courier_client_free(shared_client);
}

/* One client for the whole run: starting a transport per input would measure thread start-up. */
static courier_client *client(void) {
    if (shared_client != NULL) return shared_client;
    if (courier_client_new(NULL, &shared_client, NULL) != COURIER_OK) abort();
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    interceptor.name = "answer-locally";
    interceptor.on_request = answer_locally;
    if (courier_client_add_interceptor(shared_client, &interceptor, NULL) != COURIER_OK) abort();
    atexit(free_shared_client);
    return shared_client;
}

static void edit_request(reader *input, courier_request **slot, uint8_t operation) {
    courier_error *error = NULL;
    courier_code code = COURIER_OK;
    char *a = take_string(input), *b = take_string(input), *c = take_string(input);
    courier_request *request = *slot;
    switch (operation) {
    case 0:
        if (request == NULL) code = courier_request_new(a, b, slot, &error);
        break;
    case 1:
        if (request == NULL) code = courier_request_new_endpoint(a, b, c, slot, &error);
        break;
    case 2: code = courier_request_set_method(request, a, &error); break;
    case 3: code = courier_request_add_query(request, a, b, &error); break;
    case 4: code = courier_request_set_header(request, a, b, &error); break;
    case 5: code = courier_request_add_header(request, a, b, &error); break;
    case 6: code = courier_request_remove_header(request, a, &error); break;
    case 7: code = courier_request_add_cookie(request, a, b, &error); break;
    case 8: code = courier_request_set_bearer_auth(request, a, &error); break;
    case 9: code = courier_request_set_basic_auth(request, a, b, &error); break;
    case 10: code = courier_request_set_timeout_ms(request, take_int64(input), &error); break;
    case 11: code = courier_request_set_body_bytes(request, a, a ? strlen(a) : 0, b, &error); break;
    case 12: code = courier_request_set_body_string(request, a, b, &error); break;
    case 13: code = courier_request_set_body_json(request, a, &error); break;
    case 14: code = courier_request_add_form_field(request, a, b, &error); break;
    case 15: code = courier_request_add_multipart_field(request, a, b, &error); break;
    case 16:
        code = courier_request_add_multipart_data(request, a, b, c, c, c ? strlen(c) : 0, &error);
        break;
    default: {
        const char *text = NULL, *name = NULL, *value = NULL;
        const void *data = NULL;
        size_t count = 0, length = 0;
        check(courier_request_method(request, &text, &error), error), error = NULL;
        check(courier_request_url(request, &text, &error), error), error = NULL;
        check(courier_request_header(request, a, &text, &error), error), error = NULL;
        check(courier_request_header_count(request, &count, &error), error), error = NULL;
        check(courier_request_header_at(request, take_byte(input), &name, &value, &error), error), error = NULL;
        code = courier_request_body(request, &data, &length, &error);
        break;
    }
    }
    check(code, error);
    free(a);
    free(b);
    free(c);
}

static void edit_response(reader *input, courier_response **slot, uint8_t operation) {
    courier_error *error = NULL;
    courier_code code = COURIER_OK;
    char *a = take_string(input), *b = take_string(input);
    courier_response *response = *slot;
    switch (operation) {
    case 0:
        if (response == NULL) code = courier_response_new((int)(take_int64(input) % 2000), slot, &error);
        break;
    case 1: code = courier_response_set_status(response, (int)(take_int64(input) % 2000), &error); break;
    case 2: code = courier_response_set_header(response, a, b, &error); break;
    case 3: code = courier_response_add_header(response, a, b, &error); break;
    case 4: code = courier_response_remove_header(response, a, &error); break;
    case 5: code = courier_response_set_body(response, a, a ? strlen(a) : 0, &error); break;
    default: {
        const char *text = NULL, *name = NULL, *value = NULL;
        const void *data = NULL;
        size_t count = 0, length = 0;
        int status = 0;
        check(courier_response_status(response, &status, &error), error), error = NULL;
        check(courier_response_url(response, &text, &error), error), error = NULL;
        check(courier_response_header(response, a, &text, &error), error), error = NULL;
        check(courier_response_header_count(response, &count, &error), error), error = NULL;
        check(courier_response_header_at(response, take_byte(input), &name, &value, &error), error), error = NULL;
        code = courier_response_body(response, &data, &length, &error);
        break;
    }
    }
    check(code, error);
    free(a);
    free(b);
}

static courier_client *builtins_client;

static void free_builtins_client(void) {
    courier_client_free(builtins_client);
}

/* A copy of `config` whose first member names the interceptor "fuzzed" when it is a JSON object
 * (the first of duplicate members wins), so it can be removed again: what an input adds must
 * not outlive it, or libFuzzer's leak check would scan after every such input. */
static char *named_config(const char *config) {
    if (config == NULL || config[0] != '{') return NULL;
    const char *rest = config + 1;
    while (*rest == ' ' || *rest == '\n' || *rest == '\t' || *rest == '\r') rest++;
    size_t size = strlen(config) + 32;
    char *named = malloc(size);
    if (named == NULL) abort();
    snprintf(named, size, "{\"name\": \"fuzzed\"%s%s", *rest == '}' ? "" : ", ", rest);
    return named;
}

/* Adds a built-in interceptor with a fuzzed kind and configuration to a client kept for the run,
 * then removes it. A logging configuration that names a file is skipped: the fuzzer must not
 * create files. */
static void add_builtin(reader *input) {
    static const char *const kinds[] = {"retry", "logging", "validation", "concurrency_limit"};
    courier_error *error = NULL;
    uint8_t choice = take_byte(input);
    char *kind = choice < 4 * 60 ? NULL : take_string(input);
    char *config = take_string(input);
    char *named = named_config(config);
    const char *kind_name = choice < 4 * 60 ? kinds[choice % 4] : kind;
    if (builtins_client == NULL) {
        if (courier_client_new(NULL, &builtins_client, NULL) != COURIER_OK) abort();
        atexit(free_builtins_client);
    }
    if (!(kind_name != NULL && strcmp(kind_name, "logging") == 0 && config != NULL && strstr(config, "path") != NULL)) {
        courier_code code = courier_client_add_builtin(builtins_client, kind_name, named ? named : config, &error);
        check(code, error);
        if (code == COURIER_OK) {
            (void)courier_client_remove_interceptor(builtins_client, named ? "fuzzed" : kind_name, NULL);
        }
    }
    free(kind);
    free(config);
    free(named);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader input = {data, size};
    courier_request *requests[REQUEST_SLOTS] = {0};
    courier_response *responses[RESPONSE_SLOTS] = {0};
    for (int steps = 0; input.size > 0 && steps < 64; steps++) {
        uint8_t command = take_byte(&input);
        uint8_t slot = take_byte(&input);
        courier_request **request = &requests[slot % REQUEST_SLOTS];
        courier_response **response = &responses[slot % RESPONSE_SLOTS];
        courier_error *error = NULL;
        switch (command % 7) {
        case 0:
        case 1:
            edit_request(&input, request, take_byte(&input) % 18);
            break;
        case 2:
            edit_response(&input, response, take_byte(&input) % 7);
            break;
        case 3: /* clone into another slot, or free */
            if (slot & 0x80) {
                courier_request_free(*request);
                *request = NULL;
            } else {
                courier_request **target = &requests[(slot + 1) % REQUEST_SLOTS];
                if (*target == NULL) check(courier_request_clone(*request, target, &error), error);
            }
            break;
        case 4:
            courier_response_free(*response);
            *response = NULL;
            break;
        case 5: { /* send: the interceptor answers, or the request is refused with an error */
            courier_response *answer = NULL;
            check(courier_client_send(client(), *request, &answer, &error), error);
            courier_response_free(answer);
            break;
        }
        case 6:
            add_builtin(&input);
            break;
        }
    }
    for (int i = 0; i < REQUEST_SLOTS; i++) courier_request_free(requests[i]);
    for (int i = 0; i < RESPONSE_SLOTS; i++) courier_response_free(responses[i]);
    return 0;
}
