public import Foundation

/// An nginx process on 127.0.0.1 with a throwaway prefix, for the length of `serving`'s body.
///
/// nginx is found as `.ci/install` finds it (on `PATH`, or in /usr/sbin), and a test that needs
/// it fails when it is missing instead of being skipped.
public struct NginxServer: Sendable {
    /// The nginx executable, if installed.
    public static let binary: String? = {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin"]
        return path.map { "\($0)/nginx" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The URL nginx answers on: `http://` or, with TLS, `https://127.0.0.1:<port>`.
    public let baseURL: URL
    let process: BackgroundProcess
    let prefix: URL

    /// Runs `work` while nginx answers every request with `body` (nginx variables allowed); `listen`
    /// adds parameters to the listen directive (`http2` for cleartext HTTP/2), `directives` more
    /// directives to the server block (`ssl_verify_client on;`…). nginx is stopped when `work`
    /// returns or throws.
    public static func serving<Result>(listen parameters: String, body: String,
                                       tls: (certificate: URL, key: URL)? = nil, directives: String = "",
                                       _ work: (NginxServer) async throws -> Result) async throws -> Result {
        let nginx = try await start(listen: parameters, body: body, tls: tls, directives: directives)
        do {
            let result = try await work(nginx)
            await nginx.stop()
            return result
        } catch {
            await nginx.stop()
            throw error
        }
    }

    private static func start(listen parameters: String, body: String,
                              tls: (certificate: URL, key: URL)?, directives: String) async throws -> NginxServer {
        guard let binary else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "nginx is not installed; bash .ci/install installs it"])
        }
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        let config = """
            worker_processes 1;
            daemon off;
            error_log stderr error;
            pid \(prefix.path)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                server {
                    listen 127.0.0.1:\(port) \(parameters);
                    \(tls.map { "ssl_certificate \($0.certificate.path); ssl_certificate_key \($0.key.path);" } ?? "")
                    \(directives)
                    location / { default_type text/plain; return 200 "\(body)"; }
                }
            }
            """
        let configURL = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let process = try BackgroundProcess(binary, ["-p", prefix.path, "-c", configURL.path])
        let scheme = tls == nil ? "http" : "https"
        guard let baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)") else { throw CocoaError(.fileReadInvalidFileName) }
        let server = NginxServer(baseURL: baseURL, process: process, prefix: prefix)
        try await server.waitUntilListening(port: port)
        return server
    }

    func stop() async {
        _ = try? await process.stop()
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Polls until the port accepts a connection (nginx starts in milliseconds), for at most 5 s.
    private func waitUntilListening(port: Int) async throws {
        for _ in 0..<500 {
            if Self.canConnect(port: port) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        let log = process.errorOutput()
        await stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start listening on \(port): \(log)"])
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port on 127.0.0.1 that was free a moment ago.
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
