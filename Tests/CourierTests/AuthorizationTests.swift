import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Authorization")
struct AuthorizationTests {
    @Test func bearerFollowsRFC6750() throws {
        let request = try build { Authorization.bearer("mF_9.B5f-4.1JqM") }
        #expect(request.headerFields[.authorization] == "Bearer mF_9.B5f-4.1JqM")
    }

    @Test func basicEncodesUTF8CredentialsPerRFC7617() throws {
        let request = try build { Authorization.basic(username: "test", password: "123£") }
        #expect(request.headerFields[.authorization] == "Basic dGVzdDoxMjPCow==")
    }

    @Test func tokenOtherAndRawWriteTheirValue() throws {
        #expect(try build { Authorization.token("abc") }.headerFields[.authorization] == "Token abc")
        #expect(
            try build { Authorization.other("AWS4-HMAC-SHA256", credentials: "Credential=x") }
                .headerFields[.authorization] == "AWS4-HMAC-SHA256 Credential=x")
        #expect(try build { Authorization.raw("whatever") }.headerFields[.authorization] == "whatever")
    }

    @Test func customClosureSeesTheCompleteRequest() throws {
        let request = try build {
            Authorization.custom { request in
                request.headerFields[HTTPField.Name("X-Signed-Path")!] = request.url.path
            }
            PathComponent("orders")
        }
        #expect(request.headerFields[HTTPField.Name("X-Signed-Path")!] == "/v1/orders")
    }

    @Test func userSchemesConformToTheProtocol() throws {
        struct APIKey: AuthorizationScheme {
            let key: String
            func authorize(_ request: inout Request) throws {
                request.headerFields[HTTPField.Name("X-API-Key")!] = key
            }
        }
        let request = try build { Authorization(APIKey(key: "k1")) }
        #expect(request.headerFields[HTTPField.Name("X-API-Key")!] == "k1")
    }

    @Test(arguments: [
        ("Authorization.bearer", Authorization.bearer("has space")),
        ("Authorization.bearer", Authorization.bearer("")),
        ("Authorization.basic", Authorization.basic(username: "a:b", password: "c")),
        ("Authorization.basic", Authorization.basic(username: "a", password: "line\nbreak")),
        ("Authorization.other", Authorization.other("Bad Scheme", credentials: "x")),
        ("Authorization.raw", Authorization.raw("x\r\nInjected: yes")),
    ])
    func invalidCredentialsFailTheBuildNamingTheBlock(block: String, authorization: Authorization) throws {
        let error = #expect(throws: CourierError.self) { try build { authorization } }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == block)
    }
}
