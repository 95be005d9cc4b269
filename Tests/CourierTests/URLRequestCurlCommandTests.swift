@testable import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `URLRequest.curlCommand`, the short form: header lines curl sends identically by itself are
/// left out, and only those.
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
            #expect(request.curlCommand == """
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
}
