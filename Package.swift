// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

/// This package's directory, for linker flags that name files in it.
let packageDirectory = Context.packageDirectory

let package = Package(
    name: "Courier",
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        // The core's bridges to full Foundation (URLRequest, InputStream bodies, the seeds'
        // spellings): apart, so the core runs on FoundationEssentials, without ICU.
        .library(name: "CourierFoundation", targets: ["CourierFoundation"]),
        // HAR files and cassettes: recording and replaying exchanges, for debugging and tests.
        .library(name: "CourierRecording", targets: ["CourierRecording"]),
        // `Request(curlCommand:)`: reading a pasted curl command line (shell words, printf escapes).
        .library(name: "CourierCurlImport", targets: ["CourierCurlImport"]),
        .library(name: "CourierCurl", targets: ["CourierCurl"]),
        // URLSession as the transport: the default on Apple platforms, FoundationNetworking on Linux.
        .library(name: "CourierURLSession", targets: ["CourierURLSession"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierTestServer", targets: ["CourierTestServer"]),
        // A swift-openapi-runtime ClientTransport on Courier's pipeline; the only product that builds it.
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        // Declarative API types (`@API`, `@GET`…); the only product that builds swift-syntax.
        .library(name: "CourierAPI", targets: ["CourierAPI"]),
        // libCourierC.so; scripts/build-libcourier.sh installs it as libcourier.so.1 (its SONAME),
        // since the product name `courier` belongs to the command-line tool. The core and the
        // curl transport only: what a C caller uses.
        .library(name: "CourierC", type: .dynamic, targets: ["CourierCLibrary"]),
        // The same library with the AsyncHTTPClient transport too (SwiftNIO, BoringSSL): the
        // opt-in variant, installed instead of the default one (`build-libcourier.sh --with-async-http-client`).
        .library(name: "CourierCWithAsyncHTTPClient", type: .dynamic, targets: ["CourierCLibraryAsyncHTTPClient"]),
        .executable(name: "courier-examples", targets: ["courier-examples"]),
        .executable(name: "courier", targets: ["CourierTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.36.0"),
        // Already resolved for AsyncHTTPClient; named here for the test server's Digest route.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.30.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        // `swift package generate-documentation --target Courier` (DocC); a plugin, built only when run.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // For CourierOpenAPI only: a ClientTransport for clients swift-openapi-generator generates.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        // A range over three majors, so CourierAPI never forces a swift-syntax version on its users.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing.git", from: "0.7.0"),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // zlib, for `courier --compress` and the test server's gzip routes: the core and the
        // transports never deflate a body.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "CourierCurl",
            dependencies: [
                "Courier",
                "CCurl",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierURLSession",
            dependencies: [
                "Courier",
                "CourierFoundation",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierFoundation",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierRecording",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierCurlImport",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                "Courier",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CCourier",
            path: "include",
            publicHeadersPath: "."
        ),
        // The optional pieces a C library may be built with, found at link time (a weak symbol).
        .target(
            name: "CCourierHooks",
            path: "Sources/CCourierHooks"
        ),
        // What a C interceptor touches (request, response, exchange and error handles, the
        // callback threads) and plugin loading with its host function table: shared by the C
        // library and the command-line tool's --plugin, which needs no client or send of the C ABI.
        .target(
            name: "CourierCInterceptors",
            dependencies: [
                "CCourier",
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "CourierCAPI",
            dependencies: [
                "CCourier",
                "CCourierHooks",
                "Courier",
                "CourierCInterceptors",
                "CourierCurl",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // COURIER_TRANSPORT_ASYNC_HTTP_CLIENT for the C library's opt-in variant.
        .target(
            name: "CourierCAPIAsyncHTTPClient",
            dependencies: [
                "CourierCAPI",
                "CCourier",
                "Courier",
                "CourierAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings
        ),
        // The shared library's own target, so that its linker flags reach libCourierC.so only,
        // not the command-line tool or the tests, which link CourierCAPI statically. The flags are
        // GNU ld's (SONAME, version script): the C library is built and shipped for Linux.
        .target(
            name: "CourierCLibrary",
            dependencies: ["CourierCAPI"],
            exclude: ["libcourier.map"],
            swiftSettings: strictSettings,
            linkerSettings: [
                // The ABI major in the SONAME, and only courier_* symbols exported (versioned COURIER_1).
                // Never unloaded (-z nodelete): its threads (curl I/O, callbacks, Swift concurrency)
                // outlive every call, and dlclose, which cffi calls as Python exits, would unmap
                // the code they run.
                .unsafeFlags(
                    [
                        "-Xlinker", "-soname=libcourier.so.1",
                        "-Xlinker", "--version-script=\(packageDirectory)/Sources/CourierCLibrary/libcourier.map",
                        "-Xlinker", "-z", "-Xlinker", "nodelete",
                    ], .when(platforms: [.linux]))
            ]
        ),
        // The variant with AsyncHTTPClient: the same SONAME, exports, version script and nodelete.
        .target(
            name: "CourierCLibraryAsyncHTTPClient",
            dependencies: ["CourierCAPI", "CourierCAPIAsyncHTTPClient"],
            swiftSettings: strictSettings,
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xlinker", "-soname=libcourier.so.1",
                        "-Xlinker", "--version-script=\(packageDirectory)/Sources/CourierCLibrary/libcourier.map",
                        "-Xlinker", "-z", "-Xlinker", "nodelete",
                    ], .when(platforms: [.linux]))
            ]
        ),
        .target(
            name: "CourierTestServer",
            dependencies: [
                "CZlib",
                // The Digest routes' hashes: OpenSSL's libcrypto on Linux, swift-crypto (CryptoKit
                // underneath) on Apple platforms, so a Linux build compiles no second BoringSSL.
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
                .product(
                    name: "Crypto", package: "swift-crypto",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Child processes for the tests (curl, cc, nginx, valgrind, `courier` itself), on
        // swift-subprocess instead of Foundation's `Process`, which crashed test runs on Linux.
        .target(
            name: "TestProcesses",
            dependencies: [
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/Support/TestProcesses",
            swiftSettings: strictSettings
        ),
        // The documentation set's Markdown (README.md, docs/, the DocC articles…): fenced code blocks,
        // shell commands, headings and links, for the tests that compile or run each block, the test
        // that checks every block is one of those or marked as output, and the link check.
        .target(
            name: "ReadmeBlocks",
            path: "Tests/Support/ReadmeBlocks",
            swiftSettings: strictSettings
        ),
        // The declared-API macros' expansions, a plain library so that their tests link it: a test
        // target depending on a macro target is built for the host, and every module the tests use
        // with it, a second time (CourierAPIMacros forwards to these).
        .target(
            name: "CourierAPIMacroExpansions",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        .macro(
            name: "CourierAPIMacros",
            dependencies: [
                "CourierAPIMacroExpansions",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierAPI",
            dependencies: [
                "Courier",
                // The default transport of `Provider(baseURL:)`: libcurl where the system ships it
                // for Courier, URLSession on Apple platforms (iOS has no libcurl).
                .target(name: "CourierCurl", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
                .target(
                    name: "CourierURLSession",
                    condition: .when(platforms: [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS])),
                "CourierAPIMacros",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReadmeExamples",
            dependencies: [
                "Courier", "CourierFoundation", "CourierRecording", "CourierCurl", "CourierAsyncHTTPClient",
                "CourierURLSession",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Examples/ReadmeExamples",
            swiftSettings: strictSettings
        ),
        .target(
            name: "APIReadmeExamples",
            dependencies: ["CourierAPI"],
            path: "Examples/APIReadmeExamples",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "courier-examples",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierTestServer",
                "ReadmeExamples",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Examples/courier-examples",
            swiftSettings: strictSettings
        ),
        // HTTPie's request items (`Name:Value`, `name==value`, `name:=json`…): parsing only, no I/O,
        // in a module of its own so that its fuzz target builds without the CLI's dependencies.
        .target(
            name: "CourierRequestItems",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CourierCLI",
            dependencies: [
                "Courier",
                "CourierRecording",
                "CourierCurlImport",
                "CourierRequestItems",
                "CourierCurl",
                "CourierAsyncHTTPClient",
                "CourierCInterceptors",
                "CourierTestServer",
                "CZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CourierTool",
            dependencies: ["CourierCLI"],
            path: "Sources/courier",
            swiftSettings: strictSettings
        ),
        // Fuzz targets (Fuzz/README.md): corpus replayers in an ordinary build, whose committed
        // inputs FuzzCorpusTests run; libFuzzer fuzzers when scripts/fuzz builds them with
        // -sanitize=fuzzer,address in a build directory of their own.
        .target(
            name: "CourierFuzzDriver",
            path: "Fuzz/Driver"
        ),
        .executableTarget(
            name: "fuzz-event-stream",
            dependencies: ["Courier", "CourierFuzzDriver"],
            path: "Fuzz/Targets/fuzz-event-stream",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-response-head",
            dependencies: [
                "Courier", "CourierCurl", "CourierFuzzDriver", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Fuzz/Targets/fuzz-response-head",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-uri-reference",
            dependencies: ["Courier", "CourierFuzzDriver"],
            path: "Fuzz/Targets/fuzz-uri-reference",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-header-field",
            dependencies: ["Courier", "CourierFuzzDriver", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Fuzz/Targets/fuzz-header-field",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-form-encoder",
            dependencies: ["Courier", "CourierFuzzDriver"],
            path: "Fuzz/Targets/fuzz-form-encoder",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-request-item",
            dependencies: ["CourierRequestItems", "CourierFuzzDriver"],
            path: "Fuzz/Targets/fuzz-request-item",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "TestProcesses",
                "ReadmeBlocks",
                "Courier",
                "CourierFoundation",
                "CourierRecording",
                "CourierCurlImport",
                "CourierAsyncHTTPClient",
                "CourierCurl",
                "CourierURLSession",
                "CourierTestServer",
                "ReadmeExamples",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierCurlTests",
            dependencies: [
                "TestProcesses",
                "CourierCurl",
                "CourierRecording",
                "CourierTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TransportConformanceTests",
            dependencies: [
                "TestProcesses",
                "Courier",
                "CourierCurl",
                "CourierURLSession",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierURLSessionTests",
            dependencies: [
                "CourierURLSession",
                "Courier",
                "CourierFoundation",
                "CourierTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierAsyncHTTPClientTests",
            dependencies: [
                "CourierAsyncHTTPClient",
                "Courier",
                "CourierTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: [
                "CourierOpenAPI",
                "Courier",
                "CourierCurl",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["OpenAPI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierCLITests",
            dependencies: [
                "TestProcesses",
                "CZlib",
                "ReadmeBlocks",
                "CourierCLI",
                "CourierRequestItems",
                "CourierTool",
                "Courier",
                "CourierTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierAPIMacrosTests",
            dependencies: [
                "CourierAPIMacroExpansions",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "MacroTesting", package: "swift-macro-testing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CourierAPITests",
            dependencies: [
                "CourierAPI",
                "CourierCurl",
                "APIReadmeExamples",
                "ReadmeBlocks",
                "CourierTestServer",
                "CourierAsyncHTTPClient",
                "CourierURLSession",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibCrypto",
            path: "Sources/CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CFFI",
            path: "Sources/CFFI",
            pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]
        ),
        // Compiles the C tests and plugins in c/ and Fixtures/ with the system C compiler and runs
        // them, under valgrind, against libCourierC.so, which `swift test` builds with every product.
        .testTarget(
            name: "CAPITests",
            dependencies: [
                "CCourier",
                "Courier",
                "CourierCInterceptors",
                "CourierCAPI",
                "CourierCAPIAsyncHTTPClient",
                "CourierCurl",
                "TestProcesses",
                "ReadmeBlocks",
                "CFFI",
                "CourierTestServer",
            ],
            exclude: ["c", "Fixtures", "Packaging", "valgrind.supp"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// scripts/thread-sanitizer builds with COURIER_THREAD_SANITIZER_BUILD set: only the suites that
// exercise concurrency and what they need, so that a second, ThreadSanitizer-instrumented build
// leaves out swift-syntax, the macro layer, the CLI and the fuzz targets, which those suites never run.
if Context.environment["COURIER_THREAD_SANITIZER_BUILD"] != nil {
    let needed: Set<String> = [
        "Courier", "CourierFoundation", "CourierRecording", "CourierCurlImport", "CCurl", "CZlib", "CourierCurl",
        "CourierURLSession", "CourierAsyncHTTPClient", "CCourier", "CCourierHooks", "CourierCInterceptors",
        "CourierCAPI",
        "CourierCAPIAsyncHTTPClient", "CourierCLibrary", "CourierCLibraryAsyncHTTPClient",
        "CourierTestServer", "CLibCrypto", "TestProcesses", "ReadmeBlocks", "ReadmeExamples", "CFFI",
        "CourierTests", "CourierCurlTests", "TransportConformanceTests", "CAPITests",
    ]
    package.targets.removeAll { !needed.contains($0.name) }
    let neededProducts: Set<String> = [
        "Courier", "CourierFoundation", "CourierRecording", "CourierCurlImport", "CourierCurl",
        "CourierURLSession", "CourierAsyncHTTPClient",
        "CourierTestServer", "CourierC",
        "CourierCWithAsyncHTTPClient",
    ]
    package.products.removeAll { !neededProducts.contains($0.name) }
    let unneededPackages = [
        "swift-syntax", "swift-macro-testing", "swift-argument-parser", "swift-openapi-runtime", "swift-docc-plugin",
    ]
    package.dependencies.removeAll { dependency in
        unneededPackages.contains { "\(dependency.kind)".contains("/\($0).git") }
    }
}
