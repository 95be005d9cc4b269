/*
 * The entry point every Courier fuzz target shares.
 *
 * Built with `-sanitize=fuzzer` (scripts/fuzz), a target is a libFuzzer fuzzer: this hands its
 * arguments to libFuzzer's driver. Built normally (`swift build`, the C tests), the same target is
 * a corpus replayer: it runs each file named on the command line, or each file in each directory
 * named, through the target once, so the committed seeds and every input that once crashed it are
 * regression tests in the ordinary test run.
 */
#ifndef COURIER_FUZZ_DRIVER_H
#define COURIER_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A fuzz target: takes one input, returns 0 (libFuzzer's convention; -1 keeps it out of the corpus). */
typedef int (*courier_fuzz_target)(const uint8_t *data, size_t size);

/**
 * Runs `target` under libFuzzer when the program was linked with it, else replays the files and
 * directories among `argv[1...]` (arguments starting with '-' are libFuzzer's and are skipped),
 * then exits: 0 when every input ran, 1 when one could not be read. A target that finds a bug
 * traps, so a replay that ends at all ran clean.
 */
__attribute__((noreturn)) void courier_fuzz_main(int argc, char **argv, courier_fuzz_target target);

#ifdef __cplusplus
}
#endif

#endif
