import Courier
import Foundation
import HTTPTypes
import Testing

@Suite(".netrc credentials")
struct NetrcTests {
    private static let aliceBasic = "Basic " + Data("alice:wonder".utf8).base64EncodedString()

    @Test func entriesAreReadAsCurlReadsThem() throws {
        let netrc = try Netrc(
            parsing: """
                # a comment, to the end of its line
                machine API.example.com login alice password wonder
                machine api.example.com login shadowed password never
                macdef init
                cd /pub
                bye

                machine quoted.example login "bob smith" password "a \\"b\\" c"
                default login anonymous password guest@
                """)
        #expect(netrc.login(for: "api.example.com") == .init(user: "alice", password: "wonder"))
        #expect(netrc.login(for: "quoted.example") == .init(user: "bob smith", password: "a \"b\" c"))
        #expect(netrc.login(for: "elsewhere.example") == .init(user: "anonymous", password: "guest@"))
    }

    @Test func aMisplacedTokenNamesItsLine() {
        let error = #expect(throws: CourierError.self) {
            try Netrc(parsing: "machine a.example login alice\npassword\n", file: "/home/me/.netrc")
        }
        #expect(error?.message.contains("/home/me/.netrc, line 2") == true, "\(String(describing: error))")
        #expect(throws: CourierError.self) { try Netrc(parsing: "login alice") }
    }

    @Test func theStandardFileIsNetrcThenHome() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "machine h login home".write(
            to: directory.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8)
        try "machine h login named".write(
            to: directory.appendingPathComponent("named"), atomically: true, encoding: .utf8)
        #expect(try Netrc.standard(environment: ["HOME": directory.path])?.login(for: "h")?.user == "home")
        let named = directory.appendingPathComponent("named").path
        #expect(
            try Netrc.standard(environment: ["HOME": directory.path, "NETRC": named])?.login(for: "h")?.user == "named")
        #expect(try Netrc.standard(environment: ["HOME": directory.appendingPathComponent("none").path]) == nil)
    }

    @Test func aRequestWithoutCredentialsGetsItsHostsAndOnlyThat() async throws {
        let mock = MockTransport { _ in .text("ok") }
        var configuration = Client.Configuration()
        configuration.netrc = try Netrc(parsing: "machine api.example.com login alice password wonder")
        let client = Client(transport: mock, configuration: configuration)
        _ = try await client.send(try Request { BaseURL("https://api.example.com/a") })
        _ = try await client.send(try Request { BaseURL("https://other.example.com/a") })
        _ = try await client.send(
            try Request {
                BaseURL("https://api.example.com/a")
                Authorization.bearer("token")
            })
        #expect(mock.requests.map { $0.headerFields[.authorization] } == [Self.aliceBasic, nil, "Bearer token"])
    }

    @Test func aRedirectToAnotherOriginDropsThem() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/same-origin"))
        mock.enqueue(.redirect(to: "https://elsewhere.example/next"))
        mock.enqueue(.text("done"))
        var configuration = Client.Configuration()
        configuration.netrc = try Netrc(parsing: "default login alice password wonder")
        _ = try await Client(transport: mock, configuration: configuration).send(
            try Request { BaseURL("https://api.example.com/start") })
        #expect(mock.requests.map { $0.headerFields[.authorization] } == [Self.aliceBasic, Self.aliceBasic, nil])
    }
}
