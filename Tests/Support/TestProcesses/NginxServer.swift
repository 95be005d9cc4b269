public import Foundation

/// An nginx process on 127.0.0.1 with a throwaway prefix, for the length of `serving`'s body.
///
/// nginx is found as `.ci/install` finds it (on `PATH`, or in /usr/sbin), and a test that needs
/// it fails when it is missing instead of being skipped.
public struct NginxServer: Sendable {
    /// The nginx executable, if installed.
    public static let binary: String? = {
        let path =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin"]
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
    public static func serving<Result>(
        listen parameters: String, body: String,
        tls: (certificate: URL, key: URL)? = nil, directives: String = "",
        _ work: (NginxServer) async throws -> Result
    ) async throws -> Result {
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

    private static func start(
        listen parameters: String, body: String,
        tls: (certificate: URL, key: URL)?, directives: String
    ) async throws -> NginxServer {
        guard let binary else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSLocalizedDescriptionKey: "nginx is not installed; bash .ci/install installs it"])
        }
        // The port is free when chosen, but another test's server may take it before nginx binds it:
        // then nginx exits, and a new port is tried.
        for _ in 1...5 {
            let attempt = try await start(
                on: try freeLoopbackPort(), binary: binary, listen: parameters, body: body, tls: tls,
                directives: directives)
            if let attempt { return attempt }
        }
        throw CocoaError(
            .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx found its port taken five times"])
    }

    /// nginx on `port`, or `nil` when it could not bind it.
    private static func start(
        on port: Int, binary: String, listen parameters: String, body: String,
        tls: (certificate: URL, key: URL)?, directives: String
    ) async throws -> NginxServer? {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
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
        guard let baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)") else {
            throw CocoaError(.fileReadInvalidFileName)
        }
        let server = NginxServer(baseURL: baseURL, process: process, prefix: prefix)
        return try await server.waitUntilListening(port: port) ? server : nil
    }

    func stop() async {
        _ = try? await process.stop()
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Polls until nginx itself listens on the port, for at most 10 s, and returns whether it does;
    /// `false` when nginx reports the port taken (and is stopped).
    ///
    /// Accepting a connection is not proof: another test's server may have taken the port between
    /// its choice and nginx's bind, and would answer nginx's requests (a forward proxy once did,
    /// failing two tests). So the listening socket must be one nginx's master process holds.
    private func waitUntilListening(port: Int) async throws -> Bool {
        for _ in 0..<1000 {
            if let pid = process.processIdentifier, Self.process(pid, holdsListeningSocketOn: port) { return true }
            if process.errorOutput().contains("Address already in use") {
                await stop()
                return false
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let log = process.errorOutput()
        await stop()
        throw CocoaError(
            .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start listening on \(port): \(log)"])
    }

    /// The whole of a /proc file, read until end of file: such a file reports a size of 0 and is
    /// produced a page per read, so reading "its size" gets only the first page of a long table.
    public static func readWhole(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[0..<count]
        }
    }

    /// Whether process `pid` has a descriptor of the socket listening on 127.0.0.1:`port`, read
    /// from /proc/net/tcp (state 0A is LISTEN) and /proc/`pid`/fd.
    public static func process(_ pid: Int32, holdsListeningSocketOn port: Int) -> Bool {
        guard let table = readWhole("/proc/net/tcp") else { return false }
        let local = String(format: "0100007F:%04X", port)
        let inodes = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[1] == local, fields[3] == "0A" else { return nil }
            return String(fields[9])
        }
        guard !inodes.isEmpty, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        else { return false }
        let sockets = Set(inodes.map { "socket:[\($0)]" })
        return descriptors.contains { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")).map(
                sockets.contains) ?? false
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
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
