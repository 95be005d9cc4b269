/*
 * ABI 1.1's TLS options on both transports, against nginx asking for a client certificate
 * (ssl_verify_client on) and answering with its subject: no certificate gets 400, the
 * certificate and key (plain or encrypted) get the subject, the authority given as a file or a
 * hashed directory, with TLS 1.3 as the minimum. Then against a second nginx whose certificate
 * (from the same authority) names another host and which speaks HTTP/2 and answers with the
 * protocol: refused unless skip_host_verification, whose chain is still verified, and
 * http_version choosing HTTP/1.1 or HTTP/2. Last, ABI 1.4's public-key pins: on curl the first
 * server's pin is accepted (alone or among others) and another refused with COURIER_E_INSECURE
 * naming the host and the pin; AsyncHTTPClient cannot check pins and refuses them.
 *
 * Usage: test_tls HTTPS_URL CA_FILE CA_DIRECTORY CERTIFICATE KEY ENCRYPTED_KEY PASSWORD OTHER_HOST_URL
 *                 RIGHT_PIN WRONG_PIN
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

static courier_error *error;
static const char *url;

/* Sends a GET to `url` with `options`; returns the status and copies the body (NUL-terminated) into `body`. */
static int get(const courier_client_options *options, char *body, size_t size)
{
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    int status = 0;
    body[0] = 0;
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    if (CHECK_OK(courier_client_send(client, request, &response, &error))) {
        const void *bytes = NULL;
        size_t length = 0;
        courier_response_status(response, &status, NULL);
        courier_response_body(response, &bytes, &length, NULL);
        snprintf(body, size, "%.*s", (int)length, (const char *)bytes);
    }
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return status;
}

/* Sends a GET with `options` and returns the code the send ended with. */
static courier_code send_code(const courier_client_options *options)
{
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    courier_code code = courier_client_send(client, request, &response, NULL);
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return code;
}

/* ABI 1.4's pinned_public_keys against the first server, with its authority and the client certificate. */
static void pins_accept_only_the_pinned_key(const char *ca_file, const char *certificate, const char *key,
                                            const char *right, const char *wrong)
{
    char body[1024], among[256];
    courier_client_options options;
    courier_client_options_init(&options);
    options.ignore_environment_proxy = 1;
    options.ca_file = ca_file;
    options.client_certificate = certificate;
    options.client_key = key;
    const char *alone[] = {right, NULL};
    options.pinned_public_keys = alone;
    CHECK_INT(get(&options, body, sizeof body), 200);
    snprintf(among, sizeof among, "127.0.0.1=%s;%s", wrong, right);
    const char *several[] = {among, NULL};
    options.pinned_public_keys = several;
    CHECK_INT(get(&options, body, sizeof body), 200);

    const char *mismatched[] = {wrong, NULL};
    options.pinned_public_keys = mismatched;
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    CHECK_INT(courier_client_send(client, request, &response, &error), COURIER_E_INSECURE);
    const char *message = error ? courier_error_message(error) : "";
    CHECK_CONTAINS(message, "127.0.0.1");
    CHECK_CONTAINS(message, wrong);
    courier_error_free(error);
    error = NULL;
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    (void)response;

    options.transport = COURIER_TRANSPORT_ASYNC_HTTP_CLIENT;
    options.pinned_public_keys = alone;
    client = NULL;
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_client_new(&options, &client, &error));
}

int main(int argc, char **argv)
{
    if (argc < 11) {
        fprintf(stderr,
                "usage: %s HTTPS_URL CA_FILE CA_DIRECTORY CERTIFICATE KEY ENCRYPTED_KEY PASSWORD OTHER_HOST_URL "
                "RIGHT_PIN WRONG_PIN\n",
                argv[0]);
        return 2;
    }
    url = argv[1];
    const courier_transport transports[] = {COURIER_TRANSPORT_CURL, COURIER_TRANSPORT_ASYNC_HTTP_CLIENT};
    char body[1024];
    for (size_t index = 0; index < 2; index++) {
        courier_client_options options;
        courier_client_options_init(&options);
        options.transport = transports[index];
        options.ignore_environment_proxy = 1;
        options.ca_file = argv[2];
        CHECK_INT(get(&options, body, sizeof body), 400);

        options.client_certificate = argv[4];
        options.client_key = argv[5];
        options.min_tls_version = COURIER_TLS_VERSION_1_3;
        CHECK_INT(get(&options, body, sizeof body), 200);
        CHECK_STR(body, "CN=Courier Test Client");

        options.ca_file = NULL;
        options.ca_directory = argv[3];
        options.client_key = argv[6];
        options.client_key_password = argv[7];
        CHECK_INT(get(&options, body, sizeof body), 200);
        CHECK_STR(body, "CN=Courier Test Client");

        /* Without the authority the server is not trusted; without verification it is. */
        options.ca_directory = NULL;
        CHECK_INT(send_code(&options), COURIER_E_INSECURE);
        options.verify_tls = 0;
        CHECK_INT(get(&options, body, sizeof body), 200);

        /* A certificate for another host from the trusted authority: the chain verifies, the
         * name does not, and skip_host_verification skips only the name. */
        url = argv[8];
        courier_client_options_init(&options);
        options.transport = transports[index];
        options.ignore_environment_proxy = 1;
        options.ca_file = argv[2];
        CHECK_INT(send_code(&options), COURIER_E_INSECURE);
        options.skip_host_verification = 1;
        CHECK_INT(get(&options, body, sizeof body), 200);
        CHECK_STR(body, "HTTP/2.0"); /* automatic: HTTP/2 when the server offers it */
        options.http_version = COURIER_HTTP_VERSION_1_1;
        CHECK_INT(get(&options, body, sizeof body), 200);
        CHECK_STR(body, "HTTP/1.1");
        options.http_version = COURIER_HTTP_VERSION_2;
        CHECK_INT(get(&options, body, sizeof body), 200);
        CHECK_STR(body, "HTTP/2.0");
        options.ca_file = NULL; /* the system's authorities do not know this chain */
        CHECK_INT(send_code(&options), COURIER_E_INSECURE);
        url = argv[1];
    }
    pins_accept_only_the_pinned_key(argv[2], argv[4], argv[5], argv[9], argv[10]);
    return check_finish("test_tls");
}
