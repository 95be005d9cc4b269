import Foundation
import TestProcesses
import Testing

/// The README's package manifest compiles and depends on a product this package declares.
@Suite("README: the package manifest")
struct ReadmeManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What `swift package dump-package` prints, as far as this test reads it.
    struct Manifest: Decodable {
        struct Dependency: Decodable {
            struct FileSystem: Decodable {
                let identity: String
                let path: String
            }
            let fileSystem: [FileSystem]?
        }
        struct Target: Decodable {
            let name: String
            let dependencies: [[String: [String?]]]
        }
        let dependencies: [Dependency]
        let targets: [Target]
    }

    /// Compiles the manifest in a copy beside a `courier` link to this repository, where the
    /// README's `../courier` points; dump-package resolves nothing, so it needs no network.
    @Test func theManifestCompilesAndDependsOnCourierCurlByPath() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("readme-manifest-\(UUID())")
        let app = scratch.appendingPathComponent("MyApp")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.copyItem(
            at: Self.root.appendingPathComponent("Examples/MyApp/Package.swift"),
            to: app.appendingPathComponent("Package.swift"))
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("courier"), withDestinationURL: Self.root)

        let dumped = try await ChildProcess.run(
            "swift", ["package", "dump-package", "--package-path", app.path],
            timeout: .seconds(300))
        #expect(dumped.status == 0, "\(dumped.errorOutput)")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(dumped.standardOutput))
        let dependency = try #require(manifest.dependencies.first?.fileSystem?.first)
        #expect(dependency.identity == "courier")
        #expect(
            URL(fileURLWithPath: dependency.path).resolvingSymlinksInPath().path
                == Self.root.resolvingSymlinksInPath().path)
        #expect(manifest.targets.map(\.name) == ["MyApp"])
        #expect(manifest.targets.first?.dependencies == [["product": ["CourierCurl", "courier", nil, nil]]])

        let ours = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(ours.contains(#".library(name: "CourierCurl", targets: ["CourierCurl"])"#))
    }
}
