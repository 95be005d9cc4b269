/*
 * Counts the allocations of the process it is preloaded into, for the benchmarks' "mallocs per
 * request" column. Every client row runs with it (LD_PRELOAD), so each pays the same few
 * nanoseconds per allocation; a client reads the count around its measured phase through
 * bench_malloc_count() (looked up with dlsym, so a client without the preload still runs).
 *
 * It forwards to glibc's __libc_* entry points instead of dlsym(RTLD_NEXT): dlsym itself
 * allocates, which would recurse before the forwarders are known.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -shared -fPIC -o libmalloc_count.so malloc_count.c
 */
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_ulong allocations;

/* Allocations so far (malloc, calloc, realloc, and the aligned forms). */
unsigned long bench_malloc_count(void)
{
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

static void count_one(void)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size)
{
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size)
{
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer)
{
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size)
{
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size)
{
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return 22; /* EINVAL */
    }
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return 12; /* ENOMEM */
    }
    *result = pointer;
    return 0;
}
