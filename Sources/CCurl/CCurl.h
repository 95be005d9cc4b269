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

static const long ccurl_global_all = CURL_GLOBAL_ALL;
static const int ccurl_pause_recv = CURLPAUSE_RECV;
static const int ccurl_pause_send = CURLPAUSE_SEND;
static const int ccurl_pause_all = CURLPAUSE_ALL;
static const int ccurl_pause_cont = CURLPAUSE_CONT;
static const size_t ccurl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
static const size_t ccurl_readfunc_pause = CURL_READFUNC_PAUSE;
static const size_t ccurl_readfunc_abort = CURL_READFUNC_ABORT;
static const long ccurl_error_size = CURL_ERROR_SIZE;

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *user_data);
typedef int (*ccurl_xferinfo_callback)(void *user_data, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

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

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
