import Foundation
import Testing

/// The headers as a C or C++ user meets them, and the coverage of the C tests.
struct CHeaderTests {
    /// The functions courier.h declares, read from the header itself.
    static func declaredFunctions(in header: URL) throws -> [String] {
        let text = try String(contentsOf: header, encoding: .utf8)
        let declarations = text.components(separatedBy: "\nCOURIER_API ").dropFirst()
        return declarations.compactMap { declaration -> String? in
            let head = declaration.prefix { $0 != "(" }
            guard let name = head.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).last,
                name.hasPrefix("courier_")
            else { return nil }
            return String(name)
        }
    }

    @Test func everyDeclaredFunctionIsExercisedByACTest() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let functions = try Self.declaredFunctions(
            in: URL(fileURLWithPath: artifacts.include).appendingPathComponent("courier.h"))
        #expect(functions.count > 60, "parsed only \(functions) from courier.h")
        let sources = try FileManager.default.contentsOfDirectory(atPath: artifacts.cSources.path)
            .filter { $0.hasSuffix(".c") }
            .map { try String(contentsOf: artifacts.cSources.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
            // A name in a comment is not a call.
            .replacing(/\/\*[\s\S]*?\*\//, with: " ")
            .replacing(/\/\/[^\n]*/, with: " ")
        let untested = functions.filter { name in
            sources.range(of: "\\b\(name)\\b", options: .regularExpression) == nil
        }
        #expect(untested.isEmpty, "no C test calls \(untested)")
    }

    @Test func libraryExportsExactlyTheHeaderFunctionsUnderItsSoname() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let functions = try Self.declaredFunctions(
            in: URL(fileURLWithPath: artifacts.include).appendingPathComponent("courier.h"))
        // The default library, and the variant with AsyncHTTPClient, which must export the same.
        for library in [artifacts.defaultLibrary, artifacts.library] {
            let symbols = try artifacts.require(
                await ProcessRunner.run(
                    ["nm", "-D", "--defined-only", library.path]))
            let exported = symbols.output.split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count == 3, fields[1].first?.isUppercase == true else { return nil }
                return String(fields[2].split(separator: "@").first ?? fields[2])
            }
            #expect(Set(exported.filter { !$0.hasPrefix("COURIER_1") }) == Set(functions), "\(library.path)")
            let dynamic = try artifacts.require(await ProcessRunner.run(["readelf", "-d", library.path]))
            #expect(dynamic.output.contains("Library soname: [libcourier.so.1]"), "\(dynamic)")
        }
    }

    /// The functions each ABI minor added carry its version node (`COURIER_1.1`, `COURIER_1.3`,
    /// `COURIER_1.4`; 1.2 added only a struct field), the rest `COURIER_1`: a program calling a
    /// newer function fails to load on an older library, naming the version.
    @Test func functionsAddedInLaterMinorsAreVersionedByTheirMinor() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let symbols = try artifacts.require(
            await ProcessRunner.run(
                ["nm", "-D", "--defined-only", "--with-symbol-versions", artifacts.defaultLibrary.path]))
        let versions = Dictionary(
            uniqueKeysWithValues: symbols.output.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let symbol = line.split(separator: " ").last, symbol.hasPrefix("courier_") else { return nil }
                let parts = symbol.replacingOccurrences(of: "@@", with: "@").split(separator: "@")
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            })
        let addedIn: [String: [String]] = [
            "COURIER_1.1": [
                "courier_client_add_builtin", "courier_client_completion_fd", "courier_client_run_completions",
                "courier_client_save_cookies", "courier_request_set_url",
            ],
            "COURIER_1.3": [
                "courier_client_add_cookies", "courier_client_cookies", "courier_client_remove_cookies",
                "courier_response_history_at", "courier_response_history_count",
            ],
            "COURIER_1.4": ["courier_client_download", "courier_response_metrics"],
        ]
        for (node, functions) in addedIn {
            for function in functions { #expect(versions[function] == node, "\(function)") }
        }
        let later = Set(addedIn.values.joined())
        let original = versions.filter { !later.contains($0.key) }
        #expect(original.values.allSatisfy { $0 == "COURIER_1" })
        #expect(versions.count == later.count + original.count)
    }

    @Test func headersCompileAsStrictCAndCPlusPlus() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let sources = artifacts.cSources
        let object = artifacts.work.appendingPathComponent("header-check.o").path
        for source in ["header_check.cpp", "plugin_header_check.cpp"] {
            try artifacts.require(
                await ProcessRunner.run(
                    [
                        "c++", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I\(artifacts.include)", "-c", "-o", object,
                        sources.appendingPathComponent(source).path,
                    ]))
        }
        for standard in ["-std=c99", "-std=c11"] {
            try artifacts.require(
                await ProcessRunner.run(
                    [
                        "cc", standard, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I\(artifacts.include)", "-c",
                        "-o", object, sources.appendingPathComponent("test_api.c").path,
                    ]))
        }
    }

    @Test func pluginCallingTheLibraryDirectlyDoesNotCompile() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let outcome = try await ProcessRunner.run(
            ["cc"] + CAPIArtifacts.strictC + [
                "-I\(artifacts.include)", "-c", "-o",
                artifacts.work.appendingPathComponent("plugin-calls-library.o").path,
                artifacts.cSources.appendingPathComponent("plugin_calls_library.c").path,
            ])
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("plugins call the host through courier_host_api"), "\(outcome)")
    }
}
