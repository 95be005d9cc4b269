import Courier
import CourierCurl
import Foundation
import Testing
import TestProcesses

/// HTTP/2 and TLS against a real server: nginx on loopback, answering each request with the
/// protocol it was received over.
@Suite("CurlTransport: HTTP/2 and TLS", .enabled(if: NginxServer.isInstalled), .timeLimit(.minutes(1)))
struct CurlHTTP2Tests {
    @Test func priorKnowledgeSpeaksHTTP2ForEveryRequest() async throws {
        try await NginxServer.serving(listen: "http2", body: "$server_protocol") { (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http2PriorKnowledge
            let transport = CurlTransport(configuration: configuration)
            let client = Client(transport: transport)
            for index in 0..<3 {
                #expect(try await client.send(try Request { BaseURL(nginx.baseURL); "sequential"; String(index) }).text == "HTTP/2.0")
            }
            #expect(try await Self.concurrentProtocols(client, nginx.baseURL) == Array(repeating: "HTTP/2.0", count: 8))
            await transport.shutdown()
        }
    }

    /// Streams that end while others still share their connection leave libcurl 7.88 holding their
    /// handles' receive buffers, and such a handle refuses `CURLOPT_BUFFERSIZE` ever after; the
    /// transport must not hand one to a later request.
    @Test func requestsAfterStreamsThatSharedAConnectionSucceed() async throws {
        try await Self.withTLSClient(answering: "$server_protocol") { (client: Client, baseURL: URL) async throws in
            // One request first, so that the concurrent ones find its connection idle and share it.
            #expect(try await client.send(try Request { BaseURL(baseURL); "first" }).text == "HTTP/2.0")
            for _ in 0..<3 {
                #expect(try await Self.concurrentProtocols(client, baseURL) == Array(repeating: "HTTP/2.0", count: 8))
            }
            for index in 0..<16 {
                #expect(try await client.send(try Request { BaseURL(baseURL); "after"; String(index) }).text == "HTTP/2.0")
            }
        }
    }

    @Test func tlsNegotiatesHTTP2AndVerifiesTheCertificate() async throws {
        try await Self.withTLSClient(answering: "$server_protocol $ssl_protocol") { (client: Client, baseURL: URL) async throws in
            let first = try await client.send(try Request { BaseURL(baseURL) })
            #expect(first.text.hasPrefix("HTTP/2.0 TLSv1."))
            let all = try await Self.concurrentProtocols(client, baseURL)
            #expect(all.allSatisfy { $0.hasPrefix("HTTP/2.0") })
        }
    }

    /// Runs `body` with nginx serving HTTP/2 over TLS (answering `variables`) and a client that
    /// negotiates HTTP/2 and trusts nginx's self-signed certificate.
    private static func withTLSClient(answering variables: String,
                                      _ body: (Client, URL) async throws -> Void) async throws {
        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        try await NginxServer.serving(listen: "ssl http2", body: variables, tls: certificate) { (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http2
            configuration.caInfo = certificate.certificate.path
            let transport = CurlTransport(configuration: configuration)
            do {
                try await body(Client(transport: transport), nginx.baseURL)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    @Test func anUntrustedCertificateIsAnInsecureConnection() async throws {
        let certificate = try await SelfSignedCertificate.make()
        defer { certificate.remove() }
        try await NginxServer.serving(listen: "ssl http2", body: "$server_protocol", tls: certificate) { (nginx: NginxServer) async throws in
            let transport = CurlTransport()
            let error = await courierError { _ = try await Client(transport: transport).send(try Request { BaseURL(nginx.baseURL) }) }
            #expect(error?.code == .insecureConnection)
            await transport.shutdown()
        }
    }

    @Test func http1IsUsedWhenAsked() async throws {
        try await NginxServer.serving(listen: "", body: "$server_protocol") { (nginx: NginxServer) async throws in
            var configuration = CurlTransport.Configuration()
            configuration.httpVersion = .http1_1
            let transport = CurlTransport(configuration: configuration)
            let response = try await Client(transport: transport).send(try Request { BaseURL(nginx.baseURL) })
            #expect(response.text == "HTTP/1.1")
            await transport.shutdown()
        }
    }

    /// The protocol 8 concurrent requests were received over.
    static func concurrentProtocols(_ client: Client, _ base: URL) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                let request = try Request { BaseURL(base); "concurrent"; String(index) }
                group.addTask { try await client.send(request).text }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
    }
}

/// A throwaway certificate for 127.0.0.1, made with the `openssl` command.
struct SelfSignedCertificate {
    let directory: URL
    var certificate: URL { directory.appendingPathComponent("cert.pem") }
    var key: URL { directory.appendingPathComponent("key.pem") }

    static func make() async throws -> SelfSignedCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = SelfSignedCertificate(directory: directory)
        let openssl = try await ChildProcess.run(
            "openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", made.key.path, "-out", made.certificate.path],
            timeout: .seconds(60))
        guard openssl.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: openssl.description])
        }
        return made
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// An nginx process on 127.0.0.1 with a throwaway prefix, for the length of `serving`'s body.
struct NginxServer: Sendable {
    static let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isInstalled: Bool { binary != nil }

    let baseURL: URL
    let process: BackgroundProcess
    let prefix: URL

    /// Runs `work` while nginx answers every request with `body` (nginx variables allowed); `listen`
    /// adds parameters to the listen directive (`http2` for cleartext HTTP/2). nginx is stopped
    /// when `work` returns or throws.
    static func serving<Result>(listen parameters: String, body: String, tls: SelfSignedCertificate? = nil,
                                _ work: (NginxServer) async throws -> Result) async throws -> Result {
        let nginx = try await start(listen: parameters, body: body, tls: tls)
        do {
            let result = try await work(nginx)
            await nginx.stop()
            return result
        } catch {
            await nginx.stop()
            throw error
        }
    }

    private static func start(listen parameters: String, body: String, tls: SelfSignedCertificate?) async throws -> NginxServer {
        guard let binary else { throw CocoaError(.fileNoSuchFile) }
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
