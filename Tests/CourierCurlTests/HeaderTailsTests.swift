import Testing

@testable import CourierCurl

// No `import CCurl` in the tests: a test file that imports the C module makes the importer
// attribute glibc's socket types to it in a fresh build, and files that only import Glibc then
// lose `SOCK_STREAM` (seen on a fresh clone, never in an incremental build).
@Suite("HeaderTails: the shared end of every request's header list")
struct HeaderTailsTests {
    @Test func aRequestWithoutAcceptOrExpectGetsBothSuppressedAndTheUserAgent() throws {
        let tails = try #require(HeaderTails(userAgent: "Courier-Test/1"))
        #expect(
            tails.lines(requestHasExpect: false, requestHasAccept: false, requestHasUserAgent: false)
                == ["Expect:", "Accept:", "User-Agent: Courier-Test/1"])
    }

    @Test func fieldsTheRequestSetsItselfAreLeftToIt() throws {
        let tails = try #require(HeaderTails(userAgent: "Courier-Test/1"))
        #expect(tails.lines(requestHasExpect: true, requestHasAccept: true, requestHasUserAgent: true) == [])
        #expect(tails.lines(requestHasExpect: true, requestHasAccept: false, requestHasUserAgent: true) == ["Accept:"])
    }

    @Test func withoutAConfiguredUserAgentNoneIsAdded() throws {
        let tails = try #require(HeaderTails(userAgent: nil))
        #expect(tails.lines(requestHasExpect: false, requestHasAccept: true, requestHasUserAgent: false) == ["Expect:"])
    }
}
