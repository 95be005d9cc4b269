#!/usr/bin/env python3
"""The async frame sizes a Swift binary records, largest first.

    Benchmarks/scripts/async-frames.py [LIBRARY] [PATTERN]

Every async function has an "async function pointer" record (its symbol ends in `Tu`): a 32-bit
relative offset to the function, then the size of the context (the frame) its callers allocate for
it on the task's allocator. A send in flight holds the frames of every function it waits in, so
these sizes are its memory per request in flight beyond the transport's (Benchmarks/README.md,
"How cost grows"). LIBRARY defaults to the release libcourier; PATTERN, a regular expression,
keeps the demangled names that match it.
"""
import re
import struct
import subprocess
import sys


def sections(path):
    """(address, file offset, size) of each allocated section, from readelf."""
    text = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    found = []
    for match in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]{8,})\s+([0-9a-f]{6,})\s+([0-9a-f]{6,})", text):
        name, address, offset, size = match.group(1), *(int(match.group(i), 16) for i in (2, 3, 4))
        if name not in (".bss", ".tbss"):
            found.append((address, offset, size))
    return found


def frame_sizes(path):
    """(frame size, mangled symbol) for every async function pointer record in the binary."""
    data = open(path, "rb").read()
    mapped = sections(path)
    symbols = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in symbols.splitlines():
        parts = line.split()
        if len(parts) < 3 or not parts[2].endswith("Tu"):
            continue
        address = int(parts[0], 16)
        for start, offset, size in mapped:
            if start <= address < start + size:
                at = offset + address - start
                _, context_size = struct.unpack("<iI", data[at:at + 8])
                rows.append((context_size, parts[2]))
                break
    return sorted(rows, reverse=True)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ".build/release/libcourier.so.1"
    pattern = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    rows = frame_sizes(path)
    demangled = subprocess.run(
        ["swift-demangle", "--simplified"], input="\n".join(symbol for _, symbol in rows),
        capture_output=True, text=True, check=True).stdout.splitlines()
    for (size, _), name in zip(rows, demangled):
        name = name.replace("async function pointer to ", "")
        if pattern is None or pattern.search(name):
            print(f"{size:6d}  {name}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # piped into `head`
        sys.stderr.close()
