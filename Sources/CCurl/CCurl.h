/*
 * Typed wrappers over libcurl's variadic calls, for Swift, which cannot call C varargs.
 *
 * Each wrapper forwards to curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt with one
 * argument type, so the type curl reads from the va_list is the type the caller passed.
 * Constants defined as compound macros (which Swift does not import) are re-exported here.
 */
#ifndef COURIER_CCURL_H
#define COURIER_CCURL_H

#include <curl/curl.h>
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <poll.h>

static const long ccurl_global_all = CURL_GLOBAL_ALL;
static const int ccurl_pause_recv = CURLPAUSE_RECV;
static const int ccurl_pause_send = CURLPAUSE_SEND;
static const int ccurl_pause_all = CURLPAUSE_ALL;
static const int ccurl_pause_cont = CURLPAUSE_CONT;
static const size_t ccurl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
static const size_t ccurl_readfunc_pause = CURL_READFUNC_PAUSE;
static const size_t ccurl_readfunc_abort = CURL_READFUNC_ABORT;
static const long ccurl_error_size = CURL_ERROR_SIZE;
static const curl_socket_t ccurl_socket_timeout = CURL_SOCKET_TIMEOUT;
static const int ccurl_sockopt_ok = CURL_SOCKOPT_OK;

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *user_data);
typedef int (*ccurl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *user_data, void *socket_data);
typedef int (*ccurl_timer_callback)(CURLM *multi, long timeout_ms, void *user_data);
typedef int (*ccurl_xferinfo_callback)(void *user_data, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

/* The TLS library's session of a transfer whose TLS backend is OpenSSL (an `SSL *`), NULL for
 * another backend or no TLS: libcurl does not report the negotiated TLS version, OpenSSL's
 * SSL_get_version does. Valid while the transfer holds its connection. */
static inline void *ccurl_openssl_session(CURL *handle) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL) return NULL;
    return info->backend == CURLSSLBACKEND_OPENSSL ? info->internals : NULL;
}

/* The running libcurl's version as 0xXXYYZZ; CURLVERSION_NOW is a macro Swift cannot import. */
static inline unsigned int ccurl_version_num(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version_num : 0;
}

static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/* The string is copied by libcurl (CURLOPT_POSTFIELDS excepted, which this project does not use). */
static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

/* Tell the I/O thread which sockets are connections (created, then closed through this callback),
 * so it may leave them registered with epoll between transfers. */
static inline CURLcode ccurl_easy_setopt_sockopt_callback(CURL *handle, curl_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

static inline CURLcode ccurl_easy_setopt_closesocket_callback(CURL *handle, curl_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, (char **)value);
}

static inline CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, (char **)value);
}

/* The timing infos newer than some libcurl headers: CURLINFO_QUEUE_TIME_T (8.6) and
 * CURLINFO_POSTTRANSFER_TIME_T (8.10), or CURLINFO_NONE when the headers predate them. */
#if LIBCURL_VERSION_NUM >= 0x080600
static const CURLINFO ccurl_info_queue_time = CURLINFO_QUEUE_TIME_T;
#else
static const CURLINFO ccurl_info_queue_time = CURLINFO_NONE;
#endif
#if LIBCURL_VERSION_NUM >= 0x080a00
static const CURLINFO ccurl_info_posttransfer_time = CURLINFO_POSTTRANSFER_TIME_T;
#else
static const CURLINFO ccurl_info_posttransfer_time = CURLINFO_NONE;
#endif

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ccurl_multi_setopt_socket_callback(CURLM *multi, ccurl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

static inline CURLMcode ccurl_multi_setopt_timer_callback(CURLM *multi, ccurl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

/*
 * How many CPUs this process may run on (its affinity mask, as `taskset` sets it), for the I/O
 * thread's choice to busy-wait: spinning only pays when the thread it waits for has a core of its
 * own. sched_getaffinity and CPU_COUNT need _GNU_SOURCE, which this shared header must not set,
 * so this asks the kernel directly. 0 when it cannot tell.
 */
static inline int ccurl_usable_cpu_count(void) {
#if defined(__linux__) && defined(SYS_sched_getaffinity)
    unsigned long mask[16] = {0};
    long copied = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (copied <= 0) {
        return 0;
    }
    int count = 0;
    for (long i = 0; i < copied / (long)sizeof mask[0]; i++) {
        count += __builtin_popcountl(mask[i]);
    }
    return count;
#else
    return 0;
#endif
}

#endif
