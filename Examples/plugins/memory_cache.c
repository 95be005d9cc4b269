/*
 * memory_cache: a Courier plugin that answers repeated GETs from memory.
 *
 * on_response keeps every 200 response to a GET (status, header lines and body) under its
 * request URL; on_request answers a GET whose URL is kept with a copy of that response plus
 * `X-Cache: HIT`, without going to the network (RESPOND). Responses from the network pass
 * through unchanged. The cache holds at most N entries, N being the config string (default 64,
 * 1 to 100000), and drops the least recently used one when full. It ignores Cache-Control:
 * it is an example of short-circuiting, not an HTTP cache.
 *
 * Sends run on many threads at once, so one pthread mutex guards the table.
 *
 * Build: cc -std=c99 -shared -fPIC -pthread -I../../include -o memory_cache.so memory_cache.c
 */
#define _POSIX_C_SOURCE 200809L
#include <courier_plugin.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CAPACITY 64
#define MAX_CAPACITY 100000

static const courier_host_api *host;

/* One header line, both strings owned. */
typedef struct cache_header {
    char *name;
    char *value;
} cache_header;

/* One kept response. */
typedef struct cache_entry {
    char *url;
    int status;
    size_t header_count;
    cache_header *headers;
    void *body;
    size_t body_length;
    unsigned long long last_used;
} cache_entry;

/* The cache: owned by the interceptor, freed by its destroy callback. */
typedef struct cache {
    pthread_mutex_t lock;
    size_t capacity;
    size_t count;
    unsigned long long clock;
    cache_entry *entries;
} cache;

static char *copy_string(const char *text)
{
    size_t length = strlen(text) + 1;
    char *copy = malloc(length);
    if (copy != NULL) {
        memcpy(copy, text, length);
    }
    return copy;
}

static void entry_clear(cache_entry *entry)
{
    free(entry->url);
    for (size_t i = 0; i < entry->header_count; i++) {
        free(entry->headers[i].name);
        free(entry->headers[i].value);
    }
    free(entry->headers);
    free(entry->body);
    memset(entry, 0, sizeof *entry);
}

static void cache_destroy(void *user_data)
{
    cache *table = user_data;
    for (size_t i = 0; i < table->count; i++) {
        entry_clear(&table->entries[i]);
    }
    free(table->entries);
    pthread_mutex_destroy(&table->lock);
    free(table);
}

/* The index of `url` in the table, or -1. Call with the lock held. */
static long cache_find(const cache *table, const char *url)
{
    for (size_t i = 0; i < table->count; i++) {
        if (strcmp(table->entries[i].url, url) == 0) {
            return (long)i;
        }
    }
    return -1;
}

/* Reads the method and URL of the exchange's request; 0 when both were read and it is a GET. */
static int cacheable_request(courier_exchange *exchange, const char **url)
{
    courier_request *request = NULL;
    const char *method = NULL;
    if (host->exchange_request(exchange, &request, NULL) != COURIER_OK
        || host->request_method(request, &method, NULL) != COURIER_OK
        || host->request_url(request, url, NULL) != COURIER_OK) {
        return -1;
    }
    return strcmp(method, "GET") == 0 ? 0 : -1;
}

/* Builds a response from an entry; NULL when the host refused a piece. Call with the lock held. */
static courier_response *entry_response(const cache_entry *entry)
{
    courier_response *response = NULL;
    if (host->response_new(entry->status, &response, NULL) != COURIER_OK) {
        return NULL;
    }
    int failed = 0;
    for (size_t i = 0; i < entry->header_count && !failed; i++) {
        failed = host->response_add_header(response, entry->headers[i].name, entry->headers[i].value, NULL)
            != COURIER_OK;
    }
    failed = failed || host->response_set_header(response, "X-Cache", "HIT", NULL) != COURIER_OK
        || host->response_set_body(response, entry->body, entry->body_length, NULL) != COURIER_OK;
    if (failed) {
        host->response_free(response);
        return NULL;
    }
    return response;
}

static courier_action answer_from_cache(void *user_data, courier_exchange *exchange)
{
    cache *table = user_data;
    const char *url = NULL;
    if (cacheable_request(exchange, &url) != 0) {
        return COURIER_ACTION_CONTINUE;
    }
    courier_response *response = NULL;
    pthread_mutex_lock(&table->lock);
    long index = cache_find(table, url);
    if (index >= 0) {
        table->entries[index].last_used = ++table->clock;
        response = entry_response(&table->entries[index]);
    }
    pthread_mutex_unlock(&table->lock);
    if (response == NULL) {
        return COURIER_ACTION_CONTINUE;
    }
    if (host->exchange_respond(exchange, response, NULL) != COURIER_OK) {
        host->response_free(response);
        return COURIER_ACTION_CONTINUE;
    }
    return COURIER_ACTION_RESPOND;
}

/* Copies the response into `entry`; 0 on success, -1 (entry cleared) when memory or the host failed. */
static int entry_fill(cache_entry *entry, const char *url, int status, const courier_response *response)
{
    size_t count = 0;
    const void *body = NULL;
    size_t body_length = 0;
    memset(entry, 0, sizeof *entry);
    entry->status = status;
    entry->url = copy_string(url);
    if (entry->url == NULL || host->response_header_count(response, &count, NULL) != COURIER_OK
        || host->response_body(response, &body, &body_length, NULL) != COURIER_OK) {
        entry_clear(entry);
        return -1;
    }
    entry->headers = calloc(count ? count : 1, sizeof *entry->headers);
    entry->body = malloc(body_length ? body_length : 1);
    if (entry->headers == NULL || entry->body == NULL) {
        entry_clear(entry);
        return -1;
    }
    memcpy(entry->body, body, body_length);
    entry->body_length = body_length;
    for (size_t i = 0; i < count; i++) {
        const char *name = NULL;
        const char *value = NULL;
        if (host->response_header_at(response, i, &name, &value, NULL) != COURIER_OK) {
            entry_clear(entry);
            return -1;
        }
        entry->headers[i].name = copy_string(name);
        entry->headers[i].value = copy_string(value);
        entry->header_count = i + 1;
        if (entry->headers[i].name == NULL || entry->headers[i].value == NULL) {
            entry_clear(entry);
            return -1;
        }
    }
    return 0;
}

static courier_action keep_response(void *user_data, courier_exchange *exchange)
{
    cache *table = user_data;
    const char *url = NULL;
    courier_response *response = NULL;
    int status = 0;
    const char *cached = NULL;
    if (cacheable_request(exchange, &url) != 0 || host->exchange_response(exchange, &response, NULL) != COURIER_OK
        || host->response_status(response, &status, NULL) != COURIER_OK || status != 200
        || host->response_header(response, "X-Cache", &cached, NULL) == COURIER_OK) {
        return COURIER_ACTION_CONTINUE;
    }
    cache_entry fresh;
    if (entry_fill(&fresh, url, status, response) != 0) {
        return COURIER_ACTION_CONTINUE;
    }
    pthread_mutex_lock(&table->lock);
    fresh.last_used = ++table->clock;
    long index = cache_find(table, url);
    if (index < 0 && table->count < table->capacity) {
        index = (long)table->count++;
    } else if (index < 0) {
        index = 0;
        for (size_t i = 1; i < table->count; i++) {
            if (table->entries[i].last_used < table->entries[index].last_used) {
                index = (long)i;
            }
        }
        entry_clear(&table->entries[index]);
    } else {
        entry_clear(&table->entries[index]);
    }
    table->entries[index] = fresh;
    pthread_mutex_unlock(&table->lock);
    return COURIER_ACTION_CONTINUE;
}

COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
    sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, COURIER_ABI_MINOR, "memory-cache", "1.0.0",
};

COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                                              const char *config, char *errbuf, size_t errbuf_len)
{
    long capacity = DEFAULT_CAPACITY;
    if (config != NULL && config[0] != '\0') {
        char *end = NULL;
        capacity = strtol(config, &end, 10);
        if (*end != '\0' || capacity < 1 || capacity > MAX_CAPACITY) {
            snprintf(errbuf, errbuf_len, "memory-cache: config must be the entry count, 1 to %d, not \"%s\"",
                     MAX_CAPACITY, config);
            return 1;
        }
    }
    cache *table = calloc(1, sizeof *table);
    cache_entry *entries = calloc((size_t)capacity, sizeof *entries);
    if (table == NULL || entries == NULL || pthread_mutex_init(&table->lock, NULL) != 0) {
        free(table);
        free(entries);
        snprintf(errbuf, errbuf_len, "memory-cache: out of memory");
        return 1;
    }
    table->capacity = (size_t)capacity;
    table->entries = entries;
    host = api;

    courier_interceptor interceptor;
    api->interceptor_init(&interceptor);
    interceptor.name = "memory-cache";
    interceptor.on_request = answer_from_cache;
    interceptor.on_response = keep_response;
    interceptor.user_data = table;
    interceptor.destroy = cache_destroy;
    courier_error *error = NULL;
    if (api->register_interceptor(registrar, &interceptor, &error) != COURIER_OK) {
        snprintf(errbuf, errbuf_len, "memory-cache: %s", api->error_message(error));
        api->error_free(error);
        cache_destroy(table);
        return 1;
    }
    return 0;
}
