/*
 * courier.h: the C interface of Courier, an HTTP request pipeline.
 *
 * A C program links libcourier.so and includes this header. It builds a request, sends it
 * through a client's ordered chain of interceptors to a transport (libcurl by default), and
 * reads the response:
 *
 *     courier_client *client = NULL;
 *     courier_request *request = NULL;
 *     courier_response *response = NULL;
 *     courier_error *error = NULL;
 *     if (courier_client_new(NULL, &client, &error) != COURIER_OK
 *         || courier_request_new("GET", "http://127.0.0.1:8080/anything", &request, &error) != COURIER_OK
 *         || courier_request_set_header(request, "Accept", "application/json", &error) != COURIER_OK
 *         || courier_client_send(client, request, &response, &error) != COURIER_OK) {
 *         fprintf(stderr, "%s\n", courier_error_message(error));
 *     } else {
 *         int status = 0;
 *         const void *body = NULL;
 *         size_t length = 0;
 *         courier_response_status(response, &status, NULL);
 *         courier_response_body(response, &body, &length, NULL);
 *         printf("%d %.*s\n", status, (int)length, (const char *)body);
 *     }
 *     courier_error_free(error);
 *     courier_response_free(response);
 *     courier_request_free(request);
 *     courier_client_free(client);
 *
 * Conventions, true of every function unless its comment says otherwise:
 *
 *  - Errors. Every function that can fail returns a courier_code, COURIER_OK (0) on success.
 *    Its last parameter, `courier_error **error`, may be NULL; when it is not NULL and the call
 *    fails, *error receives a new error object (code, message, stage) that the caller frees
 *    with courier_error_free. On success *error is left untouched.
 *  - Handles. Objects are opaque handles. A handle is validated on every call: NULL, a freed
 *    handle, a handle of the wrong kind or a pointer that never came from this library yields
 *    COURIER_E_INVALID_HANDLE, never a crash. Freeing NULL is allowed and does nothing;
 *    freeing twice returns COURIER_E_INVALID_HANDLE.
 *  - Inputs are copied. Strings passed in must be NUL-terminated UTF-8 and may be freed as soon
 *    as the call returns. Invalid UTF-8 yields COURIER_E_INVALID_ARGUMENT.
 *  - Outputs are borrowed. A `const char *` or `const void *` returned through an out
 *    parameter belongs to the object it came from; it stays valid until that object is changed
 *    or freed, whichever comes first. Copy it to keep it longer.
 *  - Threads. Clients are thread-safe: any number of threads may send through one client at
 *    once. A request or response may be used from any thread but by one thread at a time.
 *  - fork(). A client belongs to the process that created it, as a libcurl handle does: its
 *    connections and threads stay with that process. In a child made by fork() (a pre-forking
 *    server's worker, Python's multiprocessing), every call on a client or call handle made
 *    before the fork fails at once with COURIER_E_FORKED, touching none of its connections
 *    (freeing it returns at once and closes nothing of the parent's); the child creates clients
 *    of its own, which work as in any process (on the curl transport: AsyncHTTPClient's event
 *    loops stay in the parent, and its clients made in the child fail with COURIER_E_FORKED).
 *    Requests and responses are plain data and may be used on both sides. fork() waits, at
 *    most a second, for the library's own threads to finish what they are doing, so that none
 *    holds a lock the child would need.
 *  - Callbacks. Every callback receives the `user_data` given with it. The comment of each
 *    callback type says on which thread it runs.
 *  - Extensible structs start with `struct_size`; fill them with their *_init function, which
 *    sets struct_size and the defaults, then change the fields you need. New fields are only
 *    ever appended, and a library reads exactly `struct_size` bytes: a program built against an
 *    older 1.x header is read up to its size (the newer fields keep their defaults); one built
 *    against a newer header is accepted by an older library when every field that library does
 *    not know is zero, and refused with COURIER_E_INVALID_ARGUMENT naming the struct when one is
 *    set. A struct_size below the struct's ABI 1.0 size is refused. No struct is passed by
 *    value and there are no varargs, so the ABI is the same for every foreign-function caller.
 *  - How *_init keeps that promise: it is an inline function of this header around the
 *    exported one. It zeroes the struct as this header declares it, lets the library fill the
 *    fields of the struct's first version (the exported function never writes past them, so
 *    an older program's smaller struct is never overrun), and sets struct_size to this header's
 *    sizeof. Fields added after ABI 1.0 therefore take 0 or NULL as their default. Define
 *    COURIER_ABI_ONLY before including the header to leave the inline functions out (for
 *    generators that read declarations only); do the same three steps yourself then, as a
 *    plugin does around courier_host_api's interceptor_init.
 *
 * The ABI major version changes when an existing function or struct changes incompatibly;
 * the minor version when something is added. Plugins (see courier_plugin.h) are refused
 * when built against another major version.
 */
#ifndef COURIER_H
#define COURIER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * COURIER_API marks the library's functions. A plugin includes courier_plugin.h, which defines
 * COURIER_NO_PROTOTYPES: a plugin must reach the host through courier_host_api, so calling a
 * library function directly is flagged at compile time.
 */
#if defined(COURIER_NO_PROTOTYPES) && (defined(__GNUC__) || defined(__clang__))
#define COURIER_API __attribute__((deprecated("plugins call the host through courier_host_api")))
#elif defined(__GNUC__) || defined(__clang__)
#define COURIER_API __attribute__((visibility("default")))
#else
#define COURIER_API
#endif

/* ---------------------------------------------------------------------------------------- */
/* Versions                                                                                  */

/** The ABI major version this header describes. */
#define COURIER_ABI_MAJOR 1
/** The ABI minor version this header describes. */
#define COURIER_ABI_MINOR 4
/** Both, packed as courier_abi_version() returns them. */
#define COURIER_ABI_VERSION ((uint32_t)((COURIER_ABI_MAJOR << 16) | COURIER_ABI_MINOR))

/* ---------------------------------------------------------------------------------------- */
/* Result codes and errors                                                                   */

/**
 * The outcome of a call. Values are stable; new ones may be added in a minor version, so treat
 * an unknown value as a failure.
 */
typedef enum courier_code {
    COURIER_OK = 0,
    /** An argument was NULL where a value is required, out of range, or not valid UTF-8. */
    COURIER_E_INVALID_ARGUMENT = 1,
    /** A handle was NULL, already freed, of another kind, or not from this library. */
    COURIER_E_INVALID_HANDLE = 2,
    /** The request could not be built: a bad URL, method, header name or value, or query item. */
    COURIER_E_INVALID_REQUEST = 3,
    /** A body could not be encoded: invalid JSON text, an unreadable file. */
    COURIER_E_ENCODING = 4,
    /** The body cannot be sent again (a callback body already consumed). */
    COURIER_E_BODY_NOT_REPLAYABLE = 5,
    /** No connection could be made to the server. */
    COURIER_E_CANNOT_CONNECT = 6,
    /** The connect or total deadline passed. */
    COURIER_E_TIMED_OUT = 7,
    /** The send was cancelled. */
    COURIER_E_CANCELLED = 8,
    /** TLS failed or was refused. */
    COURIER_E_INSECURE = 9,
    /** The server's reply was not valid HTTP, or broke off. */
    COURIER_E_INVALID_RESPONSE = 10,
    /** The response status was not acceptable (raised by interceptors that validate). */
    COURIER_E_UNACCEPTABLE_STATUS = 11,
    /** A configured bound was exceeded: header size or count, body size, decompression ratio. */
    COURIER_E_LIMIT_EXCEEDED = 12,
    /** Too many redirects, or a redirect loop. */
    COURIER_E_TOO_MANY_REDIRECTS = 13,
    /** An interceptor failed, or misbehaved (an unknown action, RESPOND without a response). */
    COURIER_E_INTERCEPTOR = 14,
    /** A plugin could not be loaded: missing file or symbol, ABI mismatch, init failure. */
    COURIER_E_PLUGIN = 15,
    /** A blocking call was made where it would deadlock, such as a blocking send from a callback. */
    COURIER_E_WOULD_BLOCK = 16,
    /** The header, interceptor or value asked for does not exist. */
    COURIER_E_NOT_FOUND = 17,
    /** The operation does not apply to this object, such as reading a body streamed from a file. */
    COURIER_E_UNSUPPORTED = 18,
    /** Any other failure; the error message says what. */
    COURIER_E_INTERNAL = 19,
    /** The response's content type was not acceptable (raised by interceptors that validate). */
    COURIER_E_UNACCEPTABLE_CONTENT_TYPE = 20,
    /** A response body could not be decoded (raised by interceptors that decode). */
    COURIER_E_DECODING = 21,
    /** Credentials were refused and could not be refreshed (the refresh failed or was rate-limited; ABI 1.1). */
    COURIER_E_AUTHENTICATION = 22,
    /** The client (or call) was created in another process: this one was made by fork() after it,
     *  and a client's connections and threads stay with the process that made it. Create a new
     *  client in the child (ABI 1.2). */
    COURIER_E_FORKED = 23
} courier_code;

/** An error: a code, a message for people, and the pipeline stage it came from. */
typedef struct courier_error courier_error;

/**
 * A short, static description of `code` ("invalid handle"). Never NULL; unknown codes give
 * "unknown error code". Thread-safe; the string lives forever.
 */
COURIER_API const char *courier_strerror(courier_code code);

/** The error's code; COURIER_E_INVALID_HANDLE when `error` is not a live error. */
COURIER_API courier_code courier_error_code(const courier_error *error);

/**
 * The error's message: what failed and, where known, which block or stage caused it. Borrowed
 * until the error is freed. Never NULL: an invalid handle gives a static message saying so.
 */
COURIER_API const char *courier_error_message(const courier_error *error);

/**
 * The pipeline stage the error arose in (an interceptor's name, "redirects", "transport"), or
 * NULL when it arose outside the pipeline. Borrowed until the error is freed.
 */
COURIER_API const char *courier_error_stage(const courier_error *error);

/** The HTTP status of the response the error carries, or 0 when there is none. */
COURIER_API int courier_error_status(const courier_error *error);

/** Frees an error. NULL is allowed; a freed or foreign handle returns COURIER_E_INVALID_HANDLE. */
COURIER_API courier_code courier_error_free(courier_error *error);

/* ---------------------------------------------------------------------------------------- */
/* Versions (functions)                                                                      */

/** The library's ABI version, (major << 16) | minor; compare its major with COURIER_ABI_MAJOR. */
COURIER_API uint32_t courier_abi_version(void);

/** The library's release version, such as "0.1.0". Static; never NULL. */
COURIER_API const char *courier_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Callbacks shared by several objects                                                       */

/**
 * Releases `user_data` once nothing uses it any more: the object that held it was freed or
 * removed and no send still runs its callbacks. Runs exactly once, on the thread that drops the
 * last use (the freeing thread, or the thread that finishes the last send).
 */
typedef void (*courier_destroy_fn)(void *user_data);

/* ---------------------------------------------------------------------------------------- */
/* Requests                                                                                  */

/**
 * A request: method, URL, header fields, body and timeout. Every setter validates its input
 * and leaves the request unchanged when it fails.
 */
typedef struct courier_request courier_request;

/**
 * Creates a request for `method` ("GET", "POST", or any valid token) and the absolute `url`
 * ("https://example.com/path?q=1"). Fails with COURIER_E_INVALID_REQUEST when the method is
 * not a token or the URL has no scheme or host. Free with courier_request_free.
 */
COURIER_API courier_code courier_request_new(const char *method, const char *url, courier_request **request,
                                             courier_error **error);

/**
 * Creates a request for `endpoint` resolved against `base_url` as the Swift builder's BaseURL and
 * Endpoint blocks do, by RFC 3986 reference resolution: base "https://api.example.com/v1/" with
 * endpoint "users/42" gives "https://api.example.com/v1/users/42", while base
 * "https://api.example.com/v1" (no trailing slash) gives "https://api.example.com/users/42", and
 * an endpoint starting with "/" replaces the whole path.
 */
COURIER_API courier_code courier_request_new_endpoint(const char *method, const char *base_url, const char *endpoint,
                                                      courier_request **request, courier_error **error);

/** Creates an independent copy of `request`, body and all. Free it with courier_request_free. */
COURIER_API courier_code courier_request_clone(const courier_request *request, courier_request **clone,
                                               courier_error **error);

/** Frees a request. NULL is allowed. A request that is being sent may be freed: sends copy it. */
COURIER_API courier_code courier_request_free(courier_request *request);

/** Replaces the method. */
COURIER_API courier_code courier_request_set_method(courier_request *request, const char *method, courier_error **error);

/**
 * Replaces the URL with `url`, an absolute http or https URL (query included), keeping the
 * method, headers and body (ABI 1.1). Fails with COURIER_E_INVALID_REQUEST, changing nothing,
 * when `url` is not one.
 */
COURIER_API courier_code courier_request_set_url(courier_request *request, const char *url, courier_error **error);

/**
 * Appends the query item `name`=`value`, percent-encoding both. A NULL `value` appends the bare
 * flag `name`.
 */
COURIER_API courier_code courier_request_add_query(courier_request *request, const char *name, const char *value,
                                                   courier_error **error);

/**
 * Sets header `name` to `value`, replacing every existing line of that name. Names are
 * case-insensitive tokens; values may not contain CR, LF or NUL (COURIER_E_INVALID_REQUEST).
 */
COURIER_API courier_code courier_request_set_header(courier_request *request, const char *name, const char *value,
                                                    courier_error **error);

/** Adds a line `name: value`, keeping existing lines of that name. */
COURIER_API courier_code courier_request_add_header(courier_request *request, const char *name, const char *value,
                                                    courier_error **error);

/** Removes every line named `name`; COURIER_E_NOT_FOUND when there was none. */
COURIER_API courier_code courier_request_remove_header(courier_request *request, const char *name, courier_error **error);

/** Adds the cookie `name`=`value` to the request's Cookie header. */
COURIER_API courier_code courier_request_add_cookie(courier_request *request, const char *name, const char *value,
                                                    courier_error **error);

/** Sets `Authorization: Bearer <token>`. */
COURIER_API courier_code courier_request_set_bearer_auth(courier_request *request, const char *token, courier_error **error);

/** Sets `Authorization: Basic <base64(username:password)>`; the username may not contain ':'. */
COURIER_API courier_code courier_request_set_basic_auth(courier_request *request, const char *username, const char *password,
                                                        courier_error **error);

/** Sets how long the whole exchange may take, in milliseconds; 0 uses the client's timeout. */
COURIER_API courier_code courier_request_set_timeout_ms(courier_request *request, int64_t milliseconds, courier_error **error);

/*
 * Bodies. Each setter replaces the previous body and sets Content-Type unless the request
 * already has one. A `content_type` of NULL picks the default named in each comment.
 */

/** Sends `length` bytes from `data` (copied). Default type: application/octet-stream. */
COURIER_API courier_code courier_request_set_body_bytes(courier_request *request, const void *data, size_t length,
                                                        const char *content_type, courier_error **error);

/** Sends the UTF-8 text `text`. Default type: text/plain; charset=utf-8. */
COURIER_API courier_code courier_request_set_body_string(courier_request *request, const char *text,
                                                         const char *content_type, courier_error **error);

/** Sends the JSON text `json`, which must parse as JSON (COURIER_E_ENCODING otherwise). Type: application/json. */
COURIER_API courier_code courier_request_set_body_json(courier_request *request, const char *json, courier_error **error);

/**
 * Appends the field `name`=`value` to an application/x-www-form-urlencoded body. The first call
 * replaces any other kind of body.
 */
COURIER_API courier_code courier_request_add_form_field(courier_request *request, const char *name, const char *value,
                                                        courier_error **error);

/**
 * Streams the file at `path` as the body, read when the request is sent, with its length as
 * Content-Length. The file must exist and be readable now (COURIER_E_ENCODING otherwise).
 * Default type: application/octet-stream.
 */
COURIER_API courier_code courier_request_set_body_file(courier_request *request, const char *path, const char *content_type,
                                                       courier_error **error);

/*
 * Multipart bodies (multipart/form-data). Each call appends a part; the first replaces any other
 * kind of body. Files are streamed from disk when the request is sent, never held in memory.
 */

/** Appends a text field part. */
COURIER_API courier_code courier_request_add_multipart_field(courier_request *request, const char *name, const char *value,
                                                             courier_error **error);

/**
 * Appends a part holding `length` bytes of `data` (copied), with an optional `filename` and a
 * `content_type` (default application/octet-stream).
 */
COURIER_API courier_code courier_request_add_multipart_data(courier_request *request, const char *name, const char *filename,
                                                            const char *content_type, const void *data, size_t length,
                                                            courier_error **error);

/**
 * Appends a part streamed from the file at `path`. `filename` defaults to the path's last
 * component and `content_type` to one guessed from its extension.
 */
COURIER_API courier_code courier_request_add_multipart_file(courier_request *request, const char *name, const char *path,
                                                            const char *filename, const char *content_type,
                                                            courier_error **error);

/**
 * Fills `buffer` with up to `capacity` bytes of a callback body. Returns how many bytes it
 * wrote, 0 at the end of the body, or -1 to abort the send (COURIER_E_ENCODING).
 *
 * Runs on a thread of Courier's callback pool, never on Swift's cooperative pool, so it may
 * block (on a pipe, a socket, a file); it is called again only after it returned.
 */
typedef int64_t (*courier_read_fn)(void *user_data, void *buffer, size_t capacity);

/**
 * Streams the body from `read`, called until it returns 0. `length` is the exact body length,
 * sent as Content-Length, or -1 when unknown (the body goes chunked). Such a body is one-shot:
 * a retry or a 307 redirect after it was read fails with COURIER_E_BODY_NOT_REPLAYABLE instead
 * of sending an empty body. `destroy` (may be NULL) releases `user_data` once the request and
 * every send of it are done with the callback. Default type: application/octet-stream.
 */
COURIER_API courier_code courier_request_set_body_callback(courier_request *request, courier_read_fn read, void *user_data,
                                                           courier_destroy_fn destroy, int64_t length,
                                                           const char *content_type, courier_error **error);

/** The method, such as "GET". Borrowed. */
COURIER_API courier_code courier_request_method(const courier_request *request, const char **method, courier_error **error);

/** The absolute URL, query included, percent-encoded. Borrowed. */
COURIER_API courier_code courier_request_url(const courier_request *request, const char **url, courier_error **error);

/**
 * The value of header `name`, its lines joined with ", " ("; " for Cookie). Borrowed.
 * COURIER_E_NOT_FOUND when the request has no such header.
 */
COURIER_API courier_code courier_request_header(const courier_request *request, const char *name, const char **value,
                                                courier_error **error);

/** How many header lines the request has. */
COURIER_API courier_code courier_request_header_count(const courier_request *request, size_t *count, courier_error **error);

/** The header line at `index`, from 0, in order. Borrowed. COURIER_E_NOT_FOUND past the end. */
COURIER_API courier_code courier_request_header_at(const courier_request *request, size_t index, const char **name,
                                                   const char **value, courier_error **error);

/**
 * The body's bytes, when they are in memory (bytes, text, JSON, form, multipart without files).
 * Borrowed; `*data` is followed by a NUL byte not counted in `*length`. A request without a body
 * gives length 0. Bodies streamed from a file or a callback give COURIER_E_UNSUPPORTED.
 */
COURIER_API courier_code courier_request_body(const courier_request *request, const void **data, size_t *length,
                                              courier_error **error);

/* ---------------------------------------------------------------------------------------- */
/* Responses                                                                                 */

/** A response: status, header fields and the body read into memory. */
typedef struct courier_response courier_response;

/**
 * Creates a response with `status` (100-999) and no headers or body, for an interceptor that
 * answers on its own (courier_exchange_respond) or for tests. Free with courier_response_free
 * unless ownership passes to courier_exchange_respond.
 */
COURIER_API courier_code courier_response_new(int status, courier_response **response, courier_error **error);

/** Frees a response. NULL is allowed. */
COURIER_API courier_code courier_response_free(courier_response *response);

/** The status code, such as 200. */
COURIER_API courier_code courier_response_status(const courier_response *response, int *status, courier_error **error);

/** The URL of the request that produced this response (the last one, after redirects). Borrowed. */
COURIER_API courier_code courier_response_url(const courier_response *response, const char **url, courier_error **error);

/**
 * How many redirects were followed to reach this response (ABI 1.3): the responses in
 * courier_response_history_at, first hop first, as httpx's Response.history. 0 when none was.
 */
COURIER_API courier_code courier_response_history_count(const courier_response *response, size_t *count,
                                                        courier_error **error);

/**
 * The redirect response at `index` of the history (ABI 1.3), a new handle to free with
 * courier_response_free: its status, URL and headers, and its body when at most 64 KiB.
 * Fails with COURIER_E_INVALID_ARGUMENT when index is not below courier_response_history_count.
 */
COURIER_API courier_code courier_response_history_at(const courier_response *response, size_t index,
                                                     courier_response **hop, courier_error **error);

/** The value of header `name`, lines joined with ", ". Borrowed. COURIER_E_NOT_FOUND when absent. */
COURIER_API courier_code courier_response_header(const courier_response *response, const char *name, const char **value,
                                                 courier_error **error);

/** How many header lines the response has. */
COURIER_API courier_code courier_response_header_count(const courier_response *response, size_t *count, courier_error **error);

/** The header line at `index`, from 0. Borrowed. COURIER_E_NOT_FOUND past the end. */
COURIER_API courier_code courier_response_header_at(const courier_response *response, size_t index, const char **name,
                                                    const char **value, courier_error **error);

/**
 * The body. Borrowed; `*data` is followed by a NUL byte not counted in `*length`. Empty (length
 * 0) when the send streamed the body to an on_data callback.
 */
COURIER_API courier_code courier_response_body(const courier_response *response, const void **data, size_t *length,
                                               courier_error **error);

/**
 * Where the time of one exchange went, and what its connection was (ABI 1.4): what curl's
 * CURLINFO_*_TIME_T and URLSession's task metrics give, filled by courier_response_metrics.
 *
 * Durations are in microseconds, as curl's; -1 when the transport did not measure that phase
 * (never 0 for "unknown"). A reused connection has no dns, connect or tls phase. Which phases
 * each transport measures is in docs/c.md. The strings are borrowed from the response, NULL when
 * not known. Set struct_size to sizeof(courier_metrics) before the call: the library writes at
 * most that many bytes, and leaves a field it is older than as you set it.
 */
typedef struct courier_metrics {
    /** sizeof(courier_metrics), set by the caller. */
    size_t struct_size;
    /** Waiting for a connection or a slot before anything was sent (HAR's blocked). */
    int64_t queued_us;
    /** Resolving the host name. */
    int64_t dns_us;
    /** The TCP connect, after the lookup. */
    int64_t connect_us;
    /** The TLS handshake, after the connect. */
    int64_t tls_us;
    /** Writing the request, head and body. */
    int64_t send_us;
    /** Waiting for the response's first byte after the request was sent. */
    int64_t wait_us;
    /** Receiving the body, from the response's first byte to its last. */
    int64_t receive_us;
    /** The whole exchange of this hop, from the transport's start to the body's end. */
    int64_t total_us;
    /** The time spent on redirects before this hop; -1 when none was followed. */
    int64_t redirect_us;
    /** How many redirects were followed to reach this response. */
    int64_t redirect_count;
    /** Bytes written for the request, head and body; -1 when not measured. */
    int64_t request_bytes;
    /** Bytes received for the response, head and body, before content decoding; -1 when not measured. */
    int64_t response_bytes;
    /** Bytes of the body after content decoding; -1 when not measured. */
    int64_t decoded_body_bytes;
    /** 1 when the exchange went over a connection an earlier one opened, 0 when not, -1 unknown. */
    int reused_connection;
    /** The port the connection went to; -1 unknown. */
    int remote_port;
    /** The address the connection went to, as text ("127.0.0.1", "::1"). Borrowed; NULL unknown. */
    const char *remote_address;
    /** The HTTP version spoken: "1.0", "1.1", "2" or "3". Borrowed; NULL unknown. */
    const char *http_version;
    /** The TLS version negotiated ("TLSv1.3"). Borrowed; NULL for plain HTTP or unknown. */
    const char *tls_version;
} courier_metrics;

/**
 * Fills `metrics` with the response's timings and connection facts (ABI 1.4). Fails with
 * COURIER_E_INVALID_ARGUMENT when metrics is NULL or its struct_size is smaller than the ABI 1.4
 * struct. A response made with courier_response_new has every field unknown.
 */
COURIER_API courier_code courier_response_metrics(const courier_response *response, courier_metrics *metrics,
                                                  courier_error **error);

/** Replaces the status. */
COURIER_API courier_code courier_response_set_status(courier_response *response, int status, courier_error **error);

/** Sets header `name` to `value`, replacing existing lines of that name; validated as for requests. */
COURIER_API courier_code courier_response_set_header(courier_response *response, const char *name, const char *value,
                                                     courier_error **error);

/** Adds a header line, keeping existing lines of that name. */
COURIER_API courier_code courier_response_add_header(courier_response *response, const char *name, const char *value,
                                                     courier_error **error);

/** Removes every line named `name`; COURIER_E_NOT_FOUND when there was none. */
COURIER_API courier_code courier_response_remove_header(courier_response *response, const char *name, courier_error **error);

/** Replaces the body with `length` bytes of `data` (copied). */
COURIER_API courier_code courier_response_set_body(courier_response *response, const void *data, size_t length,
                                                   courier_error **error);

/* ---------------------------------------------------------------------------------------- */
/* Clients                                                                                   */

/** Sends requests: an ordered chain of interceptors around a transport. Thread-safe. */
typedef struct courier_client courier_client;

/** Which transport a client sends through. */
typedef enum courier_transport {
    /** libcurl's multi interface on a dedicated I/O thread. The default. */
    COURIER_TRANSPORT_CURL = 0,
    /** swift-server/async-http-client on SwiftNIO. */
    COURIER_TRANSPORT_ASYNC_HTTP_CLIENT = 1
} courier_transport;

/** Which HTTP version a client speaks (ABI 1.1). */
typedef enum courier_http_version {
    /** HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise. The default. */
    COURIER_HTTP_VERSION_AUTO = 0,
    /** HTTP/1.1 only. */
    COURIER_HTTP_VERSION_1_1 = 1,
    /** HTTP/2 over TLS, negotiated with ALPN; HTTP/1.1 for plain http URLs. */
    COURIER_HTTP_VERSION_2 = 2,
    /** HTTP/2 without negotiation (h2c on plain http), for servers known to speak it. */
    COURIER_HTTP_VERSION_2_PRIOR_KNOWLEDGE = 3
} courier_http_version;

/** The oldest TLS version a client accepts (ABI 1.1). */
typedef enum courier_tls_version {
    /** The TLS library's own minimum (TLS 1.2 with today's OpenSSL and BoringSSL). The default. */
    COURIER_TLS_VERSION_DEFAULT = 0,
    /** TLS 1.0; deprecated by RFC 8996, for old servers only. */
    COURIER_TLS_VERSION_1_0 = 1,
    /** TLS 1.1; deprecated by RFC 8996, for old servers only. */
    COURIER_TLS_VERSION_1_1 = 2,
    /** TLS 1.2. */
    COURIER_TLS_VERSION_1_2 = 3,
    /** TLS 1.3. */
    COURIER_TLS_VERSION_1_3 = 4
} courier_tls_version;

/**
 * Settings for courier_client_new. Initialise with courier_client_options_init.
 *
 * Both transports honour every field, except where a field says otherwise; a value a transport
 * cannot honour is refused by courier_client_new, never ignored. Strings are copied.
 */
typedef struct courier_client_options {
    /** sizeof(courier_client_options), set by courier_client_options_init. */
    size_t struct_size;
    /** The transport; default COURIER_TRANSPORT_CURL. */
    courier_transport transport;
    /** Total deadline of a request without its own timeout, in ms; default 60000; 0 for none. */
    int64_t timeout_ms;
    /** How long connecting (TCP and TLS) may take, in ms; default 10000. */
    int64_t connect_timeout_ms;
    /** Follow redirects: 1 (default) or 0. */
    int32_t follow_redirects;
    /** The most redirects one send follows; default 10. */
    int32_t max_redirects;
    /** The largest response body read into memory, in bytes; default 64 MiB. */
    int64_t max_body_bytes;
    /** Verify TLS certificates (the chain, and the host name unless skip_host_verification):
     *  1 (default) or 0 (for tests only). */
    int32_t verify_tls;
    /** Threads that run asynchronous sends and their callbacks; default 2, at most 64. A
     *  callback that blocks holds its own thread only: while every one of these threads is
     *  inside a callback and work waits, the client adds a thread (up to 256 in all), which
     *  ends after two idle seconds. On Linux they run with the SCHED_BATCH policy: a thread
     *  that starts several sends in a row is not preempted by each wake of these threads. */
    int32_t callback_threads;

    /* Added in ABI 1.1; 0 or NULL is each field's default. */

    /** The proxy, as curl takes it: "[scheme://][user:password@]host[:port]" with the scheme
     *  http (the default; port 1080 unless given), https, socks5, socks5h, socks4 or socks4a.
     *  https URLs go through it in a CONNECT tunnel. The credentials never appear in errors or
     *  logs. NULL: the environment's proxy, unless ignore_environment_proxy. AsyncHTTPClient
     *  reaches http proxies and socks5 proxies without credentials; a request routed to another
     *  fails with COURIER_E_INVALID_REQUEST. */
    const char *proxy;
    /** The hosts that go direct, as curl reads NO_PROXY: names (each matching itself and the
     *  names below it), IP addresses, CIDR ranges ("10.0.0.0/8"), separated by commas; "*" for
     *  every host. NULL: the environment's no_proxy or NO_PROXY. */
    const char *no_proxy;
    /** 1: ignore the proxy variables of the environment. 0: read them as curl does, when the
     *  client is created: http_proxy (lower case only) for http URLs, https_proxy or
     *  HTTPS_PROXY for https, then all_proxy or ALL_PROXY, and no_proxy or NO_PROXY. */
    int32_t ignore_environment_proxy;
    /** The HTTP version; default COURIER_HTTP_VERSION_AUTO. */
    courier_http_version http_version;
    /** A PEM file of the authorities to trust instead of the system's; NULL: the system's. */
    const char *ca_file;
    /** A directory of authorities to trust (PEM files named by subject hash, as `openssl
     *  rehash` makes them), with ca_file or the system's; NULL: none. */
    const char *ca_directory;
    /** A PEM client certificate (optionally followed by its chain) for servers that ask for
     *  one (mutual TLS); set client_key with it. NULL: none. */
    const char *client_certificate;
    /** The PEM private key of client_certificate. */
    const char *client_key;
    /** The password of an encrypted client_key; NULL when it is not encrypted. */
    const char *client_key_password;
    /** The oldest TLS version accepted; default COURIER_TLS_VERSION_DEFAULT. */
    courier_tls_version min_tls_version;
    /** 1: accept a certificate that does not name the host (its chain is still verified when
     *  verify_tls is 1). 0: host names are verified whenever verify_tls is 1. */
    int32_t skip_host_verification;
    /** The most connections to one host (scheme and port included); 0: 8; -1: no limit. More
     *  requests wait for a connection. On curl, blocking sends that run on their own threads
     *  (see courier_client_send) keep their connections apart and are bounded apart: at most
     *  this many such threads at once, each with the connections of its last sends. */
    int32_t max_connections_per_host;
    /** The most connections in total, blocking and asynchronous sends together; 0: no limit.
     *  On curl, a client with this limit sends its blocking sends through its I/O thread too
     *  (not on the caller's thread), so one count covers every connection. AsyncHTTPClient,
     *  which has no such limit of its own, counts requests in flight (each holds a connection
     *  until its body is read). */
    int32_t max_connections;
    /** The most idle connections kept for reuse; 0: 32, or max_connections_per_host when that is
     *  larger (so a burst of responses does not close connections the next sends reopen). curl
     *  only: AsyncHTTPClient keeps each idle connection until idle_timeout_ms, so it refuses any
     *  other value. */
    int32_t max_idle_connections;
    /** 1: ask for no compression and hand bodies over as sent. 0: decode gzip and deflate
     *  (and whatever else the transport can) when the request sets no Accept-Encoding. */
    int32_t disable_decompression;
    /** How long an idle connection is kept before it is closed, in ms; 0: 60000. curl counts
     *  idle time in whole seconds: the value is rounded up to one, and a connection idle for
     *  more whole seconds than that is not reused. */
    int64_t idle_timeout_ms;
    /** The User-Agent of requests that set none; NULL: none is sent. */
    const char *user_agent;
    /** A NULL-terminated array of "Name: value" header fields every request gets unless it
     *  sets a field of that name itself; NULL: none. Added before the interceptors run. */
    const char *const *default_headers;
    /** A cookie file in the Netscape format curl's -b and -c use. Cookies are loaded from it
     *  when the client is created (a missing file is an empty jar), kept by RFC 6265's rules
     *  at every redirect hop, and written back by courier_client_save_cookies and when the
     *  client is freed (once its last send has ended). NULL: no cookies are kept. */
    const char *cookie_file;
    /** 1: the completions of asynchronous sends wait in a queue until the program runs them
     *  on its own thread with courier_client_run_completions, the file descriptor of
     *  courier_client_completion_fd telling its event loop when. 0: they run on the client's
     *  callback threads. */
    int32_t queue_completions;

    /* Added in ABI 1.3; 0 is the default. */
    /** 1: keep cookies in memory for the client's life, by the rules cookie_file's jar follows,
     *  without a file (as requests' Session and httpx's Client do); read and change them with
     *  courier_client_cookies, courier_client_add_cookies and courier_client_remove_cookies.
     *  A cookie_file implies it. 0 without a cookie_file: no cookies are kept. */
    int32_t keep_cookies;

    /* Added in ABI 1.4; NULL or 0 is each field's default. */
    /** A Unix domain socket every request goes over instead of TCP, as curl's
     *  CURLOPT_UNIX_SOCKET_PATH (the Docker daemon's "/var/run/docker.sock"); the URL's host still
     *  goes in Host, and no proxy is used. Copied. At most 107 bytes, else
     *  COURIER_E_INVALID_ARGUMENT. An "http+unix://%2Fpath%2Fto.sock/path" URL does the same for
     *  one request. */
    const char *unix_socket_path;
    /** A NULL-terminated array of routes as curl's --resolve takes them,
     *  "host:port:address[,address...]" (IPv6 addresses in brackets): connections for host:port
     *  go to those addresses, while the URL, Host and the TLS server name keep the host. Copied;
     *  an entry that is not one fails with COURIER_E_INVALID_ARGUMENT naming it. AsyncHTTPClient
     *  takes one address per host, on every port of it: courier_client_new fails with
     *  COURIER_E_UNSUPPORTED on a route it cannot honour, and a request to a routed host on
     *  another port fails with COURIER_E_INVALID_REQUEST. */
    const char *const *resolve;
    /** A NULL-terminated array of routes as curl's --connect-to takes them,
     *  "host:port:host2:port2": connections for host:port go to host2:port2, the rest as
     *  resolve. AsyncHTTPClient honours only routes that keep the port. */
    const char *const *connect_to;
    /** A NULL-terminated array of public-key pins, "host=sha256//BASE64[;sha256//BASE64...]"
     *  (the base64 SHA-256 of the key's DER SubjectPublicKeyInfo, as curl's --pinnedpubkey and
     *  OkHttp take it); host is a name, "*.domain" (one label below it) or "*" (every host), and
     *  an entry without "host=" pins every host. A connection to a pinned host whose certificate
     *  key is none of its pins fails with COURIER_E_INSECURE naming the host and the
     *  pins; verification still runs as verify_tls says. Copied. curl only: with the
     *  AsyncHTTPClient transport, courier_client_new fails with COURIER_E_UNSUPPORTED. */
    const char *const *pinned_public_keys;
    /** A .netrc file to read instead of $NETRC or ~/.netrc (see use_netrc); copied. */
    const char *netrc_file;
    /** 1: give requests without credentials (no Authorization field, no user in the URL) Basic
     *  credentials from the .netrc entry for their host, as curl --netrc-optional does; the file
     *  is netrc_file, else $NETRC, else ~/.netrc, read once by courier_client_new (a missing file
     *  is no credentials; one that cannot be parsed fails with COURIER_E_INVALID_ARGUMENT naming
     *  the line). A redirect to another origin drops them. 0: no .netrc is read. */
    int32_t use_netrc;
} courier_client_options;

/** Fills `options` with struct_size and the defaults. */
COURIER_API void courier_client_options_init(courier_client_options *options);
#if !defined(COURIER_ABI_ONLY) && !defined(COURIER_NO_PROTOTYPES)
static inline void courier_client_options_init_sized_(courier_client_options *options) {
    unsigned char *byte = (unsigned char *)options;
    size_t index;
    for (index = 0; index < sizeof *options; index++) byte[index] = 0;
    (courier_client_options_init)(options);
    options->struct_size = sizeof *options;
}
#define courier_client_options_init(options) courier_client_options_init_sized_(options)
#endif

/**
 * Creates a client. `options` may be NULL for the defaults. Fails with COURIER_E_INVALID_ARGUMENT
 * when a field is out of range or struct_size is smaller than the first version of the struct.
 * Free with courier_client_free.
 */
COURIER_API courier_code courier_client_new(const courier_client_options *options, courier_client **client,
                                            courier_error **error);

/**
 * Frees a client. Sends under way complete first, on either transport, each with the response or
 * error it would have had (their callbacks still run); then the client's threads end and a
 * transport it created is shut down. The destroy callbacks of its interceptors run once the last
 * send using them is done. A send or courier_client_send_async racing the free from another
 * thread either counts as under way or fails with COURIER_E_INVALID_HANDLE: a completion never
 * goes missing. It returns without waiting for any of that (it may be called from a callback):
 * the transport's connections close a few milliseconds later when no send is under way.
 */
COURIER_API courier_code courier_client_free(courier_client *client);

/**
 * Writes the client's cookies to its cookie_file now, session cookies included (ABI 1.1).
 * Fails with COURIER_E_INVALID_ARGUMENT when the client keeps no cookies or the file cannot be
 * written (the message names it and why).
 */
COURIER_API courier_code courier_client_save_cookies(courier_client *client, courier_error **error);

/**
 * The client's cookies as Netscape cookie-file text, session cookies included (ABI 1.3): copies
 * it, NUL-terminated, into `buffer` when it fits in `capacity` bytes, and stores its length
 * (without the NUL) in `length` in any case. Call with NULL and 0 to learn the length. Fails
 * with COURIER_E_LIMIT_EXCEEDED (buffer set to "") when it does not fit, and with
 * COURIER_E_INVALID_ARGUMENT when the client keeps no cookies (see keep_cookies).
 *
 *     courier_client_options options;
 *     courier_client_options_init(&options);
 *     options.keep_cookies = 1;
 *     courier_client *client = NULL;
 *     courier_request *request = NULL;
 *     courier_response *response = NULL;
 *     int status = 0;
 *     size_t length = 0;
 *     if (courier_client_new(&options, &client, NULL) != COURIER_OK
 *         || courier_client_add_cookies(client, "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc\n", NULL) != COURIER_OK
 *         || courier_request_new("GET", "http://127.0.0.1:8080/cookies", &request, NULL) != COURIER_OK
 *         || courier_client_send(client, request, &response, NULL) != COURIER_OK   // Cookie: sid=abc
 *         || courier_response_status(response, &status, NULL) != COURIER_OK
 *         || courier_client_cookies(client, NULL, 0, &length, NULL) != COURIER_OK)
 *         return 1;
 *     printf("%d\n", status);
 *     char text[4096];   // or malloc(length + 1)
 *     if (length < sizeof text && courier_client_cookies(client, text, sizeof text, &length, NULL) == COURIER_OK)
 *         fputs(text, stdout);
 *     courier_response_free(response);
 *     courier_request_free(request);
 *     courier_client_free(client);
 */
COURIER_API courier_code courier_client_cookies(courier_client *client, char *buffer, size_t capacity, size_t *length,
                                                courier_error **error);

/**
 * Stores the cookies of `netscape`, Netscape cookie-file text (one cookie a line: domain, include
 * subdomains TRUE/FALSE, path, secure TRUE/FALSE, expiry in Unix seconds or 0, name, value,
 * separated by tabs; `#` comments and blank lines are skipped), as Set-Cookie would (ABI 1.3).
 * A cookie replaces the client's of the same domain, path and name; an expired one removes it.
 * Fails with COURIER_E_INVALID_ARGUMENT naming the first line that is not a valid cookie (a
 * control character or `;` in a name, value or path included), storing none of them.
 */
COURIER_API courier_code courier_client_add_cookies(courier_client *client, const char *netscape,
                                                    courier_error **error);

/**
 * Forgets the client's cookies whose domain, path and name are those given (ABI 1.3); NULL
 * matches any, so all three NULL clears the jar. A leading dot on `domain` is ignored. Stores how
 * many went in `removed` unless it is NULL.
 */
COURIER_API courier_code courier_client_remove_cookies(courier_client *client, const char *domain, const char *path,
                                                       const char *name, size_t *removed, courier_error **error);

/* ---------------------------------------------------------------------------------------- */
/* Sending                                                                                   */

/**
 * Receives the response body chunk by chunk when set in courier_send_options, instead of the
 * body being collected into the response. Return 0 to go on, anything else to abort the send
 * (COURIER_E_CANCELLED). `data` is borrowed for the duration of the call.
 *
 * Runs on the thread that runs the send: the caller's thread for courier_client_send, a
 * callback-pool thread for courier_client_send_async. It may block, which slows the download
 * (the transport stops reading) but holds no other send.
 */
typedef int (*courier_data_fn)(void *user_data, const void *data, size_t length);

/**
 * Reports progress: bytes sent and received so far, and the totals when known (-1 when not).
 * Runs on the transport's I/O thread; it must return quickly and must not call Courier.
 */
typedef void (*courier_progress_fn)(void *user_data, int64_t sent, int64_t send_total, int64_t received,
              int64_t receive_total);

/**
 * Receives the response head (status, headers, URL; an empty body) as soon as it arrives, before
 * any on_data chunk (ABI 1.1). `head` is borrowed: read it with the courier_response_* getters
 * during the call only, never free it. Return 0 to go on, anything else to abort the send
 * (COURIER_E_CANCELLED). Runs on the thread that runs the send, like on_data.
 */
typedef int (*courier_head_fn)(void *user_data, const courier_response *head);

/**
 * Asked while a blocking send waits whether to give up (ABI 1.2): return 0 to go on, anything
 * else to cancel the send, which then fails with COURIER_E_CANCELLED. Runs on the calling thread,
 * at least every 100 ms and at once when a signal interrupts the wait (a signal handler that
 * returns, as Python's does for Ctrl-C, interrupts it on the thread it lands on). It must return
 * quickly and must not call Courier. For runtimes that act on signals only between calls into C:
 * Python's binding raises KeyboardInterrupt from here.
 */
typedef int (*courier_cancel_check_fn)(void *user_data);

/** Per-send settings. Initialise with courier_send_options_init. */
typedef struct courier_send_options {
    /** sizeof(courier_send_options), set by courier_send_options_init. */
    size_t struct_size;
    /** Receives the response body as it arrives; NULL (default) collects it into the response. */
    courier_data_fn on_data;
    /** Receives progress; NULL (default) for none. */
    courier_progress_fn on_progress;
    /** Passed to on_data, on_progress, on_head and should_cancel. */
    void *user_data;

    /* Added in ABI 1.1; NULL is the default. */

    /** Receives the head before the body, so a streaming program knows the status and headers
     *  while the body arrives; NULL for none. */
    courier_head_fn on_head;

    /* Added in ABI 1.2; NULL is the default. */

    /** Lets a blocking send (courier_client_send_with) be cancelled from the calling thread, for
     *  instance when a signal arrives; NULL for none. Passed `user_data`. Asynchronous sends
     *  refuse it with COURIER_E_INVALID_ARGUMENT: cancel those with courier_call_cancel. */
    courier_cancel_check_fn should_cancel;
} courier_send_options;

/** Fills `options` with struct_size and the defaults. */
COURIER_API void courier_send_options_init(courier_send_options *options);
#if !defined(COURIER_ABI_ONLY) && !defined(COURIER_NO_PROTOTYPES)
static inline void courier_send_options_init_sized_(courier_send_options *options) {
    unsigned char *byte = (unsigned char *)options;
    size_t index;
    for (index = 0; index < sizeof *options; index++) byte[index] = 0;
    (courier_send_options_init)(options);
    options->struct_size = sizeof *options;
}
#define courier_send_options_init(options) courier_send_options_init_sized_(options)
#endif

/**
 * Sends `request` through the client's interceptors and transport and waits for the whole
 * response, which *response receives (free it with courier_response_free). Any status is a
 * success; use an interceptor to turn unacceptable statuses into errors.
 *
 * Blocks the calling thread, which must be one of the caller's own: the pipeline, including
 * every interceptor callback, runs on this thread while it waits, so a send costs no thread
 * handoff. On the curl transport the transfer runs on this thread too, as curl_easy_perform
 * would, unless the request body comes from a read callback or progress is asked for: the
 * thread takes one of the transport's blocking-send handles (at most max_connections_per_host
 * of them, each keeping its own connections for the next send; when all are busy the send goes
 * through the I/O thread). Called from inside a Courier callback it fails at once with
 * COURIER_E_WOULD_BLOCK.
 */
COURIER_API courier_code courier_client_send(courier_client *client, const courier_request *request,
                                             courier_response **response, courier_error **error);

/** courier_client_send with per-send options (streaming body, progress, cancel check); `options` may be NULL. */
COURIER_API courier_code courier_client_send_with(courier_client *client, const courier_request *request,
                                                  const courier_send_options *options, courier_response **response,
                                                  courier_error **error);

/**
 * Sends `request` as courier_client_send_with does and streams the response body into the file
 * at `path`, never holding it in memory (ABI 1.4): curl -o, and with `resume` 1, curl -C -.
 *
 * The body goes to `path`.part, renamed to `path` once whole; a transfer that breaks off leaves
 * the part, with the response's validator (a strong ETag, else Last-Modified) in
 * `path`.part.validator. With `resume` 1, a part with a validator is continued: the request asks
 * for the rest with Range and If-Range; a 206 from the part's end is appended, a 200 (the file
 * changed, or the server ignores ranges) starts over, and a 416 for a part already whole
 * completes it. The file's length is checked against the length the server announced. The
 * request asks for the body as stored (Accept-Encoding: identity unless it sets its own).
 *
 * *response receives the response with an empty body (free it with courier_response_free).
 * A status other than 2xx fails with COURIER_E_UNACCEPTABLE_STATUS and makes no file (the error
 * carries the response: courier_error_status); a file that cannot be written fails with
 * COURIER_E_INVALID_REQUEST naming it; a server that resumes elsewhere than asked, or a body
 * shorter than announced, with COURIER_E_INVALID_RESPONSE, the part kept. `options` may be NULL;
 * its on_progress and should_cancel apply, and on_data and on_head are refused with
 * COURIER_E_INVALID_ARGUMENT (the body goes to the file). Blocks the calling thread, as
 * courier_client_send does; called from inside a Courier callback it fails with
 * COURIER_E_WOULD_BLOCK. `path` is copied.
 */
COURIER_API courier_code courier_client_download(courier_client *client, const courier_request *request,
                                                 const char *path, int32_t resume,
                                                 const courier_send_options *options, courier_response **response,
                                                 courier_error **error);

/** A send under way, returned by courier_client_send_async, to cancel or wait for it. */
typedef struct courier_call courier_call;

/**
 * Receives the outcome of an asynchronous send: exactly one of `response` and `error` is not
 * NULL, and the callee owns it (free it with courier_response_free or courier_error_free).
 * Runs exactly once per send, also after a cancel (with COURIER_E_CANCELLED), on a thread of the
 * client's callback pool; it may block, which holds that thread only.
 */
typedef void (*courier_completion_fn)(void *user_data, courier_response *response, courier_error *error);

/**
 * Starts sending `request` and returns at once. `completion` runs exactly once when the send
 * ends. When `call` is not NULL it receives a handle to cancel or wait for the send; free it
 * with courier_call_free whenever you like (freeing does not cancel). If this function fails,
 * nothing was started and `completion` never runs.
 */
COURIER_API courier_code courier_client_send_async(courier_client *client, const courier_request *request,
                                                   const courier_send_options *options, courier_completion_fn completion,
                                                   void *user_data, courier_call **call, courier_error **error);

/**
 * Cancels the send: the transfer is aborted and the completion runs with COURIER_E_CANCELLED,
 * unless the send had already finished (then it runs with the outcome). Cancelling twice, or
 * after completion, is COURIER_OK.
 */
COURIER_API courier_code courier_call_cancel(courier_call *call, courier_error **error);

/**
 * Blocks until the send's completion callback has returned. Fails with COURIER_E_WOULD_BLOCK
 * from inside a Courier callback.
 */
COURIER_API courier_code courier_call_wait(courier_call *call, courier_error **error);

/** Frees a call handle; the send goes on. NULL is allowed. */
COURIER_API courier_code courier_call_free(courier_call *call);

/* ---------------------------------------------------------------------------------------- */
/* Completions in the program's own event loop (ABI 1.1)                                     */

/*
 * A program with its own loop (poll, epoll, libuv, libevent) creates the client with
 * queue_completions = 1. The completions of its asynchronous sends then wait in a queue; the
 * client's file descriptor becomes readable while any waits, and the program runs them on its
 * own thread, where it may touch its loop's state without locks. A complete program (the tests
 * compile this text from the header and run it):
 *
 *     #include <courier.h>
 *     #include <poll.h>
 *     #include <stdio.h>
 *
 *     static void on_done(void *user_data, courier_response *response, courier_error *error)
 *     {
 *         int *pending = user_data;   // runs on the loop's thread: no lock needed
 *         int status = 0;
 *         if (error) fprintf(stderr, "%s\n", courier_error_message(error));
 *         else if (courier_response_status(response, &status, NULL) == COURIER_OK) printf("%d\n", status);
 *         courier_response_free(response);
 *         courier_error_free(error);
 *         *pending -= 1;
 *     }
 *
 *     int main(void)
 *     {
 *         courier_client_options options;
 *         courier_client_options_init(&options);
 *         options.queue_completions = 1;
 *         courier_client *client = NULL;
 *         courier_request *request = NULL;
 *         int fd = -1;
 *         int pending = 1;
 *         if (courier_client_new(&options, &client, NULL) != COURIER_OK
 *             || courier_client_completion_fd(client, &fd, NULL) != COURIER_OK
 *             || courier_request_new("GET", "http://127.0.0.1:8080/anything", &request, NULL) != COURIER_OK
 *             || courier_client_send_async(client, request, NULL, on_done, &pending, NULL, NULL) != COURIER_OK)
 *             return 1;
 *         while (pending > 0) {   // your loop, watching fd among its own descriptors
 *             struct pollfd watched = {.fd = fd, .events = POLLIN};
 *             if (poll(&watched, 1, -1) > 0 && (watched.revents & POLLIN))
 *                 courier_client_run_completions(client, NULL, NULL);   // on_done runs here
 *         }
 *         courier_request_free(request);
 *         courier_client_free(client);
 *         return 0;
 *     }
 *
 * Only the completions are queued: interceptor callbacks, on_head, on_data and on_progress
 * still run where their comments say. A queued completion runs like any callback (no blocking
 * call from inside it). courier_call_wait returns once the completion has run, so never call it
 * from the thread that runs the completions. courier_client_free runs the completions still
 * waiting on the calling thread; sends that end after it complete on the client's callback
 * threads, as without the queue.
 */

/**
 * The client's completion file descriptor (an eventfd; a pipe's read end where there is none):
 * readable while completions wait, not readable once courier_client_run_completions has taken
 * them. It belongs to the client and is closed by courier_client_free; do not read or close it.
 * Fails with COURIER_E_INVALID_ARGUMENT when the client was not created with queue_completions.
 */
COURIER_API courier_code courier_client_completion_fd(courier_client *client, int *fd, courier_error **error);

/**
 * Runs the completions waiting in the client's queue, in the order their sends ended, on the
 * calling thread; *ran (may be NULL) receives how many ran, 0 when none waited. Several
 * threads may call it at once: each completion runs exactly once. Fails with
 * COURIER_E_INVALID_ARGUMENT when the client was not created with queue_completions, and with
 * COURIER_E_WOULD_BLOCK from inside a Courier callback.
 */
COURIER_API courier_code courier_client_run_completions(courier_client *client, size_t *ran, courier_error **error);

/* ---------------------------------------------------------------------------------------- */
/* Interceptors                                                                              */

/**
 * One pass of a request through one interceptor: the request it received, the response once
 * there is one, and what the interceptor decides. Borrowed by the callback; valid only during it.
 */
typedef struct courier_exchange courier_exchange;

/** What an interceptor callback tells the chain to do next. */
typedef enum courier_action {
    /** Go on: pass the (possibly edited) request on, or return the (possibly edited) response. */
    COURIER_ACTION_CONTINUE = 0,
    /** Answer with the response given to courier_exchange_respond, skipping the rest of the chain. */
    COURIER_ACTION_RESPOND = 1,
    /** Fail the send with the code and message given to courier_exchange_fail. */
    COURIER_ACTION_FAIL = 2,
    /** From on_response only: send the (possibly edited) request through the rest of the chain again. */
    COURIER_ACTION_RETRY = 3
} courier_action;

/**
 * An interceptor callback. Any other return value than a courier_action fails the send with
 * COURIER_E_INTERCEPTOR, naming the interceptor.
 */
typedef courier_action (*courier_exchange_fn)(void *user_data, courier_exchange *exchange);

/**
 * An interceptor written in C. Give either `around`, or one or both of `on_request` and
 * `on_response`:
 *
 *  - on_request runs before the rest of the chain. It may edit the request
 *    (courier_exchange_request), answer on its own (RESPOND) or fail (FAIL).
 *  - on_response runs after the rest of the chain returned a response, with its body read into
 *    memory (up to max_body_bytes). It may edit the response (courier_exchange_response), replace
 *    it (RESPOND), fail, or RETRY (at most 8 times a send).
 *  - around wraps the rest of the chain: it calls courier_exchange_proceed, which blocks until
 *    the rest returns, as often as it likes, then returns CONTINUE with the last response, or
 *    RESPOND or FAIL.
 *
 * A callback that runs longer than the request's timeout fails the send with COURIER_E_TIMED_OUT
 * once it returns (C code cannot be interrupted).
 *
 * Threads: on_request and on_response run on the thread running the send (the caller's thread
 * for a blocking send, a callback-pool thread for an asynchronous one, a Swift task's thread
 * for a Swift caller). They cost no thread handoff and must not block for long. `around` always
 * runs on a thread that is not Swift's cooperative pool and may block.
 */
typedef struct courier_interceptor {
    /** sizeof(courier_interceptor), set by courier_interceptor_init. */
    size_t struct_size;
    /** The name used in errors and logs (copied); required. */
    const char *name;
    /** Runs before the rest of the chain; may be NULL. */
    courier_exchange_fn on_request;
    /** Runs after the rest of the chain; may be NULL. */
    courier_exchange_fn on_response;
    /** Wraps the rest of the chain; when set, on_request and on_response must be NULL. */
    courier_exchange_fn around;
    /** Passed to every callback. */
    void *user_data;
    /** Releases user_data once the interceptor is removed and no send uses it; may be NULL. */
    courier_destroy_fn destroy;
} courier_interceptor;

/** Fills `interceptor` with struct_size and NULLs. */
COURIER_API void courier_interceptor_init(courier_interceptor *interceptor);
#if !defined(COURIER_ABI_ONLY) && !defined(COURIER_NO_PROTOTYPES)
static inline void courier_interceptor_init_sized_(courier_interceptor *interceptor) {
    unsigned char *byte = (unsigned char *)interceptor;
    size_t index;
    for (index = 0; index < sizeof *interceptor; index++) byte[index] = 0;
    (courier_interceptor_init)(interceptor);
    interceptor->struct_size = sizeof *interceptor;
}
#define courier_interceptor_init(interceptor) courier_interceptor_init_sized_(interceptor)
#endif

/**
 * Appends an interceptor to the client's chain (the first added is outermost). Sends already
 * under way keep the chain they started with. C, plugin and Swift interceptors share one chain.
 * On failure nothing is registered and `destroy` is not called: `user_data` stays the caller's.
 */
COURIER_API courier_code courier_client_add_interceptor(courier_client *client, const courier_interceptor *interceptor,
                                                        courier_error **error);

/**
 * Removes the interceptors named `name` from the client; COURIER_E_NOT_FOUND when none is.
 * Their destroy callbacks run once no send uses them.
 */
COURIER_API courier_code courier_client_remove_interceptor(courier_client *client, const char *name, courier_error **error);

/**
 * Appends one of Courier's own interceptors to the client's chain, in its place among C, plugin
 * and Python interceptors (ABI 1.1). `kind` names it; `config` is a JSON object of its options
 * (NULL or "" for the defaults; every option is optional unless said otherwise, and an unknown option, one given twice,
 * or a value of the wrong type or out of range fails with COURIER_E_INVALID_ARGUMENT naming it). Every kind takes
 * "name", the name it is removed by and reported under (the kind by default).
 *
 *  - "retry": resends on a retryable status or error, with exponential backoff and jitter and a
 *    token budget shared by every send through it. Options: "max_attempts" (3, the first
 *    included), "initial_backoff_ms" (200), "max_backoff_ms" (10000), "backoff_multiplier" (2),
 *    "jitter" ("full", "equal", "none"), "statuses" ([408, 429, 500, 502, 503, 504]),
 *    "errors" (["cannot_connect", "timed_out", "invalid_response"]; also "insecure"),
 *    "methods" (retried without an Idempotency-Key: GET HEAD OPTIONS TRACE PUT DELETE),
 *    "honour_retry_after" (true), "max_retry_after_ms" (60000), "add_idempotency_key" (false),
 *    "budget" ("unlimited" or {"max_tokens": 10, "deposit_per_request": 0.2}).
 *  - "logging": one line per exchange (method, redacted URL, status, time), written with one
 *    write() per line to "fd" (2 by default; the program keeps it open) or appended to the file
 *    at "path". "level": "info" (default) or "debug" for heads and bodies too, or "notice" and
 *    above for nothing but failures; "curl_command" (false), "max_body_bytes" (4096),
 *    "redact_headers" and "redact_query" (names hidden besides Authorization, Proxy-Authorization,
 *    Cookie and Set-Cookie).
 *  - "validation": fails a response with COURIER_E_UNACCEPTABLE_STATUS or
 *    COURIER_E_UNACCEPTABLE_CONTENT_TYPE (the error carries its status). "statuses": codes and
 *    "200-299" ranges (2xx by default); "content_types": "accept" (the request's Accept header,
 *    the default), "any", or a list of MIME types with type/ wildcards.
 *  - "concurrency_limit": at most "max_requests" (64) sends in flight through it, and
 *    "max_requests_per_host" (5); "hold_until_body_read" (false) keeps a slot until the body
 *    has been read.
 *  - "digest_auth": answers a server's 401 Digest challenge (RFC 7616: SHA-256, MD5 and their
 *    -sess forms, qop=auth) by resending the request once with "user" and "password" (both
 *    required); later sends to the same origin answer the last challenge before being asked.
 *  - "cache": a private HTTP cache (RFC 9111): stores GET responses a private cache may store,
 *    answers from them while fresh, revalidates stale ones (If-None-Match, If-Modified-Since),
 *    honours the request's Cache-Control (no-cache, no-store, max-age, max-stale, min-fresh,
 *    only-if-cached, which answers 504 on a miss), stale-while-revalidate and stale-if-error,
 *    and drops what a successful POST, PUT, PATCH or DELETE changes. Every response through it
 *    carries a "Cache-Status" header (RFC 9211) saying what happened: "Courier; hit; ttl=42" or
 *    "Courier; fwd=uri-miss; fwd-status=200; stored; ttl=60". Options: "directory" (responses
 *    are kept in files there, made if missing, shared safely with other processes; absent: in
 *    memory), "max_bytes" (10 MiB in memory, 50 MiB in a directory; the least recently used go
 *    first), "max_entry_bytes" (a quarter of max_bytes; a larger response is not stored).
 *
 * `kind` and `config` are read during the call only. Like courier_client_add_interceptor it may be
 * called from any thread, and sends already under way keep the chain they started with. The
 * interceptor lives until courier_client_remove_interceptor or courier_client_free; a "logging"
 * file is closed then. COURIER_E_NOT_FOUND when `kind` is none of these, COURIER_E_INVALID_HANDLE
 * for a bad client. On failure nothing is added.
 */
COURIER_API courier_code courier_client_add_builtin(courier_client *client, const char *kind, const char *config,
                                                    courier_error **error);

/*
 * The exchange functions below work only while the callback that received `exchange` runs (from
 * any thread). Once it returns, the exchange handle and the request and response handles taken
 * from it fail with COURIER_E_INVALID_HANDLE, also for a call racing that return.
 */

/**
 * The request of this pass, editable in on_request, in on_response (before a RETRY) and in
 * around (before courier_exchange_proceed). Borrowed: do not free it.
 */
COURIER_API courier_code courier_exchange_request(courier_exchange *exchange, courier_request **request,
                                                  courier_error **error);

/**
 * The response of this pass, editable; COURIER_E_NOT_FOUND before there is one (in on_request,
 * or in around before courier_exchange_proceed succeeded). Borrowed: do not free it.
 */
COURIER_API courier_code courier_exchange_response(courier_exchange *exchange, courier_response **response,
                                                   courier_error **error);

/**
 * Sets the response to answer with when the callback returns COURIER_ACTION_RESPOND. Takes
 * ownership of `response` on success: do not free it afterwards, even if the callback then
 * returns another action. The exchange's own response (from courier_exchange_response) may be
 * passed too; it stays borrowed.
 */
COURIER_API courier_code courier_exchange_respond(courier_exchange *exchange, courier_response *response,
                                                  courier_error **error);

/**
 * Sets the error to fail with when the callback returns COURIER_ACTION_FAIL. `message` is copied.
 * When the exchange has a response (on_response, or around after proceed), the error carries it:
 * courier_error_status gives its status.
 */
COURIER_API courier_code courier_exchange_fail(courier_exchange *exchange, courier_code code, const char *message,
                                               courier_error **error);

/**
 * From `around` only: sends the current request through the rest of the chain and blocks until
 * it returns. On success the response is available from courier_exchange_response (replacing
 * any earlier one); on failure the error describes why, and the callback may proceed again or
 * return FAIL.
 */
COURIER_API courier_code courier_exchange_proceed(courier_exchange *exchange, courier_error **error);

/**
 * Which pass of this send is under way, from 1. Each time the request travels down again (a
 * retry, an auth refresh) the stages it passes see the next number; an interceptor that asks
 * for RETRY from on_response sees its own passes counted: 1, then 2 after its first retry.
 */
COURIER_API courier_code courier_exchange_attempt(const courier_exchange *exchange, int *attempt, courier_error **error);

/** The identifier of this send, shared by all its passes. Borrowed for the callback's duration. */
COURIER_API courier_code courier_exchange_request_id(const courier_exchange *exchange, const char **request_id,
                                                     courier_error **error);

/* ---------------------------------------------------------------------------------------- */
/* Plugins                                                                                   */

/** A loaded plugin: a shared object that registered interceptors (see courier_plugin.h). */
typedef struct courier_plugin courier_plugin;

/**
 * Loads the plugin at `path` and lets it register its interceptors on `client`.
 *
 * `path` must contain a slash ("./signer.so", "/usr/lib/courier/signer.so"): dlopen would look a
 * bare name up in the system's library path, not the current directory, so a bare name is refused
 * with COURIER_E_PLUGIN rather than load a file other than the one meant. The library is opened with dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE). Its
 * courier_plugin_info symbol is read and a plugin built for another ABI major version is refused
 * before any plugin function runs; then courier_plugin_init runs with the host function table,
 * a registrar and `config` (may be NULL; passed as it is). Fails with COURIER_E_PLUGIN, saying
 * which: the file is missing or not a shared object, a symbol is missing, the ABI major differs,
 * or init reported failure (its message included). On failure nothing stays registered.
 *
 * When `plugin` is not NULL it receives a handle for courier_plugin_unload and readers; free it
 * with courier_plugin_free.
 */
COURIER_API courier_code courier_plugin_load(courier_client *client, const char *path, const char *config,
                                             courier_plugin **plugin, courier_error **error);

/**
 * Removes the plugin's interceptors from its client. The shared object stays mapped (Courier
 * never calls dlclose: code that a send may still run must not disappear).
 */
COURIER_API courier_code courier_plugin_unload(courier_plugin *plugin, courier_error **error);

/** The plugin's name from its info. Borrowed until the handle is freed. */
COURIER_API courier_code courier_plugin_name(const courier_plugin *plugin, const char **name, courier_error **error);

/** The plugin's version from its info. Borrowed until the handle is freed. */
COURIER_API courier_code courier_plugin_version(const courier_plugin *plugin, const char **version, courier_error **error);

/** Frees the handle; the plugin stays loaded and registered. NULL is allowed. */
COURIER_API courier_code courier_plugin_free(courier_plugin *plugin);

#ifdef __cplusplus
}
#endif

#endif /* COURIER_H */
