package import Courier
package import HTTPTypes

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// What a `courier_request` handle names: a valid `Request` that C setters edit one block at a time.
///
/// The request is always valid: each setter applies a builder block to a copy and keeps the copy
/// only when the block accepted its input, so a failed call leaves the request as it was.
///
/// Unchecked `Sendable` as `Locked` is: its state only under the lock.
package final class RequestBox: Locked<RequestBox.State>, HandleObject, @unchecked Sendable {
    package static let handleKind = HandleKind.request

    package struct State {
        package var request: Request
        /// The fields of a form body being built by `courier_request_add_form_field`.
        package var formItems: [URLQueryItem]?
        /// The parts of a multipart body being built by `courier_request_add_multipart_*`.
        package var multipartParts: [MultipartPart]?
        /// The Content-Type the current body set, so the next body replaces it rather than keeping it.
        package var bodyContentType: String?
        /// Copies handed out to C.
        package var borrowed = BorrowedSlot()

        package init(request: Request) { self.request = request }

        /// This state without the copies, for a clone.
        package var withoutBorrowed: State {
            var copy = self
            copy.borrowed = BorrowedSlot()
            return copy
        }
    }

    package init(_ request: Request) {
        super.init(State(request: request))
    }

    /// Makes this box new again, holding `request`, for reuse once no handle names it.
    package func reset(holding request: Request) {
        withLock { $0 = State(request: request) }
    }

    package var request: Request { withLock { $0.request } }

    /// Applies `edit` to the request in place; on success, pointers handed out before become invalid.
    ///
    /// Every edit checks its input before it changes anything, so one that throws leaves the
    /// request as it was without the cost of editing a copy.
    package func edit(_ edit: (inout State) throws -> Void) rethrows {
        try withLock { state in
            try edit(&state)
            state.borrowed.invalidate()
        }
    }

    /// Applies builder blocks to the request, validated as the Swift builder validates them.
    package func update(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws {
        try edit { state in state.request = try state.request.updating(content) }
    }

    /// Replaces the body with `body`, replacing the Content-Type the previous body set; changes
    /// nothing when the body cannot be encoded.
    package static func setBody(_ body: RequestBody, on state: inout State) throws {
        var request = state.request
        if let previous = state.bodyContentType, request.headerFields[.contentType] == previous {
            request.headerFields[.contentType] = nil
        }
        let typeWasSet = request.headerFields[.contentType] != nil
        request = try request.updating { body }
        state.formItems = nil
        state.multipartParts = nil
        state.bodyContentType = typeWasSet ? nil : request.headerFields[.contentType]
        state.request = request
    }
}
