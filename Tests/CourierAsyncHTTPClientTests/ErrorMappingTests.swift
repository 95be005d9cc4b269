import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import CourierAsyncHTTPClient

@Suite("AsyncHTTPClientTransport error mapping")
struct ErrorMappingTests {
    static let request = Request(url: URL(string: "http://127.0.0.1:1/x")!)

    @Test(arguments: [
        (HTTPClientError.connectTimeout, CourierError.Code.timedOut),
        (.tlsHandshakeTimeout, .timedOut),
        (.getConnectionFromPoolTimeout, .timedOut),
        (.deadlineExceeded, .timedOut),
        (.readTimeout, .timedOut),
        (.cancelled, .cancelled),
        (.remoteConnectionClosed, .invalidResponse),
        (.alreadyShutdown, .cannotConnect),
        (.invalidURL, .invalidRequest),
    ])
    func asyncHTTPClientErrorsMapToTheirCodes(error: HTTPClientError, code: CourierError.Code) {
        let mapped = CourierError(mapping: error, request: Self.request, deadline: nil)
        #expect(mapped.code == code)
        #expect(mapped.request?.url == Self.request.url)
        #expect(mapped.underlying is HTTPClientError)
    }

    @Test func swiftNIOErrorsMapToTheirCodes() {
        let map = { (error: any Error) in CourierError(mapping: error, request: Self.request, deadline: nil).code }
        #expect(map(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .cannotConnect)
        #expect(map(IOError(errnoCode: ECONNRESET, reason: "read")) == .invalidResponse)
        #expect(map(ChannelError.connectTimeout(.seconds(1))) == .timedOut)
        #expect(map(ChannelError.eof) == .invalidResponse)
        #expect(map(HTTPParserError.invalidHeaderToken) == .invalidResponse)
        #expect(map(CancellationError()) == .cancelled)
    }

    @Test func passedDeadlineWinsOverTheErrorItCaused() {
        let mapped = CourierError(
            mapping: IOError(errnoCode: ECONNREFUSED, reason: "connect"), request: Self.request,
            deadline: .now() - .seconds(1))
        #expect(mapped.code == .timedOut)
    }

    @Test func courierErrorsPassThroughWithTheRequestAttached() {
        let mapped = CourierError(
            mapping: CourierError(.encodingFailed, "bad body"), request: Self.request, deadline: nil)
        #expect(mapped.code == .encodingFailed)
        #expect(mapped.message == "bad body")
        #expect(mapped.request?.url == Self.request.url)
    }
}
