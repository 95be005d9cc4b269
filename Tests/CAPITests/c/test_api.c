/*
 * The objects of courier.h without the network: versions, errors, requests (every setter and
 * getter, every kind of body), responses, option structs, and how bad input is refused
 * (NULL, CR/LF in a header, an invalid URL, invalid UTF-8). Usage: test_api BASE_URL
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdint.h>
#include <unistd.h>

static courier_error *error;

static void versions_and_strerror(void)
{
    CHECK(courier_abi_version() >> 16 == COURIER_ABI_MAJOR);
    CHECK(courier_abi_version() == COURIER_ABI_VERSION || (courier_abi_version() & 0xffff) > COURIER_ABI_MINOR);
    CHECK(courier_version() != NULL && courier_version()[0] != '\0');
    for (int code = COURIER_OK; code <= COURIER_E_FORKED; code++) {
        const char *text = courier_strerror((courier_code)code);
        CHECK(text != NULL && text[0] != '\0' && strcmp(text, "unknown error code") != 0);
    }
    CHECK_STR(courier_strerror((courier_code)999), "unknown error code");
}

static void errors_carry_code_message_and_stage(void)
{
    courier_request *request = NULL;
    CHECK(courier_request_new("GET", "no scheme here", &request, &error) == COURIER_E_INVALID_REQUEST);
    CHECK(request == NULL);
    CHECK(error != NULL);
    CHECK(courier_error_code(error) == COURIER_E_INVALID_REQUEST);
    CHECK(courier_error_message(error) != NULL && courier_error_message(error)[0] != '\0');
    CHECK(courier_error_stage(error) == NULL);
    CHECK(courier_error_status(error) == 0);
    CHECK_OK(courier_error_free(error));
    error = NULL;

    /* A NULL error pointer is allowed; on success *error is left untouched. */
    CHECK(courier_request_new("GET", "no scheme here", &request, NULL) == COURIER_E_INVALID_REQUEST);
    CHECK_OK(courier_request_new("GET", "http://example.com/", &request, &error));
    CHECK(error == NULL);
    CHECK_OK(courier_request_free(request));

    /* Reading a NULL error gives the documented answers, never a crash. */
    CHECK(courier_error_code(NULL) == COURIER_E_INVALID_HANDLE);
    CHECK(courier_error_message(NULL) != NULL);
    CHECK(courier_error_stage(NULL) == NULL);
    CHECK(courier_error_status(NULL) == 0);
    CHECK_OK(courier_error_free(NULL));
}

static void request_new_validates_method_and_url(void)
{
    courier_request *request = NULL;
    const char *text = NULL;
    CHECK_OK(courier_request_new("PATCH", "https://example.com/a/b?q=1", &request, &error));
    CHECK_OK(courier_request_method(request, &text, &error));
    CHECK_STR(text, "PATCH");
    CHECK_OK(courier_request_url(request, &text, &error));
    CHECK_STR(text, "https://example.com/a/b?q=1");
    CHECK_OK(courier_request_set_method(request, "PURGE", &error));
    CHECK_OK(courier_request_method(request, &text, &error));
    CHECK_STR(text, "PURGE");
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_method(request, "GE T", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_method(request, "", &error));
    CHECK_OK(courier_request_method(request, &text, &error));
    CHECK_STR(text, "PURGE");
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_method(request, NULL, &error));
    /* courier_request_set_url replaces the URL only, and only with an absolute http(s) URL. */
    CHECK_OK(courier_request_set_header(request, "X-Kept", "1", &error));
    CHECK_OK(courier_request_set_url(request, "http://other.example:8080/c?d=2", &error));
    CHECK_OK(courier_request_url(request, &text, &error));
    CHECK_STR(text, "http://other.example:8080/c?d=2");
    CHECK_OK(courier_request_header(request, "X-Kept", &text, &error));
    CHECK_STR(text, "1");
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_url(request, "/relative", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_url(request, "ftp://example.com/", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_url(request, NULL, &error));
    CHECK_OK(courier_request_url(request, &text, &error));
    CHECK_STR(text, "http://other.example:8080/c?d=2");
    CHECK_OK(courier_request_free(request));

    request = NULL;
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_new("GE T", "http://example.com/", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_new("GET", "/relative/path", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_new("GET", "http://", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_new("GET", "", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_new(NULL, "http://example.com/", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_new("GET", NULL, &request, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_new("GET", "http://example.com/", NULL, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_new("GET", "http://example.com/\xff\xfe", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_new("G\xc3", "http://example.com/", &request, &error));
    CHECK(request == NULL);
}

static void endpoints_resolve_against_the_base(void)
{
    courier_request *request = NULL;
    const char *url = NULL;
    CHECK_OK(courier_request_new_endpoint("GET", "https://api.example.com/v1/", "users/42", &request, &error));
    CHECK_OK(courier_request_url(request, &url, &error));
    CHECK_STR(url, "https://api.example.com/v1/users/42");
    CHECK_OK(courier_request_free(request));
    CHECK_OK(courier_request_new_endpoint("GET", "https://api.example.com/v1", "users/42", &request, &error));
    CHECK_OK(courier_request_url(request, &url, &error));
    CHECK_STR(url, "https://api.example.com/users/42");
    CHECK_OK(courier_request_free(request));
    CHECK_OK(courier_request_new_endpoint("GET", "https://api.example.com/v1/", "/root", &request, &error));
    CHECK_OK(courier_request_url(request, &url, &error));
    CHECK_STR(url, "https://api.example.com/root");
    CHECK_OK(courier_request_free(request));
    CHECK_CODE(COURIER_E_INVALID_REQUEST,
               courier_request_new_endpoint("GET", "not a base", "users", &request, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT,
               courier_request_new_endpoint("GET", "https://api.example.com/", NULL, &request, &error));
}

static void headers_are_validated_and_ordered(void)
{
    courier_request *request = NULL;
    const char *name = NULL;
    const char *value = NULL;
    size_t count = 0;
    CHECK_OK(courier_request_new("GET", "http://example.com/", &request, &error));
    CHECK_OK(courier_request_header_count(request, &count, &error));
    CHECK(count == 0);
    CHECK_OK(courier_request_set_header(request, "Accept", "text/plain", &error));
    CHECK_OK(courier_request_add_header(request, "X-Multi", "a", &error));
    CHECK_OK(courier_request_add_header(request, "x-multi", "b", &error));
    CHECK_OK(courier_request_header(request, "X-MULTI", &value, &error));
    CHECK_STR(value, "a, b");
    CHECK_OK(courier_request_header_count(request, &count, &error));
    CHECK(count == 3);
    CHECK_OK(courier_request_header_at(request, 0, &name, &value, &error));
    CHECK_STR(name, "Accept");
    CHECK_STR(value, "text/plain");
    CHECK_OK(courier_request_header_at(request, 2, &name, &value, &error));
    CHECK_STR(value, "b");
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_request_header_at(request, 3, &name, &value, &error));
    CHECK_OK(courier_request_set_header(request, "X-Multi", "c", &error));
    CHECK_OK(courier_request_header(request, "X-Multi", &value, &error));
    CHECK_STR(value, "c");

    /* A name set before is remembered, yet each value is checked and trimmed as the first was. */
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "X-Multi", "c\r\nInjected: 1", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_header(request, "X-Multi", "\xc3\x28", &error));
    CHECK_OK(courier_request_set_header(request, "X-Multi", "  padded\t", &error));
    CHECK_OK(courier_request_header(request, "X-Multi", &value, &error));
    CHECK_STR(value, "padded");
    CHECK_OK(courier_request_set_header(request, "X-Multi", "caf\xc3\xa9\tau lait", &error));
    CHECK_OK(courier_request_header(request, "X-Multi", &value, &error));
    CHECK_STR(value, "caf\xc3\xa9\tau lait");
    CHECK_OK(courier_request_set_header(request, "X-Multi", "c", &error));
    CHECK_OK(courier_request_remove_header(request, "x-multi", &error));
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_request_remove_header(request, "X-Multi", &error));
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_request_header(request, "X-Multi", &value, &error));

    /* CR, LF and bad names are refused, and the request stays as it was. */
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "X-Evil", "a\r\nInjected: 1", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_add_header(request, "X-Evil", "line\nfeed", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "X-Evil", "carriage\rreturn", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "Bad Name", "v", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "Bad:Name", "v", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_request_set_header(request, "", "v", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_header(request, "X-Bytes", "\xc3\x28", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_header(request, NULL, "v", &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_header(request, "X-Null", NULL, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_header_count(request, NULL, &error));
    CHECK_OK(courier_request_header_count(request, &count, &error));
    CHECK(count == 1);
    CHECK_OK(courier_request_free(request));
}

static void queries_cookies_and_auth(void)
{
    courier_request *request = NULL;
    const char *text = NULL;
    CHECK_OK(courier_request_new("GET", "http://example.com/search", &request, &error));
    CHECK_OK(courier_request_add_query(request, "q", "a b&c=d", &error));
    CHECK_OK(courier_request_add_query(request, "flag", NULL, &error));
    CHECK_OK(courier_request_url(request, &text, &error));
    CHECK_CONTAINS(text, "http://example.com/search?q=");
    CHECK_CONTAINS(text, "&flag");
    CHECK(text != NULL && strchr(text, ' ') == NULL && strstr(text, "c=d") == NULL);
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_add_query(request, NULL, "v", &error));

    CHECK_OK(courier_request_add_cookie(request, "a", "1", &error));
    CHECK_OK(courier_request_add_cookie(request, "b", "2", &error));
    CHECK_OK(courier_request_header(request, "Cookie", &text, &error));
    CHECK_STR(text, "a=1; b=2");

    CHECK_OK(courier_request_set_bearer_auth(request, "token-123", &error));
    CHECK_OK(courier_request_header(request, "Authorization", &text, &error));
    CHECK_STR(text, "Bearer token-123");
    CHECK_OK(courier_request_set_basic_auth(request, "user", "pass", &error));
    CHECK_OK(courier_request_header(request, "Authorization", &text, &error));
    CHECK_STR(text, "Basic dXNlcjpwYXNz");
    CHECK(courier_request_set_basic_auth(request, "us:er", "pass", &error) != COURIER_OK);
    courier_error_free(error);
    error = NULL;
    CHECK_OK(courier_request_header(request, "Authorization", &text, &error));
    CHECK_STR(text, "Basic dXNlcjpwYXNz");

    CHECK_OK(courier_request_set_timeout_ms(request, 1500, &error));
    CHECK_OK(courier_request_set_timeout_ms(request, 0, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_timeout_ms(request, -5, &error));
    CHECK_OK(courier_request_free(request));
}

/* Creates a request whose body the caller sets; checks its body and Content-Type afterwards. */
static void expect_body(courier_request *request, const char *content_type, const char *body)
{
    const void *data = NULL;
    size_t length = 0;
    const char *type = NULL;
    CHECK_OK(courier_request_body(request, &data, &length, &error));
    CHECK(length == strlen(body) && data != NULL && memcmp(data, body, length) == 0);
    CHECK(data != NULL && ((const char *)data)[length] == '\0');
    CHECK_OK(courier_request_header(request, "Content-Type", &type, &error));
    CHECK(type != NULL && strcmp(type, content_type) == 0);
    if (type == NULL || strcmp(type, content_type) != 0) {
        fprintf(stderr, "  Content-Type was \"%s\", expected \"%s\"\n", type ? type : "(none)", content_type);
    }
    CHECK_OK(courier_request_free(request));
}

static courier_request *post(void)
{
    courier_request *request = NULL;
    CHECK_OK(courier_request_new("POST", "http://example.com/upload", &request, &error));
    return request;
}

static int destroyed;

static void count_destroy(void *user_data)
{
    (void)user_data;
    destroyed++;
}

static int64_t read_nothing(void *user_data, void *buffer, size_t capacity)
{
    (void)user_data;
    (void)buffer;
    (void)capacity;
    return 0;
}

static void bodies_of_every_kind(void)
{
    courier_request *request = post();
    const void *data = NULL;
    size_t length = 99;
    CHECK_OK(courier_request_body(request, &data, &length, &error));
    CHECK(length == 0);
    CHECK_OK(courier_request_set_body_bytes(request, "a\0b", 3, NULL, &error));
    CHECK_OK(courier_request_body(request, &data, &length, &error));
    CHECK(length == 3 && memcmp(data, "a\0b", 3) == 0);
    CHECK_OK(courier_request_set_body_bytes(request, "raw", 3, NULL, &error));
    expect_body(request, "application/octet-stream", "raw");

    request = post();
    CHECK_OK(courier_request_set_body_string(request, "héllo", NULL, &error));
    expect_body(request, "text/plain; charset=utf-8", "héllo");
    request = post();
    CHECK_OK(courier_request_set_body_string(request, "<a/>", "application/xml", &error));
    expect_body(request, "application/xml", "<a/>");
    request = post();
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_request_set_body_string(request, "bad \xff", NULL, &error));
    CHECK_CODE(COURIER_E_ENCODING, courier_request_set_body_json(request, "{\"unterminated\": ", &error));
    CHECK_OK(courier_request_set_body_json(request, "{\"a\": [1, 2]}", &error));
    expect_body(request, "application/json", "{\"a\": [1, 2]}");

    request = post();
    CHECK_OK(courier_request_set_header(request, "Content-Type", "application/vnd.custom", &error));
    CHECK_OK(courier_request_set_body_bytes(request, "x", 1, "application/ignored", &error));
    expect_body(request, "application/vnd.custom", "x");

    request = post();
    CHECK_OK(courier_request_add_form_field(request, "name", "Ada", &error));
    CHECK_OK(courier_request_add_form_field(request, "lang", "C", &error));
    expect_body(request, "application/x-www-form-urlencoded", "name=Ada&lang=C");

    request = post();
    CHECK_OK(courier_request_add_multipart_field(request, "title", "report", &error));
    CHECK_OK(courier_request_add_multipart_data(request, "blob", "blob.bin", NULL, "\x01\x02", 2, &error));
    CHECK_OK(courier_request_body(request, &data, &length, &error));
    CHECK(data != NULL && strstr(data, "name=\"title\"") != NULL && strstr(data, "filename=\"blob.bin\"") != NULL);
    CHECK_OK(courier_request_header(request, "Content-Type", (const char **)&data, &error));
    CHECK_CONTAINS((const char *)data, "multipart/form-data; boundary=");
    CHECK_OK(courier_request_free(request));

    char path[] = "/tmp/courier-test-body-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "file body", 9) == 9);
    close(fd);
    request = post();
    CHECK_CODE(COURIER_E_ENCODING, courier_request_set_body_file(request, "/nonexistent/courier/body", NULL, &error));
    CHECK_OK(courier_request_set_body_file(request, path, NULL, &error));
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_request_body(request, &data, &length, &error));
    CHECK_OK(courier_request_free(request));
    request = post();
    CHECK_OK(courier_request_add_multipart_file(request, "upload", path, NULL, NULL, &error));
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_request_body(request, &data, &length, &error));
    CHECK(courier_request_add_multipart_file(request, "upload", "/nonexistent/courier/part", NULL, NULL, &error)
          != COURIER_OK);
    courier_error_free(error);
    error = NULL;
    CHECK_OK(courier_request_free(request));
    unlink(path);

    /* A callback body is released once: with the request, or with the body that replaces it. */
    destroyed = 0;
    request = post();
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT,
               courier_request_set_body_callback(request, NULL, NULL, NULL, -1, NULL, &error));
    CHECK_OK(courier_request_set_body_callback(request, read_nothing, NULL, count_destroy, -1, NULL, &error));
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_request_body(request, &data, &length, &error));
    CHECK_OK(courier_request_free(request));
    CHECK(destroyed == 1);
    request = post();
    CHECK_OK(courier_request_set_body_callback(request, read_nothing, NULL, count_destroy, 0, NULL, &error));
    CHECK_OK(courier_request_set_body_bytes(request, "replaced", 8, NULL, &error));
    CHECK_OK(courier_request_free(request));
    CHECK(destroyed == 2);
}

static void clones_are_independent(void)
{
    courier_request *request = NULL;
    courier_request *clone = NULL;
    const char *value = NULL;
    CHECK_OK(courier_request_new("PUT", "http://example.com/doc", &request, &error));
    CHECK_OK(courier_request_set_header(request, "X-Version", "1", &error));
    CHECK_OK(courier_request_set_body_string(request, "body", NULL, &error));
    CHECK_OK(courier_request_clone(request, &clone, &error));
    CHECK_OK(courier_request_set_header(clone, "X-Version", "2", &error));
    CHECK_OK(courier_request_header(request, "X-Version", &value, &error));
    CHECK_STR(value, "1");
    CHECK_OK(courier_request_free(request));
    CHECK_OK(courier_request_header(clone, "X-Version", &value, &error));
    CHECK_STR(value, "2");
    CHECK_OK(courier_request_method(clone, &value, &error));
    CHECK_STR(value, "PUT");
    const void *body = NULL;
    size_t length = 0;
    CHECK_OK(courier_request_body(clone, &body, &length, &error));
    CHECK(length == 4 && memcmp(body, "body", 4) == 0);
    CHECK_OK(courier_request_free(clone));
    CHECK_CODE(COURIER_E_INVALID_HANDLE, courier_request_clone(NULL, &clone, &error));
}

static void responses_are_editable(void)
{
    courier_response *response = NULL;
    int status = 0;
    const char *name = NULL;
    const char *value = NULL;
    size_t count = 0;
    const void *body = NULL;
    size_t length = 1;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_response_new(99, &response, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_response_new(1000, &response, &error));
    CHECK_OK(courier_response_new(201, &response, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    CHECK(status == 201);
    CHECK_OK(courier_response_set_status(response, 418, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    CHECK(status == 418);
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_response_set_status(response, 42, &error));
    CHECK_OK(courier_response_body(response, &body, &length, &error));
    CHECK(length == 0);
    CHECK_OK(courier_response_set_header(response, "Content-Type", "text/plain", &error));
    CHECK_OK(courier_response_add_header(response, "Vary", "Accept", &error));
    CHECK_OK(courier_response_add_header(response, "Vary", "Origin", &error));
    CHECK_OK(courier_response_header(response, "vary", &value, &error));
    CHECK_STR(value, "Accept, Origin");
    CHECK_OK(courier_response_header_count(response, &count, &error));
    CHECK(count == 3);
    CHECK_OK(courier_response_header_at(response, 1, &name, &value, &error));
    CHECK_STR(name, "Vary");
    CHECK_STR(value, "Accept");
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_response_header_at(response, 3, &name, &value, &error));
    CHECK_OK(courier_response_remove_header(response, "Vary", &error));
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_response_remove_header(response, "Vary", &error));
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_response_header(response, "Vary", &value, &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_response_set_header(response, "X-Evil", "a\r\nb: c", &error));
    CHECK_CODE(COURIER_E_INVALID_REQUEST, courier_response_add_header(response, "X Evil", "v", &error));
    CHECK_OK(courier_response_set_body(response, "teapot", 6, &error));
    CHECK_OK(courier_response_body(response, &body, &length, &error));
    CHECK(length == 6 && memcmp(body, "teapot", 6) == 0 && ((const char *)body)[6] == '\0');
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_response_set_body(response, NULL, 3, &error));
    CHECK_OK(courier_response_set_body(response, NULL, 0, &error));
    const char *url = NULL;
    courier_code url_code = courier_response_url(response, &url, &error);
    CHECK(url_code == COURIER_OK || url_code == COURIER_E_NOT_FOUND);
    courier_error_free(error);
    error = NULL;
    CHECK_OK(courier_response_free(response));
}

static void option_structs_have_their_defaults(void)
{
    courier_client_options options;
    memset(&options, 0xab, sizeof options);
    courier_client_options_init(&options);
    CHECK(options.struct_size == sizeof options);
    CHECK(options.transport == COURIER_TRANSPORT_CURL);
    CHECK(options.timeout_ms == 60000);
    CHECK(options.connect_timeout_ms == 10000);
    CHECK(options.follow_redirects == 1);
    CHECK(options.max_redirects == 10);
    CHECK(options.max_body_bytes == 64 * 1024 * 1024);
    CHECK(options.verify_tls == 1);
    CHECK(options.callback_threads == 2);
    /* ABI 1.1's fields default to 0 or NULL, whatever the memory held before. */
    CHECK(options.proxy == NULL && options.no_proxy == NULL && options.ignore_environment_proxy == 0);
    CHECK(options.http_version == COURIER_HTTP_VERSION_AUTO && options.min_tls_version == COURIER_TLS_VERSION_DEFAULT);
    CHECK(options.ca_file == NULL && options.ca_directory == NULL && options.client_certificate == NULL
          && options.client_key == NULL && options.client_key_password == NULL && options.skip_host_verification == 0);
    CHECK(options.max_connections_per_host == 0 && options.max_connections == 0 && options.max_idle_connections == 0
          && options.idle_timeout_ms == 0 && options.disable_decompression == 0);
    CHECK(options.user_agent == NULL && options.default_headers == NULL && options.cookie_file == NULL
          && options.queue_completions == 0);

    courier_send_options send;
    memset(&send, 0xab, sizeof send);
    courier_send_options_init(&send);
    CHECK(send.struct_size == sizeof send && send.on_data == NULL && send.on_progress == NULL && send.user_data == NULL);

    courier_interceptor interceptor;
    memset(&interceptor, 0xab, sizeof interceptor);
    courier_interceptor_init(&interceptor);
    CHECK(interceptor.struct_size == sizeof interceptor && interceptor.name == NULL && interceptor.on_request == NULL
          && interceptor.on_response == NULL && interceptor.around == NULL && interceptor.user_data == NULL
          && interceptor.destroy == NULL);

    courier_client *client = NULL;
    options.callback_threads = 65;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    courier_client_options_init(&options);
    options.struct_size = 4;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    courier_client_options_init(&options);
    options.timeout_ms = -1;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    courier_client_options_init(&options);
    options.transport = (courier_transport)7;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    CHECK(client == NULL);
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(NULL, NULL, &error));
    CHECK_OK(courier_client_new(NULL, &client, &error));
    CHECK_OK(courier_client_free(client));
}

static courier_action noop(void *user_data, courier_exchange *exchange)
{
    (void)user_data;
    (void)exchange;
    return COURIER_ACTION_CONTINUE;
}

static void interceptors_are_validated(void)
{
    courier_client *client = NULL;
    courier_interceptor interceptor;
    CHECK_OK(courier_client_new(NULL, &client, &error));
    courier_interceptor_init(&interceptor);
    interceptor.on_request = noop;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_interceptor(client, &interceptor, &error));
    interceptor.name = "both";
    interceptor.around = noop;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_interceptor(client, &interceptor, &error));
    courier_interceptor_init(&interceptor);
    interceptor.name = "none";
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_interceptor(client, &interceptor, &error));
    interceptor.on_response = noop;
    interceptor.struct_size = 3;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_interceptor(client, &interceptor, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_add_interceptor(client, NULL, &error));
    CHECK_CODE(COURIER_E_NOT_FOUND, courier_client_remove_interceptor(client, "absent", &error));
    CHECK_OK(courier_client_free(client));
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    versions_and_strerror();
    errors_carry_code_message_and_stage();
    request_new_validates_method_and_url();
    endpoints_resolve_against_the_base();
    headers_are_validated_and_ordered();
    queries_cookies_and_auth();
    bodies_of_every_kind();
    clones_are_independent();
    responses_are_editable();
    option_structs_have_their_defaults();
    interceptors_are_validated();
    return check_finish("test_api");
}
