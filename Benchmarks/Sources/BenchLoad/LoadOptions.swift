#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a load run sends and when it stops: at `count` requests or after `seconds`, whichever comes first.
public struct LoadOptions: Sendable {
    /// The URL to GET; loopback only.
    public var url: String
    /// The most requests the measured phase sends.
    public var count: Int = 1_000_000
    /// The longest the measured phase runs.
    public var seconds: Double = 5
    /// How many requests are in flight at once; 1 sends them one after another.
    public var inFlight: Int = 1
    /// Requests sent before measuring, to open connections and warm caches.
    public var warmup: Int = 200
    /// The name printed on the result line.
    public var scenario: String
    /// The most connections to the host; defaults to `inFlight`, so N in flight means N connections.
    public var perHost: Int?
    /// A PEM file to trust for `https` URLs (the benchmark's throwaway certificate).
    public var caFile: String?
    /// Speak HTTP/2 (over TLS), with every request multiplexed on one connection.
    public var http2 = false
    /// Scale mode (`BENCH_SCALE=1` in the environment, which is what run.sh sets, or `--scale 1`):
    /// a warm-up cycle and a measured cycle, each on a client of its own, with latency and
    /// heap/descriptor/resident snapshots (`ScaleRun`). Off, the run is warm-up then measure on one client.
    public var scale = false
    /// The body length every response must have (`--expect-bytes N`); `nil` checks only the status,
    /// so an empty body passes. A check for a test by hand that the whole body arrived: the
    /// transports already fail a body shorter than its `Content-Length`.
    public var expectedBodyBytes: Int?

    /// The per-host connection limit this run uses.
    public var connectionsPerHost: Int { perHost ?? (http2 ? 1 : inFlight) }

    /// Reads `--url U --count N --seconds S --in-flight K --warmup W --scenario NAME --per-host H
    /// --ca-file PEM --http2 1 --scale 1 --expect-bytes N` from `arguments`, and `BENCH_SCALE` from
    /// the environment (`1` turns scale mode on; `--scale` given wins).
    ///
    /// - Throws: `LoadError.usage` for an unknown flag, a missing value, or a URL off the loopback.
    public init(arguments: [String], defaultScenario: String) throws {
        url = ""
        scenario = defaultScenario
        scale = getenv("BENCH_SCALE").map { String(cString: $0) == "1" } ?? false
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw LoadError.usage("\(flag) needs a value") }
            switch flag {
            case "--url": url = value
            case "--count": count = try Self.number(value, flag)
            case "--seconds": seconds = Double(try Self.number(value, flag))
            case "--in-flight": inFlight = try Self.number(value, flag)
            case "--warmup": warmup = try Self.number(value, flag)
            case "--scenario": scenario = value
            case "--per-host": perHost = try Self.number(value, flag)
            case "--ca-file": caFile = value
            case "--http2": http2 = value == "1"
            case "--scale": scale = value == "1"
            case "--expect-bytes": expectedBodyBytes = try Self.number(value, flag)
            default: throw LoadError.usage("unknown option \(flag)")
            }
        }
        let loopback = ["http://127.0.0.1:", "http://localhost:", "https://127.0.0.1:", "https://localhost:"]
        guard loopback.contains(where: url.hasPrefix) else {
            throw LoadError.usage("--url must be http(s)://127.0.0.1:PORT/…: load runs stay on the loopback")
        }
        guard inFlight >= 1, count >= 1, seconds > 0 else { throw LoadError.usage("counts and durations must be positive") }
    }

    /// Whether `bytes`, a response body's length, is what `--expect-bytes` asks for (any, without it).
    @inline(__always)
    public func acceptsBody(bytes: Int) -> Bool {
        expectedBodyBytes.map { $0 == bytes } ?? true
    }

    private static func number(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text), value >= 0 else { throw LoadError.usage("\(flag) takes a whole number, not \(text)") }
        return value
    }
}

/// Why a load run stopped early.
public enum LoadError: Error, CustomStringConvertible {
    /// The command line was wrong.
    case usage(String)
    /// A response was not what the baseline expects (a 200, with `--expect-bytes` bytes when given).
    case badResponse(String)

    public var description: String {
        switch self {
        case .usage(let message): "usage: --url http://127.0.0.1:PORT/small.json [--count N] [--seconds S] [--in-flight K] "
            + "[--warmup W] [--scenario NAME] [--per-host H] [--ca-file PEM --http2 1] [--scale 1] "
            + "[--expect-bytes N]: \(message)"
        case .badResponse(let message): "bad response: \(message)"
        }
    }
}
