public import Foundation

/// Checks and re-lays JSON text without decoding it, so key order and number spelling stay as the server sent them.
///
/// Formatting indents by `indent` spaces per level with `": "` after keys; colouring wraps keys,
/// strings, numbers and literals in ANSI colours. With no indent the original white space is kept,
/// which is what `--pretty colors` asks for.
public enum JSONText {
    /// Whether `text` is one complete JSON value (an object, array, string, number or literal).
    public static func isValid(_ text: String) -> Bool {
        isValid(Data(text.utf8))
    }

    /// Whether `data` is one complete JSON value.
    public static func isValid(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// `data` re-laid and coloured, or `nil` when it is not valid JSON (then print it as it is).
    public static func format(_ data: Data, indent: Int?, palette: Palette?) -> String? {
        guard isValid(data) else { return nil }
        var formatter = Formatter(bytes: Array(data), indent: indent, palette: palette)
        formatter.run()
        return String(decoding: formatter.output, as: UTF8.self)
    }

    /// The ANSI colours of each kind of token.
    public struct Palette: Sendable, Equatable {
        /// Object keys.
        public var key = "\u{1B}[34;1m"
        /// String values.
        public var string = "\u{1B}[32m"
        /// Numbers.
        public var number = "\u{1B}[36m"
        /// `true`, `false` and `null`.
        public var literal = "\u{1B}[35m"
        /// Ends a coloured token.
        public var reset = "\u{1B}[0m"

        /// The default colours, readable on dark and light terminals.
        public init() {}
    }

    /// A single pass over valid JSON bytes.
    struct Formatter {
        let bytes: [UInt8]
        let indent: Int?
        let palette: Palette?
        var output: [UInt8] = []
        var position = 0
        /// One entry per open container: whether it is an object and whether its next string is a key.
        var containers: [(isObject: Bool, expectsKey: Bool)] = []

        init(bytes: [UInt8], indent: Int?, palette: Palette?) {
            self.bytes = bytes
            self.indent = indent
            self.palette = palette
            output.reserveCapacity(bytes.count + bytes.count / 4)
        }

        mutating func run() {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    if indent == nil { output.append(byte) }
                    position += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open(isObject: byte == UInt8(ascii: "{"))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !containers.isEmpty { containers.removeLast() }
                    newline()
                    output.append(byte)
                    position += 1
                case UInt8(ascii: ","):
                    output.append(byte)
                    position += 1
                    if let last = containers.indices.last { containers[last].expectsKey = containers[last].isObject }
                    newline()
                case UInt8(ascii: ":"):
                    output.append(byte)
                    if indent != nil { output.append(UInt8(ascii: " ")) }
                    position += 1
                case UInt8(ascii: "\""):
                    let isKey = containers.last?.expectsKey == true
                    if isKey, let last = containers.indices.last { containers[last].expectsKey = false }
                    emit(scanString(), color: isKey ? palette?.key : palette?.string)
                default:
                    let start = position
                    while position < bytes.count, !Self.delimiters.contains(bytes[position]) { position += 1 }
                    let isNumber =
                        bytes[start] == UInt8(ascii: "-")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start])
                    emit(bytes[start..<position], color: isNumber ? palette?.number : palette?.literal)
                }
            }
        }

        static let delimiters: Set<UInt8> = Set(" \n\r\t,:]}[{\"".utf8)

        private mutating func open(isObject: Bool) {
            output.append(bytes[position])
            position += 1
            var next = position
            while next < bytes.count, Self.isSpace(bytes[next]) { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: isObject ? "}" : "]") {
                if indent == nil { output.append(contentsOf: bytes[position..<next]) }
                output.append(bytes[next])
                position = next + 1
                return
            }
            containers.append((isObject, isObject))
            newline()
        }

        /// The string starting at `position`, quotes and escapes included.
        private mutating func scanString() -> ArraySlice<UInt8> {
            let start = position
            position += 1
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            position = min(position + 1, bytes.count)
            return bytes[start..<position]
        }

        private mutating func emit(_ token: ArraySlice<UInt8>, color: String?) {
            if let color { output.append(contentsOf: color.utf8) }
            output.append(contentsOf: token)
            if color != nil, let reset = palette?.reset { output.append(contentsOf: reset.utf8) }
        }

        private mutating func newline() {
            guard let indent else { return }
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * containers.count))
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        }
    }
}
