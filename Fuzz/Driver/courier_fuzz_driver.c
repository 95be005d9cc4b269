/* The shared fuzz entry point: libFuzzer when linked in, a corpus replayer otherwise (see the header). */
#define _POSIX_C_SOURCE 200809L

#include "courier_fuzz_driver.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* libFuzzer's own driver; a weak reference, null unless the program was linked with -fsanitize=fuzzer. */
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

/* Reads the whole file into an allocation of exactly its size, so the sanitizers see any over-read. */
static int replay_file(const char *path, courier_fuzz_target target) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "courier-fuzz: cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data != NULL && (got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) {
            uint8_t *larger = realloc(data, capacity * 2);
            if (larger == NULL) break;
            data = larger;
            capacity *= 2;
        }
    }
    fclose(file);
    if (data == NULL) return 1;
    uint8_t *exact = malloc(size > 0 ? size : 1);
    if (exact == NULL) {
        free(data);
        return 1;
    }
    memcpy(exact, data, size);
    free(data);
    /* Named before it runs, so a crash's report says which input it was. */
    fprintf(stderr, "courier-fuzz: running %s (%zu bytes)\n", path, size);
    target(exact, size);
    free(exact);
    return 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of a directory, in name order so that runs are reproducible. */
static int replay_directory(const char *path, courier_fuzz_target target, size_t *count) {
    DIR *directory = opendir(path);
    if (directory == NULL) {
        fprintf(stderr, "courier-fuzz: cannot open directory %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t used = 0, capacity = 0;
    int failed = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            char **larger = realloc(names, capacity * sizeof *names);
            if (larger == NULL) { failed = 1; break; }
            names = larger;
        }
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[used] = malloc(length);
        if (names[used] == NULL) { failed = 1; break; }
        snprintf(names[used], length, "%s/%s", path, entry->d_name);
        used++;
    }
    closedir(directory);
    if (used > 0) qsort(names, used, sizeof *names, compare_names);
    for (size_t i = 0; i < used; i++) {
        struct stat status;
        if (!failed && stat(names[i], &status) == 0 && S_ISREG(status.st_mode)) {
            failed |= replay_file(names[i], target);
            (*count)++;
        }
        free(names[i]);
    }
    free(names);
    return failed;
}

void courier_fuzz_main(int argc, char **argv, courier_fuzz_target target) {
    if (LLVMFuzzerRunDriver != NULL) exit(LLVMFuzzerRunDriver(&argc, &argv, target));
    size_t count = 0;
    int failed = 0;
    for (int i = 1; i < argc && !failed; i++) {
        if (argv[i][0] == '-') continue;
        struct stat status;
        if (stat(argv[i], &status) != 0) {
            fprintf(stderr, "courier-fuzz: no such file or directory: %s\n", argv[i]);
            failed = 1;
        } else if (S_ISDIR(status.st_mode)) {
            failed = replay_directory(argv[i], target, &count);
        } else {
            failed = replay_file(argv[i], target);
            count++;
        }
    }
    fprintf(stderr, "courier-fuzz: replayed %zu inputs%s\n", count, failed ? ", then stopped at an unreadable one" : "");
    exit(failed);
}

#ifdef COURIER_FUZZ_DEFINE_MAIN
/* For C targets built as replayers: libFuzzer brings its own main, so this one is opt-in. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    courier_fuzz_main(argc, argv, LLVMFuzzerTestOneInput);
}
#endif
