/*
 * courier_get: sends one request with Courier's C API and prints the response.
 *
 *   courier_get [-X METHOD] [-H 'Name: value']... [-p plugin.so[=config]]... URL
 *
 * Prints the status line, the header lines and the body. Exits 0 when a response arrived
 * (whatever its status), 1 when the request failed, 2 on bad arguments.
 *
 * Build: make (see the Makefile, which asks pkg-config for the flags).
 */
#include <courier.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTIONS 32

static int usage(void)
{
    fprintf(stderr, "usage: courier_get [-X METHOD] [-H 'Name: value']... [-p plugin.so[=config]]... URL\n");
    return 2;
}

/* Splits "Name: value" at its first colon and adds it to the request. */
static courier_code add_header_line(courier_request *request, const char *line, courier_error **error)
{
    char name[256];
    const char *colon = strchr(line, ':');
    size_t length = colon ? (size_t)(colon - line) : 0;
    if (colon == NULL || length == 0 || length >= sizeof name) {
        fprintf(stderr, "courier_get: a header is 'Name: value', not '%s'\n", line);
        return COURIER_E_INVALID_ARGUMENT;
    }
    memcpy(name, line, length);
    name[length] = '\0';
    const char *value = colon + 1;
    while (*value == ' ' || *value == '\t') {
        value++;
    }
    return courier_request_add_header(request, name, value, error);
}

/* Loads "path.so" or "path.so=config" into the client. */
static courier_code load_plugin(courier_client *client, const char *spec, courier_error **error)
{
    char path[4096];
    const char *equals = strchr(spec, '=');
    size_t length = equals ? (size_t)(equals - spec) : strlen(spec);
    if (length == 0 || length >= sizeof path) {
        fprintf(stderr, "courier_get: a plugin is 'path.so' or 'path.so=config', not '%s'\n", spec);
        return COURIER_E_INVALID_ARGUMENT;
    }
    memcpy(path, spec, length);
    path[length] = '\0';
    return courier_plugin_load(client, path, equals ? equals + 1 : NULL, NULL, error);
}

static void print_response(const courier_response *response)
{
    int status = 0;
    size_t count = 0;
    const void *body = NULL;
    size_t length = 0;
    courier_response_status(response, &status, NULL);
    printf("HTTP %d\n", status);
    courier_response_header_count(response, &count, NULL);
    for (size_t i = 0; i < count; i++) {
        const char *name = NULL;
        const char *value = NULL;
        if (courier_response_header_at(response, i, &name, &value, NULL) == COURIER_OK) {
            printf("%s: %s\n", name, value);
        }
    }
    printf("\n");
    if (courier_response_body(response, &body, &length, NULL) == COURIER_OK && length > 0) {
        fwrite(body, 1, length, stdout);
        if (((const char *)body)[length - 1] != '\n') {
            printf("\n");
        }
    }
}

int main(int argc, char **argv)
{
    const char *method = "GET";
    const char *headers[MAX_OPTIONS];
    const char *plugins[MAX_OPTIONS];
    int header_count = 0;
    int plugin_count = 0;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        const char *flag = argv[arg];
        if (arg + 1 >= argc || flag[1] == '\0' || flag[2] != '\0') {
            return usage();
        }
        const char *value = argv[++arg];
        if (flag[1] == 'X') {
            method = value;
        } else if (flag[1] == 'H' && header_count < MAX_OPTIONS) {
            headers[header_count++] = value;
        } else if (flag[1] == 'p' && plugin_count < MAX_OPTIONS) {
            plugins[plugin_count++] = value;
        } else {
            return usage();
        }
    }
    if (arg != argc - 1) {
        return usage();
    }

    courier_client *client = NULL;
    courier_request *request = NULL;
    courier_response *response = NULL;
    courier_error *error = NULL;
    courier_code code = courier_client_new(NULL, &client, &error);
    for (int i = 0; code == COURIER_OK && i < plugin_count; i++) {
        code = load_plugin(client, plugins[i], &error);
    }
    if (code == COURIER_OK) {
        code = courier_request_new(method, argv[arg], &request, &error);
    }
    for (int i = 0; code == COURIER_OK && i < header_count; i++) {
        code = add_header_line(request, headers[i], &error);
    }
    if (code == COURIER_OK) {
        code = courier_client_send(client, request, &response, &error);
    }
    if (code == COURIER_OK) {
        print_response(response);
    } else if (error == NULL) {
        fprintf(stderr, "courier_get: %s\n", courier_strerror(code));
    } else {
        const char *stage = courier_error_stage(error);
        fprintf(stderr, "courier_get: %s (%s%s%s)\n", courier_error_message(error),
                courier_strerror(courier_error_code(error)), stage ? ", in " : "", stage ? stage : "");
    }
    courier_error_free(error);
    courier_response_free(response);
    courier_request_free(request);
    courier_client_free(client);
    return code == COURIER_OK ? 0 : 1;
}
