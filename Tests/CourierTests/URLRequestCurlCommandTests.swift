import CourierFoundation
import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLRequest.curlCommand`, the short form: header lines curl sends identically by itself are
/// left out, and real curl still sends exactly the request.
@Suite("URLRequest.curlCommand")
struct URLRequestCurlCommandTests {
    @Test func anEmptyPostKeepsItsContentLengthSinceCurlSendsNoneWithoutData() throws {
        let built = try URLRequest {
            BaseURL("https://api.example.com")
            HTTPMethod.POST
            "ping"
            RequestBody.empty
        }
        var handMade = URLRequest(url: try #require(URL(string: "https://api.example.com/ping")))
        handMade.httpMethod = "POST"
        handMade.setValue("0", forHTTPHeaderField: "Content-Length")
        for request in [built, handMade] {
            #expect(
                request.curlCommand == """
                    curl 'https://api.example.com/ping' \\
                      --request POST \\
                      -H 'Content-Length: 0' \\
                      -H 'Accept:' \\
                      -H 'User-Agent:'
                    """)
        }
    }

    @Test func aContentLengthIsLeftOutOnlyWhenCurlIsGivenDataOfThatLength() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/notes")))
        request.httpMethod = "PUT"
        request.httpBody = Data("hello".utf8)
        request.setValue("5", forHTTPHeaderField: "Content-Length")
        #expect(!request.curlCommand.contains("Content-Length"))
        request.setValue("4", forHTTPHeaderField: "Content-Length")
        #expect(request.curlCommand.contains("\n  -H 'Content-Length: 4' \\\n"))
    }

    /// A `URLRequest` aimed at the echo route, built from the server's URL.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let make: @Sendable (_ echoURL: String) throws -> URLRequest

        static let all: [Case] = [
            Case(testDescription: "GET with Accept: */* and a query") { echo in
                var request = try URLRequest {
                    BaseURL(echo)
                    "items"
                    Query("q", "a b&c")
                }
                request.setValue("*/*", forHTTPHeaderField: "Accept")
                request.setValue("Courier-Test", forHTTPHeaderField: "User-Agent")
                return request
            },
            Case(testDescription: "POST JSON") { echo in
                try URLRequest {
                    BaseURL(echo)
                    HTTPMethod.POST
                    "json"
                    RequestBody.json(text: #"{"name":"O'Brien","n":1}"#)
                }
            },
            Case(testDescription: "empty POST") { echo in
                try URLRequest {
                    BaseURL(echo)
                    HTTPMethod.POST
                    "empty"
                    RequestBody.empty
                }
            },
            Case(testDescription: "POST form") { echo in
                try URLRequest {
                    BaseURL(echo)
                    HTTPMethod.POST
                    "form"
                    RequestBody.urlEncoded([
                        URLQueryItem(name: "q", value: "a b"), URLQueryItem(name: "x", value: "1&2"),
                    ])
                }
            },
        ]
    }

    @Test(arguments: Case.all)
    func theShortCommandStillSendsExactlyTheRequest(_ testCase: Case) async throws {
        try await withTestServer { server in
            let urlRequest = try testCase.make(server.baseURL.absoluteString + "/echo")
            try await expectCurlReproduces(
                try Request(urlRequest), on: server, shell: "/bin/sh",
                command: urlRequest.curlCommand, anyHeaderOrder: true)
        }
    }
}
