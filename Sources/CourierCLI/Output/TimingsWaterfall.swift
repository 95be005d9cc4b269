import Courier
import Foundation

/// `courier --timings`: one screen saying where an exchange's time went, phase by phase, as
/// httpstat does for curl; each phase a bar placed where it started, so the waterfall reads left
/// to right. A phase the transport did not measure shows `-`.
///
/// ```text
/// GET http://127.0.0.1:8080/delay/100 — new connection to 127.0.0.1:8080, HTTP/1.1
///   queued           -
///   dns         0.1 ms  █
///   connect     0.2 ms  █
///   tls              -
///   send             -
///   wait      101.2 ms  ███████████████████████████████████████
///   receive     0.1 ms                                          █
///   total     101.9 ms
/// ```
struct TimingsWaterfall {
    let metrics: ResponseMetrics
    let request: Request
    /// The widest bar, in characters.
    var width = 40

    var text: String {
        var lines = [headline]
        let phases = metrics.phases
        let measured = phases.compactMap(\.duration)
        let whole = max(metrics.total ?? measured.reduce(.zero, +), measured.reduce(.zero, +))
        var offset = Duration.zero
        for (name, duration) in phases {
            guard let duration else {
                lines.append("  " + name.padding(toLength: 9, withPad: " ", startingAt: 0) + Self.unmeasured)
                continue
            }
            let start = Self.columns(offset, of: whole, width: width)
            let length = max(1, Self.columns(offset + duration, of: whole, width: width) - start)
            offset += duration
            lines.append(
                "  " + name.padding(toLength: 9, withPad: " ", startingAt: 0) + Self.milliseconds(duration) + "  "
                    + String(repeating: " ", count: start) + String(repeating: "█", count: length))
        }
        lines.append(
            "  " + "total".padding(toLength: 9, withPad: " ", startingAt: 0)
                + (metrics.total.map(Self.milliseconds) ?? Self.unmeasured))
        if metrics.redirectCount > 0 {
            lines.append(
                "  after \(metrics.redirectCount) redirect\(metrics.redirectCount == 1 ? "" : "s")"
                    + (metrics.redirectTime.map { ", " + Self.milliseconds($0).trimmingCharacters(in: .whitespaces) }
                        ?? ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var headline: String {
        var connection: String? =
            switch metrics.reusedConnection {
            case true?: "reused connection"
            case false?: "new connection"
            case nil: nil
            }
        if let address = metrics.remoteAddress {
            let host = address.contains(":") ? "[\(address)]" : address
            let target = "to " + host + (metrics.remotePort.map { ":\($0)" } ?? "")
            connection = connection.map { $0 + " " + target } ?? target
        }
        let facts = [connection, metrics.httpVersion.map { "HTTP/\($0)" }, metrics.tlsVersion].compactMap { $0 }
        let target = "\(request.method) \(request.url.absoluteString)"
        return facts.isEmpty ? target : target + " — " + facts.joined(separator: ", ")
    }

    /// `duration` as ` 101.2 ms`, right-aligned in nine columns.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let text = String(format: "%.1f", Double(seconds) * 1000 + Double(attoseconds) / 1e15) + " ms"
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    /// A phase not measured, in the same nine columns.
    static let unmeasured = "        -"

    private static func columns(_ part: Duration, of whole: Duration, width: Int) -> Int {
        guard whole > .zero else { return 0 }
        return min(width, Int((Double(width) * (part / whole)).rounded()))
    }
}
