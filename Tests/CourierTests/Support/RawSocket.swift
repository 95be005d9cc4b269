import Foundation

/// A client below HTTP, for checking the exact bytes a server writes and how it ends the
/// connection; it is a short Python script, so no test links a socket library of its own.
enum RawSocket {
    /// What the server sent, and whether it ended with FIN (`eof`), RST (`reset`) or not at all (`timeout`).
    struct Exchange {
        var received: Data
        var ending: String
    }

    private static let script = """
        import base64, socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=float(sys.argv[3]))
        s.sendall(base64.b64decode(sys.argv[2]))
        data, ending = b"", "eof"
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except ConnectionResetError:
            ending = "reset"
        except socket.timeout:
            ending = "timeout"
        print(ending, base64.b64encode(data).decode())
        """

    /// Connects to `port`, sends `request`, and reads until the server ends the connection or
    /// `timeout` seconds pass without a byte.
    static func exchange(port: Int, _ request: String, timeout: Double = 20) async throws -> Exchange {
        let result = try await Shell.run(
            "python3 -c '\(script)' \(port) \(Data(request.utf8).base64EncodedString()) \(timeout)")
        let fields = String(decoding: result.standardOutput, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ", omittingEmptySubsequences: false)
        return Exchange(
            received: fields.count > 1 ? Data(base64Encoded: String(fields[1])) ?? Data() : Data(),
            ending: fields.first.map(String.init) ?? "failed: \(result.standardError)")
    }

    /// `GET target` with `Connection: close`.
    static func get(port: Int, _ target: String, timeout: Double = 20) async throws -> Exchange {
        try await exchange(
            port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout: timeout)
    }
}
