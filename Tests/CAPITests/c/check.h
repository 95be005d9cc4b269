/*
 * check.h: the assertions of the C tests. Each failed check prints where and why (with the
 * Courier error message when there is one) and counts; check_finish prints the tally and
 * gives the exit status, so the Swift driver sees both. Header-only: each test is one file.
 */
#ifndef COURIER_TEST_CHECK_H
#define COURIER_TEST_CHECK_H

#include <courier.h>

#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

/* Counted atomically: checks also run in completion callbacks and interceptors, on the library's
 * threads, and a lost count of a failure would hide it (ThreadSanitizer found the plain ++). */
static int check_passed;
static int check_failed;

static void check_count(int ok)
{
    __atomic_fetch_add(ok ? &check_passed : &check_failed, 1, __ATOMIC_RELAXED);
}

static void check_report(int ok, const char *file, int line, const char *what)
{
    check_count(ok);
    if (!ok) fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

/* Compares two integers, printing both when they differ. */
static inline void check_int_at(long long got, long long want, const char *file, int line, const char *expression)
{
    check_count(got == want);
    if (got != want) fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", file, line, expression, got, want);
}

/* Compares a courier_code with the expected one; frees the error the call produced, if any. */
static int check_code_at(courier_code got, courier_code want, courier_error **error, const char *file, int line,
                         const char *expression)
{
    int ok = got == want;
    check_count(ok);
    if (!ok) {
        fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d (%s)%s%s\n", file, line, expression, (int)got,
                courier_strerror(got), (int)want, courier_strerror(want), error && *error ? ": " : "",
                error && *error ? courier_error_message(*error) : "");
    }
    if (error && *error) {
        courier_error_free(*error);
        *error = NULL;
    }
    return ok;
}

#define CHECK(condition) check_report((condition) != 0, __FILE__, __LINE__, #condition)
#define CHECK_CODE(want, call) check_code_at((call), (want), &error, __FILE__, __LINE__, #call)
#define CHECK_OK(call) CHECK_CODE(COURIER_OK, call)
#define CHECK_INT(got, want) check_int_at((long long)(got), (long long)(want), __FILE__, __LINE__, #got)
#define CHECK_STR(got, want) \
    check_report((got) != NULL && strcmp((got), (want)) == 0, __FILE__, __LINE__, #got " == " #want)
#define CHECK_CONTAINS(haystack, needle) \
    check_report((haystack) != NULL && strstr((haystack), (needle)) != NULL, __FILE__, __LINE__, \
                 #haystack " contains " #needle)

/* Prints the tally; the exit status: 0 when every check passed. */
static int check_finish(const char *name)
{
    int passed = __atomic_load_n(&check_passed, __ATOMIC_RELAXED);
    int failed = __atomic_load_n(&check_failed, __ATOMIC_RELAXED);
    printf("%s: %d checks ok, %d failed\n", name, passed, failed);
    return failed == 0 ? 0 : 1;
}

/* Sleeps `milliseconds` (usleep is not in C99 with POSIX 2008). */
static inline void sleep_ms(long milliseconds)
{
    struct timespec pause = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* Builds "<base><path>" into `buffer`. */
static inline const char *url_at(char *buffer, size_t size, const char *base, const char *path)
{
    snprintf(buffer, size, "%s%s", base, path);
    return buffer;
}

#endif /* COURIER_TEST_CHECK_H */
