import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The differences between two requests or two responses, as `Explanation.Change`s, redacted.
struct ExplainDiff {
    let redaction: Redaction

    func changes(from before: Request, to after: Request) -> [Explanation.Change] {
        var changes: [Explanation.Change] = []
        if before.method != after.method {
            changes.append(.init(.method, from: before.method.rawValue, to: after.method.rawValue))
        }
        if before.url != after.url {
            changes.append(
                .init(
                    .url, from: redaction.redacting(before.url).absoluteString,
                    to: redaction.redacting(after.url).absoluteString))
        }
        changes += fieldChanges(from: before.headerFields, to: after.headerFields)
        changes += bodyChanges(from: before.body, to: after.body)
        return changes
    }

    func changes(from before: Response, to after: Response) -> [Explanation.Change] {
        var changes: [Explanation.Change] = []
        if before.status != after.status {
            changes.append(.init(.status, from: Self.describe(before.status), to: Self.describe(after.status)))
        }
        changes += fieldChanges(from: before.headerFields, to: after.headerFields)
        if !before.isStreaming, !after.isStreaming, before.body != after.body {
            changes.append(.init(.bodyReplaced, from: "\(before.body.count) bytes", to: "\(after.body.count) bytes"))
        }
        return changes
    }

    /// Added, removed and changed fields, by name, in the order names first appear.
    func fieldChanges(from before: HTTPFields, to after: HTTPFields) -> [Explanation.Change] {
        var names: [HTTPField.Name] = []
        for field in before where !names.contains(field.name) { names.append(field.name) }
        for field in after where !names.contains(field.name) { names.append(field.name) }
        return names.compactMap { name in
            let old = before[values: name]
            let new = after[values: name]
            guard old != new else { return nil }
            let shown = { (values: [String]) in
                redaction.hides(name) ? redaction.replacement : values.joined(separator: ", ")
            }
            if old.isEmpty { return .init(.headerAdded, field: name.rawName, to: shown(new)) }
            if new.isEmpty { return .init(.headerRemoved, field: name.rawName, from: shown(old)) }
            return .init(.headerChanged, field: name.rawName, from: shown(old), to: shown(new))
        }
    }

    func bodyChanges(from before: RequestBody?, to after: RequestBody?) -> [Explanation.Change] {
        switch (before, after) {
        case (nil, nil):
            return []
        case (nil, let added?):
            return [.init(.bodyAdded, to: Self.describe(added))]
        case (let removed?, nil):
            return [.init(.bodyRemoved, from: Self.describe(removed))]
        case (let old?, let new?):
            let same =
                switch (old.segments, new.segments) {
                case (let a?, let b?): a == b && old.contentType == new.contentType
                case (nil, nil): old.contentLength == new.contentLength && old.contentType == new.contentType
                default: false
                }
            return same ? [] : [.init(.bodyReplaced, from: Self.describe(old), to: Self.describe(new))]
        }
    }

    static func describe(_ body: RequestBody) -> String {
        let size = body.contentLength.map { "\($0) bytes" } ?? "unknown length"
        let kind = body.segments == nil ? "stream, " : ""
        return "(\(kind)\(size)\(body.contentType.map { ", \($0.rawValue)" } ?? ""))"
    }

    static func describe(_ status: HTTPResponse.Status) -> String {
        "\(status.code) \(status.reasonPhrase)"
    }
}
