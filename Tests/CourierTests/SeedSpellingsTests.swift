import CourierFoundation
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Each idea the seeds spell several ways is one implementation: every spelling of it builds the
/// same request, byte for byte. (The table of spellings is in the Block Reference article.)
@Suite struct SeedSpellingsTests {
    /// A DeclarativeNetworking-style custom header, the seed's extension point.
    struct TraceHeader: URLRequestHeader {
        var name: String { "X-Trace" }
        var value: String { "abc" }
    }

    private func wireLines(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws -> [String] {
        let request = try build("https://api.example.com/v1", content)
        return [request.method.rawValue] + lines(request.wireHeaderFields)
    }

    @Test func everyMethodSpellingSetsTheSameMethod() throws {
        for method in HTTPMethod.allCases {
            let core = try wireLines { Method.custom(method.rawValue) }
            #expect(try wireLines { method } == core)
            #expect(try wireLines { method.block } == core)
        }
        #expect(try wireLines { HTTPMethod.POST } == (try wireLines { Method.POST }))
    }

    @Test func acceptSpellingsWriteOneLineWithTheSameWeights() throws {
        let core = try wireLines {
            Accept(.json)
            Accept(.plainText, quality: 0.5)
        }
        #expect(core.last == "Accept: application/json, text/plain;q=0.5")
        #expect(
            try wireLines {
                Headers {
                    AcceptHeader(.json)
                    AcceptHeader(.plainText).quality(0.5)
                }
            } == core)
        #expect(
            try wireLines {
                Header.accept.addValue("application/json")
                Header.accept.addValue("text/plain;q=0.5")
            } == core)
    }

    @Test func contentTypeSpellingsReplaceTheSameField() throws {
        let core = try wireLines { ContentType(.json) }
        #expect(try wireLines { ContentType("application/json") } == core)
        #expect(try wireLines { Headers { ContentTypeHeader(.json) } } == core)
        #expect(try wireLines { Header.contentType.setValue("application/json") } == core)
    }

    @Test func acceptLanguageSpellingsWeighTheSameWay() throws {
        let core = try wireLines { AcceptLanguage("en-US", "en") }
        #expect(core.last == "Accept-Language: en-US, en;q=0.9")
        #expect(
            try wireLines {
                Headers {
                    AcceptLanguageHeader("en-US")
                    AcceptLanguageHeader("en").quality(0.9)
                }
            } == core)
        #expect(
            try wireLines {
                AcceptLanguage("en-US", quality: 1)
                AcceptLanguage("en", quality: 0.9)
            } == ["GET", "Accept-Language: en-US;q=1, en;q=0.9"])
        #expect(try wireLines { Header.acceptLanguage.setValue("en-US, en;q=0.9") } == core)
    }

    @Test func authorizationSpellingsShareTheCredentialFormatting() throws {
        let core = try wireLines { Authorization.bearer("t0k3n") }
        #expect(try wireLines { Authorization(.bearer("t0k3n")) } == core)
        #expect(try wireLines { Headers { AuthorizationHeader.bearer("t0k3n") } } == core)
        #expect(try wireLines { Header.authorization.setValue("Bearer t0k3n") } == core)

        let basic = try wireLines { Authorization.basic(username: "ada", password: "pa:ss") }
        #expect(try wireLines { Authorization(.basic(username: "ada", password: "pa:ss")) } == basic)
        #expect(try wireLines { Headers { AuthorizationHeader.basic(username: "ada", password: "pa:ss") } } == basic)
    }

    @Test func invalidCredentialsFailTheSameWayInEverySpelling() {
        let spellings: [(String, () throws -> Request)] = [
            ("Authorization.bearer", { try build { Authorization.bearer("has space") } }),
            ("AuthorizationHeader.bearer", { try build { Headers { AuthorizationHeader.bearer("has space") } } }),
        ]
        for (block, make) in spellings {
            #expect(throws: CourierError.self, "\(block)") { _ = try make() }
        }
    }

    @Test func cacheControlSpellingsWriteTheSameDirectives() throws {
        let core = try wireLines { CacheControl([.noCache, .noStore]) }
        #expect(core.last == "Cache-Control: no-cache, no-store")
        #expect(try wireLines { Header.cacheControl.setValue("no-cache, no-store") } == core)
    }

    @Test func customHeaderSpellingsSetTheSameField() throws {
        let core = try wireLines { Header.custom("X-Trace").setValue("abc") }
        #expect(try wireLines { Headers { CustomHeader("X-Trace", "abc") } } == core)
        #expect(try wireLines { TraceHeader() } == core)
    }

    @Test func userAgentHostOriginAndRefererNodesAreTheirHeaderFields() throws {
        #expect(
            try wireLines {
                Headers {
                    UserAgentHeader("Courier/1.0")
                    HostHeader("api.example.com")
                    OriginHeader("https://app.example.com")
                    RefererHeader("https://example.com/")
                    AcceptEncodingHeader("gzip")
                }
            }
                == (try wireLines {
                    Header.userAgent.setValue("Courier/1.0")
                    Header.host.setValue("api.example.com")
                    Header.origin.setValue("https://app.example.com")
                    Header.referer.setValue("https://example.com/")
                    Header.acceptEncoding.addValue("gzip")
                }))
    }
}
