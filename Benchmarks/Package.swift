// swift-tools-version:6.1
import Foundation
import PackageDescription

// Benchmarks live in their own package so that Courier itself never depends on package-benchmark,
// AsyncHTTPClient or the malloc interposer. Build and run them in release only (`./run.sh`).

/// The Courier checkout this package measures: the directory above this one.
let courierRoot = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
/// SwiftPM names a path dependency after its directory, so a checkout under any name works.
let courierPackage = courierRoot.lastPathComponent.lowercased()

/// Whether the Courier checkout has a module, so transports that land later join without edits here.
func courierHasModule(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: courierRoot.appendingPathComponent("Sources/\(name)").path)
}

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

/// The Courier transports `courier-http-bench` can drive; each is used under `#if canImport`.
let courierTransports: [Target.Dependency] = ["CourierCurl", "CourierAsyncHTTPClient", "CourierURLSession"]
    .filter(courierHasModule)
    .map { .product(name: $0, package: courierPackage) }

let package = Package(
    name: "CourierBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // RuntimeInterposer (a default trait on Linux with Swift 6.3) needs swift-runtime-interposer;
        // naming the traits keeps only the malloc interposer that the malloc metrics need.
        .package(url: "https://github.com/ordo-one/package-benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.30.0"),
    ],
    targets: [
        .target(name: "BenchLoad", swiftSettings: strictSettings),
        .target(
            name: "PipelineFixtures",
            dependencies: [
                .product(name: "Courier", package: courierPackage),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "Pipeline",
            dependencies: [
                "PipelineFixtures",
                .product(name: "Courier", package: courierPackage),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/Pipeline",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "memory-check",
            dependencies: [
                .product(name: "CourierCurl", package: courierPackage),
                .product(name: "CourierTestServer", package: courierPackage),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pipeline-threads",
            dependencies: [
                "PipelineFixtures",
                .product(name: "Courier", package: courierPackage),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "builder-loop",
            dependencies: [
                "PipelineFixtures",
                .product(name: "Courier", package: courierPackage),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ahc-bench",
            dependencies: [
                "BenchLoad",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        // The raw URLSession baseline (FoundationNetworking on Linux).
        .executableTarget(
            name: "urlsession-bench",
            dependencies: ["BenchLoad"],
            swiftSettings: strictSettings
        ),
        // Courier-curl's requests for an instruction count under callgrind (scripts/instructions.sh).
        .executableTarget(
            name: "instruction-probe",
            dependencies: [
                "PipelineFixtures",
                .product(name: "Courier", package: courierPackage),
                .product(name: "CourierCurl", package: courierPackage),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "courier-http-bench",
            dependencies: [
                "BenchLoad",
                "PipelineFixtures",
                .product(name: "Courier", package: courierPackage),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ] + courierTransports,
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
