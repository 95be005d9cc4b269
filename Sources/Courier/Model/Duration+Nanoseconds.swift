extension Duration {
    /// The duration in whole nanoseconds, `Int64.max` past what that holds (about 292 years): what
    /// metrics record and `ResponseMetrics` stores, converted in one place.
    package var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
