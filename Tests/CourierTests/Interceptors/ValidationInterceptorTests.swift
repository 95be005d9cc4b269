import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("Validation interceptor")
struct ValidationInterceptorTests {
    @Test func aNon2xxStatusIsATypedErrorCarryingTheResponseAndItsBody() async throws {
        try await withTestServer { server in
            let client = Client(interceptors: [ValidationInterceptor()])
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?status=404")))
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.response?.status == .notFound)
            #expect(error?.response?.isStreaming == false)
            #expect(error?.response?.text == "failure 1 of 1\n")
            #expect(error?.stage == "ValidationInterceptor")
        }
    }

    @Test func aSuccessPassesThroughUntouched() async throws {
        try await withTestServer { server async throws in
            let response = try await Client(interceptors: [ValidationInterceptor()]).send(
                Request(url: server.url("/status/204")))
            #expect(response.status == .noContent)
        }
    }

    @Test func acceptableStatusesAreConfigurable() async throws {
        try await withTestServer { server async throws in
            let client = Client(interceptors: [ValidationInterceptor(statuses: Array(200..<300) + [404])])
            #expect(try await client.send(Request(url: server.url("/status/404"))).status == .notFound)
            #expect(try await client.send(Request(url: server.url("/status/201"))).status == .created)
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request(url: server.url("/status/500")))
            }
            #expect(error?.code == .unacceptableStatus)
        }
    }

    @Test func aContentTypeTheRequestDidNotAcceptIsATypedError() async throws {
        try await withTestServer { server in
            let client = Client(interceptors: [ValidationInterceptor()])
            let request = try server.url("/flaky/\(uniqueKey())/0").buildRequest { Accept(.xml) }
            let error = await #expect(throws: CourierError.self) { try await client.send(request) }
            #expect(error?.code == .unacceptableContentType)
            #expect(error?.response?.contentType?.essence == "application/json")
            #expect(error?.message.contains("expected application/xml") == true)
        }
    }

    @Test func theAcceptHeaderAllowsMatchingTypesAndWildcards() async throws {
        try await withTestServer { server in
            let client = Client(interceptors: [ValidationInterceptor()])
            for accept: MIMEType in ["application/json", "application/*", "*/*", "text/html, application/json;q=0.5"] {
                let request = try server.url("/echo").buildRequest { Accept(accept) }
                #expect(try await client.send(request).status == .ok)
            }
            #expect(try await client.send(Request(url: server.url("/echo"))).status == .ok)
        }
    }

    @Test func explicitContentTypesOverrideTheAcceptHeader() async throws {
        try await withTestServer { server async throws in
            let strict = Client(interceptors: [ValidationInterceptor(contentTypes: .only([.plainText]))])
            let error = await #expect(throws: CourierError.self) {
                try await strict.send(Request(url: server.url("/echo")))
            }
            #expect(error?.code == .unacceptableContentType)
            let lenient = Client(interceptors: [ValidationInterceptor(contentTypes: .any)])
            let request = try server.url("/echo").buildRequest { Accept(.xml) }
            #expect(try await lenient.send(request).status == .ok)
        }
    }

    @Test func aBodylessResponseNeedsNoContentType() async throws {
        try await withTestServer { server async throws in
            let client = Client(interceptors: [ValidationInterceptor(contentTypes: .only([.json]))])
            #expect(try await client.send(Request(url: server.url("/status/204"))).status == .noContent)
            #expect(try await client.send(Request(url: server.url("/status/200"))).status == .ok)
        }
    }
}
