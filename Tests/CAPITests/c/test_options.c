/*
 * The client options of ABI 1.1 on both transports, against the loopback test server and a
 * forward proxy that asks for credentials: an explicit proxy with and without them, the
 * environment's proxy read, ignored and bypassed by no_proxy, an explicit proxy that the process's
 * no_proxy does not bypass, default headers and User-Agent,
 * the cookie file across a restart, and of ABI 1.4 a Unix socket, routes (resolve, connect_to),
 * public-key pins and .netrc credentials; and the values each transport refuses.
 *
 * Usage: test_options BASE_URL PROXY_HOST_PORT COOKIE_FILE UNIX_SOCKET
 * The proxy takes the user "courier" with the password "s3cret".
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static courier_error *error;
static const char *base;
static const char *proxy;
static const char *cookie_file;
static const char *unix_socket;
static const courier_transport transports[] = {COURIER_TRANSPORT_CURL, COURIER_TRANSPORT_ASYNC_HTTP_CLIENT};

/* Options for `transport` with the defaults, and generous timeouts: under valgrind on a busy
 * machine a loopback connect can take seconds, and this test is about options, not timeouts. */
static courier_client_options options_for(courier_transport transport)
{
    courier_client_options options;
    courier_client_options_init(&options);
    options.transport = transport;
    options.timeout_ms = 120000;
    options.connect_timeout_ms = 60000;
    return options;
}

/*
 * GETs base+PATH through a client made from `options`; returns the status (0 when the send
 * failed, the error then in *failure unless failure is NULL) and copies the body into `body`.
 */
static int get(const courier_client_options *options, const char *path, char *body, size_t body_size,
               courier_error **failure)
{
    char url[512];
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    int status = 0;
    if (body_size > 0) body[0] = 0;
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, path), &request, &error));
    if (courier_client_send(client, request, &response, failure) == COURIER_OK) {
        const void *bytes = NULL;
        size_t length = 0;
        courier_response_status(response, &status, NULL);
        courier_response_body(response, &bytes, &length, NULL);
        if (body_size > 0) {
            size_t kept = length < body_size - 1 ? length : body_size - 1;
            memcpy(body, bytes, kept);
            body[kept] = 0;
        }
    }
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return status;
}

/* Whether a request that went to the proxy without good credentials was refused: curl hands the
 * proxy's 407 over as the response of a plain-http request, AsyncHTTPClient (which tunnels every
 * request) fails the tunnel. Either way the password never shows. */
static void check_refused_by_the_proxy(int status, courier_error *failure, const char *secret, int line)
{
    int refused = status == 407 || (status == 0 && failure != NULL);
    CHECK(refused);
    if (!refused) fprintf(stderr, "  (line %d: status %d, error %s)\n", line, status, failure ? courier_error_message(failure) : "none");
    if (failure) {
        CHECK_INT(courier_error_code(failure), COURIER_E_CANNOT_CONNECT);
        CHECK(strstr(courier_error_message(failure), secret) == NULL);
    }
    courier_error_free(failure);
}

static void an_explicit_proxy_carries_requests_with_its_credentials(courier_transport transport)
{
    char with_credentials[256];
    char wrong_password[256];
    snprintf(with_credentials, sizeof with_credentials, "http://courier:s3cret@%s", proxy);
    snprintf(wrong_password, sizeof wrong_password, "http://courier:wr0ng-pa55@%s", proxy);
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.proxy = with_credentials;
    CHECK_INT(get(&options, "/anything/proxied", NULL, 0, NULL), 200);

    courier_error *failure = NULL;
    options.proxy = wrong_password;
    int status = get(&options, "/anything/refused", NULL, 0, &failure); /* before failure is read */
    check_refused_by_the_proxy(status, failure, "wr0ng-pa55", __LINE__);

    options.proxy = "ftp://courier:s3cret@example.com";
    courier_client *client = NULL;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    CHECK(client == NULL);
}

/* An explicit proxy is the route even when the process's no_proxy names the host: Courier decides
 * the route, and libcurl must not read no_proxy itself and send the request direct. */
static void an_explicit_proxy_is_not_bypassed_by_the_processs_no_proxy(courier_transport transport)
{
    char with_credentials[256];
    snprintf(with_credentials, sizeof with_credentials, "http://courier:s3cret@%s", proxy);
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.proxy = with_credentials;
    setenv("no_proxy", "127.0.0.1", 1);
    setenv("NO_PROXY", "127.0.0.1", 1);
    CHECK_INT(get(&options, "/anything/explicit-despite-no-proxy", NULL, 0, NULL), 200);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
}

/* http_proxy (no credentials) was set by main before any client was made. */
static void the_environment_proxy_is_read_ignored_or_bypassed(courier_transport transport)
{
    courier_client_options options = options_for(transport);
    courier_error *failure = NULL;
    int status = get(&options, "/anything/from-environment", NULL, 0, &failure); /* before failure is read */
    check_refused_by_the_proxy(status, failure, "s3cret", __LINE__);

    options.ignore_environment_proxy = 1;
    CHECK_INT(get(&options, "/anything/ignoring-environment", NULL, 0, NULL), 200);

    options.ignore_environment_proxy = 0;
    options.no_proxy = "localhost, 127.0.0.0/8, ::1";
    CHECK_INT(get(&options, "/anything/bypassed", NULL, 0, NULL), 200);
}

static void default_headers_and_the_user_agent_reach_the_server(courier_transport transport)
{
    static const char *const defaults[] = {"X-Team: courier", "X-Build:  11 ", NULL};
    char body[8192];
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.user_agent = "courier-c-test";
    options.default_headers = defaults;
    options.disable_decompression = 1;
    options.http_version = COURIER_HTTP_VERSION_1_1;
    options.max_connections_per_host = 2;
    options.max_connections = 4;
    options.idle_timeout_ms = 5000;
    CHECK_INT(get(&options, "/echo", body, sizeof body, NULL), 200);
    CHECK_CONTAINS(body, "\"courier-c-test\"");
    CHECK_CONTAINS(body, "\"courier\"");
    CHECK_CONTAINS(body, "\"11\"");
    CHECK(strstr(body, "gzip") == NULL);

    static const char *const malformed[] = {"no colon here", NULL};
    options.default_headers = malformed;
    courier_client *client = NULL;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
}

static void cookies_are_kept_and_survive_a_restart_through_the_file(courier_transport transport)
{
    char body[4096];
    remove(cookie_file);
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.cookie_file = cookie_file;
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    char url[512];
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/cookies/set?flavour=oat"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_save_cookies(client, &error));
    CHECK_OK(courier_client_free(client));

    /* A new client (a restarted program) reads the file the last one wrote. */
    CHECK_INT(get(&options, "/cookies", body, sizeof body, NULL), 200);
    CHECK_CONTAINS(body, "\"flavour\"");
    CHECK_CONTAINS(body, "\"oat\"");

    /* Freeing the client writes the file too, without a save: a second cookie set through a
     * client that is only freed is there for the next one. */
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/cookies/set?topping=honey"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    CHECK_INT(get(&options, "/cookies", body, sizeof body, NULL), 200);
    CHECK_CONTAINS(body, "\"flavour\"");
    CHECK_CONTAINS(body, "\"topping\"");
    CHECK_CONTAINS(body, "\"honey\"");

    /* Without a cookie file nothing is kept, and saving says so. */
    options.cookie_file = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_save_cookies(client, &error));
    CHECK_OK(courier_client_free(client));
    remove(cookie_file);
}

static void a_jar_in_memory_is_read_added_to_and_cleared(courier_transport transport)
{
    char body[4096];
    char url[512];
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.keep_cookies = 1;
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/cookies/set?flavour=oat"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    /* The cookie was set by the redirect on the way: its hop is in the history. */
    size_t hops = 0;
    CHECK_OK(courier_response_history_count(response, &hops, &error));
    CHECK_INT((int)hops, 1);
    courier_response *hop = NULL;
    CHECK_OK(courier_response_history_at(response, 0, &hop, &error));
    int status = 0;
    CHECK_OK(courier_response_status(hop, &status, &error));
    CHECK_INT(status, 302);
    courier_response_free(hop);
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_response_history_at(response, 1, &hop, &error));
    courier_response_free(response);

    size_t length = 0;
    CHECK_OK(courier_client_cookies(client, NULL, 0, &length, &error));
    char small[8];
    CHECK_CODE(COURIER_E_LIMIT_EXCEEDED, courier_client_cookies(client, small, sizeof small, &length, &error));
    CHECK_INT(small[0], 0);
    char text[1024];
    CHECK_OK(courier_client_cookies(client, text, sizeof text, &length, &error));
    CHECK_INT((int)strlen(text), (int)length);
    CHECK_CONTAINS(text, "\tflavour\toat\n");

    CHECK_OK(courier_client_add_cookies(client, "127.0.0.1\tFALSE\t/\tFALSE\t0\ttopping\thoney\n", &error));
    CHECK_INT(courier_client_add_cookies(client, "127.0.0.1\tFALSE\t/\tFALSE\t0\tbad\ta\rb\n", &error),
              COURIER_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(courier_error_message(error), "line 1");
    courier_error_free(error);
    error = NULL;
    CHECK_OK(courier_client_send(client, request, &response, &error));
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_request_new("GET", url_at(url, sizeof url, base, "/cookies"), &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    const void *data = NULL;
    size_t size = 0;
    CHECK_OK(courier_response_body(response, &data, &size, &error));
    snprintf(body, sizeof body, "%.*s", (int)size, (const char *)data);
    CHECK_CONTAINS(body, "\"topping\"");
    courier_response_free(response);

    size_t removed = 0;
    CHECK_OK(courier_client_remove_cookies(client, NULL, NULL, "topping", &removed, &error));
    CHECK_INT((int)removed, 1);
    CHECK_OK(courier_client_remove_cookies(client, NULL, NULL, NULL, &removed, &error));
    CHECK_OK(courier_client_cookies(client, text, sizeof text, &length, &error));
    CHECK(strstr(text, "flavour") == NULL);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));

    /* A client that keeps no cookies says how to make one that does. */
    options.keep_cookies = 0;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_INT(courier_client_cookies(client, NULL, 0, &length, &error), COURIER_E_INVALID_ARGUMENT);
    CHECK_CONTAINS(courier_error_message(error), "keep_cookies");
    courier_error_free(error);
    error = NULL;
    CHECK_OK(courier_client_free(client));
}

/* A client whose requests go over the test server's Unix socket (ABI 1.4): the URL's host
 * (localhost, where nothing listens on port 80) only names Host, and the environment's proxy,
 * set for the tests above, is not used. */
static void a_unix_socket_carries_the_clients_requests(courier_transport transport)
{
    courier_client_options options = options_for(transport);
    options.unix_socket_path = unix_socket;
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    const void *bytes = NULL;
    size_t length = 0;
    int status = 0;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_request_new("GET", "http://localhost/echo/socket", &request, &error));
    CHECK_OK(courier_client_send(client, request, &response, &error));
    CHECK_OK(courier_response_status(response, &status, &error));
    CHECK_INT(status, 200);
    CHECK_OK(courier_response_body(response, &bytes, &length, &error));
    CHECK_CONTAINS((const char *)bytes, "\"/echo/socket\"");
    courier_response_free(response);
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));

    char too_long[200];
    memset(too_long, 's', sizeof too_long - 1);
    too_long[0] = '/';
    too_long[sizeof too_long - 1] = 0;
    options.unix_socket_path = too_long;
    client = NULL;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
}

/* Sends GET `url` through a client made from `options`; returns the status, 0 when the send
 * failed (the error then in `error`), and copies the body into `body`. */
static int get_url(const courier_client_options *options, const char *url, char *body, size_t body_size)
{
    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    int status = 0;
    body[0] = 0;
    CHECK_OK(courier_client_new(options, &client, &error));
    CHECK_OK(courier_request_new("GET", url, &request, &error));
    if (courier_client_send(client, request, &response, &error) == COURIER_OK) {
        const void *bytes = NULL;
        size_t length = 0;
        courier_response_status(response, &status, NULL);
        courier_response_body(response, &bytes, &length, NULL);
        size_t kept = length < body_size - 1 ? length : body_size - 1;
        memcpy(body, bytes, kept);
        body[kept] = 0;
        courier_response_free(response);
    } else {
        fprintf(stderr, "GET %s: %s\n", url, courier_error_message(error));
        courier_error_free(error);
        error = NULL;
    }
    courier_request_free(request);
    CHECK_OK(courier_client_free(client));
    return status;
}

/* Routes (ABI 1.4): a name that does not exist reaches the test server, with the name as Host;
 * an entry that is not curl's syntax is refused naming it; AsyncHTTPClient refuses a route that
 * changes the port. The environment's proxy, set for the tests above, is ignored. */
static void routes_reach_the_server_under_a_name_that_does_not_exist(courier_transport transport)
{
    const char *port = strrchr(base, ':') + 1;
    char entry[160], url[200], host[160], body[4096];
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    snprintf(entry, sizeof entry, "courier-route.invalid:%s:127.0.0.1", port);
    const char *resolve[] = {entry, NULL};
    options.resolve = resolve;
    snprintf(url, sizeof url, "http://courier-route.invalid:%s/echo/routed", port);
    CHECK_INT(get_url(&options, url, body, sizeof body), 200);
    snprintf(host, sizeof host, "\"courier-route.invalid:%s\"", port);
    CHECK_CONTAINS(body, host);

    options = options_for(transport);
    options.ignore_environment_proxy = 1;
    /* 127.0.0.1, not localhost: NIO resolves a name on a dispatch thread, whose glibc resolver
     * state valgrind reports lost at exit. */
    snprintf(entry, sizeof entry, "courier-route.invalid:%s:127.0.0.1:%s", port, port);
    const char *connect_to[] = {entry, NULL};
    options.connect_to = connect_to;
    CHECK_INT(get_url(&options, url, body, sizeof body), 200);

    courier_client *client = NULL;
    const char *bad[] = {"courier-route.invalid:80", NULL};
    options = options_for(transport);
    options.resolve = bad;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    options = options_for(transport);
    snprintf(entry, sizeof entry, "courier-route.invalid:80:127.0.0.1:%s", port);
    options.connect_to = connect_to;
    if (transport == COURIER_TRANSPORT_ASYNC_HTTP_CLIENT) {
        CHECK_CODE(COURIER_E_UNSUPPORTED, courier_client_new(&options, &client, &error));
    } else {
        options.ignore_environment_proxy = 1;
        CHECK_INT(get_url(&options, "http://courier-route.invalid/status/204", body, sizeof body), 204);
    }
}

/* Pins (ABI 1.4) are checked when the client is made; AsyncHTTPClient cannot check them. The
 * handshake against a pinned key is the Swift suite's (it has the test authority and nginx). */
static void pins_are_checked_and_refused_where_they_cannot_be_honoured(courier_transport transport)
{
    courier_client *client = NULL;
    courier_client_options options = options_for(transport);
    const char *malformed[] = {"example.com=sha1//AAAA", NULL};
    options.pinned_public_keys = malformed;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    const char *pins[] = {"*.example.com=sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", NULL};
    options.pinned_public_keys = pins;
    if (transport == COURIER_TRANSPORT_ASYNC_HTTP_CLIENT) {
        CHECK_CODE(COURIER_E_UNSUPPORTED, courier_client_new(&options, &client, &error));
    } else {
        CHECK_OK(courier_client_new(&options, &client, &error));
        CHECK_OK(courier_client_free(client));
    }
}

/* .netrc (ABI 1.4): with use_netrc, a request without credentials gets the file's for its host;
 * without it, none; a file that cannot be parsed fails courier_client_new naming the line. */
static void netrc_credentials_go_to_their_host_when_asked_for(courier_transport transport)
{
    char netrc[] = "/tmp/courier-netrc-XXXXXX", body[4096];
    int descriptor = mkstemp(netrc);
    CHECK(descriptor >= 0);
    const char good[] = "machine 127.0.0.1\n  login alice\n  password wonder\n";
    CHECK(write(descriptor, good, sizeof good - 1) == (ssize_t)(sizeof good - 1));
    close(descriptor);
    courier_client_options options = options_for(transport);
    options.ignore_environment_proxy = 1;
    options.use_netrc = 1;
    options.netrc_file = netrc;
    char url[512];
    CHECK_INT(get_url(&options, url_at(url, sizeof url, base, "/basic-auth/alice/wonder"), body, sizeof body), 200);
    options.use_netrc = 0;
    CHECK_INT(get_url(&options, url, body, sizeof body), 401);

    FILE *file = fopen(netrc, "w");
    CHECK(file != NULL);
    fputs("machine 127.0.0.1 login\n", file);
    fclose(file);
    options.use_netrc = 1;
    courier_client *client = NULL;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    unlink(netrc);
}

static void values_out_of_range_or_unsupported_are_refused(void)
{
    courier_client *client = NULL;
    courier_client_options options = options_for(COURIER_TRANSPORT_CURL);
    options.min_tls_version = (courier_tls_version)9;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    options = options_for(COURIER_TRANSPORT_CURL);
    options.http_version = (courier_http_version)7;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    options = options_for(COURIER_TRANSPORT_CURL);
    options.client_certificate = "client.pem";
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));
    options = options_for(COURIER_TRANSPORT_CURL);
    options.max_connections_per_host = -2;
    CHECK_CODE(COURIER_E_INVALID_ARGUMENT, courier_client_new(&options, &client, &error));

    options = options_for(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    options.max_idle_connections = 4;
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_client_new(&options, &client, &error));
    options = options_for(COURIER_TRANSPORT_ASYNC_HTTP_CLIENT);
    options.http_version = COURIER_HTTP_VERSION_2_PRIOR_KNOWLEDGE;
    CHECK_CODE(COURIER_E_UNSUPPORTED, courier_client_new(&options, &client, &error));
    CHECK(client == NULL);

    /* A CA file that does not exist fails the TLS handshake it would verify, on curl. */
    options = options_for(COURIER_TRANSPORT_CURL);
    options.ca_file = "/nonexistent/courier-ca.pem";
    options.min_tls_version = COURIER_TLS_VERSION_1_2;
    CHECK_OK(courier_client_new(&options, &client, &error));
    CHECK_OK(courier_client_free(client));
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s BASE_URL PROXY_HOST_PORT COOKIE_FILE UNIX_SOCKET\n", argv[0]);
        return 2;
    }
    base = argv[1];
    proxy = argv[2];
    cookie_file = argv[3];
    unix_socket = argv[4];
    /* Set before any client exists: the library reads the environment when a client is made. */
    char environment_proxy[256];
    snprintf(environment_proxy, sizeof environment_proxy, "http://%s", proxy);
    setenv("http_proxy", environment_proxy, 1);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");

    for (size_t index = 0; index < sizeof transports / sizeof transports[0]; index++) {
        an_explicit_proxy_carries_requests_with_its_credentials(transports[index]);
        an_explicit_proxy_is_not_bypassed_by_the_processs_no_proxy(transports[index]);
        the_environment_proxy_is_read_ignored_or_bypassed(transports[index]);
        default_headers_and_the_user_agent_reach_the_server(transports[index]);
        cookies_are_kept_and_survive_a_restart_through_the_file(transports[index]);
        a_jar_in_memory_is_read_added_to_and_cleared(transports[index]);
        a_unix_socket_carries_the_clients_requests(transports[index]);
        routes_reach_the_server_under_a_name_that_does_not_exist(transports[index]);
        pins_are_checked_and_refused_where_they_cannot_be_honoured(transports[index]);
        netrc_credentials_go_to_their_host_when_asked_for(transports[index]);
    }
    values_out_of_range_or_unsupported_are_refused();
    return check_finish("test_options");
}
