import Courier
import Foundation
import Testing

@Suite("Bad input fails the build with a typed error")
struct BadInputTests {
    static let injected = ["a\r\nX-Injected: 1", "line\nfeed", "nul\u{0}byte", "bell\u{7}"]

    @Test(arguments: injected)
    func headerValuesWithControlCharactersAreRejected(value: String) {
        let blocks: [(String, any RequestBuildable)] = [
            ("Header.custom", Header.custom("X-A").setValue(value)),
            ("Header.accept", Header.accept.addValue(value)),
            ("CustomHeader", Headers { CustomHeader("X-A", value) }),
            ("UserAgentHeader", Headers { UserAgentHeader(value) }),
            ("ContentType", ContentType(MIMEType(value))),
            ("IdempotencyKey", IdempotencyKey(value)),
        ]
        for (block, content) in blocks {
            let error = #expect(throws: CourierError.self) { try build { Group { content } } }
            #expect(error?.code == .invalidRequest)
            #expect(error?.source == block)
        }
    }

    @Test(arguments: ["", "Bad Name", "X-A:", "naïve", "a\nb", "(comment)"])
    func invalidHeaderNamesAreRejected(name: String) {
        let error = #expect(throws: CourierError.self) { try build { Header.custom(name).setValue("v") } }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "Header.custom")
    }

    @Test func theErrorMessageSaysWhatWasWrong() {
        let error = #expect(throws: CourierError.self) { try build { Header.custom("X-A").setValue("a\r\nb") } }
        #expect(error?.message.contains("carriage return") == true)
        #expect(error?.description.contains("Header.custom") == true)
    }

    @Test(arguments: [("bad name", "v"), ("ok", "has space"), ("ok", "semi;colon"), ("ok", "quo\"te"), ("", "v")])
    func invalidCookiesAreRejected(name: String, value: String) {
        let error = #expect(throws: CourierError.self) { try build { Cookie(name, value) } }
        #expect(error?.source == "Cookie")
    }

    @Test func invalidMethodNamesAreRejected() {
        let error = #expect(throws: CourierError.self) { try build { Method.custom("GET THINGS") } }
        #expect(error?.source == "Method.custom")
    }

    @Test(arguments: [-0.1, 1.5, Double.nan])
    func qualityOutsideZeroToOneIsRejected(quality: Double) {
        let error = #expect(throws: CourierError.self) { try build { Accept(.json, quality: quality) } }
        #expect(error?.source == "Accept")
    }

    @Test(arguments: [0.0, -1.0, Double.infinity])
    func nonPositiveTimeoutsAreRejected(seconds: Double) {
        let error = #expect(throws: CourierError.self) { try build { Timeout(seconds) } }
        #expect(error?.source == "Timeout")
    }

    @Test func negativeCacheAgesAreRejected() {
        let error = #expect(throws: CourierError.self) { try build { CacheControl([.maxAge(-1)]) } }
        #expect(error?.source == "CacheControl")
    }

    @Test func aMissingFileBodyFailsTheBuild() {
        let error = #expect(throws: CourierError.self) {
            try build { RequestBody.file(URL(fileURLWithPath: "/nonexistent/courier-test")) }
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.file")
    }

    @Test func aDraftWithoutSchemeOrHostFailsTheBuild() {
        let error = #expect(throws: CourierError.self) { try RequestDraft().build() }
        #expect(error?.code == .invalidRequest)
    }
}
