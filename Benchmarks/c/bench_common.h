/*
 * What every C client of the benchmarks shares: the clock, the loopback check, and the
 * measurement of a phase (wall time, CPU time of the whole process, allocations when
 * libmalloc_count.so is preloaded), printed as the RESULT line run.sh collects:
 *
 *   RESULT scenario=NAME requests=N rps=R cpu_us=C mallocs=M per_host=H interceptors=I
 *
 * cpu_us and mallocs are per request; mallocs is -1 without the preload.
 *
 * Scale mode (BENCH_SCALE=1, the in-flight ladder of issue 48): a client runs a warm-up cycle and
 * a measured cycle, each on a client of its own, and takes three snapshots of the process (heap in
 * use, open descriptors, resident memory: before the measured cycle, at its deadline with every
 * request still in flight, after it freed its client), and records every measured request's
 * latency. The RESULT line then adds
 *
 *   p50_ms=MS p99_ms=MS heap_before=N heap_during=N heap_after=N fds_before=N fds_during=N
 *   fds_after=N rss_kib_before=N rss_kib_during=N rss_kib_after=N
 */
#ifndef COURIER_BENCH_COMMON_H
#define COURIER_BENCH_COMMON_H

#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether url is on the loopback: load runs never leave the machine. */
static inline int bench_is_loopback(const char *url)
{
    static const char *const prefixes[] = {"http://127.0.0.1:", "http://localhost:", "https://127.0.0.1:",
                                           "https://localhost:"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (strncmp(url, prefixes[i], strlen(prefixes[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The process's state at the start of a measured phase. */
typedef struct bench_phase {
    double wall;
    double cpu;
    long mallocs;
} bench_phase;

static inline double bench_cpu_seconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
         + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* Allocations so far, or -1 when libmalloc_count.so is not preloaded. */
static inline long bench_mallocs(void)
{
    unsigned long (*count)(void) = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "bench_malloc_count");
    return count == NULL ? -1 : (long)count();
}

static inline bench_phase bench_phase_start(void)
{
    bench_phase phase = {bench_now(), bench_cpu_seconds(), bench_mallocs()};
    return phase;
}

/* What a measured phase did: `done` requests in `elapsed` seconds of wall time and `cpu` of CPU. */
typedef struct bench_totals {
    long done;
    double elapsed;
    double cpu;
    double per_request_mallocs;
} bench_totals;

/* Ends the phase `phase` started, after `done` requests (scale mode ends it before freeing the
 * client, and prints later). */
static inline bench_totals bench_phase_end(bench_phase phase, long done)
{
    bench_totals totals;
    totals.done = done;
    totals.elapsed = bench_now() - phase.wall;
    totals.cpu = bench_cpu_seconds() - phase.cpu;
    long mallocs = bench_mallocs();
    totals.per_request_mallocs = phase.mallocs < 0 || mallocs < 0 ? -1
                               : (double)(mallocs - phase.mallocs) / (double)done;
    return totals;
}

/* Prints the human line and the RESULT line, `extra` (keys with a leading space, or "") at its end. */
static inline void bench_print(const char *scenario, bench_totals totals, long per_host, long interceptors,
                               const char *extra)
{
    long done = totals.done;
    long rate = totals.elapsed > 0 ? (long)((double)done / totals.elapsed + 0.5) : 0;
    printf("%s: %ld requests in %.3f s, requests/s: %ld\n", scenario, done, totals.elapsed, rate);
    printf("RESULT scenario=%s requests=%ld rps=%ld cpu_us=%.1f mallocs=%.1f per_host=%ld interceptors=%ld "
           "ns_per_request=%.0f%s\n",
           scenario, done, rate, totals.cpu * 1e6 / (double)done, totals.per_request_mallocs, per_host, interceptors,
           totals.elapsed * 1e9 / (double)done, extra);
}

/* Prints the human line and the RESULT line for `done` requests since `phase` started. */
static inline void bench_report(const char *scenario, bench_phase phase, long done, long per_host, long interceptors)
{
    bench_print(scenario, bench_phase_end(phase, done), per_host, interceptors, "");
}

/* --- scale mode ---------------------------------------------------------------------------- */

/* Whether BENCH_SCALE=1 asks for the two cycles and the extra keys. */
static inline int bench_scale_enabled(void)
{
    const char *value = getenv("BENCH_SCALE");
    return value != NULL && strcmp(value, "1") == 0;
}

/* The process at one moment: malloc's bytes in use (every arena, mmapped blocks included), open
 * descriptors, resident memory. */
typedef struct bench_snapshot {
    long heap;
    long fds;
    long rss_kib;
} bench_snapshot;

/* Open descriptors, not counting the one that lists them; -1 when /proc cannot be read. */
static inline long bench_count_fds(void)
{
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) {
        return -1;
    }
    long count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] != '.') {
            count++;
        }
    }
    closedir(dir);
    return count - 1;
}

/* VmRSS in KiB, read without stdio (whose buffer would be an allocation of its own); -1 if unknown. */
static inline long bench_rss_kib(void)
{
    char status[8192];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t length = read(fd, status, sizeof status - 1);
    close(fd);
    if (length <= 0) {
        return -1;
    }
    status[length] = 0;
    const char *line = strstr(status, "\nVmRSS:");
    return line == NULL ? -1 : strtol(line + strlen("\nVmRSS:"), NULL, 10);
}

/* The heap first: counting descriptors allocates (opendir) and frees again. */
static inline bench_snapshot bench_snapshot_take(void)
{
    struct mallinfo2 info = mallinfo2();
    bench_snapshot snapshot;
    snapshot.heap = (long)(info.uordblks + info.hblkhd);
    snapshot.fds = bench_count_fds();
    snapshot.rss_kib = bench_rss_kib();
    return snapshot;
}

/* Every measured request's latency, in seconds, in the order they completed. */
typedef struct bench_latencies {
    double *samples;
    size_t count;
    size_t capacity;
} bench_latencies;

/* The most samples reserved up front (32 MiB); a longer run grows the array as it goes. */
#define BENCH_LATENCY_RESERVE (1L << 22)

/* Reserves room for `expected` samples (at most BENCH_LATENCY_RESERVE) and touches it, before the
 * "before" snapshot: the array is then the same in all three snapshots, heap and resident alike,
 * and the instrument's own memory drops out of the differences. Returns -1 when out of memory. */
static inline int bench_latencies_reserve(bench_latencies *latencies, long expected)
{
    size_t capacity = expected < 1 ? 1 : expected > BENCH_LATENCY_RESERVE ? (size_t)BENCH_LATENCY_RESERVE
                                                                            : (size_t)expected;
    latencies->samples = malloc(capacity * sizeof *latencies->samples);
    if (latencies->samples == NULL) {
        return -1;
    }
    memset(latencies->samples, 0, capacity * sizeof *latencies->samples);
    latencies->count = 0;
    latencies->capacity = capacity;
    return 0;
}

/* Records one latency; returns -1 when out of memory. */
static inline int bench_latencies_add(bench_latencies *latencies, double seconds)
{
    if (latencies->count == latencies->capacity) {
        size_t capacity = latencies->capacity * 2;
        double *samples = realloc(latencies->samples, capacity * sizeof *samples);
        if (samples == NULL) {
            return -1;
        }
        latencies->samples = samples;
        latencies->capacity = capacity;
    }
    latencies->samples[latencies->count++] = seconds;
    return 0;
}

static inline void bench_latencies_free(bench_latencies *latencies)
{
    free(latencies->samples);
    latencies->samples = NULL;
    latencies->count = latencies->capacity = 0;
}

static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The nearest-rank percentile of sorted samples, in milliseconds: the ceil(percent/100 * n)-th. */
static inline double bench_percentile_ms(const double *sorted, size_t count, long percent)
{
    if (count == 0) {
        return 0;
    }
    size_t rank = ((size_t)percent * count + 99) / 100;
    return sorted[rank < 1 ? 0 : rank - 1] * 1e3;
}

/* What scale mode measured besides the phase's totals. */
typedef struct bench_scale {
    bench_latencies latencies;
    bench_snapshot before;
    bench_snapshot during;
    bench_snapshot after;
} bench_scale;

/* Prints the two lines with scale mode's keys added (sorts the latencies). */
static inline void bench_report_scale(const char *scenario, bench_totals totals, long per_host, long interceptors,
                                      bench_scale *scale)
{
    bench_latencies *latencies = &scale->latencies;
    qsort(latencies->samples, latencies->count, sizeof *latencies->samples, bench_compare_doubles);
    char extra[512];
    snprintf(extra, sizeof extra,
             " p50_ms=%.3f p99_ms=%.3f heap_before=%ld heap_during=%ld heap_after=%ld fds_before=%ld fds_during=%ld"
             " fds_after=%ld rss_kib_before=%ld rss_kib_during=%ld rss_kib_after=%ld",
             bench_percentile_ms(latencies->samples, latencies->count, 50),
             bench_percentile_ms(latencies->samples, latencies->count, 99), scale->before.heap, scale->during.heap,
             scale->after.heap, scale->before.fds, scale->during.fds, scale->after.fds, scale->before.rss_kib,
             scale->during.rss_kib, scale->after.rss_kib);
    bench_print(scenario, totals, per_host, interceptors, extra);
}

#endif
