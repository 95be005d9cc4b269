/// The one-line download progress shown on a terminal's standard error, redrawn in place with `\r`.
public struct ProgressBar: Sendable {
    /// The width of the terminal, so the line never wraps.
    public var columns: Int

    /// A bar for a terminal `columns` wide.
    public init(columns: Int) { self.columns = max(columns, 20) }

    /// The line for `received` of `total` bytes after `elapsed`: percentage, bar, sizes and speed
    /// when the total is known; size and speed when it is not.
    public func line(received: Int64, total: Int64?, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let speed = seconds > 0 ? Int64(Double(received) / seconds) : 0
        let rate = "\(ByteCount.format(speed))/s"
        guard let total, total > 0 else {
            return fitted("\(ByteCount.format(received))  \(rate)")
        }
        let fraction = min(Double(received) / Double(total), 1)
        let totalText = ByteCount.format(total)
        let tail =
            " \(Self.padded(ByteCount.format(received), to: totalText.count)) / \(totalText)  \(Self.padded(rate, to: 12))"
        let percent = Self.padded("\(Int(fraction * 100))%", to: 4)
        let barWidth = columns - 1 - percent.count - 3 - tail.count
        guard barWidth >= 5 else { return fitted(percent + tail) }
        let filled = Int(Double(barWidth) * fraction)
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: barWidth - filled)
        return fitted("\(percent) [\(bar)]\(tail)")
    }

    /// `text` with spaces before it up to `width`, so the bar keeps its length as numbers grow.
    private static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `text` cut to the terminal, behind a carriage return so the next line overwrites it.
    private func fitted(_ text: String) -> String {
        "\r" + String(text.prefix(columns - 1))
    }
}
