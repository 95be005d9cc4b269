/// A piece of a request: the one protocol every builder block conforms to.
///
/// A block edits the request being built and may throw to reject its input. To add your own,
/// conform and edit the draft:
///
/// ```swift
/// struct APIVersion: RequestBuildable {
///     let version: Int
///     func apply(to draft: inout RequestDraft) throws {
///         try draft.setHeader("X-API-Version", String(version), block: "APIVersion")
///     }
/// }
/// ```
public protocol RequestBuildable {
    /// Applies this block to the request being built.
    ///
    /// - Throws: a `CourierError` with code `invalidRequest` (or `encodingFailed`) whose `source`
    ///   names the block, when the block's input cannot be part of a valid request.
    func apply(to draft: inout RequestDraft) throws
}

extension RequestBuildable {
    /// Builds a request from this block alone, as endpoint repositories do.
    public var request: Request {
        get throws {
            var draft = RequestDraft()
            try apply(to: &draft)
            return try draft.build()
        }
    }
}

/// The blocks of one builder closure, applied in order.
public struct RequestBlockGroup: RequestBuildable {
    let blocks: [any RequestBuildable]

    init(_ blocks: [any RequestBuildable]) { self.blocks = blocks }

    /// The blocks of `groups` in order, in one array sized once (`flatMap` would grow it block by block).
    init(joining groups: [RequestBlockGroup]) {
        if groups.count == 1 {
            self = groups[0]
            return
        }
        var blocks: [any RequestBuildable] = []
        blocks.reserveCapacity(groups.reduce(0) { $0 + $1.blocks.count })
        for group in groups { blocks += group.blocks }
        self.blocks = blocks
    }

    public func apply(to draft: inout RequestDraft) throws {
        // By index, so each block is applied where it is stored rather than copied out first.
        for index in blocks.indices { try blocks[index].apply(to: &draft) }
    }
}

/// A block made of other blocks, for naming a reusable group:
/// `let jsonAPI = Group { Accept(.json); ContentType(.json) }`.
public struct Group: RequestBuildable {
    private let content: RequestBlockGroup

    /// Creates a group from the blocks in `content`.
    public init(@RequestBuilder _ content: () throws -> RequestBlockGroup) rethrows {
        self.content = try content()
    }

    public func apply(to draft: inout RequestDraft) throws { try content.apply(to: &draft) }
}
