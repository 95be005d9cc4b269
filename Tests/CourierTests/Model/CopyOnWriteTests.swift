import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// `Request`, `Response` and `CourierError` keep their fields behind one shared reference (copy on
/// write); these pin that a copy still never sees another copy's change, field by field.
@Suite("Copy on write")
struct CopyOnWriteTests {
    private static let url = URL(string: "https://example.com/a")!

    @Test func aCopyOnWriteValueChangesOnlyTheCopyThatChanges() {
        var original = CopyOnWrite([1, 2])
        var copy = original
        copy.fields.append(3)
        #expect(original.fields == [1, 2] && copy.fields == [1, 2, 3])
        original.fields[0] = 9
        original.fields[1] = 8
        #expect(original.fields == [9, 8] && copy.fields == [1, 2, 3])
    }

    @Test func aChangedCopyOfARequestLeavesTheOriginalAsItWas() {
        let original = Request(method: .get, url: Self.url, headerFields: [.accept: "text/plain"])
        var copy = original
        copy.method = .post
        copy.url = URL(string: "https://example.com/b")!
        copy.headerFields[.accept] = "application/json"
        copy.body = .data(Data("x".utf8))
        copy.timeout = .seconds(3)
        copy.options[ShouldHandleCookiesOption.self] = false
        #expect(original.method == .get && original.url == Self.url)
        #expect(original.headerFields[.accept] == "text/plain" && original.body == nil && original.timeout == nil)
        #expect(original.options[ShouldHandleCookiesOption.self] == true)
        #expect(copy.method == .post && copy.headerFields[.accept] == "application/json" && copy.timeout == .seconds(3))
    }

    @Test func aChangedCopyOfAResponseLeavesTheOriginalAsItWas() {
        let request = Request(url: Self.url)
        let original = Response(
            status: .ok, headerFields: [.contentType: "text/plain"], body: Data("a".utf8), request: request)
        var copy = original
        copy.status = .notFound
        copy.headerFields[.contentType] = "text/html"
        copy.body.append(contentsOf: Data("b".utf8))
        copy.request.url = URL(string: "https://example.com/b")!
        copy.history.append(original)
        copy.metrics.redirectCount = 2
        copy.bodyStream = ResponseBodyStream(Data("c".utf8))
        #expect(original.status == .ok && original.headerFields[.contentType] == "text/plain")
        #expect(original.body == Data("a".utf8) && original.request.url == Self.url)
        #expect(original.history.isEmpty && original.metrics.redirectCount == 0 && original.bodyStream == nil)
        #expect(copy.body == Data("ab".utf8) && copy.history.count == 1 && copy.metrics.redirectCount == 2)
    }

    @Test func anErrorsRequestAndResponseChangeOnlyInTheCopyThatSetsThem() {
        let request = Request(url: Self.url)
        let original = CourierError(.timedOut, "slow")
        var copy = original
        copy.request = request
        #expect(original.request == nil && original.response == nil)
        #expect(copy.request?.url == Self.url && copy.response == nil)
        var answered = copy
        answered.response = Response(status: .ok, request: request)
        #expect(copy.response == nil && answered.response?.status == .ok && answered.request?.url == Self.url)
        answered.request = nil
        answered.response = nil
        #expect(answered.request == nil && answered.response == nil && copy.request?.url == Self.url)
    }
}
