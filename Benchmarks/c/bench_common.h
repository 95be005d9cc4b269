/*
 * What every C client of the benchmarks shares: the clock, the loopback check, and the
 * measurement of a phase (wall time, CPU time of the whole process, allocations when
 * libmalloc_count.so is preloaded), printed as the RESULT line run.sh collects:
 *
 *   RESULT scenario=NAME requests=N rps=R cpu_us=C mallocs=M per_host=H interceptors=I
 *
 * cpu_us and mallocs are per request; mallocs is -1 without the preload.
 */
#ifndef COURIER_BENCH_COMMON_H
#define COURIER_BENCH_COMMON_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

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

/* Prints the human line and the RESULT line for `done` requests since `phase` started. */
static inline void bench_report(const char *scenario, bench_phase phase, long done, long per_host, long interceptors)
{
    double elapsed = bench_now() - phase.wall;
    double cpu = bench_cpu_seconds() - phase.cpu;
    long mallocs = bench_mallocs();
    double per_request_mallocs = phase.mallocs < 0 || mallocs < 0 ? -1 : (double)(mallocs - phase.mallocs) / (double)done;
    long rate = elapsed > 0 ? (long)((double)done / elapsed + 0.5) : 0;
    printf("%s: %ld requests in %.3f s, requests/s: %ld\n", scenario, done, elapsed, rate);
    printf("RESULT scenario=%s requests=%ld rps=%ld cpu_us=%.1f mallocs=%.1f per_host=%ld interceptors=%ld "
           "ns_per_request=%.0f\n",
           scenario, done, rate, cpu * 1e6 / (double)done, per_request_mallocs, per_host, interceptors,
           elapsed * 1e9 / (double)done);
}

#endif
