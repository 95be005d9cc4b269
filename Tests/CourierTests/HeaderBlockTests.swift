import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Header blocks")
struct HeaderBlockTests {
    @Test func setValueReplacesAndAddValueJoinsWithComma() throws {
        let request = try build {
            Header.accept.setValue("text/html")
            Header.accept.setValue("application/json")
            Header.acceptEncoding.addValue("gzip")
            Header.acceptEncoding.addValue("br")
            Header.custom("X-Trace").addValue("a")
            Header.userAgent.setValue("Courier/1.0")
        }
        #expect(
            lines(request.headerFields) == [
                "Accept: application/json",
                "Accept-Encoding: gzip, br",
                "X-Trace: a",
                "User-Agent: Courier/1.0",
            ])
    }

    @Test func everyNamedHeaderWritesItsField() throws {
        let request = try build {
            Header.contentType.setValue("application/json")
            Header.accept.setValue("*/*")
            Header.authorization.setValue("Bearer t")
            Header.userAgent.setValue("ua")
            Header.origin.setValue("https://app.example.com")
            Header.cookie.setValue("a=1")
            Header.cookie.addValue("b=2")
            Header.referer.setValue("https://example.com/page")
            Header.host.setValue("api.example.com")
            Header.acceptLanguage.setValue("en")
            Header.acceptEncoding.setValue("gzip")
            Header.cacheControl.setValue("no-cache")
        }
        #expect(
            lines(request.wireHeaderFields) == [
                "Content-Type: application/json", "Accept: */*", "Authorization: Bearer t", "User-Agent: ua",
                "Origin: https://app.example.com", "Cookie: a=1; b=2", "Referer: https://example.com/page",
                "Host: api.example.com", "Accept-Language: en", "Accept-Encoding: gzip", "Cache-Control: no-cache",
            ])
    }

    @Test func removeDeletesEveryLineOfTheField() throws {
        let request = try build {
            Header.custom("X-A").setValue("1")
            Header.custom("x-a").remove()
        }
        #expect(request.headerFields.isEmpty)
    }

    @Test func cookiesAccumulateIntoOneLine() throws {
        let request = try build {
            Cookie("session", "abc123")
            Cookie("theme", "dark")
        }
        #expect(request.headerFields[.cookie] == "session=abc123; theme=dark")
        #expect(lines(request.wireHeaderFields) == ["Cookie: session=abc123; theme=dark"])
    }

    @Test func acceptAccumulatesWithQualityValues() throws {
        let request = try build {
            Accept(.json)
            Accept(.plainText, quality: 0.5)
            Accept(.any, quality: 0.125)
        }
        #expect(lines(request.headerFields) == ["Accept: application/json, text/plain;q=0.5, */*;q=0.125"])
    }

    @Test func acceptLanguageWeighsLanguagesInOrder() throws {
        let request = try build {
            AcceptLanguage("en-US", "en", "fr")
            AcceptLanguage("de", quality: 0.2)
        }
        #expect(lines(request.headerFields) == ["Accept-Language: en-US, en;q=0.9, fr;q=0.8, de;q=0.2"])
    }

    @Test func contentTypeBlockWinsOverTheBodyType() throws {
        let request = try build {
            ContentType("application/vnd.api+json")
            RequestBody.string("{}", type: .json)
        }
        #expect(request.headerFields[.contentType] == "application/vnd.api+json")
    }

    @Test func cacheControlWritesDirectivesInOrder() throws {
        let request = try build {
            CacheControl([
                .noCache, .noStore, .maxAge(60), .maxStale(nil), .minFresh(5), .custom("stale-while-revalidate=30"),
            ])
        }
        #expect(
            request.headerFields[.cacheControl]
                == "no-cache, no-store, max-age=60, max-stale, min-fresh=5, stale-while-revalidate=30")
    }

    @Test func idempotencyKeyIsAFreshUUIDEachBuild() throws {
        let first = try build { IdempotencyKey() }
        let second = try build { IdempotencyKey() }
        let key = try #require(first.headerFields[HTTPField.Name("Idempotency-Key")!])
        #expect(UUID(uuidString: key) != nil)
        #expect(key == key.lowercased())
        #expect(key != second.headerFields[HTTPField.Name("Idempotency-Key")!])
        let fixed = try build { IdempotencyKey("order-42") }
        #expect(fixed.headerFields[HTTPField.Name("Idempotency-Key")!] == "order-42")
    }

    @Test func surroundingWhiteSpaceIsTrimmed() throws {
        let request = try build { Header.custom("X-Pad").setValue("  value \t") }
        #expect(request.headerFields[HTTPField.Name("X-Pad")!] == "value")
    }
}

@Suite("Headers group")
struct HeadersGroupTests {
    @Test func nodesUseTheirDefaultModes() throws {
        let request = try build {
            Headers {
                AcceptHeader(.json)
                AcceptHeader(.plainText).quality(0.5)
                ContentTypeHeader(.json)
                ContentTypeHeader(.xml)
                UserAgentHeader("Courier/1.0")
                HostHeader("api.example.com")
                OriginHeader("https://app.example.com")
                RefererHeader("https://app.example.com/home")
                AcceptLanguageHeader("en")
                AcceptLanguageHeader("fr").quality(0.8)
                AcceptEncodingHeader("gzip")
                AcceptEncodingHeader("br")
                AuthorizationHeader.bearer("abc.def-ghi")
                CustomHeader("X-Source", "ios")
            }
        }
        #expect(
            lines(request.headerFields) == [
                "Accept: application/json, text/plain;q=0.5",
                "Content-Type: application/xml",
                "User-Agent: Courier/1.0",
                "Host: api.example.com",
                "Origin: https://app.example.com",
                "Referer: https://app.example.com/home",
                "Accept-Language: en, fr;q=0.8",
                "Accept-Encoding: gzip, br",
                "Authorization: Bearer abc.def-ghi",
                "X-Source: ios",
            ])
    }

    @Test func replacingAndAppendingFlipTheMode() throws {
        let request = try build {
            Headers {
                AcceptHeader(.json)
                AcceptHeader(.xml).replacing()
                CustomHeader("X-Tag", "a")
                CustomHeader("X-Tag", "b").appending()
            }
        }
        #expect(lines(request.headerFields) == ["Accept: application/xml", "X-Tag: a, b"])
    }

    @Test func authorizationNodesFormatEachScheme() throws {
        let cases: [(AuthorizationHeader, String)] = [
            (.bearer("t0k3n=="), "Bearer t0k3n=="),
            (.basic(username: "Aladdin", password: "open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
            (.token("abc"), "Token abc"),
            (.scheme("Digest", credentials: "username=\"a\""), "Digest username=\"a\""),
            (.raw("Custom xyz"), "Custom xyz"),
        ]
        for (node, expected) in cases {
            let request = try build { Headers { node } }
            #expect(request.headerFields[.authorization] == expected)
        }
    }

    @Test func controlFlowWorksInsideTheGroup() throws {
        let locale: String? = "de"
        let extra = ["X-A", "X-B"]
        let request = try build {
            Headers {
                if let locale { AcceptLanguageHeader(locale) }
                for name in extra { CustomHeader(name, "1") }
                if extra.isEmpty { AcceptHeader(.json) } else { AcceptHeader(.xml) }
            }
        }
        #expect(lines(request.headerFields) == ["Accept-Language: de", "X-A: 1", "X-B: 1", "Accept: application/xml"])
    }
}
