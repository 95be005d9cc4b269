/*
 * Built against today's courier.h, run against the ABI 1.0 library by
 * scripts/check-against-abi-1.0: with only the 1.0 fields set, the older library accepts the
 * larger struct; with a 1.1 field set (proxy), it refuses it with COURIER_E_INVALID_ARGUMENT
 * naming the struct, instead of ignoring the field.
 */
#include <courier.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    courier_client_options options;
    courier_client_options_init(&options);
    courier_client *client = NULL;
    courier_error *error = NULL;
    int failed = 0;
    if (courier_client_new(&options, &client, &error) != COURIER_OK) {
        fprintf(stderr, "defaults only were refused: %s\n", error ? courier_error_message(error) : "");
        failed = 1;
    }
    courier_error_free(error);
    error = NULL;
    courier_client_free(client);
    client = NULL;

    options.proxy = "http://127.0.0.1:3128";
    courier_code code = courier_client_new(&options, &client, &error);
    const char *message = error ? courier_error_message(error) : "";
    printf("with proxy set: %s: %s\n", courier_strerror(code), message);
    if (code != COURIER_E_INVALID_ARGUMENT || strstr(message, "courier_client_options") == NULL) failed = 1;
    courier_error_free(error);
    courier_client_free(client);
    return failed;
}
