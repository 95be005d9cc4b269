import CCurl
@testable import CourierCurl
import Testing

@Suite("HeaderTails: the shared end of every request's header list")
struct HeaderTailsTests {
    @Test func aRequestWithoutAcceptOrExpectGetsBothSuppressedAndTheUserAgent() throws {
        let tails = try #require(HeaderTails(userAgent: "Courier-Test/1"))
        let lines = Self.lines(tails.tail(requestHasExpect: false, requestHasAccept: false, requestHasUserAgent: false))
        #expect(lines == ["Expect:", "Accept:", "User-Agent: Courier-Test/1"])
    }

    @Test func fieldsTheRequestSetsItselfAreLeftToIt() throws {
        let tails = try #require(HeaderTails(userAgent: "Courier-Test/1"))
        #expect(Self.lines(tails.tail(requestHasExpect: true, requestHasAccept: true, requestHasUserAgent: true)) == [])
        #expect(Self.lines(tails.tail(requestHasExpect: true, requestHasAccept: false, requestHasUserAgent: true)) == ["Accept:"])
    }

    @Test func withoutAConfiguredUserAgentNoneIsAdded() throws {
        let tails = try #require(HeaderTails(userAgent: nil))
        #expect(Self.lines(tails.tail(requestHasExpect: false, requestHasAccept: true, requestHasUserAgent: false)) == ["Expect:"])
    }

    private static func lines(_ list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var lines: [String] = []
        var node = list
        while let current = node {
            lines.append(String(cString: current.pointee.data))
            node = current.pointee.next
        }
        return lines
    }
}
