/*
 * A program built against the ABI 1.0 header (kept as it was released in c/abi-1.0/courier.h)
 * runs unchanged against this library: its smaller structs, filled by the exported *_init of
 * 1.0 (no inline helper then), are never written or read past their size. Each struct sits in
 * a heap block of exactly its 1.0 size, so valgrind reports any overrun.
 *
 * Usage: test_abi_1_0 BASE_URL   (compiled with -I c/abi-1.0 ahead of the current header)
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdlib.h>

#if COURIER_ABI_MINOR != 0
#error "test_abi_1_0 must be compiled against the ABI 1.0 header"
#endif

static courier_error *error;
static int completions;

static void on_done(void *user_data, courier_response *response, courier_error *failure)
{
    (void)user_data;
    int status = 0;
    if (response) courier_response_status(response, &status, NULL);
    __atomic_fetch_add(&completions, status == 200 ? 1 : 1000, __ATOMIC_RELAXED);
    courier_response_free(response);
    courier_error_free(failure);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    char url[512];
    CHECK_INT(courier_abi_version() >> 16, COURIER_ABI_MAJOR);
    CHECK(sizeof(courier_client_options) == 56);

    courier_client_options *options = malloc(sizeof *options);
    courier_client_options_init(options);
    CHECK_INT(options->struct_size, 56);
    CHECK_INT(options->timeout_ms, 60000);
    CHECK_INT(options->verify_tls, 1);
    options->callback_threads = 1;
    options->connect_timeout_ms = 60000; /* under valgrind on a busy machine a connect can take seconds */
    courier_client *client = NULL;
    CHECK_OK(courier_client_new(options, &client, &error));
    free(options);

    courier_send_options *send = malloc(sizeof *send);
    courier_send_options_init(send);
    CHECK_INT(send->struct_size, sizeof *send);
    courier_interceptor *interceptor = malloc(sizeof *interceptor);
    courier_interceptor_init(interceptor);
    CHECK_INT(interceptor->struct_size, sizeof *interceptor);

    courier_request *request = NULL;
    courier_response *response = NULL;
    int status = 0;
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, argv[1], "/anything/abi-1.0"), &request, &error));
    CHECK_OK(courier_client_send_with(client, request, send, &response, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    CHECK_INT(status, 200);
    courier_response_free(response);

    courier_call *call = NULL;
    CHECK_OK(courier_client_send_async(client, request, send, on_done, NULL, &call, &error));
    CHECK_OK(courier_call_wait(call, &error));
    CHECK_OK(courier_call_free(call));
    CHECK_INT(__atomic_load_n(&completions, __ATOMIC_RELAXED), 1);

    courier_request_free(request);
    free(send);
    free(interceptor);
    CHECK_OK(courier_client_free(client));
    return check_finish("test_abi_1_0");
}
