#!/usr/bin/env python3
"""Turns the raw output of run.sh into the tables of the Benchmarks README.

    scripts/summarize.py RESULTS [--duration S] [--inflight N]

RESULTS holds rows.txt (KEY|LABEL) and, per pass (quiet, busy) and round, KEY.txt with the
client's RESULT line (or wrk's "Requests/sec:") and KEY.status. For each row it prints the median
requests/s over the rounds with the spread (lowest-highest), the median CPU time and allocations
per request, and the ratio to each baseline of its kind, taken per round (rows of one round ran
minutes apart at most) and then the median of those ratios. Then the targets, met or missed, and
the in-memory pipeline figures when run.sh produced them. Rows keyed KEY@REV (run.sh's
COMPARE_WITH) are another commit's build of row KEY, run right after it in every round: a table
compares the two, with the ratio taken per round.
"""
import argparse
import re
import statistics
import sys
from pathlib import Path

# Baselines per kind of row: the key's suffix after its last "-".
BASELINES = {
    "1": [("curl", "raw libcurl"), ("ahc", "raw AHC"), ("wrk", "wrk")],
    "N": [("curl", "raw libcurl"), ("ahc", "raw AHC"), ("wrk", "wrk")],
    "h2": [("curl", "raw libcurl")],
}

# (row, baseline, comparison, bound, what it says): issue 48's targets. "libcurl as a client does
# it" (client-*) does the work any client library on libcurl must; raw libcurl stays in the tables
# as the engine's ceiling.
TARGETS = [
    ("courier-curl-N", "client-N", ">=", 1.0,
     "Courier-curl, 5 no-op interceptors, at {n} in flight / libcurl as a client does it at {n}"),
    ("capi-async-N", "client-N", ">=", 1.0, "C API async at {n} in flight / libcurl as a client does it at {n}"),
    ("courier-curl-1", "client-1", ">=", 1.0, "Courier-curl (Swift) sequential / libcurl as a client does it"),
    ("capi-1", "client-1", ">=", 1.0, "C API blocking send / libcurl as a client does it"),
    ("courier-curl-h2", "curl-h2", ">=", 0.9, "HTTP/2, {n} streams on one connection / raw libcurl multiplexed"),
    ("courier-curl-1", "ahc-1", ">=", 1.3, "Courier-curl / raw AsyncHTTPClient, sequential"),
    ("courier-curl-N", "ahc-N", ">=", 1.3, "Courier-curl / raw AsyncHTTPClient, {n} in flight"),
    ("courier-ahc-1", "ahc-1", ">=", 0.9, "Courier-AHC / raw AHC, sequential"),
    ("courier-ahc-N", "ahc-N", ">=", 0.9, "Courier-AHC / raw AHC, {n} in flight"),
]

# (row, baseline, what it says): ratios printed beside the targets, with no bound of their own.
# Courier's AHC transport gives AsyncHTTPClient no tracer when none is bootstrapped; raw AHC's
# default keeps the bootstrapped (no-op) one, so these compare it with raw AHC doing the same.
COMPARISONS = [
    ("courier-curl-h2", "client-h2", "HTTP/2, {n} streams / libcurl as a client does it over HTTP/2 (the floor of the row above)"),
    ("courier-ahc-1", "ahc-untraced-1", "Courier-AHC / raw AHC with no tracer, sequential"),
    ("courier-ahc-N", "ahc-untraced-N", "Courier-AHC / raw AHC with no tracer, {n} in flight"),
    ("courier-urlsession-1", "urlsession-1", "Courier-URLSession / raw URLSession, sequential"),
    ("courier-urlsession-N", "urlsession-N", "Courier-URLSession / raw URLSession, {n} in flight"),
    ("courier-curl-1", "urlsession-1", "Courier-curl / raw URLSession (what a Linux URLSession app gains), sequential"),
    ("courier-curl-N", "urlsession-N", "Courier-curl / raw URLSession, {n} in flight"),
]


def parse_result(path):
    """The RESULT fields of one client run, or None when it failed."""
    status = path.with_suffix(".status")
    if not path.exists() or (status.exists() and status.read_text().strip() != "0"):
        return None
    text = path.read_text()
    fields = {}
    for line in text.splitlines():
        if line.startswith("RESULT "):
            fields = dict(item.split("=", 1) for item in line.split()[1:])
        match = re.match(r"Requests/sec:\s*([0-9.]+)", line)
        if match:
            fields = {"rps": match.group(1)}
    if "rps" not in fields:
        return None
    return {key: float(value) if re.fullmatch(r"-?[0-9.]+", value) else value for key, value in fields.items()}


def kind(key):
    return key.rsplit("-", 1)[1]


def number(value, digits=0):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}"


def summarize_pass(results, pass_name, rows, inflight):
    pass_dir = results / pass_name
    rounds = sorted((p for p in pass_dir.iterdir() if p.is_dir()), key=lambda p: int(p.name))
    runs = {key: [parse_result(r / f"{key}.txt") for r in rounds] for key, _ in rows}

    def ratio(key, baseline):
        values = [a["rps"] / b["rps"] for a, b in zip(runs.get(key, []), runs.get(baseline, [])) if a and b and b["rps"] > 0]
        return statistics.median(values) if values else None

    lines = [f"### {pass_name} ({len(rounds)} interleaved rounds)", "",
             "| row | in flight | conns/host | interceptors | req/s (median) | spread | CPU µs/req | mallocs/req "
             "| × raw libcurl | × raw AHC | × wrk |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    for key, label in rows:
        good = [r for r in runs[key] if r]
        in_flight = "1" if kind(key) == "1" else str(inflight)
        if not good:
            lines.append(f"| {label} | {in_flight} | | | failed | | | | | | |")
            continue
        rps = [r["rps"] for r in good]
        cpu = [r["cpu_us"] for r in good if "cpu_us" in r]
        mallocs = [r["mallocs"] for r in good if r.get("mallocs", -1) >= 0]
        per_host = good[0].get("per_host")
        interceptors = good[0].get("interceptors")
        ratios = []
        for prefix, _ in BASELINES["N"]:
            baseline = f"{prefix}-{kind(key)}"
            ratios.append(number(ratio(key, baseline), 2) if baseline in runs and baseline != key else "—")
        failed = len(runs[key]) - len(good)
        spread = f"{number(min(rps))}–{number(max(rps))}" + (f" ({failed} failed)" if failed else "")
        lines.append(
            f"| {label} | {in_flight} | {number(per_host) if per_host is not None else '—'} "
            f"| {number(interceptors) if interceptors is not None else '—'} | {number(statistics.median(rps))} "
            f"| {spread} | {number(statistics.median(cpu), 1) if cpu else '—'} "
            f"| {number(statistics.median(mallocs), 1) if mallocs else '—'} | " + " | ".join(ratios) + " |")
    lines += ["", f"Targets ({pass_name}):", ""]
    for key, baseline, _, bound, text in TARGETS:
        value = ratio(key, baseline)
        verdict = "—" if value is None else ("met" if value >= bound else "MISSED")
        lines.append(f"- {text.format(n=inflight)}: "
                     f"{number(value, 2)} (target ≥ {bound}) {verdict}")
    for key, baseline, text in COMPARISONS:
        value = ratio(key, baseline)
        if value is not None:
            lines.append(f"- {text.format(n=inflight)}: {number(value, 2)} (for comparison, no target)")
    lines += summarize_comparison(runs, rows, inflight)
    return lines


def summarize_comparison(runs, rows, inflight):
    """This tree's Courier rows against another commit's (KEY@REV), ratios taken per round."""
    paired = [(key, label) for key, label in rows if "@" in key]
    if not paired:
        return []
    revision = paired[0][0].split("@", 1)[1].rsplit("-", 1)[0]

    def median(values):
        return statistics.median(values) if values else None

    lines = ["", f"This tree against {revision} (each row's two builds back to back in every round, "
             "the order flipped every other round):", "",
             "| row | in flight | req/s, this tree | req/s, " + revision + " | × " + revision +
             " (per-round median) | CPU µs/req | mallocs/req |",
             "|---|---:|---:|---:|---:|---|---|"]
    for key, label in paired:
        base = key.split("@", 1)[0] + "-" + kind(key)
        ours, theirs = runs.get(base, []), runs[key]
        ratios = [a["rps"] / b["rps"] for a, b in zip(ours, theirs) if a and b and b["rps"] > 0]

        def stat(results, field, digits):
            return number(median([r[field] for r in results if r and field in r and r[field] >= 0]), digits)

        in_flight = "1" if kind(key) == "1" else f"{inflight}" + (" (HTTP/2)" if kind(key) == "h2" else "")
        lines.append(
            f"| {label.rsplit(', at ', 1)[0]} | {in_flight} | {stat(ours, 'rps', 0)} | {stat(theirs, 'rps', 0)} "
            f"| {number(median(ratios), 3)} | {stat(ours, 'cpu_us', 1)} vs {stat(theirs, 'cpu_us', 1)} "
            f"| {stat(ours, 'mallocs', 1)} vs {stat(theirs, 'mallocs', 1)} |")
    return lines


def summarize_pipeline(results):
    pipeline = results / "pipeline.md"
    lines = []
    if pipeline.exists():
        ns, mallocs, name = {}, {}, None
        for line in pipeline.read_text().splitlines():
            if line.startswith("### "):
                name = line[4:].strip()
            elif line.startswith("| Time (wall clock)") and name:
                ns[name] = float(line.split("|")[4].replace(",", ""))
            elif line.startswith("| Malloc (total)") and name:
                mallocs[name] = float(line.split("|")[4].replace(",", ""))
        lines += ["", "## Pipeline, in memory (p50 per operation)", "",
                  "| no-op interceptors | ns per send | mallocs per send |", "|---:|---:|---:|"]
        points = []
        for k in range(17):
            key = f"Client.send, {k} no-op interceptors"
            if key in ns:
                lines.append(f"| {k} | {ns[key]:.0f} | {mallocs.get(key, 0):.0f} |")
                points.append((k, ns[key], mallocs.get(key, 0)))
        if len(points) >= 2:
            n = len(points)
            sx = sum(p[0] for p in points)
            sxx = sum(p[0] ** 2 for p in points)
            d = n * sxx - sx * sx
            slope_t = (n * sum(p[0] * p[1] for p in points) - sx * sum(p[1] for p in points)) / d
            slope_m = (n * sum(p[0] * p[2] for p in points) - sx * sum(p[2] for p in points)) / d
            verdict = "met" if slope_t <= 100 else "MISSED"
            lines.append(f"\nPer no-op interceptor (slope over {n} chains): {slope_t:.0f} ns, {slope_m:.2f} mallocs "
                         f"(target ≤ 100 ns) {verdict}.")
        dsl, direct = "Login request, builder DSL", "Login request, direct init + JSONEncoder"
        if dsl in ns and direct in ns and ns[direct] > 0:
            factor = ns[dsl] / ns[direct]
            verdict = "met" if factor <= 1.5 else "MISSED"
            lines.append(f"Login request: builder {ns[dsl]:.0f} ns / {mallocs.get(dsl, 0):.0f} mallocs, direct init "
                         f"{ns[direct]:.0f} ns / {mallocs.get(direct, 0):.0f} mallocs: {factor:.2f}× (target ≤ 1.5×) "
                         f"{verdict}.")
    crossings = results / "capi-interceptors.txt"
    if crossings.exists():
        for line in crossings.read_text().splitlines():
            match = re.match(r"c-interceptor crossing: .* ([0-9]+) ns per interceptor that sets a header", line)
            if match:
                value = int(match.group(1))
                verdict = "met" if value <= 300 else "MISSED"
                lines.append(f"C header-setting interceptor crossing: {value} ns (target ≤ 300 ns) {verdict}.")
    return lines


def summarize_instructions(results):
    """scripts/instructions.sh's counts, each row against the client row of its concurrency."""
    counts = results / "instructions.txt"
    if not counts.exists():
        return []
    rows = [line.split("|") for line in counts.read_text().splitlines() if line.count("|") == 2]
    baseline = {key.rsplit("-", 1)[1]: int(figure) for key, _, figure in rows
                if key.startswith("client-") and figure.isdigit()}
    lines = ["## Instructions per request (callgrind: a count the host barely moves)", "",
             "| row | in flight | instructions | × libcurl as a client does it |", "|---|---:|---:|---:|"]
    for key, label, figure in rows:
        concurrency = key.rsplit("-", 1)[1]
        shown = "1" if concurrency == "1" else "32" if concurrency == "N" else concurrency
        if not figure.isdigit():
            lines.append(f"| {label} | {shown} | failed | — |")
            continue
        ratio = "—" if key.startswith("client-") or concurrency not in baseline \
            else f"{baseline[concurrency] / int(figure):.2f}"
        lines.append(f"| {label} | {shown} | {int(figure):,} | {ratio} |")
    return lines + [""]


BODY_SIZES = [("0", 0, "0 B"), ("25", 25, "25 B"), ("16k", 16384, "16 KiB"), ("1m", 1 << 20, "1 MiB"),
              ("64m", 64 << 20, "64 MiB")]


def rounds_of(results, pass_name):
    pass_dir = results / pass_name
    return sorted((p for p in pass_dir.iterdir() if p.is_dir()), key=lambda p: int(p.name))


def summarize_bodies(results, inflight):
    """The body-size pass: MB/s of body per client and size, against raw libcurl multi, per round."""
    if not (results / "bodies").is_dir():
        return []
    rounds = rounds_of(results, "bodies")
    labels = dict(tuple(line.split("|", 1)) for line in (results / "body-rows.txt").read_text().splitlines() if line)
    clients = [key.split("-", 2)[2] for key in labels if key.startswith("body-0-")]
    lines = [f"## Body sizes, {inflight} in flight ({len(rounds)} interleaved rounds; MB/s of body, median)", "",
             "| client | " + " | ".join(text for _, _, text in BODY_SIZES) + " |",
             "|---|" + "---:|" * len(BODY_SIZES)]
    for client in clients:
        cells = []
        for size, size_bytes, _ in BODY_SIZES:
            runs = [parse_result(r / f"body-{size}-{client}.txt") for r in rounds]
            base = [parse_result(r / f"body-{size}-curl.txt") for r in rounds]
            good = [r["rps"] for r in runs if r]
            if not good:
                cells.append("failed")
                continue
            rate = statistics.median(good)
            shown = f"{rate * size_bytes / 1e6:,.1f}" if size_bytes >= 1024 else f"{rate:,.0f} req/s"
            ratios = [a["rps"] / b["rps"] for a, b in zip(runs, base) if a and b and b["rps"] > 0]
            if client != "curl" and ratios:
                shown += f" ({statistics.median(ratios):.2f}×)"
            cells.append(shown)
        lines.append(f"| {labels[f'body-0-{client}']} | " + " | ".join(cells) + " |")
    return lines + ["", "Bodies under 1 KiB are shown in requests/s. (×) is the ratio to raw libcurl multi, "
                    "which discards the body; every other client keeps it whole.", ""]


# The scale ladder's targets: Courier's CPU per request at 10,000 in flight within this factor of
# its figure at 32; its heap per request in flight within this factor of raw libcurl multi's; and
# after the client is freed, no descriptor left and at most this much heap more than before.
SCALE_CPU_GROWTH = 1.5
SCALE_MEMORY_FACTOR = 2.0
SCALE_LEFT_OVER_BYTES = 256 << 10


def summarize_scale(results):
    """The in-flight ladder against the holding server: medians over the rounds, and its targets."""
    if not (results / "scale").is_dir():
        return []
    rounds = rounds_of(results, "scale")
    hold = float((results / "hold-ms.txt").read_text()) if (results / "hold-ms.txt").exists() else 0
    keys = [line.split("|", 1) for line in (results / "scale-rows.txt").read_text().splitlines() if line]
    labels = {key.rsplit("-", 1)[0]: label for key, label in keys}
    ladder = sorted({int(key.rsplit("-", 1)[1]) for key, _ in keys})
    figures = {}
    for key, _ in keys:
        good = [r for r in (parse_result(r / f"{key}.txt") for r in rounds) if r]
        n = int(key.rsplit("-", 1)[1])

        def median(field, good=good):
            values = [r[field] for r in good if isinstance(r.get(field), float)]
            return statistics.median(values) if values else None

        during, before, after = median("heap_during"), median("heap_before"), median("heap_after")
        figures[key] = {
            "rounds": len(good), "rps": median("rps"), "cpu": median("cpu_us"),
            "heap": (during - before) / n if during is not None and before is not None else None,
            "left": max(r["heap_after"] - r["heap_before"] for r in good) if good and after is not None else None,
            "fds": median("fds_during"),
            "fds_left": max(r["fds_after"] - r["fds_before"] for r in good) if good and "fds_after" in good[0] else None,
            "p50": median("p50_ms"), "p99": median("p99_ms"),
        }
    lines = [f"## In flight, 1 to {ladder[-1]:,}: a server that holds every request {hold:g} ms "
             f"({len(rounds)} rounds, medians)", "",
             "| client | in flight | req/s | CPU µs/req | heap KiB per request in flight | descriptors in flight "
             "| p50 above the hold, ms | p99 above the hold, ms | left after the client is freed |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for prefix, label in labels.items():
        for n in ladder:
            f = figures.get(f"{prefix}-{n}")
            if not f or not f["rounds"]:
                lines.append(f"| {label} | {n:,} | failed | | | | | | |")
                continue
            left = "—" if f["left"] is None else f"{f['left'] / 1024:,.0f} KiB, {number(f['fds_left'])} fds"
            lines.append(
                f"| {label} | {n:,} | {number(f['rps'])} | {number(f['cpu'], 1)} "
                f"| {number(None if f['heap'] is None else f['heap'] / 1024, 1)} | {number(f['fds'])} "
                f"| {number(None if f['p50'] is None else f['p50'] - hold, 1)} "
                f"| {number(None if f['p99'] is None else f['p99'] - hold, 1)} | {left} |")
    lines += ["", "Targets (scale):", ""]
    top = ladder[-1]
    for prefix in ("scale-courier", "scale-capi"):
        at32, attop = figures.get(f"{prefix}-32"), figures.get(f"{prefix}-{top}")
        if at32 and attop and at32["cpu"] and attop["cpu"]:
            growth = attop["cpu"] / at32["cpu"]
            verdict = "met" if growth <= SCALE_CPU_GROWTH else "MISSED"
            lines.append(f"- {labels[prefix]}: CPU per request at {top:,} / at 32: {growth:.2f} "
                         f"(target ≤ {SCALE_CPU_GROWTH}) {verdict}")
        ours, raw = figures.get(f"{prefix}-{top}"), figures.get(f"scale-curl-{top}")
        if ours and raw and ours["heap"] and raw["heap"]:
            factor = ours["heap"] / raw["heap"]
            verdict = "met" if factor <= SCALE_MEMORY_FACTOR else "MISSED"
            lines.append(f"- {labels[prefix]}: heap per request in flight at {top:,} / raw libcurl multi's: "
                         f"{factor:.2f} (target ≤ {SCALE_MEMORY_FACTOR}) {verdict}")
    # The target is Courier's; the baselines' leftovers are shown, not judged.
    leaks = [(key, f) for key, f in figures.items()
             if f["left"] is not None and (f["left"] > SCALE_LEFT_OVER_BYTES or (f["fds_left"] or 0) > 0)]
    courier_rows = ("scale-courier", "scale-capi")
    ours = [(key, f) for key, f in leaks if key.startswith(courier_rows)]
    baselines = [(key, f) for key, f in leaks if not key.startswith(courier_rows)]

    def listed(rows):
        return ", ".join(f"{key} ({f['left'] / 1024:,.0f} KiB, {number(f['fds_left'])} fds)" for key, f in rows)

    lines.append(f"- Nothing left after a Courier client is freed (no descriptor; heap within "
                 f"{SCALE_LEFT_OVER_BYTES >> 10} KiB of before, every Courier row and round): "
                 + ("met" if not ours else "MISSED: " + listed(ours))
                 + (f"; the baselines keep: {listed(baselines)}" if baselines else ""))
    return lines + [""]


# The Python targets: (row, baseline, bound, what it says), rows as python/bench.py names them.
PYTHON_TARGETS = [
    ("courier.AsyncClient, 32 in flight", "aiohttp.ClientSession, 32 in flight", 1.5,
     "courier.AsyncClient / aiohttp.ClientSession at 32 in flight"),
    ("courier.Client (", "requests.Session", 5.0, "courier.Client / requests.Session, sequential"),
]


def summarize_python(results):
    """python/run.sh's table, as it printed it, and the Python targets."""
    table = results / "python.md"
    if not table.exists():
        return []
    text = table.read_text()
    rates = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].replace(",", "").isdigit():
            rates[cells[0]] = float(cells[1].replace(",", ""))

    def rate(prefix):
        return next((value for name, value in rates.items() if name.startswith(prefix)), None)

    shown = [line for line in text.splitlines() if line.startswith("|")]
    shown[:0] = [line for line in text.splitlines() if line.startswith("http")] + [""]
    lines = ["## Python (Benchmarks/python/run.sh)", "", *shown, "", "Targets (Python):", ""]
    for row, baseline, bound, what in PYTHON_TARGETS:
        ours, theirs = rate(row), rate(baseline)
        value = ours / theirs if ours and theirs else None
        verdict = "—" if value is None else ("met" if value >= bound else "MISSED")
        lines.append(f"- {what}: {number(value, 2)} (target ≥ {bound}) {verdict}")
    return lines + [""]


def summarize_frames(results):
    """run.sh's frames.txt: the async frames a send holds while it waits, from the release library."""
    frames = results / "frames.txt"
    if not frames.exists():
        return []
    rows = [line.split(None, 1) for line in frames.read_text().splitlines() if line.strip()[:1].isdigit()]
    lines = ["## Async frames a send holds while it waits (bytes; scripts/async-frames.py)", "",
             "A send in flight holds one frame of every function it waits in: the C send's, the client's, "
             "one `Next.callAsFunction` and one `intercept` per interceptor stage, the redirect loop's and "
             "the transport's.", "", "| function | bytes |", "|---|---:|"]
    lines += [f"| `{name}` | {int(size):,} |" for size, name in rows]
    return lines + [""]


def summarize_host(results):
    """The machine the figures come from (run.sh's host.txt): lscpu's model and flags, the clock source."""
    host = results / "host.txt"
    if not host.exists():
        return []
    facts = dict(line.split(":", 1) for line in host.read_text().splitlines() if ":" in line)
    facts = {name.strip(): value.strip() for name, value in facts.items()}
    described = ", ".join(
        f"{name.lower()} {facts[name]}" for name in
        ("CPU(s)", "Thread(s) per core", "Hypervisor vendor", "L3 cache", "Clock source", "Kernel") if name in facts)
    lines = [f"Host: {facts.get('Model name', 'unknown CPU')} ({facts.get('Vendor ID', '?')}); {described}."]
    if "Flags" in facts:
        lines.append(f"CPU flags: {facts['Flags']}")
    return lines + [""]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--duration", type=float, default=3)
    parser.add_argument("--inflight", type=int, default=32)
    args = parser.parse_args()
    rows = [tuple(line.split("|", 1)) for line in (args.results / "rows.txt").read_text().splitlines() if line]
    output = [f"## HTTP on loopback: nginx /small.json (25 bytes), keep-alive, {args.duration:g} s per row and round",
              "", "nginx on CPU 0, the client on CPU 1; decompression requested by every client; "
              "ratios are medians of per-round ratios.", ""]
    output += summarize_host(args.results)
    for pass_name in ("quiet", "busy"):
        if (args.results / pass_name).is_dir():
            output += summarize_pass(args.results, pass_name, rows, args.inflight) + [""]
    output += summarize_bodies(args.results, args.inflight)
    output += summarize_scale(args.results)
    output += summarize_python(args.results)
    output += summarize_instructions(args.results)
    output += summarize_frames(args.results)
    output += summarize_pipeline(args.results)
    print("\n".join(output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
