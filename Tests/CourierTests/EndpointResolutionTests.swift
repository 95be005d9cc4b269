import Courier
import Foundation
import TestProcesses
import Testing

/// One row of the resolution table: `Endpoint(reference)` after `BaseURL(base)` gives `expected`.
struct ResolutionCase: Sendable, CustomTestStringConvertible {
    let base: String
    let reference: String
    let expected: String

    init(_ base: String, _ reference: String, _ expected: String) {
        self.base = base
        self.reference = reference
        self.expected = expected
    }

    var testDescription: String { "\(base) + \"\(reference)\"" }
}

/// A row where `urljoin` departs from RFC 3986 and Courier follows the RFC.
struct ResolutionDeviation: Sendable, CustomTestStringConvertible {
    let base: String
    let reference: String
    let urljoin: String
    let courier: String

    init(_ base: String, _ reference: String, urljoin: String, courier: String) {
        self.base = base
        self.reference = reference
        self.urljoin = urljoin
        self.courier = courier
    }

    var testDescription: String { "\(base) + \"\(reference)\"" }
}

@Suite("Endpoint resolution")
struct EndpointResolutionTests {
    /// `urljoin(base, reference)` from Python 3.11.7, fragment removed; printed by `Tests/Fixtures/urljoin_table.py`.
    static let urljoinCases: [ResolutionCase] = [
        ResolutionCase("http://a/b/c/d;p?q", "g", "http://a/b/c/g"),
        ResolutionCase("http://a/b/c/d;p?q", "./g", "http://a/b/c/g"),
        ResolutionCase("http://a/b/c/d;p?q", "g/", "http://a/b/c/g/"),
        ResolutionCase("http://a/b/c/d;p?q", "/g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "//g", "http://g"),
        ResolutionCase("http://a/b/c/d;p?q", "?y", "http://a/b/c/d;p?y"),
        ResolutionCase("http://a/b/c/d;p?q", "g?y", "http://a/b/c/g?y"),
        ResolutionCase("http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q"),
        ResolutionCase("http://a/b/c/d;p?q", "g#s", "http://a/b/c/g"),
        ResolutionCase("http://a/b/c/d;p?q", "g?y#s", "http://a/b/c/g?y"),
        ResolutionCase("http://a/b/c/d;p?q", ";x", "http://a/b/c/;x"),
        ResolutionCase("http://a/b/c/d;p?q", "g;x", "http://a/b/c/g;x"),
        ResolutionCase("http://a/b/c/d;p?q", "g;x?y#s", "http://a/b/c/g;x?y"),
        ResolutionCase("http://a/b/c/d;p?q", "", "http://a/b/c/d;p?q"),
        ResolutionCase("http://a/b/c/d;p?q", ".", "http://a/b/c/"),
        ResolutionCase("http://a/b/c/d;p?q", "./", "http://a/b/c/"),
        ResolutionCase("http://a/b/c/d;p?q", "..", "http://a/b/"),
        ResolutionCase("http://a/b/c/d;p?q", "../", "http://a/b/"),
        ResolutionCase("http://a/b/c/d;p?q", "../g", "http://a/b/g"),
        ResolutionCase("http://a/b/c/d;p?q", "../..", "http://a/"),
        ResolutionCase("http://a/b/c/d;p?q", "../../", "http://a/"),
        ResolutionCase("http://a/b/c/d;p?q", "../../g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "../../../g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "../../../../g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "/./g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "/../g", "http://a/g"),
        ResolutionCase("http://a/b/c/d;p?q", "g.", "http://a/b/c/g."),
        ResolutionCase("http://a/b/c/d;p?q", ".g", "http://a/b/c/.g"),
        ResolutionCase("http://a/b/c/d;p?q", "g..", "http://a/b/c/g.."),
        ResolutionCase("http://a/b/c/d;p?q", "..g", "http://a/b/c/..g"),
        ResolutionCase("http://a/b/c/d;p?q", "./../g", "http://a/b/g"),
        ResolutionCase("http://a/b/c/d;p?q", "./g/.", "http://a/b/c/g/"),
        ResolutionCase("http://a/b/c/d;p?q", "g/./h", "http://a/b/c/g/h"),
        ResolutionCase("http://a/b/c/d;p?q", "g/../h", "http://a/b/c/h"),
        ResolutionCase("http://a/b/c/d;p?q", "g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ResolutionCase("http://a/b/c/d;p?q", "g;x=1/../y", "http://a/b/c/y"),
        ResolutionCase("http://a/b/c/d;p?q", "g?y/./x", "http://a/b/c/g?y/./x"),
        ResolutionCase("http://a/b/c/d;p?q", "g?y/../x", "http://a/b/c/g?y/../x"),
        ResolutionCase("http://a/b/c/d;p?q", "g#s/./x", "http://a/b/c/g"),
        ResolutionCase("http://a/b/c/d;p?q", "g#s/../x", "http://a/b/c/g"),
        ResolutionCase("http://a/b/c/d;p?q", "http:g", "http://a/b/c/g"),
        ResolutionCase("https://api.example.com/v1", "users", "https://api.example.com/users"),
        ResolutionCase("https://api.example.com/v1/", "users", "https://api.example.com/v1/users"),
        ResolutionCase("https://api.example.com/v1/", "users/", "https://api.example.com/v1/users/"),
        ResolutionCase("https://api.example.com/v1/", "/users", "https://api.example.com/users"),
        ResolutionCase("https://api.example.com/v1/", "/", "https://api.example.com/"),
        ResolutionCase("https://api.example.com", "users", "https://api.example.com/users"),
        ResolutionCase("https://api.example.com:8443/v1/", "users", "https://api.example.com:8443/v1/users"),
        ResolutionCase("http://[::1]:8080/a/b", "c", "http://[::1]:8080/a/c"),
        ResolutionCase("https://user:pw@api.example.com/v1/", "users", "https://user:pw@api.example.com/v1/users"),
        ResolutionCase("wss://stream.example.com/v1/", "events", "wss://stream.example.com/v1/events"),
        ResolutionCase("https://api.example.com/v1/", "./users:list", "https://api.example.com/v1/users:list"),
        ResolutionCase("https://api.example.com/v1/", "./users;v=2", "https://api.example.com/v1/users;v=2"),
        ResolutionCase("https://api.example.com/v1/", "https:users", "https://api.example.com/v1/users"),
        ResolutionCase("https://api.example.com/v1/users/", "..", "https://api.example.com/v1/"),
        ResolutionCase("https://api.example.com/v1/users/", "../", "https://api.example.com/v1/"),
        ResolutionCase("https://api.example.com/v1/users", ".", "https://api.example.com/v1/"),
        ResolutionCase("https://api.example.com/v1/users", "./", "https://api.example.com/v1/"),
        ResolutionCase("https://api.example.com/v1/users", "../../../../x", "https://api.example.com/x"),
        ResolutionCase("https://api.example.com", "..", "https://api.example.com/"),
        ResolutionCase("https://api.example.com/v1/", "users/../admin/./keys", "https://api.example.com/v1/admin/keys"),
        ResolutionCase("https://api.example.com/v1/", "%2E%2E/x", "https://api.example.com/v1/%2E%2E/x"),
        ResolutionCase("https://api.example.com/v1/users?page=2", "?page=3", "https://api.example.com/v1/users?page=3"),
        ResolutionCase("https://api.example.com/v1/users?page=2", "", "https://api.example.com/v1/users?page=2"),
        ResolutionCase("https://api.example.com/v1/users?page=2", "#top", "https://api.example.com/v1/users?page=2"),
        ResolutionCase("https://api.example.com/v1/users?page=2", "42", "https://api.example.com/v1/42"),
        ResolutionCase("https://api.example.com", "?q=1", "https://api.example.com?q=1"),
        ResolutionCase(
            "https://api.example.com/v1/", "users?filter=a%26b&x=1+2",
            "https://api.example.com/v1/users?filter=a%26b&x=1+2"),
        ResolutionCase("https://api.example.com/v1/", "search?q=a/b?c", "https://api.example.com/v1/search?q=a/b?c"),
        ResolutionCase(
            "https://api.example.com/v1/", "https://other.example.com/x?y=1", "https://other.example.com/x?y=1"),
        ResolutionCase(
            "https://api.example.com/v1/", "//cdn.example.com/img/logo.png", "https://cdn.example.com/img/logo.png"),
        ResolutionCase("https://api.example.com/v1/", "http://api.example.com/v2/", "http://api.example.com/v2/"),
        ResolutionCase("https://api.example.com/v1/", "a%20b/c%2Fd", "https://api.example.com/v1/a%20b/c%2Fd"),
        ResolutionCase("https://api.example.com/v1/", "caf%C3%A9", "https://api.example.com/v1/caf%C3%A9"),
    ]

    /// Where `urljoin` differs from RFC 3986, with the URL Courier gives instead (see `Endpoint`).
    static let deviations: [ResolutionDeviation] = [
        ResolutionDeviation(
            "https://api.example.com/v1/", "a//b", urljoin: "https://api.example.com/v1/a/b",
            courier: "https://api.example.com/v1/a//b"),
        ResolutionDeviation(
            "https://api.example.com/v1//", "x", urljoin: "https://api.example.com/v1/x",
            courier: "https://api.example.com/v1//x"),
        ResolutionDeviation(
            "https://api.example.com/v1/", "//cdn.example.com/a/./b/../c",
            urljoin: "https://cdn.example.com/a/./b/../c", courier: "https://cdn.example.com/a/c"),
        ResolutionDeviation(
            "https://api.example.com/v1/", "https://other.example.com/a/../b",
            urljoin: "https://other.example.com/a/../b", courier: "https://other.example.com/b"),
        ResolutionDeviation(
            "https://api.example.com/v1/", "?", urljoin: "https://api.example.com/v1/",
            courier: "https://api.example.com/v1/?"),
        ResolutionDeviation(
            "https://api.example.com/v1/", "users?", urljoin: "https://api.example.com/v1/users",
            courier: "https://api.example.com/v1/users?"),
        ResolutionDeviation(
            "https://api.example.com/v1/", "HTTPS://API.EXAMPLE.COM/X", urljoin: "https://API.EXAMPLE.COM/X",
            courier: "https://api.example.com/X"),
        ResolutionDeviation(
            "https://api.example.com/v1/", " users", urljoin: "https://api.example.com/v1/users",
            courier: "https://api.example.com/v1/%20users"),
    ]

    @Test(arguments: urljoinCases)
    func resolvesLikePythonURLJoin(_ row: ResolutionCase) throws {
        let request = try Request {
            BaseURL(row.base)
            Endpoint(row.reference)
        }
        #expect(request.url.absoluteString == row.expected)
    }

    @Test(arguments: deviations)
    func followsRFC3986WhereURLJoinDiffers(_ row: ResolutionDeviation) throws {
        let request = try Request {
            BaseURL(row.base)
            Endpoint(row.reference)
        }
        #expect(request.url.absoluteString == row.courier)
        #expect(row.courier != row.urljoin)
    }

    /// Rows whose base has no query and whose reference has no scheme: there the order of
    /// `Endpoint` and `BaseURL` must not matter.
    static let orderIndependentCases = urljoinCases.filter { row in
        !row.base.contains("?") && !row.reference.hasPrefix("http")
    }

    @Test(arguments: orderIndependentCases)
    func endpointDeclaredBeforeBaseURLResolvesTheSame(_ row: ResolutionCase) throws {
        let request = try Request {
            Endpoint(row.reference)
            BaseURL(row.base)
        }
        #expect(request.url.absoluteString == row.expected)
    }

    @Test(.enabled(if: Python.executable != nil, "python3 is not on PATH"))
    func tableMatchesPythonsOutput() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/urljoin_table.py")
        let output = try await Python.run(script)
        let printed = output.split(separator: "\n").map(String.init)
        let recorded =
            Self.urljoinCases.map { "case\t\($0.base)\t\($0.reference)\t\($0.expected)" }
            + Self.deviations.map { "deviation\t\($0.base)\t\($0.reference)\t\($0.urljoin)" }
        #expect(printed == recorded)
    }
}

/// The `python3` on `PATH`, if any, for checks against Python's standard library.
enum Python {
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `script` and returns what it printed; throws when it cannot start or exits with an error.
    static func run(_ script: URL) async throws -> String {
        guard let executable else { throw PythonError(message: "python3 is not on PATH") }
        let outcome = try await ChildProcess.run(executable.path, [script.path])
        guard outcome.status == 0 else {
            throw PythonError(message: "\(script.lastPathComponent) exited with status \(outcome.status)")
        }
        return outcome.output
    }
}

struct PythonError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
