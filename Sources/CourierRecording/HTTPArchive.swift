public import Courier

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An HTTP Archive (HAR 1.2) document: the format browsers' developer tools and HAR viewers
/// import, and the format `HARRecorder` writes and `CassetteTransport` replays.
///
/// A plain `Codable` value, so a recording can be inspected, edited or built in a test; the
/// property names are the format's own (`log.entries[0].response.content.text`). Fields Courier
/// cannot know are written as the format says to write the unknown (`-1`, an empty string).
/// Reading ignores fields this model does not name, so archives from browsers decode too.
public struct HTTPArchive: Codable, Sendable, Equatable {
    /// The root of the document.
    public var log: Log

    /// An archive of `entries`, written by `creator`.
    public init(creator: Creator = .courier, entries: [Entry] = []) {
        log = Log(creator: creator, entries: entries)
    }

    /// The archive in a JSON file, as `write(to:)` writes it.
    ///
    /// - Throws: `decodingFailed` when the file is not a HAR document, naming the file.
    public init(contentsOf file: URL) throws(CourierError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CourierError(
                .decodingFailed, "could not read the HAR file \(file.path)", source: "HTTPArchive", underlying: error)
        }
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch {
            throw CourierError(
                .decodingFailed, "\(file.path) is not a HAR 1.2 document", source: "HTTPArchive", underlying: error)
        }
    }

    /// The document as UTF-8 JSON, pretty-printed with sorted keys so recordings diff well in review.
    public func jsonData() throws(CourierError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw CourierError(
                .encodingFailed, "could not encode the HAR document", source: "HTTPArchive", underlying: error)
        }
    }

    /// Writes the document to `file` atomically, replacing what was there.
    ///
    /// - Throws: `encodingFailed` when the file cannot be written, naming it.
    public func write(to file: URL) throws(CourierError) {
        let data = try jsonData()
        do {
            try data.write(to: file, options: .atomic)
        } catch {
            throw CourierError(
                .encodingFailed, "could not write the HAR file \(file.path)", source: "HTTPArchive", underlying: error)
        }
    }
}

extension HTTPArchive {
    /// The `log` object: format version, creator and the recorded exchanges.
    public struct Log: Codable, Sendable, Equatable {
        /// The format version, `"1.2"`.
        public var version: String
        /// The application that wrote the archive.
        public var creator: Creator
        /// The exchanges, in the order they started.
        public var entries: [Entry]
        /// A note for people.
        public var comment: String?

        /// A HAR 1.2 log.
        public init(version: String = "1.2", creator: Creator = .courier, entries: [Entry] = [], comment: String? = nil)
        {
            self.version = version
            self.creator = creator
            self.entries = entries
            self.comment = comment
        }
    }

    /// The application that wrote an archive.
    public struct Creator: Codable, Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its version.
        public var version: String
        /// A note for people.
        public var comment: String?

        /// A creator named `name` at `version`.
        public init(name: String, version: String, comment: String? = nil) {
            self.name = name
            self.version = version
            self.comment = comment
        }

        /// Courier itself.
        public static let courier = Creator(name: "Courier", version: "1.0")
    }
}
