public import Courier
public import Foundation

extension URLFormEncoder.DateEncoding {
    /// Dates as `formatter` writes them. A `DateFormatter` is full Foundation's (with ICU), so this
    /// spelling is here rather than in the core, where it was a case of its own; it makes the
    /// core's `custom` case.
    public static func formatted(_ formatter: DateFormatter) -> Self {
        let formatter = UncheckedFormatter(formatter)
        return .custom { formatter.value.string(from: $0) }
    }
}

/// A `DateFormatter` crossing into a `@Sendable` closure, unchecked `Sendable` because it is only read (`string(from:)` is
/// thread-safe since iOS 7 and macOS 10.9, and in swift-corelibs-foundation).
private struct UncheckedFormatter: @unchecked Sendable {
    let value: DateFormatter
    init(_ value: DateFormatter) { self.value = value }
}
