import CourierCurl
import CourierTestServer
import Foundation
import Synchronization

/// Streams a gibibyte each way through Courier over libcurl, against the loopback test server in
/// this same process, and checks that resident memory grows by less than the ceiling.
///
/// Run in release: `swift run -c release memory-check [GiB]`. Exit 0 when every phase stays under
/// the ceiling, 1 when one does not, 2 when a transfer itself went wrong.

let ceiling = 64 << 20
let gibibytes = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1
let size = Int64(gibibytes) << 30

/// Resident set size from `/proc/self/statm`, in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Samples resident memory every 10 ms while `body` runs; returns its result and the peak growth.
func measure<T>(_ body: () async throws -> T) async throws -> (T, Int) {
    let before = residentBytes()
    let peak = Atomic(before)
    let sampler = Task.detached {
        while !Task.isCancelled {
            peak.max(residentBytes(), ordering: .relaxed)
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
    let result = try await body()
    sampler.cancel()
    _ = await sampler.result
    peak.max(residentBytes(), ordering: .relaxed)
    return (result, peak.load(ordering: .relaxed) - before)
}

struct Receipt: Decodable { let received: Int64 }

/// Prints why the check could not finish and exits with status 2.
func abort(_ message: String) -> Never {
    print("memory check failed: \(message)")
    exit(2)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-memory-\(UUID())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let sparse = directory.appendingPathComponent("upload.bin")
_ = FileManager.default.createFile(atPath: sparse.path, contents: nil)
let handle = try FileHandle(forWritingTo: sparse)
try handle.truncate(atOffset: UInt64(size))
try handle.close()

/// Prints one phase's figures; returns whether it stayed under the ceiling.
func report(_ phase: String, growth: Int, seconds: Duration) -> Bool {
    let ok = growth < ceiling
    let mib = Double(growth) / 1_048_576
    let rate = Double(size) / 1_048_576 / (Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)
    let figures = String(format: "peak RSS growth %7.1f MiB  (%6.0f MiB/s)", mib, rate)
    print(phase.padding(toLength: 30, withPad: " ", startingAt: 0) + figures + (ok ? "  ok" : "  OVER 64 MiB"))
    return ok
}

let passed = try await withTestServer { server -> [Bool] in
    let client = Client()
    print("memory check: \(gibibytes) GiB each way, ceiling 64 MiB, baseline RSS \(residentBytes() >> 20) MiB")

    var started = ContinuousClock.now
    let (fileReceipt, fileGrowth) = try await measure {
        try await client.send(try server.baseURL.buildRequest { Endpoint("/upload"); Method.PUT; RequestBody.file(sparse); Timeout(600) },
                              decoding: Receipt.self)
    }
    guard fileReceipt.received == size else { abort("upload received \(fileReceipt.received) bytes") }
    let filePassed = report("upload RequestBody.file", growth: fileGrowth, seconds: ContinuousClock.now - started)

    started = ContinuousClock.now
    let multipart = try server.baseURL.buildRequest {
        Endpoint("/upload")
        Method.POST
        Timeout(600)
        RequestBody.multipart(strategy: .streamed(bufferSize: 256 * 1024)) {
            MultipartPart.field(name: "name", value: "upload.bin")
            MultipartPart.file(name: "file", fileURL: sparse)
        }
    }
    let (multipartReceipt, multipartGrowth) = try await measure { try await client.send(multipart, decoding: Receipt.self) }
    guard multipartReceipt.received == multipart.body?.contentLength else { abort("multipart received \(multipartReceipt.received)") }
    let multipartPassed = report("upload streamed multipart", growth: multipartGrowth, seconds: ContinuousClock.now - started)

    started = ContinuousClock.now
    let target = directory.appendingPathComponent("download.bin")
    _ = FileManager.default.createFile(atPath: target.path, contents: nil)
    let (written, downloadGrowth) = try await measure { () -> Int64 in
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        let response = try await client.stream(try server.baseURL.buildRequest { Endpoint("/bytes/\(size)"); Timeout(600) })
        var total: Int64 = 0
        for try await chunk in response.bodyStream ?? ResponseBodyStream(Data()) {
            try output.write(contentsOf: chunk)
            total += Int64(chunk.count)
        }
        return total
    }
    guard written == size else { abort("download wrote \(written) bytes") }
    let downloadPassed = report("download to a file (stream)", growth: downloadGrowth, seconds: ContinuousClock.now - started)
    return [filePassed, multipartPassed, downloadPassed]
}

exit(passed.allSatisfy { $0 } ? 0 : 1)
